"""Hints ("suggest a move"): the hard bot's choice from the seat's view only.

The same view with other hidden facts (the other hands, the roles, the goals re-dealt)
gives the same hint; the hint function is given the view and the legal list, never the
state; the route refuses strangers, spectators, the wrong turn, tables without hints.
"""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from conftest import duel
from pysaboteur.engine.game import State
from pysaboteur.registry import make_game
from pysaboteur.web.hints import HintDesk, suggest, view_seed
from pysaboteur.web.limits import Limits
from pysaboteur.web.server import create_app
from pysaboteur.web.tables import Rejected, view_json
from saboteur_helpers import GOLD_MIDDLE, fixed_deal

FAST = 60  # search iterations of a hint in these tests (the default budget is the bot's)


def _same_view(a: State, b: State, seat: int) -> None:
    assert json.dumps(view_json(a.view(seat)), sort_keys=True) == json.dumps(
        view_json(b.view(seat)), sort_keys=True)
    assert a.legal_actions() == b.legal_actions()


def _hint_of(state: State, seat: int) -> Any:
    return suggest(state.view(seat), state.legal_actions(), FAST)


# -- the same view, re-dealt hidden facts, the same hint ----------------------------------
def test_duel_same_view_other_hand_and_goals_same_hint() -> None:
    mine = ("NESW", "NEW", "EW", "NS", "ES", "break-cart")
    a = duel(hands=(mine, ("NESW", "NES", "NES", "SW", "N", "EW")),
             goals={(5, -2): "goal3:NESW", (9, 0): "goal0:NS"}, seed=3)
    b = duel(hands=(mine, ("NEW", "NS,EW", "map", "SW", "key", "rockfall")),
             goals={(5, 2): "goal3:NESW", (7, 1): "goal0:NS"}, seed=11)
    seat = a.current_player
    assert seat == b.current_player == 0
    assert a.hands[1] != b.hands[1]  # hidden facts differ
    _same_view(a, b, seat)
    ha, hb = _hint_of(a, seat), _hint_of(b, seat)
    assert ha.action == hb.action and ha.reason == hb.reason
    assert ha.action in a.legal_actions()


def _classic(hands: dict[int, tuple[str, ...]], roles: tuple[str, ...],
             goals: tuple[str, ...], seed: int) -> State:
    game = make_game("classic", 4)
    return game.new_state(seed, fixed_deal(game, hands=hands, roles=roles,  # type: ignore[arg-type]
                                           goals=goals))


def test_classic_same_view_other_hands_roles_goals_same_hint() -> None:
    game = make_game("classic", 4)
    dealt = game.new_state(1, fixed_deal(game)).hands  # type: ignore[arg-type]
    h = [tuple(x) for x in dealt]
    a = _classic({0: h[0], 1: h[1], 2: h[2], 3: h[3]},
                 ("digger", "saboteur", "digger", "digger"), GOLD_MIDDLE, 1)
    b = _classic({0: h[0], 1: h[3], 2: h[1], 3: h[2]},
                 ("digger", "digger", "digger", "saboteur"),
                 ("goal-gold:NESW", "goal-stone:NW", "goal-stone:SW"), 7)
    assert a.hands[1] != b.hands[1] and a.roles != b.roles  # type: ignore[attr-defined]
    _same_view(a, b, 0)
    assert _hint_of(a, 0).action == _hint_of(b, 0).action
    # a few moves later: seat 0 plays, the others discard a card face down (unseen)
    first = a.legal_actions()[0]
    for s in (a, b):
        s.apply(first)
        for _ in range(3):
            s.apply(next(x for x in s.legal_actions() if type(x).__name__ == "Pass"))
    assert a.current_player == b.current_player == 0
    _same_view(a, b, 0)
    ha, hb = _hint_of(a, 0), _hint_of(b, 0)
    assert ha.action == hb.action and ha.search == hb.search
    assert ha.action in a.legal_actions() and ha.choice == a.legal_actions().index(ha.action)


