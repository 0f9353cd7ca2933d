"""
``persian-rummy serve``: the table server of `persian_rummy.server`, run by uvicorn.

It prints the address to open in a browser as its first line, keeps its tables in an SQLite file
(``persian-rummy.sqlite3`` in the current folder unless ``--db`` says otherwise; ``--db :memory:``
keeps nothing), and goes on with every stored table when it starts again.  Every limit of
`persian_rummy.server.Limits` is an option (``--max-body BYTES``).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import socket
import sys
from typing import TYPE_CHECKING, Final

from .. import limits as _limits
from ..server._limits import Limits, limit_fields

if TYPE_CHECKING:
    from starlette.types import ASGIApp

#: The host names a server listening on a loopback address answers to, unless ``--allow-host`` adds more.
LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "::1")

_GROUPS: Final = {
    "messages": "limits: messages on a table's WebSocket",
    "http": "limits: HTTP requests",
    "connections": "limits: connections",
    "tables": "limits: tables",
    "bots": "limits: bots",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Add ``serve``'s arguments to *parser*.
    """
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1, this computer only; 0.0.0.0 is every network's)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="the port to listen on; 0 picks a free one (default 8000)"
    )
    parser.add_argument(
        "--db",
        default="persian-rummy.sqlite3",
        metavar="PATH",
        help="the SQLite database file of the tables (default persian-rummy.sqlite3); ':memory:' keeps nothing; "
        "a postgresql:// URL keeps them in PostgreSQL (the postgres extra), which several workers share",
    )
    parser.add_argument(
        "--bus",
        metavar="URL",
        help="the redis:// URL of the bus between workers that share a PostgreSQL --db (the redis extra): "
        "a request about a table reaches the worker that owns it, whichever worker it came to",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="COUNT",
        help="worker processes sharing the port (default 1); more than one needs a postgresql:// --db and a --bus",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, metavar="SECONDS", help="how long bots wait before acting (default 0.8)"
    )
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    _access_options(parser)
    _limit_options(parser)


