"""One small seeded generator per game (SplitMix64).

Its whole state is one integer, so cloning a game state copies it for free and
the same seed gives the same numbers on every platform and Python version
(``random.Random`` is neither cheap to copy nor promised stable across versions).

>>> a, b = Rng(7), Rng(7)
>>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
True
"""

from __future__ import annotations

from math import factorial
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


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

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place (``below(i + 1)`` written out: every round deals with it)."""
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            s = (s + _GAMMA) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s

    def permutation(self, items: list[T]) -> list[T]:
        """A uniformly random reordering of ``items`` (a new list), several times faster
        than :meth:`shuffle` for long lists: one big random number read as a Lehmer code.

        >>> sorted(Rng(3).permutation(list("abcde")))
        ['a', 'b', 'c', 'd', 'e']
        """
        n = len(items)
        if n < 2:
            return list(items)
        bound = factorial(n)
        words = bound.bit_length() // 64 + 2  # 64 spare bits: the bias is below 2**-64
        number = 0
        for _ in range(words):
            number = number << 64 | self.next64()
        number %= bound
        pool = list(items)
        out = []
        for i in range(n, 0, -1):
            number, j = divmod(number, i)
            out.append(pool.pop(j))
        return out

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def clone(self) -> Rng:
        return Rng(self.state)
