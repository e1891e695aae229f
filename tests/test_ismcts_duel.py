"""ISMCTS in the Duel and its solo mode: seeded searches make exactly the decisions they
made before the search's hot parts moved to the compiled core (issue 24), on both paths.

The pinned digests are of (repr(choice), the bot's generator state after it) for each
searched decision of a few seeded matches; they were recorded on the pure-Python search.
"""

from __future__ import annotations

import hashlib

import pytest

from pysaboteur import core
from pysaboteur.bots.ismcts import IsmctsBot
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game


def _record(game: str, players: int, seed: int, moves: int, leaf: bool,
            iterations: int) -> list[tuple[str, int, int]]:
    """A seeded match: every third move random, the others ISMCTS's (one bot a seat)."""
    state = make_game(game, players).new_state(seed)
    bots = [IsmctsBot(seed * 10 + s, iterations=iterations, leaf_values=leaf)
            for s in range(players)]
    pick = Rng(seed)
    out = []
    for k in range(moves):
        if state.is_terminal:
            break
        p = state.current_player
        legal = state.legal_actions()
        if k % 3 == 2:
            action = legal[pick.below(len(legal))]
        else:
            action = bots[p].choose(state.view(p), legal)
            out.append((repr(action), bots[p].rng.state, bots[p].last_iterations))
        state.apply(action)
    return out


def _digest(record: list[tuple[str, int, int]]) -> str:
    return hashlib.sha256(repr([(a, s) for a, s, _ in record]).encode()).hexdigest()[:16]


PINNED = [
    ("duel", 2, False, 1, 40, "a34ab39975f2ecd2"),
    ("duel", 2, False, 2, 40, "9dedfeca854968d2"),
    ("duel", 2, True, 1, 40, "58fa4cdf707eae04"),
    ("duel", 2, True, 2, 40, "6f877992d997a781"),
    ("solo", 1, False, 1, 40, "d8d2a323f9d34de8"),
    ("solo", 1, False, 2, 40, "1241e1684268ca9d"),
    ("solo", 1, True, 1, 40, "1fdabcb400f1e6e9"),
    ("solo", 1, True, 2, 40, "f8c7af66d57b7987"),
    ("duel", 2, False, 3, 400, "aabac955e2f672b7"),
    ("solo", 1, False, 3, 400, "38a6c56fe26233fd"),
]


@pytest.mark.parametrize(("game", "players", "leaf", "seed", "iterations", "digest"), PINNED)
@pytest.mark.parametrize("pure", [True, False])
def test_seeded_search_decides_as_pinned(game: str, players: int, leaf: bool, seed: int,
                                         iterations: int, digest: str, pure: bool) -> None:
    if not pure and not core.available():
        pytest.skip("the compiled core is not built")
    moves = 60 if iterations < 100 else 24
    with core.use_pure(pure):
        record = _record(game, players, seed, moves, leaf, iterations)
    assert _digest(record) == digest
    assert all(n == iterations for _, _, n in record)


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@pytest.mark.parametrize(("game", "players"), [("duel", 2), ("solo", 1)])
def test_compiled_search_is_the_pure_search(game: str, players: int) -> None:
    """Whole seeded matches of play-out searches: the same choices, the same numbers drawn."""
    for seed in range(4, 7):
        with core.use_pure(True):
            pure = _record(game, players, seed, 90, False, 60)
        with core.use_pure(False):
            compiled = _record(game, players, seed, 90, False, 60)
        assert compiled == pure


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_time_bounded_search_stops_and_decides() -> None:
    state = make_game("duel", 2).new_state(5)
    bot = IsmctsBot(3, seconds=0.05, leaf_values=False)
    legal = state.legal_actions()
    assert bot.choose(state.view(state.current_player), legal) in legal
    assert bot.last_iterations >= 16


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
@pytest.mark.parametrize(("game", "players"), [("duel", 2), ("solo", 1)])
def test_compiled_search_in_rare_positions(game: str, players: int) -> None:
    """Goals to orient, later rounds (gold already won) and bribes to pay at the round's
    end: the compiled search decides as the pure one and draws the same numbers."""
    want = 6
    found = {"orient": 0, "late": 0, "bribed": 0}
    pick = Rng(7)
    seed = 0
    while seed < 400 and min(found.values()) < want:
        seed += 1
        state = make_game(game, players).new_state(seed)
        while not state.is_terminal:
            tag = None
            if state.phase == 2:
                tag = "orient"
            elif any(state.bribes_made) and state.round_no >= 2 and pick.below(6) == 0:
                tag = "bribed"
            elif state.round_no >= 2 and pick.below(40) == 0:
                tag = "late"
            if tag is not None and found[tag] < want:
                found[tag] += 1
                view, legal = state.view(state.current_player), state.legal_actions()
                runs = []
                for pure in (True, False):
                    with core.use_pure(pure):
                        bot = IsmctsBot(seed, iterations=60, leaf_values=False)
                        runs.append((bot.choose(view, legal), bot.rng.state,
                                     bot.last_iterations))
                assert runs[0] == runs[1], (tag, seed)
            legal = state.legal_actions()
            state.apply(legal[pick.below(len(legal))])
    assert found["late"] == found["bribed"] == want
    assert game == "solo" or found["orient"] >= 2


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_search_spoilt_on_the_core_goes_on_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample the core does not take (``Search.run`` answers False) spoils the compiled
    search: the bot searches again in Python from the generator it had, the same moves."""
    from pysaboteur.core import duel as core_duel

    real = core_duel.Search.run
    calls = {"n": 0}

    def spoilt_on_third(self: core_duel.Search, rng: Rng, n: int) -> bool:
        calls["n"] += 1
        if calls["n"] % 3 == 0:
            rng.below(1000)  # the generator moved, as a spoilt run leaves it
            return False
        return real(self, rng, n)

    with core.use_pure(True):
        pure = _record("duel", 2, 8, 30, False, 48)
    monkeypatch.setattr(core_duel.Search, "run", spoilt_on_third)
    monkeypatch.setattr(IsmctsBot, "__init__", _with_seconds(IsmctsBot.__init__))
    with core.use_pure(False):
        compiled = _record("duel", 2, 8, 30, False, 48)
    assert calls["n"] > 3
    assert compiled == pure


def _with_seconds(init):  # type: ignore[no-untyped-def]
    """IsmctsBot.__init__ with a time budget too long to matter: the search runs 16
    iterations a call, so that a spoilt call comes in the middle of a search."""

    def wrapped(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        kwargs.setdefault("seconds", 1e6)
        init(self, *args, **kwargs)

    return wrapped
