"""The generator's fast paths draw exactly the numbers of its plain definition (``next64``):
same seed, same games, whatever the path."""

from __future__ import annotations

from pysaboteur.engine.rng import Batch, Rng

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


def test_a_batch_draws_what_below_draws_and_gives_back_the_rest() -> None:
    """``Batch.below`` equals ``Rng.below`` number for number, across block refills, and
    after ``close`` the generator is where the same ``below`` calls leave it."""
    for seed in SEEDS:
        for draws in (0, 1, 15, 16, 17, 80, 81, 200):
            a, b = Rng(seed), Rng(seed)
            batch = Batch(b)
            bounds = [(k * 7919) % 1000 + 1 for k in range(draws)]
            assert [batch.below(n) for n in bounds] == [a.below(n) for n in bounds]
            batch.close()
            assert b.state == a.state
            assert b.below(10**9) == a.below(10**9)
