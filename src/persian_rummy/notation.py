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
from collections.abc import Sequence
from typing import Final

from .actions import Action, Deal, Discard, DrawStock, LayDown, LayOff, Pass, TakeDiscard
from .cards import FULL_DECK, Card, parse_cards
from .cardsets import CardSet
from .engine import check_legal, next_dealer
from .exceptions import IllegalActionError, InvalidNotationError
from .melds import TableMeld
from .rules import Rules
from .scoring import DealEnd, DealScore, TeamScore
from .state import GameState, InvalidStateError, Phase

__all__ = [
    "SEAT_LETTERS",
    "format_action",
    "format_cards",
    "format_position",
    "format_rules",
    "parse_action",
    "parse_cards",
    "parse_position",
    "parse_rules",
]


def __dir__() -> list[str]:
    return __all__


#: The letters of the seats 0-3: North, East, South, West.
SEAT_LETTERS: Final = "NESW"
_VERBS: Final = ("deal", "draw", "take", "meld", "lay", "discard", "pass")
_MAX_TEXT: Final = 10_000
# A whole number as the notation writes it: ASCII digits, a minus sign for scores, no more than six digits.
_NUMBER: Final = re.compile(r"-?[0-9]{1,6}")
_COUNT: Final = re.compile(r"[0-9]{1,3}")


def _seat_letter(seat: int) -> str:
    return SEAT_LETTERS[seat]


def _parse_seat(token: str, text: str) -> int:
    seat = SEAT_LETTERS.find(token) if len(token) == 1 else -1
    if seat < 0:
        msg = f"not a seat: {token!r} in {text!r} (expected N, E, S or W)"
        raise InvalidNotationError(msg)
    return seat


def format_cards(cards: Sequence[Card] | CardSet) -> str:
    """
    Cards written together, in the order given (a `CardSet` in `FULL_DECK` order); ``-`` for none.

    >>> format_cards(CardSet.parse("Qh 2c X1"))
    '2cQhX1'
    """
    text = "".join(str(card) for card in cards)
    return text or "-"


def _card_set(text: str, what: str) -> CardSet:
    cards = parse_cards(text)
    result = CardSet(cards)
    if len(result) != len(cards):
        msg = f"a card appears twice in the {what} {text!r}"
        raise InvalidNotationError(msg)
    return result


def _meld_name(meld: TableMeld) -> Card:
    return next(iter(meld.cards))


# -- actions ---------------------------------------------------------------------------------------------------


