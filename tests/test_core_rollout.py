"""The rollout API on the compiled core (``core/resident.py``): ``legal_actions``,
``legal_count``, ``legal_action``, ``random_action`` and ``apply`` play exactly the pure
engine's games, and nothing outside the core can see a position it has not written back
(issue 24)."""

from __future__ import annotations

import copy
import pickle
import weakref
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.core.differential import difference
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
ON_CORE = [("classic", n) for n in range(3, 11)] + [("lost-mines", n) for n in range(3, 10)]


def whole(state: State) -> Any:
    """Everything of a state (reading it gives a resident state back to Python)."""
    maze = state.maze  # type: ignore[attr-defined]
    return copy.deepcopy(({k: v for k, v in vars(state).items()
                           if k not in ("game", "maze", "rng", "deal", "_mt", "_fronts_memo")},
                          state.rng.state,
                          {k: getattr(maze, k) for k in maze.__slots__ if k != "cat"}))


def held(state: State) -> bool:
    """Does the core hold the state's position now?  (Its class is then the core's
    subclass of its own: ``core.resident``.)"""
    return "_plain" in type(state).__dict__


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
        name = ("classic", "expansion", "duel", "lost-mines")[seed % 4]
        state = make_game(name, 2 if name == "duel" else 3 + seed % 4).new_state(seed)
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


def test_an_equal_action_of_another_type_is_not_legal() -> None:
    """Actions are NamedTuples, which compare as tuples: ``Steal(1) == Orient(True)``.  A
    position waiting for a goal's orientation (set up by hand: random play all but never
    gets there) refuses a Steal on the core as in Python, and changes nothing."""
    from pysaboteur.engine.actions import Orient, Steal

    checked = 0
    for seed in range(20):
        for pure in (False, True):
            with core.use_pure(pure):
                state: Any = opening(seed, 10 + seed % 30)
                if state.is_terminal or state.phase != 0:
                    continue
                cat = state.game.catalogue
                stones = [c for c, code in state.maze.hidden.items()
                          if not cat[code].features.gold]
                if not stones:
                    continue
                state.phase = 1  # ORIENT
                state.pending = (stones[0], (False, True))
                state.pending_draw = 1
                assert state.legal_actions() == [Orient(False), Orient(True)]
                assert held(state) != pure
                before = whole(state)
                state.legal_actions()
                for bad in (Steal(1), Steal(0)):
                    with pytest.raises(IllegalAction):
                        state.apply(bad)
                    assert whole(state) == before
                checked += 1
    assert checked >= 10


# ------------------------------------------------------------------ the Duel and its solo mode
#: the Duel's games whose rollout API is on the core (core/duel.c): (name, players)
DUEL_ON_CORE = [("duel", 2), ("solo", 1)]


def duel_play(name: str, players: int, seed: int, pure: bool, mode: int, look: int,
              fixed: bool = False, **options: Any) -> list[Any]:
    """A whole Duel match a decision at a time, the state read whole every ``look`` decisions
    (0: only at the end); ``fixed``: a fixed deal (its rounds ended by Python)."""
    from pysaboteur.engine.game import Deal
    from pysaboteur.games.duel.state import _GOALS

    seen = []
    with core.use_pure(pure):
        game = make_game(name, players, **options)
        goals = list(_GOALS)
        Rng(seed).shuffle(goals)
        state = game.new_state(seed, Deal(goals=tuple(goals)) if fixed else None)
        rng = Rng(seed + 1)
        n = 0
        while not state.is_terminal:
            step(state, rng, mode)
            n += 1
            if look and n % look == 0:
                seen.append(whole(state))
        seen.append((whole(state), state.history, list(map(type, state.history)),
                     state.actors, state.results, rng.state))  # type: ignore[attr-defined]
    return seen


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), mode=st.integers(0, 2), look=st.sampled_from([0, 1, 5]),
       fixed=st.booleans())
