"""Search-leaf values for Saboteur: how likely the gold is reached this round.

ISMCTS searches sampled worlds, in which every role and the gold's goal are known.
A leaf is scored by the chance that somebody reaches the gold before the cards
run out, from a logistic model over a few facts of the position:

* the steps from the nearest open end of the tunnel to the gold;
* how many open ends there are;
* the share of the gold's side, and of the saboteurs, that can still build;
* cards left per seat (the time left);
* the share of saboteurs at the table.

Each seat's value is then the gold it can expect.  In Saboteur: the
gold-diggers by that chance, the saboteurs by the rest.  In Saboteur 2: the
game's pay-out table for the winners of either outcome (either team's route
equally likely when the gold is reached; trapped seats paid nothing), plus the
geologists' crystals already on the table and the Thefts to come.

The weights are fitted to rounds played by the heuristic bot
(``examples/fit_card_leaf.py`` prints them); one row per game below, so a refit
is a one-line change.  Saboteur 2 uses Saboteur's row: fitted on its own rounds,
the steps to the gold get almost no weight (ladders open ends anywhere), which
would leave the search blind to digging.
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
# Saboteur 2 borrows Saboteur's model: fitted on its own rounds the steps to the gold get
# almost no weight (-0.04: ladders open ends anywhere), which leaves search blind to digging
WEIGHTS["expansion"] = WEIGHTS["classic"]
MAX_ENDS = 6
NO_WAY = 16.0  # steps counted when the tunnel has no open end
WIN_GOLD = 3.0  # about what a won round of Saboteur pays each winner
THEFT_GOLD = 1.0  # a Theft used at the round's end


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
    return PAYOFFS[state.game.name](state, p)


def _classic_payoff(state: Any, p: float) -> list[float]:
    """Saboteur: the gold-diggers share the gold with chance ``p``, the saboteurs otherwise."""
    return [WIN_GOLD * (p if SIDE.get(role, 0.0) > 0 else 1.0 - p) for role in state.roles]


def _expansion_payoff(state: Any, p: float) -> list[float]:
    """Saboteur 2: each seat's expected pay-out by the game's own rules if the round ended
    with the gold reached (chance ``p``; either team's route equally likely) or not,
    plus a gold piece for each Theft that will be used."""
    blue, green = (state.earnings(state.paid(state.team_winners([team])))
                   for team in (state.game.data.BLUE, state.game.data.GREEN))
    blocked = state.earnings(state.paid(state.saboteur_winners()))
    values = [p * 0.5 * (b + g) + (1.0 - p) * k
              for b, g, k in zip(blue, green, blocked, strict=True)]
    for s in set(state.theft_order):
        if not state.trapped(s):
            values[s] += THEFT_GOLD
    return values


PAYOFFS: dict[str, Callable[[Any, float], list[float]]] = {
    "classic": _classic_payoff, "expansion": _expansion_payoff}


def leaf_evaluator(view: Any) -> Callable[[Any], list[float]]:
    """Leaf values for the seat of ``view``, over the goals it does not know to be stone."""
    from .classic_heuristic import targets

    candidates = targets(view)
    return lambda state: leaf_values(state, candidates)


__all__ = ["WEIGHTS", "LeafWeights", "features", "gold_chance", "leaf_evaluator", "leaf_values"]
