"""What a state the compiled core holds must do, for every family that holds them
(``tests/test_core_duel_held.py``, ``tests/test_core_classic_held.py``): a new match's first
round and a play-out's last position are written only when something reads them, and
whatever reads a held state, plays it on or steps it gets exactly the pure engine's state
and games (issue 24).  ``pair(seed)`` makes a new match on the core (held) and the same on
the pure path (``use_pure`` gives a held state back: the pure one first); ``same(fast,
slow)`` checks the two states are one and the fast one was given back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.engine.errors import GameOver
from pysaboteur.engine.rng import Rng

Pair = Callable[[int], tuple[Any, Any]]
Same = Callable[[Any, Any], None]


def held(state: Any) -> bool:
    """Does the core hold the state's position now?  (Its class is the held subclass.)"""
    return "_plain" in type(state).__dict__


def new_match_and_its_play_outs(pair: Pair, same: Same, seeds: range = range(6)) -> None:
    """A new match and its play-outs are left held, and read as the pure ones."""
    for seed in seeds:
        fast, slow = pair(seed)
        assert held(fast)
        whole = seed % 2 == 0
        expected = slow._pure_play_out(Rng(seed), not whole, "random")
        assert fast.play_out(Rng(seed), until_round_end=not whole) == expected
        assert held(fast)  # the last position left on the core
        assert fast.is_terminal == slow.is_terminal and fast.results == slow.results
        assert fast.history == slow.history and fast.rng.state == slow.rng.state
        assert fast.current_player == slow.current_player
        same(fast, slow)


def play_outs_go_on_from_the_cores_copy(pair: Pair, same: Same, seed: int = 4) -> None:
    fast, slow = pair(seed)
    rng_f, rng_s = Rng(9), Rng(9)
    while not slow.is_terminal:
        assert fast.play_out(rng_f, until_round_end=True) == \
            slow._pure_play_out(rng_s, True, "random")
        assert fast.history == slow.history and fast.results == slow.results
    assert held(fast) and fast.is_terminal
    assert fast.play_out(rng_f, until_round_end=False) == 0  # over: nothing played
    assert rng_f.state == rng_s.state
    same(fast, slow)


def the_rollout_api_goes_on(pair: Pair, same: Same, steps: int, seeds: range = range(4)) -> None:
    for seed in seeds:
        fast, slow = pair(seed)
        if seed % 2:
            slow._pure_play_out(Rng(seed), True, "random")
            fast.play_out(Rng(seed), until_round_end=True)
        rng_f, rng_s = Rng(seed + 7), Rng(seed + 7)
        pure = []
        for _ in range(steps):  # the pure game first (use_pure would give the held one back)
            if slow.is_terminal:
                break
            with core.use_pure():
                pure.append(slow.legal_actions())
                slow.apply(slow.random_action(rng_s), check=False)
        for legal in pure:
            assert fast.legal_actions() == legal
            fast.apply(fast.random_action(rng_f), check=False)
        same(fast, slow)


def a_match_over_is_given_back(pair: Pair, same: Same, seed: int = 2) -> None:
    fast, slow = pair(seed)
    slow._pure_play_out(Rng(seed), False, "random")
    fast.play_out(Rng(seed), until_round_end=False)
    assert held(fast) and fast.is_terminal
    assert fast.legal_actions() == slow.legal_actions()
    fast.play_out(Rng(1), until_round_end=False)
    with pytest.raises(GameOver):
        fast.apply(slow.history[-1])
    same(fast, slow)


def reading_gives_it_back_whole(pair: Pair, same: Same, read: Callable[[Any], Any],
                                after: str, seed: int = 5) -> None:
    fast, slow = pair(seed)
    if after != "new":
        slow._pure_play_out(Rng(seed), after == "round", "random")
        fast.play_out(Rng(seed), until_round_end=after == "round")
    assert held(fast)
    read(fast)
    assert not held(fast)
    same(fast, slow)


def given_back_when_another_comes(pair: Pair, same: Same) -> None:
    a, a_ref = pair(1)
    assert held(a)
    b, b_ref = pair(2)  # a given back (by use_pure, else by b's set-up), b held
    assert held(b) and not held(a)
    a_ref._pure_play_out(Rng(3), True, "random")
    a.play_out(Rng(3), until_round_end=True)  # b given back, a held
    assert held(a) and not held(b)
    same(b, b_ref)
    same(a, a_ref)


def dropped_is_never_written(make: Callable[[int], Any], pair: Pair, same: Same) -> None:
    import gc

    state = make(8)
    state.play_out(Rng(8), until_round_end=True)
    assert held(state)
    del state
    gc.collect()
    other, ref = pair(9)  # the core forgets the dead one and holds the new one
    same(other, ref)
