"""End-to-end: every way in.  A whole round by keyboard alone, and every game on a phone
(390x844) without the page scrolling sideways; the board's camera (fit, zoom, pan).

Debian's chromium through Playwright, with the shared fixtures of e2e_support.py; skips
cleanly when either is missing.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from e2e_support import Page, browser, play_one_move, server  # noqa: E402,F401  (shared fixtures)

pytestmark = pytest.mark.e2e

ROUND_OVER = "[data-testid=round-over], [data-testid=match-over]"


def _table(base: str, game: str, players: int, options: dict[str, Any] | None = None) -> str:
    """A started table with me in seat 0 and easy bots elsewhere: my seat's link.  (Setting
    up is not acting: every move of the tests is made in the page.)"""
    body = {"game": game, "players": players, "start": True, "public": False,
            "options": options or {},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "difficulty": "easy"}] * (players - 1)}
    req = urllib.request.Request(base + "api/tables", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        made = json.load(r)
    return base.rstrip("/") + made["seats"][0]["link"]


@pytest.fixture()
def context_for(browser: Any) -> Iterator[Any]:  # noqa: F811
    """``make(width, height)``: a page in a new context of that size (its errors fail the test)."""
    made: list[Page] = []

    def make(width: int, height: int) -> Any:
        made.append(Page(browser, {"width": width, "height": height}))
        return made[-1].page

    yield make
    for page in made:
        page.close()


def _log_length(page: Any) -> int:
    return int(page.evaluate("() => window.__state() ? window.__state().view.log.length : 0"))


def _my_turn(page: Any) -> bool:
    return bool(page.evaluate("() => !!(window.__state() && window.__state().legal.length)"))


def _tab_to(page: Any, selector: str, limit: int = 80) -> bool:
    """Press Tab until ``selector`` has the focus (as a keyboard user would)."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return True
        page.keyboard.press("Tab")
    return False


def _cursor_on_target(page: Any) -> bool:
    return bool(page.evaluate("""() => {
        const c = document.querySelector('#board-svg .cursor');
        if (!c) return false;
        const g = c.parentElement.getAttribute('transform');
        return [...document.querySelectorAll('#board-svg [data-target]')]
            .some(t => t.getAttribute('transform') === g);
    }"""))


def _keyboard_move(page: Any) -> None:
    """One legal move with the keyboard alone."""
    for testid in ("orient-n", "act-EndTurn", "act-NoMove"):
        if page.locator(f"[data-testid={testid}]").count():
            assert _tab_to(page, f"[data-testid={testid}]"), testid
            page.keyboard.press("Enter")
            return
    hand = page.locator("[data-testid^=hand-]").count()
    for i in range(min(hand, 9)):
        page.keyboard.press(str(i + 1))
        if page.locator("[data-testid^=target-]").count():
            assert _cursor_on_target(page), "picking a card puts the cursor on a legal cell"
            page.keyboard.press("ArrowRight")  # over the legal cells, and back if none
            if not _cursor_on_target(page):
                page.keyboard.press("ArrowLeft")
            if _cursor_on_target(page):
                page.keyboard.press("Enter")
                return
        if page.locator("[data-testid=act-PlayOnPlayer]").count():
            assert _tab_to(page, "[data-testid=act-PlayOnPlayer]")
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Escape")  # put it back
    page.keyboard.press("p")
    page.keyboard.press("1")
    page.keyboard.press("Enter")


def test_a_whole_round_by_keyboard_alone(server: str, context_for: Any) -> None:  # noqa: F811
    page = context_for(1366, 900)
    page.goto(_table(server, "classic", 3))
    page.wait_for_selector("[data-testid=hand-0]")
    deadline = time.time() + 300
    moves = 0
    while not page.locator(ROUND_OVER).count():
        assert time.time() < deadline, "the round did not end in time"
        if not _my_turn(page):
            page.wait_for_timeout(50)
            continue
        n = _log_length(page)
        _keyboard_move(page)
        moves += 1
        page.wait_for_function(
            f"n => window.__state().view.log.length > n || document.querySelector('{ROUND_OVER}')",
            arg=n, timeout=60000)
    assert moves >= 5
    # no mouse was used: the page still shows the ended round
    assert page.evaluate("() => window.__state().view.last_round !== null")


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


@pytest.mark.parametrize(("game", "players", "options"), [
    ("duel", 2, {}), ("solo", 1, {}), ("classic", 5, {}), ("expansion", 7, {}),
    ("lost-mines", 6, {}),
])
def test_a_phone_plays_every_game_without_sideways_scrolling(
        server: str, context_for: Any, game: str, players: int,  # noqa: F811
        options: dict[str, Any]) -> None:
    page = context_for(390, 844)
    page.goto(_table(server, game, players, options))
    page.wait_for_selector("[data-testid=hand-0]")
    _no_sideways_scroll(page)
    for _ in range(3):
        page.wait_for_function("() => window.__state().legal.length || "
                               f"document.querySelector('{ROUND_OVER}')")
        if page.locator(ROUND_OVER).count():
            break
        n = _log_length(page)
        play_one_move(page)  # by tapping, as on a phone
        _no_sideways_scroll(page)
        page.wait_for_function(
            f"n => window.__state().view.log.length > n || document.querySelector('{ROUND_OVER}')",
            arg=n)
    _no_sideways_scroll(page)
    # the whole board is in view: every card of it inside the board's box
    inside = page.evaluate("""() => {
        const box = document.querySelector('#board-svg').getBoundingClientRect();
        return [...document.querySelectorAll('#board-svg [data-card], #board-svg [data-facedown]')]
          .every(e => { const r = e.getBoundingClientRect();
                        return r.left >= box.left - 1 && r.right <= box.right + 1
                            && r.top >= box.top - 1 && r.bottom <= box.bottom + 1; });
    }""")
    assert inside, "the board is fitted to its box on a phone"


def test_the_board_camera(server: str, context_for: Any) -> None:  # noqa: F811
    page = context_for(1366, 900)
    page.goto(_table(server, "classic", 3))
    page.wait_for_selector("[data-testid=hand-0]")
    world = "() => document.querySelector('#board-world').getAttribute('transform')"
    fitted = page.evaluate(world)
    page.locator("[data-cam=in]").click()
    zoomed = page.evaluate(world)
    assert zoomed != fitted
    box = page.locator("#board-svg").bounding_box()
    page.mouse.move(box["x"] + 300, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 380, box["y"] + 260, steps=5)
    page.mouse.up()
    assert page.evaluate(world) != zoomed  # dragged
    page.mouse.wheel(0, 300)
    page.locator("[data-testid=fit]").click()
    assert page.evaluate(world) == fitted
    page.locator("[data-testid=coords]").click()
    assert page.locator("#board-svg .coord").count() > 0
    page.locator("[data-testid=coords]").click()
    assert page.locator("#board-svg .coord").count() == 0
