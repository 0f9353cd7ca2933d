"""
The browser client in a real browser: Chromium driven by Playwright against a table server run as
a subprocess (``conftest.py``). Each move is decided from what the page offers and played by
clicking, as a person would: the stock, a card of the discard pile, the cards of the hand, the
buttons Meld, Discard and Pass, a meld to lay off onto. Screenshots are kept in the artifacts'
folder.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
from playwright.sync_api import Browser, Page, WebSocketRoute, expect  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from persian_rummy import CallRummy, CardSet, GameRecord, LayOff, is_game_over, replay  # noqa: E402
from persian_rummy.notation import format_action  # noqa: E402
from persian_rummy.records import final_state  # noqa: E402
from persian_rummy.serialize import from_data, to_data  # noqa: E402

#: The most actions one person plays in a game before the test gives up (a game of two deals takes far fewer).
MOST_ACTIONS = 600
#: A table's seed under which the person, playing as `play_one` does, soon has a play with a wild joker (A7).
SEED_WITH_A_JOKER_PLAY = 3
WAIT_MS = 20_000
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


# -- talking to the server directly ---------------------------------------------------------------------------


def post(server: str, path: str, body: object) -> Any:
    request = urllib.request.Request(  # noqa: S310 - the test's own server on loopback
        server + path.lstrip("/"), data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310
        return json.load(answer)


def get(server: str, path: str) -> Any:
    with urllib.request.urlopen(server + path.lstrip("/"), timeout=10) as answer:  # noqa: S310
        return json.load(answer)


def public_view(server: str, table: str) -> dict[str, Any]:
    """
    The spectator's view of *table*, from a WebSocket of the test's own.
    """
    with connect(server.replace("http://", "ws://") + f"ws/tables/{table}") as socket:
        socket.send(json.dumps({"type": "hello", "token": None, "since": None}))
        welcome = json.loads(socket.recv(timeout=10))
    assert "welcome" == welcome["type"]
    return {"seq": welcome["seq"], **welcome["view"]}


def public_cards(view: dict[str, Any]) -> Counter[str]:
    """
    Every card the view shows: the discard pile, the melds, the cards known to be in each hand, a known stock.
    """
    cards = Counter(view["discard_pile"])
    for meld in view["melds"]:
        cards.update(meld["laid_down"])
        cards.update(card for part in meld["layoffs"] for card in part)
    cards.update(card for hand in view["known"] for card in hand)
    cards.update(view["stock"] or ())
    return cards


RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def spoken(card: str) -> str:
    """
    A card's label for screen readers: ``9 of hearts``, ``queen of spades``, ``joker 2``.
    """
    if card[0] == "X":
        return f"joker {card[1]}"
    return f"{RANKS.get(card[0], card[0])} of {SUIT_WORDS[card[1]]}"


def shown(card: str) -> str:
    """
    A natural card as the page writes it in text: ``9♥``, ``10♦``.
    """
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


# -- playing by clicking ----------------------------------------------------------------------------------------


def seq(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.seq"))


def settled(page: Page, *, next_deal: bool = True) -> str:
    """
    Waits until the page's seat is to act or the game is over, pressing Next deal at the end of each
    deal (unless *next_deal* is false: then ``"pause"`` is said at the end of a deal); says which.
    """
    while True:
        page.wait_for_selector(
            'body[data-your-turn="true"], body[data-phase="game_over"], body[data-pause="true"]', timeout=WAIT_MS
        )
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "game_over":
            return "over"
        if page.evaluate("document.body.dataset.pause") != "true":
            return "turn"
        if not next_deal:
            return "pause"
        page.click("#next-deal-button")
        page.wait_for_selector('body:not([data-pause="true"])', timeout=WAIT_MS)


def card_labels(page: Page, within: str = "body") -> list[str]:
    cards = page.eval_on_selector_all(f"{within} [data-card]", "nodes => nodes.map(n => n.dataset.card)")
    return [str(card) for card in cards]


def discard_one(page: Page) -> None:
    """
    Selects the cards of the hand one by one until the Discard button allows one, and discards it.
    """
    cards = page.locator("#hand button.card")
    for index in range(cards.count()):
        cards.nth(index).click()
        if page.locator("#discard-button:enabled").count():
            page.click("#discard-button")
            return
        cards.nth(index).click()
    pytest.fail(f"no card of the hand can be discarded: {card_labels(page, '#hand')}")


def meld_or_lay_off(page: Page) -> None:
    """
    Chooses the first meld or lay-off the page lists, which selects its cards, and plays it.
    """
    page.locator(".play-choice").first.click()
    if page.locator("#meld-button:enabled").count():
        page.click("#meld-button")
    else:
        page.locator("button.meld.target").first.click()


def play_one(page: Page) -> str:
    """
    One action, decided from what the page offers: call Rummy! when asked (A24); else draw; else
    take a card from the discard pile; else pass; in the play, the first meld or lay-off offered, else a discard.
    Returns the action's kind once the page has shown its event.
    """
    before = seq(page)
    if page.locator("#call-button:enabled").count():
        page.click("#call-button")
        kind = "call"
    elif page.locator(".stock-button").count():
        page.click(".stock-button")
        kind = "draw"
    elif page.locator(".pile button.card.takeable").count():
        page.locator(".pile button.card.takeable").last.click(position={"x": 8, "y": 12})  # the corner a fan shows
        kind = "take"
    elif page.locator("#pass-button:enabled").count():
        page.click("#pass-button")
        kind = "pass"
    elif page.locator(".play-choice").count():
        meld_or_lay_off(page)
        kind = "meld"
    else:
        discard_one(page)
        kind = "discard"
    page.wait_for_function("before => document.body.dataset.seq !== before", arg=before, timeout=WAIT_MS)
    assert 0 == page.locator("#error").count(), page.locator("#error").inner_text()
    return kind


def final_points(page: Page) -> tuple[int, int]:
    text = page.locator("#game-over").inner_text()
    words = text.split("Final score: ")[1].split(".")[0]  # "N-S 120, E-W 95"
    first, second = (int(part.split()[-1]) for part in words.split(", "))
    return first, second


def record_points(server: str, table: str) -> tuple[tuple[int, int], GameRecord]:
    record = from_data(get(server, f"/api/tables/{table}/record"))
    assert isinstance(record, GameRecord)
    state = final_state(record)
    assert is_game_over(state)
    totals = (sum(r.totals[0] for r in state.results), sum(r.totals[1] for r in state.results))
    return totals, record


def next_turn(pages: list[Page]) -> Page | None:
    """
    The page whose seat is to act, once one is; `None` once the game is over.
    """
    for _ in range(WAIT_MS // 50):
        for page in pages:
            state = page.evaluate(
                "[document.body.dataset.yourTurn, document.body.dataset.phase, document.body.dataset.pause]"
            )
            if state[0] == "true":
                return page
            if state[1] == "game_over":
                return None
            if state[2] == "true":  # the end of a deal waits for each person's Next deal
                page.click("#next-deal-button")
        pages[0].wait_for_timeout(50)
    pytest.fail("neither person was to act, and the game went on")


def note(artifacts: Path, test: str, words: str) -> None:
    """
    Adds a line about a test's run to ``runs.txt`` among the artifacts.
    """
    with (artifacts / "runs.txt").open("a", encoding="utf-8") as runs:
        runs.write(f"{test}: {words}\n")


def table_id(page: Page) -> str:
    return page.url.split("/tables/")[1].split("#")[0]


def seated(page: Page) -> None:
    """
    Waits until *page* is at a table with its seat kept by the browser: the address is then the table's
    plain address, which only lets others watch (the token and the invitation are taken out of it).
    """
    page.wait_for_function(
        "() => location.pathname.startsWith('/tables/') && location.hash === ''"
        " && sessionStorage.getItem(`persian-rummy:${location.pathname.split('/')[2]}`) !== null",
        timeout=WAIT_MS,
    )


# -- the tests --------------------------------------------------------------------------------------------------


class TestOnePersonAgainstThreeBots:
    """
    Issue 18, acceptance 1: a person plays a whole game of two deals (R27) against three bots by
    clicking in the page; the page shows the final scores, and the table's record replays to a
    finished game with those scores (R24, R28).
    """

    def test_a_whole_game_by_clicking(self, server: str, browser: Browser, artifacts: Path) -> None:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.goto(server)
        page.fill("#your-name", "Ann")
        page.fill("#table-name", "Against the bots")
        page.select_option("#bot-delay", "0")
        page.click("#create-button")
        seated(page)
        table = table_id(page)
        kinds: Counter[str] = Counter()
        shots = {"mid-game": False, "end-of-deal": False, "choosing": False}
        while settled(page) == "turn":
            assert sum(kinds.values()) < MOST_ACTIONS
            if page.locator(".play-choice").count() and not shots["choosing"]:
                page.locator(".play-choice").first.click()  # its cards selected, its meld or target lit
                page.screenshot(path=artifacts / "choosing-a-meld.png", full_page=True)
                shots["choosing"] = True
            if kinds["discard"] == 3 and not shots["mid-game"]:
                page.screenshot(path=artifacts / "mid-game.png", full_page=True)
                shots["mid-game"] = True
            if page.locator(".results").count() and not shots["end-of-deal"]:
                page.screenshot(path=artifacts / "end-of-deal.png", full_page=True)
                shots["end-of-deal"] = True
            kinds[play_one(page)] += 1
        expect(page.locator("#game-over")).to_contain_text("Final score: N-S ")
        expect(page.locator("#status")).to_contain_text("The game is over")
        page.screenshot(path=artifacts / "end-of-game.png", full_page=True)
        totals, record = record_points(server, table)
        assert totals == final_points(page)
        assert 2 == sum(1 for action in record.actions if type(action).__name__ == "Deal")
        assert {"mid-game": True, "end-of-deal": True} == {name: shots[name] for name in ("mid-game", "end-of-deal")}
        assert kinds["draw"] > 0
        assert kinds["discard"] > 0
        summary = f"{sum(kinds.values())} actions by clicking ({dict(kinds)}), {len(record.actions)} in the record"
        note(artifacts, "one person against three bots", summary)
        context.close()


class TestTakingFromThePile:
    """
    R14, R15: a card taken from the discard pile comes with every card above it, and must be
    played at once: the page marks it in the hand and says so until it is played, and offers
    the melds and lay-offs that play it.
    """

    def test_the_taken_card_is_marked_until_played(self, server: str, browser: Browser, artifacts: Path) -> None:
        spec: dict[str, object] = {"name": "Takes", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 18}
        page, _table, _token = seated_page(server, browser, spec)
        for _ in range(MOST_ACTIONS):
            assert "turn" == settled(page)
            takes = page.locator(".pile button.card.takeable")
            if takes.count() and page.evaluate("document.body.dataset.phase") == "draw":
                break
            play_one(page)
        else:
            pytest.fail("no card of the discard pile was offered")
        pile = card_labels(page, ".pile")
        target = str(takes.first.get_attribute("data-card"))
        taken = pile[pile.index(target) :]
        play_one_take = seq(page)
        takes.first.click(position={"x": 8, "y": 12})
        page.wait_for_function("b => document.body.dataset.seq !== b", arg=play_one_take, timeout=WAIT_MS)
        expect(page.locator("#obligation")).to_contain_text("must play", timeout=WAIT_MS)
        assert 1 == page.locator(f'#hand .card.obligation[data-card="{target}"]').count()
        assert set(taken) <= set(card_labels(page, "#hand"))
        assert 0 == page.locator("#discard-button:enabled").count()
        assert all(
            target in str(choice.get_attribute("data-notation")) for choice in page.locator(".play-choice").all()
        )
        page.screenshot(path=artifacts / "obligation.png", full_page=True)
        meld_or_lay_off(page)
        expect(page.locator("#obligation")).to_have_text(
            re.compile(r"^N · Ann \(you\) took .+ from the discard pile this turn$")
        )
        assert 0 == page.locator("#hand .card.obligation").count()
        page.context.close()


def check_privacy(server: str, table: str, people: dict[int, Page], spectator: Page) -> int:
    """
    At a moment when a person is to act (nothing moves): the spectator's page shows exactly the
    cards of the public view, and each person's page the public cards and its own hand, no card
    of another's hand (R7, R14). Returns how many card labels were compared.
    """
    view = public_view(server, table)
    spectator.wait_for_function("s => document.body.dataset.seq === s", arg=str(view["seq"]), timeout=WAIT_MS)
    public = public_cards(view)
    seen = Counter(card_labels(spectator))
    assert public == seen
    named = spectator.eval_on_selector_all("[data-card]", "ns => ns.map(n => [n.dataset.card, n.ariaLabel])")
    assert [spoken(card) for card, _ in named] == [words for _, words in named]
    hands = {seat: Counter(card_labels(page, "#hand")) for seat, page in people.items()}
    hidden = {seat: set(hand) - set(view["known"][seat]) for seat, hand in hands.items()}
    # The table and its heading (the list of moves tells the public history: a card discarded in
    # an earlier deal may be in a hand now).
    text = spectator.locator("#top").inner_text() + spectator.locator("#table").inner_text()
    for seat, page in people.items():
        page.wait_for_function("s => document.body.dataset.seq === s", arg=str(view["seq"]), timeout=WAIT_MS)
        assert view["hand_sizes"][seat] == sum(hands[seat].values())
        expected = public - Counter(view["known"][seat]) + hands[seat]
        assert expected == Counter(card_labels(page))
        for other in people:
            if other != seat:
                assert set() == hidden[other] & set(card_labels(page))
        assert [] == [card for card in hidden[seat] if card[0] != "X" and shown(card) in text]
    return sum(seen.values()) + sum(len(card_labels(page)) for page in people.values())


class TestTwoPeopleAndASpectator:
    """
    Issue 18: two people at two browsers, the second invited by the first's link, and a spectator;
    a spectator sees only the public view, each person only its own hand (R7, R14, R24).
    """

    def test_a_whole_game_with_a_spectator(self, server: str, browser: Browser, artifacts: Path) -> None:
        first_context = browser.new_context(viewport={"width": 1100, "height": 900})
        first = first_context.new_page()
        first.goto(server)
        first.fill("#your-name", "Ann")
        first.fill("#table-name", "Partners")
        first.select_option("#seat-2", "person")
        first.select_option("#bot-delay", "0")
        first.click("#create-button")
        link = first.locator('.invite-link[data-seat="2"]').input_value()
        first.click("#go-to-table")
        table = link.split("/tables/")[1].split("#")[0]
        second_context = browser.new_context(viewport={"width": 1100, "height": 900})
        second = second_context.new_page()
        second.goto(link)
        second.fill("#claim-name", "Bea")
        second.click("#claim-form button[type=submit]")
        seated(second)
        watcher_context = browser.new_context(viewport={"width": 1100, "height": 900})
        spectator = watcher_context.new_page()
        spectator.goto(server + f"tables/{table}")
        expect(spectator.locator("#deal-heading")).to_contain_text("as a spectator sees it", timeout=WAIT_MS)
        assert 0 == spectator.locator("#hand").count()
        people = {0: first, 2: second}
        checks, labels, actions = 0, 0, 0
        while (turn := next_turn(list(people.values()))) is not None:
            if actions % 3 == 0:
                labels += check_privacy(server, table, people, spectator)
                checks += 1
            if actions == 30:
                spectator.screenshot(path=artifacts / "spectator.png", full_page=True)
                second.screenshot(path=artifacts / "second-person.png", full_page=True)
            assert actions < 2 * MOST_ACTIONS
            play_one(turn)
            actions += 1
        for page in (first, second, spectator):
            expect(page.locator("#game-over")).to_contain_text("Final score: ")
        spectator.screenshot(path=artifacts / "spectator-end-of-game.png", full_page=True)
        totals, _record = record_points(server, table)
        assert totals == final_points(first) == final_points(second) == final_points(spectator)
        assert checks > 10
        note(
            artifacts,
            "two people and a spectator",
            f"{actions} actions by clicking, {checks} checks, {labels} card labels",
        )
        for context in (first_context, second_context, watcher_context):
            context.close()


#: The script that lists what sticks out sideways: the page itself, or one of the parts of the table.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) wide.push(`page ${page}`);
  const parts = '#top, #table > *, #hand, #hand .card, #actions, .meld, .pile, .stock, #log, .lobby > *';
  for (const node of document.querySelectorAll(parts)) {
    const box = node.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5) wide.push(`${node.id || node.className} ${box.left}-${box.right}`);
  }
  return wide;
}"""
BOTS = ["person", "bot:greedy", "bot:greedy", "bot:greedy"]


