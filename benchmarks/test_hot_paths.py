"""Hot-path benchmarks for review (pytest-benchmark); not part of the default test run.

    python3 -m pip install -e ".[bench]" && python3 -m pytest benchmarks --benchmark-only

Figures for humans come from ``saboteur bench``; these exist so that a change
that slows a hot path shows up in review as a comparison between runs.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pysaboteur.bots.ismcts import IsmctsBot
from pysaboteur.bots.worlds import determinizer
from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

GAMES = [("duel", 2), ("solo", 1), ("classic", 4), ("expansion", 7), ("lost-mines", 5)]


def _mid_round(name: str, players: int, steps: int = 25) -> State:
    state = make_game(name, players).new_state(1)
    pick = Rng(1)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))], check=False)
    return state


def _fresh_mid_round(name: str, players: int) -> tuple[tuple[State, Any], dict[str, Any]]:
    """``_mid_round``'s position and the move played next, made afresh (pedantic's setup):
    listing the same state again finds what the first listing kept, and applying a move to
    a clone pays for copying the maze it shares; play does neither."""
    state = _mid_round(name, players)
    legal = state.legal_actions()
    nxt = legal[Rng(2).below(len(legal))]
    return (_mid_round(name, players), nxt), {}


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_legal_actions(benchmark: Any, name: str, players: int) -> None:
    """The legal-move list of a position listed for the first time."""
    benchmark.pedantic(lambda state, _: state.legal_actions(), rounds=300,
                       setup=lambda: _fresh_mid_round(name, players))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_clone(benchmark: Any, name: str, players: int) -> None:
    state = _mid_round(name, players)
    benchmark(state.clone)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_apply(benchmark: Any, name: str, players: int) -> None:
    """A random legal move applied to a position of play (not to a clone)."""
    benchmark.pedantic(lambda state, action: state.apply(action, check=False), rounds=300,
                       setup=lambda: _fresh_mid_round(name, players))


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


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_rollout_match(benchmark: Any, name: str, players: int) -> None:
    """The rollout path over a whole match (``State.play_out``: count, pick, apply; no
    lists), the same games as ``random_action`` a move at a time."""
    game = make_game(name, players)

    def match() -> None:
        game.new_state(3).play_out(Rng(3), until_round_end=False)

    benchmark(match)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_play_out_to_round_end(benchmark: Any, name: str, players: int) -> None:
    state = _mid_round(name, players)

    def play_out() -> None:
        state.clone().play_out(Rng(5))

    benchmark(play_out)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_determinize(benchmark: Any, name: str, players: int) -> None:
    state = _mid_round(name, players)
    worlds = determinizer(state.view(state.current_player))
    benchmark(worlds.sample, Rng(5))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_ismcts_iterations(benchmark: Any, name: str, players: int) -> None:
    """50 ISMCTS iterations, each a sample and a play-out to the round's end (the bench's
    ``ismcts_iterations_per_s``; per iteration: the time over 50)."""
    state = _mid_round(name, players)
    view, legal = state.view(state.current_player), state.legal_actions()
    bot = IsmctsBot(0, iterations=50, leaf_values=False)
    benchmark(bot.choose, view, legal)


def _late(name: str, players: int) -> State:
    """A position late in a match (the log is long)."""
    state = make_game(name, players).new_state(2)
    pick = Rng(2)
    while len(state.history) < 100 and not state.is_terminal:
        state.apply(state.random_action(pick), check=False)
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_view_kept(benchmark: Any, name: str, players: int) -> None:
    """A view where the state's memo has the log so far (a view every decision)."""
    state = _late(name, players)
    state.view(0)
    benchmark(state.view, 0)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_view_from_nothing(benchmark: Any, name: str, players: int) -> None:
    """A view of a state that never built one (the whole log worked out)."""
    state = _late(name, players)

    def view() -> None:
        copy.copy(state).view(0)

    benchmark(view)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_view_plain(benchmark: Any, name: str, players: int) -> None:
    """A late view as JSON-ready data (what the web tables send every seat every move)."""
    benchmark(_late(name, players).view(0).plain)
