"""The compiled core plays exactly the pure engine's Duel and solo games (issue 24): the same
decisions, states, histories, round results and generator states, whatever the position a
play-out starts from (``core/duel.c``).

Skipped where the extension is not built; ``python -m pysaboteur.core.differential --game
duel`` (and ``--game solo``) is the long run of the same comparison."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.core.differential import check_match, difference
from pysaboteur.engine.rng import Rng
from pysaboteur.engine.views import LaterRoundEnd
from pysaboteur.games.duel.determinize import determinize
from pysaboteur.games.duel.state import AFTER, ORIENT, DuelState
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
compiled = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

GAMES = [("duel", 2), ("solo", 1)]
#: every option of the Duel and of solo, against the defaults
OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("duel", {}), ("duel", {"seat0_colour": "blue"}), ("duel", {"markers_per_player": 4}),
    ("duel", {"seat0_colour": "blue", "markers_per_player": 4}),
    ("solo", {}), ("solo", {"solo_colour": "blue"})]


def opening(name: str, seed: int, moves: int, **options: Any) -> DuelState:
    """A position ``moves`` random decisions into a match (maybe a later round)."""
    state = make_game(name, **options).new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(state.random_action(rng), check=False)
    assert isinstance(state, DuelState)
    return state


def both(a: DuelState, seed: int, whole: bool, policy: str, shared: bool) -> DuelState:
    """``a`` played on by the pure loop, a clone on the core; they must agree.  Returns the
    clone (compiled)."""
    b = a.clone()
    pick_a, pick_b = (a.rng, b.rng) if shared else (Rng(seed), Rng(seed))
    played_a = a._pure_play_out(pick_a, not whole, policy)  # type: ignore[arg-type]
    played_b = b.play_out(pick_b, not whole, policy)  # type: ignore[arg-type]
    assert played_a == played_b
    assert pick_a.state == pick_b.state
    assert b.history == a.history and list(map(type, b.history)) == list(map(type, a.history))
    assert difference(a, b) is None
    assert b.results == a.results and b.scores() == a.scores() and b.returns() == a.returns()
    return b


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_matches_are_the_same_on_both_paths(name: str, players: int) -> None:
    """The differential's own check: a random opening, then round by round or the whole
    match, either policy, own or shared chooser (picked by seed)."""
    decisions = 0
    for seed in range(200):
        decisions += check_match(name, players, seed)[0]
    assert decisions > 5_000


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
@pytest.mark.parametrize("policy", ["random", "playout"])
@pytest.mark.parametrize("whole", [False, True])
@pytest.mark.parametrize("shared", [False, True])
def test_play_outs_from_any_opening(name: str, players: int, policy: str, whole: bool,
                                    shared: bool) -> None:
    """From random openings of 0-150 moves (later rounds too), to the round's end until the
    match is over, or the whole match at once."""
    rounds = 0
    for seed in range(40):
        a = opening(name, seed, (seed * 37) % 151)
        while not a.is_terminal:
            round_no = a._round
            b = both(a, seed + len(a.history), whole, policy, shared)
            assert b.is_terminal or (not whole and b._round == round_no + 1)
            rounds += 1
    assert rounds >= 15


@compiled
@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_the_options_play_the_same_on_both_paths(name: str, options: dict[str, Any]) -> None:
    for seed in range(30):
        a = opening(name, seed, seed % 40, **options)
        b = both(a, seed, seed % 2 == 0, "playout" if seed % 3 else "random", seed % 4 == 0)
        assert b.is_terminal or b._round >= 1


def _waiting(phase: int, name: str, tries: int = 200) -> list[DuelState]:
    """Positions in ``phase`` (a goal's orientation, the bribes after the main option) met
    in random play."""
    found = []
    for seed in range(tries):
        state = make_game(name).new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal:
            if state.phase == phase:
                found.append(state.clone())
                break
            state.apply(state.random_action(rng), check=False)
    return found


def _orienting(name: str, seed: int) -> DuelState | None:
    """A position waiting for a revealed goal's orientation, set up by hand on a random
    position (random play seldom gets there: a goal both of whose ways fit): a face-down
    goal that lies two ways, both on offer, after a main option."""
    state = opening(name, seed, 5 + seed % 40)
    if state.is_terminal or state.phase != 0:
        return None
    cat = state.game.catalogue
    two = [c for c, code in state.maze.hidden.items() if len(cat.orientations[code]) == 2]
    if not two:
        return None
    state.phase = ORIENT
    state.pending = (two[seed % len(two)], (False, True))
    state.current, state.resume, state.pending_draw = state.turn, 1, 1
    return state


@compiled
@pytest.mark.parametrize(("phase", "least"), [(ORIENT, 20), (AFTER, 50)])
@pytest.mark.parametrize("policy", ["random", "playout"])
def test_a_play_out_may_start_at_an_orientation_or_after_the_main_option(
        phase: int, least: int, policy: str) -> None:
    starts = _waiting(phase, "duel") + _waiting(phase, "solo")
    if phase == ORIENT:
        made = (_orienting(name, seed) for name in ("duel", "solo") for seed in range(30))
        starts += [state for state in made if state is not None]
    assert len(starts) >= least
    for i, a in enumerate(starts):
        first = len(a.history)
        b = both(a, i, i % 2 == 0, policy, i % 3 == 0)
        if phase == ORIENT:
            assert type(b.history[first]).__name__ == "Orient"


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_the_core_plays_every_kind_of_decision(name: str, players: int) -> None:
    """Doors, keys, trolls and bribes, ladders, gold, maps, rockfalls, repairs and
    discards: every kind of action the Duel has comes up in compiled play-outs."""
    kinds: set[str] = set()
    for seed in range(60):
        state = make_game(name).new_state(seed)
        start = len(state.history)
        state.play_out(Rng(seed), until_round_end=False, policy="playout")
        for action in state.history[start:]:
            card = getattr(action, "card", "")
            kinds.add(type(action).__name__ + ":" + card.split(":")[0].split("-")[0])
    want = {"Pass:", "Bribe:", "EndTurn:", "Discard:", "PlacePath:door", "PlacePath:troll",
            "PlacePath:gold", "PlacePath:ladder", "PlayOnCell:map", "PlayOnPlayer:repair"}
    if name == "duel":  # (solo's sabotage and rockfalls act when drawn, in the core too)
        want |= {"PlayOnCell:key", "PlayOnCell:rockfall", "PlayOnPlayer:break"}
    assert want <= kinds, want - kinds


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_clone_keeps_its_own_position(name: str, players: int) -> None:
    """The core writes a new maze into the state it plays (copy-on-write: the clone that
    shares the old one keeps it), and changes nothing of the original."""
    for seed in range(20):
        a = opening(name, seed, 5 + seed * 3)
        mine = ("game", "maze", "rng")
        before = copy.deepcopy({k: v for k, v in a.__dict__.items() if k not in mine})
        maze = {slot: copy.deepcopy(getattr(a.maze, slot)) for slot in a.maze.__slots__}
        generator = a.rng.state
        b = a.clone()
        b.play_out(Rng(seed), until_round_end=False)
        assert {k: v for k, v in a.__dict__.items() if k not in mine} == before
        assert {slot: getattr(a.maze, slot) for slot in a.maze.__slots__} == maze
        assert a.rng.state == generator


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_play_goes_on_in_python_after_a_compiled_play_out(name: str, players: int) -> None:
    for seed in range(30):
        a = opening(name, seed, seed * 3)
        b = a.clone()
        a._pure_play_out(Rng(seed), True, "random")
        b.play_out(Rng(seed), True, "random")
        rng_a, rng_b = Rng(~seed), Rng(~seed)
        for _ in range(60):
            if a.is_terminal:
                break
            legal = a.legal_actions()
            assert legal == b.legal_actions() and a.legal_count() == b.legal_count()
            a.apply(legal[rng_a.below(len(legal))])
            b.apply(b.legal_actions()[rng_b.below(len(legal))])
            assert difference(a, b) is None
        assert a.view(0).plain() == b.view(0).plain()


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_determinized_states_play_the_same_on_both_paths(name: str, players: int) -> None:
    """What ISMCTS plays out: a state dealt anew from a seat's view."""
    for seed in range(40):
        state = opening(name, seed, 4 + seed * 2)
        if state.is_terminal:
            continue
        seat = state.current
        sample = determinize(state.view(seat), Rng(seed))
        both(sample, seed, seed % 2 == 1, "playout", False)


def test_pysaboteur_pure_forces_the_pure_path() -> None:
    code = ("import pysaboteur.core as c; from pysaboteur.registry import make_game;"
            "from pysaboteur.engine.rng import Rng; from pysaboteur.engine import menu;"
            "s = make_game('duel').new_state(3); n = s.play_out(Rng(4), False);"
            "assert not c.active() and c.available() and menu._COMPILED == {type(s): None};"
            "print(n, c.describe())")
    env = {**os.environ, "PYSABOTEUR_PURE": "1"}
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], env=env,
                         capture_output=True, text=True, check=True).stdout
    pure = make_game("duel").new_state(3)
    with core.use_pure():
        n = pure.play_out(Rng(4), False)
    assert out.split()[0] == str(n) and "PYSABOTEUR_PURE" in out


