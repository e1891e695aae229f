"""Sampling full Saboteur 2 states consistent with what one seat knows.

As in the base game (:mod:`pysaboteur.games.classic.determinize`), plus: the
seat's inspections are known dwarf cards; the spare and "swap your hats" piles
are dealt from the unknown dwarf cards; Thefts in front of players keep the
order the log shows; other seats' inspections are replayed from the log on the
sampled dwarf cards.  Other seats' gold: 1 for each seat known to have gold
(amounts are private), 0 for the others.
"""

from __future__ import annotations

from typing import Any

from ...engine.rng import Rng
from ..classic.determinize import Determinizer as ClassicDeterminizer
from ..classic.determinize import Weights
from ..classic.state import ClassicState
from .state import ExpansionGame, ExpansionState


class Determinizer(ClassicDeterminizer):
    game_type = ExpansionGame
    _core_kind = "expansion"

    def _state_type(self) -> type[ClassicState]:
        return ExpansionState

    def _init_gold(self, view: Any, t: ClassicState) -> None:
        assert isinstance(t, ExpansionState)
        t.purse = [int(rich) for rich in view.has_gold]
        t.purse[view.seat] = view.gold or 0

    def _init_extra(self, view: Any, t: ClassicState, log: list[tuple[int, str]]) -> None:
        assert isinstance(t, ExpansionState)
        t.thieves = list(view.thieves)
        t.hats_aside = []
        order: list[int] = []
        looks: list[tuple[int, int]] = []  # (inspector, inspected) of other seats
        for actor, move in log:
            if move.startswith("theft>"):
                order.append(int(move[6:]))
            elif move.startswith("hands-off>"):
                order.remove(int(move[10:]))
            elif move.startswith("discard ") and move.endswith(" -theft"):
                order.remove(actor)
            elif move.startswith("inspection>") and actor != view.seat:
                looks.append((actor, int(move[11:])))
            elif move.startswith("swap-hats>"):
                target = int(move[10:])
                looks = [(a, b) for a, b in looks if b != target]
        t.theft_order = order
        self.looks = looks
        t.inspected = [{} for _ in range(view.players)]
        t.inspected[view.seat] = dict(view.inspected)

    def _known_roles(self, view: Any) -> dict[int, str]:
        return dict(view.inspected)

    def _role_places(self, view: Any) -> tuple[int, int]:
        return view.spare_roles, view.hats_aside

    def _set_aside_roles(self, state: ClassicState, spare: list[str], aside: list[str]) -> None:
        assert isinstance(state, ExpansionState)
        state.spare_roles = spare
        state.hats_aside = aside
        if self.looks:
            inspected = state.inspected = [d.copy() for d in state.inspected]
            for a, b in self.looks:
                inspected[a][b] = state.roles[b]

    def sample(self, rng: Rng) -> ExpansionState:
        state = super().sample(rng)
        assert isinstance(state, ExpansionState)
        return state


def determinize(view: Any, rng: Rng, weights: Weights | None = None) -> ExpansionState:
    """One full state consistent with ``view``."""
    return Determinizer(view, weights).sample(rng)
