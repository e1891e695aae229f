"""Several server processes behind nginx, sharing PostgreSQL (issue 26, docs/deploy.md).

On loopback, started here: three ``saboteur serve --cluster`` processes, nginx (Debian's
package; .ci/run installs it) routing by table id, a fresh PostgreSQL database.  Every game
played to its end through the proxy (HTTP and WebSockets, one request over TLS); the owner
of busy tables killed with SIGKILL five times while seats play on, reconnecting by
themselves, with every acknowledged action checked against the stored records afterwards;
the load test through the proxy with 1, 2 and 3 processes (a short run: the figures of
docs/deploy.md come from ``python -m pysaboteur.web.loadtest --processes 1,2,3``).

Needs PYSABOTEUR_TEST_POSTGRES (CI sets it) and nginx."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
psycopg = pytest.importorskip("psycopg")
pytest.importorskip("fastapi")

from pysaboteur.records import Record, replay  # noqa: E402
from pysaboteur.web import loadtest  # noqa: E402
from pysaboteur.web.cluster import (  # noqa: E402
    Cluster,
    drop_database,
    free_port,
    fresh_database,
    nginx_binary,
    wait_port,
)
from pysaboteur.web.db import Database  # noqa: E402
from pysaboteur.web.owners import conninfo, lock_key  # noqa: E402
from pysaboteur.web.tables import view_json  # noqa: E402

POSTGRES = os.environ.get("PYSABOTEUR_TEST_POSTGRES")
ROOT = Path(__file__).resolve().parents[1]

SERVE = ["--bot-delay", "0", "--allow-seed", "--tables-per-minute", "0",
         "--ws-per-client", "0", "--takeover-timeout", "5"]


def test_the_options_are_documented_and_sqlite_is_refused(tmp_path: Path) -> None:
    """--cluster, --takeover-timeout and --forwarded-allow-ips are public: in --help (both
    commands) and in docs/deploy.md; --cluster on SQLite is one line and exit code 2."""
    from typer.testing import CliRunner

    from pysaboteur.cli.main import app as cli
    from pysaboteur.web.__main__ import parser

    options = ("--cluster", "--takeover-timeout", "--forwarded-allow-ips")
    shown = CliRunner().invoke(cli, ["serve", "--help"], env={"COLUMNS": "200"}).output
    deploy = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    for option in options:
        assert option in shown and option in parser().format_help() and option in deploy
    r = CliRunner().invoke(cli, ["serve", "--cluster", "--no-open", "--database-url",
                                 f"sqlite:///{tmp_path / 'x.sqlite3'}"])
    assert r.exit_code == 2
    assert "PostgreSQL" in r.output and len(r.output.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    if not POSTGRES or nginx_binary() is None:
        # CI (.ci/run) sets PYSABOTEUR_REQUIRE_SCALE_OUT: there these tests run or fail
        if os.environ.get("PYSABOTEUR_REQUIRE_SCALE_OUT"):
            pytest.fail("tests/test_scale_out.py needs PYSABOTEUR_TEST_POSTGRES and nginx")
        pytest.skip("needs PYSABOTEUR_TEST_POSTGRES and nginx (.ci/run sets up both)")
    assert POSTGRES
    url = fresh_database(POSTGRES)
    # servers forked from one that imported everything: a restart after a kill takes a
    # fraction of a second, not the seconds of imports of a fresh interpreter
    # PYSABOTEUR_SCALE_OUT_DIR: keep the servers' and nginx's logs and configuration there
    keep = os.environ.get("PYSABOTEUR_SCALE_OUT_DIR")
    c = Cluster(url, 3, tls_port=free_port(), serve_args=SERVE, fork=True,
                workdir=Path(keep) if keep else None)
    try:
        c.start()
        yield c
    finally:
        c.stop()
        drop_database(url)


def owners(c: Cluster, tables: list[str]) -> dict[str, int]:
    """The index of the process that holds each table's lock (tables nobody holds: left
    out), from PostgreSQL's own view of its locks (docs/deploy.md shows the query)."""
    with psycopg.connect(conninfo(c.database_url), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT l.classid::bigint, l.objid::bigint, a.application_name FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
            "AND l.granted AND l.objsubid = 1").fetchall()
    held = {(hi << 32) | lo: name for hi, lo, name in rows}
    pids = {p.pid: i for i, p in enumerate(c.procs) if p is not None}
    out = {}
    for table in tables:
        name = held.get(lock_key(table) & 0xFFFFFFFFFFFFFFFF)
        if name is not None and int(name.rsplit("-", 1)[1]) in pids:
            out[table] = pids[int(name.rsplit("-", 1)[1])]
    return out


