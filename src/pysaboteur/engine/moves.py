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


def pass_actions(hand: Sequence[str], most: int) -> list[Pass]:
    """Pass by discarding 1 to ``most`` cards."""
    out: list[Pass] = []
    for n in range(1, min(most, len(hand)) + 1):
        out += [Pass(combo) for combo in card_combinations(hand, n)]
    return out


def discard_actions(hand: Sequence[str], removable: Iterable[str], n: int) -> list[Discard]:
    """Discard ``n`` cards to remove one card lying in front of the player."""
    targets = sorted(set(removable))
    if len(hand) < n or not targets:
        return []
    combos = card_combinations(hand, n)
    return [Discard(combo, removed) for removed in targets for combo in combos]
