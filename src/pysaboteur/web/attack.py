"""Attacks on a local server, bounded in count and time, that print what they measured.

Each starts its own server (a separate process, on localhost only, with a fresh SQLite
file and the limits it needs raised), attacks it and stops it::

    python -m pysaboteur.web.attack d1            # 3,000 state requests, nothing read
    python -m pysaboteur.web.attack d1 --no-rate  # the same, the message rate out of the way
    python -m pysaboteur.web.attack d4            # a lone surrogate in an action, then a ping
    python -m pysaboteur.web.attack d2 --seconds 90  # tables past the limits, then a churn
    python -m pysaboteur.web.attack d5            # a lone surrogate in an HTTP JSON body
    python -m pysaboteur.web.attack d7 --spectators 600  # open 600 spectator sockets

Figures: the server's resident memory (RSS, from /proc) over the attack, the latency of
``GET /api/games`` while it runs, the time to open each spectator socket.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: the server: ``create_app`` with raised limits (the ``Limits`` fields this tree knows)
SERVER = """
import inspect, json, sys
import uvicorn
from pysaboteur.web import tables
from pysaboteur.web.limits import Limits
from pysaboteur.web.server import create_app
raised = {k: v for k, v in json.loads(sys.argv[3]).items() if k in Limits.names()}
limits = Limits(**raised)
tables.Limits = lambda: limits  # the hub's default (a create_app without limits=)
extra = {"limits": limits} if "limits" in inspect.signature(create_app).parameters else {}
app = create_app(sys.argv[1], bot_delay=0.01, allow_seed=True, **extra)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), ws_max_size=65536,
            log_level="warning")
