"""
What Hypothesis knows about persian-rummy's types, once the package is installed.

The package declares `_hypothesis_setup_hook` as its ``hypothesis`` entry point, so
Hypothesis calls it when it is imported.  It registers a strategy of
`persian_rummy.strategies` for each type: ``st.from_type(GameState)``, ``st.from_type(Card)``
and the like then work in any test, as do ``st.builds`` and ``@given`` for arguments annotated
with these types, without importing persian_rummy first.  The package itself never imports
Hypothesis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..actions import ACTION_TYPES
from ..cards import Card
from ..cardsets import CardSet
from ..melds import TableMeld
from ..rules import CardValues, Rules
from ..state import GameState, View

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def _strategy_for(kind: type) -> SearchStrategy[Any]:
    """
    The strategy for *kind*, looked up when Hypothesis first needs it.

    Looking it up only then lets ``import persian_rummy.strategies`` come before
    ``import hypothesis``: that import runs this module's hook while the strategies
    module is still being imported.
    """
    from .. import strategies  # noqa: PLC0415 (it imports Hypothesis, and may be being imported)

    if kind in ACTION_TYPES:
        return strategies.actions(kind=kind)
    builders: dict[type, Callable[[], SearchStrategy[Any]]] = {
        Card: strategies.cards,
        CardSet: strategies.card_sets,
        Rules: strategies.rules,
        CardValues: strategies.card_values,
        GameState: strategies.states,
        View: strategies.views,
        TableMeld: strategies.table_melds,
    }
    return builders[kind]()


def _hypothesis_setup_hook() -> None:
    """
    Register a strategy with Hypothesis for each of the package's value types.

    Cards, card sets, rules, card values, reachable states and their views, melds on the table of
    reachable states, and well-formed actions of each type (legal or not in any state).
    """
    from hypothesis import strategies as st  # noqa: PLC0415 (Hypothesis is optional)

    kinds: tuple[type, ...] = (Card, CardSet, Rules, CardValues, GameState, View, TableMeld, *ACTION_TYPES)
    for kind in kinds:
        st.register_type_strategy(kind, _strategy_for)
