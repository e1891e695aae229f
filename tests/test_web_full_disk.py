"""A really full disk (issue 22, D6): the database on a small tmpfs, the rest of it taken by
a ballast file, a real server process playing until its writes fail.  Every refused write is
a 503 ``unavailable`` that changed nothing, ``/readyz`` fails, new tables are refused; once
the ballast is gone and the server restarted, every acknowledged move is stored and nothing
more.  On SQLite (the file on the tmpfs) and on PostgreSQL (a database created in a
tablespace on the tmpfs; when PYSABOTEUR_TEST_POSTGRES is set).  Mounting a tmpfs needs root
(or CAP_SYS_ADMIN): the tests skip without it."""

from __future__ import annotations

import errno
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

import httpx

from pysaboteur.engine.rng import Rng
from pysaboteur.web.db import Database
from test_web_storage import HUMANS, POSTGRES, _pg_admin, _pg_sql, _up, refused, until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="tmpfs mounts: Linux")

#: a real server process on argv[1], port argv[2], that probes its storage every 0.2 s
SERVER = """
import sys
import uvicorn
from pysaboteur.web.limits import Limits
from pysaboteur.web.server import create_app
app = create_app(sys.argv[1], bot_delay=0, allow_seed=True,
                 limits=Limits(tables_per_minute=0, storage_check_interval=0.2))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="error")
"""

MiB = 1 << 20


def _mount(size: int) -> Path:
    """A fresh tmpfs of ``size`` bytes (skips the test when mounting is not permitted)."""
    folder = Path(tempfile.mkdtemp(prefix="pysaboteur-full-"))
    why = "mount failed"
    if shutil.which("mount") is None:
        why = "no mount command"
    else:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755",
                               "tmpfs", str(folder)], capture_output=True, text=True)
        if done.returncode == 0:
            return folder
        why = (done.stderr.strip().splitlines() or [why])[0]
    folder.rmdir()
    pytest.skip(f"cannot mount a small tmpfs as a full disk (root or CAP_SYS_ADMIN): {why}")


def _umount(folder: Path) -> None:
    if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
    folder.rmdir()


@pytest.fixture()
def small_tmpfs() -> Iterator[Path]:
    folder = _mount(4 * MiB)
    try:
        yield folder
    finally:
        _umount(folder)


def _fill(folder: Path, leave: int) -> Path:
    """Take all the room of the tmpfs at ``folder`` but ``leave`` bytes with a ballast file."""
    ballast = folder / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    chunk = b"\xa5" * 65536
    try:
        while True:
            os.write(fd, chunk)
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
    finally:
        os.close(fd)
    size = ballast.stat().st_size
    os.truncate(ballast, max(0, size - leave))
    return ballast


