"""
Validated results (issue 20): `MatchResult.from_json` checks that the records, deals, winners, points and
summary agree, that the deck seeds are those the match seed gives, and refuses rather than repairs; and
(issue 31) that each game's deals and decisions are ones the rules allow, record or none
(persian_rummy.matches, persian_rummy.matches._checks, docs/matches.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import InvalidDataError, Rules, strategies
from persian_rummy.bots.players import GreedyPlayer, RandomPlayer
from persian_rummy.matches import MatchResult, play_match
from persian_rummy.scoring import DealScore, TeamScore

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
        assert "$.games[0].deals: a game of these rules has 3 deal(s) (R27), got 1" == str(raised.value)


def _team(melded: int, doubling: int, bonus: int, in_hand: int) -> TeamScore:
    return TeamScore(melded, doubling, bonus, in_hand)


#: Deal 1 of game 0 of RESULT: seat 2 went out, for team 0 (seats 0 and 2).
DEAL = RESULT.games[0].deals[0]
LEVEL = DealScore(1, (_team(100, 0, 0, 50), _team(100, 0, 0, 50)), None, "passes")


def _read_with(game: dict[str, Any], rules: Rules | None = None) -> MatchResult:
    """
    RESULT without records, its game 0 changed as *game* says, and *rules* for the match's: written by
    `to_json`, which makes the points, winners and summary those of the games, then read back.
    """
    plain = RESULT.without_records()
    games = list(plain.games)
    games[0] = attrs.evolve(games[0], **game)
    rules = plain.rules if rules is None else rules
    # None: the summary is worked out again from the games changed.
    changed = attrs.evolve(plain, games=games, rules=rules, summary=None)  # type: ignore[arg-type]
    return MatchResult.from_json(changed.to_json())


class TestImpossibleDeals:
    """
    Issue 31: "Saved results without records accept impossible deals once points and summary are made
    consistent (a going-out bonus for both teams, 5,000 melded points, 10**9 decisions in one game where the
    bound is 790)": each deal is held to what the rules and the 56 cards allow, record or none.
    """

    def test_the_result_without_records_reads_back(self) -> None:
        plain = RESULT.without_records()
        assert plain == MatchResult.from_json(plain.to_json())
        assert (24, 24, 30, 23) == plain.games[0].decisions
        assert (
            DealScore(1, (_team(330, 0, 25, 7), _team(107, 0, 0, 32)), 2, "went_out") == DEAL
        )  # 330 + 107 + 7 + 32 = 476: every card melded or in hand

    @pytest.mark.parametrize(
        ("teams", "message"),
        [
            (
                (_team(330, 0, 25, 7), _team(107, 0, 25, 32)),
                (
                    "$.games[0].deals[0]: the going-out bonus of 25 goes to the team of the seat that went out alone"
                    " (R24, A23): seat 2 went out, for team 0, so the bonuses are [25, 0], got [25, 25]"
                ),
            ),
            (
                (_team(330, 0, 0, 7), _team(107, 0, 25, 32)),
                (
                    "$.games[0].deals[0]: the going-out bonus of 25 goes to the team of the seat that went out alone"
                    " (R24, A23): seat 2 went out, for team 0, so the bonuses are [25, 0], got [0, 25]"
                ),
            ),
            (
                (_team(5000, 0, 25, 7), _team(107, 0, 0, 32)),
                (
                    "$.games[0].deals[0].teams[0].melded: 5000 points melded, more than the 56 cards are worth under"
                    " the rules' card values, 476 (R2, R23)"
                ),
            ),
            (
                (_team(330, 0, 25, 7), _team(107, 0, 0, 477)),
                (
                    "$.games[0].deals[0].teams[1].in_hand: 477 points left in hand, more than the 56 cards are worth"
                    " under the rules' card values, 476 (R2, R23)"
                ),
            ),
            (
                (_team(1, 0, 25, 7), _team(107, 0, 0, 32)),
                (
                    "$.games[0].deals[0].teams[0].melded: 1 points melded, a total no cards of the 56 make under the"
                    " rules' card values (R2, R23)"
                ),
            ),
            (
                (_team(330, 0, 25, 8), _team(107, 0, 0, 32)),
                (
                    "$.games[0].deals[0]: the cards melded and left in hand by both teams are worth 477 points"
                    " together, more than the 56 cards are worth under the rules' card values, 476 (R2, R23)"
                ),
            ),
            (
                (_team(330, 0, 25, -7), _team(107, 0, 0, 32)),
                "$.games[0].deals[0].teams[0].in_hand: points of cards are 0 or more (R23), got -7",
            ),
            (
                (_team(330, 9, 25, 7), _team(107, 0, 0, 32)),
                (
                    "$.games[0].deals[0].teams[0].doubling: 9 is not the worth of melds of four laid down at once by"
                    " the team (R25, A20), among its 330 points melded"
                ),
            ),
            (
                (_team(330, 0, 25, 7), _team(107, 160, 0, 32)),
                (
                    "$.games[0].deals[0].teams[1].doubling: 160 is not the worth of melds of four laid down at once"
                    " by the team (R25, A20), among its 107 points melded"
                ),
            ),
            (
                # 236 = 80 + 60 + 40 + 40 + 16 (jokers, aces, two ranks worth 10 and the fours), but no sets of
                # four make the 472 of both: the 14 ranks' sets are worth 476, and none of them 4.
                (_team(240, 236, 25, 0), _team(236, 236, 0, 0)),
                (
                    "$.games[0].deals[0]: the doubling of both teams, [236, 236], is not the worth of melds of four"
                    " the 56 cards make, each laid down at once (R25, A20)"
                ),
            ),
            (
                (TeamScore(total=348), _team(107, 0, 0, 32)),
                (
                    "$.games[0].deals[0].teams[0]: a deal of a match is scored item by item: melded, doubling, bonus"
                    " and in_hand (R24), got its total alone, 348"
                ),
            ),
        ],
    )
    def test_a_deal_the_cards_cannot_give(self, teams: tuple[TeamScore, TeamScore], message: str) -> None:
        with pytest.raises(InvalidDataError) as raised:
            _read_with({"deals": (attrs.evolve(DEAL, teams=teams),)})
        assert message == str(raised.value)

    def test_a_doubling_of_two_sets_of_four_is_read(self) -> None:
        # Four jokers (80 doubled) for one team, four kings (40) for the other: sets of two ranks.
        teams = (_team(330, 80, 25, 7), _team(107, 40, 0, 32))
        read = _read_with({"deals": (attrs.evolve(DEAL, teams=teams),)})
        assert teams == read.games[0].deals[0].teams

    def test_decisions_beyond_the_engines_bound(self) -> None:
        with pytest.raises(InvalidDataError) as raised:
            _read_with({"decisions": (10**9, 0, 0, 0)})
        assert (
            "$.games[0].decisions: 1,000,000,000 decisions in a game of 1 deal(s), more than the 394 there can be:"
            " the engine's 395 actions a deal at most, its Deal included (engine.max_deal_length, R21, A17)"
        ) == str(raised.value)
        # The bound itself is read: the engine's 395 actions of a deal, less its Deal.
        assert (394, 0, 0, 0) == _read_with({"decisions": (394, 0, 0, 0), "overruns": (0, 0, 0, 0)}).games[0].decisions
        with pytest.raises(InvalidDataError):
            _read_with({"decisions": (394, 1, 0, 0)})

    def test_a_deal_ended_as_the_rules_never_end_one(self) -> None:
        ended = attrs.evolve(DEAL, went_out=None, end="stock_empty", teams=(_team(330, 0, 0, 7), DEAL.teams[1]))
        with pytest.raises(InvalidDataError) as raised:
            _read_with({"deals": (ended,)})
        assert (
            "$.games[0].deals[0].end: a deal ends when the stock runs out only with empty_stock_end='immediately' (A17)"
            == str(raised.value)
        )

    def test_the_number_of_deals_the_rules_play(self) -> None:
        second = attrs.evolve(DEAL, deal=2)
        extra = Rules(num_deals=1, tie_break="extra_deal")
        with pytest.raises(InvalidDataError) as raised:
            _read_with({"deals": (DEAL, second)}, extra)
        assert (
            "$.games[0].deals: a game of these rules has 1 deal(s) (R27), one more only when the teams are level"
            " after them (A22), got 2"
        ) == str(raised.value)
        with pytest.raises(InvalidDataError) as raised:
            _read_with({"deals": (LEVEL,)}, extra)
        assert "$.games[0].deals: the teams are level after 1 deal(s), so the game has one more (A22), got 1" == str(
            raised.value
        )
        level_then_more = (LEVEL, attrs.evolve(DEAL, deal=2))
        assert level_then_more == _read_with({"deals": level_then_more}, extra).games[0].deals
        with pytest.raises(InvalidDataError) as raised:
            _read_with({"deals": (LEVEL,)}, Rules(num_deals=3))
        assert "$.games[0].deals: a game of these rules has 3 deal(s) (R27), got 1" == str(raised.value)

    @given(rules=strategies.rules(), seed=st.integers(0, 2**64 - 1))
    def test_every_game_the_rules_give_reads_back(self, rules: Rules, seed: int) -> None:
        played = play_match(RandomPlayer(), GreedyPlayer(), 2, rules=rules, seed=seed)
        assert played == MatchResult.from_json(played.to_json())
