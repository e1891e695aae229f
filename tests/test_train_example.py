"""The PPO self-play example (examples/train_duel_ppo.py) runs, on tiny settings, so that it
cannot rot: training, the learning curve, saving, evaluation against every bot."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_duel_ppo.py"


@pytest.fixture(scope="module")
def ppo() -> Any:
    spec = importlib.util.spec_from_file_location("train_duel_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_duel_ppo"] = module
    spec.loader.exec_module(module)
    return module


def test_trains_plots_saves_and_evaluates(ppo: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    results = ppo.main(["--minutes", "10", "--updates", "2", "--matches", "2", "--epochs", "1",
                        "--curve-every", "1", "--curve-matches", "2", "--eval-matches", "2",
                        "--ismcts-iterations", "2", "--snapshot-every", "1", "--out", str(out)])
    assert results["updates"] == 2 and results["matches_trained"] == 4
    assert (out / "agent.pt").stat().st_size > 0
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = json.loads((out / "results.json").read_text())
    assert [c["update"] for c in saved["curve"]] == [0, 1, 2]
    for name in ("random", "heuristic", "ismcts"):
        res = saved["eval"][name]
        assert res["matches"] == 2 and res["wins"] + res["draws"] + res["losses"] == 2
        assert 0.0 <= res["win_ci95"][0] <= res["win_rate"] <= res["win_ci95"][1] <= 1.0
    assert saved["eval"]["ismcts"]["ismcts_iterations"] == 2
    # the saved weights load and evaluate without training
    again = ppo.main(["--minutes", "0", "--load", str(out / "agent.pt"), "--eval-matches", "2",
                      "--opponents", "random", "--out", str(tmp_path / "again")])
    assert again["updates"] == 0 and again["eval"]["random"]["matches"] == 2


def test_returns_are_the_match_result_without_discount(ppo: Any) -> None:
    """With gamma = lambda = 1 every decision's return is its seat's final reward, and the
    recorded log-probability is that of the action taken among the legal rows."""
    import torch

    from pysaboteur.envs.selfplay import league

    aec = ppo.duel_env()
    space = aec.unwrapped.forms.observation_space
    agent = ppo.Agent(aec.unwrapped.forms.factored, space["board"].shape,
                      space["vector"].shape[0], int(space["history"].shape[0]
                                                    * space["history"].shape[1]))
    player = ppo.Player(agent, generator=torch.Generator().manual_seed(1))
    episodes = list(league(ppo.duel_env, player, [player], episodes=2, seed=7))
    trajs = ppo.trajectories(episodes, live=[0, 1])
    assert len(trajs) == 4  # both seats of both matches were the live learner
    batch = ppo.build_batch(agent, trajs, gamma=1.0, lam=1.0)
    at = 0
    for steps in trajs:
        final = sum(s.reward for s in steps)
        assert final in (-1.0, 0.0, 1.0)
        got = batch.returns[at:at + len(steps)]
        assert torch.allclose(got, torch.full_like(got, final), atol=1e-5)
        at += len(steps)
    assert at == len(batch.chosen)
    assert bool((batch.logp <= 0).all()) and bool(batch.valid[torch.arange(at),
                                                              batch.chosen].all())
