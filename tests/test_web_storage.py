"""The server's tables and storage under pressure (issue 22, D2 and D6): limits on creating
tables, a paged lobby, abandoned tables closed, idle tables evicted and loaded again only for
someone with a right to them, a restart that loads nothing eagerly, and a store that never
acknowledges what it did not keep (deleted, read-only or failing databases; bots that back
off).  The storage tests run on PostgreSQL too when PYSABOTEUR_TEST_POSTGRES is set."""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pysaboteur.cli.main import app as cli
from pysaboteur.engine.rng import Rng
from pysaboteur.web.__main__ import parser as web_parser
from pysaboteur.web.db import Database, StorageError
from pysaboteur.web.limits import Limits, option_name
from pysaboteur.web.server import create_app
from pysaboteur.web.tables import Hub

POSTGRES = os.environ.get("PYSABOTEUR_TEST_POSTGRES")
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _pg_admin() -> str:
    assert POSTGRES
    return POSTGRES.replace("postgresql+psycopg://", "postgresql://")


def _pg_name(url: str) -> str:
    return url.rsplit("/", 1)[1]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'storage.sqlite3'}"
        return
    if not POSTGRES:
        pytest.skip("set PYSABOTEUR_TEST_POSTGRES to test against PostgreSQL")
    psycopg = pytest.importorskip("psycopg")
    name = f"pysaboteur_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_pg_admin(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(_pg_admin(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture()
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'storage.sqlite3'}"


def serve(url: str, **limits: Any) -> TestClient:
    return TestClient(create_app(url, bot_delay=0, allow_seed=True, limits=Limits(**limits)))


def hub(c: TestClient) -> Hub:
    return c.app.state.hub  # type: ignore[attr-defined,no-any-return]


def create(c: TestClient, expect: int = 201, **body: Any) -> Any:
    body = {"game": "duel", "seats": HUMANS, "start": True, **body}
    r = c.post("/api/tables", json=body)
    assert r.status_code == expect, r.text
    return r.json()


