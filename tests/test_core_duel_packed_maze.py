"""The mazes the compiled core writes for the Duel and its solo mode are packed
(``core.duel.PackedMaze``, as Saboteur's ``core.classic.PackedMaze``) and made into a plain
``Maze`` the first time anything touches them: whatever reads, sets, copies or pickles one
gets exactly the maze the pure engine makes, and a maze nobody reads is never unpacked
(issue 24); every way of touching one: ``tests/test_core_packed_maze.py``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.engine.maze import Maze
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
pytestmark = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

from pysaboteur.core.duel import PackedMaze  # noqa: E402
from test_core_packed_maze import played  # noqa: E402  (the same play, of the Duel)


def packed(state: Any) -> bool:
    """Is the state's maze still packed?  (Read past every attribute hook.)"""
    return type(vars(state)["maze"]) is PackedMaze


def tables(maze: Maze) -> dict[str, Any]:
    return {k: getattr(maze, k) for k in Maze.__slots__ if k != "cat"}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["duel", "solo"]), st.integers(0, 10_000), st.integers(0, 80),
       st.booleans())
def test_a_packed_maze_is_the_pure_maze_when_read(game: str, seed: int, decisions: int,
                                                  whole: bool) -> None:
    fast = played(game, None, seed, decisions, pure=False, whole=whole)
    slow = played(game, None, seed, decisions, pure=True, whole=whole)
    assert tables(fast.maze) == tables(slow.maze)
    assert type(vars(fast)["maze"]) is Maze  # unpacked for good by the reading
    assert fast.legal_actions() == slow.legal_actions()


@pytest.mark.parametrize("game", ["duel", "solo"])
def test_a_new_match_and_a_play_out_leave_the_maze_packed_until_read(game: str) -> None:
    state = make_game(game).new_state(3)
    assert packed(state)  # the first round's, set up on the core
    state.play_out(Rng(3), until_round_end=True)
    assert packed(state)  # the core read it packed and wrote it packed
    version = state.maze.version
    assert not packed(state) and version > 0
    with core.use_pure(True):
        slow = make_game(game).new_state(3)
        slow.play_out(Rng(3), until_round_end=True)
    assert tables(state.maze) == tables(slow.maze)


def test_a_damaged_packing_is_refused() -> None:
    from pysaboteur.core import _ext

    state = make_game("duel").new_state(1)
    core_tables, packing, _ = Maze.__dict__["blocks"].__get__(vars(state)["maze"], Maze)
    assert _ext.duel_unpack_maze(core_tables, packing)[-1] > 0
    for bad in (packing[:-4], packing + b"\0\0\0\0", packing[:5], b"", b"\xff" * 8,
                packing[:8] + b"\x09\0\0\0" + packing[12:]):
        with pytest.raises(ValueError, match="packed maze"):
            _ext.duel_unpack_maze(core_tables, bad)
