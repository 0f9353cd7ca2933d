"""
Persian Rummy: the complete rules as immutable values and pure functions.

>>> import random
>>> from persian_rummy import apply, legal_actions, new_game, random_deal
>>> state = new_game()
>>> state = apply(state, random_deal(state, random.Random(1)))
>>> state.phase, state.to_act
(<Phase.DRAW: 'draw'>, 1)

The package exports the core: cards, rules, actions, states, the engine, views, the exceptions,
notation and JSON.  Everything else is imported from its module or subpackage:
`persian_rummy.bots` (players), `persian_rummy.matches`, `persian_rummy.rl` (learning
interfaces), `persian_rummy.pictures`, `persian_rummy.events`, `persian_rummy.fingerprints`,
`persian_rummy.strategies` (Hypothesis) and ``persian_rummy.cli`` (the command line).
"""

from __future__ import annotations

from ._internal import version as _version
from .actions import (
    ACTION_TYPES,
    Action,
    CallRummy,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Pass,
    PlayerAction,
    TakeDiscard,
)
from .cards import FULL_DECK, JOKERS, Card, Rank, Suit, parse_cards
from .cardsets import CardSet
from .engine import (
    Outcome,
    apply,
    check_legal,
    is_deal_over,
    is_game_over,
    is_legal,
    legal_actions,
    outcome,
    random_deal,
)
from .exceptions import (
    ChanceNodeError,
    IllegalActionError,
    InvalidDataError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidRecordError,
    InvalidStateError,
    InvalidTypeError,
    InvalidValueError,
    MatchError,
    MatchTimeoutError,
    PersianRummyError,
    PlayerError,
    ViewError,
)
from .melds import MeldKind, StandIns, TableMeld
from .notation import (
    format_action,
    format_cards,
    format_meld,
    format_position,
    format_rules,
    parse_action,
    parse_meld,
    parse_position,
    parse_rules,
)
from .records import GameRecord, replay
from .rules import DEFAULT_RULES, CardValues, Rules, card_points
from .scoring import DealScore, score_deal
from .serialize import from_data, from_json, json_schema, to_data, to_json
from .state import GameState, Phase, View, check_invariants, new_game
from .views import check_view, determinize, observe

#: The installed version of the package, from its metadata (``0+unknown`` when it is not installed).
__version__ = _version.VERSION

__all__ = [
    "ACTION_TYPES",
    "DEFAULT_RULES",
    "FULL_DECK",
    "JOKERS",
    "Action",
    "CallRummy",
    "Card",
    "CardSet",
    "CardValues",
    "ChanceNodeError",
    "Deal",
    "DealScore",
    "DeclineCall",
    "Discard",
    "DrawStock",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "InvalidDataError",
    "InvalidMeldError",
    "InvalidNotationError",
    "InvalidRecordError",
    "InvalidStateError",
    "InvalidTypeError",
    "InvalidValueError",
    "LayDown",
    "LayOff",
    "MatchError",
    "MatchTimeoutError",
    "MeldKind",
    "Outcome",
    "Pass",
    "PersianRummyError",
    "Phase",
    "PlayerAction",
    "PlayerError",
    "Rank",
    "Rules",
    "StandIns",
    "Suit",
    "TableMeld",
    "TakeDiscard",
    "View",
    "ViewError",
    "apply",
    "card_points",
    "check_invariants",
    "check_legal",
    "check_view",
    "determinize",
    "format_action",
    "format_cards",
    "format_meld",
    "format_position",
    "format_rules",
    "from_data",
    "from_json",
    "is_deal_over",
    "is_game_over",
    "is_legal",
    "json_schema",
    "legal_actions",
    "new_game",
    "observe",
    "outcome",
    "parse_action",
    "parse_cards",
    "parse_meld",
    "parse_position",
    "parse_rules",
    "random_deal",
    "replay",
    "score_deal",
    "to_data",
    "to_json",
]
