"""The compiled core (``pysaboteur._core``) plays exactly the pure engine's games: the same
decisions, states, histories, round results and generator states (issue 24).

Skipped where the extension is not built; ``python -m pysaboteur.core.differential`` is the
long run of the same comparison (10,000 matches)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys

import pytest

from pysaboteur import core
from pysaboteur.core.differential import check_match, difference
from pysaboteur.engine.game import State
from pysaboteur.engine.rng import Rng
from pysaboteur.games.classic.state import ORIENT, ClassicState
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
compiled = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")


def opening(players: int, seed: int, moves: int, name: str = "classic") -> State:
    state = make_game(name, players).new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(state.random_action(rng), check=False)
    return state


@compiled
@pytest.mark.parametrize("players", range(3, 11))
def test_matches_are_the_same_on_both_paths(players: int) -> None:
    """Whole matches and round by round, both policies, own or shared chooser, from
    openings of 0-180 moves (``check_match`` picks them by seed)."""
    decisions = 0
    for seed in range(players * 1000, players * 1000 + 12):
        decisions += check_match("classic", players, seed)[0]
    assert decisions > 500


def _orienting(players: int, seed: int) -> State | None:
    """A position waiting for a revealed stone goal's orientation.  Random play all but
    never gets there (a goal reached from two sides that neither way fits; none in 20,000
    random matches), so the wait is set up by hand on a random position: a face-down stone
    goal, both ways on offer."""
    state = opening(players, seed, 10 + seed % 50)
    if state.is_terminal or state.phase != 0:  # type: ignore[attr-defined]
        return None
    cat = state.game.catalogue
    stones = [c for c, code in state.maze.hidden.items()  # type: ignore[attr-defined]
              if not cat[code].features.gold]
    if not stones:
        return None
    state.phase = ORIENT  # type: ignore[attr-defined]
    state.pending = (stones[seed % len(stones)], (False, True))  # type: ignore[attr-defined]
    state.pending_draw = 1  # type: ignore[attr-defined]
    return state


@compiled
@pytest.mark.parametrize("policy", ["random", "playout"])
def test_a_play_out_may_start_at_a_goals_orientation(policy: str) -> None:
    found = 0
    for seed in range(60):
        a = _orienting(3 + seed % 8, seed)
        if a is None:
            continue
        found += 1
        for whole in (False, True):
            b, c = a.clone(), a.clone()
            rb, rc = Rng(seed), Rng(seed)
            assert b._pure_play_out(rb, not whole, policy) == c.play_out(  # type: ignore[attr-defined]
                rc, not whole, policy)  # type: ignore[arg-type]
            assert rb.state == rc.state and difference(b, c) is None
            assert type(b.history[len(a.history)]).__name__ == "Orient"
    assert found >= 20


@compiled
def test_a_clone_keeps_its_own_position() -> None:
    """The core writes a new maze into the state it plays (copy-on-write: the clone that
    shares the old one keeps it), and changes nothing of the original."""
    for seed in range(20):
        a = opening(4 + seed % 6, seed, 20 + seed)
        before = (copy.deepcopy(a.__dict__.get("hands")), copy.deepcopy(a.maze.cells),
                  copy.deepcopy(a.maze.reach), list(a.history), a.rng.state)
        b = a.clone()
        b.play_out(Rng(seed), until_round_end=False)
        assert (a.hands, a.maze.cells, a.maze.reach, a.history, a.rng.state) == before


@compiled
def test_play_goes_on_in_python_after_a_compiled_play_out() -> None:
    for seed in range(30):
        a = opening(3 + seed % 8, seed, seed * 3)
        b = a.clone()
        a._pure_play_out(Rng(seed), True, "random")  # type: ignore[attr-defined]
        b.play_out(Rng(seed), True, "random")
        rng_a, rng_b = Rng(~seed), Rng(~seed)
        for _ in range(40):
            if a.is_terminal:
                break
            legal = a.legal_actions()
            assert legal == b.legal_actions() and a.legal_count() == b.legal_count()
            a.apply(legal[rng_a.below(len(legal))])
            b.apply(b.legal_actions()[rng_b.below(len(legal))])
            assert difference(a, b) is None
        assert a.view(0).plain() == b.view(0).plain()


def test_use_pure_switches_the_core_off_inside_a_block() -> None:
    state = make_game("classic", 4).new_state(1)
    with core.use_pure():
        assert not core.active() and core.compiled_play_out(ClassicState) is None
        assert "pure" in core.describe()
        played = state.clone().play_out(Rng(2), until_round_end=False)
    assert core.active() == (os.environ.get("PYSABOTEUR_PURE", "") in ("", "0"))
    assert state.play_out(Rng(2), until_round_end=False) == played


def test_pysaboteur_pure_forces_the_pure_path() -> None:
    code = ("import pysaboteur.core as c; from pysaboteur.registry import make_game;"
            "from pysaboteur.engine.rng import Rng; from pysaboteur.engine import menu;"
            "s = make_game('classic', 4).new_state(3); n = s.play_out(Rng(4), False);"
            "assert not c.active() and c.available() and menu._COMPILED == {type(s): None};"
            "print(n, c.describe())")
    env = {**os.environ, "PYSABOTEUR_PURE": "1"}
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], env=env,
                         capture_output=True, text=True, check=True).stdout
    pure = make_game("classic", 4).new_state(3)
    with core.use_pure():
        n = pure.play_out(Rng(4), False)
    assert out.split()[0] == str(n) and "PYSABOTEUR_PURE" in out


@compiled
def test_every_game_plays_out_on_the_core_and_none_when_pure() -> None:
    from pysaboteur.registry import GAMES

    for name in GAMES:
        state_class = type(make_game(name).new_state(0))
        assert core.compiled_play_out(state_class) is not None, name
        with core.use_pure():
            assert core.compiled_play_out(state_class) is None, name


@compiled
def test_a_play_out_started_while_the_core_is_busy_is_played_in_python() -> None:
    """The core keeps one working state: a play-out asked for while it waits on Python (here
    inside a round's end; in a server, another thread) is played pure, and both come out as
    the pure path has them."""
    outer, inner = opening(5, 8, 30), opening(4, 9, 10)
    outer_ref, inner_ref = outer.clone(), inner.clone()
    inner_ref._pure_play_out(Rng(2), False, "random")  # type: ignore[attr-defined]
    outer_ref._pure_play_out(Rng(1), False, "random")  # type: ignore[attr-defined]
    nested: list[int] = []

    def end_round() -> None:
        if not nested:
            nested.append(inner.play_out(Rng(2), until_round_end=False))
        ClassicState._end_round(outer)  # type: ignore[arg-type]

    outer._end_round = end_round  # type: ignore[attr-defined]
    outer.play_out(Rng(1), until_round_end=False)
    del outer._end_round  # type: ignore[attr-defined]
    assert nested and difference(inner_ref, inner) is None
    assert difference(outer_ref, outer) is None


@compiled
@pytest.mark.parametrize(("name", "players"), [("classic", 3), ("classic", 6), ("classic", 10),
                                               ("expansion", 2), ("expansion", 7),
                                               ("expansion", 12)])
def test_matches_with_a_fixed_deal_are_the_same_on_both_paths(name: str, players: int) -> None:
    """A fixed deal's rounds are set up in Python (``_setup_round``), the others by the core."""
    from pysaboteur.engine.game import Deal

    game = make_game(name, players)
    deal = Deal(goals=tuple(reversed(game.goal_cards)),  # type: ignore[attr-defined]
                decks=(tuple(sorted(game.deck_cards)),))  # type: ignore[attr-defined]
    for seed in range(6):
        for whole in (False, True):
            a = game.new_state(seed, deal)
            b = a.clone()
            ra, rb = Rng(seed), Rng(seed)
            while not a.is_terminal:
                assert a._pure_play_out(ra, not whole, "random") == b.play_out(  # type: ignore[attr-defined]
                    rb, not whole, "random")
                assert ra.state == rb.state and difference(a, b) is None


@compiled
def test_the_options_play_the_same_on_both_paths() -> None:
    """The options reach the core through the Python pieces it calls (the dwarf cards of
    ``role_deck``, the pay-out, the first seat of ``new_state``)."""
    for players, options in ((5, {"max_saboteurs": True}), (7, {"first_player": 4}),
                             (4, {"sabotaged_diggers_get_nothing": True})):
        game = make_game("classic", players, **options)
        for seed in range(8):
            a = game.new_state(seed)
            b = a.clone()
            ra, rb = Rng(seed), Rng(seed)
            assert a._pure_play_out(ra, False, "random") == b.play_out(  # type: ignore[attr-defined]
                rb, False, "random")
            assert ra.state == rb.state and difference(a, b) is None


# ---------------------------------------------------------------------- Saboteur 2
@compiled
@pytest.mark.parametrize("players", range(2, 13))
def test_saboteur_2_matches_are_the_same_on_both_paths(players: int) -> None:
    """As Saboteur's: whole matches and round by round, both policies, own or shared
    chooser, from openings of 0-180 moves (some in a round's thefts)."""
    decisions = 0
    for seed in range(players * 1000, players * 1000 + 12):
        decisions += check_match("expansion", players, seed)[0]
    assert decisions > 500


def _kinds_played(state: State) -> set[str]:
    """What the log holds: action types, action cards by effect, passes by size."""
    cat = state.game.catalogue
    out = set()
    for a in state.history:
        kind = type(a).__name__
        if kind == "PlayOnPlayer" or kind == "PlayOnCell":
            out.add(str(cat[a.card].effect))  # type: ignore[attr-defined]
        elif kind == "Pass":
            out.add(f"pass{len(a.cards)}")  # type: ignore[attr-defined]
        elif kind == "PlacePath" and cat[a.card].features.ladder is not None:  # type: ignore[attr-defined]
            out.add("ladder")
        else:
            out.add(kind)
    return out


@compiled
def test_saboteur_2_plays_every_card_and_option_on_the_core() -> None:
    """Compiled play-outs (checked against the pure loop) that between them play every new
    card, ladders, passes of 1-3 cards, the discard-2 option and the thefts' Steal."""
    seen: set[str] = set()
    for seed in range(40):
        a = make_game("expansion", 2 + seed % 11).new_state(seed)
        b = a.clone()
        ra, rb = Rng(seed), Rng(seed)
        policy = "playout" if seed % 2 else "random"
        assert a._pure_play_out(ra, False, policy) == b.play_out(  # type: ignore[attr-defined]
            rb, False, policy)  # type: ignore[arg-type]
        assert ra.state == rb.state and difference(a, b) is None
        seen |= _kinds_played(b)
    assert seen >= {"theft", "hands-off", "swap-hand", "inspection", "swap-hats", "trapped",
                    "free", "break", "repair", "map", "rockfall", "ladder", "pass1", "pass2",
                    "pass3", "Discard", "Steal", "PlacePath"}


@compiled
@pytest.mark.parametrize("whole", [False, True])
def test_saboteur_2_play_outs_may_start_in_a_rounds_thefts(whole: bool) -> None:
    found = 0
    for seed in range(400):
        a = make_game("expansion", 3 + seed % 10).new_state(seed)
        rng = Rng(seed ^ 0x5EED)
        while not a.is_terminal and a.phase != 2:  # type: ignore[attr-defined]
            a.apply(a.random_action(rng), check=False)
        if a.is_terminal:
            continue
        found += 1
        for shared in (False, True):
            b, c = a.clone(), a.clone()
            rb, rc = (b.rng, c.rng) if shared else (Rng(seed), Rng(seed))
            assert b._pure_play_out(rb, not whole, "random") == c.play_out(  # type: ignore[attr-defined]
                rc, not whole, "random")
            assert rb.state == rc.state and difference(b, c) is None
        if found >= 12:
            break
    assert found >= 12


@compiled
def test_saboteur_2_options_and_later_play_are_the_same_on_both_paths() -> None:
    """The door rule and the first seat reach the core through Python; play goes on in
    Python after a compiled play-out (the same legal lists and views)."""
    for players, options in ((5, {"door_rule": "literal"}), (8, {"first_player": 6})):
        game = make_game("expansion", players, **options)
        for seed in range(8):
            a = game.new_state(seed)
            b = a.clone()
            ra, rb = Rng(seed), Rng(seed)
            assert a._pure_play_out(ra, False, "random") == b.play_out(  # type: ignore[attr-defined]
                rb, False, "random")
            assert ra.state == rb.state and difference(a, b) is None
    for seed in range(12):
        a = opening(2 + seed % 11, seed, seed * 5, "expansion")
        b = a.clone()
        a._pure_play_out(Rng(seed), True, "random")  # type: ignore[attr-defined]
        b.play_out(Rng(seed), True, "random")
        rng_a, rng_b = Rng(~seed), Rng(~seed)
        for _ in range(40):
            if a.is_terminal:
                break
            legal = a.legal_actions()
            assert legal == b.legal_actions() and a.legal_count() == b.legal_count()
            a.apply(legal[rng_a.below(len(legal))])
            b.apply(b.legal_actions()[rng_b.below(len(legal))])
            assert difference(a, b) is None
        assert a.view(0).plain() == b.view(0).plain()


@compiled
def test_saboteur_2_pay_outs_are_the_cores_and_the_same_on_both_paths() -> None:
    """Saboteur 2's round end on the core (its routes computed on the core's grid, the door
    rule, the shares, the geologists, the trapped): the same results, purses and round ends
    as the pure loop's under both door rules, with the gold found behind every pattern of
    open and closed routes; the state's own ``_end_round`` is never called."""
    from pysaboteur.games.expansion.state import ExpansionState

    calls = []
    pure_end = ExpansionState._end_round
    seen: set[tuple[bool, ...]] = set()
    for rule in ("bga", "literal"):
        for players in (3, 6, 9):
            game = make_game("expansion", players, door_rule=rule)
            for seed in range(120):
                a, b = game.new_state(seed), game.new_state(seed)
                ra, rb = Rng(seed), Rng(seed)
                assert a._pure_play_out(ra, False, "playout") == b.play_out(  # type: ignore[attr-defined]
                    rb, False, "playout")
                assert ra.state == rb.state and difference(a, b) is None
                assert a.last_round == b.last_round
                for r in b.results:
                    if r.details["finder"] >= 0:
                        seen.add(tuple(r.details["routes"].values()))
                try:  # the compiled play-out again, every call of the state's own counted
                    ExpansionState._end_round = lambda s: calls.append(1) or pure_end(s)  # type: ignore[method-assign]
                    c = game.new_state(seed)
                    c.play_out(Rng(seed), False, "playout")
                finally:
                    ExpansionState._end_round = pure_end  # type: ignore[method-assign]
                assert difference(a, c) is None
    assert seen == {(True, True), (True, False), (False, True), (False, False)}
    assert not calls


# ---------------------------------------------------------------------- the first round
@compiled
@pytest.mark.parametrize("name", ["classic", "expansion"])
def test_a_new_matchs_first_round_is_the_same_on_both_paths(name: str) -> None:
    """``new_state`` sets a match without a fixed deal up on the core: the same state, maze
    and generator as ``_setup_round`` in Python, and the same games played from it."""
    counts = range(3, 11) if name == "classic" else range(2, 13)
    options: list[dict[str, object]] = [{}, {"first_player": 1}]
    if name == "classic":
        options.append({"max_saboteurs": True})
    from pysaboteur.engine import menu

    for players in counts:
        for opts in options:
            game = make_game(name, players, **opts)
            for seed in range(6):
                b = game.new_state(seed)
                assert menu._SETUPS.get(type(b)._plain) is not None
                assert "_plain" in type(b).__dict__  # set up by the core, left there (held)
                with core.use_pure():
                    a = game.new_state(seed)
                assert difference(a, b) is None and a.rng.state == b.rng.state
                with core.use_pure():
                    a.play_out(Rng(seed), False)
                    b.play_out(Rng(seed), False)
                assert difference(a, b) is None


@compiled
def test_a_new_match_asked_for_while_the_core_is_busy_is_set_up_in_python() -> None:
    outer = opening(5, 8, 30)
    ref = outer.clone()
    ref._pure_play_out(Rng(1), False, "random")  # type: ignore[attr-defined]
    made: list[State] = []

    def end_round() -> None:
        if not made:
            made.append(make_game("classic", 4).new_state(5))
        ClassicState._end_round(outer)  # type: ignore[arg-type]

    outer._end_round = end_round  # type: ignore[attr-defined]
    outer.play_out(Rng(1), until_round_end=False)
    del outer._end_round  # type: ignore[attr-defined]
    with core.use_pure():
        pure = make_game("classic", 4).new_state(5)
    assert made and difference(pure, made[0]) is None and difference(ref, outer) is None


@compiled
def test_the_cores_lehmer_decoding_and_draws_are_the_engines() -> None:
    """``_core.lehmer`` and ``_core.draws`` (determinization's hot part) give what
    ``engine.rng.lehmer`` and ``Draws.take`` give: the same lists, the same numbers, the
    generator left in the same state; codes at and past n!, long lists, raw numbers."""
    import math

    from pysaboteur.engine.rng import RAW, Draws, lehmer

    ext = core.extension()
    assert ext is not None
    pick = Rng(11)
    for n in (*range(12), 30, 97, 111, 150, 255, 256, 300):
        items = [f"c{i}" for i in range(n)]
        top = math.factorial(n)
        for code in (0, top - 1, top, top * 7 + 3, *(pick.below(top) for _ in range(20))):
            assert ext.lehmer(code, items) == lehmer(code, items), (n, code)
    for _ in range(300):
        calls = [(RAW, 0, 1, 2, 5, 12, 30, 97, 111)[pick.below(9)]
                 for _ in range(pick.below(8))]
        draws, seed = Draws(calls), pick.below(1 << 64)
        a, b = Rng(seed), Rng(seed)
        want, got = draws.take(a), ext.draws(b, draws.calls, draws.words)
        assert got == want and a.state == b.state and list(map(type, got)) == list(map(type, want))


@compiled
@pytest.mark.parametrize(("name", "players"), [("classic", 3), ("classic", 5), ("classic", 10),
                                               ("expansion", 2), ("expansion", 7)])
def test_determinizations_are_the_same_on_both_paths(name: str, players: int) -> None:
    """A determinizer's samples on the core (its numbers and the unknown cards' order in C)
    are the pure path's, sample by sample, with and without role weights."""
    from pysaboteur.bots.beliefs import role_weights
    from pysaboteur.games.classic.determinize import Determinizer as Classic
    from pysaboteur.games.expansion.determinize import Determinizer as Expansion

    kind = Classic if name == "classic" else Expansion
    sampled = 0
    for seed in range(6):
        state = opening(players, seed, 7 * seed, name)
        if state.is_terminal:
            continue
        view = state.view(state.current_player)
        for weights in (None, role_weights(view)):
            world = kind(view, weights)
            a, b = Rng(seed), Rng(seed)
            for _ in range(5):
                with core.use_pure():
                    pure = world.sample(a)
                fast = world.sample(b)
                assert a.state == b.state and difference(pure, fast) is None
                sampled += 1
    assert sampled >= 50
