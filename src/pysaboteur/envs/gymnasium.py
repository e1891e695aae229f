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
action) ``step()`` raises ``RuntimeError`` until ``reset()``.  The reward is the
learning seat's ``returns()`` entry, given when the match ends.  The other seats
are played by bots from :func:`pysaboteur.bots.make_bot` (a name), or by
policies: any callable
``policy(obs, info) -> action`` over the same observation dict and info (mask,
``info["legal_actions"]``) and returning an action of the same space - so a
learner's own policy can play against copies of itself.  ``opponents`` is one
of these for every other seat, or one per other seat; each sees only its own
view.  ``reset(seed=s)`` fixes the deal and the bots' seeds.
``observation="planes"``, ``actions="factored"`` and ``history=True`` choose the
compact forms (:mod:`pysaboteur.envs.forms`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..bots import make_bot
from ..bots.base import Bot
from ..engine.actions import Action
from ..engine.game import State
from ..registry import make_game
from . import make_encoding
from .factored import FACTORS
from .forms import Forms

#: an opponent: a bot's name, or a policy ``(obs, info) -> action``
Opponent = str | Callable[[dict[str, np.ndarray], dict[str, Any]], Any]


class SaboteurEnv(gym.Env):  # type: ignore[misc]
    """One seat of a pysaboteur match against bots."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "duel", players: int | None = None, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] = "random",
                 illegal: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: str | None = None, *, observation: str = "flat",
                 actions: str = "flat", history: bool = False, **options: Any) -> None:
        self.game = make_game(game, players, **options)
        if not 0 <= seat < self.game.players:
            raise ValueError(f"seat {seat} is not a seat of a {self.game.players}-player game")
        if illegal not in ("terminate", "raise"):
            raise ValueError("illegal must be 'terminate' or 'raise'")
        self.seat = seat
        others = self.game.players - 1
        names: list[Opponent] = ([opponents] * others
                                 if isinstance(opponents, str) or callable(opponents)
                                 else list(opponents))
        if len(names) != others:
            raise ValueError(f"name {others} opponent(s), not {len(names)}")
        for name in names:
            if isinstance(name, str):
                make_bot(name)  # fail early on an unknown name
            elif not callable(name):
                raise ValueError(f"an opponent is a bot's name or a policy, not {name!r}")
        self.opponent_names = names
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.encoding = make_encoding(self.game)
        self.forms = Forms(self.encoding, observation, actions, history)
        self.observation_space = self.forms.observation_space
        self.action_space = self.forms.action_space
        self.state_: State | None = None
        self.bots: dict[int, Bot] = {}
        self.policies: dict[int, Callable[..., Any]] = {}
        self._memo: dict[int, Any] = {}
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
        self._memo = {}
        others = [s for s in range(self.game.players) if s != self.seat]
        self.bots, self.policies = {}, {}
        for s, name in zip(others, self.opponent_names, strict=True):
            if isinstance(name, str):
                self.bots[s] = make_bot(name, seed=match_seed * 31 + s)
            else:
                self.policies[s] = name
        self._play_others()
        self._over = self.state_.is_terminal
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.state_
        if state is None:
            raise RuntimeError("call reset() first")
        if self._over or state.is_terminal:
            raise RuntimeError("the episode is over: call reset()")
        index = self.forms.to_index(action)
        chosen = self._legal.get(index) if index is not None else None
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
            bot = self.bots.get(seat)
            if bot is not None:
                state.apply(bot.choose(state.view(seat), legal), check=False)
                continue
            view = state.view(seat)
            ids, acts, missed = self.encoding.legal(legal, seat, view)
            self.unencodable += missed
            table = dict(zip(ids, acts, strict=True))
            obs = self.forms.observe(view, seat, ids, self._memo)
            chosen = self.forms.to_index(self.policies[seat](obs, self.forms.legal_info(ids)))
            if chosen not in table:
                raise ValueError(f"the policy of seat {seat} chose an action not in its mask")
            state.apply(table[chosen], check=False)
        self._legal = {}
        if not state.is_terminal:
            view = state.view(self.seat) if self.encoding.needs_view else None
            ids, acts, missed = self.encoding.legal(state.legal_actions(), self.seat, view)
            self.unencodable += missed
            self._legal = dict(zip(ids, acts, strict=True))

    def _observe(self) -> dict[str, np.ndarray]:
        assert self.state_ is not None
        return self.forms.observe(self.state_.view(self.seat), self.seat, list(self._legal),
                                  self._memo)

    def _info(self) -> dict[str, Any]:
        assert self.state_ is not None
        info: dict[str, Any] = self.forms.legal_info(list(self._legal))
        if self.state_.is_terminal:
            info["scores"] = list(self.state_.scores())
        return info

    def action_masks(self) -> np.ndarray:
        """The mask of legal actions (the name sb3-contrib's MaskablePPO looks for); with
        factored actions the factors' masks one after the other (MultiDiscrete's form)."""
        if self.forms.actions == "flat":
            return self.encoding.mask(self._legal).astype(bool)
        assert self.forms.factored is not None
        masks = self.forms.factored.masks(list(self._legal))
        return np.concatenate([masks[f"mask_{f}"] for f in FACTORS]).astype(bool)

    def legal_actions(self) -> dict[int, Action]:
        return dict(self._legal)

    def render(self) -> str | None:
        if self.state_ is None:
            return None
        from ..cli.render import board_text

        return str(board_text(self.state_.view(None), self.game.catalogue).plain)


gym.register(id="pysaboteur/Saboteur-v0", entry_point=SaboteurEnv)
