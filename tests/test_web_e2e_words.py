"""End-to-end: every word of a German or Dutch table page is German or Dutch.

A Saboteur table (3 players, bots) and a Lost Mines table (4 players, bots) are played a
few moves by clicking, in German and in Dutch; then every visible text node of the page
and every title / aria-label / placeholder is held against the English catalogue (every
English value of i18n/en*.json): no English string may be there, except the words the
languages share (the allow-list of tests/test_i18n.py) and proper names.  The log must
read as sentences (no `@` or `>` notation) with its numbers past 9 fully visible; the
rules dialog shows the game's summary in the page's language and closes with Esc; my
turn, come while the tab is hidden, marks the title.
"""

# ruff: noqa: E501  (the page scripts evaluated in the browser are long JavaScript lines)

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from e2e_support import (
    DESKTOP,
    FAST,
    PHONE,
    Page,
    browser,
    my_turn,
    play_one_move,
    screenshot,
    server,
    shot_dirs,
    state,
    sync_api,
    wait_after_move,
)
from test_i18n import SAME

__all__ = ["browser", "server"]  # fixtures

pytestmark = pytest.mark.e2e

I18N = Path(__file__).resolve().parent.parent / "src" / "pysaboteur" / "web" / "i18n"
PLACEHOLDER = re.compile(r"\{[a-z_0-9]+\}")
LOCALES = {"de": "de-DE", "nl": "nl-NL", "en": "en-US"}
#: words of the language that are also English words, in running text (Dutch "door": by)
IN_TEXT = {"de": {"in", "so", "also"}, "nl": {"door", "in", "is"}}


