"""Face-down goals: how a revealed goal lies (common.md, "Face-down cards on the grid").

Shared by every game that turns goal cards over when the maze reaches them.
"""

from __future__ import annotations

from typing import Any

from .maze import FITS, Maze


def goal_orientations(maze: Maze, g: int) -> tuple[bool, ...]:
    """The ways (``rotated`` flags) the face-down card on ``g`` may lie once revealed.

    Those that fit every face-up neighbour; if none fits, those with the most
    open edges toward reachable segments facing the goal.  More than one way
    left is the revealing player's decision.
    """
    cat = maze.cat
    variants = cat.orientations[maze.hidden[g]]
    if len(variants) == 1:
        return (variants[0][0],)
    row = FITS[maze.constraint_of(g)]
    fitting = tuple(r for r, t in variants if row[cat.open_mask[t]])
    if fitting:
        return fitting
    facing = 0
    for reach_in in maze.reach_in:
        facing |= reach_in.get(g, 0)
    score = {r: (cat.open_mask[t] & facing).bit_count() for r, t in variants}
    best = max(score.values())
    return tuple(r for r in score if score[r] == best)


class GoalReveals:
    """For states that pause when a revealed goal's orientation is a real choice.

    The state keeps ``pending = (goal cell, ways)`` and an orientation phase; when the
    revealing player answers, :meth:`_orient` turns the goal over and settles what it
    reaches.  The game says what happens next (the turn ends, or it resumes).
    """

    pending: Any
    phase: int
    #: the phase play returns to once the goal lies
    MAIN_PHASE = 0

    def _reveal(self, g: int, rotated: bool) -> None:
        raise NotImplementedError

    def _settle(self, seat: int) -> bool:
        raise NotImplementedError

    def _orient(self, seat: int, rotated: bool) -> bool:
        """Lay the pending goal the chosen way and settle; True when the turn goes on."""
        assert self.pending is not None
        g = self.pending[0]
        self.pending = None
        self.phase = self.MAIN_PHASE
        self._reveal(g, rotated)
        return self._settle(seat)