def _access_options(parser: argparse.ArgumentParser) -> None:
    """
    The options of who may use the server, and how: bots, seeds, origins, hosts and proxies.
    """
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer a bot of your own under NAME: SPEC is a player as `persian-rummy match` takes it "
        "(module:attribute[:arguments], or an installed player's name), loaded at start (repeatable)",
    )
    parser.add_argument(
        "--allow-seed",
        action="store_true",
        help="let a table's creator choose its seed (for tests and demonstrations): anyone who knows it "
        "knows every hand, and every seat is shown that the table is seeded",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a site whose pages may use this server (https://cards.example), besides its own (repeatable)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to; on a loopback address it answers to localhost, 127.0.0.1 "
        "and ::1 only unless given, elsewhere to every name unless given (repeatable)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are trusted "
        "(comma-separated); none by default",
    )


def _limit_options(parser: argparse.ArgumentParser) -> None:
    groups = {name: parser.add_argument_group(title) for name, title in _GROUPS.items()}
    for field in limit_fields():
        option = "--" + field.name.replace("_", "-")
        kind = int if field.type in {"int", int} else float
        groups[field.metadata["group"]].add_argument(
            option,
            type=kind,
            default=field.default,
            metavar=field.metadata["unit"],
            help=f"{field.metadata['help']} (default {field.default:g})",
        )


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bots(specs: list[str]) -> dict[str, str]:
    bots: dict[str, str] = {}
    for text in specs:
        name, equals, spec = text.partition("=")
        if not equals or not name or not spec:
            sys.exit(f"persian-rummy: --bot is NAME=SPEC, got {_limits.shown(text)}")
        bots[name.strip()] = spec.strip()
    return bots


def _application(args: argparse.Namespace, limits: Limits) -> ASGIApp:
    """
    The application *args* ask for; exits with the reason if it cannot be made.
    """
    try:
        from ..server import create_app  # noqa: PLC0415 (the server extra)
    except ImportError as error:
        sys.exit(f"persian-rummy: serve needs the server extra: pip install 'persian-rummy[server]' ({error})")
    hosts: list[str] | None = list(args.allow_host) or None
    if _loopback(args.host):
        hosts = [*LOOPBACK_HOSTS, *args.allow_host]
    try:
        return create_app(
            args.db,
            bot_delay=args.bot_delay,
            limits=limits,
            bots=_bots(args.bot),
            allow_seed=args.allow_seed,
            allow_origins=args.allow_origin,
            allowed_hosts=hosts,
            bus=args.bus,
        )
    except (ValueError, ImportError) as error:
        sys.exit(f"persian-rummy: {error}")


def run(args: argparse.Namespace) -> None:
    """
    Serve until interrupted.
    """
    try:
        from ..server._serving import serve  # noqa: PLC0415 (the server extra)
    except ImportError as error:
        sys.exit(f"persian-rummy: serve needs the server extra: pip install 'persian-rummy[server]' ({error})")
    if not 0 <= args.port <= 65535:
        sys.exit(f"persian-rummy: --port must be from 0 to 65535, not {args.port}")
    try:
        limits = Limits(**{field.name: getattr(args, field.name) for field in limit_fields()})
    except ValueError as error:
        sys.exit(f"persian-rummy: --{str(error).replace('_', '-')}")
    _check_workers(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.workers == 1:
        app = _application(args, limits)
    # Made as a TCP socket by name, so that its connections send at once (TCP_NODELAY, which the event
    # loop sets on such sockets only): else a response's body waits 40 ms behind its head.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((args.host, args.port))
    listener.listen(2048)  # the printed address takes connections at once
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    where = _shown_db(args.db) + (f", {args.workers} workers" if args.workers > 1 else "")
    print(f"Serving on http://{shown}:{port}/ (tables kept in {where}); Ctrl-C stops", flush=True)
    if not _loopback(args.host):
        logging.getLogger("persian_rummy.server").warning(
            "listening on %s: every computer that reaches this one can use the server; on a network you do "
            "not trust, serve it behind a reverse proxy with TLS (see the documentation's Build a server page)",
            args.host,
        )
    if args.workers == 1:
        serve(app, listener, limits, log_level=args.log_level, forwarded_allow_ips=args.forwarded_allow_ips)
    else:
        _serve_workers(args, listener, limits)


def _serve_workers(args: argparse.Namespace, listener: socket.socket, limits: Limits) -> None:
    from ..server._serving import serve_workers  # noqa: PLC0415 (the server extra)

    make = lambda: _application(args, limits)  # noqa: E731 (made in each worker)
    serve_workers(
        make,
        listener,
        limits,
        workers=args.workers,
        log_level=args.log_level,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )


def _postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def _check_workers(args: argparse.Namespace) -> None:
    """
    Exit with the reason if *args* ask for workers, or a bus, without what they need.
    """
    if not 1 <= args.workers <= 64:
        sys.exit(f"persian-rummy: --workers must be from 1 to 64, not {args.workers}")
    if args.bus is not None and not _postgres(args.db):
        sys.exit("persian-rummy: --bus needs a postgresql:// --db, which the workers share")
    if args.bus is not None and not args.bus.startswith(("redis://", "rediss://", "unix://")):
        sys.exit("persian-rummy: --bus is a redis://, rediss:// or unix:// URL")
    if args.workers > 1 and args.bus is None:
        sys.exit("persian-rummy: several --workers need a postgresql:// --db and a --bus")


def _shown_db(db: str) -> str:
    """
    The database as the first line names it: a URL without its user and password.

    >>> _shown_db("postgresql://user:secret@db.example:5432/cards"), _shown_db("tables.sqlite3")
    ('postgresql://db.example:5432/cards', 'tables.sqlite3')
    """
    if not _postgres(db):
        return db
    scheme, _, rest = db.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}"
