"""
`persian_rummy.wording`: a refused action said to the player who reads it ("You have drawn
already."), each rule it cites named once with its one-line summary, and actions in words.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    CallRummy,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    LayDown,
    LayOff,
    Pass,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    legal_actions,
    new_game,
    random_deal,
)
from persian_rummy import strategies as prs
from persian_rummy.wording import RULE_SUMMARIES, describe, plain, rules_line
from tests import rules_page
from tests.test_rule_ids import PACKAGE, rule_ids_in

R6 = "(R6: play goes to the left, clockwise, one seat at a time)"
R13 = "(R13: a turn is: draw, then any melds and lay-offs, then one discard)"
R15_A12 = (
    "(R15: a card taken from the discard pile must be melded or laid off at once;"
    " A12: a card that cannot be played at once may not be taken)"
)
R15_A11 = (
    "(R15: a card taken from the discard pile must be melded or laid off at once;"
    " A11: the card taken must be in your next meld or lay-off, before anything else)"
)
R18 = "(R18: discarding one card from your hand ends your turn)"
A24 = "(A24: with calls played, a discard that fits a meld may be called on: Rummy! takes it to lay off at once)"


def refused(state: GameState, action: object) -> IllegalActionError:
    """
    The error `apply` raises for *action* in *state*.
    """
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    return caught.value


def first_deal() -> GameState:
    """
    The first deal of `FULL_DECK` dealt by N: E to draw, holding 2c 6c Tc Ac 5d 9d Kd, 4h on the pile.
    """
    return apply(new_game(), Deal(0, FULL_DECK))


def after_a_take() -> GameState:
    """
    E took the Jc from the pile and must lay down Jc Jd Jh (the README's game).
    """
    state = new_game()
    state = apply(state, random_deal(state, random.Random(2061)))  # noqa: S311 (a game, not a secret)
    return apply(state, TakeDiscard(1, "Jc"))


def asked() -> GameState:
    """
    A game with calls of "Rummy!" played at random up to the first discard a seat is asked about (A24).
    """
    rng = random.Random(5)  # noqa: S311 (a game, not a secret)
    state = new_game(Rules(rummy_calls=True))
    while state.phase is not Phase.CALLS:
        state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
    return state


class TestSentences:
    """
    Each kind of refusal, said to the seat that acts ("you") and to another seat (by its name).
    """

    def test_drawn_already(self) -> None:
        state = apply(first_deal(), DrawStock(1))
        error = refused(state, DrawStock(1))
        assert f"You have drawn already. {R13}" == plain(error, seat=1)
        assert f"E has drawn already. {R13}" == plain(error, seat=0)
        assert f"East has drawn already. {R13}" == plain(error, seat=0, names=["North", "East", "South", "West"])
        assert f"You have drawn already. {R13}" == plain(refused(state, Pass(1)), seat=1)

    def test_draw_first(self) -> None:
        error = refused(first_deal(), Discard(1, "Kd"))
        assert f"You must draw or pass before discarding. {R13}" == plain(error, seat=1)

    def test_not_your_turn(self) -> None:
        error = refused(first_deal(), DrawStock(2))
        assert f"It is not your turn: it is E's turn. {R6}" == plain(error, seat=2)
        assert f"It is your turn, not S's. {R6}" == plain(error, seat=1)
        assert f"It is E's turn, not S's. {R6}" == plain(error, seat=None)

    def test_not_holding_a_card(self) -> None:
        error = refused(apply(first_deal(), DrawStock(1)), Discard(1, "Ah"))
        assert f"You do not hold Ah. {R18}" == plain(error, seat=1)
        assert f"You do not hold A♥. {R18}" == plain(error, seat=1, symbols=True)
        assert f"E does not hold A♥. {R18}" == plain(error, seat=3, symbols=True)

    def test_a_take_that_cannot_be_played(self) -> None:
        error = refused(first_deal(), TakeDiscard(1, "4h"))
        assert f"4♥ cannot be taken: it could not be melded or laid off at once. {R15_A12}" == plain(
            error, seat=1, symbols=True
        )

    def test_the_card_taken_must_be_played_first(self) -> None:
        error = refused(after_a_take(), Discard(1, "Kh"))
        assert f"J♣, taken from the discard pile, must be played first. {R15_A11}" == plain(error, seat=1, symbols=True)

    def test_calls(self) -> None:
        state = asked()
        seat, top = state.seat_to_act, state.discard_pile[-1].symbol
        assert (0, "6♣") == (seat, top)
        error = refused(state, DrawStock(0))
        assert f"You are asked whether to call Rummy! on 6♣: call or decline first. {A24}" == plain(
            error, seat=0, symbols=True
        )
        assert f"N is asked whether to call Rummy! on 6♣: call or decline first. {A24}" == plain(
            error, seat=1, symbols=True
        )
        error = refused(state, DrawStock(1))
        assert f"It is not your turn: N is asked first whether to call Rummy! {A24}" == plain(error, seat=1)
        called = apply(state, CallRummy(0))
        error = refused(called, Discard(0, "6c"))
        assert f"You called Rummy! and must lay off 6♣ first. {A24}" == plain(error, seat=0, symbols=True)

    def test_a_reason_without_a_seat_becomes_a_sentence(self) -> None:
        error = refused(after_a_take(), LayDown(1, "7s 9s Ts"))
        assert "7♠ 9♠ 10♠ is not a set or a run. (R9: a meld is a set or a run of three or more cards)" == plain(
            error, seat=1, symbols=True
        )

    def test_no_python_repr(self) -> None:
        error = IllegalActionError(DrawStock(0), "Card.parse('9h') and CardSet.parse('9h Th') seat 3 was here", "R2")
        summary = RULE_SUMMARIES["R2"]
        assert f"9h and 9h Th W was here. (R2: {summary})" == plain(error, seat=0)
        assert f"9h and 9h Th you were here. (R2: {summary})" == plain(error, seat=3)


class TestRules:
    """
    Every rule id the package's errors cite has its one-line summary, and each is named once.
    """

    def test_every_rule_cited_has_a_summary(self) -> None:
        cited = {rule for path in sorted(PACKAGE.rglob("*.py")) for _, rule in rule_ids_in(path)}
        assert "R15" in cited
        assert set() == cited - set(RULE_SUMMARIES)

    def test_the_summaries_are_of_the_headings_of_the_rules_page(self) -> None:
        assert rules_page.rule_ids() == list(RULE_SUMMARIES)
        assert [] == [rule for rule, summary in RULE_SUMMARIES.items() if not summary or "\n" in summary]

    def test_a_rule_is_named_once(self) -> None:
        assert "(R27: a game is two deals)" == rules_line(["R27", "R27"])
        assert "9 (R99)" == plain(IllegalActionError("x", "9", ("R99", "R99")), seat=None).replace(".", "")


SEAT_PHRASE = re.compile(r"\bseat [0-3]\b")


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), reader=st.sampled_from([None, 0, 1, 2, 3]), symbols=st.booleans())
def test_refusals_read_as_sentences(data: st.DataObject, reader: int | None, symbols: bool) -> None:
    """
    For any refused action on any state, the plain text has no ``(seat=``, no Python repr, no
    ``seat N`` for the reader, and names each rule it cites exactly once.
    """
    state = data.draw(prs.states())
    action = data.draw(prs.actions(state))
    try:
        apply(state, action)
    except IllegalActionError as caught:
        error = caught
    else:
        return
    text = plain(error, seat=reader, symbols=symbols)
    assert "(seat=" not in text
    assert "parse(" not in text
    if reader is not None:
        assert f"seat {reader}" not in text
    assert [] == SEAT_PHRASE.findall(text.replace("that seat", ""))
    ids = re.findall(r"\b[RA]\d+\b", text)
    assert sorted(set(error.rule)) == sorted(ids)
    assert not text[0].islower()


class TestDescribe:
    """
    Actions in words, as their player would choose them.
    """

    @pytest.mark.parametrize(
        ("action", "expected"),
        [
            (DrawStock(1), "draw from the stock"),
            (TakeDiscard(1, "9h"), "take 9♥ from the discard pile"),
            (LayDown(1, "9c 9d 9h"), "meld 9♣ 9♦ 9♥"),
            (LayOff(1, 1, "7s"), "lay off 7♠ onto meld 2"),
            (Discard(1, "9h"), "discard 9♥"),
            (Pass(1), "pass"),
            (CallRummy(1), "call Rummy!"),
            (DeclineCall(1), "decline to call"),
            (Deal(0, FULL_DECK), "deal"),
        ],
    )
    def test_each_kind(self, action: object, expected: str) -> None:
        assert expected == describe(action, symbols=True)  # type: ignore[arg-type]

    def test_in_notation(self) -> None:
        assert "discard Th" == describe(Discard(0, "Th"))
