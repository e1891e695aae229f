"""Saboteur, the base game (``classic``).

Actions: path placements over the window, rockfall / map on a window cell,
break and repair cards on a (relative) seat, passing one card, the two goal
orientations, and a thief's victim (relative seat; Saboteur 2 only).
Extra observation: the seat's role (one-hot), its own gold, and every seat's
gold once the match is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from ...engine.actions import Orient, Pass
from ...engine.game import Game
from ..encoding import Encoding, Key, Window


class ClassicEncoding(Encoding):
    games = ("classic",)
    #: x -18..17, y -14..14 (start at (0, 0), goals at x = 8); random play drifts west,
    #: the heuristic bot builds round the goals up to x = 12
    window = Window(-18, -14, 36, 29)
    phases = ("main", "orient", "steal")
    max_rounds = 3

    @cached_property
    def roles(self) -> tuple[str, ...]:
        return tuple(k.code for k in self.cat.kinds if k.category == "role")

    def action_keys(self) -> Iterable[Key]:
        yield from self.placements(("path",))
        yield from self.on_cells(("rockfall", "map"))
        yield from self.on_players(("break", "repair"))
        data = self.game.data  # type: ignore[attr-defined]
        for n in range(1, data.PASS_MAX + 1):
            for cards in self.multisets(n):
                yield Pass(cards)
        yield Orient(False)
        yield Orient(True)

    def extra_fields(self) -> Sequence[tuple[str, int]]:
        return (("role", len(self.roles)), ("own_gold", 1), ("final_scores", self.players))

    def fill_extra(self, view: Any, seat: int, grid: np.ndarray,
                   put: Callable[[str, Any], None]) -> None:
        role = [0.0] * len(self.roles)
        if view.role in self.roles:
            role[self.roles.index(view.role)] = 1.0
        put("role", role)
        put("own_gold", view.gold or 0)
        if view.final_scores is not None:
            put("final_scores", self.by_rel(seat, view.final_scores))


def encoding(game: Game) -> ClassicEncoding:
    return ClassicEncoding(game)
