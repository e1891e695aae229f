"""How far a Lost Mines pawn is from the mines: the measure the heuristic, the role
inference and the search's leaf values share.

``walk_costs`` spreads from a pawn along the segments of the face-up cards, as
a pawn walks (no obstacle that is not overcome, no joint a troll blocks; a trap
costs extra, a face-down mine is entered but not passed).  ``turns_to`` turns
that into the number of turns a seat needs to stand on a target: walking is
three steps a turn, a missing card is one turn (somebody has to lay it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from heapq import heappop, heappush

from ..engine.maze import Maze
from ..engine.tiles import EDGES, OPPOSITE, E, N, S, W
from ..games.lost_mines import cards as C
from ..games.lost_mines.state import BOARD, CAT

TRAP_COST = 4  # steps a trap is worth avoiding (it costs a card)
STEPS_PER_TURN = 3
FAR = 15.0  # turns, for a target nothing leads toward
CARD_TURNS = 1.3  # a card to lay, and the steps over it

_STRIDE = 1 << 10
_DELTA = {N: -1, E: _STRIDE, S: 1, W: -_STRIDE}
#: per oriented tile and segment: (cell delta, edge entered, joint delta, joint side)
_SEG_STEPS = tuple(
    tuple(tuple((_DELTA[e], OPPOSITE[e], *((_DELTA[e], OPPOSITE[e]) if e in (N, W) else (0, e)))
                for e in EDGES if e & seg) for seg in segs)
    for segs in CAT.segments)
_OBSTACLE = tuple(f.obstacle for f in CAT.features)


def walk_costs(maze: Maze, start: int, segments: Iterable[int], overcome: set[int] | frozenset[int],
               traps: Iterable[int], trolls: Mapping[int, int] | Iterable[int],
               ) -> tuple[dict[int, int], dict[int, int]]:
    """Cheapest walking costs (steps, traps extra) from ``start``: to every cell a pawn can
    reach (face-down mines next to a reached open edge included: entered, not passed), and
    to every empty board cell a reached open edge points at (where a card would extend the
    pawn's way: the *frontier*)."""
    cells, hidden = maze.cells, maze.hidden
    trap_set = set(traps)
    troll_set = set(trolls)
    best: dict[int, int] = {start: 0}
    frontier: dict[int, int] = {}
    seen: set[tuple[int, int]] = set()
    heap = [(0, start, s) for s in segments]
    seg_of_edge = CAT.seg_of_edge
    while heap:
        cost, c, s = heappop(heap)
        if (c, s) in seen:
            continue
        seen.add((c, s))
        for delta, opposite, jd, js in _SEG_STEPS[cells[c]][s]:
            j = (c + jd) << 4 | js
            if j in troll_set:
                continue
            n = c + delta
            step = cost + 1 + (TRAP_COST if j in trap_set else 0)
            t = cells.get(n)
            if t is None:
                if n in hidden:
                    if step < best.get(n, 1 << 30):
                        best[n] = step
                elif n in BOARD and step < frontier.get(n, 1 << 30):
                    frontier[n] = step
                continue
            s2 = seg_of_edge[t][opposite]
            if s2 < 0 or (_OBSTACLE[t] is not None and n not in overcome):
                continue
            if step < best.get(n, 1 << 30):
                best[n] = step
            if (n, s2) not in seen:
                heappush(heap, (step, n, s2))
    return best, frontier


def turns_to(costs: tuple[Mapping[int, int], Mapping[int, int]], target: int) -> float:
    """Turns until a pawn with these walking costs could stand on ``target``: walking, and
    one turn per card still to lay from the frontier (somebody has to lay it)."""
    reach, frontier = costs
    if target in reach:
        return reach[target] / STEPS_PER_TURN
    tx, ty = target >> 10, target & 1023
    best = FAR
    for c, cost in frontier.items():
        gap = abs((c >> 10) - tx) + abs((c & 1023) - ty)
        turns = cost / STEPS_PER_TURN + gap * CARD_TURNS
        if turns < best:
            best = turns
    return best


MEAN_VALUE = {kind: sum(k.value * k.count for k in CAT.kinds if k.category == "treasure"
                        and k.code.startswith(kind + "-"))
              / sum(k.count for k in CAT.kinds if k.category == "treasure"
                    and k.code.startswith(kind + "-"))
              for kind in C.TREASURE_TYPES}
#: a face-down mine: one in four is the dragon
HIDDEN_MINE_VALUE = 0.75 * sum(MEAN_VALUE.values()) / len(MEAN_VALUE)
DISCOUNT = 0.85  # a treasure a turn further away is worth this much less


def targets(maze: Maze, left: Mapping[str, int],
            avoid: Iterable[int] = ()) -> list[tuple[int, float]]:
    """Cells worth standing on, with what one is worth: face-down mines and revealed
    treasure mines with treasures of their type still laid out (``left``: type -> count)."""
    skip = set(avoid)
    out = [(c, HIDDEN_MINE_VALUE) for c in maze.hidden if c not in skip]
    for c, t in maze.cells.items():
        kind = C.MINE_TYPE.get(CAT.codes[t])
        if kind is not None and kind != C.DRAGON and left.get(kind, 0) > 0:
            out.append((c, MEAN_VALUE[kind]))
    return out


def prospect(costs: tuple[Mapping[int, int], Mapping[int, int]],
             goals: list[tuple[int, float]]) -> float:
    """The best discounted treasure value a pawn can go for."""
    return max((value * DISCOUNT ** turns_to(costs, c) for c, value in goals), default=0.0)
