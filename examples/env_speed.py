"""Environment steps per second and observation bytes per step, per game and form.

    python3 examples/env_speed.py [--seconds 2] [--games duel,classic] [--json]

For each game (default player count) and each form - flat (the default), planes, and
planes + factored actions + history - random play through:

* PettingZoo AEC: every seat's decision is a step (the agent picks among
  ``info["legal_actions"]`` / ``info["legal_factored"]``, the actions the mask marks);
* Gymnasium ``SaboteurEnv``: the learner's steps (seat 0; the others are the random bot,
  their moves are inside the step);
* ``vector.make(..., num_envs=8)``: the learner's steps over all 8 matches.

CPU time of this process (``time.process_time``); bytes = the ``nbytes`` of every array of
one observation dict (masks included).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from pysaboteur.envs import vector
from pysaboteur.envs.gymnasium import SaboteurEnv
from pysaboteur.envs.pettingzoo import env
from pysaboteur.registry import GAMES

FORMS: dict[str, dict[str, Any]] = {
    "flat": {},
    "planes": {"observation": "planes"},
    "planes+factored+history": {"observation": "planes", "actions": "factored",
                                "history": True},
}


def pick(info: dict[str, Any], rng: np.random.Generator) -> Any:
    rows = info.get("legal_factored")
    if rows is not None:
        return rows[rng.integers(len(rows))]
    return info["legal_actions"][rng.integers(len(info["legal_actions"]))]


def nbytes(obs: dict[str, np.ndarray]) -> int:
    return sum(v.nbytes for v in obs.values())


def pettingzoo(game: str, form: dict[str, Any], seconds: float) -> tuple[float, int]:
    e = env(game=game, **form)
    rng = np.random.default_rng(0)
    steps, seed, size = 0, 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        e.reset(seed=seed)
        seed += 1
        for _ in e.agent_iter():
            obs, _, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            size = nbytes(obs)
            e.step(pick(info, rng))
            steps += 1
    return steps / (time.process_time() - start), size


def gymnasium(game: str, form: dict[str, Any], seconds: float) -> float:
    e = SaboteurEnv(game=game, opponents="random", **form)
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, info = e.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            _, _, done, _, info = e.step(pick(info, rng))
            steps += 1
    return steps / (time.process_time() - start)


def batched(game: str, form: dict[str, Any], seconds: float, num_envs: int = 8) -> float:
    envs = vector.make(game, num_envs=num_envs, opponents="random", **form)
    rng = np.random.default_rng(0)
    _, info = envs.reset(seed=0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        if "legal_factored" in info:
            acts = np.stack([r[rng.integers(len(r))] if len(r) else np.zeros(9, np.int64)
                             for r in info["legal_factored"]])
        else:
            acts = np.array([a[rng.integers(len(a))] if len(a) else 0
                             for a in info["legal_actions"]])
        _, _, _, _, info = envs.step(acts)
        steps += num_envs
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default="duel,solo,classic,expansion,lost-mines")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game in args.games.split(","):
        for name, form in FORMS.items():
            pz, size = pettingzoo(game, form, args.seconds)
            row = {"game": game, "players": GAMES[game].default_players, "form": name,
                   "pettingzoo_steps_per_s": round(pz),
                   "gymnasium_steps_per_s": round(gymnasium(game, form, args.seconds)),
                   "batched8_steps_per_s": round(batched(game, form, args.seconds)),
                   "bytes_per_step": size}
            rows.append(row)
            if not args.json:
                print(" | ".join(str(v) for v in row.values()), flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
