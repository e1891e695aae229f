"""Properties every game must have, checked with hypothesis over random legal play.

Each game adds its configurations to ``CONFIGS``: (registry name, players).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysaboteur.engine.errors import IllegalAction
from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.records import Record, replay
from pysaboteur.registry import make_game

pytestmark = pytest.mark.usefixtures("both_paths")  # the core's and the pure engine's

CONFIGS: list[tuple[str, int]] = [("duel", 2), ("solo", 1)]
CONFIGS += [("lost-mines", 3), ("lost-mines", 6), ("lost-mines", 9)]
CONFIGS += [("classic", 3), ("classic", 5), ("classic", 10),
            ("expansion", 2), ("expansion", 7), ("expansion", 12)]

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
MAX_DECISIONS = 20_000


def play_random(state: State, rng: Rng, stop: int | None = None,
                each: Callable[[State], None] | None = None) -> State:
    steps = 0
    while not state.is_terminal and (stop is None or steps < stop):
        legal = state.legal_actions()
        assert legal, "a live state must offer a move"
        state.apply(legal[rng.below(len(legal))])
        steps += 1
        assert steps < MAX_DECISIONS, "game does not end"
        if each is not None:
            each(state)
    return state


def snapshot(state: State) -> Any:
    """Everything observable of a state, for equality checks."""
    return (copy.deepcopy({k: v for k, v in state.__dict__.items()
                           if k not in ("game", "maze", "rng", "deal")}),
            state.rng.state,
            {k: copy.deepcopy(getattr(state.maze, k)) for k in state.maze.__slots__ if k != "cat"})


configs = pytest.mark.parametrize(("name", "players"), CONFIGS)


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_games_end_and_conserve_cards(name: str, players: int, seed: int) -> None:
    state = make_game(name, players).new_state(seed)
    box = state.census()

    def conserved(s: State) -> None:
        assert s.census() == box

    play_random(state, Rng(seed), each=conserved)
    assert state.is_terminal and state.legal_actions() == []
    assert len(state.results) >= 1


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 150), junk=st.integers(0, 10**6))
def test_illegal_action_raises_and_changes_nothing(name: str, players: int, seed: int,
                                                   steps: int, junk: int) -> None:
    state = play_random(make_game(name, players).new_state(seed), Rng(seed), stop=steps)
    if state.is_terminal:
        return
    legal = set(state.legal_actions())
    game = state.game
    rng = Rng(junk)
    codes = [k.code for k in game.catalogue.kinds]
    candidates = [f"{rng.choice(codes)}@{rng.below(20) - 5},{rng.below(10) - 5}",
                  f"{rng.choice(codes)}>{rng.below(3)}", "end", "orient r", "bribe@3,0",
                  f"pass {rng.choice(codes)}", f"discard {rng.choice(codes)} "
                  f"{rng.choice(codes)} -{rng.choice(codes)}"]
    before = snapshot(state)
    for text in candidates:
        action = game.parse_action(text)
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert snapshot(state) == before, f"{text} changed the state"


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_same_seed_and_actions_same_game(name: str, players: int, seed: int) -> None:
    a = play_random(make_game(name, players).new_state(seed), Rng(seed + 1))
    b = make_game(name, players).new_state(seed)
    for action in a.history:
        b.apply(action)
    assert snapshot(a) == snapshot(b)
    assert a.view(None) == b.view(None)


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32), stop=st.one_of(st.none(), st.integers(0, 200)))
def test_record_round_trip(name: str, players: int, seed: int, stop: int | None) -> None:
    state = play_random(make_game(name, players).new_state(seed), Rng(seed), stop=stop)
    record = Record.of(state)
    text = record.dumps()
    again = replay(Record.loads(text))
    assert snapshot(again) == snapshot(state)
    assert json.loads(Record.of(again).dumps()) == json.loads(text)


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 300), other=st.integers(0, 2**32))
def test_views_hold_no_hidden_fact(name: str, players: int, seed: int, steps: int,
                                   other: int) -> None:
    """Dealing every unknown card anew must not change what a seat sees."""
    state = play_random(make_game(name, players).new_state(seed), Rng(seed), stop=steps)
    for seat in [*range(players), None]:
        shuffled = state.shuffle_hidden(seat, Rng(other))  # type: ignore[attr-defined]
        assert shuffled.view(seat) == state.view(seat)
        if seat is not None:
            mine = state.view(seat)
            assert mine.hand is not None and sorted(mine.hand) == sorted(state.hand(seat))
    spectator = state.view(None)
    assert spectator.hand is None and spectator.known_goals == ()


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_rollout_path_agrees_with_the_legal_list(name: str, players: int, seed: int) -> None:
    """Counting and decoding one action gives exactly the listed actions, in order."""
    listed = make_game(name, players).new_state(seed)
    rolled = make_game(name, players).new_state(seed)
    a, b = Rng(seed), Rng(seed)
    steps = 0
    while not listed.is_terminal:
        legal = listed.legal_actions()
        if steps % 5 == 0:
            assert listed.legal_count() == len(legal)
            assert [listed.legal_action(i) for i in range(len(legal))] == legal
        listed.apply(legal[a.below(len(legal))], check=False)
        rolled.apply(rolled.random_action(b), check=False)
        steps += 1
    assert rolled.is_terminal and rolled.history == listed.history


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200))
def test_a_clone_is_independent(name: str, players: int, seed: int, steps: int) -> None:
    """Playing on a clone to the end leaves the original exactly as it was."""
    state = play_random(make_game(name, players).new_state(seed), Rng(seed), stop=steps)
    before = snapshot(state)
    copy_ = state.clone()
    assert snapshot(copy_) == before
    play_random(copy_, Rng(seed + 1))
    assert snapshot(state) == before


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_the_round_log_starts_at_the_rounds_first_move(name: str, players: int,
                                                       seed: int) -> None:
    """Views that mark where the round's moves begin mark the first move of the round."""
    state = make_game(name, players).new_state(seed)
    if not hasattr(state.view(0), "round_start"):
        return
    rng = Rng(seed)
    while not state.is_terminal and state.round_no == 1:
        state.apply(state.random_action(rng))
    if not state.is_terminal:
        assert state.view(0).round_start == len(state.history)


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_legal_actions_are_distinct_even_across_types(name: str, players: int, seed: int) -> None:
    """Actions compare as tuples, so two legal actions of different types must never be
    equal (``Orient(True) == Steal(1)``); and a same-valued action of another type is
    refused."""
    from pysaboteur.engine.actions import EndTurn, Orient, Steal

    state = make_game(name, players).new_state(seed)
    rng = Rng(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        for impostor in (Orient(True), Steal(1), EndTurn()):
            listed = any(a == impostor and type(a) is type(impostor) for a in legal)
            if impostor in legal and not listed:
                before = snapshot(state)
                with pytest.raises(IllegalAction):
                    state.apply(impostor)
                assert snapshot(state) == before
        state.apply(legal[rng.below(len(legal))])


@configs
@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_any_kind_of_action_is_refused_cleanly(name: str, players: int, seed: int,
                                              steps: int) -> None:
    """Every action type of the engine, legal here or not, either applies or raises a
    specific IllegalAction that changes nothing (never another exception)."""
    from pysaboteur.engine import actions as A

    state = play_random(make_game(name, players).new_state(seed), Rng(seed), stop=steps)
    if state.is_terminal:
        return
    code = state.game.catalogue.kinds[seed % len(state.game.catalogue.kinds)].code
    samples = [A.PlacePath(code, 1, 0), A.PlayOnCell(code, 1, 0), A.PlayOnPlayer(code, 0),
               A.Discard((code, code), code), A.Pass((code,)), A.Bribe(1, 0), A.EndTurn(),
               A.Orient(True), A.Steal(1), A.PlayOnJoint(code, 1, 0, "E"),
               A.PlayOnTreasure(code, 0), A.Move(((1, 0),)), A.NoMove(), A.Take(0),
               A.ProposeEnd(), A.Vote(True)]
    legal = state.legal_actions()
    before = snapshot(state)
    for action in samples:
        if any(a == action and type(a) is type(action) for a in legal):
            continue
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert snapshot(state) == before, action
