"""Mazes the compiled core writes packed (issue 24): each family's packed maze is a
subclass of :class:`PackedMaze` saying how its packing is read (``fields``), made a plain
:class:`~pysaboteur.engine.maze.Maze` the first time anything touches it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.maze import Maze


class PackedMaze(Maze):
    """A maze the core wrote packed, made a plain :class:`Maze` the first time anything
    touches it: reading or setting any attribute, calling any method, pickling or copying it
    unpacks it and gives it its class back, so that no code but the core's ever sees it
    packed, and a maze nobody reads (a play-out's last, a state dropped after its play-out)
    is never made into dictionaries.  While packed, its ``blocks`` hold (the core's tables,
    the packed bytes, the catalogue); a family's subclass reads them (``fields``)."""

    __slots__ = ()

    @staticmethod
    def fields(core: Any, packed: bytes) -> Iterable[tuple[str, Any]]:
        """The maze's slots but ``cat`` (name, value) from the core's tables and packing."""
        raise NotImplementedError

    def __getattribute__(self, name: str) -> Any:
        unpack(self)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        unpack(self)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        unpack(self)
        object.__delattr__(self, name)


_SLOTS = {name: Maze.__dict__[name] for name in Maze.__slots__}  # Maze's own slot descriptors


def unpack(maze: Maze) -> None:
    """``maze`` a plain :class:`Maze` (its dictionaries made) if it is still packed."""
    cls = type(maze)
    if cls is Maze or not issubclass(cls, PackedMaze):
        return
    core, packed, cat = _SLOTS["blocks"].__get__(maze, Maze)
    for name, value in cls.fields(core, packed):
        _SLOTS[name].__set__(maze, value)
    _SLOTS["cat"].__set__(maze, cat)
    object.__setattr__(maze, "__class__", Maze)
