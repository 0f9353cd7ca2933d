"""
Pictures of the game (`persian_rummy.pictures`): positions written as text, and cards, melds,
states and views drawn in SVG.

* the text of hand-built positions, exactly: whose turn and what to do (R13, R14, R21), the card
  to play (R15), the melds with who laid down and laid off what (R17), doubled sets (R25), runs
  with a low ace (A8), the pile with its top, the stock, the scores (R24, R28);
* the text of a view shows what its seat sees and nothing more;
* every SVG document parses as XML in the SVG namespace and shows each card of a state once, and
  of a view exactly the cards the view shows;
* the pictures of a view do not change when the cards it hides are dealt again (`determinize`);
* cards, card sets and melds show themselves in a notebook;
* the pictures of the documentation are those the library draws.
"""

# Assertions put the expected value first: assert expected == actual.

from __future__ import annotations

import importlib.util
import io
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from persian_rummy import (
    FULL_DECK,
    Card,
    CardSet,
    GameRecord,
    GameState,
    InvalidNotationError,
    InvalidTypeError,
    Phase,
    Rules,
    TableMeld,
    View,
    determinize,
    format_position,
    from_json,
    new_game,
    observe,
    parse_position,
    replay,
)
from persian_rummy.pictures import card_legend, render_svg, render_text, symbols_fit
from tests.positions import meld, position
from tests.strategies import played_states, rules_variants, seeds

SVG = "{http://www.w3.org/2000/svg}"
DATA = Path(__file__).parent / "data"
DOCS = Path(__file__).resolve().parents[1] / "docs"
#: The four seats and the public view.
SEATS: tuple[int | None, ...] = (None, 0, 1, 2, 3)
#: East must play the 9h it took from the discard pile with the Kc and the 4d above it (R15).
MIDGAME = parse_position(
    "- 1/N play E 2d5d9dKdAs/Kc4d7d3h9hThJh2s/2c7cAc6d5h6s7s/8c9c3d8d2h4sKsX4 TcJcJd4h6h7h8hKhAh5s 3sTdAd "
    "S:QcQdQs+E:Qh,W:3c4c5c+N:6c,N:X1X2X3,E:8s9sTsJs 9h Kc4d9h -/Kc4d9h/-/- 0 - -"
)
CARD_TOKEN = re.compile(r"\b(?:[2-9TJQKA][cdhs]|X[1-4])\b")


def low_meld(owner: int, laid_down: str, **layoffs: str) -> TableMeld:
    """
    A table meld under rules that let a run take its ace low (A8), with lay-offs as `meld` takes them.
    """
    parts = [CardSet(), CardSet(), CardSet(), CardSet()]
    for key, text in layoffs.items():
        parts[int(key.removeprefix("s"))] = CardSet.parse(text)
    return TableMeld(owner, CardSet.parse(laid_down), parts, ace_low=True)


