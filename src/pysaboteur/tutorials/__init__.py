"""Tutorials: one scripted opening per game, then a free round against an easy bot.

``tutorial(game)`` gives a game's script (:class:`~.script.Tutorial`);
:class:`~.runner.Runner` plays it for both faces (``saboteur tutorial GAME`` and the
browser's ``#/learn/GAME``).
"""

from __future__ import annotations

from importlib import import_module

from .runner import Outcome, Runner, ScriptError
from .script import LANGUAGES, Step, Tutorial, text

#: game name -> the module holding its TUTORIAL
MODULES = {"duel": "duel", "solo": "solo", "classic": "classic", "expansion": "expansion",
           "lost-mines": "lost_mines"}

__all__ = ["LANGUAGES", "MODULES", "Outcome", "Runner", "ScriptError", "Step", "Tutorial",
           "games", "text", "tutorial"]


def games() -> list[str]:
    """The games that have a tutorial, in the registry's order."""
    return list(MODULES)


def tutorial(game: str) -> Tutorial:
    """The tutorial of ``game`` (KeyError: none)."""
    name = MODULES[game]
    found: Tutorial = import_module(f"{__name__}.{name}").TUTORIAL
    return found
