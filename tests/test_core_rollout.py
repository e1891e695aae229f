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
