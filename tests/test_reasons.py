"""The engine's refusal reasons (pysaboteur.engine.reasons): one table, every reason in
English, German and Dutch with the same placeholders; every raise site's code is in it with
exactly its parameters (read from the source's syntax tree, so a new site is checked without
a list here); refusals met in random play say themselves in every language; a German
tutorial learner reads a German reason; the server's 422 "illegal" carries the reason's code
and parameters, and serves the table to the browser."""

from __future__ import annotations

import ast
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from pysaboteur.engine import errors, reasons
from pysaboteur.engine.errors import IllegalAction, IllegalPlacement
from pysaboteur.engine.game import is_listed
from pysaboteur.registry import make_game
from pysaboteur.tutorials import Runner, games, tutorial
from pysaboteur.tutorials.runner import WORDS as RUNNER_WORDS

SRC = Path(reasons.__file__).resolve().parent.parent
I18N = SRC / "web" / "i18n"
LANGS = ("en", "de", "nl")
#: every IllegalAction class, by name (the raise sites call them)
CLASSES = {name for name, obj in vars(errors).items()
           if isinstance(obj, type) and issubclass(obj, IllegalAction)}


# -- the table --------------------------------------------------------------------------------
def test_every_reason_is_in_every_language_with_the_same_placeholders() -> None:
    assert len(reasons.REASONS) > 60
    for code, texts in reasons.REASONS.items():
        assert set(texts) == set(LANGS), code
        want = reasons.placeholders(texts["en"])
        assert want == reasons.PARAMS[code], code
        for lang in LANGS:
            assert texts[lang].strip() == texts[lang] and texts[lang], (code, lang)
            assert reasons.placeholders(texts[lang]) == want, (code, lang)
        for lang in ("de", "nl"):
            assert texts[lang] != texts["en"], f"{code}: still English in {lang}"


def test_word_parameters_are_translated_and_agree_with_the_pages() -> None:
    used = set().union(*reasons.PARAMS.values())
    assert set(reasons.WORDS) <= used  # a word table for a parameter some reason has
    for param, table in reasons.WORDS.items():
        for value, words in table.items():
            assert set(words) == set(LANGS), (param, value)
            assert words["de"] != words["en"] and words["nl"] != words["en"], (param, value)
    # tools and obstacles are named as the browser names them (i18n/<lang>.json "tools")
    for lang in LANGS:
        tools = json.loads((I18N / f"{lang}.json").read_text("utf-8"))["tools"]
        for param in ("tool", "obstacle"):
            for value, words in reasons.WORDS[param].items():
                assert words[lang] == tools[value], (param, value, lang)


def test_say_translates_words_and_keeps_notation() -> None:
    assert reasons.say("already-broken", {"tool": "pickaxe"}, "de") == \
        "dort liegt schon eine kaputte Spitzhacke"
    assert reasons.say("already-broken", {"tool": "cart"}, "nl") == \
        "daar ligt al een gebroken karretje"
    name = {"seat": 0, "first": "pickaxe", "second": "lantern"}  # notation: not translated
    assert reasons.say("name-the-tool", name, "de").endswith(">0:pickaxe oder >0:lantern")
    assert reasons.say("door-locked", {"door": "blue"}, "en") == \
        "a blue door is locked to you, so it cannot connect to your start"
    assert reasons.say("door-locked", {"door": "green"}, "de").startswith("eine grüne Tür")
    assert reasons.say("not-in-hand", {"cards": "EW, map"}, "nl") == \
        "je hebt EW, map niet in je hand"
    assert reasons.say("cell-taken", {"x": 1, "y": -2}, "xx") == "(1, -2) is taken"


