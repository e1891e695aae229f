"""One small seeded generator per game (SplitMix64).

Its whole state is one integer, so cloning a game state copies it for free and
the same seed gives the same numbers on every platform and Python version
(``random.Random`` is neither cheap to copy nor promised stable across versions).

>>> a, b = Rng(7), Rng(7)
>>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat
from math import factorial
from operator import itemgetter, mul, rshift
from struct import unpack
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

# SplitMix64 for many steps at once (``Rng.next64s``): the states of n consecutive steps
# packed into one integer, 128 bits apart.  Each operation of the mix is then one
# operation on the whole pack, done in C: a sum or a product of a 64-bit number by a
# 64-bit constant stays inside its 128-bit lane, and every shift is followed by keeping
# each lane's low 64 bits, which drops whatever came over from the neighbouring lane.
_LANE = 128
_PACKED_FROM = 16  # shorter lists are shuffled one step at a time
_PACKS: dict[int, tuple[int, int, int]] = {}


def _pack(n: int) -> tuple[int, int, int]:
    """For n lanes: 1 in every lane, (k + 1) * gamma in lane k, the mask of the low halves
    (made once per n, then looked up in _PACKS)."""
    ones = sum(1 << (_LANE * k) for k in range(n))
    steps = sum((k + 1) * _GAMMA << (_LANE * k) for k in range(n))
    pack = _PACKS[n] = (ones, steps, ones * _MASK)
    return pack


def lehmer(number: int, items: Iterable[T]) -> list[T]:
    """``items`` reordered by the Lehmer code ``number`` (below ``len(items)!``): the
    digits of ``number`` in the mixed radix n, n - 1, ..., 1, the lowest first, each the
    index of the next item among those left.  The reference :meth:`Rng.permutation`
    follows (its samples must stay the same from version to version).

    >>> lehmer(0, "abc"), lehmer(1, "abc"), lehmer(5, "abc")
    (['a', 'b', 'c'], ['b', 'a', 'c'], ['c', 'b', 'a'])
    """
    pool = list(items)
    out = []
    for i in range(len(pool), 0, -1):
        number, j = divmod(number, i)
        out.append(pool.pop(j))
    return out


# Rng.permutation per length n: n! and how many 64-bit numbers to draw for a number below
# it (64 spare bits: the bias is below 2**-64); n! is slow to recompute for long lists
_PLANS: dict[int, tuple[int, int]] = {}


def _plan(n: int) -> tuple[int, int]:
    bound = factorial(n)
    plan = _PLANS[n] = (bound, bound.bit_length() // 64 + 2)
    return plan


# Short reorderings (goals, dwarf cards, seats) and the end of long ones are looked up:
# per n from 2 to _TABLED, for each Lehmer code x below n!, a getter of the items in the
# order ``lehmer(x, ...)`` puts them (a tuple out: a getter of 2 or more indices)
_TABLED = 6  # 6! = 720 getters: quick to make on first use (7! would take ~5 ms)
_ORDERS: dict[int, list[itemgetter[tuple[int, ...]]]] = {}


def _orders(n: int) -> list[itemgetter[tuple[int, ...]]]:
    """The getters of the n! reorderings of n items, by Lehmer code (made on first use).

    >>> [getter("abc") for getter in _orders(3)] == [tuple(lehmer(x, "abc")) for x in range(6)]
    True
    """
    orders = _ORDERS.get(n)
    if orders is None:
        orders = _ORDERS[n] = [itemgetter(*order) for order in _lehmer_orders(n)]
    return orders


def _lehmer_orders(n: int) -> list[tuple[int, ...]]:
    """``[tuple(lehmer(x, range(n))) for x in range(factorial(n))]``, n from 2, made from
    the getters for n - 1 (a fraction of the work): code x = d + n * y takes d first, then
    the other n - 1 in the order code y gives them.

    >>> _lehmer_orders(4) == [tuple(lehmer(x, range(4))) for x in range(24)]
    True
    """
    if n == 2:
        return [(0, 1), (1, 0)]
    others = [tuple(i for i in range(n) if i != d) for d in range(n)]
    return [(d, *get(rest)) for get in _orders(n - 1) for d, rest in enumerate(others)]


def reorder(number: int, items: Sequence[T]) -> list[T]:
    """:func:`lehmer` (``number`` below ``len(items)!``), the short cases looked up.

    >>> reorder(4, "abc") == lehmer(4, "abc") and reorder(0, "a") == ["a"]
    True
    """
    n = len(items)
    if n <= _TABLED:
        if n < 2:
            return list(items)
        return list((_ORDERS.get(n) or _orders(n))[number](items))
    pool = list(items)
    out = []
    for i in range(n, _TABLED, -1):
        number, j = divmod(number, i)
        out.append(pool.pop(j))
    # ``number`` is now below _TABLED!: the rest of the decoding is looked up
    out += (_ORDERS.get(_TABLED) or _orders(_TABLED))[number](pool)
    return out


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + _GAMMA) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (multiply-shift; the bias is below 2**-50).

        ``next64`` written out: this is the hottest call of random play.
        """
        self.state = s = (self.state + _GAMMA) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((s ^ (s >> 31)) * n) >> 64

    def next64s(self, n: int) -> list[int]:
        """``[self.next64() for _ in range(n)]``, the n steps computed side by side.

        >>> a, b = Rng(5), Rng(5)
        >>> a.next64s(40) == [b.next64() for _ in range(40)] and a.state == b.state
        True
        """
        if n <= 0:
            return []
        return list(unpack(f"<{2 * n}Q", self._lanes(n).to_bytes(16 * n, "little"))[::2])

    def _lanes(self, n: int) -> int:
        """The next n numbers packed into one integer, number k in lane k (``_pack``)."""
        ones, steps, low = _PACKS.get(n) or _pack(n)
        s = self.state
        z = (s * ones + steps) & low  # lane k: the state after k + 1 steps
        z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
        z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
        self.state = (s + n * _GAMMA) & _MASK
        return (z ^ (z >> 31)) & low

    def _big(self, words: int) -> int:
        """``words`` numbers read as the 64-bit digits of one integer, the first the most
        significant: what ``number = number << 64 | self.next64()`` gives, ``words`` times.

        >>> a, b = Rng(4), Rng(4)
        >>> x = 0
        >>> for _ in range(5):
        ...     x = x << 64 | a.next64()
        >>> b._big(5) == x and b._big(2) == a.next64() << 64 | a.next64()
        True
        """
        z = self._lanes(words)
        if words == 2:
            return (z & _MASK) << 64 | z >> _LANE
        # the lanes' low halves (every other 8 bytes), the last lane first
        low_halves = memoryview(z.to_bytes(16 * words, "little")).cast("Q")[-2::-2]
        return int.from_bytes(low_halves.tobytes(), "little")

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place: ``j = below(i + 1)`` for i from the last index down (every
        round deals with it, so the numbers are drawn side by side, ``next64s``)."""
        n = len(items)
        if n >= _PACKED_FROM:
            js = map(rshift, map(mul, self.next64s(n - 1), range(n, 1, -1)), repeat(64))
            for i, j in zip(range(n - 1, 0, -1), js, strict=True):
                items[i], items[j] = items[j], items[i]
            return
        s = self.state
        for i in range(n - 1, 0, -1):  # below(i + 1) written out
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s

    def lehmer_code(self, n: int) -> int:
        """A uniformly random number below n! (0, drawing nothing, for n below 2): the
        Lehmer code :meth:`permutation` reorders n items by, from the same numbers.

        >>> a, b = Rng(8), Rng(8)
        >>> a.permutation(range(30)) == reorder(b.lehmer_code(30), range(30))
        True
        """
        if n < 2:
            return 0
        bound, words = _PLANS.get(n) or _plan(n)
        return self._big(words) % bound

    def permutation(self, items: Sequence[T]) -> list[T]:
        """A uniformly random reordering of ``items`` (a new list), several times faster
        than :meth:`shuffle` for long lists: one big random number read as a Lehmer code.

        >>> sorted(Rng(3).permutation(list("abcde")))
        ['a', 'b', 'c', 'd', 'e']
        >>> a, b = Rng(8), Rng(8)  # 30! < 2**108: two 64-bit numbers and 64 spare bits
        >>> a.permutation(range(30)) == lehmer(b._big(3) % factorial(30), range(30))
        True
        """
        return reorder(self.lehmer_code(len(items)), items)

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def clone(self) -> Rng:
        return Rng(self.state)


#: a call of :class:`Draws`: ``next64()`` (any other number n: ``lehmer_code(n)``)
RAW = -1
_NO_LANES = slice(0)


class Draws:
    """A fixed sequence of ``next64()`` (:data:`RAW`) and ``lehmer_code(n)`` calls, their
    numbers made side by side: a determinizer draws the same calls for every sample, and
    making all their numbers at once costs about what one ``lehmer_code`` does.

    >>> a, b = Rng(6), Rng(6)
    >>> Draws([RAW, 30, 1, 4, RAW]).take(a) == [b.next64(), b.lehmer_code(30),
    ...     b.lehmer_code(1), b.lehmer_code(4), b.next64()]
    True
    >>> a.state == b.state
    True
    """

    __slots__ = ("calls", "words")

    def __init__(self, calls: Iterable[int]) -> None:
        #: per call, among the 64-bit halves of the lanes made (``Rng._lanes``, the low half
        #: of lane k at 2k): a number's index (-1: no number, the call gives 0), or for a
        #: Lehmer code its bound and its lanes' low halves, last first (the first lane is the
        #: most significant)
        self.calls: list[tuple[int, int, slice]] = []
        at = 0
        for n in calls:
            if n == RAW:
                self.calls.append((2 * at, 0, _NO_LANES))
                at += 1
            elif n < 2:  # nothing to draw: the one order
                self.calls.append((-1, 0, _NO_LANES))
            else:
                bound, words = _PLANS.get(n) or _plan(n)
                stop = 2 * at - 1
                lanes = slice(2 * (at + words) - 2, stop if stop >= 0 else None, -2)
                self.calls.append((-1, bound, lanes))
                at += words
        self.words = at

    def take(self, rng: Rng) -> list[int]:
        """What the calls give, in order."""
        halves = memoryview(rng._lanes(self.words).to_bytes(16 * self.words, "little")
                            ).cast("Q")
        out: list[int] = []
        for at, bound, lanes in self.calls:
            if bound:
                out.append(int.from_bytes(halves[lanes].tobytes(), "little") % bound)
            else:
                out.append(halves[at] if at >= 0 else 0)
        return out


# numbers made side by side per refill of a Batch: a short first block (short play-outs
# near a round's end would pay for numbers they give back), then long ones
_FIRST_BLOCK, _BLOCK = 16, 64


class Batch:
    """``rng.below`` for a long run of draws (a play-out), the numbers made side by side.

    ``below(n)`` takes the same raw number ``rng.below(n)`` would (the number drawn does
    not depend on ``n``, only its use does), from a block made by :meth:`Rng.next64s`;
    :meth:`close` gives back the numbers made but not used, so that ``rng`` ends exactly
    where the same calls of ``rng.below`` would have left it.  Nothing else may draw from
    ``rng`` between the first ``below`` and ``close``.

    >>> a, b = Rng(9), Rng(9)
    >>> batch = Batch(b)
    >>> [a.below(n) for n in range(1, 80)] == [batch.below(n) for n in range(1, 80)]
    True
    >>> batch.close(); a.state == b.state
    True
    """

    __slots__ = ("block", "left", "rng")

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.left: list[int] = []  # made, not used yet; the next one last
        self.block = _FIRST_BLOCK

    def below(self, n: int) -> int:
        left = self.left
        if not left:
            left += self.rng.next64s(self.block)
            left.reverse()
            self.block = _BLOCK
        return (left.pop() * n) >> 64

    def close(self) -> None:
        rng = self.rng
        rng.state = (rng.state - len(self.left) * _GAMMA) & _MASK
        self.left.clear()
