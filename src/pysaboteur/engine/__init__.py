"""The shared engine of the Saboteur family: tiles, maze, cards, generator, actions, states."""

from .actions import (
    Action,
    Bribe,
    Discard,
    EndTurn,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnPlayer,
    Steal,
)
from .errors import IllegalAction, NotationError, RecordError, SaboteurError
from .game import TERMINAL, Deal, Game, State

__all__ = [
    "TERMINAL", "Action", "Bribe", "Deal", "Discard", "EndTurn", "Game", "IllegalAction",
    "NotationError", "Orient", "Pass", "PlacePath", "PlayOnCell", "PlayOnPlayer", "RecordError",
    "SaboteurError", "State", "Steal",
]
