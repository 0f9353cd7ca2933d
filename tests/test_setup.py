"""
Setup: seats and teams (R1), the draw for partners and first dealer (R4, R5, A1-A3), the deal
(R7, A5, A25), the first turn and turn order (R6, R8), the upcard (A6) and `new_game()`.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import pytest

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    ChanceNodeError,
    Deal,
    Discard,
    DrawStock,
    GameState,
    IllegalActionError,
    InvalidTypeError,
    InvalidValueError,
    LayDown,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    legal_actions,
    new_game,
)
from persian_rummy.rules import TeamDrawTiebreak
from persian_rummy.scoring import team_of
from persian_rummy.seating import Redraw, Seating, draw_rank, team_draw
from persian_rummy.state import next_dealer
from tests.positions import cards, deck_for, forged


def drawn(text: str) -> list[Card]:
    return list(cards(text))


def card(text: str) -> Card:
    return Card.parse(text)


def hands_of(state: GameState) -> list[str]:
    return [str(hand) for hand in state.hands]


def illegal(state: GameState, action: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    return caught.value


class TestSeatsAndTeams:
    """
    R1: "Exactly 4 players in 2 fixed teams of 2. Partners sit opposite." Seats 0-3 clockwise;
    teams = {0, 2} and {1, 3}.
    """

    def test_r1_team_of_each_seat(self) -> None:
        assert [0, 1, 0, 1] == [team_of(seat) for seat in range(4)]

    def test_r1_partners_sit_opposite(self) -> None:
        assert [2, 3, 0, 1] == [
            next(other for other in range(4) if other != seat and team_of(other) == team_of(seat)) for seat in range(4)
        ]

    def test_r1_a_dealt_game_has_four_hands(self) -> None:
        state = apply(new_game(), Deal(0, FULL_DECK))
        assert 4 == len(state.hands)


class TestTeamDraw:
    """
    R4: "Each player draws one card [...] Aces are low and Jokers high: A < 2 < … < K < Joker. The
    holders of the two lowest cards are partners." R5: "The player with the very lowest draw deals
    first." A2: the first dealer sits at seat 0, the partner at seat 2, the lower of the other two at
    seat 1 (the dealer's left).
    """

    @pytest.mark.parametrize(
        ("text", "value"),
        [
            ("Ac", 1),
            ("2d", 2),
            ("3h", 3),
            ("4s", 4),
            ("5c", 5),
            ("6d", 6),
            ("7h", 7),
            ("8s", 8),
            ("9c", 9),
            ("Td", 10),
            ("Jh", 11),
            ("Qs", 12),
            ("Kc", 13),
            ("X1", 14),
            ("X4", 14),
        ],
    )
    def test_r4_draw_rank_aces_low_jokers_high(self, text: str, value: int) -> None:
        assert value == draw_rank(card(text))

    def test_r4_r5_the_doc_example(self) -> None:
        """
        R4, R5: A deals (player 1, seat 0), 4 is the partner (player 3, seat 2), 9 plays first (seat 1).
        """
        assert Seating((1, 0, 3, 2)) == team_draw(drawn("9c Ah Kd 4s"))

    def test_r4_r5_lowest_two_are_partners_and_lowest_deals(self) -> None:
        assert Seating((0, 1, 2, 3)) == team_draw(drawn("2c 7d 3h Ks"))

    def test_r4_the_ace_is_lowest(self) -> None:
        """
        R4: the ace beats even a 2 to the lowest place.
        """
        assert Seating((3, 2, 0, 1)) == team_draw(drawn("2c Kd Qh As"))

    def test_r4_jokers_are_highest(self) -> None:
        """
        R4: a joker is above a king: the queen and the king are the lowest pair here.
        """
        assert Seating((3, 0, 1, 2)) == team_draw(drawn("X1 Kd X2 Qs"))

    def test_r4_a2_seats_from_the_ranking(self) -> None:
        """
        A2: lowest at seat 0, second lowest at seat 2, third at seat 1, fourth at seat 3.
        """
        assert Seating((3, 1, 2, 0)) == team_draw(drawn("Kc 5d 3h 2s"))

    def test_r4_suits_are_ignored(self) -> None:
        assert Seating((0, 1, 2, 3)) == team_draw(drawn("2s 7c 3s Kc"))

    def test_a1_a_tie_for_the_higher_pair_is_ignored(self) -> None:
        """
        A1: a tie between the 3rd and 4th cards decides nothing; player number breaks it.
        """
        assert Seating((0, 2, 1, 3)) == team_draw(drawn("Ac 2d 9h 9s"))
        assert Seating((0, 1, 3, 2)) == team_draw(drawn("Ac 9h 9s 2d"))

    def test_a1_two_jokers_on_top_decide_nothing(self) -> None:
        assert Seating((2, 0, 3, 1)) == team_draw(drawn("X1 X2 2c 3c"))

    def test_a1_a_tie_for_lowest_needs_a_redraw(self) -> None:
        """
        A1: tied for lowest: partners either way, but who deals is open.
        """
        assert Redraw((0, 1)) == team_draw(drawn("5c 5d Kh Ks"))

    def test_a1_a_tie_across_second_and_third_needs_a_redraw(self) -> None:
        """
        A1: the partnerships are open.
        """
        assert Redraw((1, 2)) == team_draw(drawn("Ac 5d 5h Ks"))

    def test_a1_a_three_way_tie_above_the_dealer_needs_a_redraw(self) -> None:
        assert Redraw((1, 2, 3)) == team_draw(drawn("Ac 9d 9h 9s"))

    def test_a1_a_three_way_tie_for_lowest(self) -> None:
        assert Redraw((0, 1, 2)) == team_draw(drawn("5c 5d 5h Ks"))

    def test_a1_a_four_way_tie(self) -> None:
        assert Redraw((0, 1, 2, 3)) == team_draw(drawn("9c 9d 9h 9s"))
        assert Redraw((0, 1, 2, 3)) == team_draw(drawn("X1 X2 X3 X4"))

    def test_a1_redraw_settles_the_tie(self) -> None:
        """
        A1: players 0 and 2 tie for lowest; in the redraw player 2's 3 beats player 0's queen.
        """
        tie = drawn("5c Ah 5d Ks")
        assert Redraw((0, 2)) == team_draw(tie)
        assert Seating((1, 0, 2, 3)) == team_draw(tie, {0: card("Qh"), 2: card("3c")})

    def test_a1_redraw_decides_only_among_the_tied_players(self) -> None:
        """
        A1: a redrawn king does not move player 1 above player 3's original king; the other places stand.
        """
        tie = drawn("Ac 5d 5h Ks")
        assert Seating((0, 1, 2, 3)) == team_draw(tie, {1: card("Kc"), 2: card("2c")})
        assert Seating((0, 2, 1, 3)) == team_draw(tie, {1: card("2c"), 2: card("Kc")})

    def test_a1_a_tied_redraw_needs_another_round(self) -> None:
        tie = drawn("5c Ah 5d Ks")
        first = {0: card("3h"), 2: card("3d")}
        assert Redraw((0, 2)) == team_draw(tie, first)
        assert Seating((1, 2, 0, 3)) == team_draw(tie, first, {0: card("4c"), 2: card("9s")})

    def test_a1_a_redraw_can_narrow_the_tie(self) -> None:
        """
        A1: three tie for lowest; the redraw finds the dealer, and the two left tie across 2nd/3rd.
        """
        tie = drawn("5c 5d 5h Ks")
        first = {0: card("9c"), 1: card("2c"), 2: card("9d")}
        assert Redraw((0, 2)) == team_draw(tie, first)
        assert Seating((1, 2, 0, 3)) == team_draw(tie, first, {0: card("3c"), 2: card("4c")})

    def test_a1_a_redraw_that_leaves_the_order_open_asks_again(self) -> None:
        """
        A1: a redraw round that omits a tied player cannot settle the tie.
        """
        assert Redraw((0, 1)) == team_draw(drawn("5c 5d Kh Ks"), {0: card("2c")})

    def test_a1_suit_order_breaks_ties_without_redraw(self) -> None:
        """
        A1 variant: clubs < diamonds < hearts < spades.
        """
        assert Seating((0, 2, 1, 3)) == team_draw(drawn("5c 5d Kh Ks"), tiebreak="suit_order")
        assert Seating((1, 2, 0, 3)) == team_draw(drawn("5d 5c Kh Ks"), tiebreak=TeamDrawTiebreak.SUIT_ORDER)
        assert Seating((0, 1, 2, 3)) == team_draw(drawn("Ac 5s 5h Ks"), tiebreak="suit_order")

    def test_a1_suit_order_puts_jokers_in_number_order(self) -> None:
        assert Seating((2, 1, 3, 0)) == team_draw(drawn("X2 X1 Ac 2c"), tiebreak="suit_order")
        assert Seating((3, 2, 1, 0)) == team_draw(drawn("X4 X2 X3 X1"), tiebreak="suit_order")

    def test_a1_suit_order_agrees_with_redraw_when_there_is_no_tie(self) -> None:
        draw = drawn("9c Ah Kd 4s")
        assert team_draw(draw) == team_draw(draw, tiebreak="suit_order")

    def test_a1_the_default_tiebreak_is_redraw(self) -> None:
        assert TeamDrawTiebreak.REDRAW == Rules().team_draw_tiebreak
        assert Redraw((0, 1)) == team_draw(drawn("5c 5d Kh Ks"), tiebreak="redraw")

    @pytest.mark.parametrize("text", ["9c Ah Kd", "9c Ah Kd 4s 2c", ""])
    def test_r4_the_draw_needs_four_cards(self, text: str) -> None:
        with pytest.raises(ValueError, match="one card per player, four in all"):
            team_draw(drawn(text))

    def test_r4_the_draw_needs_four_distinct_cards(self) -> None:
        with pytest.raises(ValueError, match="the same card twice"):
            team_draw(drawn("9c Ah 9c 4s"))

    def test_r4_the_draw_holds_cards(self) -> None:
        assert team_draw(drawn("9c Ah Kd 4s")) == team_draw(["9c", "Ah", "Kd", "4s"])
        with pytest.raises(InvalidTypeError, match="a card is a Card or its notation, got 9"):
            team_draw([9, 14, 13, 4])  # type: ignore[list-item]
        with pytest.raises(InvalidTypeError, match="the draw must hold cards, got '9c Ah Kd 4s'"):
            team_draw("9c Ah Kd 4s")

    def test_a1_a_redraw_names_players_0_to_3(self) -> None:
        with pytest.raises(ValueError, match="names players other than 0-3"):
            team_draw(drawn("5c 5d Kh Ks"), {0: card("2c"), 4: card("3c")})

    def test_a1_a_redraw_round_has_distinct_cards(self) -> None:
        with pytest.raises(ValueError, match="the same card twice"):
            team_draw(drawn("5c 5d Kh Ks"), {0: card("2c"), 1: card("2c")})

    def test_a1_an_unknown_tiebreak_is_refused(self) -> None:
        with pytest.raises(ValueError, match="'coin'"):
            team_draw(drawn("9c Ah Kd 4s"), tiebreak="coin")


class TestNewGame:
    """
    R5 / A3: the game starts with the first dealer to deal; nothing is dealt yet (a chance node).
    """

    def test_r5_new_game_contents(self) -> None:
        state = new_game()
        empty = (CardSet(), CardSet(), CardSet(), CardSet())
        assert Rules() == state.rules
        assert Phase.DEAL == state.phase
        assert (0, 0, None) == (state.deal, state.dealer, state.to_act)
        assert empty == state.hands
        assert FULL_DECK == state.stock
        assert () == state.discard_pile
        assert () == state.melds
        assert state.obligation is None
        assert CardSet() == state.picked
        assert empty == state.known
        assert 0 == state.passes
        assert state.went_out is None
        assert () == state.results
        assert (0, 0) == state.scores
        assert state.is_chance_node is True

    @pytest.mark.parametrize("dealer", [0, 1, 2, 3])
    def test_r5_the_first_dealer(self, dealer: int) -> None:
        state = new_game(dealer=dealer)
        assert (dealer, dealer) == (state.dealer, next_dealer(state))

    def test_r5_new_game_with_rules(self) -> None:
        rules = Rules(hand_size=10, num_deals=3)
        assert rules == new_game(rules).rules

    @pytest.mark.parametrize(
        ("dealer", "error"),
        [
            (-1, InvalidValueError),
            (4, InvalidValueError),
            (True, InvalidTypeError),
            ("0", InvalidTypeError),
            (None, InvalidTypeError),
        ],
    )
    def test_r5_the_dealer_is_a_seat(self, dealer: object, error: type[Exception]) -> None:
        with pytest.raises(error, match="dealer must be a seat 0-3"):
            new_game(dealer=dealer)  # type: ignore[arg-type]

    def test_r27_the_rules_are_rules(self) -> None:
        with pytest.raises(InvalidTypeError, match="rules must be a Rules or None, got 2"):
            new_game(2)  # type: ignore[arg-type]

    def test_r7_the_start_is_a_chance_node(self) -> None:
        with pytest.raises(ChanceNodeError, match="Deal by seat 2"):
            legal_actions(new_game(dealer=2))

    def test_r5_new_games_are_equal_values(self) -> None:
        assert new_game() == new_game()
        assert hash(new_game()) == hash(new_game())
        assert new_game(dealer=1) != new_game()


class TestDeal:
    """
    R7 / A5 / A25: seven cards each, dealt one at a time clockwise from the dealer's left; the next
    card is turned up to start the discard pile (1 card); the rest (27 cards) is the stock.
    """

    def test_r7_a25_exact_hands_from_the_full_deck_order(self) -> None:
        """
        A25: with the deck in `FULL_DECK` order and seat 0 dealing, seat 1 gets cards 0, 4, 8, ...
        """
        state = apply(new_game(), Deal(0, FULL_DECK))
        assert [
            "5c 9c Kc 4d 8d Qd 3h",
            "2c 6c Tc Ac 5d 9d Kd",
            "3c 7c Jc 2d 6d Td Ad",
            "4c 8c Qc 3d 7d Jd 2h",
        ] == hands_of(state)
        assert (card("4h"),) == state.discard_pile
        assert FULL_DECK[29:] == state.stock

    def test_r7_a5_counts(self) -> None:
        state = apply(new_game(), Deal(0, FULL_DECK))
        assert [7, 7, 7, 7] == [len(hand) for hand in state.hands]
        assert (27, 1) == (len(state.stock), len(state.discard_pile))

    def test_r7_the_stock_keeps_the_deck_order_next_card_first(self) -> None:
        state = apply(new_game(), Deal(0, FULL_DECK))
        assert "5h 6h 7h" == " ".join(str(c) for c in state.stock[:3])
        after = apply(state, DrawStock(1))
        assert card("5h") in after.hands[1]
        assert FULL_DECK[30:] == after.stock

    def test_r7_a25_the_first_card_goes_to_the_dealers_left(self) -> None:
        state = apply(new_game(dealer=2), Deal(2, FULL_DECK))
        assert [
            "3c 7c Jc 2d 6d Td Ad",
            "4c 8c Qc 3d 7d Jd 2h",
            "5c 9c Kc 4d 8d Qd 3h",
            "2c 6c Tc Ac 5d 9d Kd",
        ] == hands_of(state)

    def test_r7_a_reversed_deck(self) -> None:
        state = apply(new_game(dealer=3), Deal(3, FULL_DECK[::-1]))
        assert [
            "7h Jh 2s 6s Ts As X4",
            "6h Th Ah 5s 9s Ks X3",
            "5h 9h Kh 4s 8s Qs X2",
            "4h 8h Qh 3s 7s Js X1",
        ] == hands_of(state)
        assert (card("3h"),) == state.discard_pile
        assert card("2h") == state.stock[0]

    def test_r7_deck_for_deals_the_hands_it_is_given(self) -> None:
        hands = ["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d", "2h 3h 4h 5h 6h 7h 8h", "2s 3s 4s 5s 6s 7s 8s"]
        state = apply(new_game(dealer=1), deck_for(hands, upcard="X1", stock="Ah", dealer=1))
        assert hands == hands_of(state)
        assert (card("X1"),) == state.discard_pile
        assert card("Ah") == state.stock[0]

    @pytest.mark.parametrize(("size", "stock"), [(1, 51), (5, 35), (7, 27), (10, 15), (13, 3)])
    def test_a5_hand_size_variant(self, size: int, stock: int) -> None:
        state = apply(new_game(Rules(hand_size=size)), Deal(0, FULL_DECK))
        assert [size] * 4 == [len(hand) for hand in state.hands]
        assert (stock, 1) == (len(state.stock), len(state.discard_pile))
        assert (FULL_DECK[4 * size],) == state.discard_pile

    def test_a5_ten_cards_each(self) -> None:
        state = apply(new_game(Rules(hand_size=10)), Deal(0, FULL_DECK))
        assert [
            "5c 9c Kc 4d 8d Qd 3h 7h Jh 2s",
            "2c 6c Tc Ac 5d 9d Kd 4h 8h Qh",
            "3c 7c Jc 2d 6d Td Ad 5h 9h Kh",
            "4c 8c Qc 3d 7d Jd 2h 6h Th Ah",
        ] == hands_of(state)
        assert (card("3s"),) == state.discard_pile

    @pytest.mark.parametrize("size", [0, 14, -7])
    def test_a5_hand_size_range(self, size: object) -> None:
        with pytest.raises(ValueError, match="hand_size must be between 1 and 13"):
            Rules(hand_size=size)  # type: ignore[arg-type]

    @pytest.mark.parametrize("size", [True, "7", 7.0])
    def test_a5_hand_size_is_an_int(self, size: object) -> None:
        with pytest.raises(TypeError, match="hand_size must be an int"):
            Rules(hand_size=size)  # type: ignore[arg-type]

    def test_r7_the_deal_starts_deal_1_at_the_draw(self) -> None:
        state = apply(new_game(), Deal(0, FULL_DECK))
        assert (Phase.DRAW, 1, 0, 1) == (state.phase, state.deal, state.dealer, state.to_act)
        assert () == state.melds
        assert () == state.results
        assert state.is_chance_node is False

    def test_r7_apply_leaves_the_new_game_unchanged(self) -> None:
        start = new_game()
        apply(start, Deal(0, FULL_DECK))
        assert new_game() == start
        assert Phase.DEAL == start.phase

    def test_r7_deal_accepts_a_list_or_notation(self) -> None:
        from_tuple = apply(new_game(), Deal(0, FULL_DECK))
        assert from_tuple == apply(new_game(), Deal(0, list(FULL_DECK)))
        assert from_tuple == apply(new_game(), Deal(0, " ".join(str(c) for c in FULL_DECK)))


class TestDealErrors:
    """
    R5 / R7 / R2: a deal is made by the right dealer, at the start of a deal, with all 56 cards once each.
    """

    @pytest.mark.parametrize("seat", [1, 2, 3, -1, 4])
    def test_r5_the_first_deal_belongs_to_the_first_dealer(self, seat: int) -> None:
        # A seat outside 0-3 cannot be built: forged past the checks, apply refuses it too.
        error = illegal(new_game(), Deal(seat, FULL_DECK) if 0 <= seat <= 3 else forged(Deal(0, FULL_DECK), seat=seat))
        assert "R5" == error.rule_text
        assert f"seat 0 deals this deal, not seat {seat}" == error.reason

    def test_r7_no_deal_during_a_deal(self) -> None:
        state = apply(new_game(), Deal(0, FULL_DECK))
        error = illegal(state, Deal(1, FULL_DECK))
        assert ("R7", "cards are dealt only at the start of a deal, not in phase 'draw'") == (
            error.rule_text,
            error.reason,
        )

    def test_r7_no_deal_in_the_play_phase(self) -> None:
        state = apply(apply(new_game(), Deal(0, FULL_DECK)), DrawStock(1))
        assert "R7" == illegal(state, Deal(1, FULL_DECK)).rule_text

    def test_r2_the_deck_needs_56_cards(self) -> None:
        error = illegal(new_game(), forged(Deal(0, FULL_DECK), deck=FULL_DECK[:55]))
        assert ("R2", "the deck must hold 56 cards") == (error.rule_text, error.reason)
        assert "R2" == illegal(new_game(), forged(Deal(0, FULL_DECK), deck=(*FULL_DECK, FULL_DECK[0]))).rule_text
        with pytest.raises(InvalidValueError, match="deck must hold each of the 56 cards once, got 55 cards"):
            Deal(0, FULL_DECK[:55])

    def test_r2_the_deck_is_a_permutation(self) -> None:
        deck = (*FULL_DECK[:55], FULL_DECK[0])
        error = illegal(new_game(), forged(Deal(0, FULL_DECK), deck=deck))
        assert ("R2", "the deck lacks X4: every card must appear once") == (error.rule_text, error.reason)

    def test_r2_the_deck_holds_cards(self) -> None:
        deck = (*FULL_DECK[:55], "X4")
        error = illegal(new_game(), forged(Deal(0, FULL_DECK), deck=deck))
        assert ("R2", "the deck holds 'X4', which is not a card") == (error.rule_text, error.reason)
        assert Deal(0, FULL_DECK) == Deal(0, (*FULL_DECK[:55], "X4"))  # notation is read when the deal is built

    def test_r2_bad_deck_notation_is_refused(self) -> None:
        with pytest.raises(ValueError, match="not a card"):
            Deal(0, "2c 3c zz")

    def test_r7_the_deal_errors_leave_the_state_unchanged(self) -> None:
        start = new_game()
        illegal(start, forged(Deal(0, FULL_DECK), deck=FULL_DECK[:10]))
        assert new_game() == start


class TestFirstTurnAndOrder:
    """
    R6 / R8: "Starting with the player on the dealer's left" play proceeds clockwise.
    """

    @pytest.mark.parametrize(("dealer", "first"), [(0, 1), (1, 2), (2, 3), (3, 0)])
    def test_r8_the_first_player_is_the_dealers_left(self, dealer: int, first: int) -> None:
        state = apply(new_game(dealer=dealer), Deal(dealer, FULL_DECK))
        assert first == state.to_act
        assert [DrawStock(first)] == [a for a in legal_actions(state) if isinstance(a, DrawStock)]

    @pytest.mark.parametrize("dealer", [0, 3])
    def test_r6_turns_go_clockwise(self, dealer: int) -> None:
        state = apply(new_game(dealer=dealer), Deal(dealer, FULL_DECK))
        seats = []
        for _ in range(9):
            seat = state.to_act
            assert seat is not None
            seats.append(seat)
            top = state.stock[0]
            state = apply(apply(state, DrawStock(seat)), Discard(seat, top))
        assert [(dealer + 1 + k) % 4 for k in range(9)] == seats
        assert [7, 7, 7, 7] == [len(hand) for hand in state.hands]
        assert (18, 10) == (len(state.stock), len(state.discard_pile))

    def test_r6_only_the_seat_to_act_may_draw(self) -> None:
        state = apply(new_game(), Deal(0, FULL_DECK))
        for seat in (0, 2, 3):
            error = illegal(state, DrawStock(seat))
            assert ("R6", f"it is seat 1's turn, not seat {seat}'s") == (error.rule_text, error.reason)

    def test_r6_only_the_seat_to_act_may_discard(self) -> None:
        state = apply(apply(new_game(), Deal(0, FULL_DECK)), DrawStock(1))
        assert "R6" == illegal(state, Discard(2, "3c")).rule_text


class TestUpcard:
    """
    A6: no special upcard: "the upcard is an ordinary discard-pile card; first player may take it only
    under R15 (e.g. a Joker upcard needs two Jokers in hand or a Joker set on the table)".
    """

    HANDS = ("2c 3c 4c 5c 6c 7c 8c", "2d 4d 6d 8d Td Qd Ad", "2h 3h 4h 5h 6h 7h 8h", "2s 3s 4s 5s 6s 7s 8s")

    def test_a6_a_joker_upcard_cannot_be_taken_without_two_jokers(self) -> None:
        state = apply(new_game(), deck_for(self.HANDS, upcard="X1"))
        assert TakeDiscard(1, "X1") not in legal_actions(state)
        assert [DrawStock(1)] == list(legal_actions(state))
        error = illegal(state, TakeDiscard(1, "X1"))
        assert ("R15, A12", "X1 cannot be melded or laid off at once, so it may not be taken") == (
            error.rule_text,
            error.reason,
        )

    def test_a6_a_joker_upcard_can_be_taken_with_two_jokers(self) -> None:
        hands = (self.HANDS[0], "X2 X3 6d 8d Td Qd Ad", *self.HANDS[2:])
        state = apply(new_game(), deck_for(hands, upcard="X1"))
        assert [DrawStock(1), TakeDiscard(1, "X1")] == list(legal_actions(state))
        taken = apply(state, TakeDiscard(1, "X1"))
        assert card("X1") == taken.obligation
        assert [LayDown(1, "X1 X2 X3")] == [a for a in legal_actions(taken) if isinstance(a, LayDown)]
        melded = apply(taken, LayDown(1, "X1 X2 X3"))
        assert CardSet.parse("X1 X2 X3") == melded.melds[0].cards
        assert () == melded.discard_pile

    def test_a6_a_natural_upcard_follows_r15_too(self) -> None:
        """
        A6 / R15: a 9d upcard goes with 8d and Td in seat 1's hand; a 3d would have nothing to go with.
        """
        hands = (self.HANDS[0], "2d 4d 8d Td Qd Ad Kc", *self.HANDS[2:])
        usable = apply(new_game(), deck_for(hands, upcard="9d"))
        assert TakeDiscard(1, "9d") in legal_actions(usable)
        unusable = apply(new_game(), deck_for(hands, upcard="9s"))
        assert TakeDiscard(1, "9s") not in legal_actions(unusable)
