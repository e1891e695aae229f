"""Self-play: policies as opponents, league collection, the batched environment."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from pysaboteur.envs import vector  # noqa: E402
from pysaboteur.envs.gymnasium import SaboteurEnv  # noqa: E402
from pysaboteur.envs.pettingzoo import env  # noqa: E402
from pysaboteur.envs.selfplay import bot_policy, league, play  # noqa: E402


def random_policy(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)

    def policy(obs, info):  # type: ignore[no-untyped-def]
        if "legal_factored" in info:
            rows = info["legal_factored"]
            return rows[rng.integers(len(rows))]
        return int(rng.choice(info["legal_actions"]))

    return policy


def test_policies_as_opponents_see_their_own_seat() -> None:
    seen = []

    def opponent(obs, info):  # type: ignore[no-untyped-def]
        assert obs["action_mask"][info["legal_actions"]].all()
        assert obs["action_mask"].sum() == len(info["legal_actions"])
        seen.append(1)
        return info["legal_actions"][-1]

    e = SaboteurEnv(game="classic", players=3, opponents=opponent)
    _, info = e.reset(seed=4)
    done = False
    while not done:
        _, _, done, _, info = e.step(info["legal_actions"][0])
    assert seen and e.unencodable == 0
    # mixed: a bot and a policy, factored actions
    e = SaboteurEnv(game="classic", players=3, opponents=["random", random_policy(1)],
                    actions="factored", observation="planes")
    _, info = e.reset(seed=4)
    done = False
    while not done:
        _, _, done, _, info = e.step(info["legal_factored"][0])


def test_a_policy_choosing_outside_its_mask_is_an_error() -> None:
    e = SaboteurEnv(game="duel", opponents=lambda obs, info: -5)
    with pytest.raises(ValueError):
        e.reset(seed=1)
        e.step(e.reset(seed=1)[1]["legal_actions"][0])


def test_self_play_and_league() -> None:
    make = lambda: env(game="duel", observation="planes", history=True)  # noqa: E731
    learner = random_policy(0)
    episodes = list(league(make, learner, [learner], episodes=4, seed=3))
    assert episodes[0].seats == {"player_0": 0, "player_1": 1}
    assert [e.seats["player_1"] for e in episodes][1] == 0  # the learner changes seat
    for ep in episodes:
        assert sorted(ep.returns.values()) in ([-1.0, 1.0], [0.0, 0.0])
        for agent, steps in ep.steps.items():
            assert steps and sum(s.reward for s in steps) == ep.returns[agent]
            assert "history" in steps[0].obs
    # a league with a bot in the pool, reproducible from its seed
    pool = [bot_policy("heuristic", 1), random_policy(2)]
    a = list(league(lambda: env(game="classic", players=3), random_policy(5), pool, 2, seed=8))
    assert all(sum(len(s) for s in e.steps.values()) > 20 for e in a)
    one = play(env(game="duel"), {"player_0": random_policy(0), "player_1": random_policy(1)}, 9)
    two = play(env(game="duel"), {"player_0": random_policy(0), "player_1": random_policy(1)}, 9)
    assert one.returns == two.returns and one.scores == two.scores


def test_bot_policy_answers_in_the_env_form() -> None:
    aec = env(game="duel", actions="factored")
    ep = play(aec, {"player_0": bot_policy("heuristic", 0),
                    "player_1": bot_policy("random", 1)}, seed=2)
    assert sum(len(s) for s in ep.steps.values()) > 10


def test_bot_policy_takes_a_bot_made_with_its_own_settings() -> None:
    """A bot instance (here ISMCTS on a budget of 3 iterations a move) plays as it was made."""
    from pysaboteur.bots.ismcts import IsmctsBot

    search = IsmctsBot(0, iterations=3)
    policy = bot_policy(search)
    assert policy.bot is search
    ep = play(env(game="duel", actions="factored"),
              {"player_0": policy, "player_1": bot_policy("random", 1)}, seed=2)
    assert ep.steps["player_0"] and search.last_iterations == 3


@pytest.mark.parametrize("kwargs", [{}, {"observation": "planes", "actions": "factored",
                                         "history": True}])
def test_batched_env_is_reproducible(kwargs: dict[str, object]) -> None:
    def run() -> tuple[list[float], list[np.ndarray]]:
        envs = vector.make("duel", num_envs=3, **kwargs)
        obs, info = envs.reset(seed=11)
        rng = np.random.default_rng(0)
        rewards, boards = [], []
        for _ in range(80):
            key = "observation" if "observation" in obs else "board"
            boards.append(obs[key].copy())
            if "legal_factored" in info:
                acts = np.stack([rows[rng.integers(len(rows))] if len(rows) else
                                 np.zeros(9, dtype=np.int64)
                                 for rows in info["legal_factored"]])
            else:
                masks = envs.action_masks()
                acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                                 for m in masks])
            obs, reward, _, truncated, info = envs.step(acts)
            rewards += list(reward)
            assert not truncated.any()
        envs.close()
        return rewards, boards

    r1, b1 = run()
    r2, b2 = run()
    assert r1 == r2 and all(np.array_equal(x, y) for x, y in zip(b1, b2, strict=True))
    assert any(r != 0 for r in r1)  # at least one match ended within the run
    envs = vector.make("duel", num_envs=4)
    obs, _ = envs.reset(seed=0)
    assert obs["action_mask"].shape == (4, envs.single_action_space.n)
    assert envs.action_masks().shape == obs["action_mask"].shape
