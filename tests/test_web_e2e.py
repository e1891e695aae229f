"""End-to-end: the browser client against a real server, in headless Chromium.

Uses Debian's chromium (``/usr/bin/chromium``) through the ``playwright`` package with
no browser download; skips cleanly when either is missing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from e2e_support import browser, play_one_move, server  # noqa: E402,F401  (shared fixtures)

pytestmark = pytest.mark.e2e


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844},  # a phone
                                  locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(60000)  # a loaded 2-core CI machine
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


#: the moves this seat was sent (the page's log lists every one of them)
LOG_LENGTH = "() => window.__state() ? window.__state().view.log.length : 0"


def _log_length(page: Any) -> int:
    return int(page.evaluate(LOG_LENGTH))


def _my_turn(page: Any) -> bool:
    return bool(page.evaluate("() => !!(window.__state && window.__state().legal.length)"))


def test_play_a_whole_duel_round_switch_language_and_reconnect(server: str, page: Any) -> None:  # noqa: F811
    page.goto(server)
    page.locator("[data-testid=quick-duel]").click()
    page.wait_for_selector("[data-testid=hand-0]")
    url = page.url
    assert "#/t/" in url

    # an illegal attempt gets clear feedback and changes nothing
    page.locator("[data-testid=hand-0]").click()
    before = _log_length(page)
    page.locator("#board-svg g[data-cell]").first.click(force=True)  # a far corner
    page.wait_for_selector("#feedback.show")
    assert page.locator("#feedback").inner_text().strip()
    assert _log_length(page) == before
    page.locator("[data-testid=hand-0]").click()  # put it back

    # play until the first round is over, clicking only
    deadline = time.time() + 400
    moves = 0
    while time.time() < deadline:
        if page.locator("[data-testid=round-over], [data-testid=match-over]").count():
            break
        if _my_turn(page):
            n = _log_length(page)
            play_one_move(page, moves)
            moves += 1
            page.wait_for_function(
                "n => window.__state().view.log.length > n "
                "|| document.querySelector('[data-testid=round-over],[data-testid=match-over]')",
                arg=n, timeout=60000)
        else:
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the round did not end in time")
    assert moves > 5 and _log_length(page) > before
    assert page.locator("[data-testid=log] li").count() == _log_length(page)  # every move
    banner = page.locator("[data-testid=round-over], [data-testid=match-over]")
    assert "Round 1" in banner.inner_text() or "match" in banner.inner_text().lower()
    assert page.locator("[data-testid=results]").count()
    codes = "() => Array.from(document.querySelectorAll('[data-hand]'), e => e.dataset.code)"
    hand_before = page.evaluate(codes)
    assert hand_before

    # switch the language: every text follows
    page.select_option("[data-testid=lang]", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.wait_for_selector("text=Spielverlauf")
    assert "Runde" in page.locator("[data-testid=status]").inner_text()
    page.select_option("[data-testid=lang]", "nl")
    page.wait_for_selector("text=Spelverloop")

    # reload: the same seat comes back (its token is in the link), in the chosen language
    page.reload()
    page.wait_for_selector("[data-testid=hand-0]")
    assert page.url == url
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.locator("[data-testid=player-0]").inner_text().count("(jij)") == 1
    assert page.evaluate(codes) == hand_before  # the same seat, the same hand


def test_browser_language_is_chosen_from_the_browser(server: str, browser: Any) -> None:  # noqa: F811
    context = browser.new_context(locale="de-DE")
    pg = context.new_page()
    pg.goto(server)
    pg.wait_for_selector("[data-testid=quick-duel]")
    assert "Duell" in pg.locator("[data-testid=quick-duel]").inner_text()
    context.close()