def test_an_error_is_its_code_and_parameters() -> None:
    exc = IllegalPlacement("not-connected", x=3, y=1)
    assert str(exc) == "(3, 1) is not connected to the start"
    assert exc.code == "not-connected" and exc.params == {"x": 3, "y": 1}
    assert exc.say("de") == "(3, 1) ist nicht mit dem Start verbunden"
    assert exc.say("nl") == "(3, 1) is niet met de start verbonden"
    assert exc.to_json() == {"code": "not-connected", "params": {"x": 3, "y": 1}}
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is IllegalPlacement and str(back) == str(exc) and back.params == exc.params
    with pytest.raises(KeyError):
        IllegalAction("no-such-reason")
    with pytest.raises(TypeError):
        IllegalPlacement("not-connected", x=3)  # a parameter missing
    with pytest.raises(TypeError):
        IllegalPlacement("cell-taken", x=3, y=1, card="EW")  # one too many


# -- every raise site -------------------------------------------------------------------------
def _calls() -> tuple[list[tuple[str, int, str, set[str]]], list[str]]:
    """Every call of an IllegalAction class in the package: (file, line, code, keyword
    names) for a literal code, and where the code is not a literal."""
    literal, dynamic = [], []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        rel = str(path.relative_to(SRC))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in CLASSES):
                continue
            where = f"{rel}:{node.lineno}"
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                    and all(k.arg is not None for k in node.keywords):
                literal.append((rel, node.lineno, first.value, {k.arg for k in node.keywords
                                                                 if k.arg is not None}))
            else:
                dynamic.append(where)
    return literal, dynamic


def _problems() -> list[tuple[str, set[str]]]:
    """The codes that reach a raise site through a value: The Lost Mines' route problems
    (``return "code", {params}``) and Saboteur 2's table of reasons per effect."""
    out = []
    lost = ast.parse((SRC / "games" / "lost_mines" / "state.py").read_text("utf-8"))
    for node in ast.walk(lost):
        if isinstance(node, ast.FunctionDef) and node.name in ("_route_problem",
                                                               "_step_problem"):
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                    code, params = ret.value.elts
                    assert isinstance(code, ast.Constant) and isinstance(params, ast.Dict)
                    keys = {k.value for k in params.keys if isinstance(k, ast.Constant)}
                    assert len(keys) == len(params.keys)
                    out.append((code.value, keys))
    exp = ast.parse((SRC / "games" / "expansion" / "state.py").read_text("utf-8"))
    for node in ast.walk(exp):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "reasons"
                                                for t in node.targets):
            assert isinstance(node.value, ast.Dict)
            for v in node.value.values:
                assert isinstance(v, ast.Constant)
                out.append((v.value, set()))
    return out


def test_every_raise_site_names_a_reason_with_its_parameters() -> None:
    literal, dynamic = _calls()
    assert len(literal) > 60
    wrong = [f"{f}:{line}: {code} {sorted(keys)}" for f, line, code, keys in literal
             if code not in reasons.REASONS or keys != reasons.PARAMS[code]]
    assert wrong == []
    # the two sites whose code is a value: their codes are checked by _problems
    assert [d.split(":")[0] for d in dynamic] == ["games/expansion/state.py",
                                                  "games/lost_mines/state.py"], dynamic
    problems = _problems()
    assert len(problems) == 8 + 7
    assert [(c, k) for c, k in problems if c not in reasons.REASONS
            or k != reasons.PARAMS[c]] == []
    # and no reason in the table is left unused
    named = {code for _, _, code, _ in literal} | {code for code, _ in problems}
    assert sorted(set(reasons.REASONS) - named) == []


# -- refusals met in play ---------------------------------------------------------------------
@pytest.mark.parametrize("game, players", [("duel", 2), ("solo", 1), ("classic", 5),
                                           ("expansion", 7), ("lost-mines", 5)])
