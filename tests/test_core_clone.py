"""``State.clone`` on the compiled core (``core/clone.c``, issue 24): for every game, a clone
made on the core is the pure clone (the same fields, the same sharing with the original,
the same generator, memo and types), independent of its original, and plays on as the
pure clone does."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.core.differential import difference as same_game
from pysaboteur.engine.game import State
from pysaboteur.engine.maze import Maze, Memo
from pysaboteur.engine.rng import Rng
from pysaboteur.games.classic.state import ClassicState
from pysaboteur.games.duel.state import DuelState
from pysaboteur.games.lost_mines.state import LostMinesState
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
pytestmark = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

#: every game, with player counts from the differential's (the fewest, some, the most)
GAMES = ([("classic", n) for n in (3, 4, 10)] + [("expansion", n) for n in (2, 7, 12)]
         + [("duel", 2), ("solo", 1)] + [("lost-mines", n) for n in (3, 5, 9)])
#: how a position is reached (``build``)
KINDS = ("start", "mid", "held", "ended", "terminal")
#: fields compared by their type only (the same on both paths by construction: the rules)
_OPAQUE = ("game", "deal")


def build(name: str, players: int, seed: int, kind: str) -> State:
    """A position from random play, the same on either path: a new match (``start``), some
    decisions into it (``mid``; ``held``: left held by the core's rollout API, where it
    holds it), right after a round's end (``ended``) or at the match's end (``terminal``)."""
    state = make_game(name, players).new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    if kind in ("mid", "held"):
        for _ in range(1 + rng.below(60)):
            if state.is_terminal:
                break
            if rng.below(2):
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
            else:
                state.apply(state.random_action(rng), check=False)
        if kind == "mid":
            vars(state)  # given back to Python
    elif kind == "ended":
        for _ in range(1 + rng.below(2)):
            if not state.is_terminal:
                state.play_out(rng, until_round_end=True)
    elif kind == "terminal":
        state.play_out(rng, until_round_end=False)
    return state


def held(state: State) -> bool:
    return "_plain" in type(state).__dict__


def difference(a: Any, b: Any, where: str = "state", seen: set[tuple[int, int]] | None = None
               ) -> str | None:
    """Where ``a`` and ``b`` differ, deeply (their types too, and the memos' flags and the
    types of what they keep: compare states of one path), or None."""
    seen = set() if seen is None else seen
    if isinstance(a, Maze) and isinstance(b, Maze):  # packed by the core or not: the same
        for slot in Maze.__slots__:
            if slot != "cat" and getattr(a, slot) != getattr(b, slot):
                return f"{where}.{slot}"
        return None
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} != {type(b).__name__}"
    if (id(a), id(b)) in seen:
        return None
    seen.add((id(a), id(b)))
    if isinstance(a, Rng):
        return None if a.state == b.state else f"{where}: the generator's state"
    if isinstance(a, Memo):
        if a.shared != b.shared:
            return f"{where}: the memo's shared flag"
        if type(a.value) is not type(b.value):
            return f"{where}.value: {type(a.value).__name__} != {type(b.value).__name__}"
        return None
    if isinstance(a, dict):  # in any order (a match set up on the core writes its own)
        if a.keys() != b.keys():
            return f"{where}: the keys {sorted(map(str, a))} != {sorted(map(str, b))}"
        for key, x in a.items():
            if key in _OPAQUE:
                continue
            found = difference(x, b[key], f"{where}[{key!r}]", seen)
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: the lengths {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = difference(x, y, f"{where}[{i}]", seen)
            if found:
                return found
        return None
    if isinstance(a, State):
        return difference(vars(a), vars(b), where, seen)
    return None if a == b else f"{where}: {str(a)[:80]} != {str(b)[:80]}"


def sharing(state: State, clone: State) -> list[Any]:
    """What a clone shares with its state: each field (and each item of its lists) the same
    object or not, the memo's value the same or not, the flags of both memos."""
    d, nd = vars(state), vars(clone)
    out: list[Any] = [type(clone)]
    for key, value in sorted(nd.items()):
        old = d.get(key)
        out.append((key, value is old))
        if isinstance(value, list) and isinstance(old, list) and len(value) == len(old):
            out.append([x is y for x, y in zip(value, old, strict=True)])
    out += [clone._mt.value is state._mt.value, state._mt.shared, clone._mt.shared]  # type: ignore[attr-defined]
    return out