def up(c: Cluster) -> int:
    """How many server processes answer /healthz."""
    n = 0
    for port in c.ports:
        with contextlib.suppress(httpx.TransportError):
            n += httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    return n


@dataclass
class Acks:
    """What the seats were told: (table, idx) -> (seat, action text), and when."""

    told: dict[tuple[str, int], tuple[int, str]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    twice: list[tuple[str, int]] = field(default_factory=list)
    reconnects: int = 0
    finished: set[str] = field(default_factory=set)
    tokens: dict[str, str] = field(default_factory=dict)  # a seat's token at each table

    def add(self, table: str, idx: int, seat: int, text: str) -> None:
        if (table, idx) in self.told:
            self.twice.append((table, idx))
        self.told[(table, idx)] = (seat, text)
        self.times.setdefault(table, []).append(time.monotonic())


@dataclass
class Until:
    """When the players stop (moved up to stop them early)."""

    at: float

    def left(self) -> float:
        return self.at - time.monotonic()


async def rematch(url: str, table: str, token: str, until: Until) -> str | None:
    """The rematch table of a finished one (the same token holds the same seat there)."""
    async with httpx.AsyncClient(base_url=url, timeout=10) as h:
        while until.left() > 0:
            try:
                r = await h.post(f"/api/tables/{table}/rematch",
                                 headers={"X-Seat-Token": token})
                if r.status_code == 200:
                    return str(r.json()["id"])
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.3)
    return None


async def play_seat(url: str, table: str, token: str, seat: int, until: Until,
                    acks: Acks, rng: random.Random, think: float = 0.0,
                    current: dict[int, str] | None = None) -> None:
    """One seat played by a random client over its WebSocket through the proxy, until
    its match ends or ``until`` (``current``: then on at the rematch table, noting
    there which table it plays); it reconnects by itself whenever the socket closes (as
    the page does), and notes every acknowledgement."""
    me = id(object())
    while until.left() > 0:
        if current is not None:
            current[me] = table
        if table in acks.finished:
            if current is None:
                return
            nxt = await rematch(url, table, token, until)
            if nxt is None:
                return
            table = nxt
            continue
        ws_url = url.replace("http://", "ws://") + f"/api/tables/{table}/ws"
        pending: tuple[int, str] | None = None
        last: dict[str, Any] | None = None
        try:
            async with websockets.connect(ws_url, open_timeout=5, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))

                async def answer(state: dict[str, Any]) -> tuple[int, str]:
                    if think:
                        await asyncio.sleep(think * rng.random())
                    choice = rng.choice(state["legal"])["text"]
                    await ws.send(json.dumps({"type": "action", "action": choice,
                                              "index": state["index"]}))
                    return state["index"], choice

                while until.left() > 0:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), min(0.5, max(0.05,
                                                                             until.left())))
                    except TimeoutError:
                        continue
                    msg = json.loads(raw)
                    if msg["type"] == "state":
                        last = msg
                        if msg["table"]["status"] == "finished":
                            acks.finished.add(table)
                            break
                        if msg["legal"] and pending is None:
                            pending = await answer(msg)
                    elif msg["type"] == "ack" and pending is not None:
                        idx, text = pending
                        assert msg["index"] == idx + 1
                        acks.add(table, idx, seat, text)
                        acks.tokens[table] = token
                        pending = None
                        if last is not None and last["legal"] and last["index"] == msg["index"]:
                            pending = await answer(last)
                    elif msg["type"] == "error" and msg.get("code") == "rate":
                        # over --ws-rate (a table with no bots moves as fast as its seat
                        # answers): that message was not read, whichever it was; wait for
                        # the window, then ask for the state again
                        pending = None
                        await asyncio.sleep(0.25)
                        await ws.send(json.dumps({"type": "state"}))
                    elif msg["type"] == "error" and pending is not None:
                        pending = None  # refused (stale, moved, unavailable): ask again
                        await ws.send(json.dumps({"type": "state"}))
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            pass
        if table not in acks.finished:
            acks.reconnects += 1
            await asyncio.sleep(0.2 + 0.3 * rng.random())


