"""Load figure: many simultaneous tables played by random bots over real WebSockets.

Starts a server (a separate process, on localhost only, with a fresh SQLite file),
creates ``--tables`` tables whose every seat is a client-side random player that
connects by WebSocket, receives its view and legal actions, and answers; then
reports tables, accepted actions per second and the latency from sending an action
to receiving its acknowledgement (which includes the database commit)::

    python -m pysaboteur.web.loadtest --tables 50 --seconds 20

Through nginx to several processes sharing PostgreSQL (docs/deploy.md), one run per
count of processes, each reporting the CPU time per action of every server process, of
nginx, of PostgreSQL's backends and of this client (``/proc``, Linux)::

    python -m pysaboteur.web.loadtest --processes 1,2,3 --tables 50 --seconds 20 \
        --database-url postgresql+psycopg://postgres:postgres@localhost/postgres

(a fresh database on that server, dropped afterwards; three processes are started and
nginx is pointed at the first 1, 2, then 3 of them).

Every loop is bounded in count and time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _wait_up(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not come up")


async def _seat(url: str, table: str, token: str, stop: float, rng: random.Random,
                latencies: list[float], counts: dict[str, int]) -> None:
    import websockets

    async with websockets.connect(f"{url}/api/tables/{table}/ws", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        last: dict[str, Any] | None = None  # the newest state (it may overtake our ack)

        async def answer(state: dict[str, Any]) -> float:
            choice = rng.choice(state["legal"])["text"]
            await ws.send(json.dumps({"type": "action", "action": choice,
                                      "index": state["index"]}))
            return time.perf_counter()

        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.05, stop - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            kind = msg["type"]
            if kind in ("ack", "error") and sent_at is not None:
                if kind == "ack":
                    latencies.append(time.perf_counter() - sent_at)
                    counts["actions"] += 1
                else:
                    counts["errors"] += 1
                    if msg.get("code") == "rate":  # not read: wait for --ws-rate's window
                        await asyncio.sleep(0.25)
                sent_at = None
                if last is not None and last["legal"] and (
                        kind == "error" or last["index"] == msg["index"]):
                    sent_at = await answer(last)
            elif kind == "state":
                last = msg
                if msg["table"]["status"] == "finished":
                    counts["finished"] += 1
                    return
                if msg["legal"] and sent_at is None:
                    sent_at = await answer(msg)


async def _run(tables: int, seconds: float, game: str, players: int | None,
               url: str) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        made = []
        for _ in range(tables):
            r = await http.post("/api/tables", json={
                "game": game, "players": players, "start": True, "public": False,
                "seats": [{"kind": "human"}] * (players or (2 if game == "duel" else 1))})
            r.raise_for_status()
            made.append(r.json())
    latencies: list[float] = []
    counts = {"actions": 0, "errors": 0, "finished": 0}
    rng = random.Random(1)
    ws_url = url.replace("http://", "ws://")
    start = time.monotonic()
    stop = start + seconds
    tasks = [_seat(ws_url, t["id"], s["token"], stop, random.Random(rng.random()), latencies,
                   counts)
             for t in made for s in t["seats"] if s["token"]]
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - start
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {"tables": tables, "connections": len(tasks), "seconds": round(elapsed, 2),
            "actions": counts["actions"], "actions_per_s": round(counts["actions"] / elapsed, 1),
            "matches_finished": counts["finished"] // max(1, len(tasks) // max(1, tables)),
            "errors": counts["errors"], "p50_ms": round(pct(0.50), 2),
            "p99_ms": round(pct(0.99), 2),
            "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None}


def run(tables: int = 50, seconds: float = 20.0, game: str = "duel",
        players: int | None = None, url: str | None = None) -> dict[str, Any]:
    """Run the benchmark (starting a local server unless ``url`` is given)."""
    proc = None
    tmp = None
    if url is None:
        tmp = tempfile.TemporaryDirectory()
        port = _free_port()
        db = Path(tmp.name) / "load.sqlite3"
        proc = subprocess.Popen(
            [sys.executable, "-m", "pysaboteur.web", "--port", str(port), "--bot-delay", "0",
             "--database-url", f"sqlite:///{db}",
             # one client address plays every seat: the per-address limits out of the way
             "--tables-per-minute", "0", "--ws-per-client", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        asyncio.run(_wait_up(port))
    try:
        cpu = _cpu(proc.pid) if proc is not None else 0.0
        result = asyncio.run(_run(tables, seconds, game, players, url))
        if proc is not None:  # the one server's CPU time per action
            result["server_cpu_ms_per_action"] = round(
                1000 * (_cpu(proc.pid) - cpu) / max(1, result["actions"]), 3)
        return result
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(15)
        if tmp is not None:
            tmp.cleanup()


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far; 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                out.append(int(entry.name))
    return out


def _backends(database_url: str) -> list[int]:
    """The PostgreSQL backends serving ``database_url``'s database (on this machine)."""
    import psycopg

    from .owners import conninfo

    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(conninfo(database_url), autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s "
                            "AND pid <> pg_backend_pid()", (name,)).fetchall()
    return [int(r[0]) for r in rows]


