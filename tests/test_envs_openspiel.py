"""The games as OpenSpiel Python games: OpenSpiel's random-sim test, serialization, ISMCTS."""

from __future__ import annotations

import pickle

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from pysaboteur.envs import supported_games  # noqa: E402
from pysaboteur.envs.openspiel import REGISTERED, short_name  # noqa: E402
from pysaboteur.registry import GAMES  # noqa: E402

CASES = [(g, GAMES[g].players[0]) for g in supported_games()]


def test_registered() -> None:
    assert set(REGISTERED) == {short_name(g) for g in supported_games()}
    assert "python_saboteur_duel" in pyspiel.registered_names()


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_sim(name: str, players: int) -> None:
    game = pyspiel.load_game(short_name(name), {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def random_state(name: str, players: int, steps: int, seed: int = 0):  # type: ignore[no-untyped-def]
    game = pyspiel.load_game(short_name(name), {"players": players, "seed": seed})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


@pytest.mark.parametrize(("name", "players"), CASES)
def test_serialization_and_pickle(name: str, players: int) -> None:
    game, state = random_state(name, players, 40)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize(("name", "players"), CASES)
def test_resample_keeps_the_information_state(name: str, players: int) -> None:
    _, state = random_state(name, players, 25, seed=3)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = False
    for _ in range(5):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history()
        changed |= str(world) != str(state)
    assert changed


def test_strings_and_tensors() -> None:
    game, state = random_state("duel", 2, 10)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()
    info, obs = state.information_state_string(0), state.observation_string(0)
    assert "log=(" in info and "log=()" in obs
    assert state.information_state_string(0) != state.information_state_string(1)
    action = state.legal_actions()[0]
    assert state.action_to_string(state.current_player(), action)


def test_new_initial_states_deal_new_matches() -> None:
    game = pyspiel.load_game("python_saboteur_duel", {"seed": 7})
    a, b = game.new_initial_state(), game.new_initial_state()
    assert str(a) != str(b)
    game.information_state_tensor_size()  # asking for a shape deals nothing
    again = pyspiel.load_game("python_saboteur_duel", {"seed": 7}).new_initial_state()
    assert str(again) == str(a)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_fresh_root_is_one_match(name: str, players: int) -> None:
    """clone(), deserialize_state(serialize()) and pickling of a new root: the same deal."""
    game = pyspiel.load_game(short_name(name), {"players": players, "seed": 5})
    root = game.new_initial_state()
    assert str(root.clone()) == str(root)
    root = game.new_initial_state()
    assert str(game.deserialize_state(root.serialize())) == str(root)
    root = game.new_initial_state()
    assert str(pickle.loads(pickle.dumps(root))) == str(root)
    root = game.new_initial_state()
    twin = root.clone()
    assert twin.legal_actions() == root.legal_actions()


def test_ismcts_plays() -> None:
    game = pyspiel.load_game("python_saboteur_duel")
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                           max_simulations=8, random_state=rs)
    state = game.new_initial_state()
    for _ in range(6):
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rs.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