class TestPhoneWidth:
    """
    Issue 18: the page works at phone width (390 by 844): the hand wraps, nothing overflows sideways.
    """

    def overflow(self, page: Page) -> list[str]:
        """
        What reaches beyond the page's width, or widens the page.
        """
        return [str(item) for item in page.evaluate(OVERFLOW)]

    def test_the_table_fits_a_phone(self, server: str, browser: Browser, artifacts: Path) -> None:
        made = post(server, "/api/tables", {"name": "Phone", "seats": BOTS, "clock": None, "bot_delay": 0})
        table = made["table"]["id"]
        invite = made["invitations"][0]["invite"]
        claimed = post(server, f"/api/tables/{table}/claim", {"invite": invite, "name": "Ann"})
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(server + f"tables/{table}#token={claimed['token']}")
        checked = 0
        for _ in range(24):
            if settled(page) == "over":
                break
            assert [] == self.overflow(page)
            checked += 1
            if checked == 12:
                page.screenshot(path=artifacts / "phone.png", full_page=True)
            play_one(page)
        assert checked >= 12
        page.goto(server)
        assert [] == self.overflow(page)
        page.screenshot(path=artifacts / "phone-lobby.png", full_page=True)
        context.close()


def seated_page(server: str, browser: Browser, spec: dict[str, object]) -> tuple[Page, str, str]:
    """
    A page at a new table made of *spec*, seat N claimed: the page, the table's id and the seat's token.
    """
    made = post(server, "/api/tables", spec)
    table = made["table"]["id"]
    invite = made["invitations"][0]["invite"]
    claimed = post(server, f"/api/tables/{table}/claim", {"invite": invite, "name": "Ann"})
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(server + f"tables/{table}#token={claimed['token']}")
    return page, table, str(claimed["token"])


