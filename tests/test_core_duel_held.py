"""A Duel (or solo) state the compiled core sets up or plays out is left held on the core,
as the rollout API holds one (``core/resident.py``): a new match's first round and a
play-out's last position are written only when something reads them, so that a play-out of
a new match reads nothing back and a state dropped after its play-out is never written.
Whatever reads a held state, plays it on or steps it gets exactly the pure engine's state
and games (issue 24; the checks are ``tests/held_checks.py``, every family's)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

import held_checks as check
from pysaboteur import core
from pysaboteur.core.differential import difference
from pysaboteur.games.duel.state import DuelState
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
pytestmark = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

GAMES = ["duel", "solo"]


def pairs(game: str) -> check.Pair:
    """A new match of ``game`` on the core (held) and the same on the pure path."""
    def pair(seed: int) -> tuple[Any, Any]:
        with core.use_pure():
            slow = make_game(game).new_state(seed)
        return make_game(game).new_state(seed), slow

    return pair


def same(fast: Any, slow: Any) -> None:
    assert difference(slow, fast) is None
    assert type(fast) is DuelState  # (reading it gave it back)


@pytest.mark.parametrize("game", GAMES)
def test_a_new_match_and_its_play_outs_are_left_held_and_read_as_the_pure_ones(game: str) -> None:
    check.new_match_and_its_play_outs(pairs(game), same)


@pytest.mark.parametrize("game", GAMES)
def test_play_outs_of_a_held_state_go_on_from_the_cores_copy(game: str) -> None:
    check.play_outs_go_on_from_the_cores_copy(pairs(game), same)


@pytest.mark.parametrize("game", GAMES)
def test_the_rollout_api_goes_on_from_a_held_state(game: str) -> None:
    check.the_rollout_api_goes_on(pairs(game), same, steps=30)


@pytest.mark.parametrize("game", GAMES)
def test_a_held_match_over_is_given_back_to_whatever_steps_it(game: str) -> None:
    check.a_match_over_is_given_back(pairs(game), same)


READS = [lambda s: s.maze, lambda s: s.hands, lambda s: s.deck, lambda s: s.in_front,
         lambda s: s.markers, lambda s: s.pools, lambda s: s.trolls, lambda s: vars(s),
         lambda s: s.clone(), lambda s: copy.deepcopy(s), lambda s: pickle.dumps(s),
         lambda s: s.view(0), lambda s: s.census(), lambda s: setattr(s, "turn", s.turn)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("read", range(len(READS)))
@pytest.mark.parametrize("after", ["new", "round", "match"])
def test_reading_a_held_state_gives_it_back_whole(game: str, read: int, after: str) -> None:
    check.reading_gives_it_back_whole(pairs(game), same, READS[read], after)


def test_a_held_state_is_given_back_when_another_comes() -> None:
    check.given_back_when_another_comes(pairs("duel"), same)


def test_a_held_state_dropped_is_never_written() -> None:
    check.dropped_is_never_written(make_game("duel").new_state, pairs("duel"), same)
