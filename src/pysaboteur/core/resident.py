"""The rollout API on the compiled core: ``legal_actions``, ``legal_count``,
``legal_action``, ``random_action`` and ``apply`` a decision at a time, with the position
kept on the core between calls.

Reading a whole position into the core costs more than one decision does, so the core
keeps the position of the state it last played (the *resident* state) until another state
comes or Python reads it.  While a state is resident:

* its class is a subclass of its own made here (``Resident``), so that nothing outside the
  core can see the position the core has not written yet;
* everything a decision changes is written into the state as the decision is applied (the
  hands, the pile, the seats, the phase, the cards in front, the logs), but for the maze,
  which is written when it is read;
* reading what the core keeps a copy of (the maze, the hands, the pile: lists that could be
  changed in place), the ``__dict__``, setting any field, ``clone``, ``play_out`` and
  pickling first give the state back to Python (``release``: its own class again, its maze
  written where it changed); the logs the core only appends to are read as they are;
* a round's end, a position the core does not take and ``core.use_pure`` give it back too.

So the same calls on the same state play exactly the pure engine's game (the same actions
in the same order, the same numbers drawn, the same state), which ``tests/test_core_rollout.py``
checks on both paths; a game family gives its C functions (:class:`Calls`) and says which
state classes it plays (``steps_for``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NamedTuple

from ..engine.actions import Action
from ..engine.rng import Rng


class Calls(NamedTuple):
    """A family's C functions of the rollout API, each taking ``(state, ctx, ...)``
    (``ctx``: the family's tables, the state's :class:`Resident` class and what the family
    needs at a round's end)."""

    legal: Callable[..., list[Action] | None]  # None: not taken (Python lists them)
    count: Callable[..., int]  # -1: not taken
    nth: Callable[..., Action | None]
    random: Callable[..., Action | None]
    apply: Callable[..., int]  # 0 applied, 1 not legal (nothing changed), 2 not taken
    release: Callable[[Any], None]  # the state given back if resident (None: whichever is)


APPLIED, NOT_LEGAL, NOT_TAKEN = 0, 1, 2


class Steps:
    """The rollout API on the core for the states of one class whose games it takes
    (``ctx_of(state)``: the context, or None where the core does not take the game)."""

    def __init__(self, calls: Calls, ctx_of: Callable[[Any], tuple[Any, type, Any] | None]) -> None:
        self.calls = calls
        self.ctx_of = ctx_of

    def legal(self, state: Any) -> list[Action] | None:
        ctx = self.ctx_of(state)
        return None if ctx is None else self.calls.legal(state, ctx)

    def count(self, state: Any) -> int:
        ctx = self.ctx_of(state)
        return -1 if ctx is None else self.calls.count(state, ctx)

    def nth(self, state: Any, index: int) -> Action | None:
        ctx = self.ctx_of(state)
        return None if ctx is None else self.calls.nth(state, ctx, index)

    def random(self, state: Any, rng: Rng) -> Action | None:
        ctx = self.ctx_of(state)
        if ctx is None or type(rng) is not Rng:
            return None
        return self.calls.random(state, ctx, rng)

    def apply(self, state: Any, action: Action, check: bool) -> bool:
        """True: applied on the core (or refused: ``IllegalAction`` raised); False: not
        taken, Python applies it."""
        ctx = self.ctx_of(state)
        if ctx is None:
            return False
        done = self.calls.apply(state, ctx, action)
        if done == APPLIED:
            return True
        if done == NOT_LEGAL:
            self.calls.release(state)
            if check:
                raise state.explain(action)
        return False  # Python's apply: not taken, or an unchecked action not listed


#: the fields a family's core keeps a copy of and that can be changed in place (Saboteur's)
FIELDS = ("maze", "_mt", "hands", "deck")


def resident_class(plain: type, calls: Calls, fields: tuple[str, ...] = FIELDS,
                   methods: Mapping[str, Any] | None = None,
                   play_out: Callable[..., int] | None = None) -> type:
    """The class a state of ``plain`` has while the core holds its position: every way
    of reading the state gives it back to Python first; the rollout API goes to the core.
    ``fields``: what the core keeps a copy of and Python could change in place (lists,
    sets, dicts) or what it writes only when read (the maze): reading one gives the state
    back first.  ``methods``: the rollout API's hot methods in C (core.h's ``held_methods``,
    made for ``plain``), in place of the Python ones below; ``play_out``: the family's
    compiled play-out, which goes on from the core's copy (else the state is given back
    first).  Its ``_ctx`` is set by the caller (the family's tables and this class)."""
    release = calls.release

    def field(name: str) -> property:
        def get(self: Any) -> Any:
            release(self)
            return getattr(self, name)

        def put(self: Any, value: Any) -> None:
            release(self)
            setattr(self, name, value)

        def drop(self: Any) -> None:
            release(self)
            delattr(self, name)

        return property(get, put, drop, f"``{name}``, the state given back to Python first")

    def give_back(name: str) -> Callable[..., Any]:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            release(self)
            return getattr(self, name)(*args, **kwargs)

        method.__name__ = name
        method.__doc__ = f"``{name}`` of the state given back to Python"
        return method

    legal, count, nth, rand = calls.legal, calls.count, calls.nth, calls.random
    applied = calls.apply

    class Resident(plain):  # type: ignore[misc]
        _ctx: ClassVar[tuple[Any, type, Any]]
        _plain: ClassVar[type] = plain

        clone = give_back("clone")
        play_out = give_back("play_out")
        __reduce_ex__ = give_back("__reduce_ex__")

        @property
        def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
            release(self)
            return self.__dict__

        def __setattr__(self, name: str, value: Any) -> None:
            release(self)
            setattr(self, name, value)

        def __delattr__(self, name: str) -> None:
            release(self)
            delattr(self, name)

        def legal_actions(self) -> list[Action]:
            listed = legal(self, Resident._ctx)
            if listed is None:
                release(self)
                return self.legal_actions()
            return listed

        def legal_count(self) -> int:
            n = count(self, Resident._ctx)
            if n < 0:
                release(self)
                return self.legal_count()
            return n

        def legal_action(self, index: int) -> Action:
            action = nth(self, Resident._ctx, index)
            if action is None:
                release(self)
                return self.legal_action(index)
            return action

        def random_action(self, rng: Rng) -> Action:
            action = rand(self, Resident._ctx, rng) if type(rng) is Rng else None
            if action is None:
                release(self)
                return self.random_action(rng)
            return action

        def apply(self, action: Action, check: bool = True) -> None:
            done = applied(self, Resident._ctx, action)
            if done == APPLIED:
                return
            release(self)
            if done == NOT_LEGAL:
                if check:
                    raise self.explain(action)
                self._apply(action)  # as State.apply unchecked: Python's own way
                self.history.append(action)
                return
            self.apply(action, check)

    for name in fields:  # the fields the core keeps a copy of (see above)
        setattr(Resident, name, field(name))
    # (made for ``plain``, the C methods take a state of either class: a method looked up
    # while the state was held is called as Python's own once the state is given back)
    for name, method in (methods or {}).items():
        setattr(Resident, name, method)
    if play_out is not None:
        Resident.play_out = play_out
    Resident.__name__ = Resident.__qualname__ = plain.__name__
    Resident.__module__ = plain.__module__
    return Resident


__all__ = ["APPLIED", "FIELDS", "NOT_LEGAL", "NOT_TAKEN", "Calls", "Steps", "resident_class"]
