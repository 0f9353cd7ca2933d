"""
What a table is made of: its name, rules, seats, clock, bots' delay, privacy and seed, read from JSON.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final, Literal, Protocol

from attrs import frozen

from .. import notation
from ..exceptions import InvalidDataError, PersianRummyError
from ..records import GameRecord
from ..rules import DEFAULT_RULES, Rules
from ..serialize import from_data, to_data
from ._bots import BotError

#: The longest table name, in characters.
MAX_NAME: Final = 100
#: The longest turn clock, in seconds (a day).
MAX_CLOCK: Final = 86_400.0
#: The shortest turn clock, in seconds.
MIN_CLOCK: Final = 1.0
#: The longest delay before a bot acts, in seconds.
MAX_BOT_DELAY: Final = 10.0
#: The largest seed a table takes.
MAX_SEED: Final = 2**63 - 1

SeatKind = Literal["person", "bot"]


class BotNames(Protocol):
    """
    What reads a seat's bot: the server's `persian_rummy.server._bots.BotRegistry`.
    """

    def read(self, text: object) -> str:
        """
        *text*, a bot as a request writes it, if it names a bot that may be seated.

        Raises:
            persian_rummy.server._bots.BotError: it does not.
        """
        ...


class SpecError(PersianRummyError, ValueError):
    """
    A table cannot be made as asked: the message names the field and what is wrong with it.
    """


@frozen
class SeatSpec:
    """
    Who sits in a seat: a person, or the bot the server's registry knows as *bot*.
    """

    kind: SeatKind
    bot: str | None = None

    @property
    def text(self) -> str:
        """
        The seat as it is written in a table's JSON: ``"person"`` or ``"bot:SPEC"``.
        """
        return "person" if self.bot is None else f"bot:{self.bot}"


@frozen
class TableSpec:
    """
    A table as it was made: everything needed to play its game again, action for action.

    Attributes:
        name: What the table is called in the lobby.
        rules: The rules of its game.
        seats: The four seats, North first.
        clock: Seconds a person has for each decision before the server plays the default move
            for them, or `None` for no clock.
        bot_delay: Seconds a bot waits before it acts, so that people can follow.
        seed: The seed of the deals and of the bots' choices, given by the table's creator where the
            server allows it, so that anyone who knows it knows every hand; `None` for a table
            whose deals are drawn from a secret of the server's.
        first_dealer: The seat that deals first.
        private: Whether the lobby leaves the table out of its list: only its links lead to it.
    """

    name: str
    rules: Rules
    seats: tuple[SeatSpec, SeatSpec, SeatSpec, SeatSpec]
    clock: float | None
    bot_delay: float
    seed: int | None
    first_dealer: int
    private: bool = False

    @property
    def people(self) -> tuple[int, ...]:
        """
        The seats that people play, in order.
        """
        return tuple(seat for seat, spec in enumerate(self.seats) if spec.kind == "person")

    def to_json(self) -> dict[str, object]:
        """
        The table's JSON object, as `read_spec` reads it (every field written).
        """
        return {
            "name": self.name,
            "rules": notation.format_rules(self.rules),
            "seats": [seat.text for seat in self.seats],
            "clock": self.clock,
            "bot_delay": self.bot_delay,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "private": self.private,
        }


_FIELDS: Final = frozenset(("name", "rules", "seats", "clock", "bot_delay", "seed", "first_dealer", "private"))


def read_spec(
    data: object, registry: BotNames, *, default_bot_delay: float = 0.8, allow_seed: bool = False
) -> TableSpec:
    """
    The table that *data*, a JSON object, asks for, its bots named in *registry*.

    A ``seed`` is taken only with *allow_seed*: a seeded table's deals can be foretold by anyone
    who knows the seed.

    Raises:
        SpecError: *data* is not an object of the known fields, or a field is wrong (the message
            names it).
    """
    if not isinstance(data, Mapping):
        raise SpecError("a table must be a JSON object")
    unknown = sorted(str(key) for key in data if key not in _FIELDS)
    if unknown:
        raise SpecError(f"unknown field {unknown[0]!r:.40} (the fields are {', '.join(sorted(_FIELDS))})")
    seed = data.get("seed")
    if seed is not None and not allow_seed:
        raise SpecError("seed: this server draws every deal from a secret of its own and takes no seed")
    private = data.get("private", False)
    if not isinstance(private, bool):
        raise SpecError("private: true or false")
    return TableSpec(
        name=_name(data.get("name", "Table")),
        rules=_rules(data.get("rules")),
        seats=_seats(data.get("seats", ["person", "bot:greedy", "bot:greedy", "bot:greedy"]), registry),
        clock=_seconds(data.get("clock"), "clock", MIN_CLOCK, MAX_CLOCK, optional=True),
        bot_delay=_seconds(data.get("bot_delay", default_bot_delay), "bot_delay", 0.0, MAX_BOT_DELAY) or 0.0,
        seed=None if seed is None else _integer(seed, "seed", 0, MAX_SEED),
        first_dealer=_integer(data.get("first_dealer", 0), "first_dealer", 0, 3),
        private=private,
    )


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SpecError("name: a table's name must be a non-empty string")
    if len(value) > MAX_NAME or not value.isprintable():
        raise SpecError(f"name: at most {MAX_NAME} printable characters")
    return value.strip()


def _rules(value: object) -> Rules:
    if value is None:
        return DEFAULT_RULES
    try:
        if isinstance(value, str):
            return notation.parse_rules(value)
        if isinstance(value, Mapping):
            record = to_data(GameRecord())
            record["rules"] = dict(value)
            read = from_data(record)
            assert isinstance(read, GameRecord)  # noqa: S101 (a record document reads as a record)
            return read.rules
    except (InvalidDataError, PersianRummyError) as error:
        raise SpecError(f"rules: {error}") from error
    raise SpecError("rules: the rules in notation, or the library's rules object")


def _seats(value: object, registry: BotNames) -> tuple[SeatSpec, SeatSpec, SeatSpec, SeatSpec]:
    if not isinstance(value, list) or len(value) != 4:
        raise SpecError('seats: a list of four seats, each "person" or "bot:NAME" (bot:greedy, bot:pimc:50)')
    first, second, third, fourth = (_seat(item, index, registry) for index, item in enumerate(value))
    seats = (first, second, third, fourth)
    if not any(seat.kind == "person" for seat in seats):
        raise SpecError("seats: at least one seat must be a person's")
    return seats


def _seat(value: object, index: int, registry: BotNames) -> SeatSpec:
    if value == "person":
        return SeatSpec("person")
    if isinstance(value, str) and value.startswith("bot:"):
        try:
            return SeatSpec("bot", registry.read(value.removeprefix("bot:")))
        except BotError as error:
            raise SpecError(f"seats[{index}]: {error}") from None
    raise SpecError(f'seats[{index}]: "person" or "bot:NAME", not {value!r:.40}')


def _seconds(value: object, what: str, low: float, high: float, *, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SpecError(f"{what}: a number of seconds{' or null' if optional else ''}")
    if not low <= value <= high:
        raise SpecError(f"{what}: from {low:g} to {high:g} seconds, not {value:g}")
    return float(value)


def _integer(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(f"{what}: a whole number from {low} to {high}")
    return value