class Relay:
    """
    Stands between the page and the server's WebSocket: records what the page sends, can hold
    back the server's messages, rewrite the page's actions, and drop the connection.
    """

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.holding = False
        self.forged: str | None = None
        self.routes: list[WebSocketRoute] = []

    def attach(self, route: WebSocketRoute) -> None:
        upstream = route.connect_to_server()
        self.routes.append(route)

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            self.sent.append(data)
            if data["type"] == "act" and self.forged is not None:
                data = {**data, "action": self.forged}
            upstream.send(json.dumps(data))

        def from_server(message: str | bytes) -> None:
            if not self.holding:
                route.send(message)

        route.on_message(from_page)
        upstream.on_message(from_server)

    def hellos(self) -> list[dict[str, Any]]:
        return [message for message in self.sent if message["type"] == "hello"]


class TestConnectionTroubles:
    """
    Issue 18: a page that loses its connection comes back with its token and the last event number
    it saw, and gets what it missed; an illegal action's error is shown with its rule; a seat
    opened in a second tab replaces the first, which says so; a turn clock counts down, and the
    server's move when it runs out is shown (R15 for the error).
    """

    def test_resume_after_a_dropped_connection(self, server: str, browser: Browser) -> None:
        relay = Relay()
        spec = {"name": "Resume", "seats": BOTS, "clock": None, "bot_delay": 0}
        made = post(server, "/api/tables", spec)
        table = made["table"]["id"]
        claimed = post(
            server, f"/api/tables/{table}/claim", {"invite": made["invitations"][0]["invite"], "name": "Ann"}
        )
        page = browser.new_context().new_page()
        page.route_web_socket("**/ws/tables/*", relay.attach)
        page.goto(server + f"tables/{table}#token={claimed['token']}")
        assert "turn" == settled(page)
        while page.locator(".stock-button").count() == 0:
            play_one(page)
            assert "turn" == settled(page)
        seen = int(seq(page))
        hand = len(card_labels(page, "#hand"))
        relay.holding = True
        page.click(".stock-button")
        page.wait_for_timeout(500)
        assert str(seen) == seq(page)  # the draw's event was held back
        relay.holding = False
        relay.routes[-1].close(code=4000, reason="dropped by the test")
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seen, timeout=WAIT_MS)
        expect(page.locator("#connection")).to_have_text("connected")
        assert [{"type": "hello", "token": claimed["token"], "since": seen}] == relay.hellos()[1:]
        assert 2 == len(relay.routes)
        assert hand + 1 == len(card_labels(page, "#hand"))
        assert "play" == page.evaluate("document.body.dataset.phase")
        assert str(public_view(server, table)["seq"]) == seq(page)

    def test_an_illegal_action_shows_its_error(self, server: str, browser: Browser) -> None:
        relay = Relay()
        spec = {"name": "Errors", "seats": BOTS, "clock": None, "bot_delay": 0}
        made = post(server, "/api/tables", spec)
        table = made["table"]["id"]
        claimed = post(
            server, f"/api/tables/{table}/claim", {"invite": made["invitations"][0]["invite"], "name": "Ann"}
        )
        page = browser.new_context().new_page()
        page.route_web_socket("**/ws/tables/*", relay.attach)
        page.goto(server + f"tables/{table}#token={claimed['token']}")
        while settled(page) == "turn" and page.locator(".stock-button").count() == 0:
            play_one(page)
        relay.forged = "N pass"  # the stock has cards: passing is not allowed (R21)
        before = seq(page)
        page.click(".stock-button")
        expect(page.locator("#error")).to_contain_text("R21", timeout=WAIT_MS)
        # The server's words for the seat (persian_rummy.wording), the rule named once with its summary.
        assert page.locator("#error").inner_text() == (
            "A player may pass only when the stock is empty."
            " (R21: with the stock empty you take from the discard pile or pass)"
        )
        assert before == seq(page)
        relay.forged = None
        page.click(".stock-button")
        page.wait_for_function("before => document.body.dataset.seq !== before", arg=before, timeout=WAIT_MS)
        assert 0 == page.locator("#error").count()

    def test_a_second_tab_replaces_the_first(self, server: str, browser: Browser, artifacts: Path) -> None:
        page, table, _token = seated_page(
            server, browser, {"name": "Tabs", "seats": BOTS, "clock": None, "bot_delay": 0}
        )
        assert "turn" == settled(page)
        hand = card_labels(page, "#hand")
        second = page.context.new_page()
        second.goto(server + f"tables/{table}")  # no token in the address: the one the first tab kept
        expect(second.locator("#hand")).to_be_visible(timeout=WAIT_MS)
        assert hand == card_labels(second, "#hand")
        expect(page.locator("#notice")).to_contain_text("opened in another window or tab", timeout=WAIT_MS)
        expect(page.locator("#connection")).to_have_text("disconnected")
        assert 0 == page.locator(".stock-button").count()  # nothing is offered any more
        page.screenshot(path=artifacts / "replaced.png", full_page=True)

    def test_the_clock_counts_down_and_the_server_moves(self, server: str, browser: Browser) -> None:
        page, _table, _token = seated_page(
            server, browser, {"name": "Clock", "seats": BOTS, "clock": 2, "bot_delay": 0}
        )
        assert "turn" == settled(page)
        expect(page.locator("#hand .seat-clock")).to_have_text(re.compile(r"^[0-2] s left$"))
        expect(page.locator("#log-list li").first).to_contain_text("(clock ran out)", timeout=WAIT_MS)


