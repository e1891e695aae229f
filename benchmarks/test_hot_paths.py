"""Hot-path benchmarks for review (pytest-benchmark); not part of the default test run.

    python3 -m pip install -e ".[bench]" && python3 -m pytest benchmarks --benchmark-only

Figures for humans come from ``saboteur bench``; these exist so that a change
that slows a hot path shows up in review as a comparison between runs.
"""

from __future__ import annotations

from typing import Any

import pytest

from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

GAMES = [("duel", 2), ("solo", 1)]


def _mid_round(name: str, players: int, steps: int = 25) -> State:
    state = make_game(name, players).new_state(1)
    pick = Rng(1)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))], check=False)
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_legal_actions(benchmark: Any, name: str, players: int) -> None:
    state = _mid_round(name, players)
    benchmark(state.legal_actions)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_clone(benchmark: Any, name: str, players: int) -> None:
    state = _mid_round(name, players)
    benchmark(state.clone)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_apply(benchmark: Any, name: str, players: int) -> None:
    state = _mid_round(name, players)
    action = state.legal_actions()[0]

    def step() -> None:
        state.clone().apply(action, check=False)

    benchmark(step)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_random_match(benchmark: Any, name: str, players: int) -> None:
    game = make_game(name, players)

    def match() -> None:
        state = game.new_state(3)
        pick = Rng(3)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[pick.below(len(legal))], check=False)

    benchmark(match)
