"""Enumerating the card-game options every variant shares: passing and discarding to repair.

Moves are generated per distinct combination of card kinds, never per hand slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, repeat
from typing import Any, NamedTuple

from .actions import Discard, Pass


def card_combinations(hand: Sequence[str], n: int) -> list[tuple[str, ...]]:
    """The distinct multisets of ``n`` cards from ``hand``, each as a sorted tuple."""
    return sorted(set(combinations(sorted(hand), n)))


_new = tuple.__new__  # builds a NamedTuple action without its Python-level __new__

# Pass actions are values: the same combination is the same object every time,
# which spares building thousands of tuples per second in random play.  Passes of
# one card are also kept by the card itself, so that listing them needs no key tuple.


class _Passes(dict[tuple[str, ...], Pass]):
    """Pass actions by card combination, each made once on first use."""

    def __missing__(self, combo: tuple[str, ...]) -> Pass:
        action = self[combo] = Pass(combo)
        return action


class _Singles(dict[str, Pass]):
    """Passes of one card, by the card (the same objects as in ``_PASSES``)."""

    def __missing__(self, code: str) -> Pass:
        action = self[code] = _PASSES[code,]
        return action


_PASSES = _Passes()
#: passes of one card, by the card: ``SINGLES[code]``
SINGLES = _Singles()


def _pass(combo: tuple[str, ...]) -> Pass:
    return _PASSES[combo]


def pass_actions(hand: Sequence[str], most: int) -> list[Pass]:
    """Pass by discarding 1 to ``most`` cards (in ``card_combinations`` order)."""
    kinds = sorted(set(hand))
    out = [SINGLES[k] for k in kinds]
    if most >= 2 and len(hand) >= 2:
        last = len(kinds) - 1
        for i, k in enumerate(kinds):
            if hand.count(k) > 1:
                out.append(_pass((k, k)))
            if i < last:
                out += [_PASSES[k, other] for other in kinds[i + 1:]]
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


# -- passes by duplicate pattern (the menus' path) ---------------------------------------------
# A sorted hand's distinct 1-, 2- and 3-card combinations depend only on which of its
# cards are equal, not on what they are: one template per *duplicate pattern*
# (``tuple(map(hand.index, hand))``) gives the passes' count at once and their cards
# by indexing.  The order is that of ``pass_actions``.

class Template(NamedTuple):
    """Distinct 1-, 2- and 3-card combinations of a sorted hand, as index tuples.

    Indexes point at the first copy of each card, so the card tuples built from
    them are sorted and come in lexicographic order (as ``card_combinations``).
    The columns (``pair_a``...) let listing build tuples with ``map`` and ``zip``.
    ``passes[most]``: how many passes of 1 to ``most`` cards there are (``most`` <= 3).
    """

    ones: list[int]
    pairs: list[tuple[int, int]]
    triples: list[tuple[int, int, int]]
    pair_a: list[int]
    pair_b: list[int]
    triple_a: list[int]
    triple_b: list[int]
    triple_c: list[int]
    passes: tuple[int, int, int, int]


TEMPLATES: dict[tuple[int, ...], Template] = {}


def template(hand: list[str]) -> Template:
    """The template of the *sorted* ``hand`` (by its duplicate pattern)."""
    key = tuple(map(hand.index, hand))
    tpl = TEMPLATES.get(key)
    if tpl is None:
        ones = sorted(set(key))
        pairs = sorted({(key[i], key[j]) for i, j in combinations(range(len(key)), 2)})
        triples = sorted({(key[i], key[j], key[k])
                          for i, j, k in combinations(range(len(key)), 3)})
        passes = (0, len(ones), len(ones) + len(pairs), len(ones) + len(pairs) + len(triples))
        tpl = TEMPLATES[key] = Template(ones, pairs, triples, [p[0] for p in pairs],
                                        [p[1] for p in pairs], [t[0] for t in triples],
                                        [t[1] for t in triples], [t[2] for t in triples],
                                        passes)
    return tpl


def hand_template(h: list[str]) -> Template:
    """The template of the *sorted* hand ``h``; a hand of all-different cards (the
    commonest) is recognised without working out its duplicate pattern."""
    if len(set(h)) == len(h):
        return DISTINCT[len(h)]
    return TEMPLATES.get(tuple(map(h.index, h))) or template(h)


class _Distinct(dict[int, Template]):
    """The template of a hand of ``n`` all-different cards, by ``n``."""

    def __missing__(self, n: int) -> Template:
        tpl = self[n] = template(sorted(map(str, range(n))))
        return tpl


#: ``DISTINCT[n]``: the template of any sorted hand of ``n`` different cards
DISTINCT = _Distinct()


def nth_template_pass(h: list[str], tpl: Template, i: int) -> Pass:
    """The ``i``-th pass of the sorted hand ``h`` (``pass_actions(h, most)[i]``)."""
    ones = tpl[0]
    if i < len(ones):
        return SINGLES[h[ones[i]]]
    i -= len(ones)
    pairs = tpl[1]
    if i < len(pairs):
        a, b = pairs[i]
        return _PASSES[h[a], h[b]]
    a, b, c = tpl[2][i - len(pairs)]
    return _new(Pass, ((h[a], h[b], h[c]),))


def template_passes(h: list[str], tpl: Template, count: int) -> list[Pass]:
    """The first ``count`` passes of the sorted hand ``h`` (``tpl.passes[most]`` for all of
    them)."""
    out: list[Pass] = []
    add_template_passes(out, h, tpl, count)
    return out


def add_template_passes(out: list[Any], h: list[str], tpl: Template, count: int) -> None:
    """Add to ``out`` the first ``count`` passes of the sorted hand ``h`` (``tpl.passes[most]``
    for all of them; a menu listing its actions adds them to its list, without a list of
    their own).  The card tuples are built by ``map`` and ``zip``; passes of one or two cards
    are looked up (cheaper than making a NamedTuple), the many triples made."""
    if len(tpl.ones) == len(h):  # all different: the hand's own combinations, in order
        out += map(SINGLES.__getitem__, h)
        if count > len(h):
            out += map(_PASSES.__getitem__, combinations(h, 2))
            if count > tpl.passes[2]:
                out += map(_new, repeat(Pass), zip(combinations(h, 3)))
        return
    get = h.__getitem__
    out += map(SINGLES.__getitem__, map(get, tpl.ones))
    if count > len(tpl.ones):
        out += map(_PASSES.__getitem__,
                   zip(map(get, tpl.pair_a), map(get, tpl.pair_b), strict=True))
        if count > tpl.passes[2]:
            triples = zip(map(get, tpl.triple_a), map(get, tpl.triple_b),
                          map(get, tpl.triple_c), strict=True)
            out += map(_new, repeat(Pass), zip(triples))