def test_saboteur2_same_view_other_hands_and_roles_same_hint() -> None:
    game = make_game("expansion", 4)
    h = [tuple(x) for x in game.new_state(1, fixed_deal(game)).hands]  # type: ignore[arg-type]
    a = game.new_state(1, fixed_deal(game, hands=dict(enumerate(h)),  # type: ignore[arg-type]
                                     roles=("digger-green", "geologist", "saboteur", "boss")))
    b = game.new_state(4, fixed_deal(game, hands={0: h[0], 1: h[3], 2: h[1], 3: h[2]},  # type: ignore[arg-type]
                                     roles=("digger-green", "saboteur", "digger-blue",
                                            "profiteer")))
    assert a.hands[1] != b.hands[1] and a.roles != b.roles  # type: ignore[attr-defined]
    _same_view(a, b, 0)
    assert _hint_of(a, 0) == _hint_of(b, 0)


def test_same_hint_in_another_process() -> None:
    """Nothing of the process (string hashing, set order) changes the hint."""
    state = make_game("classic", 5).new_state(8)
    seat = state.current_player
    here = _hint_of(state, seat)
    script = ("from pysaboteur.registry import make_game\n"
              "from pysaboteur.web.hints import suggest\n"
              "s = make_game('classic', 5).new_state(8)\n"
              f"print(suggest(s.view(s.current_player), s.legal_actions(), {FAST}).action)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "12345"}, check=True, timeout=120)
    assert out.stdout.strip() == str(here.action)


def test_other_view_other_seed() -> None:
    a = duel(hands=(("NESW",) * 2 + ("NEW", "EW", "NS", "ES"), ()), seed=3)
    b = duel(hands=(("NES",) * 2 + ("NEW", "EW", "NS", "ES"), ()), seed=3)
    assert view_seed(a.view(0)) == view_seed(a.view(0))
    assert view_seed(a.view(0)) != view_seed(b.view(0))


def test_hint_never_touches_the_state() -> None:
    """The hint is worked out from the view and the legal list after the state is gone:
    nothing it does can reach the hidden facts."""
    for game, n in (("duel", 2), ("classic", 4), ("lost-mines", 3)):
        state = make_game(game, n).new_state(5)
        seat = state.current_player
        view, legal = state.view(seat), state.legal_actions()
        gone = weakref.ref(state)
        del state
        gc.collect()
        assert gone() is None, game
        hint = suggest(view, legal, FAST)
        assert hint.action == legal[hint.choice]
        assert hint.reason is None or "\n" not in hint.reason


def test_reason_from_the_search() -> None:
    state = make_game("duel", 2).new_state(4)
    hint = _hint_of(state, state.current_player)
    assert hint.search is not None and hint.search["simulations"] == FAST
    assert hint.reason is not None and f"of {FAST} simulations" in hint.reason
    assert 0 < hint.search["visits"] <= FAST


# -- the route -----------------------------------------------------------------------------
@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'hints.sqlite3'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    limits = Limits(hint_iterations=FAST)
    with TestClient(create_app(db_url, bot_delay=0, allow_seed=True, limits=limits)) as c:
        yield c


def _create(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "start": True,
            "seed": 9, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def _hint(client: TestClient, table: str, token: str | None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(f"/api/tables/{table}/hint", headers=headers)


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["detail"]["code"] == code and r.json()["detail"]["message"]


def test_route_answers_a_legal_move_that_can_be_played(client: TestClient) -> None:
    made = _create(client)
    assert made["table"]["hints"] is True
    tid = made["id"]
    turn = made["table"]["current_player"]
    token = made["seats"][turn]["token"]
    msg = client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": token}).json()
    r = _hint(client, tid, token)
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["index"] == msg["index"] == 0
    assert msg["legal"][hint["choice"]]["text"] == hint["text"] == hint["action"]
    assert hint["kind"] == msg["legal"][hint["choice"]]["kind"]
    assert {k: hint[k] for k in msg["legal"][hint["choice"]]} == msg["legal"][hint["choice"]]
    assert isinstance(hint["reason"], str) and hint["reason"]
    desk = client.app.state.hints  # type: ignore[attr-defined]
    assert desk.computed == 1
    assert _hint(client, tid, token).json() == hint  # cached: asked again, not computed
    assert desk.computed == 1
    r = client.post(f"/api/tables/{tid}/actions", headers={"X-Seat-Token": token},
                    json={"action": hint["action"], "index": hint["index"]})
    assert r.status_code == 200, r.text


def test_route_refusals(client: TestClient) -> None:
    made = _create(client)
    tid = made["id"]
    turn = made["table"]["current_player"]
    _refused(_hint(client, tid, "not-a-seat-token"), 403, "bad-token")
    _refused(_hint(client, tid, made["host_token"]), 403, "bad-token")
    _refused(_hint(client, tid, None), 403, "not-seated")
    _refused(_hint(client, tid, made["seats"][1 - turn]["token"]), 403, "not-your-turn")
    _refused(_hint(client, "nosuchtable", made["seats"][turn]["token"]), 404, "no-table")
    off = _create(client, hints=False)
    assert off["table"]["hints"] is False
    seen = client.get(f"/api/tables/{off['id']}").json()  # every seat (and watcher) sees it
    assert seen["table"]["hints"] is False
    _refused(_hint(client, off["id"], off["seats"][off["table"]["current_player"]]["token"]),
             403, "no-hints")
    waiting = _create(client, start=False)
    _refused(_hint(client, waiting["id"], waiting["seats"][0]["token"]), 409, "not-started")


def test_route_in_the_schema(client: TestClient) -> None:
    route = client.get("/openapi.json").json()["paths"]["/api/tables/{table_id}/hint"]["post"]
    for code in ("403", "404", "409", "429"):
        assert route["responses"][code]["content"]["application/json"]["schema"]["$ref"] \
            .endswith("/ErrorBody")
    assert "hints" in client.get("/openapi.json").json()["components"]["schemas"][
        "CreateTable"]["properties"]


def test_rate_limited_per_seat() -> None:
    desk = HintDesk(pool=None, limits=Limits(hints_per_minute=2))  # type: ignore[arg-type]
    desk._count("t", 0)
    desk._count("t", 0)
    desk._count("t", 1)  # another seat counts apart
    with pytest.raises(Rejected) as refused:
        desk._count("t", 0)
    assert refused.value.status == 429 and refused.value.code == "rate-limited"
    assert refused.value.headers and int(refused.value.headers["Retry-After"]) >= 1


def test_tables_stored_before_hints_still_load_and_allow_them(db_url: str,
                                                              tmp_path: Path) -> None:
    with TestClient(create_app(db_url, bot_delay=0, allow_seed=True)) as c:
        made = _create(c, hints=False)
    con = sqlite3.connect(tmp_path / "hints.sqlite3")
    con.execute('ALTER TABLE "tables" DROP COLUMN "hints"')  # the schema before hints
    con.commit()
    con.close()
    limits = Limits(hint_iterations=FAST)
    with TestClient(create_app(db_url, bot_delay=0, allow_seed=True, limits=limits)) as c:
        token = made["seats"][made["table"]["current_player"]]["token"]
        seen = c.get(f"/api/tables/{made['id']}", headers={"X-Seat-Token": token}).json()
        assert seen["table"]["hints"] is True  # a missing value: allowed
        assert _hint(c, made["id"], token).status_code == 200
        again = _create(c, hints=False)
    with TestClient(create_app(db_url, bot_delay=0, allow_seed=True)) as c:
        assert c.get(f"/api/tables/{again['id']}").json()["table"]["hints"] is False
