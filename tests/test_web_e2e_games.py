"""End-to-end, one whole match of every game through the page, by clicking only.

The table is made with the lobby's own form (or its quick-play button), the other seats are
bots at no delay, and every move of the person's seat is a click (a card and its first
highlighted cell, a button, or a pass).  At every round's end the round-end panel is
checked for what the rules turn over then (roles, identities, gold per seat, others' gold
"?" in Saboteur until the match ends), and at the match's end for the standings, the
rematch button, the record link, closing and reopening.  Screenshots of each game in play
and at each round's end go to /tmp/shots/ (and the test's tmp dir, and $SABOTEUR_SHOTS).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e_support import (
    DESKTOP,
    PHONE,
    ROUND_PANELS,
    Page,
    browser,
    my_turn,
    screenshot,
    server,
    shot_dirs,
    start_server,
    state,
    try_one_move,
)

__all__ = ["browser", "server"]  # fixtures

pytestmark = pytest.mark.e2e

ROUNDS = {"duel": 3, "solo": 3, "classic": 3, "expansion": 3, "lost-mines": 1}


def _create(page: Any, url: str, game: str, players: int,
            options: dict[str, int] | None = None) -> None:
    """Make a table with the lobby's form: seat 1 this person, the others easy bots."""
    page.goto(url)
    page.wait_for_selector("[data-testid=create]")
    page.wait_for_load_state("networkidle")
    if game == "solo":
        page.locator("[data-testid=quick-solo]").click()
        page.wait_for_selector("[data-testid=hand-0]")
        return
    page.select_option("[data-testid=new-game]", game)
    if players != int(page.locator("[data-testid=new-players]").input_value()):
        page.locator("[data-testid=new-players]").fill(str(players))
        page.locator("[data-testid=new-players]").dispatch_event("change")
    page.wait_for_selector(f"[data-testid=seat-{players - 1}]")
    for i in range(1, players):
        page.select_option(f"[data-testid=seat-kind-{i}]", "bot")
        page.select_option(f"[data-testid=seat-level-{i}]", "easy")
    for name, value in (options or {}).items():
        page.locator(f"[data-testid=opt-{name}]").fill(str(value))
        page.locator(f"[data-testid=opt-{name}]").dispatch_event("change")
    page.locator("[data-testid=create]").click()
    page.wait_for_selector("[data-testid=hand-0]")


def _check_round_end(page: Any, game: str, players: int, final: bool) -> None:
    msg = state(page)
    view = msg["view"]
    r = view["results"][-1]
    panel = page.locator("[data-testid=match-over]" if final else "[data-testid=round-over]")
    text = panel.inner_text()
    assert page.locator("[data-testid=end-board]").count() == 1  # the board as it ended
    last = view["last_round"]
    assert last["round"] == r["round"]
    # the end board is the ended round's, not the new round's
    drawn = page.locator("[data-testid=end-board] [data-card]").count()
    assert drawn == len(last["board"])
    why = page.locator("[data-testid=re-why]").inner_text()
    assert why.strip()
    def cells(kind: str) -> list[str]:
        return [page.locator(f"[data-testid=re-{kind}-{s}]").inner_text().strip()
                for s in range(players)]
    gold, roles = cells("gold"), cells("role")
    if game in ("classic", "expansion"):
        assert all(roles), roles  # every seat's role is turned over
        assert re.search(r"win|Nobody", why), why
        assert gold[0].isdigit()
        if not final:
            assert all(g == "?" for g in gold[1:]), gold  # the others' gold stays secret
        else:
            assert all(g.isdigit() for g in gold), gold
    elif game == "lost-mines":
        assert all("clan" in x for x in roles), roles  # clans and identities revealed
        assert all(re.search("loyal|selfish|saboteur", x) for x in roles), roles
        assert all(g.lstrip("-").isdigit() for g in gold), gold
    else:  # the Duel and solo: every seat's gold this round
        assert all(g.isdigit() for g in gold), gold
        assert [int(g) for g in gold] == r["gold"]
    assert f"Round {r['round']}" in text


def _check_match_end(page: Any, url: str, game: str, players: int) -> None:
    panel = page.locator("[data-testid=match-over]")
    assert page.locator("[data-testid^=standing-]").count() == players
    assert page.locator("[data-testid=rematch], [data-testid=goto-rematch]").count() == 1
    link = page.locator("[data-testid=record-link]")
    href = link.get_attribute("href")
    table_id = state(page)["table"]["id"]
    assert href == f"/api/tables/{table_id}/record"
    assert page.request.get(url.rstrip("/") + href).status == 200  # the link works (a read)
    if game == "solo":
        assert page.locator("[data-testid=solo-rating]").count() == 1
    assert "match is over" in panel.inner_text()
    # close: the board stays; reopen from the results panel
    page.locator("[data-testid=close-results]").click()
    assert page.locator("[data-testid=match-over]").count() == 0
    assert page.locator("#board-svg [data-card]").count() > 0
    page.locator("[data-testid=reopen-results]").click()
    page.wait_for_selector("[data-testid=match-over]")