def stored(c: Cluster, table: str) -> Any:
    db = Database(c.database_url)
    try:
        t = db.load(table)
    finally:
        db.close()
    assert t is not None
    return t


def count_actions(c: Cluster, table: str) -> int:
    with psycopg.connect(conninfo(c.database_url), autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM actions WHERE table_id = %s",
                           (table,)).fetchone()
    return int(row[0]) if row else 0


def get_state(c: Cluster, table: str, token: str | None, seconds: float = 30.0) -> Any:
    """The state of ``table`` through the proxy (``token``: that seat's) once a process
    serves it (right after a kill, a table may be on its way to its new owner: 502, 503)."""
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=c.url, timeout=20) as h:
        while True:
            r = h.get(f"/api/tables/{table}", headers={"X-Seat-Token": token} if token else {})
            if r.status_code == 200 or time.monotonic() > deadline:
                assert r.status_code == 200, r.text
                return r.json()
            print(f"GET {table}: {r.status_code} {r.text[:200]}")
            time.sleep(0.2)


def check_against_store(c: Cluster, tables: list[str], acks: Acks,
                        served: set[str] | None = None) -> int:
    """Every acknowledged action is in the store, at its index, by its seat; every stored
    record replays through the engine; what the proxy serves now is the stored record,
    nothing more and nothing less.  Returns how many acknowledgements were checked."""
    assert not acks.twice, f"acknowledged twice: {acks.twice[:5]}"
    db = Database(c.database_url)
    n = 0
    try:
        for table in tables:
            t = db.load(table)
            assert t is not None
            for (tid, idx), (seat, text) in acks.told.items():
                if tid == table:
                    assert idx < len(t.actions), (table, idx, "acknowledged, not stored")
                    assert t.actions[idx] == (seat, text), (table, idx)
                    n += 1
            record = Record(game=t.game, players=t.players, seed=t.seed, options=t.options,
                            actions=[a for _, a in t.actions])
            state = replay(record)  # legal, in order, each once
            if served is not None and table not in served:
                continue
            now = get_state(c, table, acks.tokens.get(table))
            assert now["index"] == len(t.actions)
            assert now["view"] == view_json(state.view(now["seat"]))
    finally:
        db.close()
    return n


GAMES = [("duel", 2), ("solo", 1), ("classic", 3), ("expansion", 3), ("lost-mines", 3)]


def test_every_game_through_the_proxy(cluster: Cluster) -> None:
    """A full match of every game, its human seat played over a WebSocket through nginx
    (the bots move at whichever process owns the table); the lobby and "my tables" list
    tables whichever process holds them; one request over TLS."""
    made: list[tuple[str, str]] = []
    with httpx.Client(base_url=cluster.url, timeout=20) as h:
        for i, (game, players) in enumerate(GAMES):
            seats = [{"kind": "human"}] + [{"kind": "bot", "difficulty": "easy"}] * (players - 1)
            r = h.post("/api/tables", json={"game": game, "players": players, "start": True,
                                            "seed": 100 + i, "public": False, "seats": seats})
            assert r.status_code == 201, r.text
            made.append((r.json()["id"], r.json()["seats"][0]["token"]))
        # an open public table, listed by the lobby whichever process answers it
        lobby_table = h.post("/api/tables", json={"game": "duel", "seats": [
            {"kind": "human"}, {"kind": "open"}]}).json()["id"]
        for _ in range(6):  # the lobby's requests go to any process
            assert lobby_table in [t["id"] for t in h.get("/api/tables").json()]
    acks = Acks()

    async def go() -> None:
        until = Until(time.monotonic() + 60)
        await asyncio.gather(*(play_seat(cluster.url, tid, tok, 0, until, acks,
                                         random.Random(i))
                               for i, (tid, tok) in enumerate(made)))
    asyncio.run(go())
    assert acks.finished == {tid for tid, _ in made}
    check_against_store(cluster, [tid for tid, _ in made], acks)
    with httpx.Client(base_url=cluster.url, timeout=20) as h:
        mine = h.post("/api/tables/mine", json={"seats": [
            {"id": tid, "token": tok} for tid, tok in made]}).json()
        assert {m["id"] for m in mine} == {tid for tid, _ in made}
        assert all(m["status"] == "finished" for m in mine)
        r = h.get(f"/api/tables/{made[0][0]}/record")
        assert r.status_code == 200 and replay(Record.from_json(r.json())).is_terminal
    # TLS ends at the proxy
    with httpx.Client(base_url=f"https://127.0.0.1:{cluster.tls_port}", verify=False,
                      timeout=20) as s:
        assert s.get(f"/api/tables/{made[0][0]}").json()["table"]["status"] == "finished"