def scale(cluster: Any, counts: list[int], tables: int = 50, seconds: float = 20.0,
          game: str = "duel", players: int | None = None) -> list[dict[str, Any]]:
    """The load test through ``cluster``'s proxy (a started
    :class:`~pysaboteur.web.cluster.Cluster`) routed to 1, 2, ... of its processes in
    turn: each result adds ``processes`` and ``cpu_ms_per_action`` (each routed server
    process, nginx, the database's backends, this client)."""
    out = []
    for n in counts:
        cluster.route(n)
        servers = [cluster.pid(i) for i in range(n)]
        nginx = [cluster.nginx.pid, *_children(cluster.nginx.pid)]
        backends = _backends(cluster.database_url)
        before = ([_cpu(p) for p in servers], sum(_cpu(p) for p in nginx),
                  {p: _cpu(p) for p in backends}, sum(os.times()[:2]))
        result = asyncio.run(_run(tables, seconds, game, players, cluster.url))
        backends_after = _backends(cluster.database_url)
        pg = sum(_cpu(p) - before[2].get(p, 0.0) for p in backends_after)
        actions = max(1, result["actions"])

        def per(cpu: float, actions: int = actions) -> float:
            return round(1000 * cpu / actions, 3)
        result["processes"] = n
        result["cpu_ms_per_action"] = {
            "servers": [per(_cpu(p) - b) for p, b in zip(servers, before[0], strict=True)],
            "nginx": per(sum(_cpu(p) for p in nginx) - before[1]),
            "postgres": per(pg),
            "client": per(sum(os.times()[:2]) - before[3]),
        }
        out.append(result)
    cluster.route(len(cluster.ports))
    return out


def describe(result: dict[str, Any]) -> str:
    """One result as a line."""
    line = (f"{result['tables']} tables ({result['connections']} WebSockets), "
            f"{result['seconds']} s: {result['actions']} actions, "
            f"{result['actions_per_s']} actions/s, latency p50 {result['p50_ms']} ms, "
            f"p99 {result['p99_ms']} ms, {result['errors']} errors")
    if "server_cpu_ms_per_action" in result:
        line += f"; server CPU {result['server_cpu_ms_per_action']:g} ms/action"
    cpu = result.get("cpu_ms_per_action")
    if cpu is not None:
        servers = ", ".join(f"{x:g}" for x in cpu["servers"])
        line = (f"{result['processes']} process(es): {line}; CPU ms/action: servers "
                f"[{servers}], nginx {cpu['nginx']:g}, postgres {cpu['postgres']:g}, "
                f"client {cpu['client']:g}")
    return line


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m pysaboteur.web.loadtest", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--game", default="duel")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--url", default=None, help="an already running server on this machine")
    p.add_argument("--processes", default=None,
                   help="comma-separated counts of processes behind nginx (e.g. 1,2,3); "
                        "needs --database-url")
    p.add_argument("--database-url", default=None,
                   help="with --processes: a PostgreSQL server (a fresh database is made "
                        "on it and dropped afterwards)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    if a.processes:
        if not a.database_url:
            p.error("--processes needs --database-url postgresql+psycopg://...")
        from .cluster import Cluster, drop_database, fresh_database

        counts = [int(x) for x in a.processes.split(",")]
        db = fresh_database(a.database_url)
        try:
            with Cluster(db, max(counts), serve_args=[
                    "--bot-delay", "0", "--tables-per-minute", "0", "--ws-per-client", "0",
                    "--max-open-tables", "0"]) as cluster:
                results = scale(cluster, counts, a.tables, a.seconds, a.game, a.players)
        finally:
            drop_database(db)
        for r in results:
            print(json.dumps(r) if a.json else describe(r), flush=True)
        return
    if a.url and not a.url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        p.error("the load test only targets this machine (127.0.0.1, localhost, [::1])")
    result = run(a.tables, a.seconds, a.game, a.players, a.url)
    if a.json:
        print(json.dumps(result))
        return
    print(describe(result))


if __name__ == "__main__":
    main()
