"""Hidden-information sampling for bots: one determinizer per game, looked up by view.

A determinizer is built once from a seat's view and then samples full states
consistent with it (``sample(rng)``).  Bots never see the true state; they
search these samples.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.game import State
from ..engine.rng import Rng


class Determinizer(Protocol):
    def sample(self, rng: Rng) -> State: ...


def determinizer(view: Any) -> Determinizer:
    """The determinizer for ``view``'s game; ValueError for a game that has none yet."""
    if view.game in ("duel", "solo"):
        from ..games.duel.determinize import Determinizer as DuelDeterminizer

        return DuelDeterminizer(view)
    raise ValueError(f"no determinizer for {view.game!r} yet")
