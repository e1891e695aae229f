"""Kill the server (SIGKILL) mid-game, restart it on the same SQLite file: every table resumes
exactly where its stored record says, and no acknowledged action is lost."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from pysaboteur.engine.rng import Rng  # noqa: E402
from pysaboteur.records import Record, replay  # noqa: E402
from pysaboteur.web.db import Database  # noqa: E402
from pysaboteur.web.tables import view_json  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> httpx.Client:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pysaboteur.cli.main", "serve", "--port", str(self.port),
             "--bot-delay", "0.01", "--database-url", f"sqlite:///{self.db}", "--no-open",
             "--allow-seed"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=10)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                client.get("/api/games")
                return client
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "restart.sqlite3")
    yield s
    s.stop()


def _record(db: Path, table: str) -> Record:
    t = Database(f"sqlite:///{db}").load(table)
    assert t is not None
    return Record(game=t.game, players=t.players, seed=t.seed, options=t.options,
                  actions=[a for _, a in t.actions])


def _state(c: httpx.Client, table: str, token: str | None = None) -> Any:
    r = c.get(f"/api/tables/{table}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def test_kill_mid_game_and_resume(server: Server) -> None:
    c = server.start()
    human = c.post("/api/tables", json={"game": "duel", "start": True, "seed": 4, "seats": [
        {"kind": "human"}, {"kind": "bot", "difficulty": "easy"}]}).json()
    tid, tok = human["id"], human["seats"][0]["token"]
    bots = [c.post("/api/tables", json={"game": "duel", "start": True, "seats": [
        {"kind": "bot"}, {"kind": "bot"}]}).json()["id"] for _ in range(3)]
    pick = Rng(5)
    acked = 0
    for _ in range(12):  # the human plays some moves; the bot answers each
        st = _state(c, tid, tok)
        while not st["legal"]:
            time.sleep(0.02)
            st = _state(c, tid, tok)
        choice = st["legal"][pick.below(len(st["legal"]))]["text"]
        r = c.post(f"/api/tables/{tid}/actions", headers={"X-Seat-Token": tok},
                   json={"action": choice, "index": st["index"]})
        assert r.status_code == 200
        acked = r.json()["index"]
    seen = {b: _state(c, b)["index"] for b in bots}  # bot tables are running meanwhile
    server.kill()  # at whatever moment the bot tables are in
    c.close()

    # everything acknowledged is in the store
    for b in bots:
        assert len(_record(server.db, b).actions) >= seen[b]
    assert len(_record(server.db, tid).actions) >= acked

    c = server.start()
    # a restart reads which tables are live and loads none of them before its first use
    health = c.get("/healthz").json()
    assert health["loaded_tables"] == 0
    assert health["live_tables"] == sum(
        Database(f"sqlite:///{server.db}").load(t).status != "finished"  # type: ignore[union-attr]
        for t in [tid, *bots])
    for table in [tid, *bots]:
        now = _state(c, table)
        record = _record(server.db, table)  # stored before applied: never behind the state
        assert now["index"] <= len(record.actions)
        assert now["view"] == view_json(replay(record, upto=now["index"]).view(None))
    # the human's seat resumes with its token and plays on to the end
    while True:
        st = _state(c, tid, tok)
        if st["table"]["status"] == "finished":
            break
        if not st["legal"]:
            time.sleep(0.02)
            continue
        choice = st["legal"][pick.below(len(st["legal"]))]["text"]
        r = c.post(f"/api/tables/{tid}/actions", headers={"X-Seat-Token": tok},
                   json={"action": choice, "index": st["index"]})
        assert r.status_code in (200, 409), r.text
    final = replay(_record(server.db, tid))
    assert final.is_terminal
    assert _state(c, tid, tok)["view"] == view_json(final.view(0))
    # the bot tables resumed by themselves and finish
    deadline = time.time() + 60
    while time.time() < deadline and any(_state(c, b)["table"]["status"] != "finished"
                                         for b in bots):
        time.sleep(0.1)
    for b in bots:
        assert _state(c, b)["table"]["status"] == "finished"
        assert replay(_record(server.db, b)).is_terminal
    c.close()
