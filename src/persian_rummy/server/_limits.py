"""
Every resource a table server gives out, bounded: `Limits`, each field an option of ``persian-rummy serve``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from attrs import Attribute, field, fields, frozen

#: The groups of limits, in the order the documentation and ``serve --help`` give them.
GROUPS: Final = ("messages", "http", "connections", "tables", "bots")


def _at_least(low: float) -> Callable[[object, Attribute[Any], object], None]:
    def check(_instance: object, attribute: Attribute[Any], value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < low:
            msg = f"{attribute.name} must be a finite number of at least {low:g}, not {value!r}"
            raise ValueError(msg)
        if attribute.type in {"int", int} and not isinstance(value, int):
            msg = f"{attribute.name} must be a whole number, not {value!r}"
            raise ValueError(msg)

    return check


def _limit(default: float, low: float, group: str, unit: str, text: str) -> Any:  # noqa: ANN401 (an attrs field)
    """
    A field of `Limits`: its default, its least value, its group, the unit of its value and what it bounds.
    """
    return field(default=default, validator=_at_least(low), metadata={"group": group, "unit": unit, "help": text})


@frozen(kw_only=True)
class Limits:
    """
    What a table server gives out, each resource bounded: messages, HTTP requests, connections,
    tables and the bots' thinking.

    Each field is an option of ``persian-rummy serve`` (``max_body`` is ``--max-body``); the
    documentation's "Limits" section gives them all with their defaults.  For the counts marked
    so, 0 means no limit.

    >>> Limits().max_body, Limits(max_body=1024).max_body
    (65536, 1024)
    """

    # Messages on a table's WebSocket
    max_message: int = _limit(8_192, 1, "messages", "CHARACTERS", "the longest message; a longer one is refused")
    rate: float = _limit(20.0, 0.001, "messages", "PER_SECOND", "messages a second a connection may send on average")
    burst: int = _limit(40, 1, "messages", "COUNT", "messages a connection may send at once before the rate applies")
    strikes: int = _limit(100, 1, "messages", "COUNT", "messages over the rate after which a connection is closed")
    max_queued: int = _limit(
        2_000, 1, "messages", "COUNT", "messages that may wait for a slow reader before its connection is closed"
    )
    # HTTP
    max_body: int = _limit(65_536, 1, "http", "BYTES", "the longest request body, chunked or not")
    body_timeout: float = _limit(10.0, 0.001, "http", "SECONDS", "how long a client may take to send a request body")
    header_timeout: float = _limit(
        10.0, 0.001, "http", "SECONDS", "how long a connection may wait before its request's head is sent in full"
    )
    # Connections
    max_connections: int = _limit(
        1_000, 1, "connections", "COUNT", "open connections, HTTP and WebSocket (kept below the open-file limit)"
    )
    max_connections_per_address: int = _limit(
        100, 0, "connections", "COUNT", "open connections from one client address (0: no limit)"
    )
    hello_timeout: float = _limit(10.0, 0.001, "connections", "SECONDS", "how long a WebSocket has to say hello")
    idle_timeout: float = _limit(
        300.0,
        0.001,
        "connections",
        "SECONDS",
        "how long a WebSocket may send nothing (a ping counts) before it is closed",
    )
    max_spectators: int = _limit(200, 0, "connections", "COUNT", "spectators of one table")
    # Tables
    max_tables: int = _limit(10_000, 1, "tables", "COUNT", "tables kept in memory: waiting, playing or just ended")
    tables_per_minute: float = _limit(
        10.0, 0, "tables", "COUNT", "tables one client address may make a minute, in bursts of as many (0: no limit)"
    )
    waiting_ttl: float = _limit(
        3_600.0, 0.001, "tables", "SECONDS", "how long a table may wait for its people to take their seats"
    )
    abandoned_ttl: float = _limit(
        1_800.0, 0.001, "tables", "SECONDS", "how long a table in play may have no person connected"
    )
    finished_ttl: float = _limit(
        600.0, 0.001, "tables", "SECONDS", "how long an ended table stays in memory and in the lobby"
    )
    deal_pause: float = _limit(
        120.0,
        0,
        "tables",
        "SECONDS",
        "how long the end of a deal waits for its people to press Next deal before the next is dealt (0: no pause)",
    )
    page_size: int = _limit(50, 1, "tables", "COUNT", "tables in one page of the lobby's list")
    catch_up: int = _limit(
        64, 0, "tables", "COUNT", "the most events a resuming client is sent; one further behind starts afresh"
    )
    # Bots
    bot_workers: int = _limit(2, 1, "bots", "COUNT", "threads in which searching bots think, shared by every table")
    max_rollouts: int = _limit(400, 1, "bots", "COUNT", "the largest budget of a pimc bot, in rollouts a decision")
    max_iterations: int = _limit(
        2_000, 1, "bots", "COUNT", "the largest budget of an ismcts bot, in iterations a decision"
    )
    max_bot_seconds: float = _limit(
        5.0, 0.001, "bots", "SECONDS", "the largest budget of a searching bot, in seconds a decision"
    )


def limit_fields() -> tuple[Attribute[Any], ...]:
    """
    The fields of `Limits`, in their order.
    """
    return tuple(fields(Limits))
