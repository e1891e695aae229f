"""Shared Playwright support for the browser tests: a server subprocess, Debian's chromium,
a page with a page-error check, screenshots, and moves made by clicking only.

Import the fixtures into a test module (``from e2e_support import server, browser``);
the module skips cleanly when fastapi, playwright or chromium is missing.
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

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a free port with bots at no delay; returns (process, base url).  Every
    table of a test module comes from one address: no limit on tables per minute."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pysaboteur.web", "--port", str(port), "--bot-delay", "0",
         "--database-url", f"sqlite:///{db}", "--tables-per-minute", "0", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    return proc, f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    proc, url = start_server(tmp_path_factory.mktemp("e2e") / "e2e.sqlite3")
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


class Page:
    """A browser context and page; ``errors`` collects the page's uncaught errors."""

    def __init__(self, browser: Any, viewport: dict[str, int] = DESKTOP,
                 locale: str = "en-US") -> None:
        self.context = browser.new_context(viewport=viewport, locale=locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60000)  # a loaded 2-core machine
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def shot_dirs(tmp_path: Path) -> list[Path]:
    """Where screenshots go: /tmp/shots, the test's tmp dir, and $SABOTEUR_SHOTS if set."""
    dirs = [Path("/tmp/shots"), tmp_path / "shots"]
    if os.environ.get("SABOTEUR_SHOTS"):
        dirs.append(Path(os.environ["SABOTEUR_SHOTS"]))
    for d in dirs:
        d.mkdir(parents=True, exist_ok=True)
    return dirs


def screenshot(page: Any, dirs: list[Path], name: str) -> None:
    data = page.screenshot()
    for d in dirs:
        (d / f"{name}.png").write_bytes(data)


def state(page: Any) -> Any:
    """The last state message the page was sent (only what this seat may know)."""
    return page.evaluate("() => window.__state && window.__state()")


def my_turn(page: Any) -> bool:
    return bool(page.evaluate(
        "() => !!(window.__state && window.__state() && window.__state().legal.length)"))


#: clicks on elements the page has just drawn: no actionability waits (the page draws each
#: frame at once; a loaded 2-core machine makes every wait cost)
ROUND_PANELS = "[data-testid=round-over], [data-testid=match-over]"
FAST = {"force": True, "no_wait_after": True, "timeout": 5000}


def _click_first_target(page: Any) -> bool:
    """Click the first highlighted cell; where the page then asks which way (a pawn that
    can reach the cell by more than one route), take the first way it offers."""
    targets = page.locator("#board-svg [data-testid^=target-]")
    if targets.count():
        targets.first.click(**FAST)
        ways = page.locator("[data-testid=choice] [data-act]")
        if ways.count():
            ways.first.click(**FAST)
        return True
    return False


def play_one_move(page: Any, n: int = 0, *, propose_end_after: int | None = None,
                  play_every: int = 2) -> None:
    """Make one legal move by clicking, as a person would: a button the move needs (orient,
    take, vote, end the turn), else a playable path card on its first highlighted cell
    (every ``play_every``-th move), else a pawn's move, else a pass of as many cards as allowed.
    Nothing while a round's or the match's panel is up: the round that just ended must be
    closed first (the next round's first turn may already be this seat's)."""
    page.wait_for_timeout(0)  # let the page draw the state message it holds
    if page.locator(ROUND_PANELS).count():
        return
    msg = state(page)
    legal = msg["legal"]
    kinds = {a["kind"] for a in legal}
    hand = msg["view"].get("hand") or []

    def button(kind: str) -> bool:
        loc = page.locator(f"[data-testid={kind}]")
        if loc.count():
            loc.first.click(**FAST)
            return True
        return False

    if "Orient" in kinds and button("orient-n"):
        return
    if "Vote" in kinds:
        accept = [a for a in legal if a["kind"] == "Vote" and a.get("accept")]
        page.locator(f"#tools [data-act='{(accept or legal)[0]['text']}']").click(**FAST)
        return
    proposing = propose_end_after is not None and n >= propose_end_after
    if proposing and "ProposeEnd" in kinds and button("act-ProposeEnd"):
        return
    for kind in ("Take", "EndTurn"):
        if kind in kinds and button(f"act-{kind}"):
            return
    if "Steal" in kinds:
        page.locator(".player.targetable").first.click(**FAST)
        return
    if "Move" in kinds and _click_first_target(page):
        return
    if "NoMove" in kinds and button("act-NoMove"):
        return
    paths = [a for a in legal if a["kind"] == "PlacePath"]
    passes = [a for a in legal if a["kind"] == "Pass"]
    if paths and (n % play_every == 0 or not passes):
        a = paths[0]
        page.locator(f"[data-testid=hand-{hand.index(a['card'])}]").click(**FAST)
        if a["rotated"]:
            page.locator("[data-testid=rotate]").click(**FAST)
        page.locator(f"[data-testid=target-{a['x']}_{a['y']}]").click(**FAST)
        return
    if passes:
        most = max(passes, key=lambda a: len(a["cards"]))
        page.locator("[data-testid=pass-mode]").click(**FAST)
        page.wait_for_selector("[data-testid=confirm-pass]", timeout=5000)
        used: set[int] = set()
        for code in most["cards"]:
            i = next(i for i, c in enumerate(hand) if c == code and i not in used)
            used.add(i)
            page.locator(f"[data-testid=hand-{i}]").click(**FAST)
        page.locator("[data-testid=confirm-pass]").click(**FAST)
        return
    others = [a for a in legal if a["kind"] not in ("PlacePath", "Pass")]
    loc = page.locator(f"#tools [data-act='{others[0]['text']}']") if others else None
    if loc is not None and loc.count():
        loc.first.click(**FAST)
        return
    raise AssertionError(f"no clickable move among {sorted(kinds)}")


def wait_after_move(page: Any, index: int, timeout: float = 20000) -> None:
    """Until the page has a newer state than ``index`` or a round/match panel is up."""
    page.wait_for_function(
        "i => (window.__state() && window.__state().index !== i) "
        "|| document.querySelector('[data-testid=round-over],[data-testid=match-over]')",
        arg=index, timeout=timeout)


def try_one_move(page: Any, n: int = 0, **kw: Any) -> bool:
    """``play_one_move`` and wait for its answer; False (and the pass bar or a half-made
    choice put back) when the page moved on under the clicks or did not answer in time."""
    index = state(page)["index"]
    try:
        play_one_move(page, n, **kw)
        wait_after_move(page, index)
        return True
    except sync_api.TimeoutError:
        for kind in ("cancel-pass", "cancel-choice"):
            loc = page.locator(f"[data-testid={kind}]")
            if loc.count():
                loc.first.click(**FAST)
        return False
