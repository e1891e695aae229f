"""Saboteur: The Duel and its solo mode (``duel``, ``solo``).

Actions: path placements and bribes over the window, key / rockfall / map on a
window cell, break and repair cards on a (relative) seat, discarding two cards
to remove a card in front of you (multiset x removed card), passing 1 or 2
cards (multiset), ``end`` and the two goal orientations.
Extra observation: markers and bribes per relative seat, keys, the seat's
colour, markers and keys left, gold collected per relative seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ...engine.actions import Bribe, Discard, EndTurn, Orient, Pass
from ...engine.game import Game
from ...games.duel import cards as C
from ..encoding import Encoding, Key, Window


class DuelEncoding(Encoding):
    games = ("duel",)
    #: x -12..17, y -12..12 (starts at (0, -1) and (0, 1), goals up to x = 9; the
    #: heuristic bot builds round the goals up to x = 12)
    window = Window(-12, -12, 30, 25)
    phases = ("main", "after", "orient")
    max_rounds = C.ROUNDS

    def action_keys(self) -> Iterable[Key]:
        yield from self.placements(("path",))
        yield from self.on_cells(("key", "rockfall", "map"))
        yield from self.on_players(("break", "repair"))
        for removed in self.front_codes:
            for cards in self.multisets(C.DISCARD_TO_REPAIR):
                yield Discard(cards, removed)
        for n in range(1, C.PASS_MAX + 1):
            for cards in self.multisets(n):
                yield Pass(cards)
        for x, y in self.window.cells():
            yield Bribe(x, y)
        yield EndTurn()
        yield Orient(False)
        yield Orient(True)

    def extra_planes(self) -> Sequence[str]:
        n = self.players
        return (*(f"marker_rel{r}" for r in range(n)), *(f"bribe_rel{r}" for r in range(n)),
                "key")

    def extra_fields(self) -> Sequence[tuple[str, int]]:
        n = self.players
        return (("colour", len(C.COLOURS)), ("markers_left", n), ("keys_left", 1),
                ("scores", n), ("gold_cards", n))

    def fill_extra(self, view: Any, seat: int, grid: np.ndarray,
                   put: Callable[[str, Any], None]) -> None:
        for x, y, s in view.markers:
            self.put_cells(grid, f"marker_rel{self.rel(seat, s)}", [(x, y)])
        for x, y, s in view.bribes:
            self.put_cells(grid, f"bribe_rel{self.rel(seat, s)}", [(x, y)])
        self.put_cells(grid, "key", view.keys)
        colour = [0.0] * len(C.COLOURS)
        colour[C.COLOURS.index(view.colours[seat])] = 1.0
        put("colour", colour)
        put("markers_left", self.by_rel(seat, view.markers_left))
        put("keys_left", view.keys_left)
        put("scores", self.by_rel(seat, view.scores))
        put("gold_cards", self.by_rel(seat, [len(g) for g in view.gold]))


class SoloEncoding(DuelEncoding):
    games = ("solo",)
    #: x -12..17, y -10..10 (start at (0, 0), goals up to x = 12)
    window = Window(-12, -10, 30, 21)


def encoding(game: Game) -> DuelEncoding:
    return SoloEncoding(game) if game.players == 1 else DuelEncoding(game)