def test_use_pure_switches_the_duel_off_inside_a_block() -> None:
    state = make_game("duel").new_state(1)
    with core.use_pure():
        assert core.compiled_play_out(DuelState) is None
        played = state.clone().play_out(Rng(2), until_round_end=False)
    assert (core.compiled_play_out(DuelState) is None) == (not core.active())
    assert state.play_out(Rng(2), until_round_end=False) == played


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_rounds_end_is_made_when_first_read_the_same_on_both_paths(name: str,
                                                                     players: int) -> None:
    """Both paths hold a round's end unmade (``views.LaterRoundEnd``: the core's holds its
    packed pieces) until ``last_round`` is read; then the same ``RoundEnd``, the same JSON,
    made once and shared with the clones made before the read."""
    for seed in range(6):
        a = opening(name, seed, 3)
        b = a.clone()
        a._pure_play_out(Rng(seed), True, "random")
        b.play_out(Rng(seed), until_round_end=True)
        for state in (a, b):
            assert isinstance(state._last_round, LaterRoundEnd) and state._last_round.made is None
        clone = b.clone()
        end = b.last_round
        assert end is not None and end == a.last_round and clone.last_round is end
        assert end.round == a.results[-1].round and b.view(0).plain() == a.view(0).plain()
        assert difference(a, b) is None
        if not a.is_terminal:  # a new round: the ended maze is not the state's any more
            assert [p.card for p in end.board] != [p.card for p in a.view(0).board]


