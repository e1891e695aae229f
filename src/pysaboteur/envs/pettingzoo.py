"""PettingZoo AEC environments for every game: ``env(game="duel", players=2)``.

Agents are ``player_0 .. player_{n-1}`` (seats).  Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` built from
the agent's own view only (:mod:`pysaboteur.envs.encoding`); the action space
is ``Discrete(num_actions)`` and only masked actions are legal (an unmasked
action raises ``ValueError``, or with ``illegal="terminate"`` ends the match:
``illegal_reward`` to the agent, 0 to the others).  ``observation="planes"``,
``actions="factored"`` and ``history=True`` choose the compact forms
(:mod:`pysaboteur.envs.forms`).  Rewards are the game's ``returns()``, given
once, when the match ends: Duel +1 / -1 / 0; solo the gold collected; Saboteur
and Saboteur 2 1 to each seat sharing first place (most gold), 0 to the others;
The Lost Mines 1 shared among the winners.  The gold itself is in
``infos[agent]["scores"]`` at the end.  ``reset(seed=s)`` deals the match of
seed ``s``.

>>> e = env(game="duel")
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["action_mask"].sum() == len(info["legal_actions"]), e.agent_selection
(np.True_, 'player_0')
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.actions import Action
from ..engine.game import State
from ..registry import game_key, make_game
from . import make_encoding
from .encoding import OBS_BOUND
from .forms import Forms


def observation_space(size: int, actions: int) -> spaces.Dict:
    """The flat observation's space (``observation="flat"``, ``actions="flat"``)."""
    return spaces.Dict({
        "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (actions,), np.int8),
    })


class SaboteurAEC(AECEnv):  # type: ignore[misc]
    """One match of a pysaboteur game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "saboteur_v0",
                "is_parallelizable": False}

    def __init__(self, game: str = "duel", players: int | None = None,
                 render_mode: str | None = None, *, observation: str = "flat",
                 actions: str = "flat", history: bool = False, illegal: str = "raise",
                 illegal_reward: float = -1.0, **options: Any) -> None:
        super().__init__()
        if illegal not in ("raise", "terminate"):
            raise ValueError("illegal must be 'raise' or 'terminate'")
        self.game = make_game(game, players, **options)
        self.encoding = make_encoding(self.game)
        self.forms = Forms(self.encoding, observation, actions, history)
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        n = self.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = self.forms.observation_space
        self._act_space = self.forms.action_space
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self.metadata = {**self.metadata, "name": f"saboteur_{game_key(self.game)}_v0"}
        self.state_: State | None = None
        #: legal actions that fell outside the encoding (measured: never; see docs/envs.md)
        self.unencodable = 0
        self._seed_rng = np.random.default_rng()
        self._legal: dict[int, Action] = {}
        self._memo: dict[int, Any] = {}  # the history's counts so far, per seat

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            match_seed = seed
        else:
            match_seed = int(self._seed_rng.integers(2**31))
        self.state_ = self.game.new_state(match_seed)
        self._memo = {}
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next()

    def _next(self) -> None:
        """Select the seat to decide and list its legal actions (or end the match)."""
        state = self.state_
        assert state is not None
        if state.is_terminal:
            returns = state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self.agent_name_mapping[a]])
                self.terminations[a] = True
                self.infos[a] = {"scores": list(state.scores())}
            self._legal = {}
            self._accumulate_rewards()
            return
        seat = state.current_player
        view = state.view(seat) if self.encoding.needs_view else None
        ids, acts, missed = self.encoding.legal(state.legal_actions(), seat, view)
        self.unencodable += missed
        self._legal = dict(zip(ids, acts, strict=True))
        self.agent_selection = self.possible_agents[seat]
        for a in self.agents:
            self.infos[a] = {}
        self.infos[self.agent_selection] = self.forms.legal_info(ids)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None
        index = self.forms.to_index(action) if action is not None else None
        chosen = self._legal.get(index) if index is not None else None
        if chosen is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal for {agent} (see the mask)")
            for a in self.agents:
                self.rewards[a] = float(self.illegal_reward) if a == agent else 0.0
                self.terminations[a] = True
                self.infos[a] = {"illegal": a == agent}
            self._cumulative_rewards[agent] = 0.0
            self._legal = {}
            self._accumulate_rewards()
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        state.apply(chosen, check=False)
        self._next()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ seeing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state_
        assert state is not None
        seat = self.agent_name_mapping[agent]
        ids = list(self._legal) if agent == self.agent_selection else None
        return self.forms.observe(state.view(seat), seat, ids, self._memo)

    def legal_actions(self) -> dict[int, Action]:
        """The current seat's legal actions by index (the engine's values)."""
        return dict(self._legal)

    def render(self) -> str | None:
        if self.state_ is None:
            return None
        from ..cli.render import board_text

        text = board_text(self.state_.view(None), self.game.catalogue).plain
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state_ = None


def raw_env(game: str = "duel", players: int | None = None, render_mode: str | None = None,
            **options: Any) -> SaboteurAEC:
    """:class:`SaboteurAEC` (``options``: its keywords - ``observation``, ``actions``,
    ``history``, ``illegal``, ``illegal_reward`` - and the game's options)."""
    return SaboteurAEC(game, players, render_mode, **options)


def env(game: str = "duel", players: int | None = None, render_mode: str | None = None,
        **options: Any) -> AECEnv:
    """The AEC environment of ``game`` wrapped in PettingZoo's order enforcing wrapper.

    ``env(...).unwrapped`` is the :class:`SaboteurAEC` (encoding, engine state).
    """
    e: AECEnv = raw_env(game, players, render_mode, **options)
    return wrappers.OrderEnforcingWrapper(e)
