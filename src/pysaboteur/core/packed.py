"""Mazes the compiled core writes packed (issue 24), made the plain
:class:`~pysaboteur.engine.maze.Maze` they stand for the first time anything touches them.

Each family's core packs its own way; its subclass of :class:`PackedMaze` says how the
packing is read (``fields``), or unpacks it itself (``unpack``: The Lost Mines' core does
it in place).  What a packed maze does until then is the same for all: reading or setting
any attribute, calling any method, pickling or copying it unpacks it and gives it its class
back, so that no code but the core's ever sees it packed, and a maze nobody reads (a
play-out's last, a state dropped after its play-out) is never made into dictionaries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.maze import Maze

_SLOTS = {name: Maze.__dict__[name] for name in Maze.__slots__}  # Maze's own slot descriptors


class PackedMaze(Maze):
    """A maze the core wrote packed.  While packed, its ``blocks`` hold (the core's tables,
    the packing, the catalogue)."""

    __slots__ = ()

    @staticmethod
    def fields(core: Any, packed: bytes) -> Iterable[tuple[str, Any]]:
        """The maze's slots but ``cat`` (name, value) from the core's tables and packing."""
        raise NotImplementedError

    @classmethod
    def unpack(cls, maze: Maze) -> None:
        """``maze`` (of this class) made a plain :class:`Maze` in place: its slots from
        ``fields``, its catalogue, its class (looked up on the class: an attribute of the
        maze itself would unpack it first)."""
        core, packed, cat = _SLOTS["blocks"].__get__(maze, Maze)
        for name, value in cls.fields(core, packed):
            _SLOTS[name].__set__(maze, value)
        _SLOTS["cat"].__set__(maze, cat)
        object.__setattr__(maze, "__class__", Maze)

    def __getattribute__(self, name: str) -> Any:
        type(self).unpack(self)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        type(self).unpack(self)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        type(self).unpack(self)
        object.__delattr__(self, name)


def unpack(maze: Maze) -> None:
    """``maze`` a plain :class:`Maze` (its dictionaries made) if it is still packed."""
    cls = type(maze)
    if cls is not Maze and issubclass(cls, PackedMaze):
        cls.unpack(maze)
