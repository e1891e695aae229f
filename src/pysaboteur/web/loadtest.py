"""Load figure: many simultaneous tables played by random bots over real WebSockets.

Starts a server (a separate process, on localhost only, with a fresh SQLite file),
creates ``--tables`` tables whose every seat is a client-side random player that
connects by WebSocket, receives its view and legal actions, and answers; then
reports tables, accepted actions per second and the latency from sending an action
to receiving its acknowledgement (which includes the database commit)::

    python -m pysaboteur.web.loadtest --tables 50 --seconds 20

Every loop is bounded in count and time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
        return asyncio.run(_run(tables, seconds, game, players, url))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(15)
        if tmp is not None:
            tmp.cleanup()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m pysaboteur.web.loadtest", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--game", default="duel")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--url", default=None, help="an already running server on this machine")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    if a.url and not a.url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        p.error("the load test only targets this machine (127.0.0.1, localhost, [::1])")
    result = run(a.tables, a.seconds, a.game, a.players, a.url)
    if a.json:
        print(json.dumps(result))
        return
    print(f"{result['tables']} tables ({result['connections']} WebSockets), "
          f"{result['seconds']} s: {result['actions']} actions, "
          f"{result['actions_per_s']} actions/s, latency p50 {result['p50_ms']} ms, "
          f"p99 {result['p99_ms']} ms, {result['errors']} errors")


if __name__ == "__main__":
    main()