def test_one_address_meets_one_process_outside_tables(cluster: Cluster) -> None:
    """A request that names no table is routed by the client's address: one address's new
    tables (and tutorials) all meet one process, so its --tables-per-minute counts them all."""
    with httpx.Client(base_url=cluster.url, timeout=20) as h:
        names = {h.get("/healthz").json()["process"] for _ in range(12)}
    assert len(names) == 1 and names != {""}


def test_kill_the_owner_five_times(cluster: Cluster) -> None:
    """Seats play Duel tables through the proxy (a rematch when a match ends); five times
    the process that owns the most of them is killed (SIGKILL) mid-game and started again
    in the background.  Other processes take each of its tables over within seconds, the
    seats reconnect by themselves, and afterwards every acknowledged action is in the
    store exactly once, at its index, by its seat."""
    seats: list[tuple[str, str, int]] = []
    with httpx.Client(base_url=cluster.url, timeout=20) as h:
        for i in range(8):
            spec = ([{"kind": "human"}, {"kind": "human"}] if i < 6
                    else [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}])
            r = h.post("/api/tables", json={"game": "duel", "start": True, "seed": 7 + i,
                                            "public": False, "seats": spec})
            assert r.status_code == 201, r.text
            made = r.json()
            seats += [(made["id"], s["token"], s["seat"]) for s in made["seats"] if s["token"]]
    acks = Acks()
    current: dict[int, str] = {}
    takeovers: list[float] = []

    began = time.monotonic()

    def say(what: str) -> None:
        print(f"  {time.monotonic() - began:6.2f} s  {what}", flush=True)

    async def kills() -> None:
        await asyncio.sleep(2.0)
        for _ in range(5):
            limit = time.monotonic() + 60
            while await asyncio.to_thread(up, cluster) < 2:  # never the last one standing
                assert time.monotonic() < limit, "the killed processes did not come back"
                await asyncio.sleep(0.2)
            playing = sorted({t for t in current.values() if t not in acks.finished})
            held = await asyncio.to_thread(owners, cluster, playing)
            victim = max(set(held.values()), key=list(held.values()).count)
            lost = [t for t, i in held.items() if i == victim]
            before = {t: len(acks.times.get(t, [])) for t in lost}
            killed = time.monotonic()
            await asyncio.to_thread(cluster.kill, victim)
            say(f"killed process {victim}, owner of {len(lost)} of {len(playing)} tables")
            # every table it held moves on (or had just ended) at another process
            while any(len(acks.times.get(t, [])) <= before[t] and t not in acks.finished
                      for t in lost):
                assert time.monotonic() < killed + 15, "no process took the tables over"
                await asyncio.sleep(0.02)
            takeovers.append(time.monotonic() - killed)
            say(f"its tables all moving again, {takeovers[-1]:.2f} s after the kill")
            await asyncio.to_thread(cluster.restart, victim, False)
            await asyncio.sleep(2.0)

    async def go() -> None:
        until = Until(time.monotonic() + 150)
        players = [asyncio.ensure_future(play_seat(cluster.url, tid, tok, seat, until, acks,
                                                   random.Random(j), 0.05, current))
                   for j, (tid, tok, seat) in enumerate(seats)]
        try:
            await kills()
        finally:
            until.at = time.monotonic()  # every player stops within half a second
            await asyncio.wait(players, timeout=15)
            for p in players:
                p.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        say("the players stopped")
    asyncio.run(go())
    for i in range(len(cluster.ports)):  # every process back (the next test uses them)
        proc = cluster.procs[i]
        if proc is not None:
            wait_port(cluster.ports[i], 120, proc=proc)
    time.sleep(0.5)  # the bots' last answers
    tables = sorted({t for t, _ in acks.told})
    say(f"checking {len(tables)} tables")
    # every table against the store; the last ones played also as the proxy serves them
    checked = check_against_store(cluster, tables, acks, set(current.values()))
    say("checked")
    print(f"\n5 kills: each dead owner's tables all moving again after "
          f"{[round(t, 2) for t in takeovers]} s; {checked} acknowledged actions at "
          f"{len(tables)} tables checked against the store; {acks.reconnects} reconnections")
    assert len(takeovers) == 5 and max(takeovers) < 15
    assert checked > 100


