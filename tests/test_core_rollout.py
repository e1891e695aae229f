"""The rollout API on the compiled core (``core/resident.py``): ``legal_actions``,
``legal_count``, ``legal_action``, ``random_action`` and ``apply`` play exactly the pure
engine's games, and nothing outside the core can see a position it has not written back
(issue 24)."""

from __future__ import annotations

import copy
import pickle
import weakref
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.engine.actions import Pass, PlacePath
from pysaboteur.engine.errors import GameOver, IllegalAction
from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.games.classic.state import ClassicState
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
compiled = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")
pytestmark = compiled

#: the games whose rollout API is on the core
ON_CORE = [("classic", n) for n in range(3, 11)]


def whole(state: State) -> Any:
    """Everything of a state (reading it gives a resident state back to Python)."""
    maze = state.maze  # type: ignore[attr-defined]
    return copy.deepcopy(({k: v for k, v in vars(state).items()
                           if k not in ("game", "maze", "rng", "deal", "_mt", "_fronts_memo")},
                          state.rng.state,
                          {k: getattr(maze, k) for k in maze.__slots__ if k != "cat"}))


def held(state: State) -> bool:
    """Does the core hold the state's position now?"""
    return type(state) is not ClassicState and isinstance(state, ClassicState)


def step(state: State, rng: Rng, mode: int) -> None:
    """One decision the three ways a program asks for one."""
    if mode == 0:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    elif mode == 1:
        state.apply(state.legal_action(rng.below(state.legal_count())), check=False)
    else:
        state.apply(state.random_action(rng), check=False)


def play(name: str, players: int, seed: int, pure: bool, mode: int, look: int) -> list[Any]:
    """A whole match, the state read whole every ``look`` decisions (0: only at the end)."""
    seen = []
    with core.use_pure(pure):
        state = make_game(name, players).new_state(seed)
        rng = Rng(seed + 1)
        n = 0
        while not state.is_terminal:
            step(state, rng, mode)
            n += 1
            if look and n % look == 0:
                seen.append(whole(state))
        seen.append((whole(state), state.history, state.results, rng.state))
    return seen


@pytest.mark.parametrize(("name", "players"), ON_CORE)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), mode=st.integers(0, 2), look=st.sampled_from([0, 1, 7]))
def test_the_same_matches_a_decision_at_a_time(name: str, players: int, seed: int, mode: int,
                                                look: int) -> None:
    assert play(name, players, seed, False, mode, look) == play(name, players, seed, True,
                                                                mode, look)


def test_the_lists_and_the_rollout_path_agree_on_the_core() -> None:
    state = make_game("classic", 5).new_state(8)
    rng = Rng(9)
    while not state.is_terminal:
        legal = state.legal_actions()
        assert held(state)
        assert state.legal_count() == len(legal)
        assert [state.legal_action(i) for i in range(len(legal))] == legal
        with pytest.raises(IndexError):
            state.legal_action(len(legal))
        with pytest.raises(IndexError):
            state.legal_action(-1)
        state.apply(legal[rng.below(len(legal))])


def opening(seed: int, moves: int, players: int = 4) -> State:
    state = make_game("classic", players).new_state(seed)
    rng = Rng(seed)
    for _ in range(moves):
        step(state, rng, 0)
    return state


def test_reading_what_the_core_holds_gives_the_state_back() -> None:
    for read in (lambda s: s.maze, lambda s: s.hands, lambda s: s.deck, lambda s: vars(s),
                 lambda s: s.__dict__, lambda s: s.clone(), lambda s: copy.deepcopy(s),
                 lambda s: pickle.dumps(s), lambda s: s.view(0)):
        state = opening(3, 12)
        assert held(state)
        read(state)
        assert not held(state) and type(state) is ClassicState


def test_changes_made_by_hand_while_held_are_played_from() -> None:
    """A position set up by hand in the middle of play (puzzles, tests) is the one played
    on, on both paths: fields set, lists changed in place."""
    def edit(state: State) -> None:
        s: Any = state
        s.deck.clear()
        for h in s.hands:
            del h[2:]
        s.turn = s.current = (s.current + 1) % 4

    results = []
    for pure in (False, True):
        with core.use_pure(pure):
            state = opening(5, 9)
            edit(state)
            rng = Rng(6)
            while not state.is_terminal:
                step(state, rng, 0)
            results.append((whole(state), state.history, state.results))
    assert results[0] == results[1]


