"""Rules of thumb for The Lost Mines, as one evaluation of the position after a move.

The bot infers who is on its side (:mod:`.lost_mines_beliefs`), imagines one
world consistent with its view (identities weighted by those beliefs), tries
each legal move in it and keeps the move whose result it likes best:

* treasures held count for whoever scores them: the bot itself, its team (its
  clan, or the other clan when it is a saboteur; nobody when it is selfish),
  against the other side; the dragon costs its holder;
* every pawn's *prospect*, the best treasure value it can walk to, discounted by
  the turns it needs (walking, and cards still to lay): so the bot moves toward
  mines and treasures, lays paths toward them, overcomes obstacles on its way,
  and traps, trolls and storms the other side's ways but not its own;
* passing throws cards away, looking (information cards) is worth a little;
* it proposes or accepts an early end only while its side is ahead and has
  little left to gain; otherwise it declines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.actions import (
    Action,
    Pass,
    PlayOnCell,
    PlayOnPlayer,
    PlayOnTreasure,
    ProposeEnd,
    Vote,
)
from ..engine.rng import Rng
from ..games.lost_mines import cards as C
from ..games.lost_mines.determinize import Determinizer
from ..games.lost_mines.state import CAT, ORIENT, TAKE, LostMinesState, round_points
from .kept import Kept
from .lost_mines_beliefs import beliefs, likelihoods
from .lost_mines_paths import MEAN_VALUE, prospect, targets, walk_costs

KAPPA = 2.5  # weight of a pawn's prospect against a treasure held
PASS = 0.4  # per card passed away
LOOK = 0.1  # an information card played
DRAGON = 2.0
#: how much the other side's points count against the bot's own (less than its own: treasures
#: are scored by someone collecting them, and a blocked path blocks everybody)
AGAINST = 0.3


def friendliness(view: Any, probs: Sequence[dict[str, float]]) -> list[float]:
    """How much each seat's points are worth to the viewer: 1 for itself, near 1 for a sure
    team mate, negative for the other side (by the identity beliefs)."""
    me, n = view.seat, view.players
    if view.identity == C.SELFISH:
        f = [-AGAINST / 2] * n
        f[me] = 1.0
        return f
    team = view.clans[me] if view.identity == C.LOYAL else C.other_clan(view.clans[me])
    f = []
    for s in range(n):
        if s == me:
            f.append(1.0)
            continue
        p = probs[s]
        same = view.clans[s] == team
        with_me = p[C.LOYAL] if same else p[C.SABOTEUR]
        against = p[C.SABOTEUR] if same else p[C.LOYAL]
        f.append(0.9 * with_me - AGAINST * against - AGAINST / 2 * p[C.SELFISH])
    return f


def held_value(state: LostMinesState, seat: int) -> float:
    return float(sum(CAT[state.layout[i]].value for i in state.collected[seat]))


def prospects(state: LostMinesState, avoid: dict[int, list[int]] | None = None) -> list[float]:
    """Each pawn's best discounted treasure value within walking and building reach."""
    maze = state.maze
    left: dict[str, int] = {}
    for i, code in enumerate(state.layout):
        if state.owner[i] < 0:
            kind = C.treasure_type(code)
            left[kind] = left.get(kind, 0) + 1
    goals = targets(maze, left)
    out = []
    for s, c in enumerate(state.pawn):
        mine = goals
        if avoid and s in avoid:
            mine = [(g, v) for g, v in goals if g not in avoid[s]]
        out.append(prospect(_walk_costs(state, c, state.pawn_seg[s]), mine))
    return out


#: walking costs kept by what they are worked out from, the last few hundred.  Half the
#: candidate moves a bot weighs leave a pawn's maze, start and obstacles as they were
#: (passes, cards on players, other pawns' moves), and the worlds it samples share them.
_WALKS = Kept(512)


def _walk_costs(state: LostMinesState, c: int, seg: int
                ) -> tuple[dict[int, int], dict[int, int]]:
    """``walk_costs`` from ``c``, kept: a state's maze changes only through its methods,
    which bump its version, and its forest tiles, traps and trolls are replaced, never
    changed in place; so the same objects and version mean the same costs.  An entry holds
    those objects, so that their ids stay theirs while it lives."""
    maze, overcome, traps, trolls = state.maze, state.overcome, state.traps, state.trolls
    key = (id(maze), maze.version, c, seg, id(overcome), id(traps), id(trolls))
    entry = _WALKS.get(key)
    if entry is None:
        costs = walk_costs(maze, c, (seg,), overcome, traps, trolls)
        entry = _WALKS.put(key, (costs, maze, overcome, traps, trolls))
    return entry[0]  # type: ignore[no-any-return]


