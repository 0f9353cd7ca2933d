"""
What a state that `persian_rummy.strategies.states` draws must meet, its knobs: their checks, and
about how many states of a game meet them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, assert_never, cast

from attrs import frozen
from hypothesis.errors import InvalidArgument

from ..engine import max_game_length
from ..rules import Rules
from ..state import GameState, Phase

#: The most deals a game can have: the 100 deals `Rules.num_deals` allows at most, and an extra deal.
MOST_DEALS: Final = 101


@frozen
class Knobs:
    """
    What a state drawn by `strategies.states` must meet, besides coming from a game under the drawn rules.
    """

    deal: int | None = None
    phase: Phase | None = None
    min_actions: int = 0
    max_actions: int | None = None
    where: Callable[[GameState], bool] | None = None

    def met(self, state: GameState, count: int) -> bool:
        return (
            count >= self.min_actions
            and (self.deal is None or state.deal == self.deal)
            and (self.phase is None or state.phase is self.phase)
            and (self.where is None or self.where(state))
        )

    def passed(self, state: GameState, count: int) -> bool:
        """
        Whether no later state of the game can meet the knobs.
        """
        return (self.deal is not None and state.deal > self.deal) or (self.phase is Phase.DEAL and count > 0)

    def expected(self, game_rules: Rules) -> int:
        """
        About how many states of a game under *game_rules* meet the knobs, from how long games
        of random play last: the range of the number of states that `strategies._reachable` skips.
        """
        stock = 55 - 4 * game_rules.hand_size
        per_deal = min(3 * stock + 12, 100) + 1
        first = 0 if self.deal is None else 1 + (self.deal - 1) * per_deal
        last = first + (game_rules.num_deals if self.deal is None else 1) * per_deal
        if self.max_actions is not None:
            last = min(last, self.max_actions)
        actions = max(0, last - max(first, self.min_actions))
        phase = self.phase
        if phase is None:
            return actions
        if phase is Phase.DRAW:
            return actions * 9 // 20
        if phase is Phase.PLAY:
            return actions * 11 // 20
        if phase is Phase.CALLS or phase is Phase.CALLED:
            # A discard that a table meld takes is answered only where the rules let seats call (A24).
            return actions // 10 if game_rules.rummy_calls else 0
        if phase is Phase.DEAL or phase is Phase.DEAL_OVER or phase is Phase.GAME_OVER:
            return game_rules.num_deals if self.deal is None else 0
        assert_never(phase)


def check_state_knobs(
    game_rules: object, deal: object, phase: object, min_actions: object, max_actions: object
) -> Phase | None:
    if deal is not None and (type(deal) is not int or not 0 <= deal <= MOST_DEALS):
        msg = f"deal must be a deal number from 0 (before the first deal) to {MOST_DEALS}, or None, got {deal!r}"
        raise InvalidArgument(msg)
    chosen_phase = _check_phase(phase)
    if type(min_actions) is not int or min_actions < 0:
        msg = f"min_actions must be an int of at least 0, got {min_actions!r}"
        raise InvalidArgument(msg)
    if max_actions is not None and (type(max_actions) is not int or max_actions < min_actions):
        msg = f"max_actions must be None or an int of at least min_actions={min_actions}, got {max_actions!r}"
        raise InvalidArgument(msg)
    before_first = chosen_phase is Phase.DEAL or deal == 0
    if before_first and (deal not in {None, 0} or chosen_phase not in {None, Phase.DEAL} or min_actions > 0):
        msg = (
            "only the start of a game, before any action, is in phase DEAL and deal 0: "
            f"got deal={deal!r}, phase={phase!r}, min_actions={min_actions!r}"
        )
        raise InvalidArgument(msg)
    if isinstance(game_rules, Rules):
        _check_against_rules(game_rules, deal, min_actions)
    return chosen_phase


def _check_phase(phase: object) -> Phase | None:
    if phase is None:
        return None
    try:
        return Phase(cast("str", phase))
    except ValueError:
        msg = f"phase must be a Phase or None, got {phase!r}"
        raise InvalidArgument(msg) from None


def _check_against_rules(game_rules: Rules, deal: object, min_actions: int) -> None:
    """
    Refuse knobs that no game under *game_rules* can meet.
    """
    if isinstance(deal, int) and deal > game_rules.max_deals:
        msg = f"a game under these rules has at most {game_rules.max_deals} deal(s), so never deal {deal}"
        raise InvalidArgument(msg)
    longest = max_game_length(game_rules)
    if longest is not None and min_actions > longest:
        msg = f"a game under these rules lasts at most {longest} actions, fewer than min_actions={min_actions}"
        raise InvalidArgument(msg)