def state(c: TestClient, table: str, token: str | None = None) -> Any:
    r = c.get(f"/api/tables/{table}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def move(c: TestClient, table: str, tokens: list[str], pick: Rng) -> Any:
    """One legal move of the seat whose turn it is (a table of human seats)."""
    seat = state(c, table)["table"]["current_player"]
    st = state(c, table, tokens[seat])
    choice = st["legal"][pick.below(len(st["legal"]))]["text"] if st["legal"] else "x"
    return c.post(f"/api/tables/{table}/actions", headers={"X-Seat-Token": tokens[seat]},
                  json={"action": choice, "index": st["index"]})


def until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.time() + seconds
    while not check():
        if time.time() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def finished_bot_table(c: TestClient) -> tuple[str, str]:
    """A solo match a bot plays to its end by itself: (its id, its host token)."""
    made = create(c, game="solo", seats=[{"kind": "bot"}])
    tid, host = made["id"], made["host_token"]
    until(lambda: state(c, tid, host)["table"]["status"] == "finished")
    return tid, host


def refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["detail"]["code"] == code, r.text


def loaded(c: TestClient, table: str) -> bool:
    gc.collect()
    h = hub(c)
    return table in h.tables or table in h._held


# -- options ---------------------------------------------------------------------------------
def test_every_limit_is_an_option_with_its_help_and_default() -> None:
    opts = Limits.options()
    assert [o[0] for o in opts] == [option_name(n) for n in Limits.names()]
    for option, kind, default, text in opts:
        assert text, f"{option} has no help (declare it with limits.limit(default, help))"
        assert kind in (int, float, bool), option
        assert isinstance(default, kind), option
    result = CliRunner().invoke(cli, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for option, *_ in opts:
        assert option in result.output
    assert "[default: 500]" in result.output  # --max-open-tables
    for stable in ("--host", "--port", "--database-url", "--bot-delay", "--no-open",
                   "--allow-seed"):
        assert stable in result.output
    a = web_parser().parse_args(["--max-open-tables", "7", "--abandon-after", "1.5"])
    assert (a.max_open_tables, a.abandon_after, a.tables_per_minute) == (
        7, 1.5, Limits().tables_per_minute)
    assert "--storage-check-interval" in web_parser().format_help()


# -- table limits ------------------------------------------------------------------------------
def test_tables_per_minute_from_one_address(db_url: str) -> None:
    with serve(db_url, tables_per_minute=3) as c:
        for _ in range(3):
            create(c)
        r = c.post("/api/tables", json={"game": "duel", "seats": HUMANS})
        refused(r, 429, "rate-limited")
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert "3 new tables a minute" in r.json()["detail"]["message"]
        # another address has its own allowance
        other = TestClient(c.app, client=("192.0.2.7", 5000))
        assert other.post("/api/tables", json={"game": "duel", "seats": HUMANS}).status_code \
            == 201


def test_open_tables_per_server(db_url: str) -> None:
    with serve(db_url, max_open_tables=2, tables_per_minute=0) as c:
        create(c)
        create(c, start=False)
        r = c.post("/api/tables", json={"game": "duel", "seats": HUMANS})
        refused(r, 503, "too-many-tables")
        assert r.headers["Retry-After"]
        assert len(hub(c).live) == 2
    with serve(db_url, max_open_tables=3, tables_per_minute=0) as c:
        finished_bot_table(c)  # the third: it finishes, and frees its place
        create(c)
        refused(c.post("/api/tables", json={"game": "duel", "seats": HUMANS}), 503,
                "too-many-tables")


def test_lobby_pages(db_url: str) -> None:
    with serve(db_url, lobby_page=3, tables_per_minute=0) as c:
        ids = [create(c, start=False, seats=[{"kind": "human"}, {"kind": "open"}])["id"]
               for _ in range(5)]
        create(c, start=False, public=False)
        create(c)  # playing: not in the lobby
        r = c.get("/api/tables")
        assert r.status_code == 200
        assert r.headers["X-Total-Count"] == "5"
        assert [t["id"] for t in r.json()] == ids[::-1][:3]  # newest first, a page
        r = c.get("/api/tables", params={"offset": 2, "limit": 2})
        assert [t["id"] for t in r.json()] == ids[::-1][2:4]
        assert [t["id"] for t in c.get("/api/tables?offset=4").json()] == [ids[0]]
        assert c.get("/api/tables?offset=9").json() == []
        assert c.get("/api/tables?limit=4").status_code == 422  # over --lobby-page
        assert c.get("/api/tables?limit=0").status_code == 422
        assert c.get("/api/tables?offset=-1").status_code == 422


def test_abandoned_tables_are_closed(db_url: str) -> None:
    # long enough for the first move to land first on a loaded machine
    with serve(db_url, abandon_after=3.0, tables_per_minute=0, max_open_tables=2) as c:
        made = create(c)
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        assert move(c, tid, tokens, Rng(1)).status_code == 200
        waiting = create(c, start=False)["id"]
        refused(c.post("/api/tables", json={"game": "duel", "seats": HUMANS}), 503,
                "too-many-tables")
        until(lambda: state(c, tid, tokens[0])["table"]["status"] == "abandoned", 10)
        refused(move(c, tid, tokens, Rng(2)), 409, "abandoned")
        until(lambda: not hub(c).live, 10)
        assert state(c, waiting)["table"]["status"] == "abandoned"  # still in memory
        create(c)  # their places are free again
    stored = Database(db_url)
    try:
        t = stored.load(tid)
        assert t is not None and t.status == "abandoned" and len(t.actions) == 1
    finally:
        stored.close()


# -- eviction and lazy loading --------------------------------------------------------------------
def test_finished_tables_leave_memory_and_come_back_only_for_a_right(db_url: str) -> None:
    with serve(db_url, evict_finished_after=0.2, evict_idle_after=0.2) as c:
        tid, host = finished_bot_table(c)
        made = create(c, game="solo", seats=[{"kind": "human"}], start=False)
        idle, idle_host = made["id"], made["host_token"]
        until(lambda: not loaded(c, tid) and not loaded(c, idle), 10)
        loads: list[tuple[str, bool]] = []
        db = hub(c).db
        real = db.load

        def counted(table_id: str, actions: bool = True) -> Any:
            loads.append((table_id, actions))
            return real(table_id, actions)
        db.load = counted  # type: ignore[method-assign]
        # a stranger: nothing is loaded, the store is not even asked
        refused(c.get(f"/api/tables/{tid}"), 404, "no-table")
        refused(c.get(f"/api/tables/{uuid.uuid4().hex[:12]}"), 404, "no-table")
        with c.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["code"] == "no-table"
        assert loads == [] and not loaded(c, tid)
        # a wrong token: its row is looked at (not its actions), nothing is loaded
        refused(c.get(f"/api/tables/{tid}", headers={"X-Seat-Token": "not-a-token"}), 404,
                "no-table")
        assert loads == [(tid, False)] and not loaded(c, tid)
        # the host's token brings it back (and its WebSocket, after the hello)
        assert state(c, tid, host)["table"]["status"] == "finished"
        assert loads[1:] == [(tid, False), (tid, True)]  # the host's: loaded
        until(lambda: not loaded(c, tid), 10)
        with c.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"type": "hello", "token": host})
            msg = ws.receive_json()
            assert msg["type"] == "state" and msg["table"]["status"] == "finished"
        until(lambda: not loaded(c, tid), 10)
        # its record too
        r = c.get(f"/api/tables/{tid}/record")
        assert r.status_code == 200 and r.json()["seed"] is not None
        # an idle open table is live: anyone may load it again
        assert state(c, idle)["table"]["status"] == "open"
        assert c.post(f"/api/tables/{idle}/start",
                      headers={"X-Seat-Token": idle_host}).status_code == 200


