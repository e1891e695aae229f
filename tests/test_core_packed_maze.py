"""The mazes the compiled core writes for Saboteur and Saboteur 2 (and the Duel: every way
of touching one below) are packed (``core.classic.PackedMaze``, ``core.duel.PackedMaze``:
``core.packed``'s) and made into a plain ``Maze`` the first time anything
touches them: whatever reads, sets, copies or pickles one gets exactly the maze the pure
engine makes, and a maze nobody reads is never unpacked (issue 24)."""

from __future__ import annotations

import copy
import pickle
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

from pysaboteur.core.packed import PackedMaze  # noqa: E402  (every family's: the Duel's too)


def packed(state: Any) -> bool:
    """Is the state's maze still packed?  (Read past every attribute hook.)"""
    return isinstance(vars(state)["maze"], PackedMaze)


def tables(maze: Maze) -> dict[str, Any]:
    return {k: getattr(maze, k) for k in Maze.__slots__ if k != "cat"}


def played(game: str, players: int | None, seed: int, decisions: int, pure: bool,
           whole: bool = False) -> Any:
    """A match played ``decisions`` decisions by the rollout path, then a play-out to the
    round's end (or the match's: ``whole``; the core's play-out leaves its maze packed)."""
    with core.use_pure(pure):
        state = make_game(game, players).new_state(seed)
        rng = Rng(seed)
        for _ in range(decisions):
            if state.is_terminal:
                break
            state.apply(state.random_action(rng), check=False)
        if not state.is_terminal:
            state.play_out(rng, until_round_end=not whole)
        return state


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([("classic", 4), ("classic", 10), ("expansion", 7), ("expansion", 2)]),
       st.integers(0, 10_000), st.integers(0, 60))
def test_a_packed_maze_is_the_pure_maze_when_read(case: tuple[str, int], seed: int,
                                                  decisions: int) -> None:
    fast = played(*case, seed, decisions, pure=False)
    slow = played(*case, seed, decisions, pure=True)
    was_packed = packed(fast)
    assert tables(fast.maze) == tables(slow.maze)
    assert type(vars(fast)["maze"]) is Maze  # unpacked for good by the reading
    if was_packed:  # the dictionaries in the pure engine's order too
        assert [list(d) for d in tables(fast.maze).values() if isinstance(d, dict)] == \
               [list(d) for d in tables(slow.maze).values() if isinstance(d, dict)]


def test_a_new_match_and_a_play_out_leave_the_maze_packed_until_read() -> None:
    game = make_game("classic", 5)
    state = game.new_state(3)
    assert packed(state)  # the first round's, set up on the core
    state.play_out(Rng(3), until_round_end=True)
    assert packed(state)  # the core read it packed and wrote it packed
    version = state.maze.version
    assert not packed(state) and version > 0


@pytest.mark.parametrize("touch", ["attribute", "method", "set", "pickle", "deepcopy", "clone",
                                   "view", "legal"])
@pytest.mark.parametrize(("game", "players"), [("classic", 4), ("duel", None)])
def test_every_way_of_touching_a_packed_maze_gives_the_pure_one(touch: str, game: str,
                                                                players: int | None) -> None:
    slow = played(game, players, 8, 5, pure=True)  # (first: use_pure gives a held state back)
    fast = played(game, players, 8, 5, pure=False)
    assert packed(fast)
    maze = vars(fast)["maze"]
    if touch == "attribute":
        assert maze.cells
    elif touch == "method":
        maze.clone()
    elif touch == "set":
        maze.version = maze.version  # (a set unpacks first: nothing else is lost)
    elif touch == "pickle":
        back = pickle.loads(pickle.dumps(fast))
        assert type(back.maze) is Maze and tables(back.maze) == tables(slow.maze)
    elif touch == "deepcopy":
        assert tables(copy.deepcopy(maze)) == tables(slow.maze)
    elif touch == "clone":  # clones share it (copy-on-write), then one plays on
        other, pure = fast.clone(), slow.clone()
        other.play_out(Rng(1), until_round_end=True)
        with core.use_pure(True):
            pure.play_out(Rng(1), until_round_end=True)
        assert tables(other.maze) == tables(pure.maze)
        assert isinstance(maze, PackedMaze)  # the core read the shared one as it was
    elif touch == "view":
        assert fast.view(0) == slow.view(0)
    elif touch == "legal":
        with core.use_pure(True):
            assert fast.legal_actions() == slow.legal_actions()
    assert tables(maze) == tables(slow.maze)
    assert type(maze) is Maze


def test_a_damaged_packing_is_refused() -> None:
    from pysaboteur.core import _ext

    state = make_game("classic", 4).new_state(1)
    core_tables, packing, _ = Maze.__dict__["blocks"].__get__(vars(state)["maze"], Maze)
    assert _ext.classic_unpack_maze(core_tables, packing)[-1] > 0
    for bad in (packing[:-4], packing + b"\0\0\0\0", packing[:5], b"", b"\xff" * 8):
        with pytest.raises(ValueError, match="packed maze"):
            _ext.classic_unpack_maze(core_tables, bad)
