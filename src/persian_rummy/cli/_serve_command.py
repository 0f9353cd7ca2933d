"""
``persian-rummy serve``: the table server of `persian_rummy.server`, run by uvicorn.

It prints the address to open in a browser as its first line, keeps its tables in an SQLite file
(``persian-rummy.sqlite3`` in the current folder unless ``--db`` says otherwise; ``--db :memory:``
keeps nothing), and goes on with every stored table when it starts again.
"""

from __future__ import annotations

import argparse
import logging
import socket
import sys

#: The largest WebSocket frame the server reads, in bytes; a larger one closes its connection.
MAX_FRAME = 65_536


def configure(parser: argparse.ArgumentParser) -> None:
    """
    Add ``serve``'s arguments to *parser*.
    """
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8000, help="the port to listen on; 0 picks a free one (default 8000)"
    )
    parser.add_argument(
        "--db",
        default="persian-rummy.sqlite3",
        metavar="PATH",
        help="the SQLite database file of the tables (default persian-rummy.sqlite3); ':memory:' keeps nothing",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, metavar="SECONDS", help="how long bots wait before acting (default 0.8)"
    )
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))


def run(args: argparse.Namespace) -> None:
    """
    Serve until interrupted.
    """
    try:
        import uvicorn  # noqa: PLC0415 (the server extra)

        from ..server import create_app  # noqa: PLC0415 (the server extra)
    except ImportError as error:
        sys.exit(f"persian-rummy: serve needs the server extra: pip install 'persian-rummy[server]' ({error})")
    if not 0 <= args.port <= 65535:
        sys.exit(f"persian-rummy: --port must be from 0 to 65535, not {args.port}")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    listener = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((args.host, args.port))
    listener.listen(2048)  # the printed address takes connections at once
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    app = create_app(args.db, bot_delay=args.bot_delay)
    # No per-message compression: the messages are small, and compressing each costs the server more
    # than it saves on a local network.
    config = uvicorn.Config(
        app, log_level=args.log_level, ws_max_size=MAX_FRAME, ws_per_message_deflate=False, lifespan="on"
    )
    print(f"Serving on http://{shown}:{port}/ (tables kept in {args.db}); Ctrl-C stops", flush=True)
    uvicorn.Server(config).run(sockets=[listener])
