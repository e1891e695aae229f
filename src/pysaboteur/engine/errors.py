"""Specific errors.  Every illegal action raises one of these and changes nothing."""

from __future__ import annotations

from typing import Any

from . import reasons


class SaboteurError(Exception):
    """Base of every error the engine raises on purpose."""


def _rebuild(cls: type[IllegalAction], code: str, params: dict[str, Any]) -> IllegalAction:
    return cls(code, **params)


class IllegalAction(SaboteurError, ValueError):
    """The action breaks a rule; the message says which.

    Raised with a stable code and its parameters, ``IllegalPlacement("not-connected", x=3,
    y=1)``: ``exc.code`` and ``exc.params`` name the reason, ``str(exc)`` is its English text
    and ``exc.say("de")`` its German one (the one table: :mod:`pysaboteur.engine.reasons`;
    a code not in it, or other parameters than its text's, raise at once).
    """

    code: str
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        reasons.check(code, params)
        super().__init__(reasons.say(code, params))
        self.code = code
        self.params = params

    def say(self, lang: str = "en") -> str:
        """The reason in ``lang`` (en, de, nl; another: English)."""
        return reasons.say(self.code, self.params, lang)

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params"}``: the reason as data (what the server sends)."""
        return {"code": self.code, "params": dict(self.params)}

    def __reduce__(self) -> Any:  # pickled by its code, not its text (multiprocessing)
        return _rebuild, (type(self), self.code, self.params)


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
