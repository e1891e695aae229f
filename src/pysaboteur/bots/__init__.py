"""Bots: each receives a seat's view and the legal actions, never the true state."""

from .base import Bot
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None


__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
