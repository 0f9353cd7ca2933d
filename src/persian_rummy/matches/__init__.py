"""
Matches: two teams of players over many games, on duplicate deals, and what the games tell.

`play_match` plays an even number of games between two teams.  A team is one `Player`, who
then plays both of the team's seats, or a pair of players, one for each seat.  The games come
in **duplicate pairs**: both games of a pair are dealt from the same decks, with the teams in
each other's seats, so each team holds in one game the cards the other held in the other, and
the luck of the cards cancels out of the pair.  The first dealer moves round the table from
one pair to the next.

Everything random is drawn from streams derived from the match's seed: one for the decks of each
pair, one for each player of each game.  A match is the same whatever processes play it, in
whatever order its games finish, and whatever ``PYTHONHASHSEED`` is.

>>> from persian_rummy.bots.players import RandomPlayer
>>> result = play_match(RandomPlayer(), RandomPlayer(), 4, seed=5)
>>> [(game.seats[0], game.first_dealer, game.points) for game in result.games]
[((0, 2), 0, (332, 306)), ((1, 3), 0, (211, 302)), ((0, 2), 1, (171, 79)), ((1, 3), 1, (31, 48))]
>>> result.games[0].deck_seed == result.games[1].deck_seed != result.games[2].deck_seed
True
>>> summary = result.summary
>>> summary.wins, summary.draws, summary.losses, summary.score_rate, summary.mean_margin
(2, 0, 2, 0.5, 2.5)
>>> play_match(RandomPlayer(), RandomPlayer(), 4, seed=5) == result
True

The result compares equal to that of another run with the same seed, on any executor: the time
each player took to think is kept (`GameResult.thinking`) but left out of the comparison.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from . import _options, _pool, _tournament
from ._game import GameResult
from ._match import Bounds, Limits, play_match
from ._ratings import Rating
from ._results import MatchResult, MatchSummary
from ._tournament import TournamentResult, pairings, play_tournament

#: The most games a match may have; with its games not kept (``keep_games=False``), whatever
#: their number, it holds in memory only its summary and the tasks under way.
MAX_GAMES: Final = _options.MAX_GAMES
#: The most games a match may keep in memory (``keep_games=True``, the default; a tournament's
#: matches, all together): about 2 to 5 KB each.
MAX_KEPT_GAMES: Final = _options.MAX_KEPT_GAMES
#: The most games a match may keep in memory with their records (``records=True``): about 20 to 40 KB each.
MAX_KEPT_RECORDS: Final = _options.MAX_KEPT_RECORDS
#: A match's seed is an int from 0 to this, less one.
SEED_LIMIT: Final = _options.SEED_LIMIT
#: The most players of a tournament.
MAX_PLAYERS: Final = _tournament.MAX_PLAYERS

#: A team: one player for both of its seats, or a pair of players, the first for the team's
#: first seat (seat 0 or 1) and the second for the seat opposite.
Team: TypeAlias = _options.Team

available_cpus = _pool.available_cpus
process_pool = _pool.process_pool

__all__ = [
    "MAX_GAMES",
    "MAX_KEPT_GAMES",
    "MAX_KEPT_RECORDS",
    "MAX_PLAYERS",
    "SEED_LIMIT",
    "Bounds",
    "GameResult",
    "Limits",
    "MatchResult",
    "MatchSummary",
    "Rating",
    "Team",
    "TournamentResult",
    "available_cpus",
    "pairings",
    "play_match",
    "play_tournament",
    "process_pool",
]


def __dir__() -> list[str]:
    return __all__
