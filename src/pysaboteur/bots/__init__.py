"""Bots: each receives a seat's view and the legal actions, never the true state.

| name | how it plays |
|---|---|
| ``random`` | uniformly among the legal moves |
| ``heuristic`` | tries every move in one imagined world and keeps the best by rules of thumb |
| ``ismcts`` | information-set Monte Carlo tree search over sampled worlds |

Difficulty levels for players map onto them (``DIFFICULTY``).
"""

from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": IsmctsBot}
DIFFICULTY = {"easy": "random", "normal": "heuristic", "hard": "ismcts"}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name or by difficulty (``easy``, ``normal``, ``hard``)."""
    name = DIFFICULTY.get(name, name)
    try:
        return BOTS[name](seed)
    except KeyError:
        choices = ", ".join([*BOTS, *DIFFICULTY])
        raise ValueError(f"unknown bot {name!r}; choose from {choices}") from None


__all__ = ["BOTS", "DIFFICULTY", "Bot", "HeuristicBot", "IsmctsBot", "RandomBot", "make_bot"]