def test_the_same_duel_matches_a_decision_at_a_time(name: str, players: int, seed: int,
                                                     mode: int, look: int, fixed: bool) -> None:
    assert (duel_play(name, players, seed, False, mode, look, fixed)
            == duel_play(name, players, seed, True, mode, look, fixed))


@pytest.mark.parametrize(("name", "players", "options"),
                         [("duel", 2, {"markers_per_player": 4}),
                          ("duel", 2, {"seat0_colour": "blue"}),
                          ("solo", 1, {"solo_colour": "blue"})])
def test_the_same_duel_matches_with_options(name: str, players: int,
                                            options: dict[str, Any]) -> None:
    for seed in range(3):
        assert (duel_play(name, players, seed, False, seed % 3, 3, seed == 1, **options)
                == duel_play(name, players, seed, True, seed % 3, 3, seed == 1, **options))


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_the_duel_lists_and_rollout_path_agree_on_the_core(name: str, players: int) -> None:
    """The list, the count and every index, in every phase (a goal's orientation, the bribes
    after the main option), the same as the pure engine's at every decision."""
    from pysaboteur.engine.actions import Bribe, Discard, EndTurn, PlayOnCell, PlayOnPlayer

    kinds: set[type] = set()
    for seed in range(4):
        state = make_game(name, players).new_state(seed)
        twin = state.clone()
        rng = Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            assert held(state)
            assert state.legal_count() == len(legal)
            assert [state.legal_action(i) for i in range(len(legal))] == legal
            with pytest.raises(IndexError):
                state.legal_action(len(legal))
            with pytest.raises(IndexError):
                state.legal_action(-1)
            with core.use_pure():
                pure = twin.legal_actions()
                assert pure == legal and list(map(type, pure)) == list(map(type, legal))
                assert twin.legal_count() == len(legal)
            kinds.update(map(type, legal))
            action = legal[rng.below(len(legal))]
            if len(state.history) % 2:  # an equal action, not the listed one itself
                action = type(action)(*action)
            state.apply(action)
            with core.use_pure():
                twin.apply(action)
    if name == "duel":
        assert {Bribe, EndTurn, Discard, PlayOnCell, PlayOnPlayer, PlacePath, Pass} <= kinds


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_a_goal_s_orientation_on_the_core(name: str, players: int) -> None:
    """A position waiting for a revealed goal's orientation (set up by hand: random play
    seldom meets one, a goal both of whose ways fit) is listed, chosen and played on as
    the pure engine does."""
    from pysaboteur.engine.actions import Orient
    from pysaboteur.games.duel.state import ORIENT

    met = 0
    for seed in range(12):
        out = []
        for pure in (False, True):
            with core.use_pure(pure):
                state: Any = duel_opening(name, players, seed, 5 + 3 * seed)
                if state.is_terminal or state.phase != 0:
                    break
                cat = state.game.catalogue
                two = [c for c, code in state.maze.hidden.items()
                       if len(cat.orientations[code]) == 2]
                if not two:
                    break
                state.phase = ORIENT
                state.pending = (two[seed % len(two)], (False, True))
                state.current, state.resume, state.pending_draw = state.turn, 1, 1
                legal = state.legal_actions()
                assert legal == [Orient(False), Orient(True)]
                assert held(state) != pure
                state.apply(state.legal_action(seed % 2))
                rng = Rng(seed)
                while not state.is_terminal:
                    step(state, rng, seed % 3)
                out.append((whole(state), state.history, state.results))
        if len(out) == 2:
            met += 1
            assert out[0] == out[1]
    assert met >= 4


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_reading_what_the_duel_core_holds_gives_the_state_back(name: str, players: int) -> None:
    from pysaboteur.games.duel.state import DuelState

    reads = [lambda s: s.maze, lambda s: s.hands, lambda s: s.deck, lambda s: s.in_front,
             lambda s: s.markers, lambda s: s.pools, lambda s: s.trolls, lambda s: vars(s),
             lambda s: s.__dict__, lambda s: s.clone(), lambda s: copy.deepcopy(s),
             lambda s: pickle.dumps(s), lambda s: s.view(0), lambda s: s.census(),
             lambda s: s.markers_left(0), lambda s: setattr(s, "turn", s.turn)]
    for read in reads:
        state = duel_opening(name, players, 3, 12)
        assert held(state)
        read(state)
        assert not held(state) and type(state) is DuelState


