"""Specific errors.  Every illegal action raises one of these and changes nothing."""

from __future__ import annotations


class SaboteurError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(SaboteurError, ValueError):
    """The action breaks a rule; the message says which."""


class NotYourTurn(IllegalAction):
    pass


class GameOver(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    """The action is of a kind that is not on offer now (e.g. a card while a choice is pending)."""


class CardNotInHand(IllegalAction):
    pass


class IllegalPlacement(IllegalAction):
    """A path card cannot go there (occupied, does not fit, not connected, forbidden neighbour)."""


class InvalidTarget(IllegalAction):
    """An action card's target (player, card, tool, door, troll) is not allowed."""


class Blocked(IllegalAction):
    """The player may not take this option now (a broken tool, no keys left...)."""


class IllegalMove(IllegalAction):
    """A pawn cannot take that route (blocked, too long, not along a path)."""


class NotationError(SaboteurError, ValueError):
    """Text that does not parse as an action."""


class RecordError(SaboteurError, ValueError):
    """A record that is malformed or does not match its game."""


class BadOptions(SaboteurError, ValueError):
    """Game options that are unknown, of the wrong type or out of bounds (the message names
    the option and what it accepts)."""
