"""Views built from a state's ``ViewMemo`` (the public log and the face-up cards kept
between views) equal views built from nothing, for every seat and the spectator, as the
match goes on, across rounds, and for clones that play on differently; and a view's
``plain()`` (what the web tables send) is its ``to_json()`` made JSON-ready."""

from __future__ import annotations

import copy
import gc
import json
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pysaboteur.engine.actions import Discard, Pass
from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.engine.views import _MEMOS
from pysaboteur.registry import make_game
from test_properties import CONFIGS, SETTINGS


def fresh_view(state: State, seat: int | None) -> Any:
    """The view of another state object with the same fields, which never built one:
    nothing kept, everything worked out (views change nothing, so the fields may be shared)."""
    other = copy.copy(state)
    assert other not in _MEMOS
    return other.view(seat)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_kept_views_equal_views_built_from_nothing(name: str, players: int, seed: int) -> None:
    state = make_game(name, players).new_state(seed)
    rng = Rng(seed)
    seats = [None, *range(players)]
    twin = None
    step = 0
    while not state.is_terminal:
        if step % 7 == 0 or rng.below(4) == 0:  # views between 1 and many moves apart
            seat = seats[rng.below(len(seats))]
            assert state.view(seat) == fresh_view(state, seat)
        if twin is None and step == 40:
            twin = state.clone()  # shares the history so far, then plays on differently
            assert twin.view(0) == state.view(0)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        step += 1
        if twin is not None and not twin.is_terminal:
            legal = twin.legal_actions()
            twin.apply(legal[rng.below(len(legal))])
            seat = seats[rng.below(len(seats))]
            assert twin.view(seat) == fresh_view(twin, seat)
    for seat in seats:
        assert state.view(seat) == fresh_view(state, seat)


def test_memos_go_with_their_states() -> None:
    gc.collect()
    before = len(_MEMOS)
    states = [make_game("classic", 4).new_state(seed) for seed in range(5)]
    for s in states:
        s.apply(s.legal_actions()[0])
        s.view(0)
    assert len(_MEMOS) == before + 5
    del states, s
    gc.collect()
    assert len(_MEMOS) == before


def json_ready(value: Any) -> Any:
    """The reference: tuples and lists as lists, dict keys as strings."""
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_plain_views_are_their_json(name: str, players: int) -> None:
    state = make_game(name, players).new_state(players)
    rng = Rng(players)
    while not state.is_terminal:
        for seat in (None, *range(players)):
            view = state.view(seat)
            data = view.plain()
            assert data == json_ready(asdict(view)) == json_ready(view.to_json())
            assert json.loads(json.dumps(data)) == data
        state.apply(state.random_action(rng), check=False)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_logs_keep_other_seats_face_down_cards_face_down(name: str, players: int,
                                                         seed: int) -> None:
    """common.md, Information: the content of face-down discards is hidden.  In a seat's
    log (kept between views, as the match goes on) another seat's pass shows its count
    only, and a Saboteur 2 "discard 2" its count and the card it removed (docs/rules/
    expansion.md: face down; the Duel's go face up, docs/rules/duel.md); the seat's own
    show their cards.  The spectator sees every seat's face down."""
    face_down = (Pass, Discard) if name == "expansion" else (Pass,)
    state = make_game(name, players).new_state(seed)
    rng = Rng(seed)
    step = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        step += 1
        if step % 5 and not state.is_terminal:
            continue
        for seat in (None, *range(players)):
            log = state.view(seat).log
            assert len(log) == len(state.history)
            for (actor, text), action, by in zip(log, state.history, state.actors, strict=True):
                assert actor == by
                if by == seat or type(action) not in face_down:
                    assert text == str(action)
                elif type(action) is Pass:
                    assert text == f"pass {len(action.cards)}"
                else:
                    assert text == f"discard {len(action.cards)} -{action.remove}"
