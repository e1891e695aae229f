"""Saboteur 2: the base game with the expansion (2-12 players)."""

from .state import ExpansionGame, ExpansionOptions, ExpansionState
from .view import ExpansionView

__all__ = ["ExpansionGame", "ExpansionOptions", "ExpansionState", "ExpansionView"]
