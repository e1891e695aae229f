"""Enumerating the card-game options every variant shares: passing and discarding to repair.

Moves are generated per distinct combination of card kinds, never per hand slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .actions import Discard, Pass


def card_combinations(hand: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The distinct multisets of ``n`` cards from ``hand``, each as a sorted tuple."""
    return sorted(set(combinations(sorted(hand), n)))


# Pass actions are values: the same combination is the same object every time,
# which spares building thousands of tuples per second in random play.
_PASSES: dict[tuple[str, ...], Pass] = {}


def _pass(combo: tuple[str, ...]) -> Pass:
    action = _PASSES.get(combo)
    if action is None:
        action = _PASSES[combo] = Pass(combo)
    return action


def pass_actions(hand: Sequence[str], most: int) -> list[Pass]:
    """Pass by discarding 1 to ``most`` cards (in ``card_combinations`` order)."""
    kinds = sorted(set(hand))
    get = _PASSES.get
    out = [get((k,)) or _pass((k,)) for k in kinds]
    if most >= 2 and len(hand) >= 2:
        last = len(kinds) - 1
        for i, k in enumerate(kinds):
            if hand.count(k) > 1:
                out.append(_pass((k, k)))
            if i < last:
                out += [get((k, other)) or _pass((k, other)) for other in kinds[i + 1:]]
    for n in range(3, min(most, len(hand)) + 1):
        out += [_pass(combo) for combo in card_combinations(hand, n)]
    return out


def discard_actions(hand: Sequence[str], removable: Iterable[str], n: int) -> list[Discard]:
    """Discard ``n`` cards to remove one card lying in front of the player."""
    targets = sorted(set(removable))
    if len(hand) < n or not targets:
        return []
    combos = card_combinations(hand, n)
    return [Discard(combo, removed) for removed in targets for combo in combos]


# -- counting and ranking without building lists (the rollout path) ---------------------------

def _multiplicities(hand: Sequence[str]) -> tuple[list[str], list[int]]:
    kinds = sorted(set(hand))
    return kinds, [hand.count(k) for k in kinds]


def _subsets(mults: Sequence[int], start: int, k: int) -> int:
    """How many size-``k`` sub-multisets use only kinds ``start..``."""
    ways = [1] + [0] * k  # coefficients of the product of (1 + x + ... + x^m)
    for m in mults[start:]:
        new = [0] * (k + 1)
        for size, w in enumerate(ways):
            if w:
                for take in range(min(m, k - size) + 1):
                    new[size + take] += w
        ways = new
    return ways[k]


def combination_count(hand: Sequence[str], n: int) -> int:
    """``len(card_combinations(hand, n))``, without listing them."""
    if n == 1:
        return len(set(hand))
    if n == 2:  # distinct pairs plus doubles: the common case, in closed form
        kinds = set(hand)
        d = len(kinds)
        return d * (d - 1) // 2 + (len(hand) - d and sum(hand.count(k) > 1 for k in kinds))
    return _subsets(_multiplicities(hand)[1], 0, n)


def nth_combination(hand: Sequence[str], n: int, index: int) -> tuple[str, ...]:
    """``card_combinations(hand, n)[index]``, without listing them (lexicographic unranking)."""
    kinds, mults = _multiplicities(hand)
    if n == 1:
        return (kinds[index],)
    if n == 2:  # walk the pairs in closed form: (k, k) if doubled, then (k, later kinds)
        for i, k in enumerate(kinds):
            double = mults[i] > 1
            block = double + len(kinds) - i - 1
            if index < block:
                if double:
                    if index == 0:
                        return (k, k)
                    index -= 1
                return (k, kinds[i + 1 + index])
            index -= block
        raise IndexError("combination index out of range")
    out: list[str] = []
    start = 0
    while len(out) < n:
        for i in range(start, len(kinds)):
            mults[i] -= 1
            block = _subsets(mults, i, n - len(out) - 1) if mults[i] >= 0 else 0
            if index < block:
                out.append(kinds[i])
                start = i
                break
            mults[i] += 1
            index -= block
        else:
            raise IndexError("combination index out of range")
    return tuple(out)


def pass_count(hand: Sequence[str], most: int) -> int:
    """``len(pass_actions(hand, most))``."""
    return sum(combination_count(hand, n) for n in range(1, min(most, len(hand)) + 1))


def nth_pass(hand: Sequence[str], most: int, index: int) -> Pass:
    """``pass_actions(hand, most)[index]``."""
    kinds = sorted(set(hand))
    if index < len(kinds):  # a single card: the common case, no counting needed
        return _pass((kinds[index],))
    index -= len(kinds)
    for n in range(2, min(most, len(hand)) + 1):
        count = combination_count(hand, n)
        if index < count:
            return _pass(nth_combination(hand, n, index))
        index -= count
    raise IndexError("pass index out of range")
