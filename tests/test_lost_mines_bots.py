"""The Lost Mines for bots: determinization from a seat's view, role inference, bots.

Bots never read hidden state (the same choice when everything the seat cannot
know is dealt anew), choose only legal actions, and the determinizer's worlds
agree with the view they came from.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysaboteur import core
from pysaboteur.bots import BOTS, Bot, IsmctsBot, make_bot
from pysaboteur.bots import lost_mines_beliefs as lmb
from pysaboteur.bots.lost_mines_beliefs import beliefs, likelihoods
from pysaboteur.bots.lost_mines_heuristic import leaf_values
from pysaboteur.engine.actions import PlacePath
from pysaboteur.engine.rng import Rng
from pysaboteur.games.lost_mines import LostMinesGame, LostMinesState
from pysaboteur.games.lost_mines import cards as C
from pysaboteur.games.lost_mines.determinize import Determinizer
from pysaboteur.games.lost_mines.state import MOVE, ORIENT, TAKE, VOTE, dwarf_box


def _played(players: int, seed: int, steps: int) -> LostMinesState:
    state = LostMinesGame(players).new_state(seed)
    pick = Rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(state.random_action(pick), check=False)
    return state


def _without_log(view: object) -> object:
    return dataclasses.replace(view, log=())  # type: ignore[type-var]


def _positions(players: int, count: int, seed: int = 0) -> Iterator[LostMinesState]:
    """Random live positions, every phase among them."""
    pick = Rng(seed)
    found = 0
    while found < count:
        state = _played(players, pick.below(10**6), pick.below(160))
        if not state.is_terminal:
            found += 1
            yield state


# ---------------------------------------------------------------- determinizer
@pytest.mark.parametrize("players", [3, 5, 9])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 220), other=st.integers(0, 2**32))
def test_samples_agree_with_the_view(players: int, seed: int, steps: int, other: int) -> None:
    state = _played(players, seed, steps)
    if state.is_terminal:
        return
    box = state.census()
    for seat in range(players):
        view = state.view(seat)
        sample = Determinizer(view).sample(Rng(other))
        assert set(sample.__dict__) == set(state.__dict__)
        assert _without_log(sample.view(seat)) == _without_log(view)
        assert sample.census() == box
        if seat == state.current_player:
            assert sample.legal_actions() == state.legal_actions()
            assert sample.legal_count() == state.legal_count()
    # a sample plays on to the end like any state, conserving every card
    sample = Determinizer(state.view(state.current_player)).sample(Rng(other))
    pick = Rng(other)
    while not sample.is_terminal:
        legal = sample.legal_actions()
        sample.apply(legal[pick.below(len(legal))])
        assert sample.census() == box


def test_samples_of_move_and_vote_phases() -> None:
    states = [s for s in _positions(5, 200, seed=3) if s.phase in (MOVE, VOTE)][:20]
    assert {s.phase for s in states} == {MOVE, VOTE}
    for state in states:
        seat = state.current_player
        view = state.view(seat)
        sample = Determinizer(view).sample(Rng(1))
        assert _without_log(sample.view(seat)) == _without_log(view)
        assert sample.legal_actions() == state.legal_actions()


def test_samples_cover_hidden_cards_uniformly() -> None:
    state = _played(5, 11, 40)
    seat = state.current_player
    det = Determinizer(state.view(seat))
    rng = Rng(1)
    n = 2000
    other = (seat + 1) % 5
    cards: Counter[str] = Counter()
    mines: Counter[tuple[int, str]] = Counter()
    dwarves: Counter[str] = Counter()
    for _ in range(n):
        sample = det.sample(rng)
        cards.update(sample.hands[other])
        mines.update(sample.maze.hidden.items())
        dwarves[sample.dwarves[other]] += 1
    unknown = Counter(det.unknown_cards)
    size = len(state.hands[other])
    for code, copies in unknown.items():
        expected = n * size * copies / len(det.unknown_cards)
        assert abs(cards[code] - expected) < 5 * expected**0.5 + 5, code
    assert set(cards) == set(unknown)
    for c in det.unseen_cells:  # every unknown mine equally likely on every unseen cell
        for code in det.unknown_mines:
            expected = n / len(det.unknown_mines)
            assert abs(mines[c, code] - expected) < 5 * expected**0.5 + 5
    # identities follow the clan's dwarf cards in play (base rates)
    clan = state.clan(other)
    box = Counter(d for d in dwarf_box(5) if C.clan_of(d) == clan)
    if state.clan(seat) == clan:
        box[state.dwarves[seat]] -= 1
    total = sum(box.values())
    for code, copies in box.items():
        expected = n * copies / total
        assert abs(dwarves[code] - expected) < 5 * expected**0.5 + 5, code


def test_weights_shift_identity_samples() -> None:
    state = _played(5, 4, 10)
    seat = state.current_player
    other = next(s for s in range(5) if s != seat and state.clan(s) != state.clan(seat))
    weights: list[dict[str, float] | None] = [None] * 5
    weights[other] = {C.LOYAL: 1.0, C.SELFISH: 1.0, C.SABOTEUR: 50.0}
    det = Determinizer(state.view(seat), weights)
    plain = Determinizer(state.view(seat))
    rng = Rng(2)
    weighted = sum(C.identity_of(det.sample(rng).dwarves[other]) == C.SABOTEUR
                   for _ in range(500))
    base = sum(C.identity_of(plain.sample(rng).dwarves[other]) == C.SABOTEUR
               for _ in range(500))
    assert weighted > 400 > 150 > base


def test_known_facts_stay_fixed() -> None:
    """What the seat saw (its treasures, looks) is the same in every sample."""
    for state in _positions(5, 40, seed=9):
        seat = state.current_player
        view = state.view(seat)
        det = Determinizer(view)
        for i in range(5):
            sample = det.sample(Rng(i))
            assert sample.dwarves[seat] == state.dwarves[seat]
            for slot in state.collected[seat]:
                assert sample.layout[slot] == state.layout[slot]
            for slot in state.seen_treasures[seat]:
                assert sample.layout[slot] == state.layout[slot]
            for s in state.seen_dwarves[seat]:
                assert sample.dwarves[s] == state.dwarves[s]
            for c, code in state.seen_mines[seat].items():
                if c in state.maze.hidden:
                    assert sample.maze.hidden[c] == code


def test_spectators_and_finished_matches_cannot_be_determinized() -> None:
    with pytest.raises(ValueError):
        Determinizer(LostMinesGame(4).new_state(0).view(None))
    state = _played(3, 1, 10_000)
    assert state.is_terminal
    with pytest.raises(ValueError):
        Determinizer(state.view(0))


# ---------------------------------------------------------------- positions bots reach
def _heuristic_game(seed: int, decisions: int) -> list[LostMinesState]:
    """Positions of a match the heuristic plays against itself (it reaches the mines, which
    random play hardly ever does)."""
    bots = [make_bot("heuristic", seed * 10 + s) for s in range(5)]
    state = LostMinesGame(5).new_state(seed)
    out = []
    for _ in range(decisions):
        if state.is_terminal:
            break
        out.append(state.clone())
        p = state.current_player
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    return out


@pytest.fixture(scope="module")
def played_by_heuristic() -> list[LostMinesState]:
    return _heuristic_game(4, 80)  # treasures taken from move 33 on, a choice to make at 69


def test_samples_agree_once_mines_are_open_and_treasures_taken(
        played_by_heuristic: list[LostMinesState]) -> None:
    states = played_by_heuristic
    assert any(s.phase in (ORIENT, TAKE) for s in states)
    checked = 0
    for state in states:
        if state.phase not in (ORIENT, TAKE) and len(state.maze.hidden) == 4:
            continue
        box = state.census()
        for seat in range(5):
            view = state.view(seat)
            sample = Determinizer(view).sample(Rng(seat))
            assert _without_log(sample.view(seat)) == _without_log(view)
            assert sample.census() == box
            if seat == state.current_player:
                assert sample.legal_actions() == state.legal_actions()
        checked += 1
    assert checked >= 5


# ---------------------------------------------------------------- role inference
def test_beliefs_start_at_the_base_rate_and_know_what_the_seat_knows() -> None:
    state = LostMinesGame(5).new_state(8)
    view = state.view(2)
    probs = beliefs(view)
    assert probs[2][state.identity(2)] == 1.0
    for s in range(5):
        assert sum(probs[s].values()) == pytest.approx(1.0)
    like = likelihoods(view)
    assert like[2] is None and all(v == 1.0 for s in (0, 1, 3, 4) for v in like[s].values())
    # with 5 players each clan has 2 loyal, 1 selfish, 1 saboteur dwarf in play
    other = next(s for s in range(5) if state.clan(s) != state.clan(2))
    assert probs[other][C.LOYAL] == pytest.approx(0.5)


def test_beliefs_react_to_play(played_by_heuristic: list[LostMinesState]) -> None:
    state = played_by_heuristic[60]
    view = state.view(state.current_player)
    like = likelihoods(view)
    assert any(w is not None and len(set(w.values())) > 1 for w in like)


def test_replays_kept_between_views_give_the_evidence_of_a_fresh_replay(
        played_by_heuristic: list[LostMinesState]) -> None:
    """``likelihoods`` takes a replay of the round on from an earlier view; it must say
    exactly (to the last bit) what replaying the whole round says, at every decision,
    for every seat, as treasures are taken and mines opened, and across rounds."""
    games = [played_by_heuristic]
    for seed in range(2):  # random play: more rounds
        state, pick, states = LostMinesGame(5).new_state(seed), Rng(seed), []
        while not state.is_terminal:
            states.append(state.clone())
            state.apply(state.random_action(pick), check=False)
        games.append(states)
    for states in games:
        for state in states:
            for seat in range(5):
                view = state.view(seat)
                kept = likelihoods(view)
                fresh, lmb._REPLAYS.entries = lmb._REPLAYS.entries, {}  # nothing kept
                assert likelihoods(view) == kept
                lmb._REPLAYS.entries = fresh  # go on with the kept replays
    assert len(lmb._REPLAYS.entries) <= lmb._REPLAYS.most


def test_kept_walking_costs_are_the_costs_worked_out_afresh(
        played_by_heuristic: list[LostMinesState]) -> None:
    """The heuristic keeps walking costs by maze (and version), start and obstacle objects:
    every candidate move's prospects equal those worked out with nothing kept, also when
    a state's own maze changes in place (the same object, a new version)."""
    from pysaboteur.bots import lost_mines_heuristic as lmh

    def fresh(state: LostMinesState) -> list[float]:
        kept, lmh._WALKS.entries = lmh._WALKS.entries, {}
        try:
            return lmh.prospects(state)
        finally:
            lmh._WALKS.entries = kept

    for state in played_by_heuristic[::2]:
        before = lmh.prospects(state)
        for action in state.legal_actions():
            trial = state.clone()
            trial.apply(action, check=False)
            assert lmh.prospects(trial) == fresh(trial)
        own = copy.deepcopy(state)  # a maze of its own, changed in place below
        assert lmh.prospects(own) == before
        with core.use_pure():  # (the compiled core writes a new maze: pure, to change it in place)
            for action in own.legal_actions():
                if isinstance(action, PlacePath):
                    maze = own.maze
                    own.apply(action, check=False)
                    assert own.maze is maze  # changed in place: only the version tells
                    assert lmh.prospects(own) == fresh(own)
                    break