class TestRummyCalls:
    """
    A24: at a table with ``rummy_calls=true``, a person asked whether to call Rummy! on a discard
    sees the two answers, calls with the keyboard, lays the card called on off by clicking, and the
    game goes on to its end; the stored record holds the call and the lay-off.
    """

    def test_a_person_calls_rummy(self, server: str, browser: Browser, artifacts: Path) -> None:
        spec: dict[str, object] = {
            "name": "Calls",
            "seats": ["person", "bot:random", "bot:random", "bot:random"],
            "clock": None,
            "bot_delay": 0,
            "seed": 11,
            "rules": "rummy_calls=true",
        }
        page, table, _token = seated_page(server, browser, spec)
        for _ in range(MOST_ACTIONS):
            assert "turn" == settled(page)
            if page.locator("#call-button").count():
                break
            play_one(page)
        else:
            pytest.fail("the person was never asked to call Rummy!")
        asked = int(seq(page))
        public = public_view(server, table)
        discarder, card = public["discarder"], public["discard_pile"][-1]
        whose = "NESW"[discarder]
        bot = get(server, f"api/tables/{table}")["seats"][discarder]["name"]
        assert (public["phase"], public["to_act"], bot) == ("calls", 0, "random")
        assert "calls" == page.evaluate("document.body.dataset.phase")
        expect(page.locator("#status")).to_have_text(
            f"N · Ann (you) is asked whether to call Rummy! on {whose} · random bot's {shown(card)}"
        )
        expect(page.locator("#call-question")).to_have_text(
            f"Call Rummy! on {whose}'s {shown(card)}? Calling takes the card to lay it off now."
        )
        assert ["Rummy!", "No call"] == page.locator("#actions button").all_inner_texts()
        assert ["N call", "N decline"] == [
            page.locator(f"#{name}").get_attribute("data-notation") for name in ("call-button", "decline-button")
        ]
        assert "call-button" == page.evaluate("document.activeElement.id")  # Enter answers Rummy!
        page.screenshot(path=artifacts / "asked-to-call.png", full_page=True)
        page.keyboard.press("Enter")
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=asked, timeout=WAIT_MS)
        assert str(asked + 1) == seq(page)
        assert "called" == page.evaluate("document.body.dataset.phase")
        expect(page.locator("#status")).to_have_text(
            f"N · Ann (you) called Rummy! on {whose} · random bot's {shown(card)} and lays it off now"
        )
        expect(page.locator("#obligation")).to_have_text(
            f"N · Ann (you) must lay off {shown(card)} now, taken by the call of Rummy! (A24)"
        )
        expect(page.locator("#log-list li").first).to_have_text(f"N call: Rummy! on {shown(card)}")
        assert 1 == page.locator(f'#hand .card.obligation[data-card="{card}"]').count()
        assert card not in card_labels(page, ".pile")
        assert 0 == page.locator("#discard-button:enabled").count()
        choices = [str(choice.get_attribute("data-notation")) for choice in page.locator(".play-choice").all()]
        assert len(choices) >= 1
        assert all(choice.startswith(f"N lay {card} on ") for choice in choices)
        page.screenshot(path=artifacts / "called.png", full_page=True)
        meld_or_lay_off(page)
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=asked + 1, timeout=WAIT_MS)
        assert 0 == page.locator("#obligation").count()
        assert card not in card_labels(page, "#hand")
        assert 1 == page.locator(f'.meld [data-card="{card}"]').count()
        while settled(page) == "turn":
            assert int(seq(page)) < 2 * MOST_ACTIONS
            play_one(page)
        expect(page.locator("#game-over")).to_contain_text("Final score: N-S ")
        totals, record = record_points(server, table)
        assert totals == final_points(page)
        assert record.rules.rummy_calls is True
        assert record.actions[asked] == CallRummy(0)
        laid = record.actions[asked + 1]
        assert isinstance(laid, LayOff)
        assert (laid.seat, laid.cards) == (0, CardSet.parse(card))
        calls = sum(1 for action in record.actions if isinstance(action, CallRummy))
        note(artifacts, "rummy calls", f"called at action {asked + 1}; {calls} calls in {len(record.actions)} actions")
        page.context.close()