def format_action(action: Action, state: GameState | None = None) -> str:
    """
    The canonical text of *action*.

    A lay-off names its meld by the meld's first card, so it needs the *state*
    the action applies to; other actions do not.

    Raises:
        ValueError: a lay-off without a state, or onto a meld that is not on the table; a
            deal whose deck is not the 56 cards.
    """
    seat = _seat_letter(action.seat)
    if isinstance(action, Deal):
        if len(action.deck) != 56 or len(set(action.deck)) != 56:
            msg = f"cannot write {action!r}: a deal's deck is each of the 56 cards once"
            raise ValueError(msg)
        return f"{seat} deal {format_cards(action.deck)}"
    if isinstance(action, DrawStock):
        return f"{seat} draw"
    if isinstance(action, TakeDiscard):
        return f"{seat} take {action.card}"
    if isinstance(action, LayDown):
        return f"{seat} meld {format_cards(action.cards)}"
    if isinstance(action, LayOff):
        if state is None or not 0 <= action.meld < len(state.melds):
            msg = f"a lay-off names its meld by a card on the table: {action!r} needs the state it applies to"
            raise ValueError(msg)
        return f"{seat} lay {format_cards(action.cards)} on {_meld_name(state.melds[action.meld])}"
    if isinstance(action, Discard):
        return f"{seat} discard {action.card}"
    return f"{seat} pass"


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
    """
    action = _parse_action(text, state)
    if strict and state is not None:
        check_legal(state, action)
    return action


def _parse_action(text: str, state: GameState | None) -> Action:
    raw: object = text
    if not isinstance(raw, str):
        msg = f"an action must be written as a string, got {raw!r}"
        raise InvalidNotationError(msg)
    if len(text) > _MAX_TEXT:
        msg = f"action text too long ({len(text)} characters)"
        raise InvalidNotationError(msg)
    seat, verb, args = _split_action(text, state)
    if verb in {"draw", "pass"}:
        _expect(args, 0, text)
        return DrawStock(seat) if verb == "draw" else Pass(seat)
    if verb in {"take", "discard"}:
        _expect(args, 1, text)
        card = _one_card(args[0], text)
        return TakeDiscard(seat, card) if verb == "take" else Discard(seat, card)
    if verb == "deal":
        deck = parse_cards(" ".join(args))
        if len(deck) != 56 or len(set(deck)) != 56:
            msg = f"a deal lists each of the 56 cards once, got {len(deck)} cards, {len(set(deck))} different"
            raise InvalidNotationError(msg)
        return Deal(seat, deck)
    if verb == "meld":
        if not args:
            msg = f"meld needs its cards in {text!r}"
            raise InvalidNotationError(msg)
        return LayDown(seat, _card_set(" ".join(args), "meld"))
    return _parse_lay_off(seat, args, text, state)


def _split_action(text: str, state: GameState | None) -> tuple[int, str, list[str]]:
    """
    The seat, the verb and the arguments of an action's text; the seat comes from *state* when left out.
    """
    words = text.split()
    if not words:
        msg = "empty action"
        raise InvalidNotationError(msg)
    if words[0] in _VERBS:
        if state is None:
            msg = f"the seat is needed without a state: {text!r}"
            raise InvalidNotationError(msg)
        acting = next_dealer(state) if words[0] == "deal" else state.to_act
        if acting is None:
            msg = f"nobody is to act, so {text!r} needs its seat"
            raise InvalidNotationError(msg)
        seat = acting
    elif len(words[0]) == 1:
        seat = _parse_seat(words[0], text)
        words = words[1:]
        if not words:
            msg = f"an action is missing after the seat in {text!r}"
            raise InvalidNotationError(msg)
    else:
        words = words[:1]
    if words[0] not in _VERBS:
        msg = f"unknown action {words[0]!r} in {text!r} (expected deal, draw, take, meld, lay, discard or pass)"
        raise InvalidNotationError(msg)
    return seat, words[0], words[1:]


def _parse_lay_off(seat: int, args: list[str], text: str, state: GameState | None) -> LayOff:
    if "on" not in args or args.index("on") == 0 or args.index("on") != len(args) - 2:
        msg = f"a lay-off is written 'lay CARDS on CARD', got {text!r}"
        raise InvalidNotationError(msg)
    cards = _card_set(" ".join(args[:-2]), "lay-off")
    target = _one_card(args[-1], text)
    if state is None:
        msg = f"a lay-off names its meld by a card on the table, so {text!r} needs a state"
        raise InvalidNotationError(msg)
    for index, meld in enumerate(state.melds):
        if target in meld.cards:
            return LayOff(seat, index, cards)
    raise IllegalActionError(text, f"no meld on the table holds {target}", "R17")


def _expect(args: list[str], count: int, text: str) -> None:
    if len(args) != count:
        msg = f"expected {count} argument(s) in {text!r}, got {len(args)}"
        raise InvalidNotationError(msg)


def _one_card(token: str, text: str) -> Card:
    cards = parse_cards(token)
    if len(cards) != 1:
        msg = f"expected one card, got {token!r} in {text!r}"
        raise InvalidNotationError(msg)
    return cards[0]


# -- rules -----------------------------------------------------------------------------------------------------

_RULE_FIELDS: Final = {attribute.name: attribute for attribute in Rules.__attrs_attrs__}


def format_rules(rules: Rules) -> str:
    """
    The rules' id: ``-`` for Persian Rummy's defaults, else the changed switches as ``name=value`` joined by commas.

    >>> format_rules(Rules())
    '-'
    >>> format_rules(Rules(hand_size=10, obligation_timing="before_discard"))
    'hand_size=10,obligation_timing=before_discard'
    """
    changes = rules.changes()
    if not changes:
        return "-"
    return ",".join(f"{name}={_rule_value(value)}" for name, value in changes.items())


def _rule_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_rules(text: str) -> Rules:  # noqa: C901
    """
    Read a rules id written by `format_rules`.

    Raises:
        InvalidNotationError: an unknown switch, a malformed pair or a value the switch does not take.
    """
    if not isinstance(text, str):
        msg = f"rules must be written as a string, got {text!r}"  # type: ignore[unreachable]
        raise InvalidNotationError(msg)
    if text == "-":
        return Rules()
    values: dict[str, object] = {}
    for pair in text.split(","):
        name, sep, raw = pair.partition("=")
        if not sep or name not in _RULE_FIELDS:
            msg = f"unknown rule switch {name!r} in {text!r}"
            raise InvalidNotationError(msg)
        if name in values:
            msg = f"rule switch {name!r} given twice in {text!r}"
            raise InvalidNotationError(msg)
        default = getattr(_DEFAULT_RULES, name)
        value: object
        if isinstance(default, bool):
            if raw not in {"true", "false"}:
                msg = f"{name} takes true or false, got {raw!r}"
                raise InvalidNotationError(msg)
            value = raw == "true"
        elif isinstance(default, int):
            if not _NUMBER.fullmatch(raw):
                msg = f"{name} takes a number, got {raw!r}"
                raise InvalidNotationError(msg)
            value = int(raw)
        else:
            value = raw
        values[name] = value
    try:
        return Rules(**values)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        msg = f"invalid rules {text!r}: {error}"
        raise InvalidNotationError(msg) from None


_DEFAULT_RULES: Final = Rules()

# -- positions -------------------------------------------------------------------------------------------------

_PHASES: Final = {phase.value: phase for phase in Phase}
_ENDS: Final = {"p": DealEnd.PASSES, "e": DealEnd.STOCK_EMPTY}


def format_position(state: GameState) -> str:
    """
    The one-line text of a position.

    Fields, separated by single spaces (``-`` marks an empty field):

    1. rules: `format_rules` (``-`` for Persian Rummy's defaults);
    2. deal number and dealer: ``1/N``;
    3. phase: ``deal``, ``draw``, ``play``, ``deal_over`` or ``game_over``;
    4. the seat to act, or ``-``;
    5. the hands of N, E, S and W, separated by ``/``;
    6. the stock, next card to draw first;
    7. the discard pile, bottom card first;
    8. the table melds in order, separated by ``,``: the owner, ``:``, the cards laid down,
       then ``+SEAT:CARDS`` for the cards each seat laid off;
    9. the card taken from the discard pile that must still be played;
    10. the cards taken from the discard pile this turn;
    11. the cards each seat is known to hold from the discard pile, as in 5 (or ``-``);
    12. passes in a row;
    13. the seat that went out in this deal;
    14. the finished deals, separated by ``,``: for each team ``melded.doubling.bonus.in_hand``,
        the two teams joined by ``:``, then ``:`` and how the deal ended (the seat that went out,
        ``p`` for passes, ``e`` for an empty stock).

    >>> from persian_rummy import new_game
    >>> format_position(new_game())[:41]
    '- 0/N deal - -/-/-/- 2c3c4c5c6c7c8c9cTcJc'
    """
    hands = "/".join(format_cards(hand) for hand in state.hands)
    melds = ",".join(_format_meld(meld) for meld in state.melds) or "-"
    revealed = "-" if not any(state.revealed) else "/".join(format_cards(part) for part in state.revealed)
    fields = (
        format_rules(state.rules),
        f"{state.deal}/{_seat_letter(state.dealer)}",
        state.phase.value,
        "-" if state.to_act is None else _seat_letter(state.to_act),
        hands,
        format_cards(state.stock),
        format_cards(state.discard_pile),
        melds,
        "-" if state.obligation is None else str(state.obligation),
        format_cards(state.picked),
        revealed,
        str(state.passes),
        "-" if state.went_out is None else _seat_letter(state.went_out),
        ",".join(_format_result(result) for result in state.results) or "-",
    )
    return " ".join(fields)


def _format_meld(meld: TableMeld) -> str:
    text = f"{_seat_letter(meld.owner)}:{format_cards(meld.laid_down)}"
    for seat, part in enumerate(meld.layoffs):
        if part:
            text += f"+{_seat_letter(seat)}:{format_cards(part)}"
    return text


def _format_result(result: DealScore) -> str:
    teams = ":".join(f"{t.melded}.{t.doubling}.{t.bonus}.{t.in_hand}" for t in result.teams)
    if result.end is DealEnd.WENT_OUT and result.went_out is not None:
        how = _seat_letter(result.went_out)
    else:
        how = "p" if result.end is DealEnd.PASSES else "e"
    return f"{teams}:{how}"


def parse_position(text: str) -> GameState:
    """
    Read a position written by `format_position`, validating it completely.

    For writing positions by hand, the stock may be given as ``*``: every card
    not placed elsewhere, in `FULL_DECK` order.

    Raises:
        InvalidNotationError: *text* is not a position's notation, or the position it
            describes breaks an invariant (the message names the first problem).
    """
    if not isinstance(text, str):
        msg = f"a position must be written as a string, got {text!r}"  # type: ignore[unreachable]
        raise InvalidNotationError(msg)
    if len(text) > _MAX_TEXT:
        msg = f"position text too long ({len(text)} characters)"
        raise InvalidNotationError(msg)
    fields = text.split()
    if len(fields) != 14:
        msg = f"a position has 14 fields separated by spaces, got {len(fields)}"
        raise InvalidNotationError(msg)
    (rules_f, deal_f, phase_f, act_f, hands_f, stock_f, pile_f, melds_f, ob_f, picked_f, rev_f, passes_f, out_f,
     results_f) = fields  # fmt: skip
    rules = parse_rules(rules_f)
    deal_text, sep, dealer_text = deal_f.partition("/")
    if not sep or not _COUNT.fullmatch(deal_text):
        msg = f"field 2 is DEAL/DEALER such as 1/N, got {deal_f!r}"
        raise InvalidNotationError(msg)
    deal = int(deal_text)
    dealer = _parse_seat(dealer_text, deal_f)
    phase = _PHASES.get(phase_f)
    if phase is None:
        msg = f"field 3 is a phase ({', '.join(_PHASES)}), got {phase_f!r}"
        raise InvalidNotationError(msg)
    to_act = None if act_f == "-" else _parse_seat(act_f, act_f)
    hands = _four(hands_f, "hands")
    pile = parse_cards(pile_f)
    melds = tuple(_parse_meld(part) for part in melds_f.split(",")) if melds_f != "-" else ()
    if stock_f == "*":
        placed = CardSet(pile)
        for part in (*hands, *(meld.cards for meld in melds)):
            placed |= part
        stock = tuple(card for card in FULL_DECK if card not in placed)
    else:
        stock = parse_cards(stock_f)
    obligation = None if ob_f == "-" else _one_card(ob_f, ob_f)
    picked = _card_set(picked_f, "picked cards")
    revealed = _four(rev_f, "revealed cards") if rev_f != "-" else (CardSet(),) * 4
    if not _COUNT.fullmatch(passes_f) or len(passes_f) > 1:
        msg = f"field 12 is the number of passes in a row, got {passes_f!r}"
        raise InvalidNotationError(msg)
    went_out = None if out_f == "-" else _parse_seat(out_f, out_f)
    results = (
        tuple(_parse_result(part, number) for number, part in enumerate(results_f.split(","), start=1))
        if results_f != "-"
        else ()
    )
    try:
        return GameState(
            rules=rules,
            phase=phase,
            deal=deal,
            dealer=dealer,
            to_act=to_act,
            hands=hands,
            stock=stock,
            discard_pile=pile,
            melds=melds,
            obligation=obligation,
            picked=picked,
            revealed=revealed,
            passes=int(passes_f),
            went_out=went_out,
            results=results,
        )
    except InvalidStateError as error:
        msg = f"invalid position: {error}"
        raise InvalidNotationError(msg) from None


def _four(text: str, what: str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    parts = text.split("/")
    if len(parts) != 4:
        msg = f"the {what} are four groups separated by '/', got {text!r}"
        raise InvalidNotationError(msg)
    a, b, c, d = (_card_set(part, what) for part in parts)
    return (a, b, c, d)


def _parse_meld(text: str) -> TableMeld:
    head, *extras = text.split("+")
    owner_text, sep, cards_text = head.partition(":")
    if not sep:
        msg = f"a meld is written OWNER:CARDS[+SEAT:CARDS...], got {text!r}"
        raise InvalidNotationError(msg)
    owner = _parse_seat(owner_text, text)
    layoffs = [CardSet(), CardSet(), CardSet(), CardSet()]
    for extra in extras:
        seat_text, sep, part = extra.partition(":")
        seat = _parse_seat(seat_text, text)
        if not sep or layoffs[seat]:
            msg = f"each seat's lay-offs are written once as +SEAT:CARDS, got {text!r}"
            raise InvalidNotationError(msg)
        layoffs[seat] = _card_set(part, "lay-off")
    try:
        return TableMeld(owner, _card_set(cards_text, "meld"), layoffs)
    except ValueError as error:
        msg = f"invalid meld {text!r}: {error}"
        raise InvalidNotationError(msg) from None


def _parse_result(text: str, number: int) -> DealScore:
    parts = text.split(":")
    if len(parts) != 3:
        msg = f"a finished deal is written M.D.B.H:M.D.B.H:HOW, got {text!r}"
        raise InvalidNotationError(msg)
    teams = (_parse_team(parts[0], text), _parse_team(parts[1], text))
    how = parts[2]
    if how in _ENDS:
        return DealScore(number, teams, None, _ENDS[how])
    return DealScore(number, teams, _parse_seat(how, text), DealEnd.WENT_OUT)


def _parse_team(text: str, whole: str) -> TeamScore:
    numbers = text.split(".")
    if len(numbers) != 4 or not all(_NUMBER.fullmatch(n) for n in numbers):
        msg = f"a team's score is written MELDED.DOUBLING.BONUS.IN_HAND, got {text!r} in {whole!r}"
        raise InvalidNotationError(msg)
    melded, doubling, bonus, in_hand = (int(n) for n in numbers)
    return TeamScore(melded, doubling, bonus, in_hand)