# ---------------------------------------------------------------- bots
def _fast(name: str, seed: int) -> Bot:
    if name == "ismcts":
        return IsmctsBot(seed, iterations=20, seconds=5)
    return make_bot(name, seed)


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_choose_legal_moves(bot: str,
                                 played_by_heuristic: list[LostMinesState]) -> None:
    count = 12 if bot == "ismcts" else 60
    positions = [*_positions(5, count, seed=len(bot)), *played_by_heuristic[::12]]
    for i, state in enumerate(positions):
        p = state.current_player
        legal = state.legal_actions()
        assert _fast(bot, i).choose(state.view(p), legal) in legal


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_decide_from_the_view_alone(bot: str,
                                         played_by_heuristic: list[LostMinesState]) -> None:
    """Dealing everything the seat cannot know anew (same view) must not change its choice."""
    count = 8 if bot == "ismcts" else 30
    positions = [*_positions(5, count, seed=7), *played_by_heuristic[5::20]]
    for i, state in enumerate(positions):
        p = state.current_player
        other = state.shuffle_hidden(p, Rng(i))
        assert other.view(p) == state.view(p)
        assert other.legal_actions() == state.legal_actions()
        a = _fast(bot, i).choose(state.view(p), state.legal_actions())
        b = _fast(bot, i).choose(other.view(p), other.legal_actions())
        assert a == b


def test_leaf_values_follow_the_score_of_a_finished_round() -> None:
    state = _played(5, 3, 30)
    values = leaf_values(state)
    assert len(values) == 5 and all(v >= 0 for v in values)


def test_treasure_values_cover_what_the_seat_has_not_seen(
        played_by_heuristic: list[LostMinesState]) -> None:
    state = next(s for s in played_by_heuristic if any(s.collected))
    holder = next(s for s in range(5) if state.collected[s])
    seat = (holder + 1) % 5
    det = Determinizer(state.view(seat))
    slot = state.collected[holder][0]
    kind = C.treasure_type(state.layout[slot])
    pool = next(p for sl, p in det.treasure_pools if slot in sl)
    assert all(C.treasure_type(c) == kind for c in pool) and len(pool) == 4
    rng = Rng(3)
    n = 1200
    seen = Counter(det.sample(rng).layout[slot] for _ in range(n))
    for code, copies in Counter(pool).items():
        expected = n * copies / len(pool)
        assert abs(seen[code] - expected) < 5 * expected**0.5 + 5, code
    # the holder itself knows the value in every sample
    own = Determinizer(state.view(holder))
    assert {own.sample(Rng(i)).layout[slot] for i in range(20)} == {state.layout[slot]}
