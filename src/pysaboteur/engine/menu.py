"""Legal actions as a *menu*: groups of actions counted without being built.

A menu entry is ``(count, tag, a, b)``: ``count`` actions of one kind (``tag``)
that share a card, each told apart by ``a`` / ``b`` (cells, card combinations,
a ready list...).  A game's state builds its menu and says how to decode one
entry's ``i``-th action; everything else is here, once for every game:

* ``legal_actions()`` expands the menu (games may expand faster themselves);
* ``legal_count()``, ``legal_action(i)`` and ``random_action(rng)`` count the
  entries and decode only the chosen action (the rollout path), in exactly the
  same order as the list;
* ``playout_action(rng)`` picks an entry evenly, then one of its actions, so
  Monte Carlo play-outs are not mostly passes.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from .actions import Action
from .game import State
from .rng import Rng

Entry = tuple[int, int, Any, Any]  # (count, tag, a, b)


class MenuState(State):
    @abstractmethod
    def _menu(self) -> list[Entry]:
        """The legal actions of the current decision, grouped (empty when terminal)."""

    @staticmethod
    @abstractmethod
    def _decode(tag: int, a: Any, b: Any, i: int) -> Action:
        """The ``i``-th action of the menu entry ``(_, tag, a, b)``."""

    def _expand(self, menu: list[Entry]) -> list[Action]:
        """Every action of the menu, in order (games override with faster loops)."""
        decode = self._decode
        return [decode(tag, a, b, i) for count, tag, a, b in menu for i in range(count)]

    def legal_actions(self) -> list[Action]:
        return self._expand(self._menu())

    def legal_count(self) -> int:
        return sum(entry[0] for entry in self._menu())

    def legal_action(self, index: int) -> Action:
        for count, tag, a, b in self._menu():
            if index < count:
                return self._decode(tag, a, b, index)
            index -= count
        raise IndexError("legal action index out of range")

    def random_action(self, rng: Rng) -> Action:
        menu = self._menu()
        index = rng.below(sum([entry[0] for entry in menu]))  # a list sums faster than a generator
        for count, tag, a, b in menu:
            if index < count:
                return self._decode(tag, a, b, index)
            index -= count
        raise AssertionError("no legal action")

    def playout_action(self, rng: Rng) -> Action:
        """A kind of move first (a placement, each action card, a pass...), evenly; then
        one move of that kind: uniform play would mostly pass."""
        menu = self._menu()
        count, tag, a, b = menu[rng.below(len(menu))]
        return self._decode(tag, a, b, rng.below(count))
