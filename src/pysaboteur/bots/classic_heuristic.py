"""Rules of thumb for Saboteur and Saboteur 2, as one evaluation of the position after a move.

The bot imagines one world consistent with its view (dwarf cards dealt by its
role beliefs), tries each legal move in it and keeps the move it likes best:

* the side that wants the gold (gold-diggers, the boss, the profiteer) likes the
  open ends of the tunnel close to the goals that may hold the gold (a goal it
  saw to be stone does not count; the gold it saw counts alone), and many open
  ends; a saboteur likes the opposite: dead ends at the front, rockfalls on the
  tunnel, and the open ends far away;
* a round won for my side is worth most, lost least;
* broken tools and Trapped! cards hurt on my side and help on the other
  (weighted by how likely each seat is an enemy); repairs and "free at last"
  follow from that;
* maps on goals not yet seen, Thefts, doors of my colour, crystals for a
  geologist, inspections and hat swaps on suspects earn a little;
* passing throws cards away: a last resort.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, Discard, Pass, PlacePath, PlayOnCell, PlayOnPlayer
from ..engine.maze import xy
from ..games.classic.state import ClassicState
from .beliefs import SABOTEUR, SIDE, Beliefs, enemy_probability, is_dead_end

WIN = 60.0  # the round won for my side
NEAR = 3.0  # per step of the best open end toward the goals
OPEN_END = 0.4  # per open end
BROKEN = 5.0  # a broken tool or Trapped! in front of a player
PASS = 0.7  # per card passed away
FAR = 16.0  # distance when no open end is left


def targets(view: Any) -> list[tuple[int, int]]:
    """The face-down goals that may hold the gold, as far as the seat knows."""
    known = {(x, y): code for x, y, code in view.known_goals}
    gold = [xy for xy, code in known.items() if "gold" in code]
    if gold:
        return gold
    return [tuple(c) for c in view.face_down if tuple(c) not in known]  # type: ignore[misc]


def distance(state: ClassicState, goals: list[tuple[int, int]]) -> tuple[float, int]:
    """Steps from the best open end of the tunnel to a target goal, and the open ends."""
    maze = state.maze
    ends = [c for c in maze.reach_in[0] if c not in maze.hidden]
    if not goals:
        return 0.0, len(ends)
    cells = list(map(xy, ends))
    # one min over every (open end, goal): the same numbers, one call
    best = min(FAR, min((abs(x - gx) + abs(y - gy) for x, y in cells for gx, gy in goals),
                        default=FAR))
    return float(best), len(ends)


def evaluate(state: ClassicState, view: Any, beliefs: Beliefs, goals: list[tuple[int, int]],
             round_no: int) -> float:
    me = view.seat
    role = view.role
    side = SIDE.get(role, 0.0)
    wants_gold = role != SABOTEUR
    score = 0.0
    if state.round_no != round_no or state.is_terminal or len(state.results) >= round_no:
        result = state.results[round_no - 1].details
        return WIN if me in result["winners"] else -WIN
    if side != 0.0 or role == SABOTEUR:
        dist, ends = distance(state, goals)
        sign = 1.0 if wants_gold else -1.0
        score -= sign * NEAR * dist
        score += sign * OPEN_END * min(ends, 6)
    for s, front in enumerate(state.in_front):
        bad = sum(1 for c in front if c.startswith("break") or c == "trapped")
        if not bad:
            continue
        if s == me:
            score -= BROKEN * bad
        else:
            score += BROKEN * bad * (2 * enemy_probability(beliefs, me, s) - 1)
    return score


def action_bias(action: Action, view: Any, beliefs: Beliefs, cat: Any) -> float:
    me, role = view.seat, view.role
    kind = type(action)
    if kind is Pass or kind is Discard:
        cards = action.cards  # type: ignore[union-attr]
        cost = PASS * len(cards)
        if role != SABOTEUR:
            cost -= 0.3 * sum(is_dead_end(cat, c) for c in cards if cat[c].tile is not None)
        return -cost - (0.0 if kind is Pass else -1.0)
    if kind is PlayOnCell:
        a: Any = action
        if cat[a.card].effect == "map":
            seen = {(x, y) for x, y, _ in view.known_goals}
            return 1.5 if (a.x, a.y) not in seen and role != SABOTEUR else 0.3
        return 0.0
    if kind is PlacePath:
        a = action
        f = cat[a.card].features
        bonus = 0.0
        if f.door is not None and role.startswith("digger-"):
            bonus += 1.0 if role.endswith(f.door) else -2.0
        if f.crystals and role == "geologist":
            bonus += 1.5
        return bonus
    if kind is PlayOnPlayer:
        a = action
        effect = cat[a.card].effect
        enemy = enemy_probability(beliefs, me, a.target) if a.target != me else 0.0
        if effect == "theft":
            return 1.5
        if effect == "inspection":
            return 0.5
        if effect == "swap-hats":
            return 3.0 * (2 * enemy - 1) if a.target != me else (-1.0 if role != SABOTEUR else 1.0)
        if effect == "hands-off":
            return 1.0 * (2 * enemy - 1) if a.target != me else -2.0
        if effect == "swap-hand":
            return -1.0
    return 0.0


def ranked(view: Any, legal: list[Action], world: ClassicState, beliefs: Beliefs,
           jitter: list[float]) -> list[Action]:
    """The legal moves, best first, by how their results in ``world`` look
    (``jitter`` breaks ties)."""
    cat = world.game.catalogue
    goals = targets(view)
    round_no = view.round
    scored = []
    for i, action in enumerate(legal):
        trial = world.clone()
        trial.apply(action, check=False)
        score = evaluate(trial, view, beliefs, goals, round_no) + action_bias(
            action, view, beliefs, cat) + jitter[i]
        scored.append((-score, i))
    scored.sort()
    return [legal[i] for _, i in scored]


def choose(view: Any, legal: list[Action], world: ClassicState, beliefs: Beliefs,
           jitter: list[float]) -> Action:
    """The legal move whose result in ``world`` looks best."""
    return ranked(view, legal, world, beliefs, jitter)[0]


__all__ = ["action_bias", "choose", "evaluate", "ranked", "targets"]
