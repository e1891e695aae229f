"""Train a small masked policy on The Duel with plain policy gradient (REINFORCE), then
check that it beats the random bot.

    pip install -e ".[envs]" torch
    python3 examples/train_duel.py --minutes 4 --eval 400

The learner plays one seat of the Gymnasium environment
(:class:`pysaboteur.envs.gymnasium.SaboteurEnv`), alternating seats between
episodes, against ``--opponent`` (default: the random bot).  The policy sees
only its seat's observation and chooses among the masked (legal) actions:

* a small MLP reads the flat observation into a 64-number summary ``h``;
* each of the encoding's actions has fixed features ``phi(a)`` read from its
  key (kind of action, card kind, cell, orientation, number of cards), and
  its logit is ``phi(a) . (W h + b)``: the fixed Discrete action space is
  kept, but actions share what they learn through their features;
* illegal actions get ``-inf`` before the softmax (computed over the legal
  indices of the mask only, which is the same and much cheaper).

The reward is +1 / -1 / 0 at the end of the match; the update is REINFORCE
with a running-mean baseline and a little entropy bonus.  Not part of the test
suite: it needs torch and minutes of CPU.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import torch
from torch import nn

from pysaboteur.engine.actions import (
    Bribe,
    Discard,
    EndTurn,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnPlayer,
)
from pysaboteur.envs.encoding import Encoding
from pysaboteur.envs.gymnasium import SaboteurEnv

KINDS = (PlacePath, PlayOnCell, PlayOnPlayer, Discard, Pass, Bribe, EndTurn, Orient)


def action_features(enc: Encoding) -> np.ndarray:
    """phi(a) for every action index: kind, card kind(s), cell, orientation, target."""
    codes = {c: i for i, c in enumerate(enc.hand_codes)}
    win = enc.window
    width = len(KINDS) + len(codes) + 6
    phi = np.zeros((enc.num_actions, width), dtype=np.float32)
    for i, key in enumerate(enc.keys):
        row = phi[i]
        row[KINDS.index(type(key))] = 1
        cards = ()
        if isinstance(key, (PlacePath, PlayOnCell, PlayOnPlayer)):
            cards = (key.card,)
        elif isinstance(key, (Pass, Discard)):
            cards = key.cards
        for c in cards:
            row[len(KINDS) + codes[c]] += 1.0 / len(cards)
        base = len(KINDS) + len(codes)
        if isinstance(key, (PlacePath, PlayOnCell, Bribe)):
            row[base] = (key.x - win.x0) / win.width
            row[base + 1] = (key.y - win.y0) / win.height
            row[base + 2] = abs(key.y) / win.height
        if isinstance(key, PlacePath):
            row[base + 3] = float(key.rotated)
        if isinstance(key, PlayOnPlayer):
            row[base + 4] = float(key.target)
        if isinstance(key, (Pass, Discard)):
            row[base + 5] = len(key.cards)
        if isinstance(key, Orient):
            row[base + 3] = float(key.rotated)
    return phi


class Policy(nn.Module):
    def __init__(self, obs_size: int, phi: np.ndarray, hidden: int = 64) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.register_buffer("phi", torch.from_numpy(phi))
        self.head = nn.Linear(hidden, phi.shape[1])

    def logits(self, obs: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
        """Logits of the legal actions only: ``legal`` (batch, L) action indices, padded;
        ``valid`` marks the real ones.  The same as masking the full action space."""
        weights = self.head(self.body(obs))  # (batch, features)
        feats = self.phi[legal]  # (batch, L, features)
        logits = (feats * weights[:, None, :]).sum(-1)
        return logits.masked_fill(~valid, -math.inf)


def observe(obs: dict[str, np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    o = torch.from_numpy(np.log1p(np.abs(obs["observation"])) * np.sign(obs["observation"]))
    return o, torch.from_numpy(np.flatnonzero(obs["action_mask"]))


def pad(legals: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(x) for x in legals)
    idx = torch.zeros((len(legals), width), dtype=torch.long)
    valid = torch.zeros((len(legals), width), dtype=torch.bool)
    for i, x in enumerate(legals):
        idx[i, :len(x)] = x
        valid[i, :len(x)] = True
    return idx, valid


Step = tuple[torch.Tensor, torch.Tensor, int]  # observation, legal indices, chosen position


def play(policy: Policy, env: SaboteurEnv, seed: int, greedy: bool = False,
         record: bool = True) -> tuple[float, list[Step]]:
    obs, _ = env.reset(seed=seed)
    steps: list[Step] = []
    reward, done = 0.0, False
    while not done:
        o, legal = observe(obs)
        with torch.no_grad():
            logits = policy.logits(o[None], legal[None], torch.ones((1, len(legal)), dtype=bool))[0]
        if greedy:
            j = int(logits.argmax())
        else:
            j = int(torch.distributions.Categorical(logits=logits).sample())
        a = int(legal[j])
        if record:
            steps.append((o, legal, j))
        obs, reward, done, _, _ = env.step(a)
    return float(reward), steps


def evaluate(policy: Policy, envs: list[SaboteurEnv], games: int, seed: int) -> dict[str, float]:
    wins = draws = 0
    for g in range(games):
        reward, _ = play(policy, envs[g % 2], seed + g, record=False)
        wins += reward > 0
        draws += reward == 0
    p = wins / games
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / games)
    return {"win_rate": p, "draw_rate": draws / games, "ci95": half}


def main() -> None:
    ap = argparse.ArgumentParser(description="REINFORCE on The Duel against a bot")
    ap.add_argument("--minutes", type=float, default=4.0, help="training time")
    ap.add_argument("--batch", type=int, default=16, help="episodes per update")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--eval", type=int, default=400, help="evaluation matches")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    envs = [SaboteurEnv(game="duel", seat=s, opponents=args.opponent) for s in (0, 1)]
    enc = envs[0].encoding
    policy = Policy(enc.obs_size, action_features(enc))
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr)
    eval_seed = 10_000_000

    before = evaluate(policy, envs, args.eval // 2, eval_seed)
    print(f"untrained policy vs {args.opponent}: win rate {before['win_rate']:.3f} "
          f"+- {before['ci95']:.3f}, draws {before['draw_rate']:.3f}")

    baseline, episodes, updates = 0.0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.minutes * 60:
        batch = []
        for _ in range(args.batch):
            reward, steps = play(policy, envs[episodes % 2], args.seed * 1_000_003 + episodes)
            batch.append((reward, steps))
            episodes += 1
        obs = torch.stack([o for _, steps in batch for o, _, _ in steps])
        legal, valid = pad([x for _, steps in batch for _, x, _ in steps])
        acts = torch.tensor([j for _, steps in batch for _, _, j in steps])
        adv = torch.tensor([r - baseline for r, steps in batch for _ in steps])
        logits = policy.logits(obs, legal, valid)
        logp = torch.log_softmax(logits, dim=-1)
        chosen = logp.gather(1, acts[:, None])[:, 0]
        probs = logp.exp()
        entropy = -(probs * logp.masked_fill(~valid, 0.0)).sum(-1).mean()
        loss = -(adv * chosen).mean() - 0.01 * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()
        updates += 1
        mean_r = sum(r for r, _ in batch) / len(batch)
        baseline = 0.9 * baseline + 0.1 * mean_r
        if updates % 10 == 0:
            print(f"{time.perf_counter() - start:6.0f}s  episodes {episodes:5d}  "
                  f"mean reward (last batch) {mean_r:+.2f}  baseline {baseline:+.2f}  "
                  f"entropy {entropy.item():.2f}", flush=True)

    after = evaluate(policy, envs, args.eval, eval_seed)
    print(f"trained on {episodes} episodes ({updates} updates) in {args.minutes:g} min")
    print(f"trained policy vs {args.opponent}: win rate {after['win_rate']:.3f} "
          f"+- {after['ci95']:.3f} (95%), draws {after['draw_rate']:.3f}, "
          f"over {args.eval} matches, seats alternated")


if __name__ == "__main__":
    main()
