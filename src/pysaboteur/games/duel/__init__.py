"""Saboteur: The Duel (2 players) and its solo mode (1 player)."""

from .state import DuelGame, DuelOptions, DuelState
from .view import DuelView

__all__ = ["DuelGame", "DuelOptions", "DuelState", "DuelView"]
