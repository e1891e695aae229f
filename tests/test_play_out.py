"""``State.play_out`` (the fused play-out loop) plays exactly the games of the step-by-step
loop it stands for: the same numbers drawn, the same final state, history and count, and it
stops at the round's end when asked to."""

from __future__ import annotations

from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game
from test_properties import CONFIGS, SETTINGS, snapshot

Policy = Literal["random", "playout"]


def stepped(state: State, rng: Rng, until_round_end: bool, policy: Policy) -> int:
    """The loop ``play_out`` stands for."""
    pick = state.playout_action if policy == "playout" else state.random_action
    round_no = state.round_no
    played = 0
    while not state.is_terminal and (state.round_no == round_no or not until_round_end):
        state.apply(pick(rng), check=False)
        played += 1
    return played


def opening(name: str, players: int, seed: int, moves: int) -> State:
    """A position ``moves`` random decisions into a match (maybe a later round)."""
    state = make_game(name, players).new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(state.random_action(rng), check=False)
    return state


#: each game's play-out on the path it takes by default (the compiled core's where it plays
#: the game: issue 24), and again on the pure path where that is another one
PATHS = [(name, players, False) for name, players in CONFIGS]
PATHS += [(name, players, True) for name, players in CONFIGS
          if name in ("classic", "expansion", "lost-mines", "duel", "solo")]


@pytest.mark.parametrize(("name", "players", "pure"), PATHS)
@pytest.mark.parametrize("policy", ["random", "playout"])
@SETTINGS
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 250), whole=st.booleans(),
       shared=st.booleans())
def test_play_out_plays_the_same_game_as_one_move_at_a_time(
        name: str, players: int, pure: bool, policy: Policy, seed: int, moves: int,
        whole: bool, shared: bool) -> None:
    """``shared``: the chooser is the state's own generator (which deals new rounds)."""
    a = opening(name, players, seed, moves)
    b = a.clone()
    rng_a, rng_b = (a.rng, b.rng) if shared else (Rng(seed + 1), Rng(seed + 1))
    round_no = a.round_no
    expected = stepped(a, rng_a, not whole, policy)
    with core.use_pure(pure):
        played = b.play_out(rng_b, until_round_end=not whole, policy=policy)
    assert played == expected
    assert rng_b.state == rng_a.state
    assert b.history == a.history
    assert [type(x) for x in b.history] == [type(x) for x in a.history]
    assert snapshot(b) == snapshot(a)
    assert b.scores() == a.scores() and b.returns() == a.returns()
    if whole:
        assert b.is_terminal
    else:
        assert b.is_terminal or b.round_no == round_no + 1
        assert len(b.results) <= len(a.results) <= round_no


def test_play_out_stops_at_the_round_end_and_goes_on_from_there() -> None:
    for name, players in CONFIGS:
        state = make_game(name, players).new_state(3)
        rng = Rng(4)
        rounds = [state.round_no]
        while not state.is_terminal:
            before = len(state.history)
            played = state.play_out(rng)
            assert played == len(state.history) - before > 0
            assert state.is_terminal or state.round_no == rounds[-1] + 1
            rounds.append(state.round_no)
        assert rounds == sorted(rounds) and len(state.results) >= len(rounds) - 1
        assert state.play_out(rng) == 0