def _play_match(page: Any, url: str, game: str, players: int, dirs: list[Path], name: str,
                rounds: int, deadline: float) -> int:
    ended = 0
    moves = misses = 0
    shot_mid = False
    propose = 10 if game == "lost-mines" else None
    while time.time() < deadline:
        if page.locator("[data-testid=match-over]").count():
            _check_round_end(page, game, players, final=True)
            screenshot(page, dirs, f"{name}-match-end")
            _check_match_end(page, url, game, players)
            page.locator("[data-testid=close-results]").click()
            screenshot(page, dirs, f"{name}-match-closed")
            print(f"{game}: {moves} moves")
            if game == "lost-mines":  # the panels in every language
                page.locator("[data-testid=reopen-results]").click()
                for lang, words in (("de", "Spielprotokoll herunterladen"),
                                    ("nl", "Spelverslag downloaden"),
                                    ("en", "Download the match record")):
                    page.select_option("[data-testid=lang]", lang)
                    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
                    assert page.locator("[data-testid=record-link]").inner_text() == words
                page.keyboard.press("Escape")  # closes it too
                page.wait_for_selector("[data-testid=match-over]", state="detached")
            minis = page.locator("#players .front .mini")
            if minis.count():  # a tap on a card in front names it
                minis.first.click()
                page.wait_for_selector("#feedback.show")
                name = minis.first.get_attribute("data-front-name")
                assert page.locator("#feedback").inner_text() == name
            return moves
        if page.locator("[data-testid=round-over]").count():
            ended += 1
            _check_round_end(page, game, players, final=False)
            screenshot(page, dirs, f"{name}-round-{ended}-end")
            if ended == 1 and game == "classic":  # a reload after the round's end shows it
                page.reload()
                page.wait_for_selector("[data-testid=round-over]")
                _check_round_end(page, game, players, final=False)
            page.locator("[data-testid=close-banner]").click()
            page.wait_for_selector("[data-testid=round-over]", state="detached")
            continue
        msg = state(page)
        if msg and msg["legal"]:
            if not shot_mid and moves == 6:
                screenshot(page, dirs, f"{name}-mid-play")
                shot_mid = True
            if try_one_move(page, moves, propose_end_after=propose,
                            play_every=3 if game in ("duel", "solo") else 2):
                moves += 1
            else:  # the page moved on under the clicks: look again
                misses += 1
                screenshot(page, dirs, f"{name}-missed-{misses}")
                assert misses <= 5, f"{game}: {misses} moves did not go through"
        else:
            page.wait_for_timeout(30)
    raise AssertionError(f"{game}: the match did not end in time ({ended} rounds, {moves} moves)")


CASES = [
    ("duel", 2, None, PHONE),
    ("solo", 1, None, DESKTOP),
    ("classic", 3, None, DESKTOP),
    ("expansion", 3, None, DESKTOP),
    ("lost-mines", 3, {"rounds": 1}, DESKTOP),
]


