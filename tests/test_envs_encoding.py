"""The encodings: legal actions <-> ints exactly, observations from the view alone."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from pysaboteur.engine.rng import Rng  # noqa: E402
from pysaboteur.envs import make_encoding, supported_games  # noqa: E402
from pysaboteur.envs.encoding import OBS_BOUND, Unencodable  # noqa: E402
from pysaboteur.registry import GAMES, make_game  # noqa: E402

#: (game, players) for the default run: a few player counts per game
CASES = [(g, p) for g in supported_games()
         for p in sorted({GAMES[g].players[0], GAMES[g].default_players, GAMES[g].players[1]})]


def positions(game_name: str, players: int, games: int):
    game = make_game(game_name, players)
    for seed in range(games):
        state = game.new_state(seed)
        pick = Rng(seed + 1000)
        while not state.is_terminal:
            yield state
            legal = state.legal_actions()
            state.apply(legal[pick.below(len(legal))], check=False)


def test_every_playable_game_is_covered() -> None:
    assert {"duel", "solo", "classic", "expansion", "lost-mines"} <= set(supported_games())


@pytest.mark.parametrize(("name", "players"), CASES)
def test_legal_actions_round_trip(name: str, players: int) -> None:
    enc = make_encoding(make_game(name, players))
    count = 0
    for state in positions(name, players, 12):
        seat = state.current_player
        view = state.view(seat)
        legal = state.legal_actions()
        ids, acts, missed = enc.legal(legal, seat, view)
        assert missed == 0
        assert acts == legal
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < enc.num_actions for i in ids)
        for i, action in zip(ids, legal, strict=True):
            assert enc.encode(action, seat, view) == i
            back = enc.decode(i, seat, view)
            assert back == action and type(back) is type(action)
        count += 1
    assert count > 500


@pytest.mark.parametrize(("name", "players"), CASES)
def test_observation_shape_and_bounds(name: str, players: int) -> None:
    enc = make_encoding(make_game(name, players))
    for n, state in enumerate(positions(name, players, 2)):
        if n % 7:
            continue
        for seat in range(players):
            obs = enc.observe(state.view(seat))
            assert obs.shape == (enc.obs_size,) and obs.dtype == np.float32
            assert np.all(np.abs(obs) <= OBS_BOUND)
            assert obs[enc.layout.fields["hand"]].sum() == len(state.hand(seat))


def test_observation_sees_only_the_view() -> None:
    """Dealing every hidden card anew changes nothing a seat observes."""
    enc = make_encoding(make_game("duel"))
    rng = Rng(5)
    for n, state in enumerate(positions("duel", 2, 3)):
        if n % 5:
            continue
        for seat in range(2):
            other = state.shuffle_hidden(seat, rng)
            assert np.array_equal(enc.observe(state.view(seat)),
                                  enc.observe(other.view(seat)))


def test_layout_names_every_entry() -> None:
    enc = make_encoding(make_game("duel"))
    lay = enc.layout
    assert lay.size == enc.obs_size
    assert sum(size for _, _, size in lay.describe()) == lay.size
    _, h, w = lay.grid_shape
    assert (h, w) == (enc.window.height, enc.window.width)
    assert "up:edge_N" in lay.planes and "marker_rel1" in lay.planes


def test_out_of_window_placement_is_refused() -> None:
    from pysaboteur.engine.actions import PlacePath

    enc = make_encoding(make_game("duel"))
    with pytest.raises(Unencodable):
        enc.encode(PlacePath("NESW", enc.window.x1 + 1, 0), 0)
    inside = PlacePath("NESW", enc.window.x1, enc.window.y0)
    assert enc.decode(enc.encode(inside, 1), 1) == inside


def test_seats_are_relative() -> None:
    from pysaboteur.engine.actions import PlayOnPlayer

    enc = make_encoding(make_game("classic", 4))
    a = PlayOnPlayer("break-cart", 2)
    b = PlayOnPlayer("break-cart", 3)
    assert enc.encode(a, 1) == enc.encode(b, 2)
    assert enc.decode(enc.encode(a, 1), 1) == a
