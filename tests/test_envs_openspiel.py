"""The games as OpenSpiel Python games: OpenSpiel's random-sim test, serialization, ISMCTS."""

from __future__ import annotations

import os
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


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_clone_shares_the_legal_actions_not_the_position(name: str, players: int) -> None:
    """pyspiel's Clone deep-copies a Python state's attributes; the legal-action cache is
    shared instead (it is never changed, only dropped when an action is applied)."""
    import copy

    game = pyspiel.load_game(short_name(name), {"players": players, "seed": 4})
    state = game.new_initial_state()
    rs = np.random.RandomState(1)
    for _ in range(8):
        state.apply_action(int(rs.choice(state.legal_actions())))
    legal = state.legal_actions()
    twin = state.clone()
    assert twin._legal is state._legal and copy.deepcopy(state._legal) is state._legal
    assert twin.legal_actions() == legal and str(twin) == str(state)
    while not twin.is_terminal():  # the copy plays on; the original is where it was
        twin.apply_action(int(rs.choice(twin.legal_actions())))
    assert state.legal_actions() == legal and not state.is_terminal()
    again = game.deserialize_state(state.serialize())  # the cache survives serialization
    assert again.legal_actions() == legal and pickle.loads(pickle.dumps(state)).legal_actions() \
        == legal


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


K = pyspiel.PrivateInfoType


def observer(game, recall: bool, public: bool, private):  # type: ignore[no-untyped-def]
    from open_spiel.python.observation import make_observation

    return make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=public, private_info=private))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_observation_types_are_honoured(name: str, players: int) -> None:
    """A public observer shows nothing private: the same for every world any seat could
    be in; public + private = the seat's observation; the hand is only in the private."""
    game, state = random_state(name, max(players, 2) if name != "solo" else 1, 30, seed=2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    enc = game.encoding
    hand = enc.layout.fields["hand"]
    n = game.num_players()
    for player in range(n):
        pub, own, private = (observer(game, False, True, K.NONE),
                             observer(game, False, True, K.SINGLE_PLAYER),
                             observer(game, False, False, K.SINGLE_PLAYER))
        for o in (pub, own, private):
            o.set_from(state, player)
        assert pub.tensor[hand].sum() == 0 and own.tensor[hand].sum() > 0
        assert np.array_equal(pub.tensor + private.tensor, own.tensor)
        seen, text = pub.tensor.copy(), pub.string_from(state, player)
        assert "hand=None" in text and "log=()" in text
        for q in range(n):
            world = state.resample_from_infostate(q, sampler)
            pub.set_from(world, player)
            assert np.array_equal(pub.tensor, seen) and pub.string_from(world, player) == text
        recall = observer(game, True, True, K.NONE)
        recall.set_from(state, player)
        assert np.array_equal(recall.dict["public"], seen)
        assert recall.dict["log"][:, 0].sum() == len(state.history())


def test_information_state_tensor_has_the_history() -> None:
    """Perfect recall: the observation, then one row per move (as the seat saw it)."""
    from pysaboteur.envs.history import ROW, ROW_FIELDS

    game, state = random_state("classic", 4, 40, seed=1)
    size = game.observation_tensor_size()
    assert game.information_state_tensor_size() == size + game.max_moves * ROW
    for player in range(4):
        info = np.asarray(state.information_state_tensor(player))
        assert np.array_equal(info[:size], state.observation_tensor(player))
        rows = info[size:].reshape(game.max_moves, ROW)
        assert rows[:, 0].sum() == len(state.history()) == 40
        masked = rows[:40, ROW_FIELDS.index("masked")]
        actors = rows[:40, ROW_FIELDS.index("actor")]
        assert not masked[actors == 0].any()  # its own passes in full
    # two states with the same board but different pasts have different tensors
    a = random_state("duel", 2, 12, seed=4)[1]
    b = random_state("duel", 2, 12, seed=5)[1]
    assert a.information_state_tensor(0) != b.information_state_tensor(0)


def test_random_sim_cannot_serialize_the_rng() -> None:
    """pyspiel 2.0.2 does not let a Python game give its RNG state (``GetRNGState``), which
    ``serialize_game_and_state`` asks a SAMPLED_STOCHASTIC game for: the known limit of
    ``random_sim_test(serialize=True)`` (if a pyspiel release lifts it, this test says so)."""
    game = pyspiel.load_game("python_saboteur_duel")
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_our_serialize_game_and_state(name: str, players: int) -> None:
    """What random_sim_test(serialize=True) checks (at its first 10 moves, then at powers of
    two; here at a few of those points), with the game's RNG state kept."""
    from pysaboteur.envs.openspiel import deserialize_game_and_state, serialize_game_and_state

    game = pyspiel.load_game(short_name(name), {"players": players, "seed": 3})
    game.new_initial_state().clone()  # a root used: the RNG state moves on
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    n = 0
    while not state.is_terminal():
        if n in (0, 3, 16, 64):
            game2, state2 = deserialize_game_and_state(serialize_game_and_state(game, state))
            assert str(game2) == str(game) and str(state2) == str(state)
            # the next root of the copy is the next root of the original
            twin = pyspiel.load_game(short_name(name), {"players": players, "seed": 3})
            for _ in range(2):
                twin.new_initial_state().clone()
            assert str(game2.new_initial_state()) == str(twin.new_initial_state())
        state.apply_action(int(rng.choice(state.legal_actions())))
        n += 1


def test_ismcts_through_evaluate_bots() -> None:
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    from pysaboteur.envs.openspiel import ismcts_bot

    game = pyspiel.load_game("python_saboteur_duel", {"seed": 2})
    rs = np.random.RandomState(0)
    bot = ismcts_bot(game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                     max_simulations=2, random_state=rs)
    state = game.new_initial_state()
    bot.restart_at(state)  # what evaluate_bots calls first
    bot.inform_action(state, 1, state.legal_actions()[0])
    assert bot.step(state) in state.legal_actions()
    if os.environ.get("PYSABOTEUR_SLOW"):
        returns = evaluate_bots.evaluate_bots(
            game.new_initial_state(), [bot, uniform_random.UniformRandomBot(1, rs)], rs)
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


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
