"""
The order of `legal_actions` in a turn: drawing actions (R14, R21), then melds, lay-offs and discards (R11,
R16-R18); and every action listed is legal (R13).

The positions are described in `tests.turn_positions`.
"""

from __future__ import annotations

from persian_rummy import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    TakeDiscard,
    apply,
    is_legal,
    legal_actions,
)
from tests.positions import meld, position
from tests.turn_positions import empty_stock, layoff_position, standard


class TestDrawPhaseOrder:
    """
    R14: "Exactly one draw action per turn: either the top card of the stock, or any card of the (fanned,
    fully visible) discard pile together with every card above it [...]."

    R21: "When the draw pile is empty a player has two choices: take from the discard pile — only if the
    target card can be melded (R15) — or pass [...]."

    The draw phase lists DrawStock first, then the usable cards of the pile from the top down, and Pass last.
    """

    def test_r14_legal_actions_order_draw_phase_with_stock(self) -> None:
        """
        R14: DrawStock first, then TakeDiscard from the top of the pile down (only usable cards).
        """
        state = position(hands=("Qh Qs 4h 6h Td Jd", "", "", ""), pile="5h 9c Qd Kc Qc", stock="As")
        expected = (
            DrawStock(0),
            TakeDiscard(0, "Qc"),
            TakeDiscard(0, "Qd"),
            TakeDiscard(0, "5h"),
        )
        assert expected == legal_actions(state)

    def test_r21_legal_actions_order_draw_phase_without_stock(self) -> None:
        """
        R21: with an empty stock: TakeDiscard from the top down, then Pass last.
        """
        state = position(hands=("Qh Qs 4h 6h", "", "", ""), pile="5h 9c Qd Kc Qc", stock="", rest_to=2)
        expected = (TakeDiscard(0, "Qc"), TakeDiscard(0, "Qd"), TakeDiscard(0, "5h"), Pass(0))
        assert expected == legal_actions(state)


class TestPlayPhaseOrder:
    """
    R16: "After drawing, a player may lay any number of valid melds from hand [...]." R17: "After drawing, a
    player may add one or more cards to any player's melds [...]." R18: "One card from hand onto the discard
    pile ends the turn [...]."

    R11: "Jokers may be melded only in a set and never in a run [...]."

    The play phase lists the lay-downs (sets by rank, joker sets, runs by suit), then the lay-offs by meld,
    then the discards.
    """

    def test_r16_r17_r18_legal_actions_order_play_phase(self) -> None:
        """
        R16, R17, R18: sets by rank (a four, then each three), then runs by suit, lay-offs by meld, discards.
        """
        state = position(
            hands=("2c 3c 4c 5c 7c 7d 7h 7s Kd Kh Ks 9h Th Jh", "", "", ""),
            melds=(meld(3, "8c 9c Tc"), meld(2, "X1 X2 X3"), meld(1, "4s 5s 6s")),
            phase="play",
        )
        expected = (
            LayDown(0, "7c 7d 7h 7s"),
            LayDown(0, "7d 7h 7s"),
            LayDown(0, "7c 7h 7s"),
            LayDown(0, "7c 7d 7s"),
            LayDown(0, "7c 7d 7h"),
            LayDown(0, "Kd Kh Ks"),
            LayDown(0, "2c 3c 4c"),
            LayDown(0, "2c 3c 4c 5c"),
            LayDown(0, "3c 4c 5c"),
            LayDown(0, "9h Th Jh"),
            LayOff(0, 0, "7c"),
            LayOff(0, 2, "7s"),
            Discard(0, "2c"),
            Discard(0, "3c"),
            Discard(0, "4c"),
            Discard(0, "5c"),
            Discard(0, "7c"),
            Discard(0, "7d"),
            Discard(0, "Kd"),
            Discard(0, "7h"),
            Discard(0, "9h"),
            Discard(0, "Th"),
            Discard(0, "Jh"),
            Discard(0, "Kh"),
            Discard(0, "7s"),
            Discard(0, "Ks"),
        )
        assert expected == legal_actions(state)

    def test_r11_r16_legal_actions_order_joker_sets_after_natural_sets(self) -> None:
        """
        R11, R16: joker sets come after the natural sets and before the runs.
        """
        state = position(hands=("X1 X2 X3 2c 2d 2h 5s 6s 7s", "", "", ""), phase="play")
        expected = (
            LayDown(0, "2c 2d 2h"),
            LayDown(0, "X1 X2 X3"),
            LayDown(0, "5s 6s 7s"),
            *(Discard(0, text) for text in ("2c", "2d", "2h", "5s", "6s", "7s", "X1", "X2", "X3")),
        )
        assert expected == legal_actions(state)


class TestEveryListedActionIsLegal:
    """
    R13: "Draw → meld (optional: any number of new melds and lay-offs, in any order) → discard one card,
    which ends the turn [...]."

    Whatever the phase of the turn, `legal_actions` lists only actions that `apply` accepts, each once.
    """

    def test_r13_legal_actions_every_one_is_legal_in_these_positions(self) -> None:
        """
        R13: every action listed is accepted by apply, and each is listed once.
        """
        states = [
            standard(),
            apply(standard(), TakeDiscard(0, "6h")),
            layoff_position(),
            empty_stock(),
            position(hands=("6s Ts 2c", "", "", ""), pile="5s", melds=(meld(1, "7s 8s 9s"),)),
        ]
        for state in states:
            actions = legal_actions(state)
            assert len(set(actions)) == len(actions)
            for action in actions:
                assert is_legal(state, action)
