"""Face-down goals: how a revealed goal lies (common.md, "Face-down cards on the grid").

Shared by every game that turns goal cards over when the maze reaches them.
"""

from __future__ import annotations

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