def test_a_lost_lock_connection(cluster: Cluster) -> None:
    """The owner's lock connection is cut under it (``pg_terminate_backend``) while seats
    play: its locks are gone at once, another process may take its tables while it still
    holds them in memory; within a housekeeping round it notices and puts them all away.
    Whatever both did, every acknowledged action is in the store once, at its index, and
    the process is ready again."""
    made = []
    with httpx.Client(base_url=cluster.url, timeout=20) as h:
        for i in range(4):
            r = h.post("/api/tables", json={"game": "duel", "start": True, "seed": 50 + i,
                                            "public": False, "seats": [{"kind": "human"}] * 2})
            assert r.status_code == 201, r.text
            made.append(r.json())
    tables = [m["id"] for m in made]
    acks = Acks()

    async def go() -> None:
        until = Until(time.monotonic() + 60)
        players = [asyncio.ensure_future(play_seat(cluster.url, m["id"], s["token"], s["seat"],
                                                   until, acks, random.Random(k), 0.05))
                   for k, m in enumerate(made) for s in m["seats"]]
        await asyncio.sleep(2.0)
        held = await asyncio.to_thread(owners, cluster, tables)
        victim = max(set(held.values()), key=list(held.values()).count)
        with psycopg.connect(conninfo(cluster.database_url), autocommit=True) as conn:
            cut = conn.execute(
                "SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a WHERE "
                "a.application_name = %s AND EXISTS (SELECT 1 FROM pg_locks l WHERE "
                "l.pid = a.pid AND l.locktype = 'advisory')",
                (f"pysaboteur-{os.uname().nodename[:30]}-{cluster.pid(victim)}",)).fetchall()
        assert cut, "the owner's lock connection was found"
        await asyncio.sleep(6.0)
        until.at = time.monotonic()
        await asyncio.wait(players, timeout=15)
        for p in players:
            p.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        port = cluster.ports[victim]
        deadline = time.monotonic() + 15
        while (await asyncio.to_thread(httpx.get, f"http://127.0.0.1:{port}/readyz")
               ).status_code != 200:
            assert time.monotonic() < deadline, "the process did not get ready again"
            await asyncio.sleep(0.2)
    asyncio.run(go())
    time.sleep(0.5)
    assert check_against_store(cluster, tables, acks) > 20


def test_load_through_the_proxy(cluster: Cluster) -> None:
    """The load test through nginx with 1, 2 and 3 processes (a short run): it works and
    reports each process's CPU per action."""
    results = loadtest.scale(cluster, [1, 2, 3], tables=6, seconds=2.0)
    for r in results:
        print(loadtest.describe(r))
        assert r["actions"] > 0 and r["errors"] == 0
        assert len(r["cpu_ms_per_action"]["servers"]) == r["processes"]


def test_a_table_nobody_watches_carries_on(cluster: Cluster) -> None:
    """Two hard bots play a Duel that nobody watches; its owner is killed mid-match: another
    process notices the table has no owner and carries it on (nobody asked for it)."""
    with httpx.Client(base_url=cluster.url, timeout=20) as h:
        r = h.post("/api/tables", json={"game": "duel", "start": True, "public": False,
                                        "seats": [{"kind": "bot", "difficulty": "hard"}] * 2})
        assert r.status_code == 201, r.text
        table = r.json()["id"]

    def stored_actions() -> int:
        return count_actions(cluster, table)
    deadline = time.monotonic() + 30
    while stored_actions() < 2:
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.1)
    victim = owners(cluster, [table])[table]
    cluster.kill(victim)
    killed, before = time.monotonic(), stored_actions()
    while stored_actions() < before + 2:
        assert time.monotonic() < killed + 20, "nobody carried the table on"
        time.sleep(0.1)
    took = time.monotonic() - killed
    assert owners(cluster, [table]).get(table) not in (None, victim)
    print(f"\nan unwatched table carried on {took:.2f} s after its owner was killed")
    cluster.restart(victim, True)
    record = stored(cluster, table)
    replay(Record(game=record.game, players=record.players, seed=record.seed,
                  options=record.options, actions=[a for _, a in record.actions]))
