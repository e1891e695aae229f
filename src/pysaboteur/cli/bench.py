"""Benchmarks behind ``saboteur bench`` (measure here, never in timed tests)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from ..engine.game import Game
from ..engine.rng import Rng


def _one_run(game: Game, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Play random games until ``seconds`` pass; return decisions, rounds, legal moves, time."""
    decisions = rounds = legal_total = 0
    pick = Rng(seed)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            legal_total += len(legal)
            state.apply(legal[pick.below(len(legal))], check=False)
            decisions += 1
        rounds += len(state.results)
        if time.perf_counter() >= deadline:
            return decisions, rounds, legal_total, time.perf_counter() - start


def random_play(game: Game, seconds: float, runs: int, seed: int = 0) -> dict[str, Any]:
    rates, round_rates, per_decision = [], [], []
    for r in range(runs):
        decisions, rounds, legal, elapsed = _one_run(game, seconds, seed + 1_000_003 * r)
        rates.append(decisions / elapsed)
        round_rates.append(rounds / elapsed)
        per_decision.append(legal / decisions)
    return {
        "game": getattr(game, "mode", game.name),
        "players": game.players,
        "runs": runs,
        "seconds": seconds,
        "decisions_per_s": statistics.median(rates),
        "rounds_per_s": statistics.median(round_rates),
        "legal_per_decision": statistics.median(per_decision),
        "all_decisions_per_s": rates,
    }


def env_play(game: str, players: int | None, seconds: float, runs: int,
             seed: int = 0) -> dict[str, Any]:
    """Random play through the PettingZoo AEC environment: observation and mask every step.

    Needs the ``envs`` extra (numpy, gymnasium, pettingzoo).
    """
    import numpy as np

    from ..envs.pettingzoo import env as make_env

    rates = []
    for r in range(runs):
        aec = make_env(game=game, players=players)
        rng = np.random.default_rng(seed + r)
        steps, match = 0, seed + 1_000_003 * r
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            aec.reset(seed=match)
            match += 1
            for _ in aec.agent_iter():
                obs, _, terminated, truncated, _ = aec.last()
                if terminated or truncated:
                    aec.step(None)
                    continue
                aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        rates.append(steps / (time.perf_counter() - start))
    return {"interface": "pettingzoo-aec", "env_steps_per_s": statistics.median(rates),
            "all_env_steps_per_s": rates}
