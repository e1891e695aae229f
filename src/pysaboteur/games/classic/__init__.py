"""Saboteur, the base game (3-10 players)."""

from .state import ClassicGame, ClassicOptions, ClassicState
from .view import ClassicView

__all__ = ["ClassicGame", "ClassicOptions", "ClassicState", "ClassicView"]
