"""Saboteur: The Lost Mines (``lost-mines``).

The board is bounded (11 x 7 cells by rule), so the window is the board and can
never bite.  Actions: path placements; tool / storm / information cards on a
cell; trap and troll tokens on a joint (cell x side E or S); information
cards on a laid-out treasure (slot) or a (relative) seat; passing 1 or 2
cards (multiset); proposing to end the round and voting; the two mine
orientations; a pawn's move as its steps (N, E, S, W; 1 to 5) or staying;
taking a treasure (slot).
Extra observation: pawns per relative seat, overcome obstacles, traps and
trolls (per owner) on joints, clans, laid-out treasures (type, holder), the
treasure types each seat holds, the dragon, scores, and the seat's private
knowledge (identity, its treasures' values, treasures and dwarf cards it saw).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ...engine.actions import (
    NoMove,
    Orient,
    Pass,
    PlayOnJoint,
    PlayOnTreasure,
    ProposeEnd,
    Take,
    Vote,
)
from ...engine.game import Game
from ...games.lost_mines import cards as C
from ..encoding import Encoding, Key, Window

_IDENTITIES = (C.LOYAL, C.SELFISH, C.SABOTEUR)


class LostMinesEncoding(Encoding):
    games = ("lost-mines",)
    window = Window(0, 0, C.WIDTH, C.HEIGHT)
    phases = ("card", "move", "orient", "take", "vote")

    def __init__(self, game: Game) -> None:
        self.max_rounds = game.options.rounds  # type: ignore[attr-defined,misc]
        self.dwarves = tuple(k.code for k in game.catalogue.kinds if k.category == "dwarf")
        self.treasure_cards = tuple(k.code for k in game.catalogue.kinds
                                    if k.category == "treasure")
        super().__init__(game)

    def front_card_codes(self) -> tuple[str, ...]:
        return tuple(k.code for k in self.cat.kinds if k.effect == "troll")

    def action_keys(self) -> Iterable[Key]:
        n = self.players
        yield from self.placements(("path",))
        yield from self.on_cells(("tool", "storm", "info"))
        for kind in self.cat.kinds:
            if kind.effect in ("trap", "troll"):
                for x, y in self.window.cells():
                    for side in ("E", "S"):
                        yield PlayOnJoint(kind.code, x, y, side)
        for kind in self.cat.kinds:
            if kind.effect == "info":
                for slot in range(n):
                    yield PlayOnTreasure(kind.code, slot)
        yield from self.on_players(("info",), range(1, n), name_tool=False)
        for k in range(1, C.PASS_MAX + 1):
            for cards in self.multisets(k):
                yield Pass(cards)
        yield ProposeEnd()
        yield Vote(True)
        yield Vote(False)
        yield Orient(False)
        yield Orient(True)
        yield from self.routes(C.CAMPFIRE_STEPS)
        yield NoMove()
        for slot in range(n):
            yield Take(slot)

    def pending_card(self, view: Any) -> tuple[int, int, str, tuple[bool, ...]] | None:
        if view.phase == "orient" and view.pending is not None:
            x, y, code, ways = view.pending
            return x, y, code, ways
        return None

    def extra_planes(self) -> Sequence[str]:
        n = self.players
        return (*(f"pawn_rel{r}" for r in range(n)), "forest", "trap_E", "trap_S",
                *(f"troll_{side}_rel{r}" for side in "ES" for r in range(n)))

    def extra_fields(self) -> Sequence[tuple[str, int]]:
        n, t = self.players, len(C.TREASURE_TYPES)
        return (("clans", n * len(C.CLANS)), ("identity", len(_IDENTITIES)),
                ("treasure_type", n * t), ("treasure_holder", n * (n + 1)),
                ("collected", n * t), ("dragon", n + 1), ("scores", n),
                ("pawn_segments", n), ("pending_draw", 1), ("proposed", 1),
                ("take_slots", n), ("voters", n), ("own_treasures", len(self.treasure_cards)),
                ("known_treasures", n * len(self.treasure_cards)),
                ("known_dwarves", n * len(self.dwarves)))

    def fill_extra(self, view: Any, seat: int, grid: np.ndarray,
                   put: Callable[[str, Any], None]) -> None:
        n = self.players
        rel = self.rel
        for s, pawn in enumerate(view.pawns):
            self.put_cells(grid, f"pawn_rel{rel(seat, s)}", [pawn])
        self.put_cells(grid, "forest", view.forest)
        for x, y, side in view.traps:
            self.put_cells(grid, f"trap_{side}", [(x, y)])
        for x, y, side, owner in view.trolls:
            self.put_cells(grid, f"troll_{side}_rel{rel(seat, owner)}", [(x, y)])
        clans = np.zeros((n, len(C.CLANS)), dtype=np.float32)
        for s, clan in enumerate(view.clans):
            clans[rel(seat, s), C.CLANS.index(clan)] = 1
        put("clans", clans.ravel())
        if view.identity in _IDENTITIES:
            ident = [0.0] * len(_IDENTITIES)
            ident[_IDENTITIES.index(view.identity)] = 1.0
            put("identity", ident)
        ttype = np.zeros((n, len(C.TREASURE_TYPES)), dtype=np.float32)
        holder = np.zeros((n, n + 1), dtype=np.float32)
        for slot, kind, owner in view.treasures:
            ttype[slot, C.TREASURE_TYPES.index(kind)] = 1
            holder[slot, n if owner < 0 else rel(seat, owner)] = 1
        put("treasure_type", ttype.ravel())
        put("treasure_holder", holder.ravel())
        held = np.zeros((n, len(C.TREASURE_TYPES)), dtype=np.float32)
        for s, kinds in enumerate(view.collected):
            for kind in kinds:
                held[rel(seat, s), C.TREASURE_TYPES.index(kind)] += 1
        put("collected", held.ravel())
        dragon = [0.0] * (n + 1)
        dragon[n if view.dragon is None else rel(seat, view.dragon)] = 1.0
        put("dragon", dragon)
        put("scores", self.by_rel(seat, view.scores))
        put("pawn_segments", self.by_rel(seat, view.pawn_segments))
        put("pending_draw", view.pending_draw)
        put("proposed", float(view.proposed))
        if view.phase == "take" and view.pending:
            slots = [0.0] * n
            for slot in view.pending:
                slots[slot] = 1.0
            put("take_slots", slots)
        if view.phase == "vote" and view.pending:
            voters = [0.0] * n
            for s in view.pending:
                voters[rel(seat, s)] = 1.0
            put("voters", voters)
        index = {c: i for i, c in enumerate(self.treasure_cards)}
        own = [0.0] * len(self.treasure_cards)
        for code in view.own_treasures:
            own[index[code]] += 1
        put("own_treasures", own)
        known = np.zeros((n, len(self.treasure_cards)), dtype=np.float32)
        for slot, code in view.known_treasures:
            known[slot, index[code]] = 1
        put("known_treasures", known.ravel())
        dwarves = np.zeros((n, len(self.dwarves)), dtype=np.float32)
        for s, code in view.known_dwarves:
            dwarves[rel(seat, s), self.dwarves.index(code)] = 1
        put("known_dwarves", dwarves.ravel())


def encoding(game: Game) -> LostMinesEncoding:
    return LostMinesEncoding(game)
