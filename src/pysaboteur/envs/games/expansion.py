"""Saboteur 2, the base game with the expansion (``expansion``).

Everything of :mod:`.classic`, plus: the new action cards aimed at a
(relative) seat, discarding two cards to remove a card lying in front of you
(multiset x removed card), passing 1 to 3 cards (multiset), a thief's victim.
Extra observation: who still has gold, the spare and set-aside dwarf cards,
the thieves still to steal (per relative seat, and the next one), and the
dwarf cards this seat has inspected (per relative seat, one-hot).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ...engine.actions import Discard, Orient, Pass, Steal
from ...engine.game import Game
from ...games.expansion import cards as C
from ..encoding import Key
from .classic import ClassicEncoding

_ON_PLAYER = ("break", "repair", "theft", "hands-off", "swap-hand", "inspection", "swap-hats",
              "trapped", "free")


class ExpansionEncoding(ClassicEncoding):
    games = ("expansion",)
    max_rounds = C.ROUNDS

    def front_card_codes(self) -> tuple[str, ...]:
        return tuple(k.code for k in self.cat.kinds
                     if k.effect in ("break", "theft", "trapped"))

    def action_keys(self) -> Iterable[Key]:
        yield from self.placements(("path",))
        yield from self.on_cells(("rockfall", "map"))
        yield from self.on_players(_ON_PLAYER)
        for removed in self.front_codes:
            for cards in self.multisets(C.DISCARD_TO_REMOVE):
                yield Discard(cards, removed)
        for n in range(1, C.PASS_MAX + 1):
            for cards in self.multisets(n):
                yield Pass(cards)
        yield Orient(False)
        yield Orient(True)
        for r in range(1, self.players):
            yield Steal(r)

    def extra_fields(self) -> Sequence[tuple[str, int]]:
        n = self.players
        return (*super().extra_fields(), ("has_gold", n), ("spare_roles", 1), ("hats_aside", 1),
                ("thieves", n), ("next_thief", n), ("inspected", n * len(self.roles)))

    def fill_extra(self, view: Any, seat: int, grid: np.ndarray,
                   put: Callable[[str, Any], None]) -> None:
        super().fill_extra(view, seat, grid, put)
        n = self.players
        put("has_gold", [float(v) for v in self.by_rel(seat, view.has_gold)])
        put("spare_roles", view.spare_roles)
        put("hats_aside", view.hats_aside)
        thieves = [0.0] * n
        for s in view.thieves:
            thieves[self.rel(seat, s)] += 1
        put("thieves", thieves)
        nxt = [0.0] * n
        if view.thieves:
            nxt[self.rel(seat, view.thieves[0])] = 1
        put("next_thief", nxt)
        seen = np.zeros((n, len(self.roles)), dtype=np.float32)
        for s, role in view.inspected:
            if role in self.roles:
                seen[self.rel(seat, s), self.roles.index(role)] = 1
        put("inspected", seen.ravel())


def encoding(game: Game) -> ExpansionEncoding:
    return ExpansionEncoding(game)