def test_a_restart_loads_no_table_eagerly(db_url: str) -> None:
    with serve(db_url, tables_per_minute=0) as c:
        done, host = finished_bot_table(c)
        waiting = create(c, start=False, seats=[{"kind": "human"}, {"kind": "open"}])["id"]
        made = create(c)
        playing, tokens = made["id"], [s["token"] for s in made["seats"]]
        assert move(c, playing, tokens, Rng(3)).status_code == 200
    with serve(db_url) as c:
        h = hub(c)
        assert h.tables == {} and set(h.live) == {waiting, playing}
        assert [t["id"] for t in c.get("/api/tables").json()] == [waiting]  # loads the page
        assert set(h.tables) == {waiting}
        assert state(c, playing)["index"] == 1  # a spectator's first look loads it
        assert move(c, playing, tokens, Rng(4)).status_code == 200
        refused(c.get(f"/api/tables/{done}"), 404, "no-table")
        assert done not in h.tables
        assert state(c, done, host)["table"]["status"] == "finished"
        r = c.get("/healthz")
        assert r.status_code == 200 and r.json()["live_tables"] == 2


# -- storage that never lies -------------------------------------------------------------------
def _snapshot(path: Path, to: Path) -> None:
    src = sqlite3.connect(path)
    dst = sqlite3.connect(to)
    src.backup(dst)
    src.close()
    dst.close()


def _delete(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


def test_a_deleted_sqlite_file_refuses_every_write(tmp_path: Path) -> None:
    path = tmp_path / "gone.sqlite3"
    url = f"sqlite:///{path}"
    with serve(url, storage_check_interval=0.05) as c:
        made = create(c)
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        pick = Rng(7)
        for _ in range(3):
            assert move(c, tid, tokens, pick).status_code == 200
        acked = state(c, tid)["index"]
        assert c.get("/readyz").status_code == 200
        _snapshot(path, tmp_path / "backup.sqlite3")  # what an operator would restore
        _delete(path)
        seat = state(c, tid)["table"]["current_player"]
        with c.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"type": "hello", "token": tokens[1 - seat]})  # the other seat
            assert ws.receive_json()["type"] == "state"
            r = move(c, tid, tokens, pick)
            refused(r, 503, "unavailable")
            msg = ws.receive_json()
            while msg["type"] != "error":
                msg = ws.receive_json()
            assert msg["code"] == "unavailable"
        for _ in range(5):
            refused(move(c, tid, tokens, pick), 503, "unavailable")
        refused(c.post("/api/tables", json={"game": "duel", "seats": HUMANS}), 503,
                "unavailable")
        assert state(c, tid)["index"] == acked  # nothing applied
        r = c.get("/readyz")
        assert r.status_code == 503 and "deleted" in r.json()["storage"]
        assert c.get("/healthz").status_code == 200
        assert not path.exists()  # no write went to a new file at its path either
    shutil.copy(tmp_path / "backup.sqlite3", path)
    with serve(url) as c:  # restored: everything acknowledged is there, nothing more
        assert state(c, tid)["index"] == acked
        assert move(c, tid, tokens, pick).status_code == 200


def _pg_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(_pg_admin(), autocommit=True) as admin:
        admin.execute(sql)


