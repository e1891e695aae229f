"""Role inference for Saboteur and Saboteur 2: who is likely to be what, from the public log.

``role_beliefs(view)`` gives, for every seat, a probability for each dwarf card
still possible for it, from the seat's view only:

* the prior: the dwarf cards nobody has seen (the deck minus the seat's own card
  and the cards it inspected), shared among the seats and the face-down piles;
* per-seat evidence from this round's moves (log-likelihood ratios, rules of
  thumb): dead ends and rockfalls lean saboteur, through tunnels and maps lean
  gold-digger, doors lean toward their colour, crystals toward a geologist;
* pairwise evidence: breaking someone's tools or trapping them says "not on my
  side", repairing or freeing them says "on my side".  Pairs are resolved by a
  few rounds of mean-field updates over the other seats' current beliefs.

``role_weights`` turns beliefs into the weights a determinizer deals dwarf
cards with (posterior over prior).  ``accuracy`` scores beliefs against the
true roles at a round's end.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.cards import Catalogue
from ..registry import shared_game
from .kept import Kept

SABOTEUR = "saboteur"
#: which side a role is on: +1 wants the gold reached, -1 does not, 0 either way
SIDE = {"digger": 1.0, "digger-blue": 1.0, "digger-green": 1.0, "boss": 1.0,
        "geologist": 0.0, "profiteer": 0.0, SABOTEUR: -1.0}
DEAD_END = 1.2  # a dead end laid: log-odds toward the saboteurs
THROUGH = 0.35  # a through tunnel laid: toward the diggers
ROCKFALL = 0.6
MAP = 0.4
PAIR = 1.2  # breaking / trapping (against) or repairing / freeing (for) a seat
DOOR = 0.9
CRYSTAL = 0.5

Beliefs = dict[int, dict[str, float]]


def _catalogue(view: Any) -> Catalogue:
    return shared_game(view.game, view.players).catalogue


def is_dead_end(cat: Catalogue, code: str) -> bool:
    """A path card none of whose segments joins two edges."""
    kind = cat[code]
    return kind.tile is not None and all(seg.bit_count() < 2 for seg in kind.tile.segments)


def _evidence(view: Any, cat: Catalogue) -> tuple[list[dict[str, float]],
                                                  list[tuple[int, int, float]]]:
    """Per seat: log-weight per role; and pairs (a, b, +strength same side / -against)."""
    n = view.players
    unary: list[dict[str, float]] = [Counter() for _ in range(n)]  # type: ignore[misc]
    pairs: list[tuple[int, int, float]] = []
    for actor, move in view.log[view.round_start:]:
        if "@" in move and not move.startswith(("map", "rockfall", "bribe")):
            code = move.split("@")[0]
            if code not in cat:
                continue
            kind = cat[code]
            if kind.category != "path":
                continue
            bad = unary[actor]
            if is_dead_end(cat, code):
                bad[SABOTEUR] += DEAD_END
            else:
                bad[SABOTEUR] -= THROUGH
            door = kind.features.door
            if door is not None:
                bad[f"digger-{door}"] += DOOR
                other = "green" if door == "blue" else "blue"
                bad[f"digger-{other}"] -= DOOR
            if kind.features.crystals:
                bad["geologist"] += CRYSTAL
        elif move.startswith("rockfall@"):
            unary[actor][SABOTEUR] += ROCKFALL
        elif move.startswith("map@"):
            unary[actor][SABOTEUR] -= MAP
        elif ">" in move and not move.startswith(("steal", "discard")):
            code, rest = move.split(">", 1)
            target = int(rest.split(":")[0])
            if target == actor or code not in cat:
                continue
            effect = cat[code].effect
            if effect in ("break", "trapped", "swap-hats"):
                pairs.append((actor, target, -PAIR))
            elif effect in ("repair", "free"):
                pairs.append((actor, target, PAIR))
    return unary, pairs


#: the last view asked about and the beliefs worked out for it (a bot's ranking, its
#: determinizer and its search all ask)
_LAST = Kept(1)


def role_beliefs(view: Any, iterations: int = 4) -> Beliefs:
    """Every seat's probability of holding each dwarf card (own seat: certain).

    The same view (object) asked about again gets the same beliefs without their being
    worked out again: read them, do not change them."""
    last = _LAST.get(iterations)
    if last is not None and last[0] is view:  # the view itself: an equal one may be another
        return last[1]  # type: ignore[no-any-return]
    beliefs = _role_beliefs(view, iterations)
    _LAST.put(iterations, (view, beliefs))
    return beliefs


def _role_beliefs(view: Any, iterations: int) -> Beliefs:
    cat = _catalogue(view)
    me = view.seat
    n = view.players
    game = shared_game(view.game, n, **getattr(view, "options", {}))
    known: dict[int, str] = dict(getattr(view, "inspected", ()))
    if me is not None and view.role is not None:
        known[me] = view.role
    pool = Counter(game.role_deck())  # type: ignore[attr-defined]
    for role in known.values():
        pool[role] -= 1
    pool = +pool
    unary, pairs = _evidence(view, cat)
    beliefs: Beliefs = {}
    for s in range(n):
        if s in known:
            beliefs[s] = {known[s]: 1.0}
    unknown = [s for s in range(n) if s not in known]
    total = sum(pool.values()) or 1
    prior = {r: c / total for r, c in pool.items()}
    for s in unknown:
        beliefs[s] = dict(prior)
    for _ in range(iterations):
        new: Beliefs = {}
        for s in unknown:
            logw = {r: math.log(p) + unary[s].get(r, 0.0) for r, p in prior.items() if p > 0}
            for a, b, strength in pairs:
                if s not in (a, b):
                    continue
                other = beliefs[b if s == a else a]
                other_side = sum(p * SIDE.get(r, 0.0) for r, p in other.items())
                for r in logw:
                    # same side: SIDE(r) * other_side > 0 is rewarded when strength > 0
                    logw[r] += strength * SIDE.get(r, 0.0) * other_side
            top = max(logw.values())
            weights = {r: math.exp(v - top) for r, v in logw.items()}
            z = sum(weights.values())
            new[s] = {r: w / z for r, w in weights.items()}
        beliefs.update(new)
    return beliefs


def role_weights(view: Any) -> dict[int, dict[str, float]]:
    """Weights for dealing dwarf cards in a determinizer: posterior over prior, per seat."""
    beliefs = role_beliefs(view)
    prior = prior_of(view)
    return {s: {r: p / prior[r] for r, p in b.items() if prior.get(r)}
            for s, b in beliefs.items() if s != view.seat and len(b) > 1}


def prior_of(view: Any) -> dict[str, float]:
    game = shared_game(view.game, view.players, **getattr(view, "options", {}))
    pool = Counter(game.role_deck())  # type: ignore[attr-defined]
    if view.role is not None:
        pool[view.role] -= 1
    for _, role in getattr(view, "inspected", ()):
        pool[role] -= 1
    pool = +pool
    total = sum(pool.values()) or 1
    return {r: c / total for r, c in pool.items()}


def saboteur_probability(beliefs: Beliefs, seat: int) -> float:
    return beliefs.get(seat, {}).get(SABOTEUR, 0.0)


def enemy_probability(beliefs: Beliefs, me: int, seat: int) -> float:
    """How likely ``seat`` plays against ``me`` (other side of the gold)."""
    mine = sum(p * SIDE.get(r, 0.0) for r, p in beliefs.get(me, {}).items())
    theirs = sum(p * SIDE.get(r, 0.0) for r, p in beliefs.get(seat, {}).items())
    return max(0.0, min(1.0, 0.5 - 0.5 * mine * theirs))


def accuracy(beliefs: Beliefs, roles: Sequence[str], me: int,
             prior: Mapping[str, float] | None = None) -> tuple[float, float]:
    """Mean probability given to the true role of the other seats, and the prior's.

    Beliefs beat the base rate when the first number is above the second.
    """
    got, base = [], []
    for s, role in enumerate(roles):
        if s == me or s not in beliefs:
            continue
        got.append(beliefs[s].get(role, 0.0))
        if prior is not None:
            base.append(prior.get(role, 0.0))
    mean = sum(got) / len(got) if got else 0.0
    return mean, (sum(base) / len(base) if base else 0.0)


__all__ = [
    "Beliefs",
    "accuracy",
    "enemy_probability",
    "prior_of",
    "role_beliefs",
    "role_weights",
    "saboteur_probability",
]
