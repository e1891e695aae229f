"""The single-agent Gymnasium environment: Gymnasium's own checker, bots, masks."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pysaboteur.envs import supported_games  # noqa: E402
from pysaboteur.envs.gymnasium import SaboteurEnv  # noqa: E402
from pysaboteur.registry import GAMES  # noqa: E402


@pytest.mark.parametrize("name", supported_games())
def test_check_env(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SaboteurEnv(game=name, players=GAMES[name].players[0]),
                  skip_render_check=True)


def play(env: SaboteurEnv, seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    reward, steps, done = 0.0, 0, False
    while not done:
        assert set(np.flatnonzero(obs["action_mask"])) == set(info["legal_actions"])
        obs, reward, done, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        steps += 1
    return reward, steps


def test_duel_against_the_heuristic_bot() -> None:
    env = SaboteurEnv(game="duel", seat=1, opponents="heuristic")
    reward, steps = play(env, 3)
    assert reward in (-1.0, 0.0, 1.0) and steps > 10
    assert play(env, 3) == (reward, steps)  # the seed fixes the deal and the bots
    assert env.unencodable == 0


def test_no_step_after_the_match() -> None:
    env = SaboteurEnv(game="duel")
    play(env, 4)
    with pytest.raises(RuntimeError):
        env.step(0)


def test_one_bot_per_seat() -> None:
    env = SaboteurEnv(game="classic", players=3, seat=2, opponents=["random", "random"])
    play(env, 1)
    with pytest.raises(ValueError):
        SaboteurEnv(game="classic", players=3, opponents=["random"])


def test_illegal_actions() -> None:
    env = SaboteurEnv(game="duel")
    obs, _ = env.reset(seed=2)
    bad = int(obs["action_mask"].argmin())
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1.0 and info["illegal"]
    with pytest.raises(RuntimeError):  # the episode ended: no step until reset()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, _ = env.reset(seed=2)
    assert env.step(int(np.flatnonzero(obs["action_mask"])[0]))[1] == 0.0
    strict = SaboteurEnv(game="duel", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError):
        strict.step(bad)


def test_registered_with_gymnasium() -> None:
    env = gym.make("pysaboteur/Saboteur-v0", game="solo")
    obs, _ = env.reset(seed=0)
    assert obs["observation"].shape == env.observation_space["observation"].shape
    assert env.unwrapped.action_masks().any()
