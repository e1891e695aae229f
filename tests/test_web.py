"""The web server: JSON API, WebSockets, tables, security and secrecy (in-process)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from pysaboteur.engine.rng import Rng
from pysaboteur.records import Record, replay
from pysaboteur.registry import GAMES, make_game
from pysaboteur.web.db import Database
from pysaboteur.web.limits import Limits
from pysaboteur.web.server import create_app, pick_language
from pysaboteur.web.tables import bot_for, view_json

#: a PostgreSQL server to run every test against as well, e.g.
#: postgresql+psycopg://postgres:postgres@localhost/postgres (.ci/run starts one)
POSTGRES = os.environ.get("PYSABOTEUR_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'web.sqlite3'}"
        return
    if not POSTGRES:
        pytest.skip("set PYSABOTEUR_TEST_POSTGRES to test against PostgreSQL")
    psycopg = pytest.importorskip("psycopg")
    admin_url = POSTGRES.replace("postgresql+psycopg://", "postgresql://")
    name = f"pysaboteur_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    # these tests drive whole games as fast as the engine plays them: no message-rate limit
    # (tests/test_web_connections.py checks the rate limit itself)
    unlimited = Limits(ws_rate=1e9, ws_burst=10**9)
    with TestClient(create_app(db_url, bot_delay=0, allow_seed=True, limits=unlimited)) as c:
        yield c


def create(client: TestClient, game: str = "duel", seats: list[dict[str, Any]] | None = None,
           start: bool = True, **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": seats or [{"kind": "human", "name": "Ada"},
                                             {"kind": "bot", "difficulty": "easy"}],
            "start": start, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def state_of(client: TestClient, table: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    r = client.get(f"/api/tables/{table}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def act(client: TestClient, table: str, token: str | None, action: str, index: int) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(f"/api/tables/{table}/actions", headers=headers,
                       json={"action": action, "index": index})


def stored_record(db_url: str, table: str) -> Record:
    t = Database(db_url).load(table)
    assert t is not None
    return Record(game=t.game, players=t.players, seed=t.seed, options=t.options,
                  actions=[a for _, a in t.actions])


# -- games, cards, languages ------------------------------------------------------------------
def test_games_cards_languages_and_openapi(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["duel"]["min_players"] == 2 and "seat0_colour" in games["duel"]["options"]
    cards = client.get("/api/games/duel/cards").json()
    cat = make_game("duel").catalogue
    assert set(cards["cards"]) == {k.code for k in cat.kinds}
    assert cards["cards"]["NES"]["svg_r"] and cards["cards"]["NESW"]["svg_r"] is None
    assert client.get("/api/games/nope/cards").status_code == 404
    r = client.get("/api/games/duel/cards/NES.svg?rotated=true")
    assert r.status_code == 200 and r.text.startswith("<svg")
    assert client.get("/api/i18n", headers={"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"}
                      ).json()["preferred"] == "nl"
    for lang in ("en", "de", "nl"):
        assert client.get(f"/api/i18n/{lang}").json()["lang"] == lang
    assert client.get("/api/i18n/fr").status_code == 404
    schema = client.get("/openapi.json").json()
    assert "/api/tables/{table_id}/actions" in schema["paths"]
    assert client.get("/").status_code == 200
    assert client.get("/api/difficulties").json()["easy"] == "random"


def test_language_choice_and_difficulty_fallback() -> None:
    assert pick_language("de-DE,de;q=0.9") == "de"
    assert pick_language("fr-FR, en;q=0.3, nl;q=0.8") == "nl"
    assert pick_language(None) == "en" and pick_language("fr") == "en"
    assert bot_for("easy") == "random"
    assert bot_for("no-such-level") == "random"


# -- playing --------------------------------------------------------------------------------
def play_ws(client: TestClient, table: str, token: str, pick: Rng) -> list[dict[str, Any]]:
    """Play one seat over a WebSocket with random legal moves until the match ends."""
    seen = []
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        while True:
            msg = ws.receive_json()
            seen.append(msg)
            if msg["type"] == "error":
                raise AssertionError(msg)
            if msg["type"] != "state":
                continue
            if msg["table"]["status"] == "finished":
                return seen
            if msg["legal"]:
                choice = msg["legal"][pick.below(len(msg["legal"]))]
                ws.send_json({"type": "action", "action": choice["text"], "index": msg["index"]})


def test_a_whole_duel_against_a_bot_over_a_websocket(client: TestClient, db_url: str) -> None:
    made = create(client, seed=11)
    token = made["seats"][0]["token"]
    seen = play_ws(client, made["id"], token, Rng(4))
    final = seen[-1]
    assert final["view"]["current_player"] == -1 and len(final["view"]["results"]) == 3
    assert any(m["type"] == "ack" for m in seen)
    # the store holds the whole match; replaying it gives the same final view
    record = stored_record(db_url, made["id"])
    state = replay(record)
    assert state.is_terminal
    assert view_json(state.view(0)) == final["view"]
    assert state_of(client, made["id"], token)["view"] == final["view"]


def test_lobby_join_start_and_rematch(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human", "name": "host"}, {"kind": "open"}],
                  start=False, seed=3)
    tid, host_tok = made["id"], made["host_token"]
    assert made["seats"][1]["token"] is None
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby] == [tid] and lobby[0]["free_seats"] == 1
    assert "token" not in json.dumps(lobby) and "seed" not in json.dumps(lobby)
    # actions before the start are refused
    tok0 = made["seats"][0]["token"]
    assert act(client, tid, tok0, "pass NES", 0).status_code == 409
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()
    assert joined["seat"] == 1
    tok1 = joined["token"]
    assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 409  # full
    assert client.post(f"/api/tables/{tid}/start", headers={"X-Seat-Token": tok1}
                       ).status_code == 403  # not the host
    assert client.post(f"/api/tables/{tid}/start", headers={"X-Seat-Token": host_tok}
                       ).status_code == 200
    assert client.get("/api/tables").json() == []
    st = state_of(client, tid, tok1)
    assert st["table"]["seats"][1]["name"] == "Bo"
    # play to the end over HTTP, both seats
    tokens = [tok0, tok1]
    pick = Rng(9)
    while True:
        seat = state_of(client, tid)["view"]["current_player"]
        if seat < 0:
            break
        st = state_of(client, tid, tokens[seat])
        choice = st["legal"][pick.below(len(st["legal"]))]["text"]
        assert act(client, tid, tokens[seat], choice, st["index"]).status_code == 200
    assert act(client, tid, tok0, "pass NES", st["index"] + 1).status_code == 409  # game over
    assert client.post(f"/api/tables/{tid}/rematch").status_code == 403
    r1 = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": tok1})
    r2 = client.post(f"/api/tables/{tid}/rematch", headers={"X-Seat-Token": tok0})
    assert r1.status_code == 200 and r1.json() == r2.json()  # one rematch table
    new = r1.json()["id"]
    again = state_of(client, new, tok0)
    assert again["seat"] == 0 and again["table"]["rematch_of"] == tid
    assert again["table"]["status"] == "playing" and again["index"] == 0
    assert state_of(client, tid, tok0)["table"]["rematch_next"] == new
    assert "rematch_next" not in state_of(client, tid)["table"]  # private: not to spectators


# -- security ---------------------------------------------------------------------------------
def test_refusals_change_nothing(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], seed=5)
    tid = made["id"]
    tok = [s["token"] for s in made["seats"]]
    before = state_of(client, tid, tok[0])
    assert before["view"]["current_player"] == 0
    legal = before["legal"][0]["text"]

    def same() -> None:
        now = state_of(client, tid, tok[0])
        assert now["view"] == before["view"] and now["index"] == before["index"]

    cases = [
        (act(client, tid, None, legal, 0), 403, "bad-token"),  # no token
        (act(client, tid, "forged-token", legal, 0), 403, "bad-token"),
        (act(client, tid, tok[1], legal, 0), 403, "not-your-turn"),  # another seat's token
        (act(client, tid, tok[0], legal, 7), 409, "stale"),  # a replayed/forged index
        (act(client, tid, tok[0], "NESW@40,40", 0), 422, None),  # a forged action
        (act(client, tid, tok[0], "!!nonsense", 0), 422, "bad-notation"),
        (act(client, tid, tok[0], "break-cart>5", 0), 422, None),
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.text
        detail = r.json()["detail"]
        assert detail["message"] if isinstance(detail, dict) else detail
        if code:
            assert detail["code"] == code
        same()
    r = client.post(f"/api/tables/{tid}/actions", headers={"X-Seat-Token": tok[0],
                                                           "Content-Type": "application/json"},
                    content=b"{not json")
    assert r.status_code == 422
    r = client.post(f"/api/tables/{tid}/actions", headers={"X-Seat-Token": tok[0]},
                    json={"action": "x" * 20000, "index": 0})
    assert r.status_code == 413
    assert client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": "nope"}).status_code == 403
    assert client.get("/api/tables/doesnotexist").status_code == 404
    same()
    # the legal action, then the same again: refused as stale
    assert act(client, tid, tok[0], legal, 0).status_code == 200
    r = act(client, tid, tok[0], legal, 0)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "stale"
    assert state_of(client, tid)["index"] == 1


def test_websocket_refusals(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], seed=6)
    tid = made["id"]
    tok = [s["token"] for s in made["seats"]]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_text("not json")
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "no-hello"
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "hello", "token": "forged"})
        assert ws.receive_json()["code"] == "bad-token"
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "hello", "token": tok[1]})
        first = ws.receive_json()
        assert first["seat"] == 1 and first["legal"] == [] and first["view"]["hand"]
        index = first["index"]
        ws.send_text("{broken")
        assert ws.receive_json()["code"] == "bad-json"
        ws.send_text(json.dumps({"type": "action", "action": "x" * 5000, "index": 0}))
        assert ws.receive_json()["code"] == "too-large"
        ws.send_json({"type": "action", "action": "pass NES", "index": index})
        assert ws.receive_json()["code"] == "not-your-turn"
        ws.send_json({"type": "action", "action": "pass NES"})
        assert ws.receive_json()["code"] == "bad-index"
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["code"] == "bad-message"
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
    assert state_of(client, tid)["index"] == 0
    # a spectator receives the public view and may not act
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"type": "hello"})
        msg = ws.receive_json()
        assert msg["seat"] is None and msg["view"]["hand"] is None and msg["legal"] == []
        ws.send_json({"type": "action", "action": "pass NES", "index": 0})
        assert ws.receive_json()["code"] == "not-seated"


def test_bad_table_requests(client: TestClient) -> None:
    assert client.post("/api/tables", json={"game": "chess"}).status_code == 422
    assert client.post("/api/tables", json={"game": "duel", "players": 5}).status_code == 422
    assert client.post("/api/tables", json={"game": "duel", "seats": [{"kind": "human"}]}
                       ).status_code == 422
    assert client.post("/api/tables", json={"game": "duel", "options": {"nope": 1}}
                       ).status_code == 422
    r = client.post("/api/tables", json={"game": "duel", "seats": [
        {"kind": "bot", "difficulty": "godlike"}, {"kind": "human"}]})
    assert r.status_code == 422


# random requests: whatever the body, options, seats or moves, an answer below 500
_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                  st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
_JSON = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
_OPTION_NAMES = sorted({k for g in GAMES for k in make_game(g).options.to_json()})
_SEAT = st.fixed_dictionaries({}, optional={
    "kind": st.sampled_from(["human", "bot", "robot", 3]),
    "difficulty": st.sampled_from(["easy", "normal", "hard", "godlike", None, 7]),
    "name": st.one_of(st.text(max_size=50), st.integers()), "bot": _JSON})
_TABLE = st.fixed_dictionaries({}, optional={
    "game": st.one_of(st.sampled_from(sorted(GAMES)), st.text(max_size=8)),
    "players": st.one_of(st.integers(-3, 15), _JSON),
    "options": st.one_of(st.dictionaries(st.sampled_from([*_OPTION_NAMES, "nope"]), _JSON,
                                         max_size=3), _JSON),
    "seats": st.one_of(st.lists(_SEAT, max_size=13), _JSON),
    "public": _JSON, "start": st.booleans(), "seed": st.one_of(st.integers(-5, 2**64), _JSON)})


_MOVE = st.one_of(st.text(max_size=30), st.sampled_from([  # notations often illegal now
    "NES@1,0", "NESW@2,0r", "pass 1", "pass 1 2 3", "map@8,0", "break-cart>1", "rockfall@1,0",
    "orient", "orient r", "end", "bribe@1,0", "key@1,0", "discard 1 2 -break-cart", "steal>1"]))


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=_TABLE, moves=st.lists(st.tuples(_MOVE, st.integers(-2, 50)), max_size=3))
def test_random_requests_never_get_a_server_error(client: TestClient, body: dict[str, Any],
                                                  moves: list[tuple[str, int]]) -> None:
    """Tables made from random bodies (most refused with 422), then random moves, stale and
    current indices, starts, rematches and joins: every answer is below 500."""
    r = client.post("/api/tables", json=body)
    assert r.status_code < 500, (body, r.text)
    if r.status_code != 201:
        return
    made = r.json()
    tid = made["id"]
    tokens = [s["token"] for s in made["seats"] if s["token"]]
    r = client.post(f"/api/tables/{tid}/start", headers={"X-Seat-Token": made["host_token"]})
    assert r.status_code < 500, r.text
    for text, index in moves:
        for token in tokens[:2]:
            now = client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": token})
            assert now.status_code < 500, now.text
            current = now.json()["index"]
            legal = [m["text"] for m in now.json().get("legal") or []][:1]
            for move, at in [(text, index), (text, current), *((m, current) for m in legal)]:
                r = act(client, tid, token, move, at)
                assert r.status_code < 500, (move, r.text)
    for path, extra in (("rematch", {"headers": {"X-Seat-Token": made["host_token"]}}),
                        ("join", {"json": {"name": "Bo"}})):
        r = client.post(f"/api/tables/{tid}/{path}", **extra)
        assert r.status_code < 500, r.text


def test_chosen_seeds_need_permission(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        r = c.post("/api/tables", json={"game": "duel", "seed": 3})
        assert r.status_code == 403


# -- secrecy ---------------------------------------------------------------------------------
def _playable(name: str, players: int) -> bool:
    try:
        make_game(name, players).new_state(1)
    except Exception:
        return False
    return True


SECRECY_GAMES = [g for g in (("duel", 2), ("solo", 1), ("classic", 3)) if _playable(*g)]


@pytest.mark.parametrize(("game", "players"), SECRECY_GAMES)
def test_no_message_carries_a_hidden_fact(client: TestClient, db_url: str, game: str,
                                          players: int) -> None:
    """Every message of whole games, to every seat and a spectator, against the true state."""
    made = create(client, game=game, players=players, seed=21,
                  seats=[{"kind": "human"} for _ in range(players)])
    tid = made["id"]
    tokens = [s["token"] for s in made["seats"]]
    inbox: dict[int | None, list[dict[str, Any]]] = {s: [] for s in range(players)}
    inbox[None] = []
    pick = Rng(2)
    sockets = {}
    ctxs = []
    for seat in [*range(players), None]:
        ctx = client.websocket_connect(f"/api/tables/{tid}/ws")
        ws = ctx.__enter__()
        ctxs.append(ctx)
        ws.send_json({"type": "hello", "token": tokens[seat] if seat is not None else None})
        sockets[seat] = ws
    try:
        # drive the game: the seat on turn answers each state message with a random move;
        # wrong-turn, stale and illegal attempts are mixed in, to check their answers too
        while True:
            st = state_of(client, tid)
            if st["table"]["status"] == "finished":
                break
            turn = st["view"]["current_player"]
            msg = state_of(client, tid, tokens[turn])
            choice = msg["legal"][pick.below(len(msg["legal"]))]["text"]
            if pick.below(10) == 0:
                sockets[turn].send_json({"type": "action", "action": "NESW@99,99",
                                         "index": msg["index"]})
            if players > 1 and pick.below(10) == 0:
                other = (turn + 1) % players
                sockets[other].send_json({"type": "action", "action": choice,
                                          "index": msg["index"]})
            sockets[turn].send_json({"type": "action", "action": choice, "index": msg["index"]})
            # wait for this seat's acknowledgement (collecting everything on the way)
            while True:
                m = sockets[turn].receive_json()
                inbox[turn].append(m)
                if m["type"] == "ack":
                    break
        final_index = state_of(client, tid)["index"]
        # drain the other sockets up to the final state
        for seat, ws in sockets.items():
            while not any(m.get("type") == "state" and m["index"] == final_index
                          for m in inbox[seat]):
                inbox[seat].append(ws.receive_json())
    finally:
        for ctx in ctxs:
            ctx.__exit__(None, None, None)

    record = stored_record(db_url, tid)
    assert len(record.actions) == final_index
    # the true states, by index
    state = record.new_state()
    truth = [state.clone()]
    for text in record.actions:
        state.apply(state.game.parse_action(text))
        truth.append(state.clone())
    assert state.is_terminal
    counted = 0
    for seat, messages in inbox.items():
        for m in messages:
            text = json.dumps(m)
            if m["type"] != "state":
                assert m["type"] in ("ack", "error", "pong", "presence"), m
                continue
            counted += 1
            true = truth[m["index"]]
            # the view is exactly what the engine's view function gives that seat
            assert m["view"] == view_json(true.view(seat))
            assert m["seat"] == seat
            on_turn = seat is not None and true.current_player == seat and not true.is_terminal
            assert {a["text"] for a in m["legal"]} == (
                {str(a) for a in true.legal_actions()} if on_turn else set())
            # no face-down goal the seat has not seen
            known = {k[2] for k in m["view"].get("known_goals") or ()}
            shown = json.dumps(m["view"].get("board"))
            for code in true.maze.hidden.values():
                if code not in known and code not in shown and (
                        not m["view"].get("pending_goal") or
                        m["view"]["pending_goal"][2] != code):
                    assert code not in text, (seat, code)
            # no other seat's hand
            for other in range(players):
                if other == seat:
                    continue
                hand = sorted(true.hand(other)) if hasattr(true, "hand") else []
                if len(hand) >= 3:
                    assert json.dumps(hand) not in text
            assert "seed" not in m["table"] and "token" not in json.dumps(m["table"])
    assert counted > final_index  # every seat received the states