def test_a_database_that_disappears(db_url: str, tmp_path: Path) -> None:
    """SQLite: the file deleted; PostgreSQL: the database dropped."""
    with serve(db_url, storage_check_interval=0.05) as c:
        made = create(c)
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        assert move(c, tid, tokens, Rng(1)).status_code == 200
        if db_url.startswith("sqlite"):
            _delete(Path(db_url.removeprefix("sqlite:///")))
        else:
            _pg_sql(f'DROP DATABASE "{_pg_name(db_url)}" WITH (FORCE)')
        refused(move(c, tid, tokens, Rng(2)), 503, "unavailable")
        refused(c.post("/api/tables", json={"game": "duel", "seats": HUMANS}), 503,
                "unavailable")
        assert state(c, tid)["index"] == 1
        until(lambda: c.get("/readyz").status_code == 503, 5)
        if db_url.startswith("postgresql"):  # recreated (empty): the server is ready again
            _pg_sql(f'CREATE DATABASE "{_pg_name(db_url)}"')
            Database(db_url).close()  # its tables
            until(lambda: c.get("/readyz").status_code == 200, 10)


def test_a_read_only_database_refuses_writes(db_url: str) -> None:
    with serve(db_url) as c:
        made = create(c)
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        assert move(c, tid, tokens, Rng(1)).status_code == 200
    if db_url.startswith("sqlite"):
        path = db_url.removeprefix("sqlite:///")
        ro = f"sqlite:///file:{path}?mode=ro&uri=true"
    else:
        name = _pg_name(db_url)
        _pg_sql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        ro = db_url
    try:
        with serve(ro, storage_check_interval=0.05) as c:
            r = c.get("/readyz")
            assert r.status_code == 503 and r.json()["status"] == "unavailable"
            assert state(c, tid)["index"] == 1  # reads go on
            refused(move(c, tid, tokens, Rng(2)), 503, "unavailable")
            refused(c.post("/api/tables", json={"game": "duel", "seats": HUMANS}), 503,
                    "unavailable")
            assert state(c, tid)["index"] == 1
            if db_url.startswith("postgresql"):  # writable again: ready again
                _pg_sql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
                hub(c).db.engine.dispose()
                until(lambda: c.get("/readyz").status_code == 200, 10)
                assert move(c, tid, tokens, Rng(2)).status_code == 200
    finally:
        if db_url.startswith("postgresql"):
            _pg_sql(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')


@pytest.mark.skipif(ROOT, reason="file permissions do not bind root")
def test_a_file_made_read_only_while_running(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "db.sqlite3"
    with serve(f"sqlite:///{path}", storage_check_interval=0.05) as c:
        made = create(c)
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        path.chmod(0o444)
        folder.chmod(0o555)
        try:
            hub(c).db.engine.dispose()  # the next connection opens it as it is now
            refused(move(c, tid, tokens, Rng(2)), 503, "unavailable")
            until(lambda: c.get("/readyz").status_code == 503, 5)
        finally:
            folder.chmod(0o755)
            path.chmod(0o644)


def _serve_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pysaboteur.cli.main", "serve", "--no-open", "--port", "9",
         *args], capture_output=True, text=True, timeout=60)