def test_an_illegal_action_changes_nothing_on_the_core() -> None:
    state = opening(7, 20)
    before = whole(state)
    assert not held(state)  # (reading it whole gave it back)
    state.legal_actions()
    assert held(state)
    for bad in (Pass(("no-such-card",)), PlacePath("NES", 40, 40), "junk"):
        with pytest.raises(IllegalAction):
            state.apply(bad)  # type: ignore[arg-type]
        assert whole(state) == before
        state.legal_actions()
    done = opening(7, 0)
    rng = Rng(1)
    while not done.is_terminal:
        step(done, rng, 2)
    with pytest.raises(GameOver):
        done.apply(Pass(("N",)))


def test_an_unchecked_action_that_is_not_listed_is_python_s_to_apply() -> None:
    """``apply(check=False)`` of an action not on the list does what Python's does."""
    out = []
    for pure in (False, True):
        with core.use_pure(pure):
            state = opening(11, 6)
            hand = state.hands[state.current]  # type: ignore[attr-defined]
            state.apply(Pass((hand[0], hand[1])), check=False)  # a pass of two: not legal
            out.append(whole(state))
    assert out[0] == out[1]


def test_two_states_played_in_turn() -> None:
    """The core holds one position at a time: states played in turn take it from each
    other, and play the same games as alone."""
    def pair(pure: bool) -> Any:
        with core.use_pure(pure):
            a, b = opening(1, 0, 5), opening(2, 0, 3)
            ra, rb = Rng(3), Rng(4)
            c = None
            while not (a.is_terminal and b.is_terminal):
                for s, r in ((a, ra), (b, rb)):
                    if not s.is_terminal:
                        step(s, r, 0)
                if c is None and len(a.history) == 30:
                    c = a.clone()  # a clone goes its own way
                if c is not None and not c.is_terminal:
                    step(c, ra, 2)
                    c.play_out(Rng(5))  # a play-out on the core between two decisions
            assert c is not None
            return whole(a), whole(b), whole(c), a.results, b.results

    assert pair(False) == pair(True)


def test_the_core_keeps_no_state_alive() -> None:
    state = opening(4, 10)
    assert held(state)
    gone = weakref.ref(state)
    del state
    assert gone() is None
    other = opening(5, 10)  # the core goes on with another
    assert held(other)


def test_switching_the_core_off_gives_the_state_back() -> None:
    state = opening(6, 10)
    assert held(state)
    with core.use_pure():
        assert not held(state)
        state.apply(state.legal_actions()[0])
        assert not held(state)
    state.legal_actions()
    assert held(state)


def test_threads_playing_their_own_states() -> None:
    """Threads that each play their own states (a server's bots beside its tables) take the
    core from each other, switching as often as the interpreter may: every state plays the
    game it plays alone, pure, reads whole whenever it is read, and its copies' play-outs
    are the same."""
    import sys
    import threading

    def match(seed: int, out: dict[int, Any]) -> None:
        state = make_game(("classic", "expansion")[seed % 2], 3 + seed % 4).new_state(seed)
        rng = Rng(seed)
        views, ends = [], []
        while not state.is_terminal:
            step(state, rng, seed % 3)
            if len(state.history) % 9 == 0:
                views.append(state.view(state.current_player if not state.is_terminal else 0))
            if len(state.history) % 25 == 0:  # a bot's play-out on a copy
                copy_ = state.clone()
                ends.append((copy_.play_out(Rng(seed)), copy_.returns()))
        out[seed] = (whole(state), state.history, state.results, views, ends)

    alone: dict[int, Any] = {}
    with core.use_pure():
        for seed in range(12):
            match(seed, alone)
    together: dict[int, Any] = {}
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=lambda k=k: [match(s, together)
                                                        for s in range(k, 12, 4)])
                   for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(before)
    assert together == alone


def test_a_method_looked_up_while_held_works_after() -> None:
    """``state.apply`` looked up while the core held the state, called once it is Python's
    again (and the other way round): the same move, either way."""
    results = []
    for pure in (False, True):
        with core.use_pure(pure):
            state = opening(12, 15)
            rng = Rng(3)
            for k in range(40):
                legal, count, nth = state.legal_actions, state.legal_count, state.legal_action
                apply = state.apply
                if k % 2:
                    state.view(0)  # gives a held state back
                n = count()
                assert legal() == [nth(i) for i in range(n)]
                apply(nth(rng.below(n)), check=bool(k % 3))
            results.append((whole(state), state.history))
    assert results[0] == results[1]
