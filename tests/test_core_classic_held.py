"""A Saboteur or Saboteur 2 state the compiled core sets up or plays out is left held on the
core, as the rollout API holds one (``core/resident.py``): a new match's first round and a
play-out's last position (a round's start, or the match over) have their hands, pile and
maze written only when something reads them, so that a play-out of a new match reads
nothing back and a state dropped after its play-out is never written.  Whatever reads a held
state, plays it on or steps it gets exactly the pure engine's state and games (issue 24)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.core.differential import difference
from pysaboteur.engine.errors import GameOver
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
pytestmark = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

GAMES = [("classic", 4), ("classic", 10), ("expansion", 3), ("expansion", 7), ("expansion", 12)]


def held(state: Any) -> bool:
    """Does the core hold the state's position now?  (Its class is the held subclass.)"""
    return "_plain" in type(state).__dict__


def pair(game: str, players: int, seed: int) -> tuple[Any, Any]:
    """A new match on the core (held) and the same on the pure path (``use_pure`` gives a
    held state back: the pure one first)."""
    with core.use_pure():
        slow = make_game(game, players).new_state(seed)
    return make_game(game, players).new_state(seed), slow


def same(fast: Any, slow: Any) -> None:
    assert difference(slow, fast) is None
    assert not held(fast)  # (reading it gave it back)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_new_match_and_its_play_outs_are_left_held_and_read_as_the_pure_ones(
        game: str, players: int) -> None:
    for seed in range(6):
        fast, slow = pair(game, players, seed)
        assert held(fast)
        whole = seed % 2 == 0
        expected = slow._pure_play_out(Rng(seed), not whole, "random")
        assert fast.play_out(Rng(seed), until_round_end=not whole) == expected
        assert held(fast)  # the last position left on the core
        assert fast.is_terminal == slow.is_terminal and fast.results == slow.results
        assert fast.history == slow.history and fast.rng.state == slow.rng.state
        assert fast.current == slow.current and fast.phase == slow.phase
        same(fast, slow)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_play_outs_of_a_held_state_go_on_from_the_cores_copy(game: str, players: int) -> None:
    fast, slow = pair(game, players, 4)
    rng_f, rng_s = Rng(9), Rng(9)
    while not slow.is_terminal:
        assert fast.play_out(rng_f, until_round_end=True) == \
            slow._pure_play_out(rng_s, True, "random")
        assert fast.history == slow.history and fast.results == slow.results
    assert held(fast) and fast.is_terminal
    assert fast.play_out(rng_f, until_round_end=False) == 0  # over: nothing played
    assert rng_f.state == rng_s.state
    same(fast, slow)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_rollout_api_goes_on_from_a_held_state(game: str, players: int) -> None:
    for seed in range(4):
        fast, slow = pair(game, players, seed)
        if seed % 2:
            slow._pure_play_out(Rng(seed), True, "random")
            fast.play_out(Rng(seed), until_round_end=True)
        rng_f, rng_s = Rng(seed + 7), Rng(seed + 7)
        pure = []
        for _ in range(40):  # the pure game first (use_pure would give the held one back)
            if slow.is_terminal:
                break
            with core.use_pure():
                pure.append(slow.legal_actions())
                slow.apply(slow.random_action(rng_s), check=False)
        for legal in pure:
            assert fast.legal_actions() == legal
            fast.apply(fast.random_action(rng_f), check=False)
        same(fast, slow)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_held_match_over_is_given_back_to_whatever_steps_it(game: str, players: int) -> None:
    fast, slow = pair(game, players, 2)
    slow._pure_play_out(Rng(2), False, "random")
    fast.play_out(Rng(2), until_round_end=False)
    assert held(fast) and fast.is_terminal
    assert fast.legal_actions() == slow.legal_actions()
    fast.play_out(Rng(1), until_round_end=False)
    with pytest.raises(GameOver):
        fast.apply(slow.history[-1])
    same(fast, slow)


READS = [lambda s: s.maze, lambda s: s.hands, lambda s: s.deck, lambda s: s._mt,
         lambda s: vars(s), lambda s: s.clone(), lambda s: copy.deepcopy(s),
         lambda s: pickle.dumps(s), lambda s: s.view(0), lambda s: setattr(s, "turn", s.turn)]


@pytest.mark.parametrize(("game", "players"), [("classic", 5), ("expansion", 6)])
@pytest.mark.parametrize("read", range(len(READS)))
@pytest.mark.parametrize("after", ["new", "round", "match"])
def test_reading_a_held_state_gives_it_back_whole(game: str, players: int, read: int,
                                                  after: str) -> None:
    fast, slow = pair(game, players, 5)
    if after != "new":
        slow._pure_play_out(Rng(5), after == "round", "random")
        fast.play_out(Rng(5), until_round_end=after == "round")
    assert held(fast)
    READS[read](fast)
    assert not held(fast)
    same(fast, slow)


def test_a_held_state_is_given_back_when_another_comes() -> None:
    a, a_ref = pair("expansion", 5, 1)
    assert held(a)
    b, b_ref = pair("expansion", 5, 2)  # a given back (by use_pure, else by b's set-up)
    assert held(b) and not held(a)
    a_ref._pure_play_out(Rng(3), True, "random")
    a.play_out(Rng(3), until_round_end=True)  # b given back, a held
    assert held(a) and not held(b)
    same(b, b_ref)
    same(a, a_ref)


def test_a_held_state_dropped_is_never_written() -> None:
    import gc

    state = make_game("classic", 5).new_state(8)
    state.play_out(Rng(8), until_round_end=True)
    assert held(state)
    del state
    gc.collect()
    other, ref = pair("classic", 5, 9)  # the core forgets the dead one and holds the new one
    same(other, ref)
