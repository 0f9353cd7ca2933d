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

from . import _version
from .actionids import (
    action_count,
    action_from_id,
    action_id,
    action_mask,
    id_text,
    legal_actions_by_id,
    legal_ids,
)
from .actions import ACTION_TYPES, Action, Deal, Discard, DrawStock, LayDown, LayOff, Pass, PlayerAction, TakeDiscard
from .cards import FULL_DECK, JOKERS, Card, Rank, Suit, by_rank, by_suit, parse_cards
from .cardsets import CardSet
from .engine import (
    COMPILED,
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
from .events import Event, Listener, events_of, view_after, view_from_events
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
from .fingerprints import FINGERPRINT_VERSION, fingerprint, fingerprint_int
from .heuristics import meld_value, possible_layoffs, possible_melds, rollout, seat_returns, team_margin
from .matches import GameResult, MatchResult, MatchSummary, play_match
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
from .pictures import card_legend, render_svg, render_text, symbols_fit
from .players import (
    PLAYER_NAMES,
    GreedyPlayer,
    ISMCTSPlayer,
    LegalActionsPlayer,
    PIMCPlayer,
    Player,
    RandomPlayer,
    make_player,
)
from .records import GameRecord, final_state, replay
from .rules import (
    DEFAULT_RULES,
    CardValues,
    EmptyStockEnd,
    NextDealer,
    ObligationTiming,
    Rules,
    TeamDrawTiebreak,
    TieBreak,
    card_points,
)
from .scoring import DealEnd, DealScore, TeamScore, score_deal, team_of
from .seating import Redraw, Seating, draw_rank, team_draw
from .serialize import from_data, from_json, json_schema, to_data, to_json
from .state import GameState, Phase, View, check_invariants, new_game, next_dealer
from .views import arrangements, check_view, count_arrangements, determinize, observe

#: The installed version of the package, from its metadata (``0+unknown`` when it is not installed).
__version__ = _version.VERSION

__all__ = [
    "ACTION_TYPES",
    "COMPILED",
    "DEFAULT_RULES",
    "FINGERPRINT_VERSION",
    "FULL_DECK",
    "JOKERS",
    "PLAYER_NAMES",
    "Action",
    "Card",
    "CardSet",
    "CardValues",
    "ChanceNodeError",
    "Deal",
    "DealEnd",
    "DealScore",
    "Discard",
    "DrawStock",
    "EmptyStockEnd",
    "Event",
    "GameRecord",
    "GameResult",
    "GameState",
    "GreedyPlayer",
    "ISMCTSPlayer",
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
    "LegalActionsPlayer",
    "Listener",
    "MatchResult",
    "MatchSummary",
    "MeldKind",
    "NextDealer",
    "ObligationTiming",
    "Outcome",
    "PIMCPlayer",
    "Pass",
    "PersianRummyError",
    "Phase",
    "Player",
    "PlayerAction",
    "RandomPlayer",
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
    "action_count",
    "action_from_id",
    "action_id",
    "action_mask",
    "apply",
    "arrangements",
    "by_rank",
    "by_suit",
    "card_legend",
    "card_points",
    "check_invariants",
    "check_legal",
    "check_view",
    "count_arrangements",
    "determinize",
    "draw_rank",
    "events_of",
    "final_state",
    "fingerprint",
    "fingerprint_int",
    "format_action",
    "format_cards",
    "format_position",
    "format_rules",
    "from_data",
    "from_json",
    "id_text",
    "is_deal_over",
    "is_game_over",
    "is_legal",
    "is_meld",
    "json_schema",
    "legal_actions",
    "legal_actions_by_id",
    "legal_ids",
    "make_player",
    "max_deal_length",
    "max_game_length",
    "meld_kind",
    "meld_value",
    "new_game",
    "next_dealer",
    "observe",
    "outcome",
    "parse_action",
    "parse_cards",
    "parse_position",
    "parse_rules",
    "play_match",
    "possible_layoffs",
    "possible_melds",
    "random_deal",
    "render_svg",
    "render_text",
    "replay",
    "rollout",
    "score_deal",
    "seat_returns",
    "symbols_fit",
    "team_draw",
    "team_margin",
    "team_of",
    "to_data",
    "to_json",
    "view_after",
    "view_from_events",
]
