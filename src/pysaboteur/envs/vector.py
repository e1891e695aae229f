"""Batched environments: ``make(game, players, num_envs, ...)`` steps N matches per call.

Gymnasium's vector API (``gymnasium.vector.SyncVectorEnv``): ``reset(seed=s)`` deals match
``s + i`` in environment ``i`` (one seed, reproducible), ``step(actions)`` takes one action
per environment and returns the observations, rewards, terminations, truncations and infos
stacked (``obs["action_mask"]`` is ``(num_envs, num_actions)``, ``obs["board"]``
``(num_envs, channels, height, width)``...).  A match that ends is dealt anew on the next
step (Gymnasium's ``NEXT_STEP`` autoreset: that step's action is ignored, its reward is 0),
from the environment's own generator, so a run is reproducible from the first seed.
``action_masks()`` stacks the masks (MaskablePPO's name).  ``info["legal_actions"]`` and
(factored actions) ``info["legal_factored"]`` are per environment (object arrays of lists:
their lengths differ).

Each environment is a :class:`~pysaboteur.envs.gymnasium.SaboteurEnv` with the same
keywords: one learning ``seat``, ``opponents`` bots or policies (self-play: pass the
learner's own policy), ``observation``, ``actions``, ``history``.

>>> envs = make("duel", num_envs=3, observation="planes")
>>> obs, info = envs.reset(seed=7)
>>> obs["board"].shape[0], envs.action_masks().shape[0]
(3, 3)
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import SyncVectorEnv

from .gymnasium import SaboteurEnv


class _ListedLegal(gym.Wrapper):
    """``info["legal_factored"]`` as a list of rows (Gymnasium stacks arrays of one shape)."""

    @staticmethod
    def _listed(info: dict[str, Any]) -> dict[str, Any]:
        if "legal_factored" in info:
            info = {**info, "legal_factored": list(info["legal_factored"])}
        return info

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return obs, self._listed(info)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, self._listed(info)


class SaboteurVectorEnv(SyncVectorEnv):
    """N :class:`SaboteurEnv` stepped together (Gymnasium's ``SyncVectorEnv``)."""

    def action_masks(self) -> np.ndarray:
        """The stacked masks of the legal actions, ``(num_envs, ...)`` bool."""
        return np.stack(self.call("action_masks"))

    def legal_actions(self) -> list[list[int]]:
        """Per environment, the legal flat indices."""
        return [sorted(d) for d in self.call("legal_actions")]


def make(game: str = "duel", players: int | None = None, num_envs: int = 8,
         **kwargs: Any) -> SaboteurVectorEnv:
    """``num_envs`` matches of ``game`` stepped together (``kwargs``: :class:`SaboteurEnv`'s,
    and ``autoreset_mode`` for Gymnasium)."""
    mode = kwargs.pop("autoreset_mode", "NextStep")

    def one() -> gym.Env:
        return _ListedLegal(SaboteurEnv(game=game, players=players, **kwargs))

    return SaboteurVectorEnv([one] * num_envs, autoreset_mode=mode)
