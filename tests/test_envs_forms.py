"""The compact forms: planes, factored actions, history; their spaces, maps and secrecy."""

from __future__ import annotations

import os
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from pysaboteur.engine.rng import Rng  # noqa: E402
from pysaboteur.envs import make_encoding, supported_games  # noqa: E402
from pysaboteur.envs.factored import FACTORS  # noqa: E402
from pysaboteur.envs.forms import Forms  # noqa: E402
from pysaboteur.envs.gymnasium import SaboteurEnv  # noqa: E402
from pysaboteur.envs.pettingzoo import env  # noqa: E402
from pysaboteur.registry import GAMES, make_game  # noqa: E402

SLOW = bool(os.environ.get("PYSABOTEUR_SLOW"))
#: every game at its smallest and largest player count (the issue's eleven set-ups)
CASES = [(g, p) for g in supported_games()
         for p in sorted({GAMES[g].players[0], GAMES[g].players[1]})]
SMALL = [(g, GAMES[g].players[0]) for g in supported_games()]
COMPACT = {"observation": "planes", "actions": "factored", "history": True}


def positions(name: str, players: int, games: int, every: int = 1):  # type: ignore[no-untyped-def]
    game = make_game(name, players)
    for seed in range(games):
        state = game.new_state(seed)
        pick = Rng(seed + 77)
        n = 0
        while not state.is_terminal:
            if n % every == 0:
                yield state
            n += 1
            legal = state.legal_actions()
            state.apply(legal[pick.below(len(legal))], check=False)


@pytest.mark.parametrize(("name", "players"), SMALL)
def test_factored_actions_map_one_to_one(name: str, players: int) -> None:
    forms = Forms(make_encoding(make_game(name, players)), actions="factored")
    enc, fa = forms.encoding, forms.factored
    assert fa is not None
    assert all(fa.index(fa.rows[i]) == i for i in range(0, enc.num_actions, 7))
    rng = np.random.default_rng(0)
    count = 0
    for state in positions(name, players, 3, every=3):
        seat = state.current_player
        view = state.view(seat)
        ids, acts, missed = enc.legal(state.legal_actions(), seat, view)
        assert missed == 0
        for i, action in zip(ids, acts, strict=True):
            assert forms.to_index(forms.from_index(i)) == i
            assert enc.decode(forms.to_index(fa.rows[i]), seat, view) == action
        masks = fa.masks(ids)
        legal_rows = fa.rows[ids]
        for j, f in enumerate(FACTORS):
            assert set(np.flatnonzero(masks[f"mask_{f}"])) == set(legal_rows[:, j])
        # choosing factor after factor, each by its conditional mask, is always legal
        prefix: list[int] = []
        for _ in FACTORS:
            prefix.append(int(rng.choice(np.flatnonzero(fa.conditional_mask(ids, prefix)))))
        assert fa.index(prefix) in set(ids)
        count += 1
    assert count > 20


@pytest.mark.parametrize(("name", "players"), SMALL)
def test_planes_hold_the_flat_observation(name: str, players: int) -> None:
    enc = make_encoding(make_game(name, players))
    forms = Forms(enc, observation="planes")
    planes = forms.planes
    assert planes is not None
    lay = enc.layout
    for state in positions(name, players, 1, every=9):
        view = state.view(state.current_player)
        flat = enc.observe(view)
        board, vector = planes.observe(view)
        assert board.dtype == np.uint8 and board.shape == planes.board_shape
        assert np.array_equal(vector, flat[lay.grid_size:])
        grid = flat[:lay.grid_size].reshape(lay.grid_shape)
        for c, channel in enumerate(planes.channels):
            if channel in lay.plane_index:
                assert np.array_equal(board[c], grid[lay.plane_index[channel]])
            else:  # a tile feature: face up or known face down
                assert np.array_equal(board[c], grid[lay.plane_index["up:" + channel]]
                                      + grid[lay.plane_index["known:" + channel]])


def compact_observations(forms: Forms, state, seat: int, memo=None):  # type: ignore[no-untyped-def]
    """Every form of the observation of ``seat``, masks included when it is on turn."""
    enc = forms.encoding
    view = state.view(seat)
    ids = None
    if state.current_player == seat:
        ids, _, _ = enc.legal(state.legal_actions(), seat, view)
    out = forms.observe(view, seat, ids, memo)
    out["flat"] = enc.observe(view)
    if ids is not None:
        out["action_mask"] = enc.mask(ids)
        out["legal_factored"] = forms.factored.rows[ids]
    return out