def _while_a_round_ends(monkeypatch: pytest.MonkeyPatch, call: Any) -> None:
    """``call()`` once, the first time a round's end is set (in a compiled play-out: the
    core waiting on Python, which sets ``_last_round`` through this property)."""
    done: list[bool] = []

    def held(state: Any) -> Any:
        return state.__dict__.get("_last_round")

    def hold(state: Any, end: Any) -> None:
        if not done:
            done.append(True)
            call()
        state.__dict__["_last_round"] = end

    monkeypatch.setattr(DuelState, "_last_round", property(held, hold), raising=False)


@compiled
def test_a_play_out_started_while_the_core_is_busy_is_played_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Duel play-out asked for while the core waits on Python (here for a round's end;
    in a server, another thread) is played pure, and both come out as the pure path has
    them."""
    outer, inner = opening("duel", 8, 30), opening("solo", 9, 10)
    outer_ref, inner_ref = outer.clone(), inner.clone()
    inner_ref._pure_play_out(Rng(2), False, "random")
    outer_ref._pure_play_out(Rng(1), False, "random")
    nested: list[int] = []
    _while_a_round_ends(monkeypatch,
                        lambda: nested.append(inner.play_out(Rng(2), until_round_end=False)))
    outer.play_out(Rng(1), until_round_end=False)
    assert nested and difference(inner_ref, inner) is None
    assert difference(outer_ref, outer) is None


@compiled
def test_the_caches_kept_beside_a_position_are_no_part_of_it() -> None:
    """The core forgets the frontier, doors and ladder cells the pure menus keep (values
    kept beside the position, compared equal whatever they hold); Python recomputes them
    when next asked, the same."""
    a = opening("duel", 3, 40)
    b = a.clone()
    a.legal_actions()  # fills the kept values
    b.play_out(Rng(1), until_round_end=True)
    a._pure_play_out(Rng(1), True, "random")
    assert a._front == b._front and a._doors == b._doors
    assert a.legal_actions() == b.legal_actions()


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_maze_written_back_forgets_what_was_kept_as_python_does(name: str,
                                                                 players: int) -> None:
    """The core writes a changed maze back with a new memo and the kept values
    ``DuelState._forget_kept`` sets (what they hold, not only their equal kind)."""
    for seed in range(6):
        state = opening(name, seed, 25)
        state.legal_actions()  # fills the kept values
        state.play_out(Rng(seed), until_round_end=True)
        if state.is_terminal:
            continue
        kept = (state._forbidden, state._front, state._doors, state._ladders)
        assert not state._mt.shared  # a new memo with the new maze
        ref = state.clone()
        ref._forget_kept()
        assert [(type(k), tuple(k)) for k in kept] == [
            (type(k), tuple(k)) for k in (ref._forbidden, ref._front, ref._doors, ref._ladders)]


# ---------------------------------------------------------------------- the rounds' set-up
@compiled
@pytest.mark.parametrize(("name", "options"), OPTIONS)
def test_a_new_matchs_first_round_is_the_same_on_both_paths(name: str,
                                                           options: dict[str, Any]) -> None:
    """``new_state`` sets a match without a fixed deal up on the core (and the core sets up
    the rounds after it within a play-out): the same state, maze and generator as
    ``_setup_round`` in Python, and the same games played from it."""
    from pysaboteur.engine import menu

    game = make_game(name, **options)
    for seed in range(20):
        b = game.new_state(seed)
        assert menu._SETUPS.get(DuelState) is not None
        assert "_plain" in type(b).__dict__  # set up by the core, left there (held)
        with core.use_pure():
            a = game.new_state(seed)
        assert difference(a, b) is None and a.rng.state == b.rng.state
        assert a.legal_actions() == b.legal_actions()
        both(a, seed, True, "random", seed % 2 == 0)


@compiled
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_matches_with_a_fixed_deal_are_the_same_on_both_paths(name: str, players: int) -> None:
    """A fixed deal's rounds are set up in Python (``_setup_round``), the others by the core."""
    from pysaboteur.engine.game import Deal
    from pysaboteur.games.duel.state import _GOALS, _ROUND_CARDS

    game = make_game(name)
    deal = Deal(goals=tuple(reversed(_GOALS)), decks=(tuple(_ROUND_CARDS),))
    for seed in range(8):
        for whole in (False, True):
            a = game.new_state(seed, deal)
            assert isinstance(a, DuelState)
            while not a.is_terminal:
                both(a, seed + len(a.history), whole, "random", seed % 2 == 0)


