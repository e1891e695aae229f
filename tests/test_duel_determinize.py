"""Determinization: full states sampled from one seat's view of a Duel."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysaboteur.engine.rng import Rng
from pysaboteur.games.duel.determinize import Determinizer
from pysaboteur.games.duel.state import DuelGame, DuelState


def _played(players: int, seed: int, steps: int) -> DuelState:
    state = DuelGame(players).new_state(seed)
    pick = Rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    return state


def _without_log(view: object) -> object:
    return dataclasses.replace(view, log=())  # type: ignore[type-var]


@pytest.mark.parametrize("players", [2, 1])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 250), other=st.integers(0, 2**32))
def test_samples_agree_with_the_view(players: int, seed: int, steps: int, other: int) -> None:
    state = _played(players, seed, steps)
    if state.is_terminal:
        return
    box = state.census()
    for seat in range(players):
        view = state.view(seat)
        sample = Determinizer(view).sample(Rng(other))
        assert _without_log(sample.view(seat)) == _without_log(view)
        assert sample.census() == box
        assert sample.hands[seat] == state.hands[seat] or sorted(sample.hands[seat]) == sorted(
            state.hands[seat])
        if seat == state.current_player:
            assert sample.legal_actions() == state.legal_actions()
        # the sample plays on to the end like any state
        pick = Rng(other)
        while not sample.is_terminal:
            legal = sample.legal_actions()
            sample.apply(legal[pick.below(len(legal))])
        assert sample.census() == box


def test_samples_cover_the_opponents_possible_hands() -> None:
    state = _played(2, 3, 10)
    seat = state.current_player
    opp = 1 - seat
    det = Determinizer(state.view(seat))
    unknown = Counter(det.unknown_cards)
    rng = Rng(1)
    seen: Counter[str] = Counter()
    n = 3000
    for _ in range(n):
        seen.update(det.sample(rng).hands[opp])
    size = len(state.hands[opp])
    total = len(det.unknown_cards)
    for code, copies in unknown.items():
        expected = n * size * copies / total
        assert abs(seen[code] - expected) < 5 * expected**0.5 + 5, code
    assert set(seen) == set(unknown)


def test_spectators_cannot_be_determinized() -> None:
    with pytest.raises(ValueError):
        Determinizer(DuelGame().new_state(0).view(None))
