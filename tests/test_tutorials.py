"""The tutorials: every script plays to its end through the runner, every step's moves are
legal where they stand, a wrong move is explained with the engine's own reason, every text
is in English, German and Dutch; the terminal tutorial driven to its end under a
pseudo-terminal; the browser's routes."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from pysaboteur.engine.errors import NotationError
from pysaboteur.engine.game import is_listed
from pysaboteur.registry import GAMES
from pysaboteur.tutorials import LANGUAGES, Runner, games, tutorial
from pysaboteur.tutorials.runner import ScriptError

GAMES_WITH = games()


def test_every_game_of_the_family_has_a_tutorial() -> None:
    assert set(GAMES_WITH) <= set(GAMES)
    assert [g for g in GAMES if g in GAMES_WITH] == GAMES_WITH


def played(game: str, upto: int) -> Runner:
    """A runner after the first ``upto`` steps, each with its first accepted move."""
    r = Runner(tutorial(game))
    for step in r.tutorial.steps[:upto]:
        move = r.suggested()
        assert move is not None, step.say["en"]
        out = r.move(move)
        assert out.ok, (step.say["en"], out.explain)
    return r


@pytest.mark.parametrize("game", GAMES_WITH)
def test_the_script_plays_to_its_end(game: str) -> None:
    script = tutorial(game)
    r = played(game, len(script.steps))
    assert r.done and r.step is None
    assert r.move("anything").ok is False  # nothing more to play


@pytest.mark.parametrize("game", GAMES_WITH)
def test_every_step_is_the_learners_turn_and_its_moves_are_legal(game: str) -> None:
    script = tutorial(game)
    for n, step in enumerate(script.steps):
        r = played(game, n)
        assert r.state.current_player == script.seat
        legal = r.state.legal_actions()
        hand = r.state.view(script.seat).hand
        for text in step.expect:
            action = r.state.game.parse_action(text, hand)
            assert is_listed(action, legal), f"step {n + 1}: {text}"
        if step.kinds:
            assert any(type(a).__name__ in step.kinds for a in legal), f"step {n + 1}"
        assert step.expect or step.kinds, f"step {n + 1} asks for nothing"


@pytest.mark.parametrize("game", GAMES_WITH)
def test_every_accepted_move_keeps_the_script_playable(game: str) -> None:
    script = tutorial(game)
    for n, step in enumerate(script.steps):
        for text in step.expect[1:]:
            r = played(game, n)
            assert r.move(text).ok, f"step {n + 1}: {text}"
            while not r.done:  # the rest with the suggested moves
                move = r.suggested()
                assert move is not None
                assert r.move(move).ok, f"after {text}: {move}"


def illegal_move(r: Runner) -> tuple[str, Any] | None:
    """A move that parses but is illegal now: a hand card on a far cell, or on a seat."""
    state = r.state
    hand = state.view(r.seat).hand
    legal = state.legal_actions()
    for card in hand:
        for text in (f"{card}@40,40", f"{card}@1,1", f"{card}>0", f"{card}>1"):
            try:
                action = state.game.parse_action(text, hand)
            except NotationError:
                continue
            if not is_listed(action, legal):
                return text, action
    return None


@pytest.mark.parametrize("game", GAMES_WITH)
def test_a_wrong_move_is_explained_with_the_engines_reason(game: str) -> None:
    script = tutorial(game)
    tried = 0
    for n in range(len(script.steps)):
        r = played(game, n)
        found = illegal_move(r)
        if found is None:
            continue
        text, action = found
        index = len(r.state.history)
        out = r.move(text)
        assert not out.ok and out.explain is not None
        refusal = r.state.explain(action)
        assert out.reason == str(refusal)  # English
        for lang in LANGUAGES:  # the engine's reason in the learner's language
            assert refusal.say(lang) in out.explain[lang], (lang, out.explain[lang])
        assert len(r.state.history) == index and r.step_no == n  # nothing changed
        tried += 1
    assert tried


@pytest.mark.parametrize("game", GAMES_WITH)
def test_a_legal_move_not_asked_is_refused_with_why(game: str) -> None:
    script = tutorial(game)
    for n, step in enumerate(script.steps):
        r = played(game, n)
        others = [a for a in r.state.legal_actions() if not r.accepts(step, a)]
        if not others:
            continue
        index = len(r.state.history)
        out = r.move(str(others[0]))
        assert not out.ok and out.reason is None and out.explain is not None
        assert all(out.explain[lang] for lang in LANGUAGES)
        if step.other is not None:  # the step's own why
            assert out.explain == step.other
        assert len(r.state.history) == index
    assert any(step.other for step in script.steps)


def test_a_move_that_does_not_parse_says_so() -> None:
    r = Runner(tutorial(GAMES_WITH[0]))
    out = r.move("@@@")
    assert not out.ok and out.reason and all(out.reason in out.explain[lang]  # type: ignore[index]
                                             for lang in LANGUAGES)


@pytest.mark.parametrize("game", GAMES_WITH)
def test_every_text_is_in_every_language(game: str) -> None:
    script = tutorial(game)
    texts = [script.intro, script.outro, *(s.say for s in script.steps),
             *(s.then for s in script.steps if s.then), *(s.other for s in script.steps if s.other)]
    for t in texts:
        assert set(t) == set(LANGUAGES) and all(t[lang].strip() for lang in LANGUAGES)
        assert t["de"] != t["en"] and t["nl"] != t["en"]
    assert set(script.title) == set(LANGUAGES)


def test_a_script_that_does_not_play_is_refused() -> None:
    from dataclasses import replace

    script = tutorial(GAMES_WITH[0])
    first = replace(script.steps[0], replies=("no-such-move",))
    r = Runner(replace(script, steps=(first, *script.steps[1:])))
    with pytest.raises(ScriptError):
        r.move(script.steps[0].expect[0] if script.steps[0].expect else str(r.suggested()))


# -- the terminal, under a pseudo-terminal ------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent


def spawn(*args: str) -> Any:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "COLUMNS": "120", "LINES": "60", "TERM": "dumb",
           "PYTHONPATH": str(ROOT / "src")}
    return pexpect.spawn(sys.executable, ["-m", "pysaboteur.cli.main", "tutorial", *args],
                         env=env, encoding="utf-8", timeout=60, dimensions=(60, 120))


def words_of(text: str) -> str:
    """A few words of a text that rich may wrap: the first five, as a pattern."""
    import re

    return r"\s+".join(re.escape(w) for w in text.split()[:5])


@pytest.mark.parametrize("game", GAMES_WITH)
def test_the_terminal_tutorial_to_its_end(game: str) -> None:
    script = tutorial(game)
    child = spawn(game, "--lang", "nl")
    try:
        child.expect(words_of(script.intro["nl"]))
        wrong_done = False
        for n, step in enumerate(script.steps):
            r = played(game, n)
            child.expect(words_of(step.say["nl"]))
            child.expect("tutorial>")
            if not wrong_done:
                found = illegal_move(r)
                if found is not None:
                    child.sendline(found[0])
                    child.expect("Die zet mag niet. Het spel zegt:")
                    child.expect("tutorial>")
                    wrong_done = True
            child.sendline(r.suggested() or "")
        end = played(game, len(script.steps))
        if end.state.view(end.seat).last_round is not None:
            # the script ended the round: its end is shown, not the next round's deal
            child.expect(r"round 1 over")
        child.expect(words_of(script.outro["nl"]))
        child.expect("Enter start (de vrije ronde|een vrije solo-ronde)")
        child.sendline("")  # the free round against an easy bot begins: its board, a prompt
        child.expect(r"seat \d \(\w+\)>")
        child.sendline("quit")
        child.expect("game left unfinished")
        child.expect(pytest.importorskip("pexpect").EOF)
    finally:
        child.close(force=True)
    assert wrong_done


def test_the_terminal_refuses_an_unknown_tutorial() -> None:
    child = spawn("chess")
    child.expect("no tutorial for 'chess'")
    child.expect(pytest.importorskip("pexpect").EOF)
    child.close()
    assert child.exitstatus == 2


# -- the browser's routes ----------------------------------------------------------------------
def test_the_routes_play_a_tutorial_and_open_its_free_round(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from pysaboteur.web.server import create_app

    game = GAMES_WITH[0]
    script = tutorial(game)
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", bot_delay=0)) as c:
        listing = c.get("/api/tutorials").json()
        assert [t["game"] for t in listing] == GAMES_WITH
        assert c.post("/api/tutorials/chess").status_code == 404
        data = c.post(f"/api/tutorials/{game}").json()
        sid = data["id"]
        assert data["say"] == dict(script.steps[0].say) and data["msg"]["legal"]
        assert c.post(f"/api/tutorials/session/{sid}/free").status_code == 409
        wrong = c.post(f"/api/tutorials/session/{sid}/moves", json={"move": "@@@"}).json()
        assert not wrong["outcome"]["ok"] and wrong["outcome"]["explain"]["de"]
        while not data["done"]:
            data = c.post(f"/api/tutorials/session/{sid}/moves",
                          json={"move": data["suggested"]}).json()
            assert data["outcome"]["ok"]
        assert data["outro"] == dict(script.outro)
        free = c.post(f"/api/tutorials/session/{sid}/free")
        assert free.status_code == 201
        made = free.json()
        table = c.get(f"/api/tables/{made['id']}", headers={"X-Seat-Token": made["token"]})
        assert table.json()["table"]["game"] == game
        assert c.get(f"/api/tutorials/session/{sid}").status_code == 404  # used up


def test_one_address_starts_a_bounded_number_of_tutorials_a_minute(tmp_path: Path) -> None:
    """One client cannot push every other learner's session out of the server's few."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from pysaboteur.web.limits import Limits
    from pysaboteur.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", bot_delay=0,
                     limits=Limits(tables_per_minute=3))
    with TestClient(app) as c:
        assert [c.post("/api/tutorials/classic").status_code for _ in range(3)] == [201] * 3
        refused = c.post("/api/tutorials/classic")
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "rate-limited"
        assert int(refused.headers["Retry-After"]) >= 1