@compiled
def test_a_new_match_asked_for_while_the_core_is_busy_is_set_up_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    outer = opening("duel", 8, 30)
    ref = outer.clone()
    ref._pure_play_out(Rng(1), False, "random")
    made: list[Any] = []
    _while_a_round_ends(monkeypatch, lambda: made.append(make_game("solo").new_state(5)))
    outer.play_out(Rng(1), until_round_end=False)
    with core.use_pure():
        pure = make_game("solo").new_state(5)
    assert made and difference(pure, made[0]) is None and difference(ref, outer) is None


@compiled
def test_golds_reached_at_once_are_claimed_most_valuable_first_on_the_core() -> None:
    """Two golds reached by one key, one marker left: the more valuable is claimed, as
    ``DuelState._claim`` sorts them (the core reads each tile's gold, not whether it has
    any), in play-outs as in the rollout API."""
    from conftest import duel, put_all
    from pysaboteur.engine import PlayOnCell

    starts = 0
    for seed in range(40):
        state = duel(hands=(["key"] * 3, []), seed=seed)
        put_all(state, [("door-blue:NESW", 1, 1), ("gold:NES", 1, 0), ("goal3:NESW", 2, 1)])
        state.pools = [1]
        b = both(state.clone(), seed, False, "random", False)
        starts += PlayOnCell("key", 1, 1) in b.history
    assert starts >= 3
