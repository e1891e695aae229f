"""Uniformly random legal play: the baseline every other bot must beat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.rng import Rng
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        return legal[self.rng.below(len(legal))]
