"""
The fixed integer action space of `persian_rummy.rl.actionids`: its layout, its golden file, the
bijection with `legal_actions` at every reachable position, and its errors.

The golden file ``tests/data/action_ids.txt`` lists every id with its text, the default rules'
944 first, then the 120 that runs with a low ace add (A8), then the two of a call of "Rummy!"
(A24); of the 76,562 plays with jokers that wild jokers add (A7), the first and the last, and a
line ``sha256<TAB>...`` with the digest of all their lines.  Ids must never move: the test
compares the whole file.  After a deliberate change of the space, write the file again with
``python -m tests.test_actionids --write`` from the repository's root, and review the diff.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given

from persian_rummy import (
    FULL_DECK,
    CallRummy,
    Card,
    CardSet,
    ChanceNodeError,
    Deal,
    DeclineCall,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    LayOff,
    MeldKind,
    Pass,
    Phase,
    PlayerAction,
    Rank,
    Rules,
    StandIns,
    TableMeld,
    TakeDiscard,
    View,
    ViewError,
    apply,
    legal_actions,
    new_game,
    observe,
    random_deal,
)
from persian_rummy.melds import is_meld, meld_kind
from persian_rummy.rl import (
    action_count,
    action_from_id,
    action_id,
    action_mask,
    actionids,
    id_text,
    legal_actions_by_id,
    legal_ids,
)
from tests.positions import low_meld, meld, position
from tests.strategies import played_states, rules_variants

GOLDEN = Path(__file__).parent / "data" / "action_ids.txt"
LOW = Rules(ace_low_allowed=True)
#: The largest space: a low ace's ids and the calls' (A8, A24).
LARGEST = Rules(ace_low_allowed=True, rummy_calls=True)
DEFAULT = Rules()

#: The ids and their counts under the default rules, group by group.
DEFAULT_GROUPS = {
    "draw": (0, 1),
    "pass": (1, 1),
    "take": (2, 56),
    "discard": (58, 56),
    "meld a set": (114, 70),
    "meld a run": (184, 264),
    "lay onto a set": (448, 56),
    "lay onto a run": (504, 440),
}


def group_of(i: int) -> str:
    """
    The group of `DEFAULT_GROUPS` that id *i* belongs to, or "a low ace" for the ids after them.
    """
    return next((name for name, (first, count) in DEFAULT_GROUPS.items() if first <= i < first + count), "a low ace")


#: Every switch that adds ids: a low ace's, the calls' and wild jokers' (A8, A24, A7).
WIDEST = Rules(ace_low_allowed=True, rummy_calls=True, jokers_wild=True)


def golden_text() -> str:
    """
    The golden file as the library writes it: ``id<TAB>text`` for every id of the largest space
    without wild jokers; then the first and the last id that wild jokers add, and the sha256 of
    the lines of all of them.
    """
    plain = action_count(LARGEST)
    lines = [f"{i}\t{id_text(i, WIDEST)}\n" for i in range(action_count(WIDEST))]
    digest = hashlib.sha256("".join(lines[plain:]).encode()).hexdigest()
    return "".join([*lines[:plain], lines[plain], lines[-1], f"sha256\t{digest}\n"])


def decision(seed: int, rules: Rules = DEFAULT, steps: int = 40) -> GameState:
    """
    The first decision of seat to act after *steps* random actions of a game (deals included).
    """
    rng = random.Random(seed)  # noqa: S311 (reproducible play)
    state = new_game(rules)
    for _ in range(steps):
        state = apply(state, random_deal(state, rng) if state.is_chance_node else rng.choice(legal_actions(state)))
        if state.phase is Phase.GAME_OVER:
            break
    while state.is_chance_node:
        state = apply(state, random_deal(state, rng))
    return state


def place(card: Card, low_ace: bool) -> int:
    """
    A natural card's place in a run: 2 to 14, or 1 for an ace taken low.
    """
    return 1 if card.rank is Rank.ACE and low_ace else int(card.rank)


def in_run_order(cards: CardSet, low_ace: bool) -> str:
    return " ".join(str(card) for card in sorted(cards, key=lambda card: place(card, low_ace)))


def meaning(action: PlayerAction, melds: tuple[TableMeld, ...]) -> str:
    """
    What *action* does, written from the rules without the library's tables: the text its id must have.

    A play with jokers standing for cards (A7) is the play of the natural cards it represents,
    each card a joker plays written ``X=card``; a lay-off goes next to the cards a meld represents.
    """
    if isinstance(action, LayDown | LayOff) and action.stand_ins:
        stood = action.stand_ins.cards
        plain = attrs.evolve(action, cards=action.cards - action.stand_ins.jokers | stood, stand_ins=StandIns())
        words = meaning(plain, melds).split()
        cut = next((k for k, word in enumerate(words) if word in {"below", "above", "on"}), len(words))
        return " ".join(
            f"X={word}" if 0 < k < cut and CardSet.parse(word) <= stood else word for k, word in enumerate(words)
        )
    if any(meld.stand_ins for meld in melds):
        melds = tuple(TableMeld(meld.owner, meld.represents, ace_low=meld.ace_low) for meld in melds)
    match action:
        case DrawStock():
            return "draw from the stock"
        case Pass():
            return "pass"
        case TakeDiscard():
            return f"take {action.card}"
        case Discard():
            return f"discard {action.card}"
        case LayDown():
            ranks = {card.rank for card in action.cards}
            low = Rank.ACE in ranks and Rank.TWO in ranks and len(ranks) < 13
            return f"meld {in_run_order(action.cards, low)}"
        case LayOff():
            return lay_off_meaning(action.cards, melds[action.meld])
        case DeclineCall():
            return "decline to call Rummy!"
        case CallRummy():
            return "call Rummy!"


def lay_off_meaning(cards: CardSet, target: TableMeld) -> str:
    """
    Laying *cards* off onto *target*: onto a set, by rank; onto a run, above its highest card
    (the ace high) when the cards follow it, else below its lowest card (an ace low).
    """
    if target.kind is MeldKind.SET:
        rank = next(iter(cards)).rank
        name = {Rank.SIX: "sixes", Rank.JOKER: "jokers"}.get(rank, rank.name.lower() + "s")
        return f"lay {next(iter(cards))} on the set of {name}"
    ranks = {card.rank for card in target.cards}
    low_run = Rank.ACE in ranks and Rank.TWO in ranks
    run = sorted(target.cards, key=lambda card: place(card, low_run))
    high = [place(card, low_ace=False) for card in cards]
    if min(high) == place(run[-1], low_run) + 1 and max(high) - min(high) == len(high) - 1:
        return f"lay {in_run_order(cards, low_ace=False)} above {run[-1]}"
    low = [place(card, low_ace=True) for card in cards]
    assert max(low) == place(run[0], low_run) - 1
    assert max(low) - min(low) == len(low) - 1
    return f"lay {in_run_order(cards, low_ace=True)} below {run[0]}"


def check_bijection(position: GameState | View) -> tuple[int, ...]:
    """
    Check every promise of the space at a decision of *position*; return its legal ids.
    """
    actions = legal_actions(position)
    ids = legal_ids(position)
    assert sorted(set(ids)) == list(ids)
    assert len(set(actions)) == len(ids)
    assert set(actions) == {action_from_id(i, position) for i in ids}
    for action in actions:
        i = action_id(action, position)
        assert i in ids
        assert action == action_from_id(i, position)
        assert meaning(action, position.melds) == id_text(i, position.rules)
    mask = action_mask(position)
    assert action_count(position.rules) == len(mask)
    assert list(ids) == [i for i, byte in enumerate(mask) if byte]
    assert set(mask) <= {0, 1}
    by_id = legal_actions_by_id(position)
    assert list(ids) == list(by_id)
    assert all(by_id[i] is action_from_id(i, position) for i in ids)
    assert by_id is not legal_actions_by_id(position)
    return ids


class TestLayout:
    """
    R9-R12, R14, R17, R18, R21: a turn draws from the stock or takes a card of the pile, or passes
    on an empty stock; lays down sets (three or four of a rank; jokers only among themselves)
    and runs (three or more of a suit, 2 to ace, never round the corner); lays off a card onto
    a set or cards extending a run at either end; discards a card.  Each has one id.
    """

    def test_the_module_lets_out_its_eight_functions(self) -> None:
        names = [
            "action_count",
            "action_from_id",
            "action_id",
            "action_mask",
            "action_masks",
            "id_text",
            "legal_actions_by_id",
            "legal_ids",
        ]
        assert names == actionids.__all__
        assert names == dir(actionids)

    def test_the_space_has_944_ids_under_the_default_rules(self) -> None:
        assert 944 == action_count()
        assert 944 == action_count(Rules())
        assert 1064 == action_count(LOW)

    @given(rules_variants())
    def test_only_a_low_ace_calls_and_wild_jokers_change_the_count(self, rules: Rules) -> None:
        expected = 77628 if rules.jokers_wild else 1066 if rules.rummy_calls else 1064 if rules.ace_low_allowed else 944
        assert expected == action_count(rules)

    def test_the_groups_of_the_default_rules(self) -> None:
        texts = [id_text(i) for i in range(944)]
        found = {
            "draw": [i for i, text in enumerate(texts) if text == "draw from the stock"],
            "pass": [i for i, text in enumerate(texts) if text == "pass"],
            "take": [i for i, text in enumerate(texts) if text.startswith("take ")],
            "discard": [i for i, text in enumerate(texts) if text.startswith("discard ")],
            "meld a set": [i for i, text in enumerate(texts) if text.startswith("meld ") and is_set(text)],
            "meld a run": [i for i, text in enumerate(texts) if text.startswith("meld ") and not is_set(text)],
            "lay onto a set": [i for i, text in enumerate(texts) if " on the set of " in text],
            "lay onto a run": [i for i, text in enumerate(texts) if " below " in text or " above " in text],
        }
        assert DEFAULT_GROUPS == {name: (ids[0], len(ids)) for name, ids in found.items()}
        assert all(ids == list(range(ids[0], ids[0] + len(ids))) for ids in found.values())

    def test_take_and_discard_follow_the_deck(self) -> None:
        assert [f"take {card}" for card in FULL_DECK] == [id_text(2 + k) for k in range(56)]
        assert [f"discard {card}" for card in FULL_DECK] == [id_text(58 + k) for k in range(56)]

    @pytest.mark.parametrize(("rules", "count"), [(Rules(), 334), (LOW, 374)])
    def test_the_melds_are_every_set_and_run(self, rules: Rules, count: int) -> None:
        """
        Every group of three or more cards that `is_meld` accepts has exactly one id (R9-R12, A8).
        """
        melds = {
            cards_of(id_text(i, rules)) for i in range(action_count(rules)) if id_text(i, rules).startswith("meld ")
        }
        assert count == len(melds)
        assert melds == every_meld(rules)

    @pytest.mark.parametrize(("rules", "count"), [(Rules(), 440), (LOW, 520)])
    def test_the_run_lay_offs_are_every_block_next_to_a_run(self, rules: Rules, count: int) -> None:
        """
        Every block of consecutive cards that extends a run at one end, with the run's card
        it lies next to, has exactly one id (R17, A8, A11).
        """
        texts = [id_text(i, rules) for i in range(action_count(rules))]
        blocks = {text for text in texts if " below " in text or " above " in text}
        assert count == len(blocks)
        assert blocks == every_run_lay_off(rules)

    def test_single_cards_onto_sets(self) -> None:
        assert "lay 2c on the set of twos" == id_text(448)
        assert "lay Ks on the set of kings" == id_text(448 + 50)
        assert "lay X4 on the set of jokers" == id_text(503)

    def test_the_ids_of_a_low_ace(self) -> None:
        assert ["meld Ac 2c 3c", "meld As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"] == [id_text(944, LOW), id_text(983, LOW)]
        assert ["lay Ac below 2c", "lay Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc below Jc"] == [
            id_text(984, LOW),
            id_text(993, LOW),
        ]
        assert ["lay 4c above 3c", "lay 4s 5s 6s 7s 8s 9s Ts Js Qs Ks above 3s"] == [
            id_text(994, LOW),
            id_text(1063, LOW),
        ]

    @given(rules_variants())
    def test_ids_below_944_mean_the_same_under_every_variant(self, rules: Rules) -> None:
        assert [id_text(i) for i in range(944)] == [id_text(i, rules) for i in range(944)]


def is_set(text: str) -> bool:
    return meld_kind(cards_of(text), LOW) is MeldKind.SET


def cards_of(text: str) -> CardSet:
    """
    The cards named in an id's text, the table card of a lay-off left out.
    """
    words = text.split()
    cut = next((k for k, word in enumerate(words) if word in {"below", "above", "on"}), len(words))
    return CardSet.parse(" ".join(words[1:cut]))


def every_meld(rules: Rules) -> set[CardSet]:
    """
    Every meld under *rules*, found by trying every group of three or four of a rank and every
    group of consecutive ranks of a suit with `is_meld`.
    """
    found = {
        CardSet(group)
        for rank in [*Rank]
        for size in (3, 4)
        for group in itertools.combinations([card for card in FULL_DECK if card.rank is rank], size)
        if is_meld(CardSet(group), rules)
    }
    for suit in {card.suit for card in FULL_DECK[:52]}:
        row = [card for card in FULL_DECK if card.suit is suit]
        found |= {CardSet(row[a:b]) for a in range(13) for b in range(a + 3, 14) if is_meld(CardSet(row[a:b]), rules)}
        low = [row[12], *row[:12]]
        found |= {CardSet(low[:b]) for b in range(3, 13) if is_meld(CardSet(low[:b]), rules)}
    return found


def every_run_lay_off(rules: Rules) -> set[str]:
    """
    The texts of every lay-off onto every run under *rules*: the blocks of consecutive cards
    of the run's suit (the ace high; or low, under A8) that the run accepts (`TableMeld.with_layoff`).
    """
    texts: set[str] = set()
    for cards in every_meld(rules):
        if meld_kind(cards, rules) is not MeldKind.RUN:
            continue
        run = TableMeld(0, cards, ace_low=rules.ace_low_allowed)
        row = [card for card in FULL_DECK if card.suit is next(iter(cards)).suit]
        for order in (row, [row[12], *row[:12]]) if rules.ace_low_allowed else (row,):
            for a, b in itertools.combinations(range(14), 2):
                block = CardSet(order[a:b])
                if block.isdisjoint(cards) and accepts(run, block):
                    texts.add(lay_off_meaning(block, run))
    return texts


def accepts(run: TableMeld, block: CardSet) -> bool:
    try:
        run.with_layoff(1, block)
    except InvalidValueError:
        return False
    return True


class TestGolden:
    """
    The ids never move: every id's text is in ``tests/data/action_ids.txt``, the default
    rules' 944 first, then the 120 of runs with a low ace (A8).
    """

    def test_the_golden_file_is_the_whole_space(self) -> None:
        assert GOLDEN.read_text(encoding="utf-8") == golden_text()

    def test_the_golden_file_has_one_line_per_id(self) -> None:
        lines = GOLDEN.read_text(encoding="utf-8").splitlines()
        assert 1069 == len(lines)
        assert [*map(str, range(1066)), "1066", "77627", "sha256"] == [line.split("\t")[0] for line in lines]
        assert len(lines) == len({line.split("\t")[1] for line in lines})


class TestBijection:
    """
    R13-R21: the legal actions of the seat to act are exactly the actions named by the legal
    ids, one id each, in a state and in that seat's view alike.
    """

    @given(played_states())
    def test_default_rules(self, state: GameState) -> None:
        self.check(state)

    @given(played_states(rules=rules_variants()))
    def test_rule_variants(self, state: GameState) -> None:
        self.check(state)

    @given(played_states(rules=LOW))
    def test_low_ace(self, state: GameState) -> None:
        self.check(state)

    def check(self, state: GameState) -> None:
        before = attrs.evolve(state)
        if state.is_chance_node:
            with pytest.raises(ChanceNodeError):
                legal_ids(state)
            with pytest.raises(ChanceNodeError):
                action_mask(state)
            with pytest.raises(ChanceNodeError):
                legal_actions_by_id(state)
            return
        if state.phase is Phase.GAME_OVER:
            assert {} == legal_actions_by_id(state)
            assert () == legal_ids(state)
            assert bytes(action_count(state.rules)) == action_mask(state)
            return
        ids = check_bijection(state)
        view = observe(state, state.to_act)
        assert ids == check_bijection(view)
        assert action_mask(state) == action_mask(view)
        assert before == state
        assert view == observe(state, state.to_act)

    @pytest.mark.once  # 58,000 decisions: the later Pythons' sessions check that the code runs
    def test_300_random_games(self) -> None:
        """
        150 seeded random games under the default rules and 150 with a low ace (A8): at every
        decision the legal ids name the legal actions one to one (their texts against what the
        actions do), and the action played goes to its id and back; the most legal actions at once.
        """
        most = {}
        seen: set[str] = set()
        for rules in (Rules(), LOW):
            largest = decisions = 0
            for seed in range(150):
                rng = random.Random(seed)  # noqa: S311 (reproducible play)
                state = new_game(rules, dealer=seed % 4)
                while state.phase is not Phase.GAME_OVER:
                    if state.is_chance_node:
                        state = apply(state, random_deal(state, rng))
                        continue
                    actions = legal_actions(state)
                    ids = legal_ids(state)
                    assert sorted(set(ids)) == list(ids)
                    assert sorted(id_text(i, rules) for i in ids) == sorted({meaning(a, state.melds) for a in actions})
                    action = rng.choice(actions)
                    assert action == action_from_id(action_id(action, state), state)
                    largest = max(largest, len(ids))
                    decisions += 1
                    seen.update(group_of(i) for i in ids)
                    state = apply(state, action)
            most[rules.ace_low_allowed] = (decisions, largest)
        assert {False: (29248, 34), True: (29389, 27)} == most
        assert {*DEFAULT_GROUPS, "a low ace"} == seen


class TestExamples:
    """
    R14, R17, A8: ids of a hand-written position.
    """

    def test_a_play_phase(self) -> None:
        state = position(
            hands=("5s 6s 7h Kh 9d", "", "", ""),
            melds=(meld(1, "7s 8s 9s"), meld(2, "Kc Kd Ks")),
            pile="4c",
            phase="play",
        )
        ids = legal_ids(state)
        assert [
            "discard 9d",
            "discard 7h",
            "discard Kh",
            "discard 5s",
            "discard 6s",
            "lay Kh on the set of kings",
            "lay 6s below 7s",
            "lay 5s 6s below 7s",
        ] == [id_text(i) for i in ids]
        assert LayOff(0, 0, "5s 6s") == action_from_id(ids[-1], state)
        assert LayOff(0, 1, "Kh") == action_from_id(ids[-3], state)

    def test_the_same_lone_ace_below_a_2_and_above_a_king_has_one_id(self) -> None:
        """
        A8: an ace extends a run from the 2 to the king at either end; it is one action, whose id is the high one.
        """
        state = position(
            hands=("Ah 5c", "", "", ""),
            melds=(low_meld(1, "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"),),
            pile="4c",
            phase="play",
            rules=LOW,
        )
        assert ["discard 5c", "discard Ah", "lay Ah above Kh"] == [id_text(i, LOW) for i in legal_ids(state)]
        assert LayOff(0, 0, "Ah") == action_from_id(833, state)
        with pytest.raises(IllegalActionError) as caught:
            action_from_id(1024, state)
        assert 1024 == caught.value.action
        assert (
            "action id 1024 (lay Ah below 2h) is the lay-off whose id is 833 (lay Ah above Kh)" == caught.value.reason
        )

    def test_a_low_ace_below_a_run(self) -> None:
        state = position(
            hands=("Ah 2h 9c", "", "", ""), melds=(low_meld(1, "3h 4h 5h"),), pile="4c", phase="play", rules=LOW
        )
        assert ["discard 9c", "discard 2h", "discard Ah", "lay 2h below 3h", "lay Ah 2h below 3h"] == [
            id_text(i, LOW) for i in legal_ids(state)
        ]
        assert LayOff(0, 0, "Ah 2h") == action_from_id(legal_ids(state)[-1], state)


class TestErrors:
    """
    Bad ids, positions and actions raise the library's errors, naming the id.
    """

    def test_an_id_outside_the_space(self) -> None:
        state = decision(1)
        with pytest.raises(InvalidValueError, match=r"^action id 944 is outside the action space, 0 to 943$"):
            action_from_id(944, state)
        with pytest.raises(InvalidValueError, match=r"^action id -1 is outside the action space, 0 to 943$"):
            action_from_id(-1, state)
        with pytest.raises(InvalidValueError, match=r"^action id 1064 is outside the action space, 0 to 1063$"):
            id_text(1064, LOW)

    @pytest.mark.parametrize("value", ["3", 3.0, True, None])
    def test_an_id_that_is_not_an_integer(self, value: object) -> None:
        with pytest.raises(InvalidTypeError, match=r"^an action id must be an int, got "):
            action_from_id(value, decision(1))  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^an action id must be an int, got "):
            id_text(value)  # type: ignore[arg-type]

    def test_an_integer_of_another_type_is_taken(self) -> None:
        class Index:
            def __index__(self) -> int:
                return 0

        assert "draw from the stock" == id_text(Index())  # type: ignore[arg-type]
        assert DrawStock(1) == action_from_id(Index(), decision(1, steps=1))  # type: ignore[arg-type]

    def test_an_id_not_legal_here(self) -> None:
        state = position(hands=("5s 6s 9d", "", "", ""), melds=(meld(1, "7s 8s 9s"),), pile="4c", phase="play")
        with pytest.raises(IllegalActionError) as caught:
            action_from_id(2, state)
        assert 2 == caught.value.action
        assert ("R13",) == caught.value.rule
        assert (
            "action id 2 (take 2c) is not legal here: seat 0 has drawn already; "
            "taking from the discard pile is not possible now" == caught.value.reason
        )
        with pytest.raises(IllegalActionError, match=r"^illegal action 69: action id 69 \(discard Kc\) .*\(R18\)$"):
            action_from_id(69, state)
        with pytest.raises(IllegalActionError, match=r"no meld on the table holds 3c \(R17\)$"):
            action_from_id(504, state)
        with pytest.raises(IllegalActionError, match=r"there is no set of kings on the table \(R17\)$"):
            action_from_id(498, state)

    def test_the_view_gives_the_reason_the_state_gives(self) -> None:
        state = position(hands=("5s 6s 9d", "", "", ""), melds=(meld(1, "7s 8s 9s"),), pile="4c", phase="play")
        for i in (0, 1, 2, 69, 200, 504, 559):
            with pytest.raises(IllegalActionError) as by_state:
                action_from_id(i, state)
            with pytest.raises(IllegalActionError) as by_view:
                action_from_id(i, observe(state, 0))
            assert str(by_state.value) == str(by_view.value)

    def test_a_chance_node(self) -> None:
        state = new_game()
        with pytest.raises(ChanceNodeError, match=r"^action id 0 names no action here: the next action is a Deal"):
            action_from_id(0, state)
        with pytest.raises(ChanceNodeError):
            legal_ids(state)
        with pytest.raises(ChanceNodeError):
            action_mask(state)
        with pytest.raises(ChanceNodeError):
            action_id(DrawStock(1), state)

    def test_the_end_of_the_game(self) -> None:
        state = decision(3, steps=10_000)
        assert Phase.GAME_OVER is state.phase
        assert () == legal_ids(state)
        assert bytes(944) == action_mask(state)
        with pytest.raises(
            IllegalActionError,
            match=r"^illegal action 0: action id 0 \(draw from the stock\) is not legal here: the game is over \(R27\)",
        ):
            action_from_id(0, state)
        with pytest.raises(IllegalActionError, match=r"the game is over \(R27\)$"):
            action_id(DrawStock(0), state)

    def test_an_illegal_action_gets_the_engines_reason(self) -> None:
        state = decision(1, steps=1)
        with pytest.raises(IllegalActionError, match=r"it is seat 1's turn, not seat 2's \(R6\)$"):
            action_id(DrawStock(2), state)
        with pytest.raises(IllegalActionError, match=r"it is seat 1's turn, not seat 2's \(R6\)$"):
            action_id(DrawStock(2), observe(state, 1))

    def test_wrong_types(self) -> None:
        state = decision(1, steps=1)
        with pytest.raises(InvalidTypeError, match=r"^action must be a player's action"):
            action_id(Deal(0, FULL_DECK), state)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^position must be a GameState or a View, got "):
            action_from_id(0, "state")  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^state must be a GameState or a View, got "):
            legal_ids("state")  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match=r"^rules must be a Rules, got "):
            action_count("default")  # type: ignore[arg-type]

    def test_another_seats_view(self) -> None:
        state = decision(1, steps=1)
        with pytest.raises(ViewError):
            legal_ids(observe(state, 0))
        with pytest.raises(ViewError):
            action_from_id(0, observe(state, None))


def _write_golden() -> None:  # pragma: no cover
    GOLDEN.write_text(golden_text(), encoding="utf-8")
    sys.stdout.write(f"wrote {action_count(WIDEST)} ids to {GOLDEN}\n")


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_actionids --write")
    _write_golden()
