"""
The table page around the moves: the end of a deal paused with every hand shown until Next deal,
the end of the game with who won and a rematch, the hand's bar in sight however long the table,
the discard pile's cards big enough for a finger, and the server's refusals shown once, in words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
from playwright.sync_api import Browser, FloatRect, Page, expect  # noqa: E402

from tests.e2e.test_browser import (  # noqa: E402
    BOTS,
    MOST_ACTIONS,
    WAIT_MS,
    Relay,
    get,
    play_one,
    post,
    public_view,
    seated,
    seq,
    settled,
    table_id,
)

#: Rule ids as the pages write them.
RULE = re.compile(r"\b[RA]\d+\b")


def open_seat(
    server: str, browser: Browser, spec: Mapping[str, object], viewport: dict[str, int], *, phone: bool = False
) -> tuple[Page, str]:
    """
    A page at the seat N of a new table made of *spec*, in a window of *viewport*: the page and the table's id.
    """
    made = post(server, "/api/tables", spec)
    table = made["table"]["id"]
    claimed = post(server, f"/api/tables/{table}/claim", {"invite": made["invitations"][0]["invite"], "name": "Ann"})
    size = {"width": viewport["width"], "height": viewport["height"]}
    page = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone).new_page()  # type: ignore[arg-type]
    page.goto(server + f"tables/{table}#token={claimed['token']}")
    return page, table


def box_of(page: Page, selector: str) -> FloatRect:
    """
    Where the element is on the screen, asked again if the page drew itself anew meanwhile.
    """
    for _ in range(100):
        box = page.locator(selector).bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    pytest.fail(f"{selector} is not on the page")


def no_repr_and_rules_once(page: Page) -> None:
    """
    No message on the page writes an action as Python does, or names a rule twice.
    """
    for selector in ("#error", "#notice", "#why", "#status", "#obligation", "#pause-note"):
        for text in page.locator(selector).all_inner_texts():
            assert "(seat=" not in text, text
            rules = RULE.findall(text)
            assert len(rules) == len(set(rules)), text


class TestTheEndOfADealAndTheGame:
    """
    A whole game of a person against three bots: the end of the first deal waits, every hand and the
    deal's scores shown, until Next deal; the end of the game says who won, and Rematch opens a new
    game at the same seats.
    """

    def test_a_game_with_its_pause_its_end_and_a_rematch(self, server: str, browser: Browser, artifacts: Path) -> None:
        spec = {"name": "Pause", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 4}
        page, table = open_seat(server, browser, spec, {"width": 1280, "height": 800})
        settled(page, next_deal=False)
        log = page.locator("#log-list").inner_text()  # the moves made before the page came, told one by one
        assert "were made before" not in log
        assert re.search(r"\b[NESW] deals\b", log), log
        paused = 0
        for _ in range(MOST_ACTIONS):
            state = settled(page, next_deal=False)
            if state == "over":
                break
            if state == "pause":
                paused += 1
                at = seq(page)
                expect(page.locator("#deal-end")).to_contain_text("Deal 1 is over")
                expect(page.locator("#deal-end")).to_contain_text("The bots wait until you press Next deal")
                clock = page.locator("#pause-clock")  # the pause counts down by the server's clock
                expect(clock).to_have_text(re.compile(r"^[12]:[0-5][0-9]$"))
                expect(clock).not_to_have_text(clock.inner_text(), timeout=WAIT_MS)
                public = public_view(server, table)
                shown = page.locator(".hands .card:not(.back)").count() + page.locator("#hand .card").count()
                assert shown == sum(public["hand_sizes"])  # every hand face up
                assert page.locator(".hands .card.back").count() == 0
                assert page.locator("#deal-end .deal-scores tbody tr").count() == 2
                page.screenshot(path=artifacts / "end-of-deal-paused.png")
                assert (public["phase"], str(public["seq"])) == ("deal_over", at)  # nobody has moved on
                expect(page.locator("#next-deal-button")).to_be_visible()
                page.click("#next-deal-button")
                page.wait_for_function("s => document.body.dataset.seq !== s", arg=at, timeout=WAIT_MS)
                assert get(server, f"api/tables/{table}")["seq"] > int(at)
                continue
            no_repr_and_rules_once(page)
            play_one(page)
        else:
            pytest.fail("the game did not end")
        assert paused == 1
        title = page.locator("#game-end-title").inner_text()
        points = get(server, f"api/tables/{table}")["points"]
        expected = "You win!" if points[0] > points[1] else "You lose" if points[0] < points[1] else "A draw"
        assert title.startswith(expected)
        expect(page.locator("#game-end")).to_contain_text(f"Final score: N-S {points[0]}, E-W {points[1]}.")
        assert page.locator("#lobby-link").get_attribute("href") == "/"
        page.screenshot(path=artifacts / "end-of-game-rematch.png")
        page.click("#rematch-button")
        page.wait_for_url(re.compile(r"/tables/(?!" + table + r")[0-9a-f]+$"), timeout=WAIT_MS)
        again = table_id(page)
        assert settled(page) == "turn"
        assert page.evaluate("document.body.dataset.seat") == "0"
        summary = get(server, f"api/tables/{again}")
        assert (summary["name"], summary["status"], summary["seats"][0]["name"]) == ("Pause", "playing", "Ann")
        assert [seat["bot"] for seat in summary["seats"]] == [None, "greedy", "greedy", "greedy"]
        page.context.close()


class TestTheHandStaysInSight:
    """
    At 1280 by 800, the hand and its buttons stay inside the window at every turn, with nine melds
    and more on the table.
    """

    def test_the_hand_inside_the_window(self, server: str, browser: Browser, artifacts: Path) -> None:
        spec = {"name": "Long table", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 4}
        page, _table = open_seat(server, browser, spec, {"width": 1280, "height": 800})
        most = 0
        for _ in range(MOST_ACTIONS):
            if settled(page) == "over":
                break
            melds = page.locator(".meld").count()
            for selector in ("#hand", "#actions"):
                box = box_of(page, selector)
                assert box["y"] >= 0, (selector, box, melds)
                assert box["y"] + box["height"] <= 800, (selector, box, melds)
                assert box["x"] >= 0, (selector, box, melds)
                assert box["x"] + box["width"] <= 1280, (selector, box, melds)
            if melds >= 9 and most < 9:
                page.screenshot(path=artifacts / "nine-melds.png")
            most = max(most, melds)
            play_one(page)
        assert most >= 9
        page.context.close()


#: The boxes of the discard pile's cards, in the draw phase (none in another), as the page lays them out now.
PILE_BOXES = """() => document.body.dataset.phase !== "draw" ? [] : [...document.querySelectorAll(".pile button.card")]
    .map((card) => card.getBoundingClientRect())
    .map((box) => ({x: box.x, y: box.y, width: box.width, height: box.height}))"""
#: Where the hand's bar starts, from the top of the window, as the pile's boxes are read.
DOCK_TOP = "() => document.getElementById('dock').getBoundingClientRect().top"


#: The elements that reach past the window's right edge, unless a box that scrolls or clips holds them in
#: (the page's html and body clip, so the document's own width never shows an overflow).
BEYOND_THE_WINDOW = """() => [...document.querySelectorAll("body *")].filter((node) => {
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.right <= window.innerWidth + 1) return false;
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") return false;
    }
    return true;
}).map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}: ${node.getBoundingClientRect().right}`)"""


class TestThePileOnAPhone:
    """
    At 390 by 844, each card of the discard pile that can be clicked shows at least 32 by 32 pixels, and
    the pile is in sight above the hand's bar when the turn starts.
    """

    def test_pile_targets(self, server: str, browser: Browser, artifacts: Path) -> None:
        spec = {"name": "Phone pile", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 4}
        page, _table = open_seat(server, browser, spec, {"width": 390, "height": 844}, phone=True)
        biggest = 0
        for _ in range(MOST_ACTIONS):
            if settled(page) == "over":
                break
            # Every box of one drawing of the page, read at once: the bots' moves redraw the pile between reads.
            boxes: list[dict[str, float]] = page.evaluate(PILE_BOXES)
            dock: float = page.evaluate(DOCK_TOP)
            if boxes:
                top = boxes[-1]  # the top card, in sight above the hand's bar when the turn starts
                assert top["y"] >= 0, top
                assert top["y"] + top["height"] <= dock, (top, dock)
                for index, box in enumerate(boxes):
                    later = [other for other in boxes[index + 1 :] if abs(other["y"] - box["y"]) < 4]
                    shown = (later[0]["x"] - box["x"]) if later else box["width"]
                    assert shown >= 32, (index, box, shown)
                    assert box["height"] >= 32, (index, box)
                    assert box["x"] >= 0, box
                    assert box["x"] + box["width"] <= 390, box
                if len(boxes) > biggest:
                    biggest = len(boxes)
                    page.screenshot(path=artifacts / "phone-pile.png", full_page=True)
                if biggest >= 6:
                    break
            play_one(page)
        assert biggest >= 6
        page.context.close()

    def test_nothing_wider_than_a_phone(self, server: str, browser: Browser, artifacts: Path) -> None:
        """
        At 390 by 844, no part of the page is wider than the window, in play, at the deal's pause and at
        the game's end (the scores' tables, the whole hands shown face up, Rematch).
        """
        spec = {"name": "Phone game", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 4}
        page, _table = open_seat(server, browser, spec, {"width": 390, "height": 844}, phone=True)
        seen: set[str] = set()
        for _ in range(MOST_ACTIONS):
            state = settled(page, next_deal=False)
            assert [] == page.evaluate(BEYOND_THE_WINDOW), state
            if state not in seen:
                seen.add(state)
                page.screenshot(path=artifacts / f"phone-{state}.png", full_page=True)
            if state == "over":
                break
            if state == "pause":
                page.click("#next-deal-button")
                page.wait_for_selector('body:not([data-pause="true"])', timeout=WAIT_MS)
                continue
            play_one(page)
        assert {"turn", "pause", "over"} == seen
        page.context.close()


class TestRefusals:
    """A double click sends one action; a refusal is shown in words, its rule once, no action written as code."""

    def test_a_double_click_on_the_stock(self, server: str, browser: Browser) -> None:
        relay = Relay()
        spec = {"name": "Double", "seats": BOTS, "clock": None, "bot_delay": 0, "seed": 4}
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
        before = seq(page)
        sent = len([message for message in relay.sent if message["type"] == "act"])
        page.dblclick(".stock-button")
        page.wait_for_function("s => document.body.dataset.seq !== s", arg=before, timeout=WAIT_MS)
        assert [message for message in relay.sent if message["type"] == "act"][sent:] == [
            {"type": "act", "action": "N draw", "id": sent + 1}
        ]
        assert int(seq(page)) == int(before) + 1
        assert page.locator("#error").count() == 0
        expect(page.locator("#why")).not_to_be_empty()  # nothing selected: the page says what to do
        # A refusal of the server's, forged: the stock is no longer to draw from.
        relay.forged = "N draw"
        page.locator("#hand button.card").first.click()
        page.locator("#hand button.card").nth(1).click()
        expect(page.locator("#why")).to_contain_text(re.compile("meld|discard"))
        page.locator("#hand button.card").nth(1).click()
        page.click("#discard-button")
        expect(page.locator("#error")).to_be_visible(timeout=WAIT_MS)
        text = page.locator("#error").inner_text()
        assert "(seat=" not in text
        assert "illegal action" not in text
        assert len(RULE.findall(text)) == len(set(RULE.findall(text))) >= 1, text
        no_repr_and_rules_once(page)
        relay.forged = None
        page.context.close()


class TestTheLobby:
    """
    Creating a table shows its invitations in sight at once and cannot be repeated by accident; the
    invitation's page names the table, the seat and the partner; a seat's page warns that its address
    holds the seat and gives a link to watch instead.
    """

    def test_a_table_with_a_friend(self, server: str, browser: Browser, artifacts: Path) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(server)
        page.fill("#your-name", "Ann")
        page.fill("#table-name", "Friday friends")
        page.select_option("#seat-2", "person")
        page.select_option("#bot-delay", "0")
        before = get(server, "api/tables")["total"]
        page.click("#create-button")
        expect(page.locator("#invitations")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#create-button")).to_be_disabled()
        page.locator("#create-button").click(force=True)  # a second click, by accident
        box = box_of(page, "#invitations-heading")
        assert 0 <= box["y"] < 800
        expect(page.locator("#invitations-heading")).to_have_text("Invite your friends to Friday friends")
        link = page.locator('.invite-link[data-seat="2"]').input_value()
        watch = page.locator('.invite-link[aria-label="Link to watch the table"]').input_value()
        assert link.endswith("&seat=2")
        assert "#" not in watch
        assert get(server, "api/tables")["total"] == before + 1
        page.screenshot(path=artifacts / "lobby-invitations.png")
        friend = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        friend.goto(link)
        expect(friend.locator("#claim-title")).to_have_text(
            "You are invited to Friday friends, seat S", timeout=WAIT_MS
        )
        expect(friend.locator("#claim-form")).to_contain_text("Your partner: N · Ann. Against E · greedy bot")
        friend.screenshot(path=artifacts / "invitation.png")
        friend.fill("#claim-name", "Bea")
        friend.click("#claim-form button[type=submit]")
        seated(friend)
        expect(friend.locator("#share-note")).to_contain_text("Your seat stays in this browser", timeout=WAIT_MS)
        assert friend.locator("#watch-link").get_attribute("href") == watch == friend.url  # the address only watches
        expect(friend.locator("#copy-seat-link")).to_have_attribute("title", re.compile("plays for you"))
        friend.reload()  # the seat comes back from the browser, not from the address
        expect(friend.locator("#hand")).to_be_visible(timeout=WAIT_MS)
        assert friend.url == watch
        assert page.locator("#how-to-play").get_attribute("href", timeout=WAIT_MS)
        friend.context.close()
        context.close()
