"""The generator's fast paths draw exactly the numbers of its plain definition (``next64``):
same seed, same games, whatever the path."""

from __future__ import annotations

from pysaboteur.engine.rng import Rng

SEEDS = (0, 1, 7, 123456789, 2**63, 2**64 - 1, 2**64 - 5)


def reference_shuffle(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates with one ``next64`` per step: what ``Rng.shuffle`` must equal."""
    for i in range(len(items) - 1, 0, -1):
        j = (rng.next64() * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]


def test_next64s_is_next64_side_by_side() -> None:
    for seed in SEEDS:
        for n in (0, 1, 2, 15, 16, 70, 300):
            a, b = Rng(seed), Rng(seed)
            assert a.next64s(n) == [b.next64() for _ in range(n)]
            assert a.state == b.state


def test_shuffle_draws_as_the_reference_for_every_length() -> None:
    """Short lists step one at a time, longer ones draw side by side: both as the reference."""
    for seed in SEEDS:
        for n in range(0, 130):
            a, b = Rng(seed + n), Rng(seed + n)
            items, expected = list(range(n)), list(range(n))
            a.shuffle(items)
            reference_shuffle(b, expected)
            assert items == expected and a.state == b.state


def test_below_is_next64_scaled() -> None:
    for seed in SEEDS:
        a, b = Rng(seed), Rng(seed)
        for n in (1, 2, 7, 52, 1 << 40, 1 << 64):
            assert a.below(n) == (b.next64() * n) >> 64