@pytest.mark.parametrize(("game", "players", "options", "viewport"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_whole_match_by_clicking(server: str, browser: Any, tmp_path: Path, game: str,
                                   players: int, options: dict[str, int] | None,
                                   viewport: dict[str, int]) -> None:
    dirs = shot_dirs(tmp_path)
    pg = Page(browser, viewport)
    try:
        page = pg.page
        _create(page, server, game, players, options)
        assert "#/t/" in page.url
        view = state(page)["view"]
        assert view["rounds"] == ROUNDS[game]
        # panels: my role only on my panel, a running turn clock, markers as one pool
        if game in ("classic", "expansion", "lost-mines"):
            assert page.locator("[data-testid=my-role]").count() == 1
            assert page.locator("[data-testid=player-0] [data-testid=my-role]").count() == 1
        assert page.locator("[data-testid=turn-timer]").count() >= 1
        if game == "solo":  # the turn clock runs
            page.wait_for_timeout(1200)
            clock = page.locator("[data-testid=status] [data-testid=turn-timer]")
            assert clock.inner_text() != "0:00"
        if game == "duel":
            assert "Markers: 8" in page.locator("[data-testid=status]").inner_text()
            assert "Markers 8" not in page.locator("#players").inner_text()
        moves = _play_match(page, server, game, players, dirs, f"games-{game}", ROUNDS[game],
                            time.time() + 150)
        # (a one-round Lost Mines match may end, by the bots' moves and votes, within the
        # human's first three turns: there the clicks that went through are what counts)
        assert moves > (1 if game == "lost-mines" else 3)
        if game == "solo":  # the rematch button opens a new table for the same seat
            url = page.url
            page.locator("[data-testid=reopen-results]").click()
            page.locator("[data-testid=rematch]").click()
            page.wait_for_function("u => location.href !== u", arg=url)
            page.wait_for_selector("[data-testid=hand-0]")
            assert state(page)["view"]["results"] == []
    finally:
        pg.close()


def test_an_open_seat_says_not_joined_yet(server: str, browser: Any) -> None:
    pg = Page(browser, DESKTOP)
    try:
        page = pg.page
        page.goto(server)
        page.wait_for_selector("[data-testid=create]")
        page.wait_for_load_state("networkidle")
        page.select_option("[data-testid=new-game]", "classic")
        page.locator("[data-testid=new-players]").fill("3")
        page.locator("[data-testid=new-players]").dispatch_event("change")
        page.wait_for_selector("[data-testid=seat-2]")
        page.select_option("[data-testid=seat-kind-1]", "open")
        page.locator("[data-testid=create]").click()
        page.wait_for_selector("[data-testid=player-1]")
        assert "not joined yet" in page.locator("[data-testid=player-1]").inner_text()
        assert "offline" not in page.locator("#players").inner_text()
    finally:
        pg.close()


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that takes chosen seeds: the same seed, the same bots' moves."""
    proc, url = start_server(tmp_path_factory.mktemp("e2e-seeded") / "e2e.sqlite3",
                             "--allow-seed")
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def _two_ways(msg: Any) -> list[Any]:
    """The Move actions of the first cell my pawn can reach by more than one route."""
    ways: dict[tuple[int, int], list[Any]] = {}
    for a in msg["legal"] if msg else []:
        if a["kind"] == "Move":
            ways.setdefault(tuple(a["route"][-1]), []).append(a)
    return next((w for w in ways.values() if len(w) > 1), [])


def test_which_way_shows_each_route_on_the_board(seeded_server: str, browser: Any,
                                                 tmp_path: Path) -> None:
    """The Lost Mines: a cell my pawn can reach two ways asks "Which way?"; each way is drawn
    on the board in the colour of its button's swatch, lit while its button is pointed at,
    and the one clicked is the move made.
    Tables of seeds 1, 2, ... are played by clicking until one offers such a cell."""
    dirs = shot_dirs(tmp_path)
    pg = Page(browser, DESKTOP)
    page = pg.page
    try:
        for seed in range(1, 40):
            body = {"game": "lost-mines", "players": 3, "start": True, "public": False,
                    "seed": seed, "options": {"rounds": 1},
                    "seats": [{"kind": "human"}] + [{"kind": "bot", "difficulty": "easy"}] * 2}
            made = page.request.post(seeded_server + "api/tables", data=body).json()
            page.goto(seeded_server.rstrip("/") + made["seats"][0]["link"])
            page.wait_for_selector("[data-testid=hand-0]")
            n = 0
            while not page.locator(ROUND_PANELS).count() and n < 60:
                page.wait_for_function("() => window.__state() && (window.__state().legal.length"
                                       " || document.querySelector('[data-testid=round-over],"
                                       "[data-testid=match-over]'))")
                ways = _two_ways(state(page))
                if ways:
                    break
                if my_turn(page) and try_one_move(page, n, play_every=1):
                    n += 1
            if ways:
                print(f"seed {seed}: a cell reachable {len(ways)} ways after {n} moves")
                break
        else:
            raise AssertionError("no table of seeds 1-39 offered a cell reachable two ways")
        x, y = ways[0]["route"][-1]
        page.locator(f"[data-testid=target-{x}_{y}]").click()
        buttons = page.locator("[data-testid=choice] [data-route]")
        assert buttons.count() == len(ways)
        assert page.locator("#board-world .choice-route").count() == len(ways)
        for i in range(len(ways)):  # each way's colour: its line and its button's swatch
            colour = page.locator(f"[data-testid=route-{i}]").evaluate(
                "e => getComputedStyle(e).stroke")
            swatch = buttons.nth(i).locator(".way-swatch").evaluate(
                "e => getComputedStyle(e).backgroundColor")
            assert colour == swatch
        assert len({page.locator(f"[data-testid=route-{i}]").evaluate(
            "e => getComputedStyle(e).stroke") for i in range(len(ways))}) == len(ways)
        buttons.nth(1).hover()
        assert "lit" in (page.locator("[data-testid=route-1]").get_attribute("class") or "")
        assert "dim" in (page.locator("[data-testid=route-0]").get_attribute("class") or "")
        screenshot(page, dirs, "games-which-way")
        page.mouse.move(5, 5)
        assert "lit" not in (page.locator("[data-testid=route-1]").get_attribute("class") or "")
        index = state(page)["index"]
        buttons.nth(1).click()
        page.wait_for_function("i => window.__state().index !== i", arg=index)
        assert page.locator("[data-testid=choice]").count() == 0
        assert state(page)["view"]["pawns"][0] == [x, y]  # the pawn went where the way led
    finally:
        pg.close()
