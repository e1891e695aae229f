"""Saboteur: The Lost Mines (3-9 players)."""

from .state import LostMinesGame, LostMinesOptions, LostMinesState
from .view import LostMinesView

__all__ = ["LostMinesGame", "LostMinesOptions", "LostMinesState", "LostMinesView"]