class Server:
    """``python -c SERVER`` on a free port; its stderr kept (no traceback may show there)."""

    def __init__(self, url: str, log: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.log = log
        with open(log, "ab") as err:
            self.proc = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)],
                                         stdout=subprocess.DEVNULL, stderr=err)
        self.c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        until(lambda: self.proc.poll() is not None or _up(self.c), 30)
        assert self.proc.poll() is None, log.read_text()

    def stop(self) -> None:
        self.c.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def _get(c: Any, table: str, token: str | None = None) -> Any:
    r = c.get(f"/api/tables/{table}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def _move(c: Any, table: str, tokens: list[str], pick: Rng) -> tuple[Any, int, int, str]:
    """One legal move of the seat whose turn it is: (the answer, its index, seat, text)."""
    st = _get(c, table, tokens[0])
    seat = st["table"]["current_player"]
    if seat != 0:
        st = _get(c, table, tokens[seat])
    text = st["legal"][pick.below(len(st["legal"]))]["text"]
    r = c.post(f"/api/tables/{table}/actions", headers={"X-Seat-Token": tokens[seat]},
               json={"action": text, "index": st["index"]})
    return r, st["index"], seat, text


def _scenario(url: str, folder: Path, logs: Path,
              before_fill: Callable[[], None] = lambda: None) -> None:
    """Play on ``url`` (stored on the tmpfs at ``folder``) until the disk is full, then check
    that nothing refused changed anything and, after a restart with room again, that every
    acknowledged move is stored and nothing more."""
    acked: dict[str, list[tuple[int, str]]] = {}  # table: its acknowledged (seat, text)
    tokens: dict[str, list[str]] = {}
    pick = Rng(22)
    log = logs / "server.log"
    server = Server(url, log)
    try:
        c = server.c
        for _ in range(3):  # room yet: three tables and a few moves each
            r = c.post("/api/tables", json={"game": "duel", "seats": HUMANS, "start": True})
            assert r.status_code == 201, r.text
            made = r.json()
            acked[made["id"]] = []
            tokens[made["id"]] = [s["token"] for s in made["seats"]]
        for tid in acked:
            for _ in range(2):
                r, idx, seat, text = _move(c, tid, tokens[tid], pick)
                assert r.status_code == 200 and r.json()["index"] == idx + 1, r.text
                acked[tid].append((seat, text))
        assert c.get("/readyz").status_code == 200
        before_fill()
        ballast = _fill(folder, 16 * 1024)
        refusals = 0
        playing = list(acked)
        for _ in range(3000):
            if not playing:
                break
            tid = playing[pick.below(len(playing))]
            r, idx, seat, text = _move(c, tid, tokens[tid], pick)
            if r.status_code == 200:
                assert r.json()["index"] == idx + 1, r.text
                acked[tid].append((seat, text))
                if _get(c, tid)["table"]["status"] != "playing":
                    playing.remove(tid)
                continue
            refused(r, 503, "unavailable")
            assert r.headers["Retry-After"]
            assert _get(c, tid)["index"] == idx  # nothing applied
            refusals += 1
            if refusals >= 5:
                break
        assert refusals >= 5, f"the disk never filled ({sum(map(len, acked.values()))} moves)"
        for _ in range(200):  # a table's row may still fit in a page with room: until not
            r = c.post("/api/tables", json={"game": "duel", "seats": HUMANS, "start": True})
            if r.status_code != 201:
                break
            made = r.json()  # stored: it must be there after the restart, with no move
            acked[made["id"]] = []
            tokens[made["id"]] = [s["token"] for s in made["seats"]]
        refused(r, 503, "unavailable")
        for tid in playing[:1]:  # a refusal again, and nothing applied
            r, idx, *_ = _move(c, tid, tokens[tid], pick)
            refused(r, 503, "unavailable")
        until(lambda: c.get("/readyz").status_code == 503, 5)
        r = c.get("/readyz")
        assert r.json()["status"] == "unavailable" and r.json()["storage"] != "ok", r.text
        time.sleep(0.5)  # a few storage checks later: still unready (the disk is still full)
        assert c.get("/readyz").status_code == 503
        assert c.get("/healthz").status_code == 200
        for tid, moves in acked.items():
            assert _get(c, tid)["index"] == len(moves)
    finally:
        server.stop()
    # not once ready again while full (a probe that fits where real writes do not would be)
    assert "storage works again" not in log.read_text(), log.read_text()
    ballast.unlink()  # room again
    server = Server(url, log)
    try:
        c = server.c
        until(lambda: c.get("/readyz").status_code == 200, 5)
        for tid, moves in acked.items():
            assert _get(c, tid, tokens[tid][0])["index"] == len(moves)
        tid = next(iter(acked))
        if _get(c, tid)["table"]["status"] == "playing":
            r, idx, seat, text = _move(c, tid, tokens[tid], pick)
            assert r.status_code == 200, r.text
            acked[tid].append((seat, text))
    finally:
        server.stop()
    stored = Database(url)
    try:
        for tid, moves in acked.items():
            t = stored.load(tid)
            assert t is not None
            assert t.actions == moves, tid  # every acknowledged move, in order, nothing more
    finally:
        stored.close()
    assert "Traceback" not in log.read_text(), log.read_text()


def test_sqlite_on_a_full_tmpfs(small_tmpfs: Path, tmp_path: Path) -> None:
    _scenario(f"sqlite:///{small_tmpfs / 'full.sqlite3'}", small_tmpfs, tmp_path)


@pytest.fixture()
def postgres_on_tmpfs() -> Iterator[tuple[str, Path]]:
    """A PostgreSQL database created in a tablespace on a small tmpfs: (its URL, the tmpfs)."""
    if not POSTGRES:
        pytest.skip("set PYSABOTEUR_TEST_POSTGRES to test against PostgreSQL")
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(_pg_admin(), autocommit=True) as admin:
        template = admin.execute("SELECT pg_database_size('template1')").fetchone()
        local = admin.execute("SELECT inet_server_addr() IS NULL OR "
                              "host(inet_server_addr()) IN ('127.0.0.1', '::1')").fetchone()
    assert template is not None and local is not None
    if not local[0]:
        pytest.skip("the PostgreSQL server is not on this machine (its tablespace must be)")
    try:
        import pwd

        owner = pwd.getpwnam("postgres")
    except (ImportError, KeyError):
        pytest.skip("no postgres user on this machine to own the tablespace")
    folder = _mount(int(template[0]) + 4 * MiB)
    name = uuid.uuid4().hex[:10]
    space, db = f"pysaboteur_small_{name}", f"pysaboteur_full_{name}"
    created: list[str] = []
    try:
        location = folder / "tablespace"
        location.mkdir(mode=0o700)
        os.chown(location, owner.pw_uid, owner.pw_gid)
        with psycopg.connect(_pg_admin(), autocommit=True) as admin:
            admin.execute(f"CREATE TABLESPACE \"{space}\" LOCATION '{location}'")
            created.append(space)
            admin.execute(f'CREATE DATABASE "{db}" TABLESPACE "{space}"')
            created.append(db)
        yield POSTGRES.rsplit("/", 1)[0] + "/" + db, folder
    finally:
        with psycopg.connect(_pg_admin(), autocommit=True) as admin:
            if db in created:
                admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
            if space in created:
                admin.execute(f'DROP TABLESPACE IF EXISTS "{space}"')
        _umount(folder)


def test_postgresql_on_a_full_tmpfs(postgres_on_tmpfs: tuple[str, Path],
                                    tmp_path: Path) -> None:
    url, folder = postgres_on_tmpfs
    # every page written once before the disk fills (CREATE DATABASE's copy may not have
    # been): only new pages then need room, and the cluster's checkpoints keep working
    _scenario(url, folder, tmp_path, before_fill=lambda: _pg_sql("CHECKPOINT"))
