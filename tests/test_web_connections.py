"""The connections side of a server that faces the public internet (issue 22: D1, D4, D5,
D7 and the connection limits): bounded outgoing queues, state messages built once per
(index, seat), dead connections dropped, lone surrogates refused, presence messages instead
of every view on connect and leave, limits per seat, table, client and message rate."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("websockets")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pysaboteur.web.db import Database
from pysaboteur.web.server import create_app
from pysaboteur.web.tables import Connection, Hub


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'conn.sqlite3'}", bot_delay=0, allow_seed=True)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def limit(client: TestClient, **changes: Any) -> None:
    """Change the running hub's limits (new connections take them)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.limits = replace(hub.limits, **changes)


def two_humans(client: TestClient) -> tuple[str, list[str]]:
    r = client.post("/api/tables", json={"game": "duel", "start": True, "seed": 5, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], [s["token"] for s in made["seats"]]


def hello(ws: Any, token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def counted(fn: Callable[..., Any], calls: list[Any]) -> Callable[..., Any]:
    """``fn``, noting each call's arguments in ``calls``."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return fn(*args, **kwargs)
    return wrapper


def next_after_ping(ws: Any) -> list[dict[str, Any]]:
    """Every message up to the answer of a ping (the pong included)."""
    ws.send_json({"type": "ping"})
    seen = []
    while True:
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == "pong":
            return seen


def refused(ws: Any, code: int) -> dict[str, Any]:
    """The error message and then the close code of a refused or dropped socket."""
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "error", msg
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == code
    return msg


# -- D1: backpressure --------------------------------------------------------------------------
def test_state_requests_are_answered_from_one_message_per_seat_and_index(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 state requests from a spectator build no view (the one built is sent again)
    and its queue never holds more than its bound."""
    tid, _ = two_humans(client)
    limit(client, ws_rate=1e9, ws_burst=10**9, ws_flood=10**9)  # the rate is tested below
    hub = client.app.state.hub  # type: ignore[attr-defined]
    built: list[Any] = []
    monkeypatch.setattr(hub, "message_for", counted(hub.message_for, built))
    longest = [0]
    push = Connection.push

    def counting(self: Connection, *a: Any, **k: Any) -> None:
        push(self, *a, **k)
        longest[0] = max(longest[0], len(self.queue))

    monkeypatch.setattr(Connection, "push", counting)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        first = hello(ws)
        for _ in range(3000):
            ws.send_json({"type": "state"})
        seen = next_after_ping(ws)
    states = [m for m in seen if m["type"] == "state"]
    assert 1 <= len(states) <= 3000
    assert all(m == first for m in states)
    assert len(built) <= 1  # the spectators' view at this index, built once
    bound = hub.limits.ws_queue + len(Connection.KEYS)
    assert longest[0] <= bound


def test_polling_the_table_over_http_builds_one_view_per_seat_and_index(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """GET /api/tables/{id} answers from the same message the seat's sockets get."""
    tid, tokens = two_humans(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    built: list[Any] = []
    monkeypatch.setattr(hub, "message_for", counted(hub.message_for, built))
    seen = [client.get(f"/api/tables/{tid}").json() for _ in range(200)]
    mine = [client.get(f"/api/tables/{tid}", headers={"X-Seat-Token": tokens[0]}).json()
            for _ in range(200)]
    assert all(m == seen[0] for m in seen) and all(m == mine[0] for m in mine)
    assert mine[0]["seat"] == 0 and seen[0]["seat"] is None
    assert len(built) == 2  # the spectators' and seat 0's, once each


def test_a_reader_that_reads_nothing_stays_bounded_then_is_dropped() -> None:
    """A connection whose sends never finish: states replace each other in its queue,
    other messages count up to ``ws_queue``, past it the connection is dropped with 4429
    (an error message, then the close code), and a send that takes over
    ``ws_send_timeout`` drops it with 4408."""
    from pysaboteur.web.limits import Limits
    from pysaboteur.web.tables import Outgoing

    async def run() -> None:
        gate = asyncio.Event()
        sent: list[str] = []
        closed: list[int] = []

        async def send(text: str) -> None:
            sent.append(text)
            await gate.wait()

        async def close(code: int, _reason: str) -> None:
            closed.append(code)

        limits = Limits(ws_queue=8, ws_send_timeout=30)
        conn = Connection(None, send, close, limits=limits)
        dropped: list[Connection] = []
        conn.on_drop = dropped.append
        conn.start()
        conn.push(Outgoing({"type": "state", "index": 0}), key="state")
        await asyncio.sleep(0.05)  # the pump took the first state and is stuck sending it
        assert len(sent) == 1
        for i in range(1, 3000):
            conn.push(Outgoing({"type": "state", "index": i}), key="state")
            conn.push({"type": "presence", "connected": [i % 2 == 0]}, key="presence")
            assert len(conn.queue) <= 2
        assert [json.loads(out.text).get("index") for _, out in conn.queue] == [2999, None]
        for _ in range(8):
            conn.push({"type": "ack", "index": 1})
        assert conn.dead is None and len(conn.queue) == 10
        conn.push({"type": "ack", "index": 1})  # one more than the bound
        assert conn.dead is not None and conn.dead[0] == 4429 and dropped == [conn]
        assert not conn.queue
        gate.set()  # the socket takes the farewell
        assert conn.task is not None
        await asyncio.wait_for(conn.task, 5)
        assert json.loads(sent[-1])["code"] == "too-slow" and closed == [4429]

        # a send that does not finish in time (the farewell gets through)
        async def stuck(text: str) -> None:
            sent.append(text)
            if '"ack"' in text:
                await asyncio.Event().wait()

        slow = Connection(1, stuck, close, limits=Limits(ws_send_timeout=0.2))
        slow.start()
        slow.push({"type": "ack", "index": 3})
        assert slow.task is not None
        await asyncio.wait_for(slow.task, 5)
        assert slow.dead is not None and slow.dead[0] == 4408
        assert json.loads(sent[-1])["code"] == "too-slow" and closed == [4429, 4408]

    asyncio.run(run())


def test_a_failed_send_drops_and_unsubscribes_the_connection(tmp_path: Path) -> None:
    """No zombie subscriber: a send that raises takes the connection off the table, and
    the table's next change does not queue for it."""
    async def run() -> None:
        hub = Hub(Database(f"sqlite:///{tmp_path / 'z.sqlite3'}"), bot_delay=0)
        table, _, _ = await hub.create("duel", None, {}, [{"kind": "human"}, {"kind": "human"}],
                                       start=True)

        async def broken(_text: Any) -> None:
            raise RuntimeError("the socket is gone")

        conn = Connection(0, broken)
        hub.subscribe(table, conn)
        await asyncio.sleep(0.05)
        assert conn not in table.connections
        assert conn.task is not None and conn.task.done()
        hub.broadcast(table)
        assert not conn.queue
        assert not table.info()["seats"][0]["connected"]
        await hub.close()

    asyncio.run(run())


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    """A real server process (uvicorn, a fresh SQLite file, the default limits)."""
    from pysaboteur.web.attack import Server

    with Server() as s:
        yield s


def test_a_spectator_flooding_state_requests_keeps_the_server_bounded(server: Any) -> None:
    """D1 over a real socket: 3,000 state requests from a spectator that reads nothing;
    the server's RSS stays within 50 MiB of its start, the lobby keeps answering, and the
    spectator is closed (4429, with an error saying why)."""
    from websockets.sync.client import connect

    from pysaboteur.web.attack import Sampler

    _, made = server.post("/api/tables", {"game": "duel", "start": True, "seed": 2, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    table = made["id"]
    time.sleep(0.3)
    start = server.rss
    sampler = Sampler(server)
    sampler.start()
    try:
        with connect(f"{server.ws}/api/tables/{table}/ws", max_queue=1,
                     open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello"}))
            for _ in range(3000):
                try:
                    ws.send('{"type":"state"}')
                except Exception:  # closed by the server meanwhile
                    break
            time.sleep(1.0)  # read nothing for a while
            seen = []
            with pytest.raises(Exception):  # noqa: B017 - the close, whatever its class
                while True:
                    seen.append(json.loads(ws.recv(30)))
            assert ws.close_code == 4429, (ws.close_code, seen[-3:])
    finally:
        sampler.stop()
    assert any(m.get("code") == "flood" for m in seen)
    assert max(sampler.rss) - start < 50 * 1024 * 1024
    assert sampler.latency and all(x < 10 for x in sampler.latency)


# -- D4, D5: dead connections and unencodable text ------------------------------------------------
def test_a_lone_surrogate_in_an_action_is_refused_and_the_socket_lives_on(server: Any) -> None:
    """D4 over a real socket: the action ``x\\ud800`` is refused with an error that does
    not echo it; a ping after it is answered, and so is an action."""
    from websockets.sync.client import connect

    _, made = server.post("/api/tables", {"game": "duel", "start": True, "seed": 2, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    token = made["seats"][0]["token"]
    with connect(f"{server.ws}/api/tables/{made['id']}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(ws.recv(10))
        ws.send(json.dumps({"type": "action", "action": "x\ud800", "index": first["index"]}))
        ws.send(json.dumps({"type": "hello\udfff"}))  # a surrogate anywhere, keys included
        ws.send(json.dumps({"type": "ping"}))
        error = json.loads(ws.recv(5))
        assert error["type"] == "error" and error["code"] == "bad-text"
        assert "\ud800" not in json.dumps(error, ensure_ascii=False)
        assert json.loads(ws.recv(5))["code"] == "bad-text"
        assert json.loads(ws.recv(5)) == {"type": "pong"}
        seat = first["view"]["current_player"]
        if seat == 0:  # and the seat can still play
            legal = first["legal"][0]["text"]
            ws.send(json.dumps({"type": "action", "action": legal, "index": first["index"]}))
            answers = [json.loads(ws.recv(5)) for _ in range(2)]
            assert {"type": "ack", "index": first["index"] + 1} in answers


@pytest.mark.parametrize("body", [
    b'{"game": "duel", "seats": [{"kind": "human", "name": "\\ud800"}, {"kind": "bot"}]}',
    b'{"game": "duel", "players": "\\ud800"}',
    b'{"game": "\\udfff"}',
    b'{"game": "duel", "options": {"\\ud800": 1}}',
])
def test_a_lone_surrogate_in_an_http_body_is_a_4xx(client: TestClient, body: bytes) -> None:
    """D5: never a 500; the answer says why and is valid UTF-8 with no surrogate."""
    r = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    text = r.content.decode("utf-8")
    assert r.json()["detail"]["code"] == "bad-text"
    assert "\ud800" not in text and "\udfff" not in text
    # other bodies too: joining, acting, my tables
    tid, tokens = two_humans(client)
    for path, payload in [(f"/api/tables/{tid}/join", b'{"name": "\\ud800"}'),
                          (f"/api/tables/{tid}/actions", b'{"action": "\\ud800", "index": 0}'),
                          ("/api/tables/mine", b'{"seats": [{"id": "\\ud800", "token": "x"}]}')]:
        r = client.post(path, content=payload, headers={"X-Seat-Token": tokens[0],
                                                         "Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad-text", (path, r.text)
    # a surrogate pair (an emoji written as escapes) is valid text
    r = client.post("/api/tables", content=b'{"game": "duel", "seats": [{"kind": "human", '
                    b'"name": "\\ud83d\\ude00"}, {"kind": "bot"}]}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201 and r.json()["table"]["seats"][0]["name"] == "\U0001f600"


# -- D7: presence ---------------------------------------------------------------------------------
def test_presence_messages_instead_of_views_on_connect_and_leave(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    tid, tokens = two_humans(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/api/tables/{tid}/ws") as seat0:
        first = hello(seat0, tokens[0])
        assert [s["connected"] for s in first["table"]["seats"]] == [True, False]
        # spectators come and go unannounced, and cost no view each
        built: list[Any] = []
        monkeypatch.setattr(hub, "message_for", counted(hub.message_for, built))
        for _ in range(20):
            with client.websocket_connect(f"/api/tables/{tid}/ws") as spectator:
                assert hello(spectator)["seat"] is None
        assert len(built) <= 1
        assert next_after_ping(seat0) == [{"type": "pong"}]
        # a seat that connects: one small presence message to the others
        with client.websocket_connect(f"/api/tables/{tid}/ws") as watcher:
            hello(watcher)
            with client.websocket_connect(f"/api/tables/{tid}/ws") as seat1:
                joined = hello(seat1, tokens[1])
                assert [s["connected"] for s in joined["table"]["seats"]] == [True, True]
                assert next_after_ping(seat0) == [
                    {"type": "presence", "connected": [True, True]}, {"type": "pong"}]
                assert next_after_ping(watcher) == [
                    {"type": "presence", "connected": [True, True]}, {"type": "pong"}]
                assert next_after_ping(seat1) == [{"type": "pong"}]  # not told of itself
                # a second socket of a connected seat changes nobody's presence
                with client.websocket_connect(f"/api/tables/{tid}/ws") as again:
                    hello(again, tokens[1])
                assert next_after_ping(seat0) == [{"type": "pong"}]
            assert next_after_ping(seat0) == [
                {"type": "presence", "connected": [True, False]}, {"type": "pong"}]
            # a state asked for now says the same
            seat0.send_json({"type": "state"})
            again_state = seat0.receive_json()
            assert [s["connected"] for s in again_state["table"]["seats"]] == [True, False]
    assert state_connected(client, tid) == [False, False]


def state_connected(client: TestClient, tid: str) -> list[bool]:
    return [s["connected"] for s in client.get(f"/api/tables/{tid}").json()["table"]["seats"]]


# -- limits ---------------------------------------------------------------------------------------
def test_connections_past_their_limits_are_refused(client: TestClient) -> None:
    tid, tokens = two_humans(client)
    other, _ = two_humans(client)
    limit(client, ws_per_seat=1, ws_per_table=3, ws_per_client=4)
    url = f"/api/tables/{tid}/ws"
    with client.websocket_connect(url) as a:
        hello(a, tokens[0])
        with client.websocket_connect(url) as b:  # the same seat again
            b.send_json({"type": "hello", "token": tokens[0]})
            assert refused(b, 4429)["code"] == "too-many-connections"
        with client.websocket_connect(url) as b, client.websocket_connect(url) as c:
            hello(b)
            hello(c)
            with client.websocket_connect(url) as d:  # a fourth at this table
                d.send_json({"type": "hello"})
                assert "this table" in refused(d, 4429)["message"]
            with client.websocket_connect(f"/api/tables/{other}/ws") as e:
                hello(e)  # the fourth of this client
                with client.websocket_connect(f"/api/tables/{other}/ws") as f:
                    f.send_json({"type": "hello"})
                    assert "one address" in refused(f, 4429)["message"]
    # all closed: the counts are back to nothing
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert not hub.clients
    with client.websocket_connect(url) as a:
        hello(a, tokens[0])


def test_a_connection_over_the_message_rate_gets_errors_then_is_closed(
        client: TestClient) -> None:
    tid, _ = two_humans(client)
    limit(client, ws_rate=0.5, ws_burst=3, ws_flood=5)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        hello(ws)
        for _ in range(3):
            ws.send_json({"type": "ping"})
        assert [ws.receive_json() for _ in range(3)] == [{"type": "pong"}] * 3
        ws.send_json({"type": "ping"})
        over = ws.receive_json()
        assert over["type"] == "error" and over["code"] == "rate"
        for _ in range(10):
            ws.send_json({"type": "ping"})
        seen = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                seen.append(ws.receive_json())
        assert closed.value.code == 4429
        assert seen[-1]["code"] == "flood"
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert all(not t.connections for t in hub.tables.values())
