"""
Helpers to write test positions by hand.

``position()`` builds a validated `GameState` from card notation: every card
not placed explicitly goes to the stock (after the cards given for it), or to
the bottom of the discard pile, or into one seat's hand (*rest_to*).
``deck_for()`` builds a `Deal` whose deck deals given hands.  ``play()`` applies actions in
turn, ``illegal()`` catches the error an illegal one raises, and ``rejection()`` also checks that
the state was left as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import attrs
import pytest

from persian_rummy import (
    FULL_DECK,
    Action,
    Card,
    CardSet,
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    Rules,
    TableMeld,
    apply,
)
from persian_rummy.scoring import DealScore

_T = TypeVar("_T")


def play(state: GameState, *actions: Action) -> GameState:
    """
    The state after *actions*, applied in order.
    """
    for action in actions:
        state = apply(state, action)
    return state


def illegal(state: GameState, action: object) -> IllegalActionError:
    """
    The error `apply` raises for *action* in *state*.
    """
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    return caught.value


def forged(value: _T, **fields: object) -> _T:
    """
    *value* (an action, a deal's result) with fields set past its converters and validators,
    which only code that sets the slots of a frozen value by force can build: the package
    refuses it all the same.
    """
    copy: _T = attrs.evolve(value)  # type: ignore[misc]  # an attrs instance
    for name, content in fields.items():
        object.__setattr__(copy, name, content)
    return copy


def rejection(state: GameState, action: Action) -> IllegalActionError:
    """
    The error `apply` raises for *action*, checking that the state is left as it was.
    """
    before = hash(state)
    error = illegal(state, action)
    assert before == hash(state)
    assert error.action is action
    return error


def cards(text: str) -> tuple[Card, ...]:
    """
    Cards in the order written: ``cards("Qh 2c")``.
    """
    return tuple(Card.parse(token) for token in text.split())


def meld(owner: int, laid_down: str, **layoffs: str) -> TableMeld:
    """
    A table meld: ``meld(0, "Kc Kd Ks", s1="Kh")`` is laid down by seat 0 with ``Kh`` laid off by seat 1.
    """
    parts = [CardSet(), CardSet(), CardSet(), CardSet()]
    for key, text in layoffs.items():
        parts[int(key.removeprefix("s"))] = CardSet.parse(text)
    return TableMeld(owner, CardSet.parse(laid_down), parts)


def low_meld(owner: int, laid_down: str, **layoffs: str) -> TableMeld:
    """
    `meld` under rules that let a run take its ace low (`Rules.ace_low_allowed`, A8).
    """
    plain = meld(owner, "2c 3c 4c", **layoffs)
    return TableMeld(owner, CardSet.parse(laid_down), plain.layoffs, ace_low=True)


def position(
    *,
    hands: Sequence[str] = ("", "", "", ""),
    pile: str = "",
    melds: Sequence[TableMeld] = (),
    stock: str = "",
    stock_known: bool = False,
    rest_to: str | int = "stock",
    to_act: int | None = 0,
    phase: Phase | str = Phase.DRAW,
    dealer: int | None = None,
    deal: int = 1,
    rules: Rules | None = None,
    obligation: str | None = None,
    picked: str = "",
    known: Sequence[str] = ("", "", "", ""),
    passes: int = 0,
    went_out: int | None = None,
    results: Sequence[DealScore] = (),
) -> GameState:
    """
    A validated state; cards not placed go where *rest_to* says (``"stock"``, ``"pile"`` or a seat).

    *pile* is written bottom card first; *stock* next card to draw first.
    The dealer defaults to the seat before *to_act*.
    """
    hand_sets = [CardSet.parse(text) for text in hands]
    pile_cards = cards(pile)
    stock_cards = cards(stock)
    placed = CardSet()
    for part in [*hand_sets, CardSet(pile_cards), CardSet(stock_cards), *(m.cards for m in melds)]:
        placed |= part
    rest = tuple(card for card in FULL_DECK if card not in placed)
    if rest_to == "stock":
        stock_cards = stock_cards + rest
    elif rest_to == "pile":
        pile_cards = rest + pile_cards
    else:
        seat = int(rest_to)
        hand_sets[seat] = hand_sets[seat] | CardSet(rest)
    if dealer is None:
        dealer = ((to_act if to_act is not None else 1) - 1) % 4
    return GameState(
        rules=rules or Rules(),
        phase=Phase(phase),
        deal=deal,
        dealer=dealer,
        to_act=to_act,
        hands=hand_sets,
        stock=stock_cards,
        stock_known=stock_known,
        discard_pile=pile_cards,
        melds=melds,
        obligation=obligation,
        picked=picked,
        known=known,
        passes=passes,
        went_out=went_out,
        results=results,
    )


def deck_for(hands: Sequence[str], *, upcard: str, stock: str = "", dealer: int = 0, hand_size: int = 7) -> Deal:
    """
    A `Deal` by *dealer* that gives each seat the cards of *hands*, turns *upcard* up and
    puts *stock* on top of the stock (the remaining cards follow in `FULL_DECK` order).

    Cards are dealt one at a time clockwise from the dealer's left (R7, A25).
    """
    per_seat = [list(cards(text)) for text in hands]
    if any(len(hand) != hand_size for hand in per_seat):
        msg = f"each hand needs {hand_size} cards"
        raise ValueError(msg)
    order = [per_seat[(dealer + 1 + k) % 4][round_] for round_ in range(hand_size) for k in range(4)]
    order.append(Card.parse(upcard))
    order.extend(cards(stock))
    used = set(order)
    order.extend(card for card in FULL_DECK if card not in used)
    return Deal(dealer, tuple(order))
