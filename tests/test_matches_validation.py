"""
Validated results (issue 20): `MatchResult.from_json` checks that the records, deals, winners, points and
summary agree, that the deck seeds are those the match seed gives, and refuses rather than repairs
(persian_rummy.matches, docs/matches.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from persian_rummy import InvalidDataError, Rules
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.matches import MatchResult, play_match

RESULT = play_match(GreedyPlayer(), RandomPlayer(), 4, seed=3, rules=Rules(num_deals=1), records=True)


def _changed(change: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(RESULT.to_json())
    change(data)
    return json.dumps(data)


def _set(path: tuple[Any, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _pair(name: str, value: object, pair: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for game in data["games"][2 * pair : 2 * pair + 2]:
            game[name] = value
            if game["record"] is not None and name == "first_dealer":
                game["record"]["first_dealer"] = value

    return change


def _cut_record(data: dict[str, Any]) -> None:
    record = data["games"][1]["record"]
    record["actions"] = record["actions"][:10]


class TestRefused:
    """
    Issue 20: "MatchResult.from_json accepts data that contradicts itself: a game's record cut to 10
    actions, a changed first_dealer (then final_state raises), deck seeds not derived from the match seed,
    a summary.wins silently replaced by the recomputed value."
    """

    def test_the_result_reads_back(self) -> None:
        assert RESULT == MatchResult.from_json(RESULT.to_json())

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (
                _cut_record,
                "$.games[1].record: the record is not that of the game: it must end the game with its deals",
            ),
            (
                _pair("first_dealer", 0, 1),
                "$.games[2]: deck_seed, seeds and first_dealer must be those the match's seed gives game 2:",
            ),
            (
                _set(("games", 0, "record", "first_dealer"), 2),
                "$.games[0].record: the record's rules, first dealer and players must be the match's and the game's",
            ),
            (
                _pair("deck_seed", 12345, 0),
                "$.games[0]: deck_seed, seeds and first_dealer must be those the match's seed gives game 0:",
            ),
            (
                _set(("games", 1, "deck_seed"), 12345),
                "$: game 1 is not the duplicate of game 0: same decks and dealer, teams swapped",
            ),
            (
                _set(("games", 3, "seeds", 2), 7),
                "$.games[3]: deck_seed, seeds and first_dealer must be those the match's seed gives game 3:",
            ),
            (_set(("seed",), 4), "$.games[0]: deck_seed, seeds and first_dealer must be those the match's seed"),
            (_set(("summary", "wins"), 99), "$.summary.wins: 99 is not what the games give, "),
            (_set(("summary", "score_rate"), 0.1), "$.summary.score_rate: 0.1 is not what the games give, "),
            (_set(("partial",), True), "$.partial: the match holds 4 of 4 games, so partial is false"),
            (
                _set(("planned",), 3),
                "$: planned must be an even number of games from the 4 played to 10,000,000, got 3",
            ),
            (_set(("games", 0, "overruns"), [0, 99, 0, 0]), "$.games[0].overruns: a seat has more decisions"),
            (_set(("games", 0, "points"), [1, 2]), "$.games[0]: winner and points must be those of the deals"),
        ],
    )
    def test_what_contradicts_itself(self, change: Callable[[dict[str, Any]], None], message: str) -> None:
        with pytest.raises(InvalidDataError) as raised:
            MatchResult.from_json(_changed(change))
        assert str(raised.value).startswith(message)

    def test_a_game_with_deals_the_rules_do_not_have(self) -> None:
        def more(data: dict[str, Any]) -> None:
            data["rules"] = "num_deals=3"
            for game in data["games"]:
                game["record"] = None

        with pytest.raises(InvalidDataError) as raised:
            MatchResult.from_json(_changed(more))
        assert "$.games[0].deals: a game of these rules has 3 to 3 deals, got 1" == str(raised.value)