def _pending_value(state: LostMinesState) -> float:
    """What the seat deciding a pending choice is about to get (take or a mine turned over)."""
    if state.phase == TAKE:
        return max(CAT[state.layout[i]].value for i in state.pending)
    if state.phase == ORIENT:
        kind = C.MINE_TYPE[state.maze.hidden[state.pending[0]]]
        if kind == C.DRAGON:
            return -DRAGON
        left = [i for i, code in enumerate(state.layout)
                if state.owner[i] < 0 and C.treasure_type(code) == kind]
        return MEAN_VALUE[kind] if left else 0.0
    return 0.0


def evaluate(state: LostMinesState, me: int, friend: Sequence[float],
             avoid: dict[int, list[int]] | None = None) -> float:
    """How good ``state`` looks for seat ``me`` (higher is better)."""
    score = 0.0
    far = prospects(state, avoid)
    for s, f in enumerate(friend):
        if f:
            score += f * (held_value(state, s) + KAPPA * far[s]
                          - (DRAGON if state.dragon == s else 0.0))
    if state.phase in (TAKE, ORIENT) and not state.terminal:
        score += friend[state.current] * _pending_value(state)
    return score


def side_lead(view: Any, friend: Sequence[float]) -> float:
    """Treasure value held by the viewer's side minus the other side's (type means for values
    the viewer has not seen)."""
    own = dict(zip(view.collected_slots[view.seat], view.own_treasures, strict=True))
    known = {**dict(view.known_treasures), **own}
    lead = 0.0
    for slot, kind, holder in view.treasures:
        if holder >= 0:
            value = CAT[known[slot]].value if slot in known else MEAN_VALUE[kind]
            lead += friend[holder] * value
    return lead


def choose(view: Any, legal: Sequence[Action], rng: Rng) -> Action:
    me = view.seat
    probs = beliefs(view)
    friend = friendliness(view, probs)
    first = legal[0]
    if isinstance(first, Vote):
        lead = side_lead(view, friend)
        return Vote(lead > 1.0 or (lead >= 0 and view.deck_size == 0))
    world = Determinizer(view, likelihoods(view)).sample(rng)
    avoid = {me: [c for c, code in world.seen_mines[me].items() if code == "mine-dragon"]}
    lead = side_lead(view, friend)
    best: Action = legal[0]
    best_score = float("-inf")
    for action in legal:
        trial = world.clone()
        trial.apply(action, check=False)
        if trial.terminal or trial.round_no != world.round_no:  # the move ended the round
            ended = trial.results[-1].details
            score = sum(f * (sum(CAT[t].value for t in held) - (DRAGON if ended["dragon"] == s
                                                                 else 0.0))
                        for s, (f, held) in enumerate(zip(friend, ended["treasures"],
                                                          strict=True)))
        else:
            score = evaluate(trial, me, friend, avoid)
        score += _bias(action, view, lead)
        score += rng.below(1000) * 1e-6  # breaks ties without favouring the list order
        if score > best_score:
            best, best_score = action, score
    return best


def _bias(action: Action, view: Any, lead: float) -> float:
    if isinstance(action, Pass):
        return -PASS * len(action.cards)
    if isinstance(action, ProposeEnd):
        return 1.0 if lead > 2.0 else -3.0
    if isinstance(action, (PlayOnTreasure, PlayOnPlayer)):
        return LOOK
    if isinstance(action, PlayOnCell) and CAT[action.card].effect == "info":
        return LOOK
    return 0.0


def leaf_values(state: LostMinesState) -> list[float]:
    """Each seat's points if the round ended now plus its side's prospects (a full world:
    identities are known in it), for search leaves."""
    held = [[state.layout[i] for i in slots] for slots in state.collected]
    points = round_points(state.dwarves, held, state.dragon)
    far = prospects(state)
    sides: dict[str, list[int]] = {clan: [] for clan in C.CLANS}
    for s, d in enumerate(state.dwarves):
        ident = C.identity_of(d)
        if ident == C.LOYAL:
            sides[C.clan_of(d)].append(s)
        elif ident == C.SABOTEUR:
            sides[C.other_clan(C.clan_of(d))].append(s)
    out = [float(p) for p in points]
    for members in sides.values():
        if members:
            share = KAPPA * sum(far[m] for m in members) / len(members)
            for m in members:
                out[m] += share
    for s, d in enumerate(state.dwarves):
        if C.identity_of(d) == C.SELFISH:
            out[s] += KAPPA * far[s]
    if state.phase in (TAKE, ORIENT):
        out[state.current] += _pending_value(state)
    return out
