"""The performance targets of Saboteur and Saboteur 2 (issue 3), measured on one core.

    python3 benchmarks/saboteur_targets.py [--seconds 3] [--runs 3]

Prints, as JSON lines, the median of ``runs`` runs of:

* random play building the full legal list every decision (Saboteur 4p, Saboteur 2 7p);
* the rollout path (``random_action``: count, pick, decode; no lists) for the same games;
* clones of a mid-round Saboteur 2 (7 players) state per second.

Times are CPU time of this process (``time.process_time``), which a busy shared machine
disturbs less than wall time; still, compare figures measured in the same minute.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game


def listed(state: State, pick: Rng) -> None:
    legal = state.legal_actions()
    state.apply(legal[pick.below(len(legal))], check=False)


def rollout(state: State, pick: Rng) -> None:
    state.apply(state.random_action(pick), check=False)


def decisions_per_s(name: str, players: int, step: Callable[[State, Rng], None],
                    seconds: float) -> float:
    game = make_game(name, players)
    pick = Rng(7)
    seed = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal:
            step(state, pick)
            decisions += 1
    return decisions / (time.process_time() - start)


def mid_round(name: str, players: int, steps: int = 40, seed: int = 3) -> State:
    state = make_game(name, players).new_state(seed)
    pick = Rng(seed)
    for _ in range(steps):
        listed(state, pick)
    return state


def clones_per_s(name: str, players: int, seconds: float) -> float:
    state = mid_round(name, players)
    n = 0
    start = time.process_time()
    deadline = start + seconds
    clone = state.clone
    while time.process_time() < deadline:
        for _ in range(1000):
            clone()
        n += 1000
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    measures: list[tuple[str, Callable[[], float], float]] = [
        ("classic 4p, full legal list", lambda: decisions_per_s(
            "classic", 4, listed, args.seconds), 100_000),
        ("classic 4p, rollout path", lambda: decisions_per_s(
            "classic", 4, rollout, args.seconds), 250_000),
        ("expansion 7p, full legal list", lambda: decisions_per_s(
            "expansion", 7, listed, args.seconds), 70_000),
        ("expansion 7p, rollout path", lambda: decisions_per_s(
            "expansion", 7, rollout, args.seconds), 0),
        ("expansion 7p, clones of a mid-round state", lambda: clones_per_s(
            "expansion", 7, args.seconds), 300_000),
    ]
    for label, measure, target in measures:
        rates = [measure() for _ in range(args.runs)]
        print(json.dumps({"measure": label, "per_s": round(statistics.median(rates)),
                          "runs": [round(r) for r in rates], "target": target or None}))


if __name__ == "__main__":
    main()
