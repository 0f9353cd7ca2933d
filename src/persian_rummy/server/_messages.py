"""
The messages the server sends, built from what their reader may see and nothing else.

Every message to a seat is made from that seat's `View`, its `Event` of the action and public facts
(the event's number, who chose the action, the clock), so a message cannot carry a card its reader
may not see: these functions are never given a `GameState`.  A spectator's messages are made the same
way from the spectator's view.
"""

from __future__ import annotations

import json
import random
from typing import Final, Literal

from ..actions import Action, PlayerAction
from ..engine import check_legal, legal_actions
from ..events import Event
from ..exceptions import IllegalActionError
from ..notation import SEAT_LETTERS, format_action
from ..serialize import to_data
from ..state import View
from ..views import determinize
from ..wording import plain

#: The protocol's version, sent in every welcome.
PROTOCOL: Final = 1

#: Who chose an action: a person, a bot, the server when a person's clock ran out, or the dealer's shuffle.
By = Literal["person", "bot", "clock", "dealer"]

#: What an error message on a table's WebSocket may say was wrong.
ERROR_CODES: Final = (
    "bad-json",
    "bad-message",
    "too-large",
    "rate-limit",
    "unauthorized",
    "wrong-seat",
    "not-your-turn",
    "illegal-action",
    "bad-action",
    "spectator",
    "waiting",
    "game-over",
    "not-paused",
    "not-over",
    "bad-since",
    "no-table",
    "gone",
    "idle",
    "unavailable",
)

#: The types of the messages the server sends.
SERVER_MESSAGES: Final = (
    "welcome",
    "event",
    "error",
    "presence",
    "replaced",
    "pause",
    "game-over",
    "rematch-made",
    "pong",
)
#: The types of the messages a client sends.
CLIENT_MESSAGES: Final = ("hello", "act", "next-deal", "rematch", "ping")

_ENVELOPE: Final = ("format", "version", "kind")


def encode(message: dict[str, object]) -> str:
    """
    A message as the compact JSON text sent over the socket.
    """
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def action_body(action: Action) -> dict[str, object]:
    """
    An action's JSON object without the document's envelope keys.
    """
    data = to_data(action)
    return {key: value for key, value in data.items() if key not in _ENVELOPE}


def legal_list(view: View | None) -> list[dict[str, object]]:
    """
    The actions the view's seat may take now, each in notation and as an object; none for a spectator.
    """
    if view is None or view.seat is None or view.to_act != view.seat:
        return []
    return [{"notation": format_action(action, view), "action": action_body(action)} for action in legal_actions(view)]


def event_notation(event: Event, before: View) -> str:
    """
    The action of *event* in notation, as its reader saw it: a deal without its order of the cards.

    *before* is the reader's view before the action (a lay-off is written with the melds it saw).
    """
    if event.action is None:
        return f"{SEAT_LETTERS[event.actor]} deal"
    return format_action(event.action, before)


def event_message(  # noqa: PLR0913 (the message's parts)
    seq: int, event: Event, before: View, view: View, by: By, clock: dict[str, object] | None
) -> dict[str, object]:
    """
    The message that tells one reader of event number *seq*, with its view before and after it.
    """
    return {
        "type": "event",
        "seq": seq,
        "by": by,
        "event": to_data(event),
        "notation": event_notation(event, before),
        "view": to_data(view),
        "legal": legal_list(view),
        "clock": clock,
    }


def welcome_message(
    table: dict[str, object], view: View, seq: int, clock: dict[str, object] | None, *, resuming: bool
) -> dict[str, object]:
    """
    The first message of a connection: the table, the reader's seat and, unless it resumes, its view now.
    """
    return {
        "type": "welcome",
        "protocol": PROTOCOL,
        "table": table,
        "seat": view.seat,
        "seq": seq,
        "view": None if resuming else to_data(view),
        "legal": [] if resuming else legal_list(view),
        "clock": None if resuming else clock,
    }


def error_message(code: str, message: str, *, rule: tuple[str, ...] = (), reply_to: object = None) -> dict[str, object]:
    """
    An error, sent to the client whose message caused it and to nobody else.
    """
    error: dict[str, object] = {"type": "error", "code": code, "message": message, "rule": list(rule)}
    if reply_to is not None:
        error["id"] = reply_to
    return error


def refusal(view: View, action: PlayerAction) -> tuple[str, str, tuple[str, ...]]:
    """
    Why the view's seat may not take *action* now: an error code, the reason said to that seat
    (`persian_rummy.wording.plain`: "You have drawn already.", each rule named once with its summary)
    and its rules.

    The reason is found on a state made from the view alone (`persian_rummy.views.determinize`
    with a fixed seed), so that it can tell nothing the view does not: whether an action is legal
    depends only on what its seat sees.
    """
    if action.seat != view.seat:
        letter = SEAT_LETTERS[view.seat] if view.seat is not None else "-"
        return "wrong-seat", f"you play seat {letter}, not seat {SEAT_LETTERS[action.seat]}", ()
    state = determinize(view, random.Random(0))
    try:
        check_legal(state, action)
    except IllegalActionError as error:
        code = "not-your-turn" if view.to_act != action.seat else "illegal-action"
        return code, plain(error, seat=view.seat, symbols=True), error.rule
    return "illegal-action", f"{format_action(action, view)} is not a legal action now", ()