def test_refusals_in_random_play_say_themselves_in_every_language(game: str,
                                                                  players: int) -> None:
    g = make_game(game, players)
    st = g.new_state(3)
    rng = random.Random(3)
    pool: list[Any] = []
    seen: set[str] = set()
    for _ in range(120):
        if st.is_terminal:
            break
        legal = st.legal_actions()
        pool += rng.sample(legal, min(4, len(legal)))
        for a in rng.sample(pool, min(12, len(pool))):
            if is_listed(a, legal):
                continue
            exc = st.explain(a)
            seen.add(exc.code)
            assert str(exc) == exc.say("en") == reasons.say(exc.code, exc.params)
            json.dumps(exc.to_json())  # plain data for the server
            for lang in ("de", "nl"):
                assert exc.say(lang) != str(exc), (exc.code, lang)
        st.apply(rng.choice(legal))
    assert len(seen) >= 3, seen


# -- the tutorials ----------------------------------------------------------------------------
def test_a_german_learner_reads_a_german_reason() -> None:
    r = Runner(tutorial("classic"))
    out = r.move("NESW@3,3")  # nowhere near the start
    assert not out.ok and out.explain is not None
    assert out.reason == "(3, 3) is not connected to the start"  # English, as before
    assert out.explain["de"] == ("Dieser Zug ist nicht erlaubt. Das Spiel sagt: "
                                 "(3, 3) ist nicht mit dem Start verbunden")
    assert out.explain["nl"] == ("Die zet mag niet. Het spel zegt: "
                                 "(3, 3) is niet met de start verbonden")
    assert out.explain["en"].endswith(out.reason)


@pytest.mark.parametrize("game", games())
def test_every_tutorial_refusal_is_in_the_learners_language(game: str) -> None:
    r = Runner(tutorial(game))
    state = r.state
    hand = state.view(r.seat).hand
    refused = 0
    for text in (f"{code}@{x},{y}" for code in hand for x, y in ((9, 9), (-6, 7))):
        try:
            action = state.game.parse_action(text, hand)
        except Exception:
            continue
        if is_listed(action, state.legal_actions()):
            continue
        exc = state.explain(action)
        out = r.move(text)
        assert not out.ok and out.explain is not None and out.reason == str(exc)
        for lang in LANGS:
            said = RUNNER_WORDS["illegal"][lang].format(reason=exc.say(lang))
            assert out.explain[lang] == said
        assert str(exc) not in out.explain["de"] and str(exc) not in out.explain["nl"]
        refused += 1
    assert refused


# -- the server -------------------------------------------------------------------------------
def test_the_server_says_why_with_a_code_and_serves_the_table(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from pysaboteur.web.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0,
                               allow_seed=True)) as client:
        body = {"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}],
                "start": True, "seed": 5}
        made = client.post("/api/tables", json=body).json()
        tid, tok = made["id"], made["seats"][0]["token"]
        r = client.post(f"/api/tables/{tid}/actions", headers={"X-Seat-Token": tok},
                        json={"action": "NESW@40,40", "index": 0})
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert detail["code"] == "illegal"
        reason = detail["reason"]
        assert reason["code"] in reasons.REASONS
        assert set(reason["params"]) == reasons.PARAMS[reason["code"]]
        assert detail["message"] == reasons.say(reason["code"], reason["params"])
        # over the table's WebSocket too
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"type": "hello", "token": tok})
            first = ws.receive_json()
            ws.send_json({"type": "action", "action": "NESW@40,40", "index": first["index"]})
            msg = ws.receive_json()
            while msg.get("type") != "error":
                msg = ws.receive_json()
            assert msg["code"] == "illegal" and msg["reason"] == reason
        # the browser's words for it: the one table, served in every language
        for lang in LANGS:
            got = client.get(f"/api/i18n/{lang}").json()["reasons"]
            assert got == reasons.client_table(lang)
            assert set(got["texts"]) == set(reasons.REASONS)
        de = client.get("/api/i18n/de").json()["reasons"]
        assert de["texts"]["already-broken"] == "dort liegt schon eine kaputte {tool}"
        assert de["words"]["tool"]["lantern"] == "Laterne"