def _flat(data: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update({f"{key}.{k}": v for k, v in _flat(value).items()})
        elif key not in ("lang", "name"):
            out[key] = value
    return out


def _catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(I18N.glob(f"{lang}*.json")):
        out.update({f"{path.name}:{k}": v for k, v in _flat(json.loads(path.read_text("utf-8"))).items()})
    return out


def _english_pieces(lang: str) -> set[str]:
    """The English texts to look for: each value's literal parts between {placeholders}
    that hold a word the other language does not share and are not that language's own
    text as well."""
    own = set(_catalogue(lang).values())
    pieces: set[str] = set()
    for value in _catalogue("en").values():
        if value in own:
            continue
        for part in PLACEHOLDER.split(value):
            part = part.strip(" :,.;()\u2013-→·/?!…\n")
            words = re.findall(r"[^\W\d_]+", part)
            if len(part) < 3 or not words or set(words) <= SAME[lang] | IN_TEXT[lang]:
                continue
            if len(words) == 1 and len(words[0]) < 3:
                continue
            pieces.add(part)
    return pieces


#: every visible text of the page and the words of its titles, labels and placeholders
TEXTS = """() => {
  const out = [];
  const seen = (el) => !el.checkVisibility || el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode());) {
    const el = n.parentElement, s = n.nodeValue.trim();
    if (!s || !el || el.closest("script, style, title, option") || !seen(el)) continue;
    out.push(s);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (!seen(el)) continue;
    for (const a of ["title", "aria-label", "placeholder"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  for (const opt of document.querySelectorAll("select:not(#lang) option")) if (seen(opt.parentElement)) out.push(opt.textContent.trim());
  return out;
}"""


def _english_on_page(page: Any, lang: str, names: set[str]) -> list[tuple[str, str]]:
    texts = page.evaluate(TEXTS)
    found = []
    for piece in sorted(_english_pieces(lang)):
        rx = re.compile(rf"(?<![\w]){re.escape(piece)}(?![\w])")
        for text in texts:
            rest = text
            for name in names:
                rest = rest.replace(name, " ")
            if rx.search(rest):
                found.append((piece, text))
                break
    return found


def _create(server: str, game: str, players: int) -> str:
    seats = [{"kind": "human", "name": "Anna"}] + [{"kind": "bot", "difficulty": "easy"}] * (players - 1)
    body = json.dumps({"game": game, "players": players, "seats": seats, "start": True, "public": False})
    req = urllib.request.Request(server.rstrip("/") + "/api/tables", body.encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        made = json.load(r)
    return server.rstrip("/") + made["seats"][0]["link"]


def _play(page: Any, moves: int, deadline: float = 240) -> None:
    end = time.time() + deadline
    n = 0
    while n < moves and time.time() < end:
        if page.locator("[data-testid=round-over], [data-testid=match-over]").count():
            break
        if my_turn(page):
            index = state(page)["index"]
            play_one_move(page, n)
            choice = page.locator(".choice [data-act]")  # a route or a tool to choose
            if choice.count():
                choice.first.click(**FAST)
            try:
                wait_after_move(page, index)
                n += 1  # only moves the server took count
            except sync_api.TimeoutError:  # the page moved on under the clicks: again
                pass
        else:
            page.wait_for_timeout(50)
    # a round may end early (The Lost Mines: a bot proposes the end and every seat accepts)
    ended = page.locator("[data-testid=round-over], [data-testid=match-over]").count()
    assert n >= min(moves, 3) or (n and ended), f"only {n} moves made"


def _wait_my_turn(page: Any) -> None:
    page.wait_for_function("() => window.__state() && window.__state().legal.length > 0", timeout=60000)


def _log_checks(page: Any, at_least: int = 10) -> None:
    _wait_my_turn(page)  # the bots wait for me: the log stands still
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log] li').length "
                           "=== window.__state().view.log.length")
    items = page.locator("[data-testid=log] li").all_inner_texts()
    assert len(items) >= at_least, items
    raw = [x for x in items if re.search(r"[@>#]|^\S+:\s|\b\w+@-?\d", x)]
    assert raw == [], f"notation in the log: {raw}"
    log_len = page.evaluate("() => window.__state().view.log.length")
    assert len(items) == log_len
    values = page.locator("[data-testid=log] li").evaluate_all("els => els.map(e => e.value)")
    assert values == list(range(1, len(values) + 1))
    if len(items) >= 10:  # (always, in these tests)
        # the numbers' gutter holds "100." in the list's own font: "10." and "11." are whole
        gutter = page.evaluate("""() => {
          const ol = document.querySelector('[data-testid=log]'), li = ol.querySelectorAll('li')[9];
          const probe = document.createElement('span');
          probe.style.font = getComputedStyle(li).font; probe.style.position = 'absolute';
          probe.textContent = '100.'; document.body.appendChild(probe);
          const w = probe.getBoundingClientRect().width; probe.remove();
          return {pad: parseFloat(getComputedStyle(ol).paddingLeft), w,
                  left: ol.getBoundingClientRect().left, panel: ol.closest('.panel').getBoundingClientRect().left};
        }""")
        assert gutter["pad"] >= gutter["w"] + 2, gutter
        assert gutter["left"] >= gutter["panel"] - 1, gutter


def _help_checks(page: Any, game: str, lang: str) -> None:
    words = json.loads((I18N / f"{lang}.help.json").read_text("utf-8"))
    close = page.locator("[data-testid=close-banner]")  # a round that ended early (a vote)
    if close.count():
        close.first.click()
    page.locator("[data-testid=rules-button]").click()
    page.wait_for_selector("#help-dialog[open]")
    body = page.locator("[data-testid=help-body]").inner_text()
    assert words["rules"][f"{game}_goal"].split(";")[0] in body
    assert words["help"]["h_keys"] in body
    assert page.evaluate("() => document.activeElement.dataset.testid") == "help-close"
    page.keyboard.press("Digit1")  # the table's keys are off while the dialog is open
    assert page.evaluate("() => document.querySelectorAll('.hand-card.selected').length") == 0
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#help-dialog').open")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "rules-button"
    # the close button closes it as well
    page.locator("[data-testid=rules-button]").click()
    page.wait_for_selector("#help-dialog[open]")
    page.locator("[data-testid=help-close]").click()
    page.wait_for_function("() => !document.querySelector('#help-dialog').open")
    page.keyboard.press("?")  # and the "?" key opens it
    page.wait_for_selector("#help-dialog[open]")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#help-dialog').open")
    # the turn's sound: off unless switched on, kept in localStorage
    sound = page.locator("[data-testid=sound-toggle]")
    assert sound.get_attribute("aria-pressed") == "false"
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('turn-sound')") == "1"
    assert sound.get_attribute("aria-label") == words["help"]["sound_on"]
    sound.click()
    assert page.evaluate("() => localStorage.getItem('turn-sound')") == "0"


