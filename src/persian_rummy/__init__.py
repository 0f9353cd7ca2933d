"""
Persian Rummy: the complete rules as immutable values and pure functions.

>>> import random
>>> from persian_rummy import apply, legal_actions, new_game, random_deal
>>> state = new_game()
>>> state = apply(state, random_deal(state, random.Random(1)))
>>> state.phase, state.to_act
(<Phase.DRAW: 'draw'>, 1)
"""

from __future__ import annotations

from .actions import ACTION_TYPES, Action, Deal, Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from .cards import FULL_DECK, JOKERS, Card, Rank, Suit, by_rank, by_suit, card_points, parse_cards
from .cardsets import CardSet
from .engine import (
    Outcome,
    apply,
    check_legal,
    is_deal_over,
    is_game_over,
    is_legal,
    legal_actions,
    max_deal_length,
    max_game_length,
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
    PersianRummyError,
    ViewError,
)
from .melds import MeldKind, TableMeld, is_meld, meld_kind
from .notation import (
    format_action,
    format_cards,
    format_position,
    format_rules,
    parse_action,
    parse_position,
    parse_rules,
)
from .records import GameRecord, final_state, replay
from .rules import DEFAULT_RULES, EmptyStockEnd, NextDealer, ObligationTiming, Rules, TeamDrawTiebreak, TieBreak
from .scoring import DealEnd, DealScore, TeamScore, score_deal, team_of
from .seating import Redraw, Seating, draw_rank, team_draw
from .serialize import from_data, from_json, json_schema, to_data, to_json
from .state import GameState, Phase, View, check_invariants, new_game, next_dealer
from .views import arrangements, check_view, count_arrangements, determinize, observe

__all__ = [
    "ACTION_TYPES",
    "DEFAULT_RULES",
    "FULL_DECK",
    "JOKERS",
    "Action",
    "Card",
    "CardSet",
    "ChanceNodeError",
    "Deal",
    "DealEnd",
    "DealScore",
    "Discard",
    "DrawStock",
    "EmptyStockEnd",
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
    "MeldKind",
    "NextDealer",
    "ObligationTiming",
    "Outcome",
    "Pass",
    "PersianRummyError",
    "Phase",
    "PlayerAction",
    "Rank",
    "Redraw",
    "Rules",
    "Seating",
    "Suit",
    "TableMeld",
    "TakeDiscard",
    "TeamDrawTiebreak",
    "TeamScore",
    "TieBreak",
    "View",
    "ViewError",
    "apply",
    "arrangements",
    "by_rank",
    "by_suit",
    "card_points",
    "check_invariants",
    "check_legal",
    "check_view",
    "count_arrangements",
    "determinize",
    "draw_rank",
    "final_state",
    "format_action",
    "format_cards",
    "format_position",
    "format_rules",
    "from_data",
    "from_json",
    "is_deal_over",
    "is_game_over",
    "is_legal",
    "is_meld",
    "json_schema",
    "legal_actions",
    "max_deal_length",
    "max_game_length",
    "meld_kind",
    "new_game",
    "next_dealer",
    "observe",
    "outcome",
    "parse_action",
    "parse_cards",
    "parse_position",
    "parse_rules",
    "random_deal",
    "replay",
    "score_deal",
    "team_draw",
    "team_of",
    "to_data",
    "to_json",
]