class TestWildJokers:
    """
    A7: at a table with ``jokers_wild=true``, the list of plays names the card each joker would
    stand for; the person chooses one of them, and the table shows the joker where that card would
    lie, the card named over it and spoken with it; the stored record holds that very play.
    """

    def test_a_person_melds_a_wild_joker(self, server: str, browser: Browser, artifacts: Path) -> None:
        spec: dict[str, object] = {
            "name": "Jokers",
            "seats": ["person", "bot:random", "bot:random", "bot:random"],
            "clock": None,
            "bot_delay": 0,
            "seed": SEED_WITH_A_JOKER_PLAY,
            "rules": "jokers_wild=true",
        }
        page, table, _token = seated_page(server, browser, spec)
        wild = page.locator(".play-choice", has_text="=")
        for _ in range(MOST_ACTIONS):
            assert "turn" == settled(page)
            if wild.count():
                break
            play_one(page)
        else:
            pytest.fail("the person never had a play with a wild joker")
        choice = wild.last
        notation = str(choice.get_attribute("data-notation"))
        words = choice.inner_text()
        page.screenshot(path=artifacts / "joker-choices.png", full_page=True)
        before = int(seq(page))
        choice.click()
        if notation.split()[1] == "meld":
            expect(page.locator("#meld-button")).to_have_text(words)
            page.click("#meld-button")
        else:
            page.locator("button.meld.target").first.click()
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=before, timeout=WAIT_MS)
        assert 0 == page.locator("#error").count()
        joker, card = re.findall(r"X(\d)=(\S+)", notation)[0]
        joker = f"X{joker}"
        (meld,) = [meld for meld in public_view(server, table)["melds"] if joker in meld.get("stand_ins", {})]
        assert card == meld["stand_ins"][joker]
        on_page = page.locator(f'.meld .meld-card:has([data-card="{joker}"])')
        expect(on_page.locator(".stands-for")).to_have_text(f"={shown(card)}")
        expect(on_page.locator(".card")).to_have_attribute("aria-label", f"{spoken(joker)} as {spoken(card)}")
        page.screenshot(path=artifacts / "joker-on-the-table.png", full_page=True)
        while settled(page) == "turn":
            assert int(seq(page)) < 2 * MOST_ACTIONS
            play_one(page)
        totals, record = record_points(server, table)
        assert totals == final_points(page)
        assert notation == format_action(record.actions[before], list(replay(record))[before])


