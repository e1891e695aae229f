"""Clones share their maze until one of them changes it (every game):
whichever plays on, the other must not see it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

GAMES = [("duel", None), ("solo", None), ("classic", 4), ("expansion", 7), ("lost-mines", 5)]


def snapshot(state: State) -> Any:
    maze = state.maze  # type: ignore[attr-defined]
    return (copy.deepcopy({k: v for k, v in state.__dict__.items()
                           if k not in ("game", "maze", "rng", "deal")}),
            state.rng.state,
            {k: copy.deepcopy(getattr(maze, k)) for k in maze.__slots__ if k != "cat"})


def play(state: State, rng: Rng, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal:
            return
        state.apply(state.random_action(rng), check=False)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_playing_on_the_original_leaves_a_clone_alone(name: str, players: int | None) -> None:
    for seed in range(12):
        state = make_game(name, players).new_state(seed)
        play(state, Rng(seed), 15 + 7 * seed)
        twin = state.clone()
        before = snapshot(twin)
        play(state, Rng(seed + 100), 10**4)  # the original plays to the end
        assert snapshot(twin) == before
        mark = snapshot(state)
        play(twin, Rng(seed + 200), 10**4)  # then the clone, leaving the original alone
        assert snapshot(state) == mark


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_dealing_hidden_cards_anew_leaves_the_original_alone(name: str,
                                                             players: int | None) -> None:
    """``shuffle_hidden`` and a determinizer's samples start from clones of a state (the
    position, or the determinizer's template): what they deal must not reach it."""
    from pysaboteur.bots.worlds import determinizer

    for seed in range(6):
        state = make_game(name, players).new_state(seed)
        play(state, Rng(seed), 10 + 9 * seed)
        if state.is_terminal:
            continue
        before = snapshot(state)
        for k, seat in enumerate([*range(state.game.players), None]):
            state.shuffle_hidden(seat, Rng(k))  # type: ignore[attr-defined]
        assert snapshot(state) == before
        world = determinizer(state.view(state.current_player))
        template = snapshot(world.template)  # type: ignore[attr-defined]
        for k in range(4):
            play(world.sample(Rng(k)), Rng(k), 30)  # a sample, played on like a search does
        assert snapshot(world.template) == template  # type: ignore[attr-defined]
