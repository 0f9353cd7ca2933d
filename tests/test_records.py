"""
Game records: `GameRecord`, `replay`, `final_state` and their JSON form.

A record holds the rules, the first dealer and every action (deals included); replaying it
must give back exactly the states of the game it was written from, and stop with an
`InvalidRecordError` naming the first action that cannot be applied.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Action,
    Deal,
    Discard,
    DrawStock,
    GameRecord,
    GameState,
    IllegalActionError,
    InvalidDataError,
    InvalidRecordError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    Pass,
    PersianRummyError,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    from_data,
    from_json,
    is_legal,
    legal_actions,
    new_game,
    random_deal,
    replay,
    to_data,
    to_json,
)
from persian_rummy.records import final_state
from tests.positions import forged
from tests.strategies import Playout, playouts, rules_variants, well_formed_actions
from tests.test_json import DEFAULT_RULES_TEXT

PLAYERS = ("Ann", "Ben", "Cy", "Di")


def _game(seed: int, rules: Rules | None = None, dealer: int = 0) -> tuple[list[GameState], list[Action]]:
    """
    A complete game between random players, as ``persian-rummy demo`` plays it: every state and every action.
    """
    rng = random.Random(seed)  # noqa: S311 (reproducible play)
    state = new_game(rules, dealer=dealer)
    states, actions = [state], []
    while state.phase is not Phase.GAME_OVER:
        action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return states, actions


def _replayed(record: GameRecord) -> tuple[list[GameState], InvalidRecordError | None]:
    """
    The states `replay` yields for *record*, and the error that stopped it, if any.
    """
    seen: list[GameState] = []
    try:
        for state in replay(record):
            seen.append(state)  # noqa: PERF402 (a loop keeps the states yielded before an error)
    except InvalidRecordError as error:
        return seen, error
    return seen, None


def _refusal(state: GameState, action: object) -> IllegalActionError:
    """
    The error `apply` raises for *action* in *state*.
    """
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)  # type: ignore[arg-type]
    return info.value


def _same_error(expected: IllegalActionError, actual: IllegalActionError) -> None:
    assert (expected.action, expected.reason, expected.rule_text) == (actual.action, actual.reason, actual.rule_text)


GAME_STATES, GAME_ACTIONS = _game(3)
FIRST_DEAL_END = next(i for i, s in enumerate(GAME_STATES) if s.phase is Phase.DEAL_OVER)


class TestConstruction:
    """
    What a record holds: the rules, the first dealer and every action, the deals included, with the
    players' names, the date and the event for people; "A record is an immutable value like every other
    value of the library" (docs/records.md).
    """

    def test_a_record_defaults_to_an_empty_game_of_persian_rummy(self) -> None:
        record = GameRecord()
        assert Rules() == record.rules
        assert 0 == record.first_dealer
        assert () == record.actions
        assert None is record.players
        assert None is record.date
        assert None is record.event

    def test_a_record_keeps_its_fields(self) -> None:
        rules = Rules(hand_size=10)
        record = GameRecord(
            rules=rules,
            first_dealer=2,
            actions=GAME_ACTIONS[:3],
            players=PLAYERS,
            date="2026-01-10",
            event="Club night",
        )
        assert rules == record.rules
        assert 2 == record.first_dealer
        assert tuple(GAME_ACTIONS[:3]) == record.actions
        assert PLAYERS == record.players
        assert "2026-01-10" == record.date
        assert "Club night" == record.event

    def test_actions_and_players_become_tuples(self) -> None:
        record = GameRecord(actions=iter(GAME_ACTIONS[:2]), players=list(PLAYERS))
        assert tuple(GAME_ACTIONS[:2]) == record.actions
        assert PLAYERS == record.players
        assert isinstance(record.actions, tuple)
        assert isinstance(record.players, tuple)

    @pytest.mark.parametrize(
        ("players", "error", "message"),
        [
            (("Ann", "Ben", "Cy"), InvalidValueError, "players are four names, one per seat, got 3"),
            (("Ann", "Ben", "Cy", "Di", "Ed"), InvalidValueError, "players are four names, one per seat, got 5"),
            ((), InvalidValueError, "players are four names, one per seat, got 0"),
            ("abcd", InvalidTypeError, "players are four names, one per seat, got 'abcd'"),
            (4, InvalidTypeError, "players are four names, one per seat, got 4"),
            (("Ann", "Ben", "Cy", 4), InvalidTypeError, "the name of seat 3 must be text, got 4"),
            (("Ann", None, "Cy", "Di"), InvalidTypeError, "the name of seat 1 must be text, got None"),
            (("Ann", b"Ben", "Cy", "Di"), InvalidTypeError, "the name of seat 1 must be text, got b'Ben'"),
            (
                ("Ann", "B" * 101, "Cy", "Di"),
                InvalidValueError,
                "the name of seat 1 is at most 100 characters, got 101",
            ),
            (
                ("Ann", "Ben\udc80", "Cy", "Di"),
                InvalidValueError,
                "the name of seat 1 holds a lone surrogate, which is not text: 'Ben\\udc80'",
            ),
        ],
    )
    def test_players_must_be_four_names(self, players: object, error: type[Exception], message: str) -> None:
        with pytest.raises(error) as info:
            GameRecord(players=players)  # type: ignore[arg-type]
        assert message == str(info.value)

    @pytest.mark.parametrize(
        ("fields", "error", "message"),
        [
            ({"date": 123}, InvalidTypeError, "date must be text, got 123"),
            ({"event": "x" * 1001}, InvalidValueError, "event is at most 1,000 characters, got 1,001"),
            ({"date": "\ud800"}, InvalidValueError, "date holds a lone surrogate, which is not text: '\\ud800'"),
            ({"rules": "-"}, InvalidTypeError, "rules must be a Rules, got '-'"),
            ({"actions": "E draw"}, InvalidTypeError, "actions must be a sequence of actions, got 'E draw'"),
            (
                {"actions": [DrawStock(1), "E draw"]},
                InvalidTypeError,
                "actions must be actions, got 'E draw' at index 1",
            ),
            (
                {"actions": [DrawStock(1)] * 100_001},
                InvalidValueError,
                "a record holds at most 100,000 actions, got 100,001",
            ),
        ],
    )
    def test_every_field_is_checked_when_built(
        self, fields: dict[str, object], error: type[Exception], message: str
    ) -> None:
        """
        Finding: `GameRecord(date=123)` was written, then refused when read; an event over
        1,000 characters and a record over 100,000 actions likewise.  The limits are the JSON
        form's, so what can be built can be written and read back.
        """
        with pytest.raises(error) as info:
            GameRecord(**fields)  # type: ignore[arg-type]
        assert message == str(info.value)

    def test_a_longer_record_is_refused_when_read_with_the_limit_named(self) -> None:
        """
        Finding 4: a record of 120,000 actions was refused with "expected a list of actions, got a list".
        """
        data = to_data(GameRecord(actions=[DrawStock(1)]))
        data["actions"] = data["actions"] * 120_000  # type: ignore[operator]
        with pytest.raises(InvalidDataError) as caught:
            from_data(data)
        assert "$.actions: expected at most 100000 actions, got 120000" == str(caught.value)

    def test_the_largest_record_is_written_and_read_back(self) -> None:
        record = GameRecord(
            actions=[DrawStock(1), Discard(1, "Qh")] * 50_000, event="x" * 1000, players=["N" * 100] * 4
        )
        assert record == from_json(to_json(record, pretty=True))

    def test_a_record_is_immutable_and_hashable(self) -> None:
        record = GameRecord(actions=GAME_ACTIONS, players=PLAYERS)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            record.event = "changed"  # type: ignore[misc]
        twin = GameRecord(actions=list(GAME_ACTIONS), players=list(PLAYERS))
        assert record == twin
        assert hash(record) == hash(twin)
        assert record != attrs.evolve(record, event="Club night")
        assert {record, twin} == {record}


class TestReplay:
    """
    Replaying: `replay` yields ``new_game(rules, dealer=first_dealer)``, then the state after each
    action, "so one more state than there are actions" (docs/records.md). R5: the first dealer, a seat
    0-3, deals the first deal.
    """

    def test_replay_of_an_empty_record_is_the_new_game(self) -> None:
        assert [new_game()] == list(replay(GameRecord()))
        rules = Rules(hand_size=5)
        assert [new_game(rules, dealer=3)] == list(replay(GameRecord(rules=rules, first_dealer=3)))

    def test_replay_yields_every_state_of_the_game(self) -> None:
        states = list(replay(GameRecord(actions=GAME_ACTIONS)))
        assert len(GAME_ACTIONS) + 1 == len(states)
        assert GAME_STATES == states
        assert Phase.GAME_OVER is states[-1].phase

    @given(playouts(rules=rules_variants(bounded=True)))
    def test_replay_gives_back_the_states_of_any_game(self, playout: Playout) -> None:
        states, actions = playout.states, playout.actions
        first = states[0]
        record = GameRecord(rules=first.rules, first_dealer=first.dealer, actions=actions)
        replayed = list(replay(record))
        assert len(actions) + 1 == len(replayed)
        assert new_game(first.rules, dealer=first.dealer) == replayed[0]
        for before, action, after in zip(replayed[:-1], actions, replayed[1:], strict=True):
            assert apply(before, action) == after
        assert list(states) == replayed
        assert states[-1] == final_state(record)

    def test_replay_is_lazy_and_starts_again_each_time(self) -> None:
        record = GameRecord(actions=GAME_ACTIONS)
        states = replay(record)
        assert GAME_STATES[0] == next(states)
        assert GAME_STATES[1] == next(states)
        assert GAME_STATES[:2] == list(replay(record))[:2]

    @pytest.mark.parametrize(
        ("dealer", "error"),
        [
            (4, InvalidValueError),
            (-1, InvalidValueError),
            (True, InvalidTypeError),
            ("N", InvalidTypeError),
            (None, InvalidTypeError),
        ],
    )
    def test_the_first_dealer_is_a_seat(self, dealer: object, error: type[Exception]) -> None:
        with pytest.raises(error) as info:
            GameRecord(first_dealer=dealer)  # type: ignore[arg-type]
        assert f"first_dealer must be a seat 0-3, got {dealer!r}" == str(info.value)

    @pytest.mark.parametrize("dealer", [0, 1, 2, 3])
    def test_the_first_dealer_deals_the_first_deal(self, dealer: int) -> None:
        states, actions = _game(7, dealer=dealer)
        record = GameRecord(first_dealer=dealer, actions=actions)
        replayed = list(replay(record))
        assert states == replayed
        assert dealer == replayed[0].dealer
        assert dealer == replayed[1].dealer
        assert (dealer + 1) % 4 == replayed[1].to_act

    def test_a_record_from_one_first_dealer_is_refused_from_another(self) -> None:
        record = GameRecord(first_dealer=1, actions=GAME_ACTIONS)
        states, error = _replayed(record)
        assert [new_game(dealer=1)] == states
        assert error is not None
        assert 0 == error.index
        assert GAME_ACTIONS[0] == error.action
        assert "A4" != error.error.rule_text
        assert "R5" == error.error.rule_text
        assert "seat 1 deals this deal, not seat 0" == error.error.reason


def _check_refused(record: GameRecord, index: int, expected_states: Sequence[GameState]) -> InvalidRecordError:
    """
    Replay *record*: it must yield *expected_states*, then stop at action *index* with the error of `apply`.
    """
    states, error = _replayed(record)
    assert list(expected_states) == states
    assert error is not None
    assert index == error.index
    assert record.actions[index] is error.action
    assert isinstance(error.error, IllegalActionError)
    _same_error(_refusal(states[-1], record.actions[index]), error.error)
    assert f"action {index} of the record is illegal: {error.error}" == str(error)
    with pytest.raises(InvalidRecordError) as info:
        final_state(record)
    assert index == info.value.index
    return error


class TestIllegalActions:
    """
    "Every action is checked as it is applied. The first one that cannot be applied stops the replay with
    an `InvalidRecordError`, after the states before it have been yielded" (docs/records.md); the error
    names the action by its index and holds the `IllegalActionError` that refused it, with its rule.
    """

    def test_a_deal_that_repeats_a_card_is_refused(self) -> None:
        deck = (*FULL_DECK[:-1], FULL_DECK[0])
        record = GameRecord(actions=[forged(Deal(0, FULL_DECK), deck=deck), *GAME_ACTIONS[1:]])
        error = _check_refused(record, 0, [new_game()])
        assert "R2" == error.error.rule_text
        assert "the deck lacks X4: every card must appear once" == error.error.reason

    def test_a_deal_that_lacks_a_card_is_refused(self) -> None:
        record = GameRecord(actions=[forged(Deal(0, FULL_DECK), deck=FULL_DECK[1:])])
        error = _check_refused(record, 0, [new_game()])
        assert "R2" == error.error.rule_text
        assert "the deck must hold 56 cards" == error.error.reason

    def test_a_deal_by_the_wrong_dealer_is_refused(self) -> None:
        first = GAME_ACTIONS[0]
        assert isinstance(first, Deal)
        record = GameRecord(actions=[Deal(2, first.deck)])
        error = _check_refused(record, 0, [new_game()])
        assert "R5" == error.error.rule_text

    def test_the_second_deal_by_the_wrong_dealer_is_refused(self) -> None:
        second = GAME_ACTIONS[FIRST_DEAL_END]
        assert isinstance(second, Deal)
        assert 1 == second.seat
        actions = [*GAME_ACTIONS[:FIRST_DEAL_END], Deal(0, second.deck), *GAME_ACTIONS[FIRST_DEAL_END + 1 :]]
        error = _check_refused(GameRecord(actions=actions), FIRST_DEAL_END, GAME_STATES[: FIRST_DEAL_END + 1])
        assert "A4" == error.error.rule_text
        assert "seat 1 deals this deal, not seat 0" == error.error.reason

    def test_an_action_by_the_wrong_seat_is_refused(self) -> None:
        assert 1 == GAME_STATES[1].to_act
        actions = [GAME_ACTIONS[0], DrawStock(2), *GAME_ACTIONS[2:]]
        error = _check_refused(GameRecord(actions=actions), 1, GAME_STATES[:2])
        assert "R6" == error.error.rule_text
        assert "it is seat 1's turn, not seat 2's" == error.error.reason

    def test_an_action_in_the_wrong_phase_is_refused(self) -> None:
        # Seat 1 discards before drawing.
        hand = GAME_STATES[1].hands[1]
        actions = [GAME_ACTIONS[0], Discard(1, next(iter(hand)))]
        error = _check_refused(GameRecord(actions=actions), 1, GAME_STATES[:2])
        assert "R13" == error.error.rule_text

    def test_a_player_action_before_the_first_deal_is_refused(self) -> None:
        error = _check_refused(GameRecord(actions=[DrawStock(1)]), 0, [new_game()])
        assert "R13" == error.error.rule_text
        assert "no player acts in phase 'deal'" == error.error.reason

    def test_an_illegal_action_late_in_the_game_is_refused_after_every_state_before_it(self) -> None:
        # Halfway through the second deal, replace the action with a meld the player does not hold.
        index = (FIRST_DEAL_END + len(GAME_ACTIONS)) // 2
        state = GAME_STATES[index]
        seat = state.to_act
        assert seat is not None
        bad: Action = LayDown(seat, "2c 3c 4c") if state.phase is Phase.PLAY else TakeDiscard(seat, "X1")
        assert not is_legal(state, bad)
        actions = [*GAME_ACTIONS[:index], bad, *GAME_ACTIONS[index + 1 :]]
        _check_refused(GameRecord(actions=actions), index, GAME_STATES[: index + 1])

    def test_an_action_after_the_game_is_over_is_refused(self) -> None:
        end = len(GAME_ACTIONS)
        error = _check_refused(GameRecord(actions=[*GAME_ACTIONS, Pass(1)]), end, GAME_STATES)
        assert "R13" == error.error.rule_text
        assert "no player acts in phase 'game_over'" == error.error.reason

    def test_a_third_deal_is_refused(self) -> None:
        first = GAME_ACTIONS[0]
        assert isinstance(first, Deal)
        end = len(GAME_ACTIONS)
        error = _check_refused(GameRecord(actions=[*GAME_ACTIONS, Deal(2, first.deck)]), end, GAME_STATES)
        assert "R7" == error.error.rule_text
        assert "cards are dealt only at the start of a deal, not in phase 'game_over'" == error.error.reason

    def test_something_that_is_not_an_action_is_refused(self) -> None:
        # A record cannot hold it; one forged to hold it is refused by the replay.
        record = forged(GameRecord(actions=[GAME_ACTIONS[0]]), actions=(GAME_ACTIONS[0], "E draw"))
        error = _check_refused(record, 1, GAME_STATES[:2])
        assert "not an action of this game" == error.error.reason

    def test_only_the_first_illegal_action_is_reported(self) -> None:
        actions = [GAME_ACTIONS[0], DrawStock(3), DrawStock(0), *GAME_ACTIONS[1:]]
        error = _check_refused(GameRecord(actions=actions), 1, GAME_STATES[:2])
        assert DrawStock(3) == error.action

    def test_replay_stops_at_the_illegal_action(self) -> None:
        states = replay(GameRecord(actions=[GAME_ACTIONS[0], DrawStock(0), GAME_ACTIONS[1]]))
        assert GAME_STATES[:2] == [next(states), next(states)]
        with pytest.raises(InvalidRecordError):
            next(states)
        with pytest.raises(StopIteration):
            next(states)

    def test_the_record_error_is_a_library_error_and_a_value_error(self) -> None:
        _, error = _replayed(GameRecord(actions=[DrawStock(0)]))
        assert isinstance(error, InvalidRecordError)
        assert isinstance(error, PersianRummyError)
        assert isinstance(error, ValueError)
        assert not isinstance(error, IllegalActionError)
        assert (0, DrawStock(0), error.error) == error.args

    @given(st.data(), playouts(rules=rules_variants(bounded=True)))
    def test_an_illegal_action_anywhere_stops_the_replay_there(self, data: st.DataObject, playout: Playout) -> None:
        states, actions = playout.states, playout.actions
        index = data.draw(st.integers(0, len(actions)), label="index")
        before = states[index]
        bad = data.draw(well_formed_actions(before), label="bad action")
        assume(not is_legal(before, bad))
        replace = data.draw(st.booleans(), label="replace")
        rest = actions[index + 1 :] if replace else actions[index:]
        record = GameRecord(
            rules=states[0].rules, first_dealer=states[0].dealer, actions=(*actions[:index], bad, *rest)
        )
        seen, error = _replayed(record)
        assert list(states[: index + 1]) == seen
        assert error is not None
        assert index == error.index
        assert bad is error.action
        _same_error(_refusal(before, bad), error.error)


class TestFinalStateAndPartialRecords:
    """
    `final_state` gives the last state of the replay; "A record that stops before the end of the game
    replays to the position where it stopped, from which the game can go on" (docs/records.md).
    """

    def test_final_state_of_a_whole_game_is_its_end(self) -> None:
        state = final_state(GameRecord(actions=GAME_ACTIONS))
        assert GAME_STATES[-1] == state
        assert Phase.GAME_OVER is state.phase
        assert (102, 146) == state.scores

    def test_final_state_of_an_empty_record_is_the_new_game(self) -> None:
        assert new_game() == final_state(GameRecord())
        rules = Rules(next_dealer="same")
        assert new_game(rules, dealer=2) == final_state(GameRecord(rules=rules, first_dealer=2))

    @pytest.mark.parametrize("length", [1, 2, 17, FIRST_DEAL_END, FIRST_DEAL_END + 1, len(GAME_ACTIONS) - 1])
    def test_a_partial_record_replays_to_the_middle_of_the_game(self, length: int) -> None:
        record = GameRecord(actions=GAME_ACTIONS[:length])
        assert GAME_STATES[length] == final_state(record)
        assert GAME_STATES[: length + 1] == list(replay(record))

    def test_a_partial_record_ends_where_its_game_stopped(self) -> None:
        assert Phase.DRAW is final_state(GameRecord(actions=GAME_ACTIONS[:1])).phase
        assert Phase.PLAY is final_state(GameRecord(actions=GAME_ACTIONS[:2])).phase
        assert Phase.DEAL_OVER is final_state(GameRecord(actions=GAME_ACTIONS[:FIRST_DEAL_END])).phase

    def test_a_partial_record_can_be_continued(self) -> None:
        partial = GameRecord(actions=GAME_ACTIONS[:FIRST_DEAL_END])
        state = final_state(partial)
        rest = GAME_ACTIONS[FIRST_DEAL_END:]
        for action in rest:
            state = apply(state, action)
        whole = attrs.evolve(partial, actions=(*partial.actions, *rest))
        assert GAME_STATES[-1] == state
        assert state == final_state(whole)

    def test_a_record_can_be_written_while_playing(self) -> None:
        rng = random.Random(3)  # noqa: S311
        record = GameRecord(players=PLAYERS)
        state = final_state(record)
        while state.phase is not Phase.GAME_OVER:
            action = random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state))
            state = apply(state, action)
            record = attrs.evolve(record, actions=(*record.actions, action))
        assert tuple(GAME_ACTIONS) == record.actions
        assert GAME_STATES[-1] == final_state(record)


class TestRuleVariants:
    """
    A record replays under its own rules; "replayed under other rules than those it was played with: the
    deals still apply, but sooner or later an action no longer fits" (docs/records.md).
    """

    def test_a_record_under_a_variant_replays_under_that_variant(self) -> None:
        rules = Rules(hand_size=10, next_dealer="winner", go_out_bonus=50)
        states, actions = _game(227, rules, dealer=3)
        record = GameRecord(rules=rules, first_dealer=3, actions=actions)
        replayed = list(replay(record))
        assert states == replayed
        assert all(state.rules == rules for state in replayed)
        assert [10, 10, 10, 10] == [len(hand) for hand in replayed[1].hands]
        first_end = next(state for state in replayed if state.phase is Phase.DEAL_OVER)
        assert 1 == first_end.went_out
        assert 50 == first_end.results[0].teams[1].bonus
        assert 1 == replayed[-1].dealer  # the player who went out deals next (A4 variant)

    def test_a_record_under_a_variant_is_refused_under_the_default_rules(self) -> None:
        rules = Rules(hand_size=10)
        states, actions = _game(227, rules, dealer=3)
        record = GameRecord(first_dealer=3, actions=actions)
        seen, error = _replayed(record)
        assert error is not None
        # The deal is legal under both rules, but the hands are seven cards, not ten.
        assert 0 < error.index
        assert [7, 7, 7, 7] == [len(hand) for hand in seen[1].hands]
        assert len(seen) == error.index + 1
        # Every action before the refused one is legal under the default rules too.
        state = new_game(dealer=3)
        for action in actions[: error.index]:
            state = apply(state, action)
        assert seen[-1] == state
        assert not is_legal(state, actions[error.index])
        assert states[-1] != seen[-1]

    @pytest.mark.parametrize(
        "rules",
        [
            Rules(num_deals=1),
            Rules(num_deals=3, next_dealer="same"),
            Rules(empty_stock_end="first_pass", go_out_by_discard=True),
            Rules(obligation_timing="before_discard", forbid_discarding_picked_cards=True, hand_size=4),
            Rules(double_four_card_runs=True, double_four_of_a_kind=False, go_out_bonus=0),
        ],
    )
    def test_records_of_variants_replay(self, rules: Rules) -> None:
        states, actions = _game(5, rules, dealer=1)
        record = GameRecord(rules=rules, first_dealer=1, actions=actions)
        assert states == list(replay(record))
        assert rules.num_deals == len(final_state(record).results)


class TestJson:
    """
    Saving and loading: a record is a JSON document of kind ``record`` that reads back to an equal record.
    "Loading checks the form of every action [...] and reports the place of the first problem [...]
    Whether the actions are legal where they stand is the replay's business." (docs/records.md)
    """

    def test_a_record_round_trips_through_json(self) -> None:
        record = GameRecord(actions=GAME_ACTIONS, players=PLAYERS, date="2026-01-10", event="Club night")
        for text in (to_json(record), to_json(record, pretty=True)):
            assert record == from_json(text)
            assert record == from_json(text, GameRecord)
            assert record == from_json(text.encode("utf-8"), GameRecord)
        assert record == from_data(to_data(record))

    def test_an_empty_record_round_trips_through_json(self) -> None:
        record = GameRecord()
        text = to_json(record)
        assert (
            '{"format": "persian-rummy", "version": 1, "kind": "record", '
            f'"rules": {DEFAULT_RULES_TEXT}, "first_dealer": 0, "players": null, "date": null, '
            '"event": null, "actions": []}'
        ) == text
        assert record == from_json(text)

    def test_the_json_of_a_record_lists_its_actions(self) -> None:
        data = to_data(GameRecord(actions=GAME_ACTIONS[:3], players=PLAYERS, first_dealer=0))
        assert ["format", "version", "kind", "rules", "first_dealer", "players", "date", "event", "actions"] == list(
            data
        )
        assert "record" == data["kind"]
        assert ["Ann", "Ben", "Cy", "Di"] == data["players"]
        actions = data["actions"]
        assert isinstance(actions, list)
        assert ["deal", "draw_stock", "discard"] == [action["type"] for action in actions]
        assert [0, 1, 1] == [action["seat"] for action in actions]
        first = GAME_ACTIONS[0]
        assert isinstance(first, Deal)
        assert [str(card) for card in first.deck] == actions[0]["deck"]

    def test_names_and_texts_keep_their_letters(self) -> None:
        record = GameRecord(players=("Željko", "Mëlle", "Ömer", "李"), event="Turnir — Zagreb", date="2026-01-10")
        text = to_json(record)
        assert '"players": ["Željko", "Mëlle", "Ömer", "李"]' in text
        assert record == from_json(text)

    @given(playouts(rules=rules_variants(bounded=True)), st.booleans())
    def test_any_record_round_trips_through_json(self, playout: Playout, pretty: bool) -> None:
        states, actions = playout.states, playout.actions
        record = GameRecord(rules=states[0].rules, first_dealer=states[0].dealer, actions=actions, event="Hypothesis")
        loaded = from_json(to_json(record, pretty=pretty), GameRecord)
        assert record == loaded
        assert states[-1] == final_state(loaded)

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            ({"players": ["Ann", "Ben", "Cy"]}, "$.players: expected null or a list of four names, got a list"),
            ({"players": ["Ann", "Ben", "Cy", 4]}, "$.players[3]: expected a string, got 4"),
            ({"players": ["Ann", "Ben", "Cy", "D" * 101]}, "$.players[3]: string longer than 100 characters"),
            ({"first_dealer": 4}, "$.first_dealer: expected a seat 0-3, got 4"),
            ({"actions": {}}, "$.actions: expected a list of actions, got an object"),
            ({"date": 2026}, "$.date: expected a string, got 2026"),
            ({"event": False}, "$.event: expected a string, got false"),
        ],
    )
    def test_a_broken_record_document_is_refused(self, change: dict[str, object], message: str) -> None:
        data = {**to_data(GameRecord(actions=GAME_ACTIONS[:3], players=PLAYERS)), **change}
        with pytest.raises(InvalidDataError) as info:
            from_data(data)
        assert message == str(info.value)

    def test_a_broken_action_in_a_record_document_is_refused_with_its_place(self) -> None:
        data = to_data(GameRecord(actions=GAME_ACTIONS[:3]))
        actions = data["actions"]
        assert isinstance(actions, list)
        actions[2] = {"type": "discard", "seat": 1, "card": "Zz"}
        with pytest.raises(InvalidDataError) as info:
            from_data(data)
        assert "$.actions[2].card: expected a card such as 'Qh' or 'X1', got 'Zz'" == str(info.value)

    def test_an_illegal_action_loads_and_is_refused_when_replayed(self) -> None:
        # Loading checks the form of each action; legality is the replay's business.
        record = GameRecord(actions=[GAME_ACTIONS[0], DrawStock(3)])
        loaded = from_json(to_json(record), GameRecord)
        assert record == loaded
        _check_refused(loaded, 1, GAME_STATES[:2])

    def test_another_kind_of_document_is_not_a_record(self) -> None:
        with pytest.raises(InvalidDataError) as info:
            from_json(to_json(GAME_STATES[5]), GameRecord)
        assert "$: expected a GameRecord document, got GameState" == str(info.value)