def snapshot(state: State) -> Any:
    """Everything of a state, copied (reading it gives a held state back)."""
    keep = {id(state.game): state.game, id(getattr(state, "deal", None)): state.deal}  # type: ignore[attr-defined]
    maze = getattr(state, "maze", None)
    if maze is not None:
        keep[id(maze.cat)] = maze.cat
    return copy.deepcopy(vars(state), keep)


def both(name: str, players: int, seed: int, kind: str, pure_play: bool
         ) -> tuple[State, State, State, State]:
    """The position reached twice on one path (``pure_play``: the pure engine's), one cloned
    on the pure path, the other on the core: (state, its pure clone, state, its core clone)."""
    with core.use_pure(pure_play):
        a, b = build(name, players, seed, kind), build(name, players, seed, kind)
    if not pure_play:  # played on the core: the core's position (held, maze packed) again
        a, b = build(name, players, seed, kind), build(name, players, seed, kind)
    with core.use_pure():
        pure_clone = a.clone()
    return a, pure_clone, b, b.clone()


@pytest.mark.parametrize(("name", "players"), GAMES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("pure_play", [False, True], ids=["core-play", "pure-play"])
def test_a_clone_on_the_core_is_the_pure_clone(name: str, players: int, kind: str,
                                               pure_play: bool) -> None:
    for seed in range(3):
        pure, pure_clone, fast, fast_clone = both(name, players, seed, kind, pure_play)
        assert type(fast_clone) is type(pure_clone) is type(pure) is type(fast)
        assert difference(vars(pure_clone), vars(fast_clone)) is None
        assert difference(vars(pure), vars(fast)) is None  # the originals alike after
        assert difference(vars(pure_clone), vars(pure)) is None  # a clone is its state
        assert list(vars(fast_clone)) == list(vars(fast))  # its fields in its state's order
        assert list(vars(pure_clone)) == list(vars(pure))
        assert sharing(pure, pure_clone) == sharing(fast, fast_clone)
        assert fast_clone.rng is not fast.rng and type(fast_clone.rng) is Rng
        assert fast_clone._mt is not fast._mt  # type: ignore[attr-defined]


def test_the_core_clones_the_held_positions() -> None:
    """A state the rollout API holds is given back, then cloned on the core."""
    taken = 0
    for name, players in GAMES:
        for seed in range(4):
            state = build(name, players, seed, "held")
            was_held = held(state)
            clone = state.clone()
            assert not held(state) and not held(clone)
            assert core.CLONES.get(type(state)) is not None  # the core's clone made it
            taken += was_held
    assert taken > 0


def play(state: State, seed: int, steps: int) -> None:
    """Some decisions a decision at a time, then the rest of the match in one play-out."""
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            return
        state.apply(state.random_action(rng), check=False)
    state.play_out(rng, until_round_end=False)


@pytest.mark.parametrize(("name", "players"), GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(KINDS), steps=st.integers(0, 30))
def test_a_clone_and_its_state_are_independent(name: str, players: int, seed: int, kind: str,
                                                steps: int) -> None:
    state = build(name, players, seed, kind)
    before = snapshot(state)
    clone = state.clone()
    play(clone, seed + 1, steps)  # the clone played: the state unchanged
    assert difference(snapshot(state), before) is None
    clone_before = snapshot(clone)
    play(state, seed + 2, steps)  # and the state played: the clone unchanged
    assert difference(snapshot(clone), clone_before) is None
    again = clone.clone()  # a clone of a clone, the first one played on
    play(clone, seed + 3, steps)
    assert difference(snapshot(again), clone_before) is None


@pytest.mark.parametrize(("name", "players"), GAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(KINDS), steps=st.integers(0, 30))
def test_the_clones_play_on_as_the_pure_clones(name: str, players: int, seed: int, kind: str,
                                               steps: int) -> None:
    pure, pure_clone, fast, fast_clone = both(name, players, seed, kind, pure_play=False)
    for state, s in ((pure_clone, seed), (fast_clone, seed), (pure, seed + 1), (fast, seed + 1)):
        play(state, s, steps)  # all on the core
    assert difference(vars(pure_clone), vars(fast_clone)) is None
    assert difference(vars(pure), vars(fast)) is None
    with core.use_pure():  # and the core's clone played on the pure path: the same game
        pure_clone = build(name, players, seed, kind).clone()
        play(pure_clone, seed, steps)
    assert same_game(pure_clone, fast_clone) is None  # as the differential compares paths


# ---------------------------------------------------------------------- what a spec says
def on_both(make: Any) -> tuple[Any, Any]:
    """``make()`` on the core, then on the pure path."""
    fast = make()
    with core.use_pure():
        pure = make()
    return fast, pure


class Mine(ClassicState):
    """A state class of a program's own, which copies one list more."""

    _LIST_FIELDS: ClassVar[tuple[str, ...]] = (*ClassicState._LIST_FIELDS, "aside")


def test_a_subclass_clones_to_its_own_class_with_its_own_fields() -> None:
    def make() -> tuple[Any, Any]:
        state = make_game("classic", 5).new_state(3)
        state.__class__ = Mine
        return state, state.clone()

    (fast, fast_clone), (pure, pure_clone) = on_both(make)
    assert type(fast_clone) is Mine and type(pure_clone) is Mine
    assert fast_clone.aside is not fast.aside and fast_clone.aside == fast.aside
    assert sharing(fast, fast_clone) == sharing(pure, pure_clone)
    make_game("classic", 5).new_state(3).clone()
    make()  # on the core: a clone of its own for each class
    assert core.CLONES[Mine] is not None and core.CLONES[ClassicState] is not None
    assert core.CLONES[Mine] is not core.CLONES[ClassicState]


def test_the_duel_and_the_lost_mines_clone_to_their_class() -> None:
    class OwnDuel(DuelState):
        pass

    class OwnMines(LostMinesState):
        pass

    for name, own in (("duel", OwnDuel), ("lost-mines", OwnMines)):
        def make(name: str = name, own: type = own) -> type:
            state = make_game(name).new_state(1)
            state.__class__ = own
            return type(state.clone())

        assert on_both(make) == (own.__mro__[1], own.__mro__[1])


def test_the_generators_are_made_as_each_game_makes_them() -> None:
    class OwnRng(Rng):
        __slots__ = ()

        def clone(self) -> Rng:
            return OwnRng(self.state + 1)

    def make(name: str, state_value: int, rng_type: type) -> tuple[type, int]:
        state = make_game(name).new_state(1)
        state.rng = rng_type.__new__(rng_type)
        state.rng.state = state_value
        clone = state.clone()
        return type(clone.rng), clone.rng.state

    big = 2**70 + 5
    for name in ("classic", "expansion", "duel", "lost-mines"):
        for value, rng_type in ((big, Rng), (-3, Rng), (7, OwnRng), (big, OwnRng)):
            fast, pure = on_both(lambda: make(name, value, rng_type))  # noqa: B023
            assert fast == pure, (name, value, rng_type)


def test_a_clone_of_fields_not_lists_copies_them_as_python_does() -> None:
    def make() -> Any:
        state = make_game("duel").new_state(1)
        state.hands = tuple(state.hands)  # a tuple of lists: a list of copies
        state.deck = {"a": 1}  # anything with a copy()
        clone = state.clone()
        return (type(clone.hands), clone.hands, clone.hands[0] is state.hands[0],
                clone.deck, clone.deck is state.deck)

    fast, pure = on_both(make)
    assert fast == pure and fast[0] is list and not fast[2] and not fast[4]


def test_pure_runs_clone_in_python() -> None:
    with core.use_pure():
        state = make_game("classic", 4).new_state(1)
        state.clone()
        assert core.CLONES[ClassicState] is None
    assert ClassicState not in core.CLONES
