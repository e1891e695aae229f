"""Self-play and league collection over the PettingZoo environment.

A *policy* is any callable ``policy(obs, info) -> action`` over one seat's observation dict
and info (the mask, ``info["legal_actions"]``, ``info["legal_factored"]``) returning an
action of the environment's action space - the same contract as the Gymnasium env's
opponents.  :func:`bot_policy` makes one of a named bot (it reads only its own seat's view).

* :func:`play` plays one match with a policy per agent and records every decision;
* :func:`league` plays matches where a learner takes each seat in turn and the other seats
  are drawn from a pool (put the learner itself in the pool for self-play, frozen copies of
  it for a league, bots for fixed opponents), reproducibly from one seed.

>>> from pysaboteur.envs.pettingzoo import env
>>> def first(obs, info):
...     return info["legal_actions"][0]
>>> episodes = list(league(lambda: env(game="duel"), first, [first], episodes=2, seed=1))
>>> [sorted(e.returns.values()) in ([-1.0, 1.0], [0.0, 0.0]) for e in episodes]
[True, True]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bots import Bot, make_bot

Policy = Callable[[dict[str, np.ndarray], dict[str, Any]], Any]


@dataclass
class Step:
    """One decision: what the agent saw, what it chose, the reward that followed it (the
    rewards it received before its next decision, or the match's end)."""

    obs: dict[str, np.ndarray]
    info: dict[str, Any]
    action: Any
    reward: float = 0.0


@dataclass
class Episode:
    seed: int
    #: agent -> index into the policies it was played by (``league``: 0 = the learner,
    #: 1 + i = ``pool[i]``)
    seats: dict[str, int]
    steps: dict[str, list[Step]] = field(default_factory=dict)
    returns: dict[str, float] = field(default_factory=dict)
    scores: list[Any] = field(default_factory=list)


def play(aec: Any, policies: Mapping[str, Policy], seed: int,
         seats: Mapping[str, int] | None = None) -> Episode:
    """Play the match of ``seed`` in the AEC env ``aec``, ``policies[agent]`` for each agent."""
    for policy in policies.values():
        if isinstance(policy, BotPolicy):
            policy.bind(aec)
    aec.reset(seed=seed)
    ep = Episode(seed, dict(seats or {}), {a: [] for a in aec.possible_agents},
                 {a: 0.0 for a in aec.possible_agents})
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        ep.returns[agent] += reward
        if ep.steps[agent]:
            ep.steps[agent][-1].reward += reward
        if terminated or truncated:
            if "scores" in info:
                ep.scores = list(info["scores"])
            aec.step(None)
            continue
        action = policies[agent](obs, info)
        ep.steps[agent].append(Step(obs, info, action))
        aec.step(action)
    return ep


def league(make_env: Callable[[], Any], learner: Policy, pool: Sequence[Policy],
           episodes: int, seed: int = 0) -> Iterator[Episode]:
    """``episodes`` matches: the learner at seat ``k % players`` of match ``k``, every other
    seat a policy drawn uniformly from ``pool``; match ``k`` is dealt from ``seed + k`` and
    the draws from one generator seeded with ``seed``."""
    if not pool:
        raise ValueError("the pool needs at least one policy")
    rng = np.random.default_rng(seed)
    aec = make_env()
    agents = list(aec.possible_agents)
    for k in range(episodes):
        me = agents[k % len(agents)]
        seats = {a: (0 if a == me else 1 + int(rng.integers(len(pool)))) for a in agents}
        chosen = {a: learner if i == 0 else pool[i - 1] for a, i in seats.items()}
        yield play(aec, chosen, seed + k, seats)


class BotPolicy:
    """A policy of a bot (``pysaboteur.bots``; a name, or a bot made with its own settings,
    such as an ISMCTS budget): it asks the bot with the acting seat's own view and legal
    actions, and answers in the env's action form.  It reads the env :func:`play` binds it
    to (``bind``), so one can be put in a league's pool."""

    def __init__(self, bot: str | Bot, seed: int = 0, aec: Any = None) -> None:
        self.bot = make_bot(bot, seed=seed) if isinstance(bot, str) else bot
        self.aec = aec

    def bind(self, aec: Any) -> None:
        self.aec = aec

    def __call__(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> Any:
        if self.aec is None:
            raise RuntimeError("a bot policy plays in the env it is bound to (bind, play)")
        raw = self.aec.unwrapped
        state = raw.state_
        seat = state.current_player
        view = state.view(seat)
        action = self.bot.choose(view, state.legal_actions())
        return raw.forms.from_index(raw.encoding.encode(action, seat, view))


def bot_policy(bot: str | Bot, seed: int = 0, aec: Any = None) -> BotPolicy:
    """:class:`BotPolicy` of the bot ``bot`` (a name, made with ``seed``; or a bot)."""
    return BotPolicy(bot, seed, aec)
