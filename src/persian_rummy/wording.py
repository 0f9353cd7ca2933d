"""
Plain words for people: a refused action said as a sentence a player reads, and actions in words.

The engine's `IllegalActionError` names its reason for a program: seats by number ("seat 2 has
drawn already; drawing is not possible now") and the rule ids alone ("R13").  `plain` says the
same thing to the player who reads it: their own seat is "you", with the verb agreeing ("You
have drawn already."), the other seats by their names (``N``, ``E``, ``S``, ``W`` unless told
others), no value written as Python writes it, and each rule named once with what it says in one
line, from `RULE_SUMMARIES` (the file ``rule_summaries.json`` beside this module, a line for
every rule and open point of the rules page).  `describe` says what an action does, as a player
would choose it: "draw from the stock", "discard 9♥".

>>> from persian_rummy import Discard, IllegalActionError
>>> error = IllegalActionError(Discard(2, "9h"), "seat 2 does not hold 9h", "R18")
>>> plain(error, seat=2)
'You do not hold 9h. (R18: discarding one card from your hand ends your turn)'
>>> plain(error, seat=0, symbols=True)
'S does not hold 9♥. (R18: discarding one card from your hand ends your turn)'
>>> describe(Discard(2, "9h"), symbols=True)
'discard 9♥'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Final, NoReturn, assert_never

from . import limits as _limits
from ._internal import arguments as _arguments
from .actions import (
    Action,
    CallRummy,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    TakeDiscard,
)
from .cards import Card
from .cardsets import CardSet
from .exceptions import IllegalActionError, InvalidTypeError
from .notation import SEAT_LETTERS

__all__ = ["RULE_SUMMARIES", "describe", "plain", "rules_line"]


def _summaries() -> Mapping[str, str]:
    text = resources.files(__package__).joinpath("rule_summaries.json").read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(text)
    return MappingProxyType(table)


#: What each rule and open point of the rules page says, in one line, by its id (``"R15"``, ``"A24"``).
RULE_SUMMARIES: Final[Mapping[str, str]] = _summaries()

#: A card or a set of cards as Python writes them: ``Card.parse('9h')``, ``CardSet.parse('9h Th')``.
_REPR: Final = re.compile(r"\b(?:Card|CardSet)\.parse\('([^']*)'\)")
#: A card in notation, in a reason: ``9h``, ``Th``, ``X2``.
_CARD: Final = re.compile(r"(?<![\w])(?:[2-9TJQKA][cdhs]|X[1-4])(?![\w])")
#: The verbs said of a seat, and what they are said of "you".
_VERBS: Final = {"has": "have", "does": "do", "is": "are", "was": "were", "deals": "deal"}
_SEAT: Final = re.compile(r"\bseat ([0-3])(?:('s)\b| (has|does|is|was)\b)?")
_PHASES: Final = {
    "deal": "the cards are to be dealt",
    "deal_over": "the deal is over",
    "game_over": "the game is over",
}


class _Words:
    """
    How one reader calls the seats: *seat* is "you", the others their *names*.
    """

    def __init__(self, seat: int | None, names: Sequence[str]) -> None:
        self.seat, self.names = seat, names

    def who(self, seat: str) -> str:
        """
        The seat written as a number 0-3, named for the reader; anything else as "that seat".
        """
        if not seat.isdigit() or not 0 <= int(seat) <= 3:
            return "that seat"
        return "you" if int(seat) == self.seat else self.names[int(seat)]

    def whose(self, seat: str) -> str:
        name = self.who(seat)
        return "your" if name == "you" else f"{name}'s"

    def verb(self, seat: str, verb: str) -> str:
        """
        *verb* said of *seat*: ``has`` of another seat, ``have`` of "you".
        """
        return _VERBS.get(verb, verb) if self.who(seat) == "you" else verb

    def seats(self, text: str) -> str:
        """
        Every ``seat N`` of *text* named, with the verb after it agreeing.
        """

        def named(found: re.Match[str]) -> str:
            if found[2]:
                return self.whose(found[1])
            if found[3]:
                return f"{self.who(found[1])} {self.verb(found[1], found[3])}"
            return self.who(found[1])

        return _SEAT.sub(named, text)


#: The reasons said in words of their own: the pattern of the engine's reason, and the sentence.
_Rewrite = Callable[[re.Match[str], _Words], str]


def _must_draw(found: re.Match[str], words: _Words) -> str:
    return f"{words.who(found[1])} must draw or pass before {found[2]}"


def _drawn(found: re.Match[str], words: _Words) -> str:
    return f"{words.who(found[1])} {words.verb(found[1], 'has')} drawn already"


def _turn(found: re.Match[str], words: _Words) -> str:
    turn, acting = words.who(found[1]), words.who(found[2])
    if acting == "you":
        return f"It is not your turn: it is {words.whose(found[1])} turn"
    if turn == "you":
        return f"It is your turn, not {words.whose(found[2])}"
    return f"It is {words.whose(found[1])} turn, not {words.whose(found[2])}"


def _no_turn(found: re.Match[str], _words: _Words) -> str:
    return f"Nobody plays now: {_PHASES.get(found[1], 'nobody is to act')}"


def _called(found: re.Match[str], words: _Words) -> str:
    return f"{words.who(found[1])} called Rummy! and must lay off {found[2]} first"


def _asked(found: re.Match[str], words: _Words) -> str:
    asked = f"{words.who(found[1])} {words.verb(found[1], 'is')} asked"
    return f"{asked} whether to call Rummy! on {found[2]}: call or decline first"


def _asked_first(found: re.Match[str], words: _Words) -> str:
    if words.who(found[2]) == "you":
        return f"It is not your turn: {words.who(found[1])} is asked first whether to call Rummy!"
    return f"{words.who(found[1])} {words.verb(found[1], 'is')} asked first whether to call Rummy!"


def _alone(found: re.Match[str], words: _Words) -> str:
    return f"{words.who(found[1])} called Rummy! on {found[2]} and may lay off only that card"


def _not_held(found: re.Match[str], words: _Words) -> str:
    return f"{words.who(found[1])} {words.verb(found[1], 'does')} not hold {found[2]}"


def _untakeable(found: re.Match[str], _words: _Words) -> str:
    return f"{found[1]} cannot be taken: it could not be melded or laid off at once"


def _dealer(found: re.Match[str], words: _Words) -> str:
    return f"{words.who(found[1])} {words.verb(found[1], 'deals')} this deal, not {words.who(found[2])}"


_REWRITES: Final[tuple[tuple[re.Pattern[str], _Rewrite], ...]] = (
    (re.compile(r"seat (\d) must first draw or pass, not (.+)"), _must_draw),
    (re.compile(r"seat (\d) has drawn already; .+ is not possible now"), _drawn),
    (re.compile(r"it is seat (\d)'s turn, not seat (.+)'s"), _turn),
    (re.compile(r"no player acts in phase '(\w+)'"), _no_turn),
    (re.compile(r"seat (\d) called Rummy! and must lay off (.+); .+ is not possible now"), _called),
    (re.compile(r"seat (\d) is asked whether it calls Rummy! on (.+); .+ is not possible now"), _asked),
    (re.compile(r"seat (\d) is asked first whether it calls Rummy!, not seat (.+)"), _asked_first),
    (re.compile(r"seat (\d) called Rummy! on (.+) and lays off that card alone"), _alone),
    (re.compile(r"seat (\d) does not hold (.+)"), _not_held),
    (re.compile(r"(.+) cannot be melded or laid off at once, so it may not be taken"), _untakeable),
    (re.compile(r"seat (\d) deals this deal, not seat (.+)"), _dealer),
    (re.compile(r"a seat is a number 0-3, not .+"), lambda _found, _words: "A seat is N, E, S or W"),
    (re.compile(r".+ is not a card"), lambda _found, _words: "That is not a card"),
)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _symbols(text: str) -> str:
    return _CARD.sub(lambda found: Card.parse(found[0]).symbol, text)


#: The types of `persian_rummy.Action`, for the check of `describe`'s argument.
_ACTIONS: Final = (DrawStock, TakeDiscard, LayDown, LayOff, Discard, Pass, CallRummy, DeclineCall, Deal)


def _texts(value: object) -> bool:
    return isinstance(value, Sequence) and all(type(item) is str for item in value)


def _refuse(name: str, what: str, value: object) -> NoReturn:
    msg = f"{name} must be {what}, got {_limits.shown(value)}"
    raise InvalidTypeError(msg)


def rules_line(rules: Sequence[str]) -> str:
    """
    The rules *rules* named once each, in the order given, each with what it says in one line, in brackets;
    an id without a summary is named alone.

    >>> rules_line(["R27", "R7", "R27"])
    '(R27: a game is two deals; R7: the dealer deals 7 cards each and turns up one card to start the discard pile)'
    >>> rules_line([])
    ''
    """
    if isinstance(rules, str) or not _texts(rules):
        _refuse("rules", "a sequence of rule ids (str)", rules)
    named = dict.fromkeys(rules)
    parts = [f"{rule}: {RULE_SUMMARIES[rule]}" if rule in RULE_SUMMARIES else rule for rule in named]
    return f"({'; '.join(parts)})" if parts else ""


def plain(
    error: IllegalActionError, *, seat: int | None, names: Sequence[str] = SEAT_LETTERS, symbols: bool = False
) -> str:
    """
    Why *error*'s action was refused, said to the player at *seat* (None for a reader who plays no
    seat): one sentence, then the rules it cites, each named once with what it says.

    The reader's own seat is "you", the other seats are called by *names* (their letters by
    default), and cards are written in card notation, or with their suit symbols if *symbols*.

    >>> from persian_rummy import DrawStock, IllegalActionError, TakeDiscard
    >>> drawn = IllegalActionError(DrawStock(1), "seat 1 has drawn already; drawing is not possible now", "R13")
    >>> plain(drawn, seat=1)
    'You have drawn already. (R13: a turn is: draw, then any melds and lay-offs, then one discard)'
    >>> plain(drawn, seat=2, names=["North", "East", "South", "West"])
    'East has drawn already. (R13: a turn is: draw, then any melds and lay-offs, then one discard)'
    >>> turn = IllegalActionError(DrawStock(2), "it is seat 1's turn, not seat 2's", "R6")
    >>> plain(turn, seat=2)
    "It is not your turn: it is E's turn. (R6: play goes to the left, clockwise, one seat at a time)"
    """
    _arguments.expect(error, IllegalActionError, "error", "an IllegalActionError")
    if seat is not None:
        _arguments.seat(seat, "seat")
    if not _texts(names) or len(names) != 4:
        _refuse("names", "a sequence of four names (str), one for each seat", names)
    _arguments.expect(symbols, bool, "symbols", "a bool")
    words = _Words(seat, names)
    reason = _REPR.sub(lambda found: found[1], error.reason)
    for pattern, rewrite in _REWRITES:
        found = pattern.fullmatch(reason)
        if found is not None:
            reason = rewrite(found, words)
            break
    else:
        reason = words.seats(reason)
    text = _sentence(reason)
    if symbols:
        text = _symbols(text)
    rules = rules_line(error.rule)
    return f"{text} {rules}" if rules else text


def _cards(cards: CardSet | Card, symbols: bool) -> str:
    values = [cards] if isinstance(cards, Card) else list(cards)
    return " ".join(card.symbol if symbols else str(card) for card in values)


def describe(action: Action, *, symbols: bool = False) -> str:
    """
    What *action* does, said as its player would choose it, without the seat: ``draw from the
    stock``, ``take 9♥ from the discard pile``, ``meld 9♥ 9♦ 9♠``, ``lay off 7♠ onto meld 2``,
    ``discard 9♥``, ``pass``, ``call Rummy!``, ``decline to call``, ``deal``.

    >>> from persian_rummy import DrawStock, LayOff, TakeDiscard
    >>> describe(DrawStock(1)), describe(TakeDiscard(1, "Th"), symbols=True)
    ('draw from the stock', 'take 10♥ from the discard pile')
    >>> describe(LayOff(0, 1, "7s"))
    'lay off 7s onto meld 2'
    """
    _arguments.expect(action, _ACTIONS, "action", "an action")
    _arguments.expect(symbols, bool, "symbols", "a bool")
    match action:
        case DrawStock():
            return "draw from the stock"
        case TakeDiscard(card=card):
            return f"take {_cards(card, symbols)} from the discard pile"
        case LayDown(cards=cards):
            return f"meld {_cards(cards, symbols)}"
        case LayOff(cards=cards, meld=meld):
            return f"lay off {_cards(cards, symbols)} onto meld {meld + 1}"
        case Discard(card=card):
            return f"discard {_cards(card, symbols)}"
        case Pass():
            return "pass"
        case CallRummy():
            return "call Rummy!"
        case DeclineCall():
            return "decline to call"
        case Deal():
            return "deal"
        case _:  # pragma: no cover (every action is matched)
            assert_never(action)