def duel_opening(name: str, players: int, seed: int, moves: int) -> State:
    state = make_game(name, players).new_state(seed)
    rng = Rng(seed)
    for _ in range(moves):
        step(state, rng, 0)
    return state


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_the_duel_copies_give_the_state_back_and_go_their_own_way(name: str,
                                                                  players: int) -> None:
    """clone, deepcopy and pickle of a held state: the state given back first, the copies
    equal to it, and every one plays on as the pure engine does."""
    out = []
    for pure in (False, True):
        with core.use_pure(pure):
            state = duel_opening(name, players, 4, 15)
            copies = [state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))]
            assert all(whole(c) == whole(state) for c in copies)
            rng = Rng(7)
            for s in [state, *copies]:  # each in turn: they take the core from each other
                for _ in range(25):
                    if not s.is_terminal:
                        step(s, rng, 1)
            out.append([whole(s) for s in (state, *copies)])
    assert out[0] == out[1]


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_duel_changes_made_by_hand_while_held_are_played_from(name: str, players: int) -> None:
    """A position changed by hand in the middle of play is the one played on, on both paths:
    fields set, lists and dicts changed in place."""
    def edit(state: State) -> None:
        s: Any = state
        del s.deck[len(s.deck) // 2:]
        for h in s.hands:
            del h[3:]
        s.in_front[0].clear()
        s.pools[0] = 2  # (in place: the pool the core keeps a copy of)
        s.keys_left = 0

    results = []
    for pure in (False, True):
        with core.use_pure(pure):
            state = duel_opening(name, players, 5, 9)
            edit(state)
            rng = Rng(6)
            while not state.is_terminal:
                step(state, rng, 0)
            results.append((whole(state), state.history, state.results))
    assert results[0] == results[1]


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_an_illegal_duel_action_changes_nothing_on_the_core(name: str, players: int) -> None:
    from pysaboteur.engine.actions import Bribe, EndTurn, NoMove, Orient

    state = duel_opening(name, players, 7, 20)
    before = whole(state)
    assert not held(state)  # (reading it whole gave it back)
    for bad in (Pass(("no-such-card",)), PlacePath("path:NESW", 40, 40), Bribe(90, 90),
                Orient(True), NoMove(), EndTurn(), "junk"):
        state.legal_actions()
        assert held(state)
        with pytest.raises(IllegalAction):
            state.apply(bad)  # type: ignore[arg-type]
        assert whole(state) == before
    done = duel_opening(name, players, 7, 0)
    rng = Rng(1)
    while not done.is_terminal:
        step(done, rng, 2)
    assert not held(done)
    with pytest.raises(GameOver):
        done.apply(EndTurn())


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_an_unchecked_duel_action_not_listed_is_python_s_to_apply(name: str,
                                                                  players: int) -> None:
    out = []
    for pure in (False, True):
        with core.use_pure(pure):
            state = duel_opening(name, players, 11, 6)
            state.legal_actions()
            hand = state.hands[state.current]  # type: ignore[attr-defined]
            state.legal_actions()
            state.apply(Pass((hand[0], hand[1], hand[2])), check=False)  # three: not legal
            rng = Rng(12)
            for _ in range(30):
                if not state.is_terminal:
                    step(state, rng, 0)
            out.append((whole(state), state.history))
    assert out[0] == out[1]


def test_duel_solo_and_saboteur_states_played_in_turn() -> None:
    """Each family's core holds one position at a time: states of one family played in turn
    take it from each other (those of another family keep theirs), a play-out on the core
    between two decisions takes it too, and all play the same games as alone."""
    def run(pure: bool) -> Any:
        with core.use_pure(pure):
            states = [duel_opening("duel", 2, 1, 0), duel_opening("solo", 1, 2, 0),
                      duel_opening("duel", 2, 3, 0), opening(4, 0, 4)]
            rngs = [Rng(10 + i) for i in range(len(states))]
            c = None
            while not all(s.is_terminal for s in states):
                for i, (s, r) in enumerate(zip(states, rngs, strict=True)):
                    if not s.is_terminal:
                        step(s, r, i % 3)
                if c is None and len(states[0].history) == 30:
                    c = states[0].clone()
                if c is not None and not c.is_terminal:
                    step(c, rngs[0], 2)
                    c.play_out(Rng(5))  # a play-out on the core between two decisions
            assert c is not None
            return [whole(s) for s in (*states, c)], [s.results for s in states]

    assert run(False) == run(True)


@pytest.mark.parametrize(("name", "players"), DUEL_ON_CORE)
def test_the_duel_core_keeps_no_state_alive(name: str, players: int) -> None:
    state = duel_opening(name, players, 4, 10)
    assert held(state)
    gone = weakref.ref(state)
    del state
    assert gone() is None
    other = duel_opening(name, players, 5, 10)  # the core goes on with another
    assert held(other)
    fresh = make_game(name, players).new_state(6)  # a new match's set-up takes the grid
    assert not held(other)
    other.legal_actions()
    assert held(other) and not held(fresh)


def test_switching_the_core_off_gives_the_duel_state_back() -> None:
    state = duel_opening("duel", 2, 6, 10)
    assert held(state)
    with core.use_pure():
        assert not held(state)
        state.apply(state.legal_actions()[0])
        assert not held(state)
    state.legal_actions()
    assert held(state)


# ------------------------------------------------------------------ The Lost Mines
# ---------------------------------------------------------------- The Lost Mines
def lm_opening(seed: int, moves: int, players: int = 5) -> State:
    state = make_game("lost-mines", players).new_state(seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        step(state, rng, seed % 3)
    return state


@pytest.mark.parametrize("players", [3, 6, 9])
def test_the_lost_mines_lists_and_the_rollout_path_agree_on_the_core(players: int) -> None:
    state = make_game("lost-mines", players).new_state(players)
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


def test_the_lost_mines_lists_are_the_pure_lists() -> None:
    """Every decision's legal list, count and actions (types included) on both paths."""
    for seed in range(3):
        lists = []
        for pure in (False, True):
            with core.use_pure(pure):
                state = make_game("lost-mines", 4 + seed).new_state(seed)
                rng = Rng(seed)
                seen = []
                while not state.is_terminal:
                    legal = state.legal_actions()
                    seen.append((legal, list(map(type, legal)), state.legal_count(),
                                 state.current_player))
                    state.apply(legal[rng.below(len(legal))])
                lists.append(seen)
        assert lists[0] == lists[1]


#: what the core keeps a copy of in a Lost Mines state (core/lost_mines.py)
LM_FIELDS = ("maze", "_mt", "hands", "deck", "pawn", "pawn_seg", "overcome", "traps", "trolls",
             "in_front", "layout", "owner", "collected", "voters", "pending")


def test_reading_what_the_core_holds_of_a_lost_mines_state_gives_it_back() -> None:
    from pysaboteur.games.lost_mines.state import LostMinesState

    reads: list[Any] = [lambda s, f=f: getattr(s, f) for f in LM_FIELDS]
    reads += [lambda s: vars(s), lambda s: s.clone(), lambda s: copy.deepcopy(s),
              lambda s: pickle.dumps(s), lambda s: s.view(0), lambda s: s.census(),
              lambda s: s.shuffle_hidden(0, Rng(1)), lambda s: setattr(s, "turn", s.turn),
              lambda s: s.play_out(Rng(2))]
    for read in reads:
        state = lm_opening(3, 12)
        state.legal_count()
        assert held(state)
        read(state)
        assert not held(state) and type(state) is LostMinesState
    state = lm_opening(3, 12)
    state.legal_count()
    for read in (lambda s: s.phase, lambda s: s.current_player, lambda s: s.is_terminal,
                 lambda s: s.history, lambda s: s.results, lambda s: s.totals):
        read(state)  # written as the decisions are applied: read as they are
        assert held(state)


def test_a_lost_mines_state_read_whole_in_the_middle_of_play_is_the_pure_one() -> None:
    """Each field read alone while held (each read gives the state back, the next decision
    takes it again), against the pure engine's, every decision, every way of asking."""
    for mode in range(3):
        out = []
        for pure in (False, True):
            with core.use_pure(pure):
                state = make_game("lost-mines", 5).new_state(20 + mode)
                rng = Rng(mode)
                seen = []
                n = 0
                while not state.is_terminal:
                    step(state, rng, mode)
                    field = LM_FIELDS[n % len(LM_FIELDS)]
                    value = getattr(state, field)
                    if field == "maze":
                        value = {k: getattr(value, k) for k in value.__slots__ if k != "cat"}
                    seen.append(copy.deepcopy((field, value, state.phase, state.current,
                                               state.rng.state)))
                    n += 1
                seen.append(whole(state))
                out.append(seen)
        assert out[0] == out[1]


def test_changes_made_by_hand_to_a_lost_mines_state_while_held_are_played_from() -> None:
    """Lists, sets and dicts changed in place, fields set: the position played on is the
    edited one, on both paths."""
    from pysaboteur.games.lost_mines.state import CARD

    def edit(state: Any) -> None:
        assert state.phase == CARD
        state.deck[: len(state.deck) // 2] = []
        for h in state.hands:
            del h[3:]
        free = state._joints()
        state.traps.add(free[0])  # a trap laid by hand, in place
        state.trolls[free[-1]] = (state.current + 1) % 5
        state.in_front[(state.current + 1) % 5].append("troll")
        state.turn = state.current = (state.current + 2) % 5

    results = []
    for pure in (False, True):
        with core.use_pure(pure):
            state: Any = lm_opening(5, 0)
            rng = Rng(6)
            for _ in range(9):
                step(state, rng, 0)
            while state.phase != 0:
                step(state, rng, 0)
            assert held(state) != pure
            edit(state)
            while not state.is_terminal:
                step(state, rng, 0)
            results.append((whole(state), state.history, state.results))
    assert results[0] == results[1]


def test_an_illegal_action_changes_nothing_of_a_lost_mines_state_on_the_core() -> None:
    """Nothing changed, the pure engine's error; actions equal as tuples to a legal one of
    another type (``NoMove() == ProposeEnd()``, ``Orient(True) == Take(1) == Vote(True)``)
    are not legal."""
    from pysaboteur.engine.actions import Move, NoMove, Orient, ProposeEnd, Take, Vote
    from pysaboteur.games.lost_mines.state import CARD, MOVE

    def errors(pure: bool) -> list[Any]:
        out = []
        with core.use_pure(pure):
            for phase in (CARD, MOVE):
                state: Any = lm_opening(7, 20)
                rng = Rng(7)
                while state.phase != phase:
                    step(state, rng, 0)
                before = whole(state)
                state.legal_actions()
                assert held(state) != pure
                for bad in (NoMove(), ProposeEnd(), Orient(True), Take(1), Vote(True),
                            Move(((0, 0),)), Pass(("no-such-card",)),
                            PlacePath("NS", 40, 40, False), "junk"):
                    if type(bad) is (NoMove if phase == MOVE else ProposeEnd):
                        continue  # legal here
                    with pytest.raises(IllegalAction) as caught:
                        state.apply(bad)  # type: ignore[arg-type]
                    out.append((type(caught.value), str(caught.value)))
                    assert whole(state) == before
                    state.legal_actions()
        return out

    assert errors(False) == errors(True)
    done = lm_opening(7, 0)
    rng = Rng(1)
    while not done.is_terminal:
        step(done, rng, 2)
    with pytest.raises(GameOver):
        done.apply(NoMove())


def test_an_unchecked_lost_mines_action_that_is_not_listed_is_python_s_to_apply() -> None:
    """``apply(check=False)`` of an action not on the list does what Python's does."""
    out = []
    for pure in (False, True):
        with core.use_pure(pure):
            state: Any = lm_opening(11, 0)
            state.legal_actions()
            hand = state.hands[state.current]
            state.legal_actions()
            state.apply(Pass((hand[0], hand[1], hand[2])), check=False)  # a pass of three
            rng = Rng(3)
            for _ in range(30):
                step(state, rng, 1)
            out.append(whole(state))
    assert out[0] == out[1]


def _lm_pick(state: Any, rng: Rng, mode: int, shared: bool) -> None:
    """One decision, the chooser the state's own generator when ``shared``."""
    step(state, state.rng if shared else rng, mode)


def test_lost_mines_rollouts_through_the_mines_are_the_same_on_both_paths() -> None:
    """From positions where a pawn may enter a face-down mine, a decision at a time, the
    chooser its own generator or the state's (which also draws the traps' cards): mines
    turned over both ways, treasures taken among several, traps sprung, on both paths."""
    from test_core_lost_mines import near_a_mine

    kinds: Counter[str] = Counter()
    found = 0
    for seed in range(40):
        a: Any = near_a_mine(3 + seed % 7, seed)
        if a is None:
            continue
        found += 1
        start = len(a.history)
        mode, shared = seed % 3, seed % 4 == 1
        b: Any = a.clone()
        ra, rb = Rng(seed), Rng(seed)
        with core.use_pure():
            while not a.is_terminal:
                _lm_pick(a, ra, mode, shared)
        n = 0
        while not b.is_terminal:
            _lm_pick(b, rb, mode, shared)
            n += 1
            if n % 50 == 0:
                assert held(b) or b.is_terminal
        assert ra.state == rb.state
        assert difference(a, b) is None
        assert list(map(type, a.history)) == list(map(type, b.history))
        assert a.history == b.history and a.results == b.results
        kinds.update(type(x).__name__ for x in b.history[start:])
    assert found >= 8
    for kind in ("Orient", "Take", "Move", "NoMove", "Vote", "ProposeEnd"):
        assert kinds[kind] > 0, (kind, kinds)


def test_lost_mines_traps_draw_from_the_state_s_own_generator_on_the_core() -> None:
    """A trap sprung on the core draws its card from the state's generator, as the pure
    engine; its draws between two decisions (the chooser the state's own) are seen."""
    from pysaboteur.engine.actions import Move

    sprung = 0
    for seed in range(30):
        out = []
        for pure in (False, True):
            with core.use_pure(pure):
                state: Any = make_game("lost-mines", 3 + seed % 7).new_state(seed)
                rng = Rng(seed)
                while not state.is_terminal:
                    legal = state.legal_actions()
                    traps = [a for a in legal if type(a).__name__ == "PlayOnJoint"]
                    pick = traps if traps and rng.below(2) else legal  # traps, often
                    action = pick[state.rng.below(len(pick))] if seed % 2 else \
                        pick[rng.below(len(pick))]
                    if type(action) is Move and not pure:
                        before = state.rng.state
                    state.apply(action)
                    if type(action) is Move and not pure and state.rng.state != before:
                        sprung += 1
                out.append((whole(state), state.history, state.results))
        assert out[0] == out[1]
    assert sprung > 0


def test_lost_mines_fixed_deals_and_a_round_end_of_its_own_on_the_core() -> None:
    """A fixed deal's rounds (ended and set up in Python, the state given back) and a state
    with an ``_end_round`` of its own: the same games on both paths."""
    from pysaboteur.engine.game import Deal
    from pysaboteur.games.lost_mines import cards as C
    from pysaboteur.games.lost_mines.state import LostMinesState

    mines = tuple(k.code for k in C.CATALOGUE.kinds if k.category == "mine")
    pile = tuple(sorted(k.code for k in C.CATALOGUE.kinds if k.category in ("path", "action")
                        for _ in range(k.count)))
    deal = Deal(goals=tuple(reversed(mines)), decks=(pile,))
    for seed in range(6):
        out = []
        for pure in (False, True):
            with core.use_pure(pure):
                game = make_game("lost-mines", 3 + seed, rounds=1 + seed % 3)
                state: Any = game.new_state(seed, deal if seed % 2 else None)
                ended: list[int] = []
                if seed % 3 == 0:
                    def end_round(reason: str | None = None, state: Any = state,
                                  ended: list[int] = ended) -> None:
                        ended.append(len(state.history))
                        LostMinesState._end_round(state, reason)

                    state._end_round = end_round
                rng = Rng(seed)
                while not state.is_terminal:
                    step(state, rng, seed % 3)
                state.__dict__.pop("_end_round", None)
                out.append((whole(state), state.history, state.results, ended))
        assert out[0] == out[1]


def test_lost_mines_states_played_in_turn() -> None:
    """The core holds one position at a time: Lost Mines and Saboteur states played in
    turn take it from each other (a play-out on the core between two decisions too), and
    play the same games as alone."""
    def trio(pure: bool) -> Any:
        with core.use_pure(pure):
            a, b, s = lm_opening(1, 0, 5), lm_opening(2, 0, 3), opening(3, 0, 4)
            ra, rb, rs = Rng(3), Rng(4), Rng(5)
            c = None
            while not (a.is_terminal and b.is_terminal):
                for x, r in ((a, ra), (b, rb), (s, rs)):
                    if not x.is_terminal:
                        step(x, r, 0)
                if c is None and len(a.history) == 30:
                    c = a.clone()  # a clone goes its own way
                if c is not None and not c.is_terminal:
                    step(c, ra, 2)
                    c.play_out(Rng(5))  # a play-out on the core between two decisions
            assert c is not None
            return whole(a), whole(b), whole(c), whole(s), a.results, b.results

    assert trio(False) == trio(True)


def test_the_core_keeps_no_lost_mines_state_alive() -> None:
    state = lm_opening(4, 10)
    state.legal_count()
    assert held(state)
    gone = weakref.ref(state)
    del state
    assert gone() is None
    other = lm_opening(5, 10)  # the core goes on with another
    other.legal_count()
    assert held(other)
    pickled = pickle.loads(pickle.dumps(other))
    assert not held(other) and not held(pickled)
    assert whole(pickled) == whole(other)
    other.legal_count()
    copied = other.clone()
    assert not held(other) and not held(copied) and whole(copied) == whole(other)


def test_switching_the_core_off_gives_a_lost_mines_state_back() -> None:
    state = lm_opening(6, 10)
    state.legal_count()
    assert held(state)
    with core.use_pure():
        assert not held(state)
        state.apply(state.legal_actions()[0])
        assert not held(state)
    state.legal_actions()
    assert held(state)


def _own_dict(state: State) -> dict[str, Any]:
    """The state's own dict, read without giving a held state back (white box: what the
    core has written into it so far)."""
    import gc

    found = [r for r in gc.get_referents(state) if type(r) is dict and "history" in r]
    assert len(found) == 1
    return found[0]


def test_a_held_lost_mines_state_is_written_after_each_decision_but_for_the_maze() -> None:
    """What the core writes into a held state as each decision is applied (everything but
    the maze and its memo) is the pure engine's state after the same decision."""
    for seed in range(4):
        out = []
        for pure in (False, True):
            with core.use_pure(pure):
                state = make_game("lost-mines", 3 + 2 * seed).new_state(seed)
                rng = Rng(seed)
                seen = []
                while not state.is_terminal:
                    step(state, rng, seed % 3)
                    d = _own_dict(state)
                    seen.append(copy.deepcopy(
                        ({k: v for k, v in d.items()
                          if k not in ("game", "maze", "_mt", "rng", "deal")},
                         d["rng"].state)))
                    assert held(state) != pure or state.is_terminal
                out.append(seen)
        assert out[0] == out[1]