def _turn_notice_checks(page: Any, lang: str) -> None:
    """My turn, come while the tab is hidden, marks the title until the tab is seen again."""
    mark = json.loads((I18N / f"{lang}.help.json").read_text("utf-8"))["help"]["your_turn_title"]
    _wait_my_turn(page)
    page.evaluate("() => Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    me = state(page)["seat"]
    start = len(state(page)["view"]["log"])
    for n in range(6):  # my turn may have several steps (The Lost Mines: card, then move)
        index = state(page)["index"]
        stay = page.locator("[data-testid=act-NoMove]")
        if stay.count():
            stay.first.click()
        else:
            play_one_move(page, n)
            choice = page.locator(".choice [data-act]")  # a route or a tool to choose
            if choice.count():
                choice.first.click()
        wait_after_move(page, index)
        if page.locator("[data-testid=round-over], [data-testid=match-over]").count():
            return
        page.wait_for_function("([me, start]) => { const s = window.__state(); return s.legal.length > 0 "
                               "|| s.view.log.slice(start).some(([seat]) => seat !== me); }", arg=[me, start])
        if any(seat != me for seat, _ in state(page)["view"]["log"][start:]):
            break  # another seat has moved: the turn that comes is a new one
    _wait_my_turn(page)
    page.wait_for_function("m => document.title.startsWith(m)", arg=mark, timeout=10000)
    page.evaluate("() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => false}); "
                  "document.dispatchEvent(new Event('visibilitychange')); }")
    assert not page.evaluate("() => document.title").startswith(mark)


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("game,players", [("classic", 3), ("lost-mines", 4)])
def test_a_table_in_german_or_dutch_has_no_english(server: str, browser: Any, tmp_path: Path,
                                                    game: str, players: int, lang: str) -> None:
    pg = Page(browser, DESKTOP, locale=LOCALES[lang])
    page = pg.page
    try:
        page.goto(_create(server, game, players))
        page.wait_for_selector("[data-testid=hand-0]")
        assert page.evaluate("document.documentElement.lang") == lang
        _play(page, 6 if game == "classic" else 5)
        _log_checks(page)
        names = {"Anna"}
        found = _english_on_page(page, lang, names)
        assert found == [], f"English on the {lang} page: {found}"
        # what each card of the hand does, in the page's language (the line a tap shows)
        for i in range(len(state(page)["view"]["hand"])):
            page.evaluate("async i => (await import('/static/js/help.js')).showCardHelp("
                          "window.__state().table.game, window.__state().view.hand[i])", i)
            page.wait_for_selector("#card-help.show")
            found = _english_on_page(page, lang, names)
            assert found == [], f"English on the {lang} page in a card's help: {found}"
        titles = page.locator("[data-hand]").evaluate_all("els => els.map(e => e.title)")
        assert all(" \u2013 " in x for x in titles), titles  # "name - what it does", an en dash
        # a refusal is told from its code, with the move as the log writes it
        if game == "classic":
            words = json.loads((I18N / f"{lang}.log.json").read_text("utf-8"))
            page.evaluate("async () => (await import('/static/js/net.js')).send('NES@50,50')")
            page.wait_for_function("() => document.querySelector('#feedback').textContent.includes('50,50')")
            told = page.locator("#feedback").inner_text()
            assert told.startswith(words["errors"]["illegal_move"].split("{")[0]), told
            assert words["log"]["path_you"].split(" {")[0] in told and "@" not in told, told
            assert _english_on_page(page, lang, names) == []
            # the cards a reason names are named as the page names them, not by their codes
            said = page.evaluate(
                "async () => (await import('/static/js/log.js')).reasonText({code: "
                "'cannot-build', params: {cards: 'break-pickaxe, break-cart'}}, 'classic')")
            assert said and "break-" not in said, said
        _help_checks(page, game, lang)
        if lang == "de":
            screenshot(page, shot_dirs(tmp_path), f"h3-words-{game}-{lang}-desktop")
        _turn_notice_checks(page, lang)
    finally:
        pg.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_log_and_help_on_a_phone(server: str, browser: Any, tmp_path: Path, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, locale=LOCALES[lang], has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(60000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(_create(server, "classic", 3))
        page.wait_for_selector("[data-testid=hand-0]")
        _play(page, 5)
        _log_checks(page)
        # a tap on a card of the hand tells what it does; a tap on the line closes it
        page.locator("[data-testid=hand-0]").tap()
        page.wait_for_selector("#card-help.show")
        code = state(page)["view"]["hand"][0]
        assert page.locator("#card-help").inner_text().startswith(
            page.evaluate("c => document.querySelector('[data-hand=\"0\"]').getAttribute('aria-label').split(': ')[1]", code))
        screenshot(page, shot_dirs(tmp_path), f"h3-words-classic-{lang}-phone-tap")
        page.locator("#card-help").tap()
        page.wait_for_selector("#card-help.show", state="hidden")
        page.locator("[data-testid=hand-0]").tap()  # put it back
        page.locator("[data-testid=log]").scroll_into_view_if_needed()
        screenshot(page, shot_dirs(tmp_path), f"h3-words-classic-{lang}-phone-log")
        page.locator("[data-testid=rules-button]").click()
        page.wait_for_selector("#help-dialog[open]")
        box = page.locator("#help-dialog").bounding_box()
        assert box and box["width"] <= PHONE["width"] + 1
        screenshot(page, shot_dirs(tmp_path), f"h3-words-classic-{lang}-phone-help")
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('#help-dialog').open")
    finally:
        context.close()
    assert not errors, errors


def _random_logs(game: str, players: int, seed: int) -> dict[str, Any]:
    """The logs seat 0 and a spectator saw of a whole match of random moves."""
    import random

    from pysaboteur.registry import make_game

    state_ = make_game(game, players=players).new_state(seed)
    rnd = random.Random(seed)
    while not state_.terminal:
        state_.apply(rnd.choice(state_.legal_actions()))
    return {"seat": [list(x) for x in state_.view(0).log], "spectator": [list(x) for x in state_.view(None).log]}


SENTENCES = """async ([game, logs, players]) => {
  const {S} = await import('/static/js/store.js');
  S.cards[game] = await (await fetch(`/api/games/${game}/cards`)).json();
  S.msg = {seat: 0, table: {game, seats: Array.from({length: players}, (_, i) => ({name: i ? null : 'Anna', kind: i ? 'bot' : 'human'}))}};
  const {moveSentence} = await import('/static/js/log.js');
  const out = [];
  for (const [who, log] of [[0, logs.seat], [null, logs.spectator]]) {
    for (const [seat, text] of log) out.push([text, moveSentence(game, seat, text, who, {html: true})]);
  }
  S.msg = null;
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_every_move_of_every_game_reads_as_a_sentence(server: str, browser: Any, lang: str) -> None:
    """Whole matches of random moves of each game: every log entry, as seat 0 and as a
    spectator saw it, is a sentence of the language (no raw notation), and another seat's
    pass names no card."""
    pg = Page(browser, DESKTOP, locale=LOCALES[lang])
    page = pg.page
    try:
        page.goto(server)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        for game, players in (("duel", 2), ("solo", 1), ("classic", 5), ("expansion", 7), ("lost-mines", 5)):
            kinds: set[str] = set()
            for seed in (1, 2):
                logs = _random_logs(game, players, seed)
                for text, html in page.evaluate(SENTENCES, [game, logs, players]):
                    kinds.add(re.split(r"[@>#: ]", text)[0])
                    assert "<code>" not in html, (game, text, html)
                    assert not re.search(r"\b\w+@-?\d|>\d", html.replace("<b>", "").replace("</b>", "")), (game, text, html)
                    if re.fullmatch(r"pass \d+", text):
                        assert not re.search(r"Path|Weg|Pad", html), (game, text, html)
            assert len(kinds) > 5, (game, kinds)
    finally:
        pg.close()