"""

MIB = 1024 * 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss(pid: int) -> int:
    """Resident memory of a process in bytes (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Server:
    """A server process on a free port with a fresh SQLite file."""

    def __init__(self, limits: dict[str, Any] | None = None) -> None:
        self.port = _free_port()
        self.dir = tempfile.TemporaryDirectory()
        url = f"sqlite:///{Path(self.dir.name) / 'attack.sqlite3'}"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, url, str(self.port), json.dumps(limits or {})])
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.get("/api/games")
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.load(r)

    def post(self, path: str, body: bytes | dict[str, Any]) -> tuple[int, Any]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data,
                                     {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    @property
    def rss(self) -> int:
        return rss(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.dir.cleanup()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


class Sampler(threading.Thread):
    """Samples the server's RSS and the latency of GET /api/games until stopped."""

    def __init__(self, server: Server, every: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.server, self.every = server, every
        self.rss: list[int] = []
        self.latency: list[float] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            self.rss.append(self.server.rss)
            t = time.perf_counter()
            try:
                self.server.get("/api/games")
                self.latency.append(time.perf_counter() - t)
            except OSError:
                self.latency.append(float("inf"))
            self.done.wait(self.every)

    def stop(self) -> None:
        self.done.set()
        self.join(15)


def finished_table(server: Server, game: str = "duel", players: int = 2,
                   timeout: float = 120) -> str:
    """A table bots played to its end (its views carry the whole log)."""
    code, made = server.post("/api/tables", {"game": game, "players": players, "start": True,
                                             "seed": 3, "seats": [{"kind": "bot"}] * players})
    assert code == 201, made
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.get(f"/api/tables/{made['id']}")["table"]["status"] == "finished":
            break
        time.sleep(0.1)
    return str(made["id"])


# -- D1 ------------------------------------------------------------------------------------
async def _flood(url: str, requests: int, seconds: float) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    # max_queue=1: the client stops reading from the socket at once (it reads nothing)
    async with connect(url, max_queue=1, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        t0 = time.monotonic()
        sent = 0
        try:
            for _ in range(requests):
                await ws.send('{"type":"state"}')
                sent += 1
        except Exception:  # closed by the server meanwhile
            pass
        # read nothing for a while longer, then read what the server says until it closes
        await asyncio.sleep(min(2.0, seconds))
        kinds: dict[str, int] = {}
        errors: list[str] = []

        async def read() -> None:
            async for text in ws:
                msg = json.loads(text)
                kinds[msg.get("type", "?")] = kinds.get(msg.get("type", "?"), 0) + 1
                if msg.get("type") == "error" and msg.get("code") not in errors:
                    errors.append(msg.get("code"))

        with contextlib.suppress(TimeoutError, Exception):
            await asyncio.wait_for(read(), seconds)
        code = ws.close_code
        return {"sent": sent, "read_then": kinds, "errors": errors, "close_code": code,
                "close_reason": ws.close_reason,
                "closed_after_s": round(time.monotonic() - t0, 2) if code else None}


def d1(args: argparse.Namespace) -> dict[str, Any]:
    limits: dict[str, Any] = {}
    if args.no_rate:
        limits = {"ws_rate": 1e9, "ws_burst": 10**9, "ws_flood": 10**9}
    with Server(limits) as server:
        table = finished_table(server, args.game, args.players)
        view = len(json.dumps(server.get(f"/api/tables/{table}")))
        time.sleep(0.5)
        start = server.rss
        sampler = Sampler(server)
        sampler.start()
        result = asyncio.run(_flood(f"{server.ws}/api/tables/{table}/ws", args.requests,
                                    args.seconds))
        time.sleep(1.0)
        sampler.stop()
        end = server.rss
        lat = [x for x in sampler.latency if x != float("inf")]
        return {
            "attack": "d1: a spectator sends state requests and reads nothing",
            "requests": args.requests, "state_message_bytes": view, **result,
            "rss_start_mib": round(start / MIB, 1),
            "rss_max_mib": round(max(sampler.rss or [start]) / MIB, 1),
            "rss_end_mib": round(end / MIB, 1),
            "rss_growth_mib": round((max(sampler.rss or [start]) - start) / MIB, 1),
            "games_latency_ms": {
                "n": len(sampler.latency), "failed": len(sampler.latency) - len(lat),
                "median": round(1000 * statistics.median(lat), 1) if lat else None,
                "max": round(1000 * max(lat), 1) if lat else None},
        }


# -- D4, D5 ---------------------------------------------------------------------------------
def d4(args: argparse.Namespace) -> dict[str, Any]:
    from websockets.sync.client import connect

    with Server() as server:
        _, made = server.post("/api/tables", {"game": "duel", "start": True, "seats": [
            {"kind": "human"}, {"kind": "human"}]})
        token = made["seats"][0]["token"]
        answers = []
        with connect(f"{server.ws}/api/tables/{made['id']}/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            first = json.loads(ws.recv(10))
            ws.send(json.dumps({"type": "action", "action": "x\ud800", "index": first["index"]}))
            ws.send(json.dumps({"type": "ping"}))
            try:
                for _ in range(2):
                    answers.append(json.loads(ws.recv(5)))
            except TimeoutError:
                answers.append("no answer within 5 s")
        return {"attack": "d4: a lone surrogate in an action, then a ping", "answers": answers}


def d5(args: argparse.Namespace) -> dict[str, Any]:
    with Server() as server:
        out = {}
        for name, body in {
            "seat name": b'{"game": "duel", "seats": [{"kind": "human", "name": "\\ud800"}, '
                         b'{"kind": "bot"}]}',
            "players": b'{"game": "duel", "players": "\\ud800"}',
            "game": b'{"game": "\\udfff"}',
        }.items():
            code, answer = server.post("/api/tables", body)
            out[name] = {"status": code, "answer": answer}
        return {"attack": "d5: a lone surrogate in an HTTP JSON body", "answers": out}


# -- D7 ------------------------------------------------------------------------------------
async def _spectators(url: str, n: int, deadline: float) -> list[float]:
    from websockets.asyncio.client import ClientConnection, connect

    opened: list[ClientConnection] = []
    readers: list[asyncio.Task[None]] = []
    times: list[float] = []

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for _ in ws:
                pass

    try:
        for _ in range(n):
            if time.monotonic() > deadline:
                break
            t = time.perf_counter()
            ws = await connect(url, max_size=None, open_timeout=30)
            await ws.send(json.dumps({"type": "hello"}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert first["type"] == "state", first
            times.append(time.perf_counter() - t)
            opened.append(ws)
            readers.append(asyncio.create_task(drain(ws)))
    finally:
        for ws in opened:
            await ws.close()
        for task in readers:
            task.cancel()
    return times


def d7(args: argparse.Namespace) -> dict[str, Any]:
    n = args.spectators
    limits = {"ws_per_table": n + 10, "ws_per_client": n + 10}
    with Server(limits) as server:
        _, made = server.post("/api/tables", {"game": "duel", "start": True, "seats": [
            {"kind": "human"}, {"kind": "human"}]})
        start = server.rss
        times = asyncio.run(_spectators(f"{server.ws}/api/tables/{made['id']}/ws", n,
                                        time.monotonic() + args.seconds))
        peak = server.rss

    def part(xs: list[float]) -> float:
        return round(sum(xs), 2)

    return {"attack": f"d7: open {n} spectator sockets one after the other",
            "opened": len(times), "total_s": part(times), "first_100_s": part(times[:100]),
            "last_100_s": part(times[-100:]),
            "slowest_ms": round(1000 * max(times), 1) if times else None,
            "rss_start_mib": round(start / MIB, 1), "rss_open_mib": round(peak / MIB, 1)}


# -- D2 ------------------------------------------------------------------------------------
def _status(server: Server, path: str, body: dict[str, Any]) -> int:
    return server.post(path, body)[0]


def _health(server: Server) -> dict[str, Any]:
    try:
        return dict(server.get("/healthz"))
    except OSError:
        return {}


def d2(args: argparse.Namespace) -> dict[str, Any]:
    """Refused past the limits, then a churn of tables: memory over time."""
    human = {"game": "duel", "seats": [{"kind": "human"}, {"kind": "open"}]}
    # 1. one address past --tables-per-minute (the defaults), then past --max-open-tables
    with Server() as server:
        burst = [_status(server, "/api/tables", human) for _ in range(args.burst)]
    with Server({"tables_per_minute": 0, "max_open_tables": args.burst // 2}) as server:
        full = [_status(server, "/api/tables", human) for _ in range(args.burst)]
    # 2. the churn: open lobby tables that are abandoned, bot matches that finish
    limits = {"tables_per_minute": 0, "abandon_after": args.abandon_after,
              "evict_finished_after": args.evict_after, "evict_idle_after": args.evict_after}
    bots = {"game": "solo", "start": True, "seats": [{"kind": "bot"}]}
    created = refused = 0
    samples: list[dict[str, Any]] = []
    with Server(limits) as server:
        time.sleep(0.5)
        start = server.rss
        t0 = time.monotonic()
        next_sample = t0
        made = 0.0
        while (now := time.monotonic()) - t0 < args.seconds:
            if now >= next_sample:
                h = _health(server)
                t = time.perf_counter()
                try:
                    with urllib.request.urlopen(server.base + "/api/tables", timeout=10) as r:
                        lobby = len(r.read())
                except OSError:
                    lobby = -1
                samples.append({"t": round(now - t0), "rss_mib": round(server.rss / MIB, 1),
                                "created": created, "refused": refused,
                                "live": h.get("live_tables"), "loaded": h.get("loaded_tables"),
                                "lobby_bytes": lobby,
                                "lobby_ms": round(1000 * (time.perf_counter() - t), 1)})
                next_sample += args.every
            while made < (now - t0) * args.rate:
                made += 1
                body = bots if made * args.finish_share % 1 < args.finish_share else human
                code = _status(server, "/api/tables", body)
                created += code == 201
                refused += code != 201
            time.sleep(0.005)
        end = server.rss
        h = _health(server)
    return {
        "attack": f"d2: {args.burst} tables from one address; then {args.seconds:g} s of "
                  f"churn at {args.rate:g} tables/s ({args.finish_share:.0%} bot matches "
                  f"that finish, the rest lobby tables abandoned after "
                  f"{args.abandon_after:g} s; evicted after {args.evict_after:g} s idle)",
        "burst_default_limits": {str(k): burst.count(k) for k in sorted(set(burst))},
        f"burst_max_open_{args.burst // 2}": {str(k): full.count(k) for k in sorted(set(full))},
        "churn_created": created, "churn_refused": refused,
        "rss_start_mib": round(start / MIB, 1), "rss_end_mib": round(end / MIB, 1),
        "rss_max_mib": max(x["rss_mib"] for x in samples) if samples else None,
        "end_live_tables": h.get("live_tables"), "end_loaded_tables": h.get("loaded_tables"),
        "samples": samples,
    }


ATTACKS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "d1": d1, "d2": d2, "d4": d4, "d5": d5, "d7": d7}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m pysaboteur.web.attack",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("attack", choices=sorted(ATTACKS))
    ap.add_argument("--requests", type=int, default=3000, help="d1: state requests sent")
    ap.add_argument("--game", default="duel", help="d1: the game the bots play to its end")
    ap.add_argument("--players", type=int, default=2, help="d1: its number of players")
    ap.add_argument("--no-rate", action="store_true",
                    help="d1: raise the message rate limits out of the way")
    ap.add_argument("--spectators", type=int, default=600, help="d7: sockets opened")
    ap.add_argument("--burst", type=int, default=100,
                    help="d2: tables created at once from one address (default limits)")
    ap.add_argument("--rate", type=float, default=17.0,
                    help="d2: tables created a second during the churn (17: 5,000 in 5 min)")
    ap.add_argument("--finish-share", type=float, default=0.2,
                    help="d2: the share of them that are bot matches played to the end")
    ap.add_argument("--abandon-after", type=float, default=10.0,
                    help="d2: the server's --abandon-after (the lobby tables left open)")
    ap.add_argument("--evict-after", type=float, default=5.0,
                    help="d2: the server's --evict-finished-after and --evict-idle-after")
    ap.add_argument("--every", type=float, default=10.0, help="d2: seconds between samples")
    ap.add_argument("--seconds", type=float, default=60.0,
                    help="the longest an attack runs (d1: waits for the close; d7: opens)")
    args = ap.parse_args(argv)
    print(json.dumps(ATTACKS[args.attack](args), indent=2, ensure_ascii=True), flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
