"""Pieces every game's view shares: the face-up board and the public log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, Pass
from .maze import Maze, xy


@dataclass(frozen=True)
class PlacedCard:
    x: int
    y: int
    card: str
    rotated: bool


def placed_cards(maze: Maze) -> tuple[PlacedCard, ...]:
    """The face-up cards in the order they were placed, with how they lie."""
    cat = maze.cat
    out = []
    for c in maze.order:
        t = maze.cells[c]
        code = cat.codes[t]
        out.append(PlacedCard(*xy(c), code, cat.otile[code, True] == t))
    return tuple(out)


def public_log(seat: int | None, actors: Sequence[int],
               history: Sequence[Action]) -> tuple[tuple[int, str], ...]:
    """(seat, move) for every decision; a pass by another seat shows only its card count."""
    return tuple((actor, f"pass {len(move.cards)}" if isinstance(move, Pass) and actor != seat
                  else str(move)) for actor, move in zip(actors, history, strict=True))
