"""A single-agent Gymnasium environment: one seat learns, bots play the others.

>>> env = SaboteurEnv(game="duel", opponents="random")
>>> obs, info = env.reset(seed=0)
>>> sorted(obs), int(obs["action_mask"].sum()) == len(info["legal_actions"])
(['action_mask', 'observation'], True)

Observations and actions are those of :mod:`pysaboteur.envs.pettingzoo` (the
game's encoding, built from the learning seat's view).  Gymnasium has no
action masks, so the mask is in the observation and in ``info``; an action
outside the mask ends the episode with ``illegal_reward`` (``info["illegal"]``)
unless ``illegal="raise"``; once an episode has ended (the match, or an illegal
action) ``step()`` raises ``RuntimeError`` until ``reset()``.  The reward is the learning seat's ``returns()``
entry, given when the match ends.  The other seats are played by bots from
:func:`pysaboteur.bots.make_bot` (a name, or one name per other seat), each
given only its own view; ``reset(seed=s)`` fixes the deal and the bots' seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..bots import make_bot
from ..bots.base import Bot
from ..engine.actions import Action
from ..engine.game import State
from ..registry import make_game
from . import make_encoding
from .pettingzoo import observation_space


class SaboteurEnv(gym.Env):  # type: ignore[misc]
    """One seat of a pysaboteur match against bots."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "duel", players: int | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = "random", illegal: str = "terminate",
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 **options: Any) -> None:
        self.game = make_game(game, players, **options)
        if not 0 <= seat < self.game.players:
            raise ValueError(f"seat {seat} is not a seat of a {self.game.players}-player game")
        if illegal not in ("terminate", "raise"):
            raise ValueError("illegal must be 'terminate' or 'raise'")
        self.seat = seat
        others = self.game.players - 1
        names = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(names) != others:
            raise ValueError(f"name {others} opponent bot(s), not {len(names)}")
        for name in names:
            make_bot(name)  # fail early on an unknown name
        self.opponent_names = names
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.encoding = make_encoding(self.game)
        self.observation_space = observation_space(self.encoding.obs_size,
                                                   self.encoding.num_actions)
        self.action_space = gym.spaces.Discrete(self.encoding.num_actions)
        self.state_: State | None = None
        self.bots: dict[int, Bot] = {}
        self._legal: dict[int, Action] = {}
        #: the episode has ended (the match, or an illegal action): step() raises until reset()
        self._over = True
        #: legal actions that fell outside the encoding (measured: never; see docs/envs.md)
        self.unencodable = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2**31)) if seed is None else seed
        self.state_ = self.game.new_state(match_seed)
        others = [s for s in range(self.game.players) if s != self.seat]
        self.bots = {s: make_bot(name, seed=match_seed * 31 + s)
                     for s, name in zip(others, self.opponent_names, strict=True)}
        self._play_others()
        self._over = self.state_.is_terminal
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.state_
        if state is None:
            raise RuntimeError("call reset() first")
        if self._over or state.is_terminal:
            raise RuntimeError("the episode is over: call reset()")
        chosen = self._legal.get(int(action))
        if chosen is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal (see the action mask)")
            obs = self._observe()
            self._over = True
            return obs, float(self.illegal_reward), True, False, {"illegal": True,
                                                                   **self._info()}
        state.apply(chosen, check=False)
        self._play_others()
        terminated = self._over = state.is_terminal
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        return self._observe(), reward, terminated, False, self._info()

    def _play_others(self) -> None:
        state = self.state_
        assert state is not None
        while not state.is_terminal and state.current_player != self.seat:
            seat = state.current_player
            legal = state.legal_actions()
            state.apply(self.bots[seat].choose(state.view(seat), legal), check=False)
        self._legal = {}
        if not state.is_terminal:
            view = state.view(self.seat) if self.encoding.needs_view else None
            ids, acts, missed = self.encoding.legal(state.legal_actions(), self.seat, view)
            self.unencodable += missed
            self._legal = dict(zip(ids, acts, strict=True))

    def _observe(self) -> dict[str, np.ndarray]:
        assert self.state_ is not None
        return {"observation": self.encoding.observe(self.state_.view(self.seat)),
                "action_mask": self.encoding.mask(self._legal)}

    def _info(self) -> dict[str, Any]:
        assert self.state_ is not None
        info: dict[str, Any] = {"legal_actions": list(self._legal)}
        if self.state_.is_terminal:
            info["scores"] = list(self.state_.scores())
        return info

    def action_masks(self) -> np.ndarray:
        """The mask of legal actions (the name sb3-contrib's MaskablePPO looks for)."""
        return self.encoding.mask(self._legal).astype(bool)

    def legal_actions(self) -> dict[int, Action]:
        return dict(self._legal)

    def render(self) -> str | None:
        if self.state_ is None:
            return None
        from ..cli.render import board_text

        return str(board_text(self.state_.view(None), self.game.catalogue).plain)


gym.register(id="pysaboteur/Saboteur-v0", entry_point=SaboteurEnv)
