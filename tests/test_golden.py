"""
Golden games: complete recorded games under ``tests/data`` and their hand-worked results.

Each ``NAME.json`` is a game record; ``NAME.expected.json`` gives, for every deal, the table
and the hands at its end with each seat's cards and their points, each team's score item by
item, and the final totals and winner (see ``tests/data/README.md``).  The tests check:

* the expected file against itself, with the card values of the rules (joker 20, ace 15,
  K Q J 10 worth 10, 2-9 face value) and nothing from the library's scoring;
* the replayed game against the expected file: the tables, the hands, the library's scores,
  the outcome;
* that each game shows what it was chosen for (a deep take, passes on an empty stock, a set
  of four at once, going out, a rule variant), found in the replayed states.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from persian_rummy import (
    Deal,
    GameRecord,
    GameState,
    LayDown,
    LayOff,
    Pass,
    Phase,
    Rules,
    TakeDiscard,
    format_action,
    format_rules,
    from_json,
    json_schema,
    outcome,
    parse_rules,
    replay,
    to_json,
)
from persian_rummy.rules import NextDealer
from persian_rummy.scoring import TeamScore

DATA = Path(__file__).parent / "data"
GAMES = ("deep_take", "passes", "four_at_once", "went_out", "winner_deals", "runs_double")

#: Card values by the first letter of a card (R23): joker 20, ace 15, K Q J and 10 worth 10, 2-9 face value.
VALUES = {"X": 20, "A": 15, "K": 10, "Q": 10, "J": 10, "T": 10, **{str(n): n for n in range(2, 10)}}
BONUS = 25

Json = dict[str, Any]


def points(cards: list[str]) -> int:
    return sum(VALUES[card[0]] for card in cards)


@functools.cache
def record_text(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


@functools.cache
def record(name: str) -> GameRecord:
    return from_json(record_text(name), GameRecord)


@functools.cache
def states(name: str) -> tuple[GameState, ...]:
    return tuple(replay(record(name)))


@functools.cache
def expected(name: str) -> Json:
    data: Json = json.loads((DATA / f"{name}.expected.json").read_text(encoding="utf-8"))
    return data


def deal_end(name: str, deal: Json) -> GameState:
    """
    The replayed state at the end of *deal*: after its last action.
    """
    last: int = deal["last_action"]
    return states(name)[last + 1]


class TestRecordFiles:
    """
    The record files: one ``NAME.json`` and one ``NAME.expected.json`` per golden game, each record
    exactly as `to_json` writes it (but for rule switches added since), valid under the JSON Schema,
    and replaying to the end of the game under the rules its expected file names.
    """

    def test_every_golden_game_is_tested(self) -> None:
        files = sorted(path.name for path in DATA.glob("*.json"))
        assert sorted([*(f"{name}.json" for name in GAMES), *(f"{name}.expected.json" for name in GAMES)]) == files

    @pytest.mark.parametrize("name", GAMES)
    def test_the_record_file_is_what_to_json_writes(self, name: str) -> None:
        """
        Exactly, but for the rule switches added since the file was written: it leaves them out, so
        they read as their defaults, and `to_json` writes them too.  The files are not written again
        for a new switch, so they also show that older documents still read.
        """
        kept: Json = json.loads(record_text(name))
        written: Json = json.loads(to_json(record(name)))
        added = {switch: value for switch, value in written["rules"].items() if switch not in kept["rules"]}
        assert written == {**kept, "rules": kept["rules"] | added}
        if not added:
            assert to_json(record(name), pretty=True) + "\n" == record_text(name)

    @pytest.mark.parametrize("name", GAMES)
    def test_the_record_file_follows_the_schema(self, name: str) -> None:
        validator = jsonschema.Draft202012Validator(json_schema())
        assert [] == [error.message for error in validator.iter_errors(json.loads(record_text(name)))]

    @pytest.mark.parametrize("name", GAMES)
    def test_the_record_replays_to_the_end_of_the_game(self, name: str) -> None:
        game = record(name)
        replayed = states(name)
        assert expected(name)["actions"] == len(game.actions)
        assert len(game.actions) + 1 == len(replayed)
        assert Phase.GAME_OVER is replayed[-1].phase
        assert expected(name)["rules"] == format_rules(game.rules)
        assert parse_rules(expected(name)["rules"]) == game.rules
        assert all(state.rules == game.rules for state in replayed)


class TestHandWorkedTally:
    """
    R23: "Joker 20; Ace 15; K, Q, J 10; 2–9 face value [...] 10 = 10"; R24: "+ value of all cards its
    two players melded or laid off", "− value of all cards left in both partners' hands", "+ 25 if
    one of its players went out"; R25: "A set of four cards melded together in one laydown scores
    double".  The expected files, worked out from the cards alone, without the library's scoring.
    """

    @pytest.mark.parametrize("name", GAMES)
    def test_the_hand_worked_tally_adds_up(self, name: str) -> None:
        """
        Every figure of the expected file, from the cards alone: no scoring code of the library.
        """
        data = expected(name)
        rules = parse_rules(data["rules"])
        totals = [0, 0]
        for deal in data["deals"]:
            melded = [0, 0]
            doubling = [0, 0]
            for meld in deal["melds"]:
                placed = meld["placed"]
                for part in placed:
                    assert points(part["cards"]) == part["points"]
                    melded[part["seat"] % 2] += part["points"]
                laid_down = placed[0]
                assert "laid down" == laid_down["how"]
                assert meld["owner"] == laid_down["seat"]
                assert all("laid off" == part["how"] for part in placed[1:])
                cards = [card for part in placed for card in part["cards"]]
                is_set = len({card[0] for card in cards}) == 1
                assert ("set" if is_set else "run") == meld["kind"]
                assert (len(laid_down["cards"]) == 4) == meld["four_at_once"]
                doubled = meld["four_at_once"] and (
                    rules.double_four_of_a_kind if is_set else rules.double_four_card_runs
                )
                assert (laid_down["points"] if doubled else 0) == meld["doubling"]
                doubling[meld["owner"] % 2] += meld["doubling"]
            hands = deal["hands"]
            assert [0, 1, 2, 3] == [hand["seat"] for hand in hands]
            for hand in hands:
                assert points(hand["cards"]) == hand["points"]
            in_hand = [hands[0]["points"] + hands[2]["points"], hands[1]["points"] + hands[3]["points"]]
            went_out = deal["went_out"]
            assert (went_out is not None) == (deal["end"] == "went_out")
            if went_out is not None:
                assert [] == hands[went_out]["cards"]
            bonus = [0, 0]
            if went_out is not None:
                bonus[went_out % 2] = rules.go_out_bonus
            for team in (0, 1):
                score = deal["teams"][team]
                assert melded[team] == score["melded"]
                assert doubling[team] == score["doubling"]
                assert bonus[team] == score["bonus"]
                assert in_hand[team] == score["in_hand"]
                total = score["melded"] + score["doubling"] + score["bonus"] - score["in_hand"]
                assert total == score["total"]
                totals[team] += total
        assert totals == data["totals"]
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        assert winner == data["winner"]

    def test_one_deal_worked_in_full(self) -> None:
        """
        The second deal of ``four_at_once``, card by card, as a scorer would add it up.
        """
        deal = expected("four_at_once")["deals"][1]
        # N-S: N laid off 4d 7c 7s Qd Kd; S laid down 5d6d7d, X1X2X3X4 (at once), 8c9cTc, 9dTdJd and laid off 2h.
        ns_melded = (4 + 7 + 7 + 10 + 10) + (18 + 80 + 27 + 29 + 2)
        ns_hands = (2 + 8 + 10) + (2 + 5 + 10 + 3 + 9 + 2 + 6 + 10 + 10)
        assert (194, 77) == (ns_melded, ns_hands)
        # E-W: E laid down 3h4h5h, JhQhKh and laid off Jc; W laid down AcAdAhAs (at once), 8s9sTs, 3s4s5s.
        ew_melded = (12 + 30 + 10) + (60 + 27 + 12)
        ew_hands = 6 + (3 + 6 + 10 + 7 + 10)
        assert (151, 42) == (ew_melded, ew_hands)
        assert {"melded": 194, "doubling": 80, "bonus": 0, "in_hand": 77, "total": 197} == deal["teams"][0]
        assert {"melded": 151, "doubling": 60, "bonus": 0, "in_hand": 42, "total": 169} == deal["teams"][1]
        assert 194 + 80 - 77 == 197
        assert 151 + 60 - 42 == 169


class TestReplay:
    """
    R24: "For each team: + value of all cards its two players melded or laid off [...]"; R27: "A game
    is exactly two deals."; R28: "After two deals the team with the higher cumulative total wins
    [...] Equal totals → the game is a draw".  The replayed game against the expected file: where
    the deals start and end, the tables and hands at their ends, the library's scores and the outcome.
    """

    @pytest.mark.parametrize("name", GAMES)
    def test_the_deals_start_and_end_where_expected(self, name: str) -> None:
        game = record(name)
        replayed = states(name)
        deals = expected(name)["deals"]
        boundaries = [i for i, action in enumerate(game.actions) if isinstance(action, Deal)]
        assert [deal["first_action"] for deal in deals] == boundaries
        ends = [i for i in range(len(game.actions)) if replayed[i + 1].phase in {Phase.DEAL_OVER, Phase.GAME_OVER}]
        assert [deal["last_action"] for deal in deals] == ends
        assert [deal["deal"] for deal in deals] == list(range(1, len(deals) + 1))
        for deal in deals:
            start = replayed[deal["first_action"] + 1]
            assert deal["deal"] == start.deal
            assert deal["dealer"] == start.dealer
            end = deal_end(name, deal)
            assert deal["dealer"] == end.dealer
            assert deal["went_out"] == end.went_out

    @pytest.mark.parametrize("name", GAMES)
    def test_the_tables_and_hands_are_those_of_the_replayed_game(self, name: str) -> None:
        for deal in expected(name)["deals"]:
            end = deal_end(name, deal)
            table: list[Json] = []
            for meld in end.melds:
                placed = [{"seat": meld.owner, "how": "laid down", "cards": [str(c) for c in meld.laid_down]}]
                placed += [
                    {"seat": seat, "how": "laid off", "cards": [str(c) for c in part]}
                    for seat, part in enumerate(meld.layoffs)
                    if part
                ]
                table.append(
                    {"owner": meld.owner, "kind": meld.kind.value, "four_at_once": meld.four_at_once, "placed": placed}
                )
            written = [
                {
                    "owner": meld["owner"],
                    "kind": meld["kind"],
                    "four_at_once": meld["four_at_once"],
                    "placed": [{key: part[key] for key in ("seat", "how", "cards")} for part in meld["placed"]],
                }
                for meld in deal["melds"]
            ]
            assert written == table
            assert [hand["cards"] for hand in deal["hands"]] == [[str(c) for c in hand] for hand in end.hands]

    @pytest.mark.parametrize("name", GAMES)
    def test_the_library_scores_the_deals_as_worked_out(self, name: str) -> None:
        final = states(name)[-1]
        deals = expected(name)["deals"]
        assert len(deals) == len(final.results)
        for deal, result in zip(deals, final.results, strict=True):
            assert deal["deal"] == result.deal
            assert deal["went_out"] == result.went_out
            assert deal["end"] == result.end.value
            assert [
                TeamScore(team["melded"], team["doubling"], team["bonus"], team["in_hand"]) for team in deal["teams"]
            ] == list(result.teams)
            assert tuple(team["total"] for team in deal["teams"]) == result.totals
            # The result is known from the end of the deal on.
            assert result == deal_end(name, deal).results[-1]

    @pytest.mark.parametrize("name", GAMES)
    def test_the_outcome_is_as_worked_out(self, name: str) -> None:
        result = outcome(states(name)[-1])
        assert result is not None
        assert tuple(expected(name)["totals"]) == result.scores
        assert expected(name)["winner"] == result.winner
        assert tuple(expected(name)["totals"]) == states(name)[-1].scores


class TestFeatures:
    """
    Each game shows what it was chosen for; the features its expected file lists (sets of four laid
    down at once, players going out, passes ending a deal, the deepest take) are all there are in
    the replayed game.
    """

    @pytest.mark.parametrize("name", GAMES)
    def test_the_listed_features_are_all_there_are(self, name: str) -> None:
        game = record(name)
        replayed = states(name)
        features = expected(name)["features"]
        steps = list(zip(replayed[:-1], game.actions, replayed[1:], strict=True))
        fours = [
            {"action": i, "notation": format_action(action, before)}
            for i, (before, action, _) in enumerate(steps)
            if isinstance(action, LayDown) and len(action.cards) == 4
        ]
        assert fours == features["fours_at_once"]
        went_out = [
            {"action": i, "notation": format_action(action, before), "seat": after.went_out}
            for i, (before, action, after) in enumerate(steps)
            if after.went_out is not None and before.went_out is None
        ]
        assert went_out == features["went_out"]
        passes = [
            {"deal": after.deal, "actions": [i - 3, i - 2, i - 1, i]}
            for i, (_, action, after) in enumerate(steps)
            if isinstance(action, Pass) and after.phase in {Phase.DEAL_OVER, Phase.GAME_OVER}
        ]
        assert passes == features["passes_ending_deal"]
        depths = [
            len(before.discard_pile) - 1 - before.discard_pile.index(action.card)
            for before, action, _ in steps
            if isinstance(action, TakeDiscard)
        ]
        assert max(depths) == features["deepest_take"]["cards_above"]


class TestDeepTake:
    """
    R14: "any card of the (fanned, fully visible) discard pile together with every card above it";
    R15: "The target card [...] must be played in a meld immediately".  The ``deep_take`` game.
    """

    @pytest.mark.parametrize("name", GAMES)
    def test_the_deepest_take_takes_every_card_above_it(self, name: str) -> None:
        take = expected(name)["features"]["deepest_take"]
        index = take["action"]
        before, after = states(name)[index], states(name)[index + 1]
        action = record(name).actions[index]
        assert isinstance(action, TakeDiscard)
        assert take["notation"] == format_action(action, before)
        taken = take["taken"]
        assert len(taken) == take["cards_above"] + 1
        assert str(action.card) == taken[0]
        assert [str(card) for card in before.discard_pile[-len(taken) :]] == taken
        assert before.discard_pile[: -len(taken)] == after.discard_pile
        assert {str(card) for card in after.picked} == set(taken)
        assert set(taken) <= {str(card) for card in after.hands[action.seat]}
        assert action.card == after.obligation

    def test_deep_take_has_a_take_from_deep_in_the_pile(self) -> None:
        take = expected("deep_take")["features"]["deepest_take"]
        assert 15 == take["cards_above"]
        # The card taken had to be played at once (R15): the next action melds or lays it off.
        index = take["action"]
        taken, played = record("deep_take").actions[index : index + 2]
        assert isinstance(taken, TakeDiscard)
        assert isinstance(played, LayDown | LayOff)
        assert taken.card in played.cards
        assert None is states("deep_take")[index + 2].obligation


class TestPassesOnAnEmptyStock:
    """
    R21: "When the draw pile is empty a player has two choices: take from the discard pile [...] or
    pass"; A17: "Ends when all four players pass in succession"; A23: "No bonus if the round ends by
    passes."; A22: equal totals are a "Draw (no winner)".  The ``passes`` game.
    """

    def test_passes_ends_both_deals_by_passes_on_an_empty_stock(self) -> None:
        game = record("passes")
        replayed = states("passes")
        features = expected("passes")["features"]["passes_ending_deal"]
        assert [1, 2] == [item["deal"] for item in features]
        for item in features:
            indices = item["actions"]
            assert all(isinstance(game.actions[i], Pass) for i in indices)
            assert all(() == replayed[i].stock for i in indices)
            seats = [game.actions[i].seat for i in indices]
            assert 4 == len(set(seats))
            assert Phase.DRAW is replayed[indices[-1]].phase
            assert 3 == replayed[indices[-1]].passes
        assert ["passes", "passes"] == [result.end.value for result in replayed[-1].results]
        assert all(result.went_out is None for result in replayed[-1].results)
        assert all(team.bonus == 0 for result in replayed[-1].results for team in result.teams)
        result = outcome(replayed[-1])
        assert result is not None
        assert result.is_draw
        assert (112, 112) == result.scores


class TestFourAtOnce:
    """
    R25, W1, W3, W6: "A set of four cards melded together in one laydown scores double [...]: four
    Jacks at once = 80; three Jacks + a fourth added later = 40.  [...] It applies to every rank and to
    four Jokers (= 160 [...])".  The ``four_at_once`` game.
    """

    def test_four_at_once_doubles_the_sets_laid_down_at_once_only(self) -> None:
        replayed = states("four_at_once")
        fours = expected("four_at_once")["features"]["fours_at_once"]
        assert ["W meld AcAdAhAs", "S meld X1X2X3X4"] == [item["notation"] for item in fours]
        for item in fours:
            after = replayed[item["action"] + 1]
            meld = after.melds[-1]
            assert meld.four_at_once
            assert "set" == meld.kind.value
        second = replayed[-1].results[1]
        assert 80 == second.teams[0].doubling  # four jokers at once: 80 + 80 = 160 (W3)
        assert 60 == second.teams[1].doubling  # four aces at once: 60 + 60 = 120 (W6)
        # Sets completed by a lay-off are not doubled (W1): the jacks, nines and sevens of the first deal.
        first_end = deal_end("four_at_once", expected("four_at_once")["deals"][0])
        completed = [meld for meld in first_end.melds if meld.kind.value == "set" and len(meld.cards) == 4]
        assert ["Jc Jd Jh Js", "9c 9d 9h 9s", "7c 7d 7h 7s"] == [str(meld.cards) for meld in completed]
        assert all(not meld.four_at_once for meld in completed)
        assert (0, 0) == tuple(team.doubling for team in replayed[-1].results[0].teams)


class TestWentOut:
    """
    R19: "The round ends when a player has melded (or laid off) all of their cards"; R24: "+ 25 if one
    of its players went out".  The ``went_out`` game.
    """

    def test_went_out_ends_each_deal_with_a_player_going_out(self) -> None:
        replayed = states("went_out")
        went_out = expected("went_out")["features"]["went_out"]
        assert [1, 2] == [item["seat"] for item in went_out]
        for item in went_out:
            before, after = replayed[item["action"]], replayed[item["action"] + 1]
            seat = item["seat"]
            assert before.to_act == seat
            assert 0 < len(before.hands[seat])
            assert 0 == len(after.hands[seat])
            assert after.phase in {Phase.DEAL_OVER, Phase.GAME_OVER}
        results = replayed[-1].results
        assert [1, 2] == [result.went_out for result in results]
        assert [(0, BONUS), (BONUS, 0)] == [(result.teams[0].bonus, result.teams[1].bonus) for result in results]


class TestWinnerDeals:
    """
    A4, A5: the variants `next_dealer = "winner"` ("winner of previous hand deals") and `hand_size`
    (10 here instead of "7 each").  The ``winner_deals`` game.
    """

    def test_winner_deals_is_played_under_its_variant(self) -> None:
        game = record("winner_deals")
        replayed = states("winner_deals")
        assert Rules(hand_size=10, next_dealer="winner") == game.rules
        assert NextDealer.WINNER is game.rules.next_dealer
        assert 3 == game.first_dealer
        first_deal = replayed[1]
        assert [10, 10, 10, 10] == [len(hand) for hand in first_deal.hands]
        assert 56 - 40 - 1 == len(first_deal.stock)
        deals = expected("winner_deals")["deals"]
        assert 1 == deals[0]["went_out"]
        # E went out, so E deals the second deal, not N on W's left (A4, next_dealer="winner").
        assert 1 == deals[1]["dealer"]
        second = game.actions[deals[1]["first_action"]]
        assert isinstance(second, Deal)
        assert 1 == second.seat
        assert 2 == replayed[deals[1]["first_action"] + 1].to_act


class TestRunsDouble:
    """
    A20, A17: the variants `double_four_card_runs` (a run of four laid down at once doubles, where
    by default it is "Never runs") and `empty_stock_end = "immediately"`.  The ``runs_double`` game.
    """

    def test_runs_double_doubles_a_run_of_four_and_ends_when_the_stock_runs_out(self) -> None:
        game = record("runs_double")
        replayed = states("runs_double")
        assert game.rules.double_four_card_runs
        assert "empty_stock_end=immediately,double_four_card_runs=true" == format_rules(game.rules)
        (four,) = expected("runs_double")["features"]["fours_at_once"]
        meld = replayed[four["action"] + 1].melds[-1]
        assert "run" == meld.kind.value
        assert meld.four_at_once
        assert 8 + 9 + 10 + 10 == game.rules.points(meld.laid_down)
        second = replayed[-1].results[1]
        assert 37 == second.teams[1].doubling
        assert "stock_empty" == second.end.value
        assert None is second.went_out
        assert () == replayed[-1].stock