class TestTheLobbysRules:
    """
    A7, A24 and the rules notation: the lobby's form makes a table under the variants ticked and
    the switches written; the table page and the lobby's list name the variants; switches that do
    not read are refused with the server's message, and no table is made.
    """

    def test_a_table_with_both_variants_from_the_form(self, server: str, browser: Browser, artifacts: Path) -> None:
        page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        page.goto(server)
        page.fill("#your-name", "Ann")
        page.fill("#table-name", "Variants")
        page.check("#jokers-wild")
        page.check("#rummy-calls")
        page.fill("#more-rules", "num_deals=1, ace_low_allowed=true")
        page.select_option("#bot-delay", "0")
        page.screenshot(path=artifacts / "lobby-rules.png", full_page=True)
        page.click("#create-button")
        seated(page)
        table = table_id(page)
        rules, defaults = get(server, f"api/tables/{table}")["rules"], default_rules()
        changed = {name: value for name, value in rules.items() if value != defaults[name]}
        assert {"num_deals": 1, "ace_low_allowed": True, "rummy_calls": True, "jokers_wild": True} == changed
        expect(page.locator("#top")).to_contain_text("with wild jokers and Rummy! calls")
        assert "Deal 1 of 1" in page.locator("#top").inner_text()
        page.goto(server)
        expect(page.locator(f'[data-table="{table}"]')).to_contain_text("Variants · ")
        expect(page.locator(f'[data-table="{table}"]')).to_contain_text(" · wild jokers, Rummy! calls · N Ann")
        seats = re.compile(r"N Ann, E \w+ bot, S \w+ bot, W \w+ bot")  # each bot named with its kind
        expect(page.locator(f'[data-table="{table}"]')).to_contain_text(seats)
        page.context.close()

    def test_switches_that_do_not_read_are_refused(self, server: str, browser: Browser) -> None:
        page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        page.goto(server)
        before = len(get(server, "api/tables")["tables"])
        page.check("#jokers-wild")
        page.fill("#more-rules", "jokers_wild=true")
        page.click("#create-button")
        expect(page.locator("#new-error")).to_contain_text("rule switch 'jokers_wild' given twice")
        page.fill("#more-rules", "num_deals=zero")
        page.click("#create-button")
        expect(page.locator("#new-error")).to_contain_text("num_deals takes a number, got 'zero'")
        assert page.locator("#invitations").is_hidden()
        assert before == len(get(server, "api/tables")["tables"])
        page.context.close()