#: South to draw with the stock empty after two passes (R21); a run with a low ace (A8), four
#: kings laid down at once (R25) and lay-offs by both teams (R17); the rest of the cards in the pile.
EMPTY_STOCK = position(
    rules=Rules(ace_low_allowed=True),
    hands=("Ad As", "4h 5h 6h", "2c 3c", "Qh"),
    melds=(
        low_meld(1, "Ah 2h 3h"),
        low_meld(0, "Kc Kd Kh Ks"),
        low_meld(2, "X1 X2 X3", s3="X4"),
        low_meld(3, "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd"),
        low_meld(0, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs", s1="2s"),
    ),
    rest_to="pile",
    to_act=2,
    passes=2,
)


def lines(text: str) -> list[str]:
    assert text.endswith("\n")
    return text.splitlines()


def parse(document: str) -> ET.Element:
    """
    *document* read as XML: an ``svg`` element of the SVG namespace.
    """
    root = ET.fromstring(document)  # noqa: S314 (our own document)
    assert f"{SVG}svg" == root.tag
    assert {"width", "height", "viewBox"} <= set(root.attrib)
    return root


def faces(root: ET.Element) -> Counter[str]:
    """
    The cards drawn face up, by their notation, each as many times as it is drawn; each checked to
    show its rank and its suit as text (a joker its name and ``JOKER``) and to be named in its title.
    """
    shown: Counter[str] = Counter()
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "pr-card":
            continue
        card = Card.parse(group.get("data-card", ""))
        texts = [element.text for element in group.iter(f"{SVG}text")]
        if card.is_joker:
            assert [str(card), "★", "JOKER"] == texts
        else:
            assert [card.symbol[:-1], card.symbol[-1], card.symbol[-1]] == texts
        title = group.find(f"{SVG}title")
        assert title is not None
        assert f"{card.symbol} ({card})" == title.text
        shown[str(card)] += 1
    return shown


def backs(root: ET.Element) -> int:
    return sum(group.get("class") == "pr-back" for group in root.iter(f"{SVG}g"))


def tokens(text: str) -> set[str]:
    """
    The cards written in card notation in *text*, but the cards wild jokers stand for (``X1=8h``, A7),
    which are named, not shown.
    """
    return set(CARD_TOKEN.findall(re.sub(r"(X[1-4])=\S\S", r"\1", text)))


def seen(view: View) -> CardSet:
    return CardSet(FULL_DECK) - view.unseen


class TestTextOfAState:
    """
    R13: "Draw → meld (optional [...]) → discard one card, which ends the turn"; R15: "The target
    card [...] must be played in a meld immediately"; R17: "On an opposing team's meld the player
    announces the meld and keeps the card in front of themselves"; R21: "When the draw pile is
    empty a player has two choices: take from the discard pile [...] or pass".  The text of a state
    says whose turn it is and what to do, names the card to play, lists every hand sorted by suit,
    the melds with who laid down and laid off each card, the discard pile bottom to top with its top
    in brackets, the stock next card first, and the scores.
    """

    def test_a_turn_with_a_card_to_play(self) -> None:
        assert [
            "Deal 1 of 2, dealt by N",
            "E to lay down, lay off, then discard",
            "E must play 9♥ now, taken from the discard pile with K♣ 4♦ (R15)",
            "Score: N-S 0, E-W 0 (no deal finished)",
            "",
            "Hands:",
            "  N  5 cards: 2♦ 5♦ 9♦ K♦ A♠",
            "  E  8 cards: K♣ 4♦ 7♦ 3♥ 9♥ 10♥ J♥ 2♠ (known to all: K♣ 4♦ 9♥)",
            "  S  7 cards: 2♣ 7♣ A♣ 6♦ 5♥ 6♠ 7♠",
            "  W  8 cards: 8♣ 9♣ 3♦ 8♦ 2♥ 4♠ K♠ 🃏4",
            "",
            "Table:",
            "   1  Q♣ Q♦ Q♥ Q♠   set laid down by S; Q♥ laid off by E",
            "   2  3♣ 4♣ 5♣ 6♣   run laid down by W; 6♣ laid off by N",
            "   3  🃏1 🃏2 🃏3   set laid down by N",
            "   4  8♠ 9♠ 10♠ J♠  run laid down by E",
            "Discard pile (bottom to top): 3♠ 10♦ [A♦]",
            "Stock: 10 cards, next first: 10♣ J♣ J♦ 4♥ 6♥ 7♥ 8♥ K♥ A♥ 5♠",
        ] == lines(render_text(MIDGAME))

    def test_card_notation_instead_of_the_symbols(self) -> None:
        text = lines(render_text(MIDGAME, symbols=False))
        assert "E must play 9h now, taken from the discard pile with Kc 4d (R15)" == text[2]
        assert "  E  8 cards: Kc 4d 7d 3h 9h Th Jh 2s (known to all: Kc 4d 9h)" == text[7]
        assert ["   3  X1 X2 X3     set laid down by N", "   4  8s 9s Ts Js  run laid down by E"] == text[14:16]
        assert "Discard pile (bottom to top): 3s Td [Ad]" == text[16]

    def test_cards_taken_this_turn_once_the_card_is_played(self) -> None:
        state = position(
            hands=("", "Kc 4d", "", ""),
            pile="3s Td Ad",
            melds=(meld(1, "9h Th Jh"),),
            rest_to=0,
            to_act=1,
            phase=Phase.PLAY,
            picked="Kc 4d 9h",
            known=("", "Kc 4d", "", ""),
        )
        assert "E took K♣ 4♦ 9♥ from the discard pile this turn" == lines(render_text(state))[2]

    def test_an_empty_stock_passes_a_low_ace_and_four_at_once(self) -> None:
        """
        R21 and A17: passes in a row with an empty stock; A8: the ace of a low run comes first;
        R25: four kings laid down at once score double.
        """
        assert [
            "Deal 1 of 2, dealt by E",
            "S to take from the discard pile or pass (R21)",
            "Score: N-S 0, E-W 0 (no deal finished)",
            "",
            "Hands:",
            "  N  2 cards: Ad As",
            "  E  3 cards: 4h 5h 6h",
            "  S  2 cards: 2c 3c",
            "  W  1 card: Qh",
            "",
            "Table:",
            "   1  Ah 2h 3h                          run laid down by E",
            "   2  Kc Kd Kh Ks                       set laid down by N (four at once: doubled, R25)",
            "   3  X1 X2 X3 X4                       set laid down by S; X4 laid off by W",
            "   4  2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd  run laid down by W",
            "   5  2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs  run laid down by N; 2s laid off by E",
            "Discard pile (bottom to top): 4c 5c 6c 7c 8c 9c Tc Jc Qc Ac 7h 8h 9h Th [Jh]",
            "Stock: empty",
            "Passes in a row: 2 (R21)",
        ] == lines(render_text(EMPTY_STOCK, symbols=False))

    def test_a_draw_from_the_stock_or_the_pile(self) -> None:
        """
        R14: "Exactly one draw action per turn: either the top card of the stock, or any card of the
        [...] discard pile together with every card above it".
        """
        state = position(hands=("", "5c", "", ""), pile="Qd", rest_to=0, stock="Ah", to_act=1)
        text = lines(render_text(state, symbols=False))
        assert "E to draw from the stock or take from the discard pile (R14)" == text[1]
        assert ["Discard pile (bottom to top): [Qd]", "Stock: 1 card, next first: Ah"] == text[-2:]

    def test_a_draw_from_the_stock_alone(self) -> None:
        """
        R14: with the discard pile empty, the only draw is the stock's top card, and the status says so
        rather than offering a take.
        """
        state = position(hands=("", "5c", "", ""), pile="", rest_to=0, stock="Qd Ah", to_act=1)
        text = lines(render_text(state, symbols=False))
        assert "E to draw from the stock, the discard pile being empty (R14)" == text[1]

    def test_the_end_of_a_game(self) -> None:
        """
        R24: "For each team: + value of all cards its two players melded or laid off − value of all
        cards left in both partners' hands + 25 if one of its players went out"; R28: "After two
        deals the team with the higher cumulative total wins".
        """
        state = list(replay(from_json((DATA / "went_out.json").read_bytes(), GameRecord)))[-1]
        assert [
            "Deal 2 of 2, dealt by E",
            "The game is over: E-W win, 366 to 356 (deal 2: S went out)",
            "Score: N-S 356, E-W 366 (deal 1: N-S 86, E-W 247; deal 2: N-S 270, E-W 119)",
            "",
            "Hands:",
            "  N  2 cards: 3s 4s (known to all: 4s)",
            "  E  1 card: 4h",
            "  S  no cards",
            "  W  2 cards: 6d 8s (known to all: 6d)",
            "",
            "Table:",
            "   1  6c 7c 8c 9c Tc Jc Qc Kc  run laid down by E; 6c Tc Jc Qc laid off by N; Kc laid off by S",
            "   2  5c 5d 5h 5s              set laid down by S; 5s laid off by N",
            "   3  Kd Kh Ks                 set laid down by E",
            "   4  7d 8d 9d Td Jd Qd        run laid down by S; 7d 8d laid off by S; Qd laid off by W",
            (
                "   5  6h 7h 8h 9h Th Jh Qh     run laid down by S; 8h laid off by N; 6h laid off by E;"
                " 7h Qh laid off by W"
            ),
            "   6  Ac Ad Ah As              set laid down by S; As laid off by E",
            "   7  2c 3c 4c                 run laid down by E",
            "   8  X1 X2 X3 X4              set laid down by S; X4 laid off by E",
            "   9  2d 2h 2s                 set laid down by W",
            "Discard pile (bottom to top): 9s Qs 6s 3d 7s Js 4d [3h]",
            "Stock: 1 card, next first: Ts",
        ] == lines(render_text(state, symbols=False))

    def test_the_end_of_a_deal_and_a_drawn_game(self) -> None:
        """
        R22 and A17: a deal ends when all four players pass with the stock empty; A22: "Equal totals
        → the game is a draw".
        """
        states = list(replay(from_json((DATA / "passes.json").read_bytes(), GameRecord)))
        over = next(state for state in states if state.phase is Phase.DEAL_OVER)
        assert [
            "Deal 1 of 2, dealt by N",
            "Deal 1 is over: the players passed with the stock empty (this deal: N-S 34, E-W -1)",
            "Score: N-S 34, E-W -1 (after deal 1)",
        ] == lines(render_text(over))[:3]
        assert (
            "The game is over: a draw, 112 all (deal 2: the players passed with the stock empty)"
            == (lines(render_text(states[-1]))[1])
        )

    def test_before_the_first_deal_and_in_an_extra_deal(self) -> None:
        """
        R5: the first dealer deals; A22: with ``tie_break=extra_deal`` a game tied after two deals
        goes on to another deal.
        """
        assert ["Before the first deal", "W to deal"] == lines(render_text(new_game(dealer=3)))[:2]
        state = position(hands=("", "5c", "", ""), rest_to=0, to_act=1)
        assert "Deal 3, an extra deal (A22), dealt by N" == lines(render_text(_extra(state)))[0]

    def test_a_picture_is_of_a_state_or_a_view(self) -> None:
        with pytest.raises(InvalidTypeError, match="value must be a GameState or a View, got 'MIDGAME'"):
            render_text("MIDGAME")  # type: ignore[arg-type]


def _extra(state: GameState) -> GameState:
    """
    *state* in a third deal, after two deals tied at 0 under ``tie_break=extra_deal`` (A22).
    """
    fields = format_position(state).split(" ")
    fields[0], fields[1], fields[13] = "tie_break=extra_deal", "3/N", "0:0:p,0:0:p"
    return parse_position(" ".join(fields))


class TestTextOfAView:
    """
    R18 and the rules of hidden information (views): a seat sees its own hand, the size of every
    other hand and the cards everyone saw it take from the discard pile, the table, the pile and
    the size of the stock; the public view sees no hand.  A picture of a view writes no other card.
    """

    def test_the_view_of_a_seat(self) -> None:
        assert [
            "The game as S sees it",
            "Deal 1 of 2, dealt by N",
            "E to lay down, lay off, then discard",
            "E must play 9♥ now, taken from the discard pile with K♣ 4♦ (R15)",
            "Score: N-S 0, E-W 0 (no deal finished)",
            "",
            "Hands:",
            "  N        5 cards, unseen",
            "  E        8 cards: K♣ 4♦ 9♥ and 5 unseen",
            "  S (you)  7 cards: 2♣ 7♣ A♣ 6♦ 5♥ 6♠ 7♠",
            "  W        8 cards, unseen",
            "",
            "Table:",
            "   1  Q♣ Q♦ Q♥ Q♠   set laid down by S (you); Q♥ laid off by E",
            "   2  3♣ 4♣ 5♣ 6♣   run laid down by W; 6♣ laid off by N",
            "   3  🃏1 🃏2 🃏3   set laid down by N",
            "   4  8♠ 9♠ 10♠ J♠  run laid down by E",
            "Discard pile (bottom to top): 3♠ 10♦ [A♦]",
            "Stock: 10 cards",
        ] == lines(render_text(observe(MIDGAME, 2)))

    def test_the_public_view(self) -> None:
        text = lines(render_text(observe(EMPTY_STOCK), symbols=False))
        assert "The game as a spectator sees it" == text[0]
        assert ["  N  2 cards, unseen", "  E  3 cards, unseen", "  S  2 cards, unseen", "  W  1 card, unseen"] == (
            text[6:10]
        )

    def test_a_stock_everyone_knows(self) -> None:
        """
        A18: with ``reshuffle_on_empty_stock`` the discard pile is turned over into a stock whose
        order every player knows.
        """
        state = position(
            rules=Rules(reshuffle_on_empty_stock=True),
            hands=("", "5c", "", ""),
            stock="Ah 2h",
            stock_known=True,
            rest_to=0,
            to_act=1,
        )
        assert "Stock: 2 cards, known to all, next first: A♥ 2♥" == lines(render_text(observe(state, 1)))[-1]

    def test_the_hands_shown_when_a_deal_is_over(self) -> None:
        """
        When a deal is over every hand is shown, as the players lay them down to count the score.
        """
        state = list(replay(from_json((DATA / "went_out.json").read_bytes(), GameRecord)))[-1]
        assert [
            "  N        2 cards: 3s 4s",
            "  E (you)  1 card: 4h (known to all: 4h)",
            "  S        no cards",
            "  W        2 cards: 6d 8s",
        ] == lines(render_text(observe(state, 1), symbols=False))[6:10]

    @given(played_states(rules=rules_variants()))
    def test_a_view_writes_exactly_the_cards_it_shows(self, state: GameState) -> None:
        for seat in SEATS:
            view = observe(state, seat)
            assert {str(card) for card in seen(view)} == tokens(render_text(view, symbols=False))
        assert {str(card) for card in FULL_DECK} == tokens(render_text(state, symbols=False))


class TestStrOfStatesAndViews:
    """
    ``print(state)`` draws the table (docs/quickstart.md): ``str`` of a state or a view is the text
    `render_text` writes with the suit symbols, but for its last newline, while ``repr`` of a state
    stays its position notation, which builds it again.
    """

    def test_a_state(self) -> None:
        assert render_text(MIDGAME).removesuffix("\n") == str(MIDGAME)
        assert "E must play 9♥ now, taken from the discard pile with K♣ 4♦ (R15)" == str(MIDGAME).splitlines()[2]
        assert "Stock: 10 cards, next first: 10♣ J♣ J♦ 4♥ 6♥ 7♥ 8♥ K♥ A♥ 5♠" == str(MIDGAME).splitlines()[-1]

    def test_a_view(self) -> None:
        view = observe(MIDGAME, 2)
        assert render_text(view).removesuffix("\n") == str(view)
        assert ["The game as S sees it", "Stock: 10 cards"] == [str(view).splitlines()[i] for i in (0, -1)]

    def test_repr_is_still_the_position(self) -> None:
        assert f"parse_position({format_position(MIDGAME)!r})" == repr(MIDGAME)
        assert MIDGAME == eval(repr(MIDGAME), {"parse_position": parse_position})  # noqa: S307

    @given(played_states(max_actions=120), st.sampled_from(SEATS))
    def test_any_state_and_view(self, state: GameState, seat: int | None) -> None:
        view = observe(state, seat)
        assert (render_text(state), render_text(view)) == (f"{state}\n", f"{view}\n")


class TestSvg:
    """
    R2: the 56 cards, each exactly once.  The SVG of a state parses as an SVG document and draws
    every card of the state once, face up, its rank and suit as text; the SVG of a view draws face
    up exactly the cards the view shows, once each, and the cards it hides face down.
    """

    def test_a_state_shows_each_card_once(self) -> None:
        root = parse(render_svg(MIDGAME))
        assert Counter(str(card) for card in FULL_DECK) == faces(root)
        assert 3 == backs(root)  # the stock, drawn as a pile of cards face down

    def test_the_picture_names_the_deal_the_turn_and_the_card_to_play(self) -> None:
        root = parse(render_svg(MIDGAME))
        title = root.find(f"{SVG}title")
        assert title is not None
        assert "Persian Rummy. Deal 1 of 2, dealt by N. E to lay down, lay off, then discard." == title.text
        texts = [element.text for element in root.iter(f"{SVG}text")]
        assert "E must play 9♥ now, taken from the discard pile with K♣ 4♦ (R15)" in texts
        assert ["N-S 0", "E-W 0"] == [text for text in texts if text in {"N-S 0", "E-W 0"}]
        assert ["+E", "+N"] == [text for text in texts if text in {"+N", "+E", "+S", "+W"}]
        assert ["1. set by S", "2. run by W", "3. set by N", "4. run by E"] == [
            text for text in texts if text and text[:2] in {"1.", "2.", "3.", "4."}
        ]

    def test_a_view_shows_its_cards_and_hides_the_others(self) -> None:
        view = observe(MIDGAME, 2)
        root = parse(render_svg(view))
        assert Counter(str(card) for card in seen(view)) == faces(root)
        assert 5 + 5 + 8 + 3 == backs(root)

    @given(played_states(rules=rules_variants()))
    def test_every_state_and_view_reached(self, state: GameState) -> None:
        assert Counter(str(card) for card in FULL_DECK) == faces(parse(render_svg(state)))
        for seat in SEATS:
            view = observe(state, seat)
            root = parse(view._repr_svg_())
            assert Counter(str(card) for card in seen(view)) == faces(root)
            hidden = sum(view.hand_sizes[other] - len(view.known[other]) for other in range(4) if other != seat)
            assert hidden + min(3, view.stock_size) == backs(root)

    def test_cards_in_the_order_given(self) -> None:
        root = parse(render_svg(["Ah", Card.parse("X2"), "Td"]))
        assert ["Ah", "X2", "Td"] == [group.get("data-card") for group in root.iter(f"{SVG}g")]
        assert render_svg(CardSet.parse("Td Ah X2")) == render_svg("Td Ah X2")
        assert render_svg(MIDGAME.discard_pile) == render_svg("3s Td Ad")

    def test_no_cards(self) -> None:
        root = parse(render_svg(CardSet()))
        assert (Counter(), 0) == (faces(root), backs(root))

    def test_what_is_not_a_picture_is_refused(self) -> None:
        with pytest.raises(InvalidTypeError, match="value must be a GameState, a View, a TableMeld, a Card or cards"):
            render_svg(3)  # type: ignore[arg-type]
        with pytest.raises(InvalidTypeError, match="each card must be a Card or its notation, got 3"):
            render_svg([3])  # type: ignore[list-item]
        with pytest.raises(InvalidNotationError):
            render_svg("Qh Zz")


class TestWildJokers:
    """
    A7 (`Rules.jokers_wild`): a joker that stands for a card lies where that card would, and the
    picture says which card it is, in the text and over the card in the SVG.
    """

    STATE = "jokers_wild=true 1/W play N 9s4c/2h3d/5d6d/8cKs * 2s E:5hX2=6h7h+N:X1=8h,S:7c7dX3=7s - - - 0 - -"

    def test_the_text_writes_each_joker_with_its_card(self) -> None:
        text = lines(render_text(parse_position(self.STATE)))
        assert [
            "Table:",
            "   1  5♥ 🃏2=6♥ 7♥ 🃏1=8♥  run laid down by E; 🃏1=8♥ laid off by N",
            "   2  7♣ 7♦ 🃏3=7♠         set laid down by S",
        ] == text[10:13]
        assert (
            "   1  5h X2=6h 7h X1=8h  run laid down by E; X1=8h laid off by N"
            == lines(render_text(parse_position(self.STATE), symbols=False))[11]
        )

    def test_the_svg_names_the_card_over_the_joker(self) -> None:
        root = parse(render_svg(parse_position(self.STATE)))
        labels = [element.text for element in root.iter(f"{SVG}text") if (element.text or "").startswith("=")]
        assert ["=6♥", "=8♥", "=7♠"] == labels
        run = [group.get("data-card") for group in root.iter(f"{SVG}g") if group.get("class") == "pr-card"]
        assert ["5h", "X2", "7h", "X1"] == run[8:12]


class TestNotebook:
    """
    `Card`, `CardSet`, `TableMeld`, `GameState` and `View` show themselves in a notebook as pictures
    (``_repr_svg_`` and ``_repr_html_``), the pictures of `render_svg`.  R17: a meld's picture
    says who laid it down and marks each card laid off with the seat that laid it off.
    """

    @pytest.mark.parametrize(
        "value",
        [
            Card.parse("Td"),
            Card.parse("X3"),
            CardSet.parse("Qh Qs X1"),
            meld(0, "Kc Kd Ks", s1="Kh"),
            MIDGAME,
            observe(MIDGAME, 1),
        ],
        ids=["card", "joker", "card set", "meld", "state", "view"],
    )
    def test_the_values_show_their_pictures(self, value: Card | CardSet | TableMeld | GameState | View) -> None:
        assert render_svg(value) == value._repr_svg_()
        assert render_svg(value) == value._repr_html_()
        parse(value._repr_svg_())

    def test_a_meld_with_a_layoff(self) -> None:
        root = parse(meld(0, "Kc Kd Ks", s1="Kh")._repr_svg_())
        assert Counter({"Kc": 1, "Kd": 1, "Kh": 1, "Ks": 1}) == faces(root)
        texts = [element.text for element in root.iter(f"{SVG}text")]
        assert ["+E", "set laid down by N"] == texts[-2:]

    def test_a_low_ace_run_starts_with_its_ace(self) -> None:
        root = parse(render_svg(low_meld(1, "Ah 2h 3h")))
        assert ["Ah", "2h", "3h"] == [group.get("data-card") for group in root.iter(f"{SVG}g")]


class TestHiddenCards:
    """
    `determinize` deals the cards a view hides anew, keeping everything the view shows: the
    pictures of the view are the same for every such deal, so they show none of the hidden cards.
    """

    @given(played_states(rules=rules_variants()), seeds())
    def test_the_pictures_of_a_view_do_not_depend_on_the_hidden_cards(self, state: GameState, seed: int) -> None:
        for seat in SEATS:
            view = observe(state, seat)
            again = observe(determinize(view, random.Random(seed)), seat)  # noqa: S311
            assert render_svg(view) == render_svg(again)
            assert render_text(view) == render_text(again)
            assert render_text(view, symbols=False) == render_text(again, symbols=False)
            assert tokens(render_text(view, symbols=False)).isdisjoint(str(card) for card in view.unseen)


class TestSymbols:
    """
    Cards are written with their suit symbols where the output can hold them, else in card
    notation; `card_legend` says how to read either.
    """

    @pytest.mark.parametrize(
        ("encoding", "fits"), [("utf-8", True), ("utf-16", True), ("ascii", False), ("latin-1", False)]
    )
    def test_the_symbols_fit_the_encodings_that_have_them(self, encoding: str, fits: bool) -> None:
        assert fits is symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding=encoding))

    def test_a_stream_without_a_known_encoding_gets_card_notation(self) -> None:
        assert not symbols_fit(io.StringIO())
        assert not symbols_fit(object())
        assert not symbols_fit(_Encoded("no-such-encoding"))

    def test_the_legend_explains_the_cards_as_they_are_written(self) -> None:
        assert "10♦ = ten of diamonds" in card_legend()
        assert "🃏1 to 🃏4 = jokers" in card_legend()
        assert "Td = ten of diamonds" in card_legend(symbols=False)
        assert "X1 to X4 = jokers" in card_legend(symbols=False)
        card_legend(symbols=False).encode("ascii")


class _Encoded:
    def __init__(self, encoding: str) -> None:
        self.encoding = encoding


class TestPicturesOfTheDocs:
    """
    The pictures of docs/how-to-play.md are drawn by the library (``docs/make_pictures.py``): the
    files committed are those the script draws today, and the page shows each of them.
    """

    def test_the_pictures_are_up_to_date(self) -> None:
        drawn = _pictures_of_the_docs()
        folder = DOCS / "_static" / "pictures"
        assert sorted(drawn) == sorted(path.name for path in folder.glob("*.svg"))
        for name, picture in drawn.items():
            assert picture + "\n" == (folder / name).read_text(encoding="utf-8"), (
                f"{name} is out of date: run python docs/make_pictures.py"
            )
            parse(picture)

    def test_the_page_shows_every_picture(self) -> None:
        page = (DOCS / "how-to-play.md").read_text(encoding="utf-8")
        shown = re.findall(r"!\[[^\]]+\]\(_static/pictures/([a-z-]+\.svg)\)", page)
        assert sorted(_pictures_of_the_docs()) == sorted(shown)


def _pictures_of_the_docs() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    drawn: dict[str, str] = module.pictures()
    return drawn
