"""End-to-end: "Suggest a move".  On my turn the button asks for the hard bot's choice;
the suggestion shows on the board (its card picked, its cell ringed) or on its button,
with its reason in a line; playing it works, and moving clears it.  A table created
without hints shows no button.

Debian's chromium through Playwright, with the shared fixtures of e2e_support.py; skips
cleanly when either is missing.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from e2e_support import FAST, Page, browser, server, state, wait_after_move  # noqa: E402,F401

pytestmark = pytest.mark.e2e


def _table(base: str, game: str, players: int, hints: bool = True) -> tuple[str, str, str]:
    """A started table with me in seat 0 and easy bots elsewhere: (my link, id, token)."""
    body = {"game": game, "players": players, "start": True, "public": False,
            "hints": hints,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "difficulty": "easy"}] * (players - 1)}
    req = urllib.request.Request(base + "api/tables", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        made = json.load(r)
    seat = made["seats"][0]
    return base.rstrip("/") + seat["link"], made["id"], seat["token"]


def _hint(base: str, table: str, token: str) -> dict[str, Any]:
    """The hint as the route answers it (cached: the same answer the page got)."""
    req = urllib.request.Request(f"{base}api/tables/{table}/hint", data=b"", method="POST",
                                 headers={"X-Seat-Token": token})
    with urllib.request.urlopen(req) as r:
        return json.load(r)  # type: ignore[no-any-return]


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:  # noqa: F811
    p = Page(browser)
    yield p.page
    p.close()


def _wait_my_turn(page: Any) -> None:
    page.wait_for_function("() => window.__state() && window.__state().legal.length > 0 "
                           "&& !!document.querySelector('[data-testid=hint]')", timeout=60000)


def _play(page: Any, hint: dict[str, Any]) -> None:
    """Make the suggested move in the page, the way the suggestion points at it."""
    if hint["kind"] in ("PlacePath", "PlayOnCell", "Move", "Bribe"):
        x, y = (hint["x"], hint["y"]) if "x" in hint else hint["route"][-1]
        page.locator(f"#board-svg [data-testid=target-{x}_{y}]").first.dispatch_event("click")
        return
    if hint["kind"] in ("Pass", "Discard"):
        page.locator("[data-testid=pass-mode]").click(**FAST)
        for i, code in enumerate(state(page)["view"]["hand"]):
            if code in hint.get("cards", []) and not page.locator(
                    f"[data-testid=hand-{i}].selected").count():
                page.locator(f"[data-testid=hand-{i}]").click(**FAST)
    page.locator(f'[data-act="{hint["text"]}"]').first.click(**FAST)


@pytest.mark.parametrize("game,players", [("duel", 2), ("classic", 4)])
def test_suggestion_shows_on_the_board_and_can_be_played(page: Any, server: str,  # noqa: F811
                                                         game: str, players: int) -> None:
    link, table, token = _table(server, game, players)
    page.goto(link)
    _wait_my_turn(page)
    assert not page.locator("[data-testid=hint-reason]").count()
    index = state(page)["index"]
    page.locator("[data-testid=hint]").click(**FAST)
    page.wait_for_selector("[data-testid=hint-reason]")
    hint = _hint(server, table, token)
    assert hint["index"] == index
    assert hint["text"] in [a["text"] for a in state(page)["legal"]]
    line = page.locator("[data-testid=hint-reason]").inner_text()
    assert hint["action"] in line and "Suggestion" in line
    if hint.get("search"):
        assert f"of {hint['search']['simulations']} simulations" in line
    if "card" in hint and hint["kind"] not in ("Pass", "Discard"):  # its card picked
        picked = page.locator("#hand .hand-card.selected.hinted")
        assert picked.count() == 1 and picked.first.get_attribute("data-code") == hint["card"]
    if "x" in hint:  # its cell ringed on the board
        assert page.locator(f"#board-svg [data-testid=hint-{hint['x']}_{hint['y']}]").count() == 1
    elif hint["kind"] not in ("Pass", "Discard"):  # or its button marked
        assert page.locator(f'button.hinted[data-act="{hint["text"]}"]').count() == 1
    _play(page, hint)
    wait_after_move(page, index)
    moved = state(page)
    assert any(entry[0] == 0 for entry in moved["view"]["log"])  # my move went through
    page.wait_for_function("() => !document.querySelector('[data-testid=hint-reason]')"
                           " && !document.querySelector('#board-svg .hint')")


def test_no_button_without_hints(page: Any, server: str) -> None:  # noqa: F811
    link, _, _ = _table(server, "duel", 2, hints=False)
    page.goto(link)
    page.wait_for_function("() => window.__state() && window.__state().legal.length > 0",
                           timeout=60000)
    assert state(page)["table"]["hints"] is False
    assert not page.locator("[data-testid=hint]").count()