class TestTheLobbysTables:
    """
    The lobby's side of the tables' lifecycle: a private table is not listed, the tables made in this
    browser can be ended and deleted, and a table page says how its deals are drawn.
    """

    def test_a_private_table_ended_and_deleted(self, server: str, browser: Browser, artifacts: Path) -> None:
        page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        page.goto(server)
        page.fill("#table-name", "Hidden")
        page.check("#private")
        page.click("#create-button")
        seated(page)
        hidden = table_id(page)
        expect(page.locator("#deals")).to_contain_text("Fair deals")
        assert not page.locator("#seeded").count()
        page.goto(server)
        page.fill("#table-name", "Listed")
        page.click("#create-button")
        seated(page)
        listed = table_id(page)
        page.goto(server)
        line = page.locator(f'[data-table="{listed}"]').locator("..")
        expect(line.locator(".end-table")).to_be_visible()
        assert not page.locator(f'[data-table="{hidden}"]').count()
        assert get(server, f"api/tables/{hidden}")["private"] is True
        line.locator(".end-table").click()
        expect(page.locator(f'[data-table="{listed}"]')).to_contain_text("Listed · aborted")
        page.screenshot(path=artifacts / "lobby-ended.png", full_page=True)
        line.locator(".delete-table").click()
        expect(page.locator(f'[data-table="{listed}"]')).to_have_count(0)
        assert [404, 404] == [_status(server, f"api/tables/{listed}{tail}") for tail in ("", "/record")]
        page.context.close()

    def test_a_seeded_table_says_so(self, server: str, browser: Browser) -> None:
        table = post(server, "api/tables", {"name": "Seeded", "seats": BOTS, "bot_delay": 0, "seed": 5})
        page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
        page.goto(server + f"tables/{table['table']['id']}")
        expect(page.locator("#seeded")).to_contain_text("Seeded table: its creator chose the seed")
        page.goto(server)
        expect(page.locator(f'[data-table="{table["table"]["id"]}"]')).to_contain_text(" · seeded · ")
        page.context.close()


def _status(server: str, path: str) -> int:
    try:
        with urllib.request.urlopen(server + path, timeout=10) as answer:  # noqa: S310 - loopback
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def default_rules() -> dict[str, Any]:
    """
    Persian Rummy's rules as the server's JSON writes them.
    """
    rules: dict[str, Any] = json.loads(json.dumps(to_data(GameRecord())["rules"]))
    return rules
