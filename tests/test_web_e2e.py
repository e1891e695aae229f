"""End-to-end: the browser client against a real server, in headless Chromium.

Uses Debian's chromium (``/usr/bin/chromium``) through the ``playwright`` package with
no browser download; skips cleanly when either is missing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("SABOTEUR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no chromium at {CHROMIUM}", allow_module_level=True)

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pysaboteur.web", "--port", str(port), "--bot-delay", "0",
         "--database-url", f"sqlite:///{db}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844},  # a phone
                                  locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(60000)  # a loaded 2-core CI machine
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


#: the moves this seat was sent: the page lists only the last 80 of them, so a long round
#: would stop the list's length from growing
LOG_LENGTH = "() => window.__state() ? window.__state().view.log.length : 0"


def _log_length(page: Any) -> int:
    return int(page.evaluate(LOG_LENGTH))


def _my_turn(page: Any) -> bool:
    return bool(page.evaluate("() => !!(window.__state && window.__state().legal.length)"))


def _play_one_move(page: Any) -> None:
    """Make one legal move by clicking, the way a person would."""
    for kind in ("orient-n", "act-EndTurn"):
        loc = page.locator(f"[data-testid={kind}]")
        if loc.count():
            loc.first.click()
            return
    hand = page.locator("[data-testid^=hand-]")
    for i in range(hand.count()):
        page.locator(f"[data-testid=hand-{i}]").click()
        targets = page.locator("[data-testid^=target-]")
        if targets.count():
            targets.first.click(force=True)
            return
        seats = page.locator(".player.targetable")
        if seats.count():
            seats.first.click()
            choice = page.locator(".choice [data-act]")
            if choice.count():
                choice.first.click()
            return
        page.locator(f"[data-testid=hand-{i}]").click()  # put it back
    page.locator("[data-testid=pass-mode]").click()
    page.locator("[data-testid=hand-0]").click()
    page.locator("[data-testid=confirm-pass]").click()


def test_play_a_whole_duel_round_switch_language_and_reconnect(server: str, page: Any) -> None:
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
            _play_one_move(page)
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
    assert page.locator("[data-testid=log] li").count() == min(_log_length(page), 80)
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


def test_browser_language_is_chosen_from_the_browser(server: str, browser: Any) -> None:
    context = browser.new_context(locale="de-DE")
    pg = context.new_page()
    pg.goto(server)
    pg.wait_for_selector("[data-testid=quick-duel]")
    assert "Duell" in pg.locator("[data-testid=quick-duel]").inner_text()
    context.close()
