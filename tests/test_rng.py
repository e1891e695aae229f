"""The generator's fast paths draw exactly the numbers of its plain definition (``next64``):
same seed, same games, whatever the path."""

from __future__ import annotations

from math import factorial

from pysaboteur.engine.rng import _TABLED, Batch, Rng, _orders, lehmer

SEEDS = (0, 1, 7, 123456789, 2**63, 2**64 - 1, 2**64 - 5)


def reference_shuffle(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates with one ``next64`` per step: what ``Rng.shuffle`` must equal."""
    for i in range(len(items) - 1, 0, -1):
        j = (rng.next64() * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]


def reference_permutation(rng: Rng, items: list[int]) -> list[int]:
    """A Lehmer code from ``next64`` one at a time, decoded one digit at a time: what
    ``Rng.permutation`` must equal (determinizations sampled before its fast paths)."""
    n = len(items)
    if n < 2:
        return list(items)
    bound = factorial(n)
    number = 0
    for _ in range(bound.bit_length() // 64 + 2):
        number = number << 64 | rng.next64()
    number %= bound
    pool, out = list(items), []
    for i in range(n, 0, -1):
        number, j = divmod(number, i)
        out.append(pool.pop(j))
    return out


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


def test_permutation_draws_and_orders_as_the_reference_for_every_length() -> None:
    """Short lists are looked up, long ones decoded to their last few items, the big
    number drawn side by side: the same list and the same generator state as the reference."""
    for seed in SEEDS:
        for n in range(0, 140):
            for k in range(3 if n <= 2 * _TABLED else 1):
                a, b = Rng(seed + 1000 * k + n), Rng(seed + 1000 * k + n)
                items = [10 * i for i in range(n)]
                assert a.permutation(items) == reference_permutation(b, items)
                assert a.state == b.state


def test_the_lookup_tables_are_the_lehmer_decoding_of_every_code() -> None:
    """Every table entry, for every length looked up (and the long lists' tails)."""
    for n in range(2, _TABLED + 1):
        items = [chr(ord("a") + i) for i in range(n)]
        orders = _orders(n)
        assert len(orders) == factorial(n)
        assert [list(get(items)) for get in orders] == [lehmer(x, items)
                                                        for x in range(factorial(n))]
        assert len({get(items) for get in orders}) == factorial(n)  # all distinct


def test_permutation_of_duplicates_and_tuples() -> None:
    a, b = Rng(11), Rng(11)
    items = ["x", "y", "x", "z", "y", "x", "w", "x", "y", "z"]
    assert a.permutation(tuple(items)) == reference_permutation(b, items)
