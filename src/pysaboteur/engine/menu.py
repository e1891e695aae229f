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
  Monte Carlo play-outs are not mostly passes;
* ``play_out(rng)`` plays either way for many decisions in one loop: the numbers
  drawn side by side (``rng.Batch``), each action picked from the menu and applied
  without ``apply``'s checks and layers.
"""

from __future__ import annotations

from abc import abstractmethod
from operator import itemgetter
from typing import Any, Literal

from .actions import Action
from .game import State
from .rng import Batch, Rng

Entry = tuple[int, int, Any, Any]  # (count, tag, a, b)
_count = itemgetter(0)  # an entry's count (``sum(map(_count, menu))``: no Python-level loop)


class _Listed:
    def __repr__(self) -> str:
        return "LISTED"


#: the ``b`` of the one entry ``(count, tag, actions, LISTED)`` a listing menu may hand back:
#: ``actions`` is every legal action, in order, built as the menu found them
LISTED: Any = _Listed()


#: the compiled play-outs by state class (None: played in Python), filled on first use
#: from ``pysaboteur.core`` and emptied when it is switched on or off (``core.use_pure``)
_COMPILED: dict[type, Any] = {}
_UNKNOWN: Any = object()


def _compiled(cls: type) -> Any:
    from .. import core

    fast = _COMPILED[cls] = core.compiled_play_out(cls)
    return fast


#: the compiled first-round set-ups by state class (None: set up in Python), the same way
_SETUPS: dict[type, Any] = {}


def compiled_setup(cls: type) -> Any:
    """The compiled core's set-up of a new match's first round for states of ``cls`` (a
    function of the state doing what its ``_setup_round`` does), or None."""
    fast = _SETUPS.get(cls, _UNKNOWN)
    if fast is _UNKNOWN:
        from .. import core

        fast = _SETUPS[cls] = core.compiled_setup(cls)
    return fast


#: the rollout API on the core by state class (``core.resident.Steps``; None: Python's), the
#: same way
_STEPS: dict[type, Any] = {}


def _steps(cls: type) -> Any:
    from .. import core

    steps = _STEPS[cls] = core.compiled_steps(cls)
    return steps


def forget_compiled() -> None:
    """Forget which classes the core plays (``core.use_pure`` switched it on or off)."""
    _COMPILED.clear()
    _SETUPS.clear()
    _STEPS.clear()


class MenuState(State):
    @abstractmethod
    def _menu(self, listing: bool = False) -> list[Entry]:
        """The legal actions of the current decision, grouped (empty when terminal).

        ``listing``: every action will be built (``legal_actions``), so a game may build
        them as it finds them instead of counting first, and hand them back as one entry
        ``(len(actions), tag, actions, LISTED)`` (its ``tag`` decodes ``actions[i]``); games
        without a faster way ignore it.
        """

    @staticmethod
    @abstractmethod
    def _decode(tag: int, a: Any, b: Any, i: int) -> Action:
        """The ``i``-th action of the menu entry ``(_, tag, a, b)``."""

    def _expand(self, menu: list[Entry]) -> list[Action]:
        """Every action of the menu, in order (games override with faster loops)."""
        decode = self._decode
        return [decode(tag, a, b, i) for count, tag, a, b in menu for i in range(count)]

    # The rollout API and the legal list go to the compiled core where it plays the
    # game (``core.resident``: it keeps the position between calls), else they are here.
    def legal_actions(self) -> list[Action]:
        steps = _STEPS.get(type(self), _UNKNOWN)
        if steps is _UNKNOWN:
            steps = _steps(type(self))
        if steps is not None:
            listed: list[Action] | None = steps.legal(self)
            if listed is not None:
                return listed
        menu = self._menu(listing=True)
        if len(menu) == 1 and menu[0][3] is LISTED:
            return menu[0][2]  # type: ignore[no-any-return]
        return self._expand(menu)

    def legal_count(self) -> int:
        steps = _STEPS.get(type(self), _UNKNOWN)
        if steps is _UNKNOWN:
            steps = _steps(type(self))
        if steps is not None:
            n: int = steps.count(self)
            if n >= 0:
                return n
        return sum(map(_count, self._menu()))

    def legal_action(self, index: int) -> Action:
        if index < 0:
            raise IndexError("legal action index out of range")
        steps = _STEPS.get(type(self), _UNKNOWN)
        if steps is _UNKNOWN:
            steps = _steps(type(self))
        if steps is not None:
            action: Action | None = steps.nth(self, index)
            if action is not None:
                return action
        return self._nth(self._menu(), index)

    def _nth(self, menu: list[Entry], index: int) -> Action:
        for count, tag, a, b in menu:
            if index < count:
                return self._decode(tag, a, b, index)
            index -= count
        raise IndexError("legal action index out of range")

    def apply(self, action: Action, check: bool = True) -> None:
        steps = _STEPS.get(type(self), _UNKNOWN)
        if steps is _UNKNOWN:
            steps = _steps(type(self))
        if steps is not None and steps.apply(self, action, check):
            return
        State.apply(self, action, check)

    def random_action(self, rng: Rng) -> Action:
        steps = _STEPS.get(type(self), _UNKNOWN)
        if steps is _UNKNOWN:
            steps = _steps(type(self))
        if steps is not None:
            action: Action | None = steps.random(self, rng)
            if action is not None:
                return action
        menu = self._menu()
        index = rng.below(sum(map(_count, menu)))
        for count, tag, a, b in menu:  # _nth written out: this is the bots' rollout path
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

    def play_out(self, rng: Rng, until_round_end: bool = True,
                 policy: Literal["random", "playout"] = "random") -> int:
        cls = type(self)
        fast = _COMPILED.get(cls, _UNKNOWN)
        if fast is _UNKNOWN:
            fast = _compiled(cls)
        if fast is not None:
            return fast(self, rng, until_round_end, policy)  # type: ignore[no-any-return]
        return self._pure_play_out(rng, until_round_end, policy)

    def _pure_play_out(self, rng: Rng, until_round_end: bool = True,
                       policy: Literal["random", "playout"] = "random") -> int:
        """``play_out`` in Python: the reference the compiled core is tested against."""
        even = policy == "playout"
        # the state's own generator deals rounds in the middle of a play-out: when it is
        # also the chooser, its numbers must be drawn one at a time, in turn
        batch = Batch(rng) if rng is not self.rng else None
        below = batch.below if batch is not None else rng.below
        decode = self._decode
        round_no = self._round
        played = 0
        try:
            while not self.terminal and (self._round == round_no or not until_round_end):
                played += 1
                menu = self._menu()
                if even:
                    entry = menu[below(len(menu))]
                    i = below(entry[0])
                else:
                    i = below(sum(map(_count, menu)))
                    for entry in menu:
                        if i < entry[0]:
                            break
                        i -= entry[0]
                _, tag, a, b = entry
                action = decode(tag, a, b, i)
                self._apply(action)
                self.history.append(action)
        finally:
            if batch is not None:
                batch.close()
        return played