@pytest.mark.parametrize(("name", "players"), CASES)
def test_compact_forms_see_only_the_view(name: str, players: int) -> None:
    """Dealing every hidden card anew (each seat's view kept) changes none of the forms:
    flat, planes, vector, history, the flat and factored masks and legal rows."""
    forms = Forms(make_encoding(make_game(name, players)), **COMPACT)
    rng = Rng(9)
    compared = 0
    games, every = (6, 2) if SLOW else (1, 9)
    for state in positions(name, players, games, every):
        for seat in range(players):
            mine = compact_observations(forms, state, seat)
            other = compact_observations(forms, state.shuffle_hidden(seat, rng), seat)
            assert mine.keys() == other.keys()
            for key, value in mine.items():
                assert np.array_equal(value, other[key]), (key, seat)
                compared += 1
    assert compared > 50
    print(f"{name} {players}: {compared} arrays compared")


@pytest.mark.parametrize(("name", "players"), SMALL)
def test_history_memo_is_the_same(name: str, players: int) -> None:
    forms = Forms(make_encoding(make_game(name, players)), history=True)
    hist = forms.history
    assert hist is not None
    memo: dict[int, object] = {}
    moved = 0
    for state in positions(name, players, 2, every=1):
        if state.history == []:
            memo = {}
        seat = state.current_player
        view = state.view(seat)
        got = hist.features(view, seat, memo)
        assert np.array_equal(got, hist.features(view, seat))
        moved = max(moved, int(got[:players].sum()))
    assert moved > 10


def test_history_reads_tools_broken_and_dead_ends() -> None:
    from pysaboteur.envs.history import History

    enc = make_encoding(make_game("classic", 4))
    hist = History(enc)
    col = {c: i for i, c in enumerate(hist.columns)}

    class View:  # the fields the history reads
        seat, round_start, results, discards = 1, 2, (), ("map",)
        log = ((0, "break-cart>3"), (1, "pass 1"), (3, "break-lantern>1"),
               (2, "N@3,0"), (0, "pass NES"))

    h = hist.features(View, 1)
    # rows are relative to seat 1: seat 3 is relative 2, seat 0 relative 3
    assert h[3, col["match:aimed:break-cart>rel2"]] == 1
    assert h[3, col["round:aimed:break-cart>rel2"]] == 0  # before the round started
    assert h[2, col["round:aimed:break-lantern>rel0"]] == 1
    assert h[1, col["round:dead_ends"]] == 1 and h[1, col["round:played:N"]] == 1
    assert h[0, col["match:passed"]] == 1 and h[3, col["round:passed"]] == 1
    assert h[4, col["discards:map"]] == 1


@pytest.mark.parametrize(("name", "players"), SMALL)
def test_gymnasium_checker_on_the_compact_forms(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SaboteurEnv(game=name, players=players, **COMPACT), skip_render_check=True)
        check_env(SaboteurEnv(game=name, players=players, observation="planes"),
                  skip_render_check=True)


@pytest.mark.parametrize(("name", "players"), SMALL)
def test_pettingzoo_checkers_on_the_compact_forms(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo's style warnings
        api_test(env(game=name, players=players, observation="planes", history=True),
                 num_cycles=30)
        # factored actions: api_test samples each factor on its own (unmasked), so most of
        # its actions are illegal; ``illegal="terminate"`` ends the match on one
        api_test(env(game=name, players=players, illegal="terminate", **COMPACT),
                 num_cycles=20)
    seed_test(lambda: env(game=name, players=players, illegal="terminate", **COMPACT),
              num_cycles=20)


def play_factored(e, seed: int) -> int:  # type: ignore[no-untyped-def]
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        rows = info["legal_factored"]
        for j, f in enumerate(FACTORS):
            assert set(rows[:, j]) == set(np.flatnonzero(obs[f"mask_{f}"]))
        e.step(rows[rng.integers(len(rows))])
        steps += 1
    return steps


@pytest.mark.parametrize(("name", "players"), SMALL)
def test_a_whole_match_in_factored_actions(name: str, players: int) -> None:
    e = env(game=name, players=players, **COMPACT)
    assert play_factored(e, 3) > 10
    assert e.unwrapped.unencodable == 0


def test_sizes() -> None:
    """The compact observation is a small part of the flat one."""
    for name, players in SMALL:
        enc = make_encoding(make_game(name, players))
        flat = Forms(enc)
        small = Forms(enc, **COMPACT)
        flat_bytes = sum(int(np.prod(s.shape)) * s.dtype.itemsize
                         for s in flat.observation_space.spaces.values())
        small_bytes = sum(int(np.prod(s.shape)) * s.dtype.itemsize
                          for s in small.observation_space.spaces.values())
        assert small_bytes * 3 < flat_bytes, (name, small_bytes, flat_bytes)
