"""
Wild jokers (`Rules.jokers_wild`, A7) in the learning interfaces: the ids of the plays with
jokers, the observation's part of what the jokers on the table stand for, and the learned player.

A play with jokers standing for cards has one id, named by the play of natural cards it
represents (a lay-down, a single card onto a set, a block onto a run: an id below 1066) and by
which of those cards its jokers play; the jokers themselves follow from the hand.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings

from persian_rummy import (
    Card,
    GameState,
    IllegalActionError,
    InvalidValueError,
    LayDown,
    Phase,
    Rules,
    StandIns,
    apply,
    legal_actions,
    new_game,
    observe,
    random_deal,
)
from persian_rummy.rl.actionids import (
    action_count,
    action_from_id,
    action_id,
    action_mask,
    action_masks,
    id_text,
    legal_actions_by_id,
    legal_ids,
)
from tests.strategies import played_states, rules_variants
from tests.test_actionids import meaning

np = pytest.importorskip("numpy")

from persian_rummy.rl.policy import LearnedPlayer  # noqa: E402
from persian_rummy.rl.tensors import observation_layout, observation_size, observation_tensor  # noqa: E402

WILD = Rules(jokers_wild=True)
#: Every switch that adds ids (A7, A8, A24).
WIDEST = Rules(jokers_wild=True, ace_low_allowed=True, rummy_calls=True)
#: The ids of the largest space without wild jokers.
PLAIN = 1066
COUNT = 77628


def decision(seed: int, steps: int, rules: Rules = WILD) -> GameState:
    """
    The position after *steps* random actions of a seeded game (deals not counted).
    """
    rng = random.Random(seed)  # noqa: S311 (reproducible play)
    state = new_game(rules)
    done = 0
    while done < steps or state.is_chance_node:
        if state.is_chance_node:
            state = apply(state, random_deal(state, rng))
            continue
        state = apply(state, rng.choice(legal_actions(state)))
        done += 1
    return state


#: Seat 3 (W) must play the Td it took; N's 4h 5h X1=6h is on the table.
OBLIGED = decision(0, 6)


class TestTheSpace:
    """
    A7: the plays with jokers come after every other id, one per represented play and choice of
    the cards its jokers play, the same under every rules with the switch.
    """

    def test_the_count(self) -> None:
        assert COUNT == action_count(WILD) == action_count(WIDEST)
        assert (944, 1064, 1066) == (action_count(), action_count(Rules(ace_low_allowed=True)), PLAIN)

    @given(rules_variants())
    def test_the_switch_alone_adds_ids_and_moves_none(self, rules: Rules) -> None:
        wild = attrs.evolve(rules, jokers_wild=True)
        assert COUNT == action_count(wild)
        assert [id_text(i, WIDEST) for i in range(PLAIN)] == [id_text(i, wild) for i in range(PLAIN)]
        assert [id_text(i, WIDEST) for i in (PLAIN, COUNT - 1)] == [id_text(i, wild) for i in (PLAIN, COUNT - 1)]

    def test_the_first_and_last_ids(self) -> None:
        assert [
            "meld X=2c 2d 2h 2s",
            "meld 2c X=2d 2h 2s",
            "meld 2c X=2d X=2h",
            "meld X=3c 3d 3h 3s",
            "meld X=Tc Td X=Th Ts",
            "lay 4s 5s 6s 7s 8s 9s X=Ts X=Js X=Qs X=Ks above 3s",
        ] == [id_text(i, WILD) for i in (1066, 1067, 1103, 1104, 1375, COUNT - 1)]
        with pytest.raises(InvalidValueError, match=r"^action id 77628 is outside the action space, 0 to 77627$"):
            id_text(COUNT, WILD)

    def test_every_play_with_jokers_and_only_those(self) -> None:
        """
        Each text is a natural id's with one to four of its cards played by jokers (a lay-down
        keeping a natural card); every such choice appears once, in id order by the natural id.
        """
        naturals = {id_text(i, WIDEST): i for i in range(PLAIN)}
        texts = [id_text(i, WILD) for i in range(PLAIN, COUNT)]
        assert len(texts) == len(set(texts))
        groups: Counter[int] = Counter()
        order = []
        for text in texts:
            natural = naturals[text.replace("X=", "")]
            jokers = text.count("X=")
            cards = len(re.findall(r"\b[2-9TJQKA][cdhs]\b", text.split(" below ")[0].split(" above ")[0]))
            assert 1 <= jokers <= min(4, cards - (text.startswith("meld ")) if cards else 4)
            groups[natural] += 1
            order.append(natural)
        assert order == sorted(order)
        for natural, count in groups.items():
            text = id_text(natural, WIDEST)
            n = len(cards_of_natural(text))
            most = min(4, n - 1) if text.startswith("meld ") else min(4, n)
            assert sum(math.comb(n, k) for k in range(1, most + 1)) == count
        kinds = Counter(kind_of(id_text(natural, WIDEST), natural) for natural in order)
        assert {
            "sets": 494,
            "runs": 39032,
            "onto sets": 52,
            "onto runs": 19448,
            "runs with a low ace": 9440,
            "blocks with a low ace": 8096,
        } == kinds
        assert COUNT - PLAIN == sum(kinds.values())


def cards_of_natural(text: str) -> list[str]:
    words = text.split()
    cut = next((k for k, word in enumerate(words) if word in {"below", "above", "on"}), len(words))
    return words[1:cut]


def kind_of(text: str, natural: int) -> str:
    if natural >= 984:
        return "blocks with a low ace"
    if natural >= 944:
        return "runs with a low ace"
    if " on the set of " in text:
        return "onto sets"
    if text.startswith("lay "):
        return "onto runs"
    return "sets" if natural < 184 else "runs"


class TestAKnownPosition:
    """
    A7, R15: W took the Td and must play it at once; it holds the X2 and X4, and Ts, and N has
    4h 5h X1=6h on the table.
    """

    def test_the_position(self) -> None:
        state = OBLIGED
        assert (3, Phase.PLAY, "Td") == (state.to_act, state.phase, str(state.obligation))
        assert "2c 3c 4d 6d Td Jh 5s Ts X2 X4" == str(state.hands[3])
        assert ["4h 5h X1=6h"] == [str(meld) for meld in state.melds]

    def test_the_legal_ids(self) -> None:
        ids = legal_ids(OBLIGED)
        assert (1375, 1385, 1389, 1396, 1400, 1406, 20693, 20898, 21005) == ids
        assert [
            "meld X=Tc Td X=Th Ts",
            "meld Td X=Th Ts",
            "meld Td X=Th X=Ts",
            "meld X=Tc Td Ts",
            "meld X=Tc Td X=Ts",
            "meld X=Tc Td X=Th",
            "meld X=8d X=9d Td",
            "meld X=9d Td X=Jd",
            "meld Td X=Jd X=Qd",
        ] == [id_text(i, WILD) for i in ids]
        mask = action_mask(OBLIGED)
        assert (COUNT, 9) == (len(mask), sum(mask))
        assert action_masks([OBLIGED, OBLIGED]) == mask * 2
        assert ids == legal_ids(observe(OBLIGED, 3))

    def test_an_id_names_the_canonical_jokers(self) -> None:
        action = action_from_id(1375, OBLIGED)
        assert LayDown(3, "Td Ts X2 X4", stand_ins=StandIns.parse("X2=Tc X4=Th")) == action
        assert "W meld X2=Tc Td X4=Th Ts" == str(action)
        assert 1375 == action_id(action, OBLIGED)
        assert action is legal_actions_by_id(OBLIGED)[1375]

    def test_an_id_that_needs_more_jokers_than_the_hand_holds(self) -> None:
        with pytest.raises(IllegalActionError) as caught:
            action_from_id(1382, OBLIGED)
        assert "meld X=Tc Td X=Th X=Ts" == id_text(1382, WILD)
        assert (
            "action id 1382 (meld X=Tc Td X=Th X=Ts) is not possible here: seat 3 holds 2 jokers and the play needs 3"
        ) == caught.value.reason
        assert ("A7",) == caught.value.rule

    def test_a_lay_off_onto_the_card_a_joker_stands_for(self) -> None:
        """
        The run 4h 5h X1=6h ends with the 6h its joker stands for: a joker above it lies next to the 6h.
        """
        assert "lay X=7h above 6h" == id_text(54438, WILD)
        with pytest.raises(IllegalActionError) as caught:
            action_from_id(54438, OBLIGED)
        assert (
            "action id 54438 (lay X=7h above 6h) is not legal here: "
            "Td, taken from the discard pile, must be played first"
        ) == caught.value.reason
        assert ("R15", "A11") == caught.value.rule

    def test_the_card_a_joker_stands_for_stays_in_hand(self) -> None:
        """
        A7: N holds the 9h that the X2 of 8h X2=9h Th stands for; it can no longer be laid, and
        the 6s N took goes into a run with its X3 alone.
        """
        state = decision(1, 8)
        assert ["8h X2=9h Th"] == [str(meld) for meld in state.melds]
        assert (0, "6s", "Jc Kc 9h Jh 6s 8s Qs X3") == (state.to_act, str(state.obligation), str(state.hands[0]))
        assert (39220,) == legal_ids(state)
        assert LayDown(0, "6s 8s X3", stand_ins={"X3": "7s"}) == action_from_id(39220, state)
        assert "meld 6s X=7s 8s" == id_text(39220, WILD)
        tensor = observation_tensor(observe(state, 2))
        assert [Card.parse("9h").index] == [i for i in range(56) if tensor[868 + i]]

    def test_the_observation_shows_what_the_joker_stands_for(self) -> None:
        tensor = observation_tensor(observe(OBLIGED, 3))
        stood = observation_layout(WILD)[-1]
        assert ("stood_for", 868, 56) == (stood.name, stood.start, stood.size)
        assert (924,) == tensor.shape == (observation_size(WILD),)
        assert [Card.parse("6h").index] == [i for i in range(56) if tensor[stood.start + i]]
        assert 868 == observation_tensor(observe(decision(0, 6, Rules()), 3)).shape[0]


class TestBijection:
    """
    A7: at every reachable position under the switch the legal ids are the ids of the legal
    actions, one each, and every id goes to its action and back.
    """

    @settings(max_examples=60, deadline=None)
    @given(played_states(rules=rules_variants().map(lambda rules: attrs.evolve(rules, jokers_wild=True))))
    def test_reachable_states(self, state: GameState) -> None:
        if state.is_chance_node or state.phase is Phase.GAME_OVER:
            assert state.is_chance_node or legal_ids(state) == ()
            return
        check(state)
        assert legal_ids(observe(state, state.to_act)) == legal_ids(state)

    @pytest.mark.once
    def test_12_random_games(self) -> None:
        """
        Seeded random games under the switch alone and with every other switch that adds ids.
        """
        wild_ids = decisions = 0
        for rules in (WILD, WIDEST):
            for seed in range(6):
                rng = random.Random(seed)  # noqa: S311 (reproducible play)
                state = new_game(rules, dealer=seed % 4)
                while state.phase is not Phase.GAME_OVER:
                    if state.is_chance_node:
                        state = apply(state, random_deal(state, rng))
                        continue
                    ids = check(state)
                    wild_ids += sum(i >= PLAIN for i in ids)
                    decisions += 1
                    state = apply(state, rng.choice(legal_actions(state)))
        assert (2442, 740) == (decisions, wild_ids)


def check(state: GameState) -> tuple[int, ...]:
    actions = legal_actions(state)
    ids = legal_ids(state)
    assert sorted(set(ids)) == list(ids)
    assert len(ids) == len(actions)
    by_id = legal_actions_by_id(state)
    assert set(by_id.values()) == set(actions)
    for i, action in by_id.items():
        assert action_from_id(i, state) is action
        assert action_id(action, state) == i
        assert meaning(action, state.melds) == id_text(i, state.rules)
    mask = action_mask(state)
    assert list(ids) == [i for i, byte in enumerate(mask) if byte]
    return ids


class TestTheLearnedPlayer:
    """
    The learned player's network scores the 944 ids of Persian Rummy's rules and reads 868
    values; it refuses wild jokers (A7), naming the switch.
    """

    def test_it_refuses_wild_jokers(self) -> None:
        view = observe(OBLIGED, 3)
        message = (
            r"^the network scores 944 action ids and reads 868 observation values, but wild jokers "
            r"\(Rules.jokers_wild, A7\) have 77628 ids and 924 values: it cannot play them$"
        )
        with pytest.raises(InvalidValueError, match=message):
            LearnedPlayer().choose(view, random.Random(0))  # noqa: S311 (it draws nothing)
