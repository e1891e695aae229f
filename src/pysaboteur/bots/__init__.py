"""Bots: each receives a seat's view and the legal actions, never the true state.

| name | how it plays |
|---|---|
| ``random`` | uniformly among the legal moves |
| ``heuristic`` | tries every move in one imagined world and keeps the best by rules of thumb |
| ``ismcts`` | information-set Monte Carlo tree search over sampled worlds |

Difficulty levels for players map onto them (``DIFFICULTY``).  :func:`make_bot` also takes a
bot with its budget a move (``ismcts@100ms``, ``ismcts@2000``) and the engine it thinks on
(``+pure``): see :mod:`pysaboteur.bots.spec`.
"""

from collections.abc import Sequence
from typing import Any

from .. import core
from ..engine.actions import Action
from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot
from .spec import BotSpec

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": IsmctsBot}
DIFFICULTY = {"easy": "random", "normal": "heuristic", "hard": "ismcts"}


class PureEngine(Bot):
    """A bot that thinks on the pure-Python engine (``+pure``): its choice runs with the
    compiled core switched off in this process, then switched back."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot.seed)
        self.bot = bot
        self.name = f"{bot.name}+pure"

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        with core.use_pure():
            return self.bot.choose(view, legal)


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name or by difficulty (``easy``, ``normal``, ``hard``), with its budget a
    move where one is written (``ismcts@100ms``, ``ismcts@2000``, ``+pure``)."""
    spec = BotSpec.parse(name, tuple(BOTS), DIFFICULTY)
    bot: Bot
    if spec.iterations is not None or spec.seconds is not None:
        bot = IsmctsBot(seed, iterations=spec.iterations, seconds=spec.seconds)
    else:
        bot = BOTS[spec.name](seed)
    return PureEngine(bot) if spec.pure else bot

__all__ = ["BOTS", "DIFFICULTY", "Bot", "BotSpec", "HeuristicBot", "IsmctsBot", "PureEngine",
           "RandomBot", "make_bot"]
