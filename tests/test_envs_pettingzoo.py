"""PettingZoo AEC environments: PettingZoo's own API and seed tests for every game."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from pysaboteur.envs import supported_games
from pysaboteur.envs.pettingzoo import env
from pysaboteur.registry import GAMES

CASES = [(g, p) for g in supported_games()
         for p in sorted({GAMES[g].players[0], GAMES[g].players[1]})]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_api(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo's style warnings
        api_test(env(game=name, players=players), num_cycles=200)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_seed(name: str, players: int) -> None:
    seed_test(lambda: env(game=name, players=players), num_cycles=200)


def play_randomly(e: Any, seed: int) -> tuple[dict[str, float], list[int]]:
    """Play the reset env ``e`` to its end with random legal moves: each agent's summed
    reward, and the scores of the infos at the end."""
    import numpy as np

    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in e.possible_agents}
    scores: list[int] = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            scores = info.get("scores", scores)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total, scores


def test_full_match_rewards_are_the_returns() -> None:
    e = env(game="duel")
    e.reset(seed=11)
    total, _ = play_randomly(e, 0)
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert e.unwrapped.unencodable == 0


def test_saboteur_rewards_first_place_not_gold() -> None:
    """As the module says: 1 to each seat sharing the most gold, the gold in the infos."""
    e = env(game="classic", players=3)
    e.reset(seed=2)
    total, scores = play_randomly(e, 2)
    best = max(scores)
    assert [total[a] for a in e.possible_agents] == [float(g == best) for g in scores]
    from pysaboteur.envs import pettingzoo

    assert "1 to each seat sharing first place" in " ".join(str(pettingzoo.__doc__).split())


def test_illegal_action_is_refused() -> None:
    e = env(game="duel")
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(obs["action_mask"].argmin())
    with pytest.raises(ValueError):
        e.step(bad)


def test_same_seed_same_match() -> None:
    a, b = env(game="classic", players=4), env(game="classic", players=4)
    a.reset(seed=5)
    b.reset(seed=5)
    import numpy as np

    assert np.array_equal(a.observe("player_2")["observation"],
                          b.observe("player_2")["observation"])
    assert isinstance(a.unwrapped.render(), str)


def test_bench_env_steps() -> None:
    from pysaboteur.cli.bench import env_play

    result = env_play("duel", None, 0.3, 1)
    assert result["env_steps_per_s"] > 0
