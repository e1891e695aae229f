"""Determinization: full states sampled from one seat's view of a Duel."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.engine.maze import Maze
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


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@pytest.mark.parametrize("players", [2, 1])
def test_compiled_samples_are_the_pure_ones(players: int) -> None:
    """The core's ``duel_sample`` makes the state ``Determinizer.sample``'s Python body
    makes, field by field (its maze's too, and the order of its fields and face-down
    cards), and draws the same numbers; and play goes on alike from both."""
    checked = 0
    for seed in range(40):
        state = _played(players, seed, (seed * 37) % 230)
        if state.is_terminal:
            continue
        for seat in range(players):
            worlds = Determinizer(state.view(seat))
            for k in range(3):
                samples, rngs = [], []
                for pure in (True, False):
                    rng = Rng(seed * 7 + k)
                    with core.use_pure(pure):
                        samples.append(worlds.sample(rng))
                    rngs.append(rng.state)
                a, b = samples
                assert rngs[0] == rngs[1]
                assert list(a.__dict__) == list(b.__dict__)
                skip = ("rng", "maze", "_mt")
                assert {k: v for k, v in a.__dict__.items() if k not in skip} == \
                    {k: v for k, v in b.__dict__.items() if k not in skip}
                assert a.rng.state == b.rng.state and b._mt.shared
                for name in Maze.__slots__:
                    assert getattr(a.maze, name) == getattr(b.maze, name), name
                assert list(a.maze.hidden) == list(b.maze.hidden)
                assert a.view(seat) == b.view(seat)
                a.play_out(Rng(k))
                b.play_out(Rng(k))
                assert a.history == b.history and a.scores() == b.scores()
                checked += 1
    assert checked > 40


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_the_cores_deal_draws_the_determinizers_numbers() -> None:
    """``duel_deal`` (the numbers of every compiled sample and search iteration): what
    ``Draws([RAW, n, m]).take`` and two ``reorder`` calls give, for short and long lists."""
    from pysaboteur._core import duel_deal  # type: ignore[attr-defined]

    from pysaboteur.core.duel import deal_plan
    from pysaboteur.engine.rng import RAW, Draws, reorder

    for n, m in [(0, 0), (1, 1), (2, 3), (6, 7), (17, 18), (40, 12), (71, 18), (90, 2)]:
        for seed in range(25):
            a, b = Rng(seed), Rng(seed)
            numbers = Draws([RAW, n, m]).take(a)
            got = duel_deal(b, tuple(range(n)), deal_plan(n), tuple(range(m)), deal_plan(m))
            assert got == (numbers[0], reorder(numbers[1], list(range(n))),
                           reorder(numbers[2], list(range(m))))
            assert a.state == b.state
