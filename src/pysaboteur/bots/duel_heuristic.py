"""Rules of thumb for The Duel, as one evaluation of the position after a move.

The bot imagines one world consistent with its view, tries each legal move in
it, and keeps the move whose result it likes best:

* gold marked for me (and not for the opponent) is worth most;
* then getting my tunnel close to a goal worth having (known gold first,
  goals I know to be empty not at all), and keeping the opponent's far;
* my broken tools hurt, the opponent's help;
* each bribe costs a gold at the end of the round;
* passing throws cards away, so it is a last resort.
"""

from __future__ import annotations

from ..engine.maze import xy
from ..games.duel import cards as C
from ..games.duel.state import CAT, DuelState

GOLD = 12.0  # one gold marked
UNKNOWN_GOAL = 1.5  # expected gold of a face-down goal
BROKEN = 4.0  # a broken tool in front of a player
BRIBE = 6.0  # a bribe: one gold owed
PASS = 0.8  # each card passed away
FAR = 20.0  # distance of a player with no way forward


def _targets(state: DuelState, seat: int) -> list[tuple[int, int, float]]:
    """Cells worth reaching for ``seat``: face-down goals and unmarked gold, with their value."""
    known = state.seen[seat]
    out = []
    for c in state.maze.hidden:
        value = CAT[known[c]].features.gold if c in known else UNKNOWN_GOAL
        if value:
            out.append((*xy(c), float(value)))
    for c in state.unclaimed_gold:
        out.append((*xy(c), float(CAT.features[state.maze.cells[c]].gold)))
    return out


def _distance(state: DuelState, seat: int) -> float:
    targets = _targets(state, seat)
    if not targets:
        return 0.0
    cells = list(map(xy, state.maze.reach_in[seat]))
    # one min over every (frontier cell, target): the same numbers, one call
    return min(FAR, min((abs(fx - tx) + abs(fy - ty) - 0.5 * value
                         for fx, fy in cells for tx, ty, value in targets), default=FAR))


def _marked(state: DuelState, seat: int) -> int:
    cells = state.maze.cells
    return sum(CAT.features[cells[c]].gold for c, s in state.markers.items() if s == seat)


def evaluate(state: DuelState, me: int) -> float:
    """How good ``state`` looks for seat ``me`` (higher is better)."""
    opp = state.opponent(me)
    score = GOLD * (state.scores()[me] + _marked(state, me)) - _distance(state, me)
    score -= BROKEN * len(state.in_front[me]) + BRIBE * state.bribes_made[me]
    if opp is not None:
        score -= GOLD * (state.scores()[opp] + _marked(state, opp))
        score += 0.6 * _distance(state, opp) + BROKEN * len(state.in_front[opp])
    return score


def action_bias(text: str) -> float:
    if text.startswith("pass "):
        return -PASS * len(text.split()[1:])
    return 0.0


__all__ = ["C", "action_bias", "evaluate"]


def leaf_values(state: DuelState) -> list[float]:
    """Each seat's standing this round in gold: gold marked for it, less what its distance
    from the goals, its broken tools and its bribes are worth (for search leaves)."""
    out = []
    for seat in range(state.game.players):
        value = GOLD * _marked(state, seat) - _distance(state, seat)
        value -= BROKEN * len(state.in_front[seat]) + BRIBE * state.bribes_made[seat]
        out.append(value / GOLD)
    return out
