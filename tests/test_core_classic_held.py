"""A Saboteur or Saboteur 2 state the compiled core sets up or plays out is left held on the
core, as the rollout API holds one (``core/resident.py``): a new match's first round and a
play-out's last position (a round's start, or the match over) have their hands, pile and
maze written only when something reads them, so that a play-out of a new match reads
nothing back and a state dropped after its play-out is never written.  Whatever reads a held
state, plays it on or steps it gets exactly the pure engine's state and games (issue 24; the
checks are ``tests/held_checks.py``, every family's)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

import held_checks as check
from pysaboteur import core
from pysaboteur.core.differential import difference
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
pytestmark = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

GAMES = [("classic", 4), ("classic", 10), ("expansion", 3), ("expansion", 7), ("expansion", 12)]


def pairs(game: str, players: int) -> check.Pair:
    """A new match of ``game`` on the core (held) and the same on the pure path."""
    def pair(seed: int) -> tuple[Any, Any]:
        with core.use_pure():
            slow = make_game(game, players).new_state(seed)
        return make_game(game, players).new_state(seed), slow

    return pair


def same(fast: Any, slow: Any) -> None:
    assert difference(slow, fast) is None
    assert not check.held(fast)  # (reading it gave it back)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_new_match_and_its_play_outs_are_left_held_and_read_as_the_pure_ones(
        game: str, players: int) -> None:
    check.new_match_and_its_play_outs(pairs(game, players), same)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_play_outs_of_a_held_state_go_on_from_the_cores_copy(game: str, players: int) -> None:
    check.play_outs_go_on_from_the_cores_copy(pairs(game, players), same)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_rollout_api_goes_on_from_a_held_state(game: str, players: int) -> None:
    check.the_rollout_api_goes_on(pairs(game, players), same, steps=40)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_held_match_over_is_given_back_to_whatever_steps_it(game: str, players: int) -> None:
    check.a_match_over_is_given_back(pairs(game, players), same)


READS = [lambda s: s.maze, lambda s: s.hands, lambda s: s.deck, lambda s: s._mt,
         lambda s: vars(s), lambda s: s.clone(), lambda s: copy.deepcopy(s),
         lambda s: pickle.dumps(s), lambda s: s.view(0), lambda s: setattr(s, "turn", s.turn)]


@pytest.mark.parametrize(("game", "players"), [("classic", 5), ("expansion", 6)])
@pytest.mark.parametrize("read", range(len(READS)))
@pytest.mark.parametrize("after", ["new", "round", "match"])
def test_reading_a_held_state_gives_it_back_whole(game: str, players: int, read: int,
                                                  after: str) -> None:
    check.reading_gives_it_back_whole(pairs(game, players), same, READS[read], after)


def test_a_held_state_is_given_back_when_another_comes() -> None:
    check.given_back_when_another_comes(pairs("expansion", 5), same)


def test_a_held_state_dropped_is_never_written() -> None:
    check.dropped_is_never_written(make_game("classic", 5).new_state, pairs("classic", 5), same)


#: the fields classic.c reads and writes in a state's dict, past its classes (``own_item``,
#: ``own_attr``, ``own_set``): as getattr and setattr would only where no class of the
#: state's makes them a data descriptor (a property), which this test would catch
OWN_FIELDS = ("phase", "pending_draw", "last", "finder", "turn", "current", "pending",
              "_round", "roles", "spare_roles", "aside", "in_front", "seen", "discards",
              "passed", "round_start", "purse", "results", "_last_round", "next_turn",
              "theft_order", "hats_aside", "thieves", "inspected", "hands", "deck", "maze",
              "_mt", "_end_round", "_fronts_memo")


def test_the_fields_the_core_keeps_in_a_states_dict_are_no_classs_descriptors() -> None:
    import inspect

    from pysaboteur.games.classic.state import ClassicState
    from pysaboteur.games.expansion.state import ExpansionState

    for cls in (ClassicState, ExpansionState):
        for name in OWN_FIELDS:
            found = inspect.getattr_static(cls, name, None)
            assert not hasattr(type(found), "__set__"), (cls.__name__, name)
