"""
Notation: a short text form for every action and a one-line text form for every position.

**Actions** are written ``SEAT VERB [ARGUMENTS]``, seats as ``N E S W`` (0-3):

======================  ==========================================================
``N deal <56 cards>``   the chance action: the dealer and the deck, first dealt first
``E draw``              draw the top card of the stock
``E take 9s``           take ``9s`` and every card above it from the discard pile
``E meld 9d9h9s``       lay down a meld
``E lay 5c6c on 7c``    lay off onto the table meld that holds ``7c``
``E discard Qh``        discard
``E pass``              pass (empty stock)
======================  ==========================================================

Cards inside an argument are written together (``9d9h9s``) or apart; the
canonical form writes them together in `FULL_DECK` order and names a meld by
its first card in that order.  Relative to a state (as chess's SAN is), the
seat may be left out: it is the seat to act (the dealer for a deal).

>>> import random
>>> from persian_rummy import apply, legal_actions, new_game, random_deal
>>> state = new_game()
>>> state = apply(state, random_deal(state, random.Random(2061)))
>>> [format_action(action, state) for action in legal_actions(state)]
['E draw', 'E take Jc']
>>> parse_action("take Jc", state)
TakeDiscard(seat=1, card=Card.parse('Jc'))
>>> parse_action("take Jd", state)
Traceback (most recent call last):
...
persian_rummy.exceptions.IllegalActionError: illegal action ...: Jd is not in the discard pile (R14)
>>> parse_action("tkae Jc", state)
Traceback (most recent call last):
...
persian_rummy.exceptions.InvalidNotationError: unknown action 'tkae' in 'tkae Jc' (expected deal, ...)

A syntax error raises `InvalidNotationError`; a well-formed action that is not
legal in the state raises `IllegalActionError` (when parsing with ``strict=True``,
the default).

**Positions** are one line of space-separated fields, like chess's FEN; see
`format_position`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final, TypedDict

import attrs

from . import limits as _limits
from ._internal import arguments as _args
from ._internal import text as _format
from .actions import ACTION_TYPES, Action, Deal
from .cards import FULL_DECK, Card, parse_cards
from .cardsets import CardSet
from .engine import check_legal
from .exceptions import IllegalActionError, InvalidNotationError, InvalidStateError, InvalidValueError
from .melds import StandIns, TableMeld
from .rules import DEFAULT_RULES, Rules
from .scoring import DealEnd, DealScore, TeamScore
from .state import GameState, Phase, View, next_dealer

__all__ = [
    "SEAT_LETTERS",
    "format_action",
    "format_cards",
    "format_meld",
    "format_position",
    "format_rules",
    "parse_action",
    "parse_cards",
    "parse_meld",
    "parse_position",
    "parse_rules",
]


def __dir__() -> list[str]:
    return __all__


#: The letters of the seats 0-3: North, East, South, West.
SEAT_LETTERS: Final = _format.SEAT_LETTERS
_MAX_TEXT: Final = _limits.MAX_NOTATION
# A whole number as the notation writes it: ASCII digits, a minus sign for scores, no more than six digits.
_NUMBER: Final = re.compile(r"-?[0-9]{1,6}")
_COUNT: Final = re.compile(r"[0-9]{1,3}")
# A joker and the card it stands for, as a position's melds write them (``X1=6h``, A7).
_STOOD_FOR: Final = re.compile(r"(X[1-4])=(10[cdhs]|[2-9TJQKA][cdhs])")


def _parse_seat(token: str, text: str) -> int:
    seat = SEAT_LETTERS.find(token) if len(token) == 1 else -1
    if seat < 0:
        msg = f"not a seat: {_limits.shown(token)} in {_limits.shown(text)} (expected N, E, S or W)"
        raise InvalidNotationError(msg)
    return seat


def format_cards(cards: Iterable[Card | str] | CardSet | str) -> str:
    """
    Cards written together, in the order given (a `CardSet` in `FULL_DECK` order); ``-`` for none.

    The cards may also be given by their notation, one by one or as one text.

    >>> format_cards(CardSet.parse("Qh 2c X1")), format_cards(["Qh", "10c"])
    ('2cQhX1', 'QhTc')

    Raises:
        InvalidNotationError: a text is not a card's notation.
        InvalidTypeError: *cards* is not cards.
    """
    if isinstance(cards, str):
        return _format.cards(parse_cards(cards))
    if type(cards) is CardSet:
        return _format.cards(cards)
    _args.expect(cards, Iterable, "cards", "cards or their notation")
    return _format.cards([Card.of(card) for card in cards])


def _card_set(text: str, what: str) -> CardSet:
    cards = parse_cards(text)
    if len(set(cards)) != len(cards):
        msg = f"a card appears twice in the {what} {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    return CardSet(cards)


def _one_card(token: str, text: str) -> Card:
    cards = parse_cards(token)
    if len(cards) != 1:
        msg = f"expected one card, got {_limits.shown(token)} in {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    return cards[0]


# -- actions ---------------------------------------------------------------------------------------------------
#
# An action's text is its seat, its verb and its arguments, written as its type's `arguments`
# says: a name in braces is a field, any other word is written as it stands.  Each field has a
# writer and a reader here, by name; a field holding several cards takes the words up to the
# next fixed word.

_BY_VERB: Final = {kind.verb: kind for kind in ACTION_TYPES}
# Fields that no template names: the seat, written first, and the stand-ins, written among the cards (A7).
_UNWRITTEN: Final = frozenset({"seat", "stand_ins"})
_VERBS: Final = ", ".join(kind.verb for kind in ACTION_TYPES[:-1]) + f" or {ACTION_TYPES[-1].verb}"
# Fields written as several words, and how each field is shown in a usage line.
_MANY_WORDS: Final = frozenset({"cards", "deck"})
_USAGE: Final = {"card": "CARD", "cards": "CARDS", "meld": "CARD", "deck": "DECK"}
_Writer = Callable[[Action, GameState | View | None], str]
_Reader = Callable[[list[str], str, type[Action], GameState | None], object]


def _write_deck(action: Action, _state: GameState | View | None) -> str:
    deck: tuple[Card, ...] = getattr(action, "deck")  # noqa: B009 (the field the template names)
    if len(deck) != 56 or len(set(deck)) != 56:
        msg = f"cannot write {action!r}: a deal's deck is each of the 56 cards once"
        raise InvalidValueError(msg)
    return _format.cards(deck)


def _write_meld(action: Action, state: GameState | View | None) -> str:
    index = getattr(action, "meld")  # noqa: B009
    if state is None or not 0 <= index < len(state.melds):
        msg = f"a lay-off names its meld by a card on the table: {action!r} needs the state it applies to"
        raise InvalidValueError(msg)
    return str(next(iter(state.melds[index].cards)))


def _write_cards(action: Action, _state: GameState | View | None) -> str:
    cards: CardSet = getattr(action, "cards")  # noqa: B009
    stand_ins: StandIns | None = getattr(action, "stand_ins", None)
    return _format.cards(cards) if not stand_ins else _format.stood_for(cards, stand_ins)


_WRITERS: Final[dict[str, _Writer]] = {
    "card": lambda action, _: str(getattr(action, "card")),  # noqa: B009
    "cards": _write_cards,
    "meld": _write_meld,
    "deck": _write_deck,
}


def _read_cards(words: list[str], text: str, kind: type[Action], _state: GameState | None) -> CardSet:
    if not words:
        msg = f"{kind.verb} needs its cards in {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    return _card_set(" ".join(word.partition("=")[0] for word in words), kind.noun)


def _read_stand_ins(words: list[str]) -> StandIns:
    """
    The stand-ins written among a meld's or a lay-off's cards, ``X1=6h`` (A7).
    """
    return StandIns.parse(" ".join(word for word in words if "=" in word))


def _read_deck(words: list[str], _text: str, _kind: type[Action], _state: GameState | None) -> tuple[Card, ...]:
    deck = parse_cards(" ".join(words))
    if len(deck) != 56 or len(set(deck)) != 56:
        msg = f"a deal lists each of the 56 cards once, got {len(deck)} cards, {len(set(deck))} different"
        raise InvalidNotationError(msg)
    return deck


def _read_meld(words: list[str], text: str, _kind: type[Action], state: GameState | None) -> int:
    target = _one_card(words[0], text)
    if state is None:
        msg = f"a lay-off names its meld by a card on the table, so {_limits.shown(text)} needs a state"
        raise InvalidNotationError(msg)
    for index, meld in enumerate(state.melds):
        if target in meld.cards:
            return index
    raise IllegalActionError(text, f"no meld on the table holds {target}", "R17")


_READERS: Final[dict[str, _Reader]] = {
    "card": lambda words, text, _kind, _state: _one_card(words[0], text),
    "cards": _read_cards,
    "meld": _read_meld,
    "deck": _read_deck,
}


def _template(kind: type[Action]) -> tuple[str, ...]:
    """
    The words of *kind*'s arguments: field names in braces, fixed words as they stand.
    """
    return tuple(kind.arguments.split())


def _check_templates() -> None:
    """
    Every field of every action type, but the seat, is in its template and has a writer and a
    reader; a template is fields of one word each, one field of several words, or one field of
    several words, a fixed word and a field of one word.
    """
    for kind in ACTION_TYPES:
        template = _template(kind)
        named = [word[1:-1] for word in template if word.startswith("{")]
        fields = [attribute.name for attribute in attrs.fields(kind) if attribute.name not in _UNWRITTEN]
        shapes = ("".join("M" if name in _MANY_WORDS else "1" for name in named), len(template) - len(named))
        known = set(named) <= _WRITERS.keys() & _READERS.keys()
        if sorted(named) != sorted(fields) or not known or shapes not in {("1" * len(named), 0), ("M", 0), ("M1", 1)}:
            msg = f"{kind.__name__}.arguments {kind.arguments!r} does not write its fields {fields} in a known way"
            raise TypeError(msg)


_check_templates()
# How to write each word of each action type's arguments: a field's writer, or None and the fixed word.
_WRITING: Final = {
    kind: tuple((_WRITERS[word[1:-1]], word) if word.startswith("{") else (None, word) for word in _template(kind))
    for kind in ACTION_TYPES
}


def format_action(action: Action, state: GameState | View | None = None) -> str:
    """
    The canonical text of *action*.

    A lay-off names its meld by the meld's first card, so it needs the *state*
    the action applies to, or a `View` of it (the melds are on the table for all to see);
    other actions do not.

    Raises:
        InvalidValueError: a lay-off without a state, or onto a meld that is not on the table.
        InvalidTypeError: *action* is not an action, or *state* not a `GameState`, a `View` or `None`.
    """
    _args.expect(action, ACTION_TYPES, "action", "an action")
    _args.expect(state, (GameState, View, type(None)), "state", "a GameState, a View or None")
    words = [SEAT_LETTERS[action.seat], action.verb]
    words.extend(word if write is None else write(action, state) for write, word in _WRITING[type(action)])
    return " ".join(words)


def parse_action(text: str, state: GameState | None = None, *, strict: bool = True) -> Action:
    """
    Read an action from its text.

    Args:
        text: The action's notation; the seat may be left out when *state* is given.
        state: The state the action applies to.  Needed to leave out the seat and
            to read a lay-off (its meld is named by a card).
        strict: Also check that the action is legal in *state*.

    Raises:
        InvalidNotationError: *text* is not an action's notation.
        IllegalActionError: the action is well-formed but cannot apply to *state*:
            its meld is not on the table, or (with *strict*) it is illegal.
        InvalidTypeError: *state* is not a `GameState` or `None`.
    """
    raw: object = text
    if not isinstance(raw, str):
        msg = f"an action must be written as a string, got {_limits.shown(raw)}"
        raise InvalidNotationError(msg)
    _args.expect(state, (GameState, type(None)), "state", "a GameState or None")
    if len(text) > _MAX_TEXT:
        msg = f"action text too long ({len(text):,} characters)"
        raise InvalidNotationError(msg)
    seat, kind, args = _split_action(text, state)
    values: dict[str, Any] = {"seat": seat}
    for name, words in _arguments(kind, args, text).items():
        values[name] = _READERS[name](words, text, kind, state)
        if name == "cards" and any("=" in word for word in words):
            values["stand_ins"] = _read_stand_ins(words)
    try:
        action = kind(**values)
    except InvalidValueError as error:
        msg = f"not an action: {error}, in {_limits.shown(text)}"
        raise InvalidNotationError(msg) from None
    if strict and state is not None:
        check_legal(state, action)
    return action


def _split_action(text: str, state: GameState | None) -> tuple[int, type[Action], list[str]]:
    """
    The seat, the type and the argument words of an action's text; the seat comes from *state* when left out.
    """
    words = text.split()
    if not words:
        msg = "empty action"
        raise InvalidNotationError(msg)
    if words[0] in _BY_VERB:
        if state is None:
            msg = f"the seat is needed without a state: {_limits.shown(text)}"
            raise InvalidNotationError(msg)
        acting = next_dealer(state) if _BY_VERB[words[0]] is Deal else state.to_act
        if acting is None:
            msg = f"nobody is to act, so {_limits.shown(text)} needs its seat"
            raise InvalidNotationError(msg)
        seat = acting
    elif len(words[0]) == 1:
        seat = _parse_seat(words[0], text)
        words = words[1:]
        if not words:
            msg = f"an action is missing after the seat in {_limits.shown(text)}"
            raise InvalidNotationError(msg)
    else:
        words = words[:1]
    kind = _BY_VERB.get(words[0])
    if kind is None:
        msg = f"unknown action {_limits.shown(words[0])} in {_limits.shown(text)} (expected {_VERBS})"
        raise InvalidNotationError(msg)
    return seat, kind, words[1:]


def _arguments(kind: type[Action], args: list[str], text: str) -> dict[str, list[str]]:
    """
    The words of each field of *kind* in *args*, as its template places them.
    """
    template = _template(kind)
    names = [word[1:-1] for word in template if word.startswith("{")]
    if len(template) == 1 and names[0] in _MANY_WORDS:
        return {names[0]: args}
    if len(names) == len(template):
        if len(args) != len(template):
            msg = f"expected {len(template)} argument(s) in {_limits.shown(text)}, got {len(args)}"
            raise InvalidNotationError(msg)
        return {name: [arg] for name, arg in zip(names, args, strict=True)}
    # A field of several words, a fixed word, a field of one word (`_check_templates`).
    fixed = template[1]
    if args.count(fixed) != 1 or args.index(fixed) in {0, len(args) - 1} or args[-2] != fixed:
        usage = " ".join(_USAGE.get(word[1:-1], word) if word.startswith("{") else word for word in template)
        msg = f"a {kind.noun} is written '{kind.verb} {usage}', got {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    return {names[0]: args[:-2], names[1]: args[-1:]}


# -- rules -----------------------------------------------------------------------------------------------------

_RULE_FIELDS: Final = {attribute.name: attribute for attribute in attrs.fields(Rules)}


def format_rules(rules: Rules) -> str:
    """
    The rules' id: ``-`` for Persian Rummy's defaults, else the changed switches as ``name=value`` joined by commas.

    >>> format_rules(Rules())
    '-'
    >>> format_rules(Rules(hand_size=10, obligation_timing="before_discard"))
    'hand_size=10,obligation_timing=before_discard'
    """
    _args.expect(rules, Rules, "rules", "a Rules")
    return _format.rules(rules)


def _rule_value(name: str, raw: str) -> object:
    """
    The value of the switch *name* written *raw*, read as the switch's default is typed.
    """
    default = getattr(DEFAULT_RULES, name)
    if isinstance(default, bool):
        if raw not in {"true", "false"}:
            msg = f"{name} takes true or false, got {_limits.shown(raw)}"
            raise InvalidNotationError(msg)
        return raw == "true"
    if isinstance(default, int):
        if not _NUMBER.fullmatch(raw):
            msg = f"{name} takes a number, got {_limits.shown(raw)}"
            raise InvalidNotationError(msg)
        return int(raw)
    return raw


def parse_rules(text: str) -> Rules:
    """
    Read a rules id written by `format_rules`.

    Raises:
        InvalidNotationError: an unknown switch, a malformed pair or a value the switch does not take.
    """
    written: object = text
    if not isinstance(written, str):
        msg = f"rules must be written as a string, got {_limits.shown(written)}"
        raise InvalidNotationError(msg)
    if len(text) > _MAX_TEXT:
        msg = f"rules id too long ({len(text):,} characters)"
        raise InvalidNotationError(msg)
    if text == "-":
        return DEFAULT_RULES
    values: dict[str, Any] = {}  # each value read as its switch's default is typed, and checked by Rules
    for pair in text.split(","):
        name, sep, raw = pair.partition("=")
        if not sep or name not in _RULE_FIELDS:
            msg = f"unknown rule switch {_limits.shown(name)} in {_limits.shown(text)}"
            raise InvalidNotationError(msg)
        if name in values:
            msg = f"rule switch {_limits.shown(name)} given twice in {_limits.shown(text)}"
            raise InvalidNotationError(msg)
        values[name] = _rule_value(name, raw)
    try:
        return Rules(**values)
    except (TypeError, ValueError) as error:
        msg = f"invalid rules {_limits.shown(text)}: {error}"
        raise InvalidNotationError(msg) from None


# -- melds ----------------------------------------------------------------------------------------------------


def format_meld(meld: TableMeld) -> str:
    """
    A meld on the table as a position writes it (field 8 of `format_position`): the owner, ``:``,
    the cards laid down, then ``+SEAT:CARDS`` for the cards each seat laid off; a joker that stands
    for a card (A7) is written with it, ``X1=6h``, in the place of that card.

    >>> from persian_rummy import TableMeld
    >>> format_meld(TableMeld(2, "Qc Qd Qs", ("", "Qh", "", "")))
    'S:QcQdQs+E:Qh'
    >>> format_meld(TableMeld(0, "5h X1 7h", stand_ins={"X1": "6h"}))
    'N:5hX1=6h7h'

    Raises:
        InvalidTypeError: *meld* is not a `TableMeld`.
    """
    _args.expect(meld, TableMeld, "meld", "a TableMeld")
    return _format.meld(meld)


def parse_meld(text: str, rules: Rules = DEFAULT_RULES) -> TableMeld:
    """
    Read a meld written by `format_meld`, under *rules* (`Rules.ace_low_allowed` decides whether
    an ace may be low in it, A8).

    >>> parse_meld("S:QcQdQs+E:Qh")
    TableMeld(2, CardSet.parse('Qc Qd Qs'), (CardSet(), CardSet.parse('Qh'), CardSet(), CardSet()))

    Raises:
        InvalidNotationError: *text* is not a meld's notation, or not a valid meld (the message
            says why).
        InvalidTypeError: *rules* is not a `Rules`.
    """
    written: object = text
    if not isinstance(written, str):
        msg = f"a meld must be written as a string, got {_limits.shown(written)}"
        raise InvalidNotationError(msg)
    if len(text) > _MAX_TEXT:
        msg = f"meld text too long ({len(text):,} characters)"
        raise InvalidNotationError(msg)
    _args.expect(rules, Rules, "rules", "a Rules")
    return _parse_meld(text, rules)


# -- positions -------------------------------------------------------------------------------------------------

_PHASES: Final = {phase.value: phase for phase in Phase}
#: The phases as field 3 writes them: the two of a call (A24) with the seat whose discard is answered.
_PHASES_SHOWN: Final = ", ".join(f"{name}/SEAT" if name in {"calls", "called"} else name for name in _PHASES)
_ENDS: Final = {letter: end for end, letter in _format.END_LETTERS.items()}


def format_position(state: GameState) -> str:
    """
    The one-line text of a position.

    Fields, separated by single spaces (``-`` marks an empty field):

    1. rules: `format_rules` (``-`` for Persian Rummy's defaults);
    2. deal number and dealer: ``1/N``;
    3. phase: ``deal``, ``draw``, ``play``, ``deal_over`` or ``game_over``; ``calls`` or ``called``
       (`Rules.rummy_calls`, A24) followed by ``/`` and the seat whose discard is answered (``calls/N``);
    4. the seat to act, or ``-``;
    5. the hands of N, E, S and W, separated by ``/``;
    6. the stock, next card to draw first, after a ``^`` when everyone knows it (turned over
       from the discard pile, A18);
    7. the discard pile, bottom card first;
    8. the table melds in order, separated by ``,``: the owner, ``:``, the cards laid down,
       then ``+SEAT:CARDS`` for the cards each seat laid off; a joker that stands for a card
       (A7) is written with it, ``X1=6h``, in the place of that card;
    9. the card taken from the discard pile that must still be played;
    10. the cards taken from the discard pile this turn;
    11. the cards each seat is known to hold from the discard pile, as in 5 (or ``-``);
    12. passes in a row;
    13. the seat that went out in this deal;
    14. the finished deals, separated by ``,``: for each team ``melded.doubling.bonus.in_hand``
        or its total alone (``128``), the two teams joined by ``:``, then ``:`` and how the deal
        ended (the seat that went out, ``p`` for passes, ``e`` for an empty stock).

    >>> from persian_rummy import new_game
    >>> format_position(new_game())[:41]
    '- 0/N deal - -/-/-/- 2c3c4c5c6c7c8c9cTcJc'
    """
    _args.expect(state, GameState, "state", "a GameState")
    return _format.position(state)


def parse_position(text: str) -> GameState:
    """
    Read a position written by `format_position`, validating it completely.

    For writing positions by hand, one place may be written ``*``: every card not placed
    elsewhere, in `FULL_DECK` order.  That place is the stock, the discard pile or a hand.

    Raises:
        InvalidNotationError: *text* is not a position's notation, or the position it
            describes breaks an invariant (the message names the first problem).
    """
    raw: object = text
    if not isinstance(raw, str):
        msg = f"a position must be written as a string, got {_limits.shown(raw)}"
        raise InvalidNotationError(msg)
    if len(text) > _MAX_TEXT:
        msg = f"position text too long ({len(text):,} characters)"
        raise InvalidNotationError(msg)
    fields = text.split()
    if len(fields) != 14:
        msg = f"a position has 14 fields separated by spaces, got {len(fields)}"
        raise InvalidNotationError(msg)
    try:
        return GameState(**_position_fields(fields))
    except InvalidStateError as error:
        msg = f"invalid position: {error}"
        raise InvalidNotationError(msg) from None


class _Position(TypedDict):
    """
    The fields of a `GameState`, as a position's text gives them.
    """

    rules: Rules
    phase: Phase
    deal: int
    dealer: int
    to_act: int | None
    hands: tuple[CardSet, CardSet, CardSet, CardSet]
    stock: tuple[Card, ...]
    stock_known: bool
    discard_pile: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    obligation: Card | None
    picked: CardSet
    known: tuple[CardSet, CardSet, CardSet, CardSet]
    passes: int
    went_out: int | None
    discarder: int | None
    results: tuple[DealScore, ...]


def _position_fields(fields: list[str]) -> _Position:
    """
    The fields of a `GameState` written in the 14 fields of a position's text, read in order.
    """
    (rules_f, deal_f, phase_f, act_f, hands_f, stock_f, pile_f, melds_f, ob_f, picked_f, known_f, passes_f, out_f,
     results_f) = fields  # fmt: skip
    rules = parse_rules(rules_f)
    deal_text, sep, dealer_text = deal_f.partition("/")
    if not sep or not _COUNT.fullmatch(deal_text):
        msg = f"field 2 is DEAL/DEALER such as 1/N, got {_limits.shown(deal_f)}"
        raise InvalidNotationError(msg)
    dealer = _parse_seat(dealer_text, deal_f)
    phase_text, sep, discarder_text = phase_f.partition("/")
    phase = _PHASES.get(phase_text)
    if phase is None or (sep and not discarder_text):
        msg = f"field 3 is a phase ({_PHASES_SHOWN}), got {_limits.shown(phase_f)}"
        raise InvalidNotationError(msg)
    to_act = None if act_f == "-" else _parse_seat(act_f, act_f)
    melds_read: list[TableMeld] = []
    hands, stock, pile = _card_places(
        hands_f, stock_f.removeprefix(_format.KNOWN_STOCK), pile_f, melds_f, rules, melds_read
    )
    melds = tuple(melds_read)
    # Read in the order of the fields, so that the first field in error is the one named.
    return {
        "rules": rules, "phase": phase, "deal": int(deal_text), "dealer": dealer, "to_act": to_act, "hands": hands,
        "stock": stock, "stock_known": stock_f.startswith(_format.KNOWN_STOCK), "discard_pile": pile, "melds": melds,
        "obligation": None if ob_f == "-" else _one_card(ob_f, ob_f), "picked": _card_set(picked_f, "picked cards"),
        "known": _four(known_f, "known cards") if known_f != "-" else (CardSet(),) * 4, "passes": _passes(passes_f),
        "went_out": None if out_f == "-" else _parse_seat(out_f, out_f),
        "discarder": _parse_seat(discarder_text, phase_f) if sep else None, "results": _parse_results(results_f),
    }  # fmt: skip


def _passes(text: str) -> int:
    if not _COUNT.fullmatch(text) or len(text) > 1:
        msg = f"field 12 is the number of passes in a row, got {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    return int(text)


def _card_places(  # noqa: PLR0913 (the fields that place cards)
    hands_f: str, stock_f: str, pile_f: str, melds_f: str, rules: Rules, melds: list[TableMeld]
) -> tuple[tuple[CardSet, CardSet, CardSet, CardSet], tuple[Card, ...], tuple[Card, ...]]:
    """
    The hands, the stock and the discard pile of a position's text, and its melds (into *melds*).

    One of the places may be written ``*``: every card placed nowhere else, in `FULL_DECK` order.
    """
    places = (*hands_f.split("/"), stock_f, pile_f)
    stars = [i for i, place in enumerate(places) if "*" in place]
    if len(stars) > 1 or any(places[i] != "*" for i in stars):
        msg = "one place at most (a hand, the stock or the discard pile) may be written '*', and alone"
        raise InvalidNotationError(msg)
    hands = _four(hands_f.replace("*", "-"), "hands")
    pile = parse_cards(pile_f.replace("*", "-"))
    melds.extend(_parse_meld(part, rules) for part in melds_f.split(",") if melds_f != "-")
    stock = parse_cards(stock_f.replace("*", "-"))
    if not stars:
        return hands, stock, pile
    # A card written twice is left to the check of the whole position, which names where it is.
    placed = CardSet(set(stock) | set(pile))
    for part in (*hands, *(meld.cards for meld in melds)):
        placed |= part
    rest = tuple(card for card in FULL_DECK if card not in placed)
    if stars[0] == 4:
        return hands, rest, pile
    if stars[0] == 5:
        return hands, stock, rest
    parts = list(hands)
    parts[stars[0]] = CardSet(rest)
    return (parts[0], parts[1], parts[2], parts[3]), stock, pile


def _four(text: str, what: str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    parts = text.split("/")
    if len(parts) != 4:
        msg = f"the {what} are four groups separated by '/', got {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    a, b, c, d = (_card_set(part, what) for part in parts)
    return (a, b, c, d)


def _parse_meld(text: str, rules: Rules) -> TableMeld:
    head, *extras = text.split("+")
    owner_text, sep, cards_text = head.partition(":")
    if not sep:
        msg = f"a meld is written OWNER:CARDS[+SEAT:CARDS...], got {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    owner = _parse_seat(owner_text, text)
    layoffs = [CardSet(), CardSet(), CardSet(), CardSet()]
    pairs = _STOOD_FOR.findall(cards_text)
    for extra in extras:
        seat_text, sep, part = extra.partition(":")
        seat = _parse_seat(seat_text, text)
        if not sep or layoffs[seat]:
            msg = f"each seat's lay-offs are written once as +SEAT:CARDS, got {_limits.shown(text)}"
            raise InvalidNotationError(msg)
        pairs.extend(_STOOD_FOR.findall(part))
        layoffs[seat] = _card_set(_STOOD_FOR.sub(r"\1", part), "lay-off")
    stand_ins = StandIns.parse(" ".join(f"{joker}={card}" for joker, card in pairs))
    try:
        laid_down = _card_set(_STOOD_FOR.sub(r"\1", cards_text), "meld")
        return TableMeld(owner, laid_down, layoffs, ace_low=rules.ace_low_allowed, stand_ins=stand_ins)
    except ValueError as error:
        msg = f"invalid meld {_limits.shown(text)}: {error}"
        raise InvalidNotationError(msg) from None


def _parse_results(text: str) -> tuple[DealScore, ...]:
    if text == "-":
        return ()
    return tuple(_parse_result(part, number) for number, part in enumerate(text.split(","), start=1))


def _parse_result(text: str, number: int) -> DealScore:
    parts = text.split(":")
    if len(parts) != 3:
        msg = f"a finished deal is written M.D.B.H:M.D.B.H:HOW (or TOTAL:TOTAL:HOW), got {_limits.shown(text)}"
        raise InvalidNotationError(msg)
    teams = (_parse_team(parts[0], text), _parse_team(parts[1], text))
    how = parts[2]
    if how in _ENDS:
        return DealScore(number, teams, None, _ENDS[how])
    return DealScore(number, teams, _parse_seat(how, text), DealEnd.WENT_OUT)


def _parse_team(text: str, whole: str) -> TeamScore:
    numbers = text.split(".")
    if len(numbers) not in {1, 4} or not all(_NUMBER.fullmatch(n) for n in numbers):
        got = f"{_limits.shown(text)} in {_limits.shown(whole)}"
        msg = f"a team's score is written MELDED.DOUBLING.BONUS.IN_HAND or as its total, got {got}"
        raise InvalidNotationError(msg)
    if len(numbers) == 1:
        return TeamScore(total=int(text))
    melded, doubling, bonus, in_hand = (int(n) for n in numbers)
    return TeamScore(melded, doubling, bonus, in_hand)
