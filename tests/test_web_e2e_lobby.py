"""End-to-end: the lobby.  The host's invite panel never shows the viewer's own token,
"my tables" brings a closed tab back to its game, the game options are controls built
from each game's options schema, and changing the player count keeps the seats set.

Debian's chromium through Playwright, with the server and browser fixtures of
e2e_support.py; skips cleanly when either is missing.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from e2e_support import browser, server  # noqa: E402,F401  (shared fixtures)

pytestmark = pytest.mark.e2e

#: every text of the page a person could read or copy: the text and every field's value
PAGE_TEXT = ("() => document.body.innerText + '\\n' + Array.from("
             "document.querySelectorAll('input, textarea, select'), e => e.value).join('\\n')")


@pytest.fixture()
def contexts(browser: Any) -> Iterator[Any]:  # noqa: F811
    """``make(locale)``: a new browser context (its own localStorage) and a page in it."""
    made: list[Any] = []
    errors: list[str] = []

    def make(locale: str = "en-US", width: int = 1366, height: int = 900) -> Any:
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        made.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(60000)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        return pg

    yield make
    for ctx in made:
        ctx.close()
    assert not errors, errors


def _token_of(url: str) -> tuple[str, str]:
    m = re.search(r"#/t/([^/]+)/([^/?#]+)$", url)
    assert m, url
    return m.group(1), m.group(2)


def _games(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "api/games") as r:
        return {g["name"]: g for g in json.load(r)}


def _set_players(page: Any, n: int) -> None:
    page.fill("[data-testid=new-players]", str(n))
    page.dispatch_event("[data-testid=new-players]", "change")
    page.wait_for_function("n => document.querySelectorAll('[data-seat-kind]').length === n",
                           arg=n)


def test_invite_panel_never_shows_the_viewers_own_token(server: str, contexts: Any) -> None:  # noqa: F811
    host = contexts()
    host.goto(server)
    host.select_option("[data-testid=new-game]", "classic")
    _set_players(host, 4)
    host.select_option("[data-testid=seat-kind-1]", "human")
    host.fill("[data-testid=seat-name-1]", "Bo")
    host.select_option("[data-testid=seat-kind-2]", "open")
    host.uncheck("[data-testid=new-public]")
    host.click("[data-testid=create]")
    host.wait_for_selector("[data-testid=invite]")
    table, mine = _token_of(host.url)
    text = host.evaluate(PAGE_TEXT)
    assert mine not in text and mine not in host.content()
    # the other person's private link and the open seat's join link, each with a copy button
    bo_link = host.input_value("[data-testid=invite-link-1]")
    assert re.search(rf"#/t/{table}/[\w-]+$", bo_link) and mine not in bo_link
    assert host.input_value("[data-testid=invite-link-2]").endswith(f"#/join/{table}")
    assert host.locator("[data-testid=invite-link-0]").count() == 0  # not mine
    assert host.locator("[data-testid=invite-link-3]").count() == 0  # a bot
    assert host.locator("[data-testid=copy-1]").count() == 1
    assert host.locator("[data-testid=copy-2]").count() == 1
    assert "not joined yet" in host.locator("[data-testid=invite-seat-1]").inner_text()
    assert "offline" not in host.locator("[data-testid=invite]").inner_text()
    assert host.locator("[data-testid=start]").count() == 1

    # Bo opens his link: he sees no Start, no invite, and not his own token either
    bo = contexts()
    bo.goto(bo_link)
    bo.wait_for_selector("[data-testid=invite-waiting]")
    waiting = bo.locator("[data-testid=invite-waiting]").inner_text()
    assert "Waiting for the host to start" in waiting
    assert bo.locator("[data-testid=start]").count() == 0
    _, bo_token = _token_of(bo.url)
    assert bo_token not in bo.evaluate(PAGE_TEXT)
    host.wait_for_function("() => !document.querySelector('[data-testid=invite-seat-1]')"
                           ".innerText.includes('not joined')")

    # somebody opens the join link: takes the open seat and lands on its own private link
    guest = contexts()
    guest.goto(server + f"#/join/{table}")
    guest.wait_for_url(re.compile(rf"#/t/{table}/[\w-]+$"))
    guest.wait_for_selector("[data-testid=invite-waiting]")
    assert guest.evaluate("() => window.__state().seat") == 2
    # the host starts
    host.click("[data-testid=start]")
    host.wait_for_function("() => window.__state().table.status === 'playing'")
    assert host.locator("[data-testid=invite]").count() == 0
    # the join link of a full table says so, and takes nobody anywhere
    late = contexts()
    late.goto(server + f"#/join/{table}")
    late.wait_for_selector("[data-testid=join-failed]")
    assert "taken" in late.locator("[data-testid=join-failed]").inner_text()
    assert "#/join/" in late.url


def test_my_tables_bring_a_closed_tab_back(server: str, contexts: Any) -> None:  # noqa: F811
    page = contexts()
    ctx = page.context
    page.goto(server)
    page.locator("[data-testid=quick-duel]").click()
    page.wait_for_selector("[data-testid=hand-0]")
    url = page.url
    table, _ = _token_of(url)
    page.evaluate("() => localStorage.setItem('seat:doesnotexist', 'nope')")  # a stale entry
    page.close()

    again = ctx.new_page()
    again.set_default_timeout(60000)
    again.goto(server)
    item = again.locator(f"[data-testid=mine-{table}]")
    item.wait_for()
    assert "The Duel" in item.inner_text()
    assert re.search(r"Your turn|turn|Playing", item.inner_text())
    assert "Round 1 of 3" in item.inner_text()
    # the server does not know the stale entry: it is forgotten
    assert again.evaluate("() => localStorage.getItem('seat:doesnotexist')") is None
    again.click(f"[data-testid=mine-return-{table}]")
    again.wait_for_selector("[data-testid=hand-0]")
    assert again.url == url
    # in German too
    again.goto(server)
    again.select_option("[data-testid=lang]", "de")
    again.wait_for_selector("text=Meine Tische")
    assert "Runde 1 von 3" in again.locator(f"[data-testid=mine-{table}]").inner_text()


def test_options_are_controls_built_from_the_schema(server: str, contexts: Any) -> None:  # noqa: F811
    games = _games(server)
    page = contexts()
    page.goto(server)
    page.wait_for_selector("[data-testid=new-game]")
    for name, game in games.items():
        page.select_option("[data-testid=new-game]", name)
        schema = game["options_schema"]
        page.wait_for_function(
            "n => document.querySelectorAll('#new-options [data-opt]').length === n",
            arg=len(schema))
        for o in schema:
            el = page.locator(f"[data-testid=opt-{o['name']}]")
            tag = el.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
            if o["type"] == "bool":
                assert tag == "input:checkbox", (name, o)
                assert el.is_checked() == o["default"]
            elif o["type"] == "choice":
                assert tag.startswith("select"), (name, o)
                assert el.locator("option").count() == len(o["choices"])
            elif o.get("seat"):  # a seat of the table, by its number
                assert tag.startswith("select"), (name, o)
                players = int(page.input_value("[data-testid=new-players]"))
                assert el.locator("option").count() == players
            else:
                assert tag == "input:number", (name, o)
                assert el.get_attribute("min") == str(o["min"])
                assert el.get_attribute("max") == str(o["max"])
        # no option shows its programme name
        text = page.locator("[data-testid=new-options]").inner_text()
        for o in schema:
            assert o["name"] not in text
    # translated names and choices
    page.select_option("[data-testid=new-game]", "duel")
    page.select_option("[data-testid=lang]", "de")
    page.wait_for_selector("text=Neuer Tisch")
    colours = page.locator("[data-testid=opt-seat0_colour] option").all_inner_texts()
    assert colours == ["grün", "blau"]
    page.select_option("[data-testid=lang]", "nl")
    page.wait_for_selector("text=Nieuwe tafel")
    assert page.locator("[data-testid=opt-seat0_colour] option").all_inner_texts() == [
        "groen", "blauw"]
    page.select_option("[data-testid=lang]", "en")
    page.wait_for_selector("text=New table")
    # a table made with chosen options has them
    page.select_option("[data-testid=new-game]", "lost-mines")
    _set_players(page, 3)
    page.fill("[data-testid=opt-rounds]", "4")
    page.dispatch_event("[data-testid=opt-rounds]", "change")
    page.select_option("[data-testid=opt-first_player]", "2")
    page.click("[data-testid=create]")
    page.wait_for_function("() => window.__state && window.__state()")
    assert page.evaluate("() => window.__state().table.options") == {"rounds": 4,
                                                                    "first_player": 2}


def test_changing_the_player_count_keeps_the_seats(server: str, contexts: Any) -> None:  # noqa: F811
    page = contexts(width=390, height=844)
    page.goto(server)
    page.select_option("[data-testid=new-game]", "classic")
    _set_players(page, 5)
    page.select_option("[data-testid=seat-kind-1]", "human")
    page.fill("[data-testid=seat-name-1]", "Ada")
    page.select_option("[data-testid=seat-level-2]", "hard")
    page.select_option("[data-testid=seat-kind-3]", "open")
    page.fill("[data-testid=seat-name-4]", "Robo")
    # difficulty only for bots
    assert page.locator("[data-testid=seat-level-1]").count() == 0
    assert page.locator("[data-testid=seat-level-3]").count() == 0
    assert page.locator("[data-testid=seat-level-2]").count() == 1

    def seats() -> list[tuple[str, str | None, str | None]]:
        out = []
        for i in range(page.locator("[data-seat-kind]").count()):
            kind = page.input_value(f"[data-testid=seat-kind-{i}]")
            level = (page.input_value(f"[data-testid=seat-level-{i}]")
                     if page.locator(f"[data-testid=seat-level-{i}]").count() else None)
            name = (page.input_value(f"[data-testid=seat-name-{i}]")
                    if page.locator(f"[data-testid=seat-name-{i}]").count() else None)
            out.append((kind, level, name))
        return out

    before = seats()
    assert before == [("human", None, ""), ("human", None, "Ada"), ("bot", "hard", ""),
                      ("open", None, None), ("bot", "normal", "Robo")]
    _set_players(page, 7)
    assert seats()[:5] == before
    _set_players(page, 3)
    assert seats() == before[:3]
    _set_players(page, 5)
    assert seats() == before  # the ones set aside come back
    page.select_option("[data-testid=new-game]", "expansion")  # another game: the same seats
    page.wait_for_function("() => document.querySelectorAll('[data-seat-kind]').length === 5")
    assert seats() == before
    # the lobby page is no wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
