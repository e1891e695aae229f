"""End-to-end: the puzzle pages.  The lobby links to the list; a puzzle shows its goal and
board; a wrong answer is refused with its reason, the proven solution is accepted, in
English and in German.

Debian's chromium through Playwright, with the shared fixtures of e2e_support.py; skips
cleanly when either is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from e2e_support import Page, browser, server  # noqa: E402,F401
from pysaboteur.puzzles import puzzles  # noqa: E402

pytestmark = pytest.mark.e2e


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    p = Page(browser)
    yield p.page
    p.close()


def test_solve_a_puzzle_from_the_lobby(page: Any, server: str) -> None:  # noqa: F811
    puzzle = next(p for p in puzzles() if p.kind == "reach" and p.game == "classic")
    page.goto(server)
    page.locator("[data-testid=puzzles-link]").click()
    page.locator("[data-testid=puzzle-list]").wait_for()
    page.locator(f"[data-testid=puzzle-{puzzle.id}]").click()
    page.locator("[data-testid=puzzle-board]").wait_for()
    assert page.locator("[data-testid=puzzle-goal]").inner_text() == puzzle.goal["en"]
    assert page.locator("#puzzle-page [data-card]").count() >= 2  # the start and paths
    answer = page.locator("[data-testid=puzzle-answer]")
    answer.fill("NESW@40,40")
    page.locator("[data-testid=puzzle-submit]").click()
    verdict = page.locator("[data-testid=puzzle-verdict]")
    verdict.wait_for()
    assert verdict.get_attribute("data-right") == "false"
    assert "not allowed" in verdict.inner_text()
    page.locator("[data-testid=puzzle-answer]").fill(" ; ".join(puzzle.solutions[0]))
    page.locator("[data-testid=puzzle-submit]").click()
    page.wait_for_selector("[data-testid=puzzle-verdict][data-right=true]")
    assert "Right" in page.locator("[data-testid=puzzle-verdict]").inner_text()


def test_a_where_puzzle_in_german(browser: Any, server: str) -> None:  # noqa: F811
    p = Page(browser, locale="de-DE")
    try:
        puzzle = next(q for q in puzzles() if q.kind == "where")
        page = p.page
        page.goto(server)
        page.evaluate("() => localStorage.setItem('lang', 'de')")
        page.goto(f"{server}#/puzzle/{puzzle.id}")
        page.locator("[data-testid=puzzle-board]").wait_for()
        assert page.locator("[data-testid=puzzle-goal]").inner_text() == puzzle.goal["de"]
        x, y = puzzle.solutions[0]
        page.locator("[data-testid=puzzle-answer]").fill(f"{x},{y}")
        page.locator("[data-testid=puzzle-submit]").click()
        page.wait_for_selector("[data-testid=puzzle-verdict][data-right=true]")
        assert "Richtig" in page.locator("[data-testid=puzzle-verdict]").inner_text()
    finally:
        p.close()
