"""The one interface every bot implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action


class Bot(ABC):
    """Chooses an action from what one seat may know.

    ``view`` is exactly the seat's view (``state.view(seat)``); ``legal`` is the
    list of legal actions.  A bot never sees the state itself.
    """

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def choose(self, view: Any, legal: Sequence[Action]) -> Action: ...
