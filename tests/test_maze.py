"""Reachability kept up to date change by change equals reachability worked out from scratch.

The maze pushes reach forward on placements and on lifted passage flags (a bribed troll,
an unlocked door), and takes a rockfall's tile out alone when nothing else was reached
through it; every other change recomputes.  Random matches of every game with a maze check
that after every move the kept reach equals a recompute from the sources (The Lost Mines'
maze keeps no reach: its pawns walk).
"""

from __future__ import annotations

from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.engine import maze as maze_module
from pysaboteur.engine.maze import Maze
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game


def _recomputed(maze: Maze) -> Maze:
    fresh = maze.clone()
    fresh.recompute()
    return fresh


def _same_reach(maze: Maze) -> bool:
    fresh = _recomputed(maze)
    return fresh.reach == maze.reach and fresh.reach_in == maze.reach_in


@pytest.mark.parametrize(("name", "players", "matches"),
                         [("classic", 4, 30), ("expansion", 6, 20), ("duel", None, 40)])
def test_kept_reach_equals_a_recompute(name: str, players: int | None, matches: int,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"lifted alone": 0, "flags lifted": 0}
    lift, change_block = Maze._lift, Maze.change_block

    def counted_lift(self: Maze, *args: Any) -> bool:
        alone = lift(self, *args)
        counts["lifted alone"] += alone
        return alone

    def counted_change_block(self: Maze, *args: Any) -> None:
        counts["flags lifted"] += 1
        change_block(self, *args)

    monkeypatch.setattr(maze_module.Maze, "_lift", counted_lift)
    monkeypatch.setattr(maze_module.Maze, "change_block", counted_change_block)
    game = make_game(name, players)
    with core.use_pure():  # Python's maze is under test (the core plays the decisions else)
        for seed in range(matches):
            state: Any = game.new_state(seed)
            pick = Rng(seed)
            while not state.is_terminal:
                state.apply(state.random_action(pick), check=False)
                assert _same_reach(state.maze), (name, seed, len(state.history))
    assert counts["lifted alone"] > 0  # the shortcut was taken (and checked)
    if name == "duel":
        assert counts["flags lifted"] > 0


def _classic_maze(*placed: tuple[int, int, str]) -> Maze:
    game = make_game("classic", 4)
    cat = game.catalogue
    maze = Maze(cat, 1)
    maze.place(maze_module.cell(0, 0), cat.otile["start", False], source_for=(0,))
    for x, y, code in placed:
        maze.place(maze_module.cell(x, y), cat.otile[code, False])
    return maze


def test_a_dead_end_tile_is_lifted_alone_and_a_bridge_recomputes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cell = maze_module.cell
    maze = _classic_maze((1, 0, "EW"), (2, 0, "EW"))
    assert maze.is_reachable(0, cell(2, 0))
    calls: list[str] = []
    recompute = Maze.recompute

    def counted(self: Maze, contexts: Any = None) -> None:
        calls.append("recompute")
        recompute(self, contexts)

    monkeypatch.setattr(maze_module.Maze, "recompute", counted)
    maze.remove(cell(2, 0))  # the end of the tunnel: nothing was reached through it
    assert calls == []
    assert _same_reach(maze)
    assert maze.reach_in[0].get(cell(2, 0))  # the emptied cell is an open end again
    maze.place(cell(2, 0), maze.cat.otile["EW", False])
    calls.clear()
    maze.remove(cell(1, 0))  # a bridge: the tile behind it is cut off
    assert calls == ["recompute"]
    assert _same_reach(maze)
    assert not maze.is_reachable(0, cell(2, 0))
