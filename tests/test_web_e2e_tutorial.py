"""The tutorials in the browser, by Playwright: every tutorial played through to its end by
clicking (first an illegal move, explained in the panel with the engine's own reason, and a
legal move the step does not ask for), then its free round's table opens."""

from __future__ import annotations

from typing import Any

import pytest

from e2e_support import FAST, Page, browser, server, state  # noqa: F401
from pysaboteur.tutorials import Runner, games, tutorial

pytestmark = pytest.mark.e2e


def click_move(page: Any, text: str) -> None:
    """Make the move ``text`` by clicking, as a learner would."""
    msg = state(page)
    found = [a for a in msg["legal"] if a["text"] == text]
    assert found, f"{text} is not among the legal moves {[a['text'] for a in msg['legal']]}"
    a = found[0]
    hand = msg["view"].get("hand") or []
    kind = a["kind"]
    if kind in ("Pass", "Discard"):  # the pass bar: the cards picked, then confirmed
        page.locator("[data-testid=pass-mode]").click(**FAST)
        used: set[int] = set()
        for code in a["cards"]:
            i = next(i for i, c in enumerate(hand) if c == code and i not in used)
            used.add(i)
            page.locator(f"[data-testid=hand-{i}]").click(**FAST)
        if kind == "Pass":
            page.locator("[data-testid=confirm-pass]").click(**FAST)
        else:  # the bar's button for removing that card with them
            page.locator(f"#prompt [data-act='{text}']").click(**FAST)
        return
    if kind in ("PlacePath", "PlayOnCell", "PlayOnJoint", "PlayOnPlayer", "PlayOnTreasure"):
        page.locator(f"[data-testid=hand-{hand.index(a['card'])}]").click(**FAST)
        if kind == "PlacePath" and a["rotated"]:
            page.locator("[data-testid=rotate]").click(**FAST)
    if kind in ("PlacePath", "PlayOnCell", "PlayOnJoint", "Bribe", "Move"):
        x, y = a["route"][-1] if kind == "Move" else (a["x"], a["y"])
        page.locator(f"[data-testid=target-{x}_{y}]").click(**FAST)
        # taken (or refused) at once, or a choice (of route, of side) to make first
        page.wait_for_function(
            "([i, t]) => window.__state().index !== i || [...document.querySelectorAll("
            "'#prompt [data-act]')].some((b) => b.dataset.act === t) || "
            "document.querySelector('[data-testid=tutorial-explain]')", arg=[msg["index"], text])
        choice = page.locator(f"#prompt [data-act='{text}']")
        if choice.count():
            choice.first.click(**FAST)
        return
    page.locator(f"#tools [data-act='{text}'], #prompt [data-act='{text}']").first.click(**FAST)


def wrong_legal_move(game: str) -> str | None:
    """A legal move of the first step that the step does not ask for."""
    r = Runner(tutorial(game))
    step = r.step
    assert step is not None
    for action in r.state.legal_actions():
        if not r.accepts(step, action) and type(action).__name__ == "PlacePath":
            return str(action)
    return None


def illegal_click(page: Any, game: str) -> str | None:
    """Pick the first step's path card and click a cell two down and two east of where it
    belongs (not a legal cell): the page sends it, the tutorial refuses it with the engine's
    reason, which is returned (None: no such cell or no path card to try)."""
    r = Runner(tutorial(game))
    msg = state(page)
    first = r.suggested() or ""
    want = [a for a in msg["legal"] if a["text"] == first and a["kind"] == "PlacePath"]
    if not want:
        return None
    a = want[0]
    x, y = a["x"] + 2, a["y"] + 2
    cell = page.locator(f"#board-svg [data-cell='{x},{y}']")
    if not cell.count() or any(b.get("x") == x and b.get("y") == y for b in msg["legal"]):
        return None
    out = r.move(f"{a['card']}@{x},{y}")
    assert not out.ok and out.reason
    page.locator(f"[data-testid=hand-{msg['view']['hand'].index(a['card'])}]").click(**FAST)
    cell.first.click(**FAST)
    return out.reason


@pytest.mark.parametrize("game", games())
def test_tutorial_to_its_end(browser: Any, server: str, game: str) -> None:  # noqa: F811
    p = Page(browser)
    page = p.page
    try:
        page.goto(server)
        page.locator("[data-testid=learn-to-play]").click()
        page.locator(f"[data-testid=learn-{game}]").click()
        page.wait_for_selector("[data-testid=tutorial-say]")
        script = tutorial(game)
        wrong = wrong_legal_move(game)
        if wrong is not None:
            click_move(page, wrong)
            page.wait_for_selector("[data-testid=tutorial-explain]")
            assert state(page)["index"] == 0  # refused: nothing changed
        illegal = illegal_click(page, game)
        assert illegal is not None, "no illegal click was tried"
        if illegal is not None:  # the engine's own reason, in the panel
            page.wait_for_function(
                "r => { const e = document.querySelector('[data-testid=tutorial-explain]');"
                " return e && e.textContent.includes(r); }", arg=illegal)
            assert state(page)["index"] == 0
        for n, step in enumerate(script.steps):
            page.wait_for_function(
                "n => document.querySelector('[data-testid=tutorial-panel] h2') && "
                "window.__state() && window.__state().legal.length > 0", arg=n)
            say = page.locator("[data-testid=tutorial-say]").inner_text()
            assert say == step.say["en"]
            index = state(page)["index"]
            shown = page.locator("[data-testid=tutorial-suggested]")
            move = (shown.text_content() or "") if shown.count() else step.expect[0]
            click_move(page, move)
            page.wait_for_function("i => window.__state().index !== i", arg=index)
        page.wait_for_selector("[data-testid=tutorial-outro]")
        assert page.locator("[data-testid=tutorial-outro]").inner_text() == script.outro["en"]
        if page.locator("[data-testid=close-banner]").count():  # the script ended the round
            page.locator("[data-testid=re-seats]").wait_for()
            page.locator("[data-testid=close-banner]").click()
        page.locator("[data-testid=tutorial-free]").click()
        page.wait_for_function("() => location.hash.startsWith('#/t/')")
        page.wait_for_function(f"() => window.__state() && window.__state().table.game === "
                               f"'{game}' && window.__state().table.tutorial === undefined")
    finally:
        p.close()


def test_tutorial_in_german(browser: Any, server: str) -> None:  # noqa: F811
    p = Page(browser, locale="de-DE")
    page = p.page
    try:
        page.goto(server + "#/learn/duel")
        page.wait_for_selector("[data-testid=tutorial-say]")
        assert page.locator("[data-testid=tutorial-say]").inner_text() == \
            tutorial("duel").steps[0].say["de"]
        # "Show the move": its notation, its card picked and its cell ringed on the board
        page.locator("[data-testid=tutorial-show]").click()
        shown = page.locator("[data-testid=tutorial-suggested]")
        shown.wait_for(state="visible")
        assert shown.inner_text() == "EW@1,1"
        page.locator("#board-svg [data-testid=hint-1_1]").wait_for()
        page.locator("[data-testid=target-1_1]").click(**FAST)  # the card is picked already
        page.wait_for_function("() => window.__state().index > 0")
        page.wait_for_function("() => !document.querySelector('#board-svg [data-testid=hint-1_1]')")
        assert page.locator("[data-testid=tutorial-say]").inner_text() == \
            tutorial("duel").steps[1].say["de"]
    finally:
        p.close()
