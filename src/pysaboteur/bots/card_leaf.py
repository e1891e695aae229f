"""Search-leaf values for Saboteur: how likely the gold is reached this round.

ISMCTS searches sampled worlds, in which every role and the gold's goal are known.
A leaf is scored by the chance that somebody reaches the gold before the cards
run out, from a logistic model over a few facts of the position:

* the steps from the nearest open end of the tunnel to the gold;
* how many open ends there are;
* the share of the gold's side, and of the saboteurs, that can still build;
* cards left per seat (the time left);
* the share of saboteurs at the table.

Each seat's value is then the gold it can expect: the gold-diggers by that
chance, the saboteurs by the rest.  The weights are
fitted to rounds played by the heuristic bot (``examples/fit_card_leaf.py``
prints them); one row per game below, so a refit is a one-line change.

Saboteur 2 has no row: fitted the same way, its steps to the gold carried almost
no weight (its rounds turn on doors, ladders and roles more than on distance), and
search with it played worse than the heuristic, so its ISMCTS plays rounds out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..engine.maze import xy
from .beliefs import SABOTEUR, SIDE


class LeafWeights(NamedTuple):
    bias: float
    steps: float  # per step from the nearest open end to the gold
    open_ends: float  # per open end, up to MAX_ENDS
    side_builds: float  # share of the gold's side that can build
    saboteurs_build: float  # share of the saboteurs that can build
    cards: float  # cards left (deck and hands) per seat
    saboteur_share: float  # saboteurs per seat


#: fitted by examples/fit_card_leaf.py on all-heuristic rounds (see there for the figures)
WEIGHTS = {
    "classic": LeafWeights(0.564, -0.597, -0.073, 1.725, -0.57, 0.517, -9.462),
}
MAX_ENDS = 6
NO_WAY = 16.0  # steps counted when the tunnel has no open end
WIN_GOLD = 3.0  # about what a won round pays each winner


def features(state: Any, gold: Sequence[tuple[int, int]] | None = None) -> tuple[float, ...]:
    """The facts the model weighs, from a full (sampled) state; ``gold``: the cells the
    steps are counted to (by default, where the gold lies in this state)."""
    if gold is None:
        cat = state.game.catalogue
        gold = [xy(c) for c, code in state.maze.hidden.items() if cat[code].features.gold]
    (steps,), rest = _steps_and_rest(state, [gold])
    return (steps, *rest)


def _steps_and_rest(state: Any, targets: Sequence[Sequence[tuple[int, int]]]
                    ) -> tuple[list[float], tuple[float, ...]]:
    """Steps from the nearest open end to each group of ``targets``, and the other facts
    (which do not depend on where the gold is), in one pass over the tunnel's ends."""
    maze = state.maze
    hidden = maze.hidden
    steps = [NO_WAY] * len(targets)
    ends = 0
    for c in maze.reach_in[0]:
        if c in hidden:
            continue
        ends += 1
        x, y = xy(c)
        for i, gold in enumerate(targets):
            for gx, gy in gold:
                steps[i] = min(steps[i], abs(x - gx) + abs(y - gy))
    roles = state.roles
    n = len(roles)
    side = [s for s in range(n) if SIDE.get(roles[s], 0.0) > 0]
    saboteurs = [s for s in range(n) if roles[s] == SABOTEUR]
    side_builds = sum(state.can_build(s) for s in side) / max(1, len(side))
    saboteurs_build = sum(state.can_build(s) for s in saboteurs) / max(1, len(saboteurs))
    cards = len(state.deck) + sum(len(h) for h in state.hands)
    return steps, (float(min(ends, MAX_ENDS)), side_builds, saboteurs_build, cards / n,
                   len(saboteurs) / n)


def _chance(weights: LeafWeights, facts: tuple[float, ...]) -> float:
    z = weights.bias + sum(wi * fi for wi, fi in zip(weights[1:], facts, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def gold_chance(state: Any, gold: Sequence[tuple[int, int]] | None = None) -> float:
    """The model's chance that the gold (at ``gold``, see ``features``) is reached this round."""
    return _chance(WEIGHTS[state.game.name], features(state, gold))


def leaf_values(state: Any, candidates: Sequence[tuple[int, int]] | None = None) -> list[float]:
    """Each seat's expected gold from this round, for search leaves.

    ``candidates``: the goals that may hold the gold as the searching seat knows them;
    the chance is averaged over them rather than read from the one sampled, so that
    moves are not judged by where a sample happened to put the gold.
    """
    if candidates:
        weights = WEIGHTS[state.game.name]
        steps, rest = _steps_and_rest(state, [[g] for g in candidates])
        p = sum(_chance(weights, (d, *rest)) for d in steps) / len(candidates)
    else:
        p = gold_chance(state)
    return [WIN_GOLD * (p if SIDE.get(role, 0.0) > 0 else 1.0 - p) for role in state.roles]


def leaf_evaluator(view: Any) -> Callable[[Any], list[float]]:
    """Leaf values for the seat of ``view``, over the goals it does not know to be stone."""
    from .classic_heuristic import targets

    candidates = targets(view)
    return lambda state: leaf_values(state, candidates)


__all__ = ["WEIGHTS", "LeafWeights", "features", "gold_chance", "leaf_evaluator", "leaf_values"]
