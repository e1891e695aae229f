"""A maze the core wrote packed, made the plain :class:`~pysaboteur.engine.maze.Maze` it
stands for the first time anything touches it.

Each family's core packs its own way (``core/classic.py``'s and ``core/lost_mines.py``'s
``PackedMaze`` name the C function that unpacks it); what a packed maze does until then is
the same for all: reading or setting any attribute, calling any method, pickling or copying
it unpacks it and gives it its class back, so that no code but the core's ever sees it
packed, and a maze nobody reads (a play-out's last, a state dropped after its play-out) is
never made into dictionaries.
"""

from __future__ import annotations

from typing import Any

from ..engine.maze import Maze


class PackedMaze(Maze):
    """The base of a family's packed maze: ``unpack(maze)`` makes it a plain ``Maze`` in
    place (looked up on the class: an attribute of the maze itself would unpack it)."""

    __slots__ = ()

    @staticmethod
    def unpack(maze: Maze) -> None:
        """Make ``maze`` the plain ``Maze`` it stands for, in place: each family's own."""
        raise NotImplementedError

    def __getattribute__(self, name: str) -> Any:
        type(self).unpack(self)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        type(self).unpack(self)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        type(self).unpack(self)
        object.__delattr__(self, name)
