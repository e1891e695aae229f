"""The compiled core plays exactly the pure engine's games of The Lost Mines (issue 24): the
same decisions, states, histories, round results and generator states, whole matches and
round by round, at 3-9 players, both policies, either chooser, from any position.

Skipped where the extension is not built; ``python -m pysaboteur.core.differential --game
lost-mines`` is the long run of the same comparison (10,000 matches)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.core.differential import check_match, difference
from pysaboteur.engine.actions import Move, Pass, PlacePath, ProposeEnd, Vote
from pysaboteur.engine.maze import cell
from pysaboteur.engine.rng import Rng
from pysaboteur.games.lost_mines import cards as C
from pysaboteur.games.lost_mines.state import MOVE, LostMinesState
from pysaboteur.registry import make_game

pytest.importorskip("pysaboteur._core")
compiled = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")
POLICIES = ("random", "playout")


def opening(players: int, seed: int, moves: int) -> LostMinesState:
    """A position ``moves`` random decisions into a match (maybe a later round)."""
    state: Any = make_game("lost-mines", players).new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(state.random_action(rng), check=False)
    return state  # type: ignore[no-any-return]


def _eastward(state: LostMinesState, rng: Rng) -> None:
    """One decision that takes the dwarves toward the mines: mostly a card open E and W
    (no obstacle) laid furthest east, else the route that ends furthest east; never a
    proposal to end, nor a yes to one."""
    cat = state.game.catalogue
    legal = state.legal_actions()
    places = [a for a in legal if type(a) is PlacePath
              and cat.open_mask[cat.otile[a.card, a.rotated]] & 10 == 10
              and not cat.features[cat.otile[a.card, a.rotated]].obstacle]
    routes = [a for a in legal if type(a) is Move]
    if places and rng.below(8):
        east = max(a.x for a in places)
        pick: list[Any] = [a for a in places if a.x == east]
    elif routes:
        east = max(a.route[-1][0] for a in routes)
        pick = [a for a in routes if a.route[-1][0] == east]
    else:
        pick = [a for a in legal if type(a) is not ProposeEnd and a != Vote(True)] or legal
    state.apply(pick[rng.below(len(pick))], check=False)


def _at_a_mine(state: LostMinesState) -> bool:
    """Is the pawn to move one step of a route away from entering a face-down mine?"""
    return state.phase == MOVE and any(
        cell(*a.route[-1]) in state.maze.hidden
        for a in state.legal_actions() if type(a) is Move)


def near_a_mine(players: int, seed: int) -> LostMinesState | None:
    """A position where a pawn may enter a face-down mine now (random play all but never
    gets one: the mines lie 8-10 cells from the starts), played toward it by
    :func:`_eastward`; None where the round ends first."""
    state: Any = make_game("lost-mines", players).new_state(seed)
    rng = Rng(seed ^ 0xEA57)
    for _ in range(400):
        if state.is_terminal or _at_a_mine(state):
            break
        _eastward(state, rng)
    return state if not state.is_terminal and _at_a_mine(state) else None  # type: ignore[no-any-return]


#: what the pure engine does on the way that is no action of its own, counted while the
#: reference plays (the compiled play-out comes out the same, so it met them too)
_EVENTS = ("_spring_trap", "_reveal", "_take", "_storm", "_expire_trolls", "_look")


@contextmanager
def counting(events: Counter[str]) -> Iterator[None]:
    """Count the calls of the state's effects (and the round ends by reason) meanwhile."""
    originals = {name: getattr(LostMinesState, name) for name in _EVENTS}

    def counted(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(self: LostMinesState, *args: Any) -> Any:
            if name == "_reveal" and C.MINE_TYPE[self.maze.hidden[args[1]]] == C.DRAGON:
                events["dragon"] += 1
            if name == "_expire_trolls" and self.in_front[args[0]]:
                events["troll expires"] += 1
            if name == "_storm":
                before = (len(self.traps), len(self.trolls))
                method(self, *args)
                if before[0] > len(self.traps):
                    events["storm takes a trap"] += 1
                if before[1] > len(self.trolls):
                    events["storm takes a troll"] += 1
            else:
                method(self, *args)
            events[name] += 1
        return call

    for name, method in originals.items():
        setattr(LostMinesState, name, counted(name, method))
    try:
        yield
    finally:
        for name, method in originals.items():
            setattr(LostMinesState, name, method)


def both_ways(a: LostMinesState, seed: int, policy: str, whole: bool, shared: bool,
              events: Counter[str] | None = None) -> LostMinesState:
    """``a`` played on by the pure loop and a clone of it on the core, the same chooser
    seed (or each its own generator); asserts they come out the same; returns the clone."""
    b: Any = a.clone()
    pick_a, pick_b = (a.rng, b.rng) if shared else (Rng(seed), Rng(seed))
    with counting(events if events is not None else Counter()):
        played_a = a._pure_play_out(pick_a, not whole, policy)  # type: ignore[arg-type]
    played_b = b.play_out(pick_b, not whole, policy)
    assert played_a == played_b
    assert pick_a.state == pick_b.state
    assert difference(a, b) is None
    assert b.history == a.history and list(map(type, b.history)) == list(map(type, a.history))
    assert b.results == a.results and b.scores() == a.scores()
    return b  # type: ignore[no-any-return]


@compiled
@pytest.mark.parametrize("players", range(3, 10))
def test_matches_are_the_same_on_both_paths(players: int) -> None:
    """Whole matches and round by round, both policies, own or shared chooser, from
    openings of 0-180 moves (``check_match`` picks them by seed)."""
    decisions = 0
    for seed in range(players * 1000, players * 1000 + 12):
        decisions += check_match("lost-mines", players, seed)[0]
    assert decisions > 500


@compiled
@pytest.mark.parametrize("players", range(3, 10))
@pytest.mark.parametrize("policy", POLICIES)
def test_every_way_of_playing_out_is_the_same_on_both_paths(players: int, policy: str) -> None:
    """Every combination: round by round and whole matches, the chooser a generator of its
    own or the state's own (which also springs the traps and deals the rounds), from the
    match's start and from random openings in the middle of a round or a later one."""
    for seed in range(4):
        for whole in (False, True):
            for shared in (False, True):
                a = opening(players, seed, (0, 7, 60, 150)[seed])
                while not a.is_terminal:
                    both_ways(a, seed + 17, policy, whole, shared)
                    a = a.clone()


@compiled
def test_play_outs_through_the_mines_are_the_same_on_both_paths() -> None:
    """From positions where a pawn may enter a face-down mine: mines turned over (both ways
    on offer or one), treasures taken (one of several, or the only one), the dragon, and
    everything else on the way, every one at least once while the core played."""
    events: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    found = 0
    for seed in range(90):
        a = near_a_mine(3 + seed % 7, seed)
        if a is None:
            continue
        found += 1
        start = len(a.history)
        b = both_ways(a, seed, POLICIES[seed % 2], bool(seed % 3 == 0), bool(seed % 4 == 1),
                      events)
        kinds.update(type(x).__name__ for x in b.history[start:])
        reasons[b.last_round.reason if b.last_round else "none"] += 1  # type: ignore[attr-defined]
    assert found >= 20
    for event in (*_EVENTS, "dragon", "troll expires", "storm takes a trap",
                  "storm takes a troll"):
        assert events[event] > 0, (event, events)
    for kind in ("Orient", "Take", "Move", "NoMove"):
        assert kinds[kind] > 0, (kind, kinds)
    assert {"vote", "exhausted"} <= set(reasons), reasons


def _played(history: list[Any]) -> tuple[Counter[str], Counter[str]]:
    """The kinds of action and the cards in ``history``."""
    kinds: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    for action in history:
        name = type(action).__name__
        if isinstance(action, Pass):
            name += f" of {len(action.cards)}"
            cards.update(action.cards)
        elif hasattr(action, "card"):
            cards[action.card] += 1
        if isinstance(action, Vote):
            name += " yes" if action.accept else " no"
        kinds[name] += 1
    return kinds, cards


@compiled
def test_every_card_and_kind_of_decision_is_played_on_the_core() -> None:
    """Counted in what the core played (``finished``: nothing left to Python): every card
    of the pile played or passed, every kind of decision."""
    from pysaboteur.core import _ext
    from pysaboteur.core.lost_mines import _setup_of, _tables

    kinds: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    for seed in range(40):
        state: Any = opening(3 + seed % 7, seed, seed % 5 * 20)
        start = len(state.history)
        while not state.is_terminal:
            _, finished = _ext.lost_mines_play_out(state, Rng(seed), True, seed % 2 == 0,
                                                  _tables(), _setup_of(state.game.players),
                                                  True)
            assert finished
        k, c = _played(state.history[start:])
        kinds += k
        cards += c
    for seed in range(40):
        a = near_a_mine(3 + seed % 7, seed)
        if a is not None:
            start = len(a.history)
            _, finished = _ext.lost_mines_play_out(a, Rng(seed), True, True, _tables(),
                                                  _setup_of(a.game.players), True)
            assert finished
            k, _c = _played(a.history[start:])
            kinds += k
    deck = {code for code in C.CATALOGUE.codes if C.CATALOGUE[code].category == "path"}
    deck |= {k.code for k in C.CATALOGUE.kinds if k.category == "action"}
    assert deck <= set(cards), deck - set(cards)
    expected = {"PlacePath", "PlayOnCell", "PlayOnJoint", "PlayOnTreasure", "PlayOnPlayer",
                "Pass of 1", "Pass of 2", "ProposeEnd", "Vote yes", "Vote no", "Move",
                "NoMove", "Orient", "Take"}
    assert expected <= set(kinds), expected - set(kinds)


def _fields(state: LostMinesState) -> dict[str, Any]:
    """The state's fields but the game, its deal and the maze (compared slot by slot)."""
    return {k: v for k, v in state.__dict__.items() if k not in ("game", "deal", "maze")}


@compiled
def test_a_clone_keeps_its_own_position() -> None:
    """The core writes a new maze and new token sets into the state it plays (copy-on-write:
    the clone that shares the old ones keeps them), and changes nothing of the original."""
    for seed in range(20):
        a = opening(3 + seed % 7, seed, 20 + seed * 3)
        before = copy.deepcopy(_fields(a))
        maze = copy.deepcopy({slot: getattr(a.maze, slot) for slot in a.maze.__slots__
                              if slot != "cat"})
        b = a.clone()
        b.play_out(Rng(seed), until_round_end=False)
        after = _fields(a)
        assert after.keys() == before.keys()
        for key, value in before.items():
            if key == "rng":
                assert a.rng.state == value.state
            else:
                assert after[key] == value, key
        assert maze == {slot: getattr(a.maze, slot) for slot in a.maze.__slots__
                        if slot != "cat"}


@compiled
def test_play_goes_on_in_python_after_a_compiled_play_out() -> None:
    for seed in range(30):
        a = opening(3 + seed % 7, seed, seed * 3)
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
        for seat in range(a.game.players):
            assert a.view(seat).plain() == b.view(seat).plain()


@compiled
def test_a_play_out_started_while_the_core_is_busy_is_played_in_python() -> None:
    """A play-out asked for while the core waits on Python (here inside a round's end) is
    played pure, and both come out as the pure path has them."""
    outer, inner = opening(5, 8, 30), opening(4, 9, 10)
    outer_ref, inner_ref = outer.clone(), inner.clone()
    inner_ref._pure_play_out(Rng(2), False, "random")
    outer_ref._pure_play_out(Rng(1), False, "random")
    nested: list[int] = []

    def end_round(reason: str | None = None) -> None:
        if not nested:
            nested.append(inner.play_out(Rng(2), until_round_end=False))
        LostMinesState._end_round(outer, reason)

    outer._end_round = end_round  # type: ignore[method-assign]
    outer.play_out(Rng(1), until_round_end=False)
    del outer._end_round
    assert nested and difference(inner_ref, inner) is None
    assert difference(outer_ref, outer) is None


@compiled
def test_the_options_and_a_fixed_deal_play_the_same_on_both_paths() -> None:
    """Rounds and the first player (options), and a fixed deal's rounds (mines, pile)."""
    from pysaboteur.engine.game import Deal

    for seed in range(6):
        game = make_game("lost-mines", 3 + seed, rounds=1 + seed % 3, first_player=seed % 3)
        both_ways(game.new_state(seed), seed, POLICIES[seed % 2], True,  # type: ignore[arg-type]
                  bool(seed % 2))
    mines = tuple(k.code for k in C.CATALOGUE.kinds if k.category == "mine")
    pile = tuple(sorted(k.code for k in C.CATALOGUE.kinds if k.category in ("path", "action")
                        for _ in range(k.count)))
    deal = Deal(goals=tuple(reversed(mines)), decks=(pile,))
    for seed in range(4):
        a: Any = make_game("lost-mines", 4 + seed).new_state(seed, deal)
        both_ways(a, seed, POLICIES[seed % 2], True, bool(seed % 2))


@compiled
def test_the_core_plays_lost_mines() -> None:
    assert core.compiled_play_out(LostMinesState) is not None
    assert "Lost Mines" in core.describe()
    with core.use_pure():
        assert core.compiled_play_out(LostMinesState) is None


@compiled
@pytest.mark.parametrize("players", range(3, 10))
def test_a_new_matchs_first_round_is_the_same_on_both_paths(players: int) -> None:
    """A new match's first round is set up by the core (``setup_for``): the same fields, maze
    and generator as ``_setup_round`` in Python; and the next rounds, dealt by the core
    inside a whole match's play-out, are the same (``both_ways`` with ``whole``)."""
    for seed in range(8):
        game = make_game("lost-mines", players, first_player=seed % players)
        with core.use_pure():
            a: Any = game.new_state(seed)
        b: Any = game.new_state(seed)
        assert difference(a, b) is None
        assert b.census() == a.census()
        both_ways(a, seed, POLICIES[seed % 2], True, bool(seed % 3))


@compiled
def test_a_new_match_asked_for_while_the_core_is_busy_is_set_up_in_python() -> None:
    outer = opening(5, 3, 20)
    reference: Any = outer.clone()
    reference._pure_play_out(Rng(4), False, "random")
    made: list[Any] = []

    def end_round(reason: str | None = None) -> None:
        if not made:
            made.append(make_game("lost-mines", 4).new_state(77))
        LostMinesState._end_round(outer, reason)

    outer._end_round = end_round  # type: ignore[method-assign]
    outer.play_out(Rng(4), until_round_end=False)
    del outer._end_round
    with core.use_pure():
        pure: Any = make_game("lost-mines", 4).new_state(77)
    assert made and difference(pure, made[0]) is None
    assert difference(reference, outer) is None


@compiled
def test_a_round_the_core_ends_has_the_pure_round_end_and_record() -> None:
    """A round the core ends and sets the next one up after is not written back: its
    ``last_round`` is held over the core's position packed (``core.lost_mines._unpacked_end``
    makes it the state's own ``ended_round`` of an ``EndedBoard`` when read), its scores and
    ``RoundResult`` made in C; read, they are the pure engine's (the match's last round is
    written back and held over the state's maze)."""
    from pysaboteur.core.lost_mines import _unpacked_end
    from pysaboteur.engine.views import LaterRoundEnd

    for seed in range(60):
        a = make_game("lost-mines", 3 + seed % 7).new_state(seed)
        b = a.clone()
        a.play_out(Rng(seed), until_round_end=True)
        with core.use_pure(True):
            b.play_out(Rng(seed), until_round_end=True)
        held = a._last_round
        assert isinstance(held, LaterRoundEnd) and held.args is not None
        assert held.make is _unpacked_end and type(held.args[2]) is bytes
        assert a.last_round == b.last_round and a.results == b.results and a.totals == b.totals
        a.play_out(Rng(seed), until_round_end=False)
        with core.use_pure(True):
            b.play_out(Rng(seed), until_round_end=False)
        end = a.last_round
        assert end is not None and end == b.last_round and end.round == 2
        assert end.board and len(end.extra["pawns"]) == a.game.players
        assert a.results == b.results and a.scores() == b.scores()


@compiled
@pytest.mark.parametrize("players", (3, 5, 9))
def test_a_play_out_reads_the_maze_the_last_one_left_packed(players: int) -> None:
    """A play-out leaves its maze packed (``core.lost_mines.PackedMaze``, made a ``Maze`` when
    first touched) and the next play-out reads the packing itself: round by round, the state
    not read between them, the pure engine's match; the maze read at last is the pure one."""
    from pysaboteur.core.lost_mines import PackedMaze
    from pysaboteur.engine.maze import Maze

    for seed in range(6):
        game = make_game("lost-mines", players)
        with core.use_pure():
            a: Any = game.new_state(seed)
        b: Any = game.new_state(seed)
        pick_a, pick_b = Rng(seed), Rng(seed)
        packed = 0
        while not a.is_terminal:
            a._pure_play_out(pick_a, True, POLICIES[seed % 2])
            b.play_out(pick_b, True, POLICIES[seed % 2])
            packed += type(vars(b)["maze"]) is PackedMaze  # (vars: the maze left untouched)
        assert packed >= 2 and b.is_terminal and pick_a.state == pick_b.state
        assert type(vars(b)["maze"]) is PackedMaze
        twin = copy.deepcopy(vars(b)["maze"])  # a copy of a packed maze is the plain one
        assert type(twin) is Maze and type(vars(b)["maze"]) is Maze  # (touched: unpacked)
        for slot in Maze.__slots__:
            if slot != "cat":
                assert getattr(twin, slot) == getattr(a.maze, slot), slot
        assert difference(a, b) is None and b.history == a.history
