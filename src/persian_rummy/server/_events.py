"""
ASGI scopes and events as JSON, for the tunnels between workers (`_route`), and read back checked.

What one worker sends another is taken as hostile as a client's bytes: `read_scope` and
`read_event` take only the kinds of event a tunnel carries in its direction, only their known fields,
each of its type and within its size (`MAX_FIELD`, `MAX_HEADERS`), and raise `ValueError` for
anything else.  Bytes travel in base64, headers as pairs of Latin-1 strings.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, Final

from starlette.types import Message, Scope

#: The longest string or byte string of an event or scope, in characters or bytes.
MAX_FIELD: Final = 131_072
#: The most headers of a request or an answer, and their size in all, in characters.
MAX_HEADERS: Final = 128
MAX_HEADER_CHARACTERS: Final = 65_536

#: The fields of each kind of event a tunnel carries to the owner (from the client) and back, with
#: their types: ``bytes``, ``str``, ``int``, ``bool``, ``headers``; ``?`` when it may be null.
INCOMING: Final[dict[str, dict[str, str]]] = {
    "http.request": {"body": "bytes", "more_body": "bool"},
    "http.disconnect": {},
    "websocket.connect": {},
    "websocket.receive": {"text": "str?", "bytes": "bytes?"},
    "websocket.disconnect": {"code": "int"},
}
OUTGOING: Final[dict[str, dict[str, str]]] = {
    "http.response.start": {"status": "int", "headers": "headers", "trailers": "bool"},
    "http.response.body": {"body": "bytes", "more_body": "bool"},
    "websocket.accept": {"subprotocol": "str?", "headers": "headers"},
    "websocket.send": {"text": "str?", "bytes": "bytes?"},
    "websocket.close": {"code": "int", "reason": "str?"},
}
_ALL: Final = {**INCOMING, **OUTGOING}


def _headers_data(headers: object) -> list[list[str]]:
    return [[bytes(key).decode("latin-1"), bytes(value).decode("latin-1")] for key, value in headers]  # type: ignore[attr-defined]


def _read_headers(value: object) -> list[tuple[bytes, bytes]]:
    if not isinstance(value, list) or len(value) > MAX_HEADERS:
        raise ValueError(f"headers are a list of at most {MAX_HEADERS} pairs")
    headers, size = [], 0
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)):
            raise ValueError("a header is a pair of strings")
        size += len(pair[0]) + len(pair[1])
        if size > MAX_HEADER_CHARACTERS:
            raise ValueError(f"headers are at most {MAX_HEADER_CHARACTERS} characters")
        try:
            headers.append((pair[0].encode("latin-1"), pair[1].encode("latin-1")))
        except UnicodeEncodeError:
            raise ValueError("a header is Latin-1") from None
    return headers


def event_data(event: Message) -> dict[str, Any]:
    """
    *event* as JSON data.
    """
    kind = str(event["type"])
    data: dict[str, Any] = {"type": kind}
    for name, form in _ALL.get(kind, {}).items():
        value = event.get(name)
        if value is None:
            continue
        if form.startswith("bytes"):
            data[name] = base64.b64encode(bytes(value)).decode("ascii")
        elif form == "headers":
            data[name] = _headers_data(value)
        else:
            data[name] = value
    return data


def _bytes(value: object) -> bytes | None:
    if not isinstance(value, str) or len(value) > MAX_FIELD * 4 // 3 + 4:
        return None
    try:
        decoded = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    return decoded if len(decoded) <= MAX_FIELD else None


_READERS: Final[dict[str, Any]] = {
    "bool": lambda value: value if isinstance(value, bool) else None,
    "int": lambda value: value if type(value) is int and abs(value) < 2**31 else None,
    "str": lambda value: value if isinstance(value, str) and len(value) <= MAX_FIELD else None,
    "bytes": _bytes,
    "headers": _read_headers,
}


def _field(name: str, form: str, value: object) -> object:
    if value is None and form.endswith("?"):
        return None
    read = _READERS[form.rstrip("?")](value)
    if read is None:
        raise ValueError(f"{name} is not a {form.rstrip('?')} within its size")
    return read


def read_event(data: object, kinds: dict[str, dict[str, str]]) -> Message:
    """
    The event of *data*, one of *kinds* (`INCOMING` or `OUTGOING`), checked.

    Raises:
        ValueError: it is not such an event.
    """
    if not isinstance(data, dict) or data.get("type") not in kinds:
        raise ValueError("not an event this tunnel carries")
    kind = str(data["type"])
    event: dict[str, Any] = {"type": kind}
    for name, form in kinds[kind].items():
        if name in data:
            event[name] = _field(name, form, data[name])
    return event


def scope_data(scope: Scope) -> dict[str, Any]:
    """
    The parts of an HTTP or WebSocket *scope* that the owner of a table needs, as JSON data.
    """
    client = scope.get("client")
    return {
        "type": scope["type"],
        "method": scope.get("method", "GET"),
        "scheme": scope.get("scheme", "http"),
        "http_version": scope.get("http_version", "1.1"),
        "path": scope["path"],
        "query_string": bytes(scope.get("query_string", b"")).decode("latin-1"),
        "headers": _headers_data(scope.get("headers", [])),
        "client": list(client) if client else None,
        "subprotocols": list(scope.get("subprotocols", [])),
    }


def _check_request(method: object, path: object, query: object) -> None:
    if not (isinstance(method, str) and method.isalpha() and method.isupper() and len(method) <= 16):
        raise ValueError("a method is a word in capitals")
    if not (isinstance(path, str) and path.startswith("/") and len(path) <= 2_048 and path.isprintable()):
        raise ValueError("a path is printable, from /, of at most 2,048 characters")
    if not (isinstance(query, str) and len(query) <= 4_096 and query.isprintable()):
        raise ValueError("a query is printable, of at most 4,096 characters")


def _check_client(client: object, protocols: object) -> None:
    if client is not None and not (
        isinstance(client, list)
        and len(client) == 2
        and isinstance(client[0], str)
        and len(client[0]) <= 64
        and isinstance(client[1], int)
    ):
        raise ValueError("a client is an address and a port")
    if not (
        isinstance(protocols, list)
        and len(protocols) <= 16
        and all(isinstance(p, str) and len(p) <= 64 for p in protocols)
    ):
        raise ValueError("subprotocols are at most 16 short strings")


def read_scope(data: object) -> Scope:
    """
    The scope of *data*, checked, to run through an ASGI application.

    Raises:
        ValueError: it is not the scope of an HTTP request or a WebSocket.
    """
    if not isinstance(data, dict) or data.get("type") not in {"http", "websocket"}:
        raise ValueError("a scope is an HTTP request's or a WebSocket's")
    method, path, query = data.get("method"), data.get("path"), data.get("query_string")
    _check_request(method, path, query)
    scheme, version = data.get("scheme"), data.get("http_version")
    if scheme not in {"http", "https", "ws", "wss"} or version not in {"1.0", "1.1", "2"}:
        raise ValueError("a scheme is http, https, ws or wss, and a version 1.0, 1.1 or 2")
    client, protocols = data.get("client"), data.get("subprotocols")
    _check_client(client, protocols)
    return {
        "type": data["type"],
        "asgi": {"version": "3.0"},
        "http_version": version,
        "method": method,
        "scheme": scheme,
        "path": path,
        "raw_path": str(path).encode("utf-8"),
        "root_path": "",
        "query_string": str(query).encode("latin-1", "replace"),
        "headers": _read_headers(data.get("headers")),
        "client": tuple(client) if client is not None else None,
        "server": None,
        "subprotocols": protocols,
        "extensions": {},
        "state": {},
    }
