"""Helpers for checking view secrecy: dealing anew what a seat cannot know."""

from __future__ import annotations

from collections.abc import Sequence

from .rng import Rng


def redeal(rng: Rng, piles: Sequence[list[str]]) -> list[list[str]]:
    """Shuffle the cards of ``piles`` together and deal them back, each pile keeping its size.

    >>> redeal(Rng(1), [["a"], ["b", "c"]]) in ([["a"], ["b", "c"]], [["b"], ["a", "c"]],
    ...     [["c"], ["a", "b"]], [["a"], ["c", "b"]], [["b"], ["c", "a"]], [["c"], ["b", "a"]])
    True
    """
    pool = [c for pile in piles for c in pile]
    rng.shuffle(pool)
    out = []
    for pile in piles:
        out.append(pool[:len(pile)])
        pool = pool[len(pile):]
    return out
