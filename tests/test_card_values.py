"""
R23 and §5 ``card_values``: what each card scores comes from the rules.

Each class quotes the rule from the rules document.  Scores are checked with exact numbers
under values other than R23's; every place that counts points (scoring, the checks of a
state, the bots, the reward scale, the tensors, the text forms) is shown to read them.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import find, given
from hypothesis import strategies as st

from persian_rummy import (
    DEFAULT_RULES,
    FULL_DECK,
    Card,
    CardSet,
    CardValues,
    DealScore,
    Discard,
    GameState,
    InvalidDataError,
    InvalidNotationError,
    InvalidStateError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    Phase,
    Rank,
    Rules,
    apply,
    card_points,
    check_invariants,
    format_position,
    format_rules,
    from_json,
    legal_actions,
    new_game,
    observe,
    parse_position,
    parse_rules,
    random_deal,
    score_deal,
    to_json,
)
from persian_rummy import strategies as library_strategies
from persian_rummy.bots import GreedyPlayer, meld_value
from persian_rummy.bots.players import _margin_scale as margin_scale
from persian_rummy.cli import _screen as screen
from persian_rummy.fingerprints import fingerprint
from persian_rummy.scoring import DealEnd, TeamScore
from tests.positions import meld, position

#: Greedy players draw nothing at random; they take a generator all the same.
RNG = random.Random(0)  # noqa: S311 (not a secret)
SRC = Path(__file__).resolve().parents[1] / "src"
#: Every card 100 (R23 varied): the deck is worth 5,600.
HUNDREDS = Rules(card_values="/".join(["100"] * 14))
#: No card scores: a deal scores only the going-out bonus.
ZEROS = Rules(card_values="/".join(["0"] * 14))
#: Court cards at their rank, a one-point ace, fifty-point jokers.
FACES = Rules(card_values=CardValues(jack=11, queen=12, king=13, ace=1, joker=50))


def hands(*texts: str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    parts = [CardSet.parse(text) for text in texts]
    return (parts[0], parts[1], parts[2], parts[3])


class TestTheValues:
    """
    R23: "Joker 20; Ace 15; K, Q, J 10; 2–9 face value [...] 10 = 10"; §5: "card_values: joker=20,
    ace=15, K/Q/J/10=10, 2..9=face".  The table is the default of a switch, one value per rank.
    """

    def test_r23_the_default_is_the_table(self) -> None:
        assert (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15, 20) == Rules().card_values.by_rank
        assert CardValues() == Rules().card_values
        assert 476 == Rules().card_values.deck_points
        assert {} == Rules(card_values=CardValues()).changes()

    def test_r23_points_of_a_card_a_set_and_notation(self) -> None:
        assert [20, 15, 10, 9, 2] == [card_points(text) for text in ("X1", "As", "Th", "9c", "2s")]
        assert [50, 1, 10, 9, 2] == [card_points(text, FACES) for text in ("X1", "As", "Th", "9c", "2s")]
        assert 13 == FACES.points(Card.parse("Kd"))
        assert 50 + 1 + 12 == FACES.points("X3 Ac Qh")
        assert 50 + 1 + 12 == FACES.points(CardSet.parse("X3 Ac Qh"))
        assert 5600 == HUNDREDS.points(CardSet(FULL_DECK))
        assert 0 == ZEROS.points(CardSet(FULL_DECK))

    def test_r23_a_value_belongs_to_a_rank(self) -> None:
        values = CardValues(ten=7)
        assert [7, 7, 7, 7] == [card_points(f"T{suit}", Rules(card_values=values)) for suit in "cdhs"]
        assert 7 == values[Rank.TEN]
        assert 476 - 4 * 3 == values.deck_points

    def test_r23_the_forms_it_is_given_in(self) -> None:
        expected = CardValues(ace=1, joker=50)
        assert expected == Rules(card_values={"A": 1, "X": 50}).card_values
        assert expected == Rules(card_values="2/3/4/5/6/7/8/9/10/10/10/10/1/50").card_values
        assert expected == CardValues.of(expected)
        assert "CardValues(ace=1, joker=50)" == repr(expected)
        assert "CardValues()" == repr(CardValues())

    @pytest.mark.parametrize(
        ("values", "error", "message"),
        [
            ({"ten": -1}, InvalidValueError, "card_values.ten must be between 0 and 1000 (R23), got -1"),
            ({"ace": 1001}, InvalidValueError, "card_values.ace must be between 0 and 1000 (R23), got 1001"),
            ({"joker": 2.5}, InvalidTypeError, "card_values.joker must be an int, got 2.5"),
            ({"two": True}, InvalidTypeError, "card_values.two must be an int, got True"),
        ],
    )
    def test_r23_values_are_whole_numbers_from_0_to_1000(
        self, values: dict[str, object], error: type[Exception], message: str
    ) -> None:
        with pytest.raises(error) as caught:
            CardValues(**values)  # type: ignore[arg-type]
        assert message == str(caught.value)

    @pytest.mark.parametrize(
        ("given", "message"),
        [
            ({"B": 3}, "card values are given by rank letter, 2-9, T, J, Q, K, A and X; got 'B'"),
            ("1/2/3", "card values are written as fourteen numbers joined by '/', from the two up to the ace and"),
            (7, "card values are CardValues, their text or a mapping by rank letter, got 7"),
        ],
    )
    def test_r23_other_forms_are_refused(self, given: object, message: str) -> None:
        with pytest.raises((InvalidValueError, InvalidTypeError)) as caught:
            Rules(card_values=given)  # type: ignore[arg-type]
        assert str(caught.value).startswith(message)


class TestScoringUnderOtherValues:
    """
    R24: "+ value of all cards its two players melded or laid off", "− value of all cards left in
    both partners' hands"; R25: "A set of four cards melded together in one laydown scores double";
    the values being those of R23 as the rules set them (§5 ``card_values``).
    """

    def test_w2_four_jacks_at_once_under_eleven_a_jack(self) -> None:
        assert 88 == meld_value("Js Jh Jd Jc", FACES)
        result = score_deal(hands("", "", "", ""), (meld(0, "Js Jh Jd Jc"),), None, rules=FACES)
        assert TeamScore(44, 44, 0, 0) == result.teams[0]

    def test_w13_hand_left_under_other_values(self) -> None:
        """
        W13 counts Joker, A♠, 10♦, 5♣ as −50; with a 50-point joker and a one-point ace, −66.
        """
        result = score_deal(hands("X1 As Td 5c", "", "", ""), (), None, rules=FACES)
        assert TeamScore(0, 0, 0, 66) == result.teams[0]
        assert (-66, 0) == result.totals

    def test_w14_complete_round_under_other_values(self) -> None:
        """
        W14's table: NS = (39+18+150+8+9) − 8 + 25 = 241; EW = (48+13+9) + 48 − (50+22) = 46.
        """
        melds = (
            meld(0, "Kc Kd Ks", s1="Kh"),
            meld(0, "5h 6h 7h", s2="8h", s0="9h"),
            meld(2, "X1 X2 X3"),
            meld(3, "2d 3d 4d"),
            meld(1, "Qc Qd Qh Qs"),
        )
        result = score_deal(hands("", "X4", "Ac 7s", "Tc 9s 3h"), melds, 0, rules=FACES)
        expected = DealScore(1, (TeamScore(224, 0, 25, 8), TeamScore(70, 48, 0, 72)), 0, DealEnd.WENT_OUT)
        assert expected == result
        assert (241, 46) == result.totals

    def test_w14_under_hundreds_and_under_zeros(self) -> None:
        melds = (meld(0, "Kc Kd Ks", s1="Kh"), meld(1, "Qc Qd Qh Qs"))
        left = hands("", "X4", "Ac 7s", "Tc 9s 3h")
        assert ((300 + 25 - 200, 500 + 400 - 400)) == score_deal(left, melds, 0, rules=HUNDREDS).totals
        assert (25, 0) == score_deal(left, melds, 0, rules=ZEROS).totals

    def test_the_engine_scores_a_deal_by_the_rules_values(self) -> None:
        """
        N lays off its last card and goes out (R19): the deal is scored with the values of the rules.
        """
        start = position(
            hands=("9h", "X4", "", ""),
            melds=(meld(0, "5h 6h 7h 8h"),),
            stock="2c",
            phase=Phase.PLAY,
            rules=FACES,
            rest_to=2,
        )
        end = apply(start, legal_actions(start)[0])
        assert Phase.DEAL_OVER == end.phase
        south = start.hands[2]
        expected = (5 + 6 + 7 + 8 + 9 - FACES.points(south) + 25, -50)
        assert expected == end.results[-1].totals


def play_random_game(rules: Rules, seed: int) -> list[GameState]:
    """
    Every state of a game under *rules* that random players play, each checked on the way.
    """
    rng = random.Random(seed)  # noqa: S311 (a game's moves, not a secret)
    state = new_game(rules)
    states = [state]
    while state.phase is not Phase.GAME_OVER:
        action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
        state = apply(state, action)
        states.append(state)
    return states


class TestWholeGames:
    """
    R23 with R24: a deal's items lie within what the deck is worth under the rules' values, which the
    checks of a state derive from the values (no team melds more than the deck, nor holds more).
    """

    @pytest.mark.parametrize("rules", [HUNDREDS, ZEROS, FACES], ids=["hundreds", "zeros", "faces"])
    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_games_under_other_values_pass_the_checks(self, rules: Rules, seed: int) -> None:
        states = play_random_game(rules, seed)
        for state in states[:: max(1, len(states) // 40)] + states[-1:]:
            check_invariants(state)
        end = states[-1]
        assert 2 == len(end.results)
        deck = rules.card_values.deck_points
        for result in end.results:
            for team in result.teams:
                assert team.melded is not None
                assert team.in_hand is not None
                assert 0 <= team.melded <= deck
                assert 0 <= team.in_hand <= deck
        assert end == from_json(to_json(end))
        assert end == parse_position(format_position(end))

    def test_hundreds_scores_are_refused_under_r23s_values(self) -> None:
        """
        The bounds are derived: a deal that melded thousands of points is sound under every card
        100 and not under R23's values.
        """
        end = next(
            state
            for seed in range(1, 20)
            for state in [play_random_game(HUNDREDS, seed)[-1]]
            if any((team.melded or 0) > 476 for result in state.results for team in result.teams)
        )
        check_invariants(end)
        with pytest.raises(InvalidStateError, match=r"from 0 to the deck.s 476 \(R23\)"):
            attrs.evolve(end, rules=attrs.evolve(end.rules, card_values=CardValues()))

    def test_zeros_score_only_the_bonus(self) -> None:
        end = play_random_game(ZEROS, 4)[-1]
        for result in end.results:
            bonus = 25 if result.went_out is not None else 0
            assert sorted((0, bonus)) == sorted(result.totals)


#: R23's values as JSON writes them.
DEFAULT_JSON = (
    '{"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, '
    '"T": 10, "J": 10, "Q": 10, "K": 10, "A": 15, "X": 20}'
)


class TestTextForms:
    """
    §5 ``card_values``: one text form (fourteen numbers from the two up, joined by ``/``) in
    position notation's rules and OpenSpiel's parameters, an object by rank letter in JSON, and
    fingerprints that change with the values.
    """

    def test_r23_the_rules_id(self) -> None:
        assert "card_values=2/3/4/5/6/7/8/9/10/10/10/10/1/50" == format_rules(Rules(card_values={"A": 1, "X": 50}))
        assert "-" == format_rules(Rules(card_values=CardValues()))
        assert Rules(card_values={"A": 1}, hand_size=5) == parse_rules(
            "hand_size=5,card_values=2/3/4/5/6/7/8/9/10/10/10/10/1/20"
        )

    @pytest.mark.parametrize(
        "text",
        [
            "card_values=1/2/3",
            "card_values=" + "/".join(["01"] * 14),
            "card_values=" + "/".join(["1001"] * 14),
            "card_values=" + "/".join(["-1"] * 14),
            "card_values=",
        ],
    )
    def test_r23_a_rules_id_with_other_text_is_refused(self, text: str) -> None:
        with pytest.raises(InvalidNotationError, match="invalid rules"):
            parse_rules(text)

    def test_r23_json_writes_an_object_by_rank_letter(self) -> None:
        data = to_json(new_game(FACES))
        assert (
            '"card_values": {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, '
            '"T": 10, "J": 11, "Q": 12, "K": 13, "A": 1, "X": 50}'
        ) in data
        assert new_game(FACES) == from_json(data)

    @pytest.mark.parametrize(
        ("values", "message"),
        [
            ('{"2": 2}', "missing field '3'"),
            (DEFAULT_JSON.replace('"2": 2', '"2": -1'), "expected an integer from 0 to 1000, got -1"),
            ('"2/3/4/5/6/7/8/9/10/10/10/10/15/20"', "expected an object"),
        ],
    )
    def test_r23_json_refuses_other_objects(self, values: str, message: str) -> None:
        text = to_json(new_game()).replace('"card_values": ' + DEFAULT_JSON, '"card_values": ' + values)
        with pytest.raises(InvalidDataError, match=message):
            from_json(text)

    def test_r23_fingerprints_follow_the_values(self) -> None:
        assert fingerprint(new_game()) == fingerprint(new_game(Rules(card_values=CardValues())))
        prints = {fingerprint(new_game(rules)) for rules in (DEFAULT_RULES, HUNDREDS, ZEROS, FACES)}
        assert 4 == len(prints)

    @given(library_strategies.rules(bounded=False))
    def test_every_form_reads_back(self, rules: Rules) -> None:
        state = new_game(rules)
        assert rules == parse_rules(format_rules(rules))
        back = from_json(to_json(state))
        assert isinstance(back, GameState)
        assert state == back
        assert fingerprint(state) == fingerprint(back)
        assert rules.card_values == CardValues.parse(str(rules.card_values))
        assert rules.card_values == CardValues.of(rules.card_values.by_letter)

    @given(library_strategies.rules(), library_strategies.rules())
    def test_fingerprints_tell_rules_apart(self, first: Rules, second: Rules) -> None:
        assert (first == second) == (fingerprint(new_game(first)) == fingerprint(new_game(second)))


class TestBotsAndRewards:
    """
    R23 read by the players: the greedy player's points and the scale of ISMCTS's margins (the
    learning interfaces' scales are in ``tests/test_card_values_rl.py``).
    """

    def test_greedy_lays_down_the_meld_of_most_points_under_the_values(self) -> None:
        state = position(hands=("Kc Kd Kh 2s 3s 4s 9d", "", "", ""), phase=Phase.PLAY, rest_to=1)
        assert LayDown(0, "Kc Kd Kh") == GreedyPlayer()(state, RNG)
        cheap_kings = attrs.evolve(state, rules=Rules(card_values={"2": 100, "3": 100, "4": 100}))
        assert LayDown(0, "2s 3s 4s") == GreedyPlayer()(cheap_kings, RNG)
        view = observe(cheap_kings, 0)
        assert LayDown(0, "2s 3s 4s") == GreedyPlayer().choose(view, RNG)

    def test_greedy_discards_the_card_of_most_points_under_the_values(self) -> None:
        state = position(hands=("5c 9d", "", "", ""), phase=Phase.PLAY, rest_to=1)
        assert Discard(0, "9d") == GreedyPlayer()(state, RNG)
        dear_fives = attrs.evolve(state, rules=Rules(card_values={"5": 50}))
        assert Discard(0, "5c") == GreedyPlayer()(dear_fives, RNG)

    def test_ismcts_scales_margins_by_the_deck(self) -> None:
        # 100 points for R23's deck of 476, so that the exploration constant means the same under other values.
        assert 100.0 == margin_scale(Rules())
        assert 100.0 * 5600 / 476 == margin_scale(HUNDREDS)
        assert 25.0 == margin_scale(ZEROS)
        assert 1.0 == margin_scale(attrs.evolve(ZEROS, go_out_bonus=0))


class TestTheCommandLine:
    """
    R23 on the screen of the command line: the hands left at the end of a deal with their points,
    under the rules' values.
    """

    def test_the_points_left_in_hand_are_the_rules(self) -> None:
        start = position(
            hands=("9h", "X4 As", "Kd", "2c 3d"), melds=(meld(0, "5h 6h 7h 8h"),), phase=Phase.PLAY, rules=FACES
        )
        end = apply(start, legal_actions(start)[0])
        text = screen.plain(screen.deal_over_screen(observe(end, 0), screen.Look(symbols=False), []))
        assert "  E       As X4 (51 points)\n" in text
        assert "  S       Kd (13 points)\n" in text
        assert "  W       2c 3d (5 points)\n" in text


class TestStrategies:
    """
    §5 ``card_values`` in the test strategies: the values are drawn like every switch, R23's first,
    and above the defaults as well as below them; a switch of a kind they cannot draw is named.
    """

    def test_r23_values_are_drawn_first_at_the_default(self) -> None:
        assert CardValues() == find(library_strategies.rules(), lambda _: True).card_values

    def test_r23_values_above_the_defaults_and_none_at_all(self) -> None:
        above = find(library_strategies.rules(), lambda rules: rules.card_values.ace > 15)
        assert 15 < above.card_values.ace
        assert (
            ZEROS.card_values
            == find(library_strategies.rules(), lambda rules: rules.card_values.deck_points == 0).card_values
        )
        assert (
            HUNDREDS.card_values
            == find(library_strategies.rules(), lambda rules: rules.card_values.deck_points == 5600).card_values
        )

    @given(st.data())
    def test_r23_every_drawn_value_is_in_range(self, data: st.DataObject) -> None:
        rules = data.draw(library_strategies.rules())
        assert all(0 <= value <= 1000 for value in rules.card_values.by_rank)

    @pytest.mark.parametrize(
        ("field", "message"),
        [
            (
                "weight: float = attrs.field(default=1.5, metadata={'rule': 'A99'})",
                (
                    "TypeError: persian_rummy.strategies cannot draw the rule switch weight: its default 1.5 is"
                    " not a boolean, an enumeration, a number nor a structured value with a strategy in"
                    " strategies._STRUCTURED"
                ),
            ),
            (
                "rounds: int = attrs.field(default=3, metadata={'rule': 'A99'})",
                (
                    "TypeError: persian_rummy.strategies cannot draw the rule switch rounds: a number lists the values"
                    " to try in its metadata (rules._about(rule, tried=...))"
                ),
            ),
        ],
        ids=["another-kind", "a-number-without-values"],
    )
    def test_a_switch_it_cannot_draw_fails_the_import_naming_it(self, field: str, message: str) -> None:
        program = (
            "import attrs, persian_rummy.rules as r\n"
            "@attrs.frozen\n"
            "class Odd(r.Rules):\n"
            f"    {field}\n"
            "r.Rules = Odd\n"
            "import persian_rummy.strategies\n"
        )
        done = subprocess.run(  # noqa: S603 (this interpreter, a fixed program)
            [sys.executable, "-c", program], capture_output=True, text=True, env={"PYTHONPATH": str(SRC)}, check=False
        )
        assert 1 == done.returncode
        assert message == done.stderr.strip().splitlines()[-1]