def test_start_up_on_a_read_only_or_missing_location_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    Database(f"sqlite:///{path}").close()
    cases = [f"sqlite:///file:{path}?mode=ro&uri=true",  # read-only
             f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.sqlite3'}"]  # missing
    if not ROOT:
        ro = tmp_path / "ro-dir"
        ro.mkdir()
        ro.chmod(0o555)
        cases.append(f"sqlite:///{ro / 'db.sqlite3'}")
    for url in cases:
        done = _serve_cli("--database-url", url)
        assert done.returncode != 0, url
        assert "Traceback" not in done.stderr + done.stdout, done.stderr
        lines = [x for x in done.stderr.splitlines() if x.strip()]
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith("saboteur serve: "), lines
    done = subprocess.run([sys.executable, "-m", "pysaboteur.web", "--database-url", cases[0]],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1, done.stderr


def _failing(*_args: Any, **_kwargs: Any) -> Any:
    raise StorageError("injected: the disk is full")


def test_a_join_is_marked_only_once_stored(db_url: str) -> None:
    with serve(db_url) as c:
        made = create(c, start=False, seats=[{"kind": "human"}, {"kind": "open"}])
        tid = made["id"]
        db = hub(c).db
        real = db.update_table
        db.update_table = _failing  # type: ignore[method-assign]
        refused(c.post(f"/api/tables/{tid}/join", json={"name": "Eve"}), 503, "unavailable")
        seats = state(c, tid)["table"]["seats"]
        assert seats[1]["kind"] == "open" and seats[1]["name"] is None
        assert state(c, tid)["table"]["free_seats"] == 1
        db.update_table = real  # type: ignore[method-assign]
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Eve"})
        assert r.status_code == 200 and r.json()["seat"] == 1
        assert state(c, tid)["table"]["seats"][1]["name"] == "Eve"


def test_a_failed_commit_is_never_acknowledged(sqlite_url: str) -> None:
    with serve(sqlite_url) as c:
        made = create(c)
        tid, tokens = made["id"], [s["token"] for s in made["seats"]]
        db = hub(c).db
        real = db.append_action
        db.append_action = _failing  # type: ignore[method-assign]
        with c.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            seat = state(c, tid)["table"]["current_player"]
            ws.send_json({"type": "hello", "token": tokens[seat]})
            st = ws.receive_json()
            ws.send_json({"type": "action", "action": st["legal"][0]["text"],
                          "index": st["index"]})
            msg = ws.receive_json()
            while msg["type"] != "error":
                msg = ws.receive_json()
            assert msg["code"] == "unavailable"
        assert state(c, tid)["index"] == 0
        db.append_action = real  # type: ignore[method-assign]
        assert move(c, tid, tokens, Rng(1)).status_code == 200


def test_bots_back_off_when_the_store_fails(sqlite_url: str) -> None:
    with serve(sqlite_url) as c:
        made = create(c, game="solo", seats=[{"kind": "bot"}], start=False)
        tid, host = made["id"], made["host_token"]
        attempts: list[float] = []

        def failing(*_args: Any, **_kwargs: Any) -> None:
            attempts.append(time.monotonic())
            raise StorageError("injected: the database is down")
        db = hub(c).db
        real = db.append_action
        db.append_action = failing  # type: ignore[method-assign]
        assert c.post(f"/api/tables/{tid}/start", headers={"X-Seat-Token": host}).status_code \
            == 200
        time.sleep(1.2)
        seen = len(attempts)
        assert 2 <= seen <= 6, attempts  # 0, 0.1, 0.3, 0.7 s: not a tight loop
        gaps = [b - a for a, b in itertools.pairwise(attempts)]
        assert all(later >= earlier * 1.5 for earlier, later in itertools.pairwise(gaps)), gaps
        db.append_action = real  # type: ignore[method-assign]
        until(lambda: state(c, tid)["index"] > 0, 10)  # and they go on once it works


#: a server whose files may grow to at most argv[3] bytes (RLIMIT_FSIZE: a "full disk")
FULL_DISK_SERVER = """
import resource, signal, sys
import uvicorn
from pysaboteur.web.limits import Limits
from pysaboteur.web.server import create_app
app = create_app(sys.argv[1], bot_delay=0, allow_seed=True,
                 limits=Limits(tables_per_minute=0, storage_check_interval=0.2))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
limit = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="critical")
"""


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux",
                    reason="RLIMIT_FSIZE as a full disk: Linux")
def test_a_full_disk_loses_nothing_acknowledged(tmp_path: Path) -> None:
    import socket

    import httpx

    path = tmp_path / "full.sqlite3"
    url = f"sqlite:///{path}"
    Database(url).close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", FULL_DISK_SERVER, url, str(port),
                             str(path.stat().st_size + 160_000)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        until(lambda: _up(c), 30)
        acked: dict[str, int] = {}
        tokens: dict[str, list[str]] = {}
        pick = Rng(11)
        refusals = 0
        for _ in range(400):
            if len(acked) < 3:
                r = c.post("/api/tables", json={"game": "duel", "seats": HUMANS, "start": True})
                if r.status_code == 201:
                    made = r.json()
                    acked[made["id"]] = 0
                    tokens[made["id"]] = [s["token"] for s in made["seats"]]
                    continue
                refused(r, 503, "unavailable")
            tid = list(acked)[pick.below(len(acked))] if acked else None
            if tid is None:
                break
            r = move(c, tid, tokens[tid], pick)  # type: ignore[arg-type]
            if r.status_code == 200:
                acked[tid] = r.json()["index"]
            else:
                refused(r, 503, "unavailable")
                refusals += 1
                if refusals >= 5:
                    break
        assert refusals >= 5, "the disk never filled"
        until(lambda: c.get("/readyz").status_code == 503, 5)
        assert c.get("/healthz").status_code == 200
        for tid, n in acked.items():  # nothing refused was applied
            assert c.get(f"/api/tables/{tid}").json()["index"] == n
    finally:
        proc.kill()
        proc.wait(10)
    with serve(url) as c:  # room again: everything acknowledged is there, nothing more
        for tid, n in acked.items():
            assert state(c, tid)["index"] == n
        assert sum(acked.values()) > 0


def _up(c: Any) -> bool:
    try:
        return bool(c.get("/healthz").status_code == 200)
    except Exception:
        return False
