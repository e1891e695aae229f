"""PPO by self-play on The Duel, on the compact observations and factored actions: one
readable file in the CleanRL manner (PyTorch, CPU).

    pip install -e ".[envs,rl]"
    nice python3 examples/train_duel_ppo.py --minutes 25 --out runs/duel_ppo

It trains, then plays ``--eval-matches`` matches against each of the random, heuristic and
ISMCTS bots, and writes into ``--out``: ``agent.pt`` (the weights), ``results.json`` (the
learning curve and the evaluations) and ``curve.png`` (the learning curve).
``--load runs/duel_ppo/agent.pt --minutes 0`` evaluates saved weights without training.

**Environment.** The PettingZoo AEC env of the Duel with ``observation="planes"`` (the
board as 31 uint8 planes of 25 x 30 cells, a vector of 71 fields), ``history=True`` (the
public record per seat, 3 x 175) and ``actions="factored"`` (nine integers per action,
``pysaboteur.envs.factored``); every seat sees only its own view (docs/envs.md).

**Self-play, a league.** Each update plays ``--matches`` matches with
``pysaboteur.envs.selfplay.league``: the learner takes each seat in turn; the other seat
is the learner itself half of the time (both seats' decisions are then trained on), or a
frozen snapshot of it, one of the last ``--pool`` taken every ``--snapshot-every``
updates.  No bot is ever an opponent in training: the bots are only for evaluation.

**Policy.** A small convolutional trunk over the board, an MLP over the vector and
history, one summary ``h``.  An action's logit is the sum of its factors' logits: linear
heads on ``h`` for ``family``, ``card``, ``card2``, ``card3``, ``rotated``, ``target``,
``tool``, ``extra``, and for the families that aim at a cell a spatial term: the board
features at that cell (with ``h`` added) dotted with a learned vector per (card,
rotated).  The softmax runs over the legal actions only (``info["legal_factored"]``,
the legal factored rows), so the policy never picks an illegal action and needs no
per-factor sampling.  A value head on ``h`` is the critic.

**PPO.** The match's result (+1 win, -1 loss, 0 draw) is the only reward, at each seat's
last decision; GAE over each seat's own decisions; clipped surrogate, value loss,
entropy bonus (CleanRL's ``ppo.py`` defaults unless stated).  Old log-probabilities and
values are computed once per update over the collected batch (the weights do not change
while a batch is collected, so they are those the actions were sampled with).

**Evaluation** is the duplicate format: each deal is played twice, the learner in seat 0,
then in seat 1, against the same bot; the learner plays greedily (its most probable legal
action).  ``--ismcts-iterations`` sets the ISMCTS bot's budget per move (its default in
the Duel is 300 iterations, about 0.1 s a move; a thousand matches of that take hours).
The learning curve is the same evaluation on ``--curve-matches`` matches against the
random and the heuristic bot every ``--curve-every`` updates.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pysaboteur.arena import wilson
from pysaboteur.bots import make_bot
from pysaboteur.bots.ismcts import IsmctsBot
from pysaboteur.envs.factored import FACTORS, FactoredActions
from pysaboteur.envs.pettingzoo import env as make_aec
from pysaboteur.envs.selfplay import Episode, bot_policy, league, play

CELL = FACTORS.index("cell")
CARD = FACTORS.index("card")
ROTATED = FACTORS.index("rotated")
FAMILY = FACTORS.index("family")
#: the factors scored by linear heads on the summary (every one but the cell)
HEADED = [i for i, f in enumerate(FACTORS) if f != "cell"]
EVAL_SEED = 1_000_000_000  # evaluation deals, far from the training deals


def duel_env() -> Any:
    return make_aec(game="duel", observation="planes", actions="factored", history=True)


# --------------------------------------------------------------------------- the policy


class Agent(nn.Module):
    """Actor-critic over the compact Duel observation; logits of legal factored rows."""

    offsets: torch.Tensor  # buffers (registered in __init__)
    has_cell: torch.Tensor

    def __init__(self, fa: FactoredActions, board_shape: Sequence[int], vector_size: int,
                 history_size: int, channels: int = 16, hidden: int = 128) -> None:
        super().__init__()
        planes = board_shape[0]
        self.trunk = nn.Sequential(
            nn.Conv2d(planes, channels, 1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU())
        self.fields = nn.Sequential(nn.Linear(vector_size + history_size, hidden), nn.ReLU())
        self.summary = nn.Sequential(nn.Linear(2 * channels + hidden, hidden), nn.ReLU())
        sizes = [fa.nvec[i] for i in HEADED]
        self.heads = nn.Linear(hidden, sum(sizes))
        self.register_buffer("offsets", torch.tensor(np.cumsum([0, *sizes[:-1]])))
        self.to_cells = nn.Linear(hidden, channels)
        self.cell_vectors = nn.Embedding(fa.nvec[CARD] * 2, channels)
        # which families aim at a cell (their keys have x, y): the spatial term applies
        has_cell = np.zeros(fa.nvec[FAMILY], dtype=np.float32)
        for key, row in zip(fa.encoding.keys, fa.rows, strict=True):
            if "x" in key._fields:
                has_cell[row[FAMILY]] = 1.0
        self.register_buffer("has_cell", torch.from_numpy(has_cell))
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, board: torch.Tensor, fields: torch.Tensor, rows: torch.Tensor,
                valid: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (batch, L) of the legal rows ``rows`` (batch, L, 9), -inf where not
        ``valid`` (padding), and values (batch,); ``board`` is uint8 planes."""
        feats = self.trunk(board.float()).flatten(2)  # (B, C, cells)
        pooled = torch.cat([feats.mean(2), feats.amax(2)], 1)
        h = self.summary(torch.cat([pooled, self.fields(fields)], 1))
        head = self.heads(h)  # (B, sum of the headed factors' sizes)
        b, n = rows.shape[:2]
        idx = (rows[:, :, HEADED] + self.offsets).reshape(b, -1)
        logits = head.gather(1, idx).reshape(b, n, len(HEADED)).sum(2)
        cells = torch.relu(feats + self.to_cells(h)[:, :, None]).transpose(1, 2)
        at = cells.gather(1, rows[:, :, CELL, None].expand(-1, -1, cells.shape[2]))
        vec = self.cell_vectors(rows[:, :, CARD] * 2 + rows[:, :, ROTATED])
        logits = logits + (at * vec).sum(2) * self.has_cell[rows[:, :, FAMILY]]
        return logits.masked_fill(~valid, -math.inf), self.value_head(h)[:, 0]


def prepare(obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The board (uint8, made float in the network), and the vector and history, signed
    log-scaled, in one row."""
    fields = np.concatenate([obs["vector"], obs["history"].ravel()])
    return obs["board"], np.sign(fields) * np.log1p(np.abs(fields))


def pad(rows: Sequence[np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(r) for r in rows)
    out = np.zeros((len(rows), width, len(FACTORS)), dtype=np.int64)
    valid = np.zeros((len(rows), width), dtype=bool)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
        valid[i, :len(r)] = True
    return torch.from_numpy(out), torch.from_numpy(valid)


class Player:
    """A policy for ``pysaboteur.envs.selfplay``: ``(obs, info) -> factored action``,
    sampling from the agent (or, ``greedy``, its most probable legal action)."""

    def __init__(self, agent: Agent, greedy: bool = False,
                 generator: torch.Generator | None = None) -> None:
        self.agent = agent
        self.greedy = greedy
        self.generator = generator

    def __call__(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> np.ndarray:
        legal = info["legal_factored"]
        board, fields = prepare(obs)
        rows, valid = pad([legal])
        with torch.no_grad():
            logits, _ = self.agent(torch.from_numpy(board[None]),
                                   torch.from_numpy(fields[None]), rows, valid)
        if self.greedy:
            j = int(logits[0].argmax())
        else:
            j = int(torch.multinomial(torch.softmax(logits[0], 0), 1, generator=self.generator))
        return np.asarray(legal[j])


# --------------------------------------------------------------------------- collection


@dataclass
class Batch:
    boards: torch.Tensor
    fields: torch.Tensor
    rows: torch.Tensor
    valid: torch.Tensor
    chosen: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor
    logp: torch.Tensor
    values: torch.Tensor


def trajectories(episodes: Sequence[Episode], live: Sequence[int]) -> list[list[Any]]:
    """Every seat's decisions played by the live learner (``Episode.seats`` in ``live``)."""
    out = []
    for ep in episodes:
        for agent, who in ep.seats.items():
            if who in live and ep.steps[agent]:
                out.append(ep.steps[agent])
    return out


def build_batch(agent: Agent, trajs: Sequence[Sequence[Any]], gamma: float,
                lam: float) -> Batch:
    boards, fields, rows, chosen, rewards, ends = [], [], [], [], [], []
    for steps in trajs:
        for k, s in enumerate(steps):
            b, f = prepare(s.obs)
            boards.append(b)
            fields.append(f)
            legal = s.info["legal_factored"]
            rows.append(legal)
            chosen.append(int(np.flatnonzero((legal == s.action).all(1))[0]))
            rewards.append(s.reward)
            ends.append(k == len(steps) - 1)
    board_t = torch.from_numpy(np.stack(boards))
    field_t = torch.from_numpy(np.stack(fields))
    rows_t, valid_t = pad(rows)
    chosen_t = torch.tensor(chosen)
    with torch.no_grad():
        logp_all, values = [], []
        for i in range(0, len(chosen), 512):
            sl = slice(i, i + 512)
            logits, v = agent(board_t[sl], field_t[sl], rows_t[sl], valid_t[sl])
            logp_all.append(torch.log_softmax(logits, 1).gather(1, chosen_t[sl, None])[:, 0])
            values.append(v)
    logp, value = torch.cat(logp_all), torch.cat(values)
    adv = torch.zeros(len(chosen))
    last = 0.0
    for t in reversed(range(len(chosen))):  # GAE over each seat's own decisions
        nxt = 0.0 if ends[t] else float(value[t + 1])
        if ends[t]:
            last = 0.0
        delta = rewards[t] + gamma * nxt - float(value[t])
        last = delta + gamma * lam * last
        adv[t] = last
    return Batch(board_t, field_t, rows_t, valid_t, chosen_t, adv, adv + value, logp, value)


def ppo_update(agent: Agent, opt: torch.optim.Optimizer, batch: Batch, args: Any,
               gen: torch.Generator) -> dict[str, float]:
    n = len(batch.chosen)
    stats: dict[str, list[float]] = {"loss": [], "entropy": [], "kl": [], "clipfrac": []}
    # minibatches of about equal sizes: never a remainder of one decision, whose normalised
    # advantage would be 0 / 0
    chunks = max(1, round(n / args.minibatch))
    for _ in range(args.epochs):
        order = torch.randperm(n, generator=gen)
        for mb in order.tensor_split(chunks):
            width = int(batch.valid[mb].sum(1).max())  # trim the padding of this minibatch
            logits, value = agent(batch.boards[mb], batch.fields[mb],
                                  batch.rows[mb, :width], batch.valid[mb, :width])
            logp_all = torch.log_softmax(logits, 1)
            logp = logp_all.gather(1, batch.chosen[mb, None])[:, 0]
            ratio = (logp - batch.logp[mb]).exp()
            adv = batch.advantages[mb]
            if len(adv) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            pg = torch.max(-adv * ratio,
                           -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            vf = 0.5 * ((value - batch.returns[mb]) ** 2).mean()
            probs = logp_all.exp()
            entropy = -(probs * logp_all.masked_fill(~batch.valid[mb, :width], 0.0)).sum(1).mean()
            loss = pg + args.vf_coef * vf - args.ent_coef * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            opt.step()
            with torch.no_grad():
                stats["loss"].append(float(loss))
                stats["entropy"].append(float(entropy))
                stats["kl"].append(float(((ratio - 1) - (logp - batch.logp[mb])).mean()))
                stats["clipfrac"].append(float(((ratio - 1).abs() > args.clip).float().mean()))
    return {k: float(np.mean(v)) for k, v in stats.items()}


# --------------------------------------------------------------------------- evaluation


def evaluate(player: Player, opponent: Callable[[int], Any], matches: int,
             seed: int = EVAL_SEED) -> dict[str, Any]:
    """Duplicate format: deal ``seed + d`` played with the learner in seat 0, then in seat 1,
    against ``opponent(match index)`` (a policy); ``matches`` is rounded up to even."""
    aec = duel_env()
    agents = list(aec.possible_agents)
    wins = draws = losses = 0
    start = time.perf_counter()
    for m in range(matches + matches % 2):
        me, other = (agents[0], agents[1]) if m % 2 == 0 else (agents[1], agents[0])
        ep = play(aec, {me: player, other: opponent(m)}, seed + m // 2)
        r = ep.returns[me]
        wins += r > 0
        draws += r == 0
        losses += r < 0
    n = wins + draws + losses
    low, high = wilson(wins, n)
    return {"matches": n, "wins": wins, "draws": draws, "losses": losses,
            "win_rate": wins / n, "win_ci95": [low, high],
            "score": (wins + 0.5 * draws) / n, "seconds": time.perf_counter() - start}


def bot(name: str, iterations: int | None = None) -> Callable[[int], Any]:
    """A fresh bot policy per match, seeded by the match index."""
    def make(m: int) -> Any:
        if name == "ismcts":
            return bot_policy(IsmctsBot(m, iterations=iterations))
        return bot_policy(make_bot(name, m))
    return make


def plot(curve: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for name, colour in (("random", "tab:blue"), ("heuristic", "tab:red")):
        pts = [c for c in curve if name in c]
        if not pts:
            continue
        x = [c["matches_trained"] for c in pts]
        y = [c[name]["win_rate"] for c in pts]
        lo = [c[name]["win_rate"] - c[name]["win_ci95"][0] for c in pts]
        hi = [c[name]["win_ci95"][1] - c[name]["win_rate"] for c in pts]
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", ms=3, capsize=2, color=colour,
                    label=f"vs {name} bot ({pts[0][name]['matches']} matches, greedy)")
    ax.set_xlabel("training matches (self-play and league)")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="center right")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description="PPO self-play on The Duel (planes, factored)")
    ap.add_argument("--minutes", type=float, default=25.0, help="training wall time")
    ap.add_argument("--updates", type=int, default=0, help="stop after this many (0: no cap)")
    ap.add_argument("--matches", type=int, default=16, help="matches per update")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--snapshot-every", type=int, default=10, help="updates")
    ap.add_argument("--pool", type=int, default=8, help="frozen snapshots kept")
    ap.add_argument("--curve-every", type=int, default=12, help="updates")
    ap.add_argument("--curve-matches", type=int, default=50)
    ap.add_argument("--eval-matches", type=int, default=1000)
    ap.add_argument("--ismcts-iterations", type=int, default=50)
    ap.add_argument("--opponents", default="random,heuristic,ismcts")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--load", type=Path, help="start from these weights")
    ap.add_argument("--out", type=Path, default=Path("runs/duel_ppo"))
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    probe = duel_env()
    raw = probe.unwrapped
    space = raw.forms.observation_space
    agent = Agent(raw.forms.factored, space["board"].shape, space["vector"].shape[0],
                  int(np.prod(space["history"].shape)))
    if args.load:
        agent.load_state_dict(torch.load(args.load))
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    learner = Player(agent, generator=gen)
    snapshots: list[Player] = []
    curve: list[dict[str, Any]] = []
    trained = updates = decisions = 0
    start = time.perf_counter()

    def point() -> None:
        greedy = Player(agent, greedy=True)
        entry: dict[str, Any] = {"update": updates, "matches_trained": trained,
                                 "decisions_trained": decisions,
                                 "minutes": (time.perf_counter() - start) / 60}
        for name in ("random", "heuristic"):
            entry[name] = evaluate(greedy, bot(name), args.curve_matches, EVAL_SEED // 2)
        curve.append(entry)
        print(f"{entry['minutes']:6.1f} min  update {updates:4d}  matches {trained:6d}  "
              f"vs random {entry['random']['win_rate']:.2f}  "
              f"vs heuristic {entry['heuristic']['win_rate']:.2f}", flush=True)

    if args.minutes > 0:
        point()
    while (time.perf_counter() - start < args.minutes * 60
           and not (args.updates and updates >= args.updates)):
        pool: list[Any] = [learner] * max(1, len(snapshots)) + list(snapshots)
        live = [0] + [1 + i for i, p in enumerate(pool) if p is learner]
        eps = list(league(duel_env, learner, pool, args.matches,
                          seed=args.seed * 10_000_000 + trained))
        trajs = trajectories(eps, live)
        batch = build_batch(agent, trajs, args.gamma, args.lam)
        stats = ppo_update(agent, opt, batch, args, gen)
        trained += len(eps)
        decisions += len(batch.chosen)
        updates += 1
        if updates % args.snapshot_every == 0:
            frozen = copy.deepcopy(agent).eval()
            snapshots = [*snapshots, Player(frozen, generator=gen)][-args.pool:]
        if updates % 5 == 0:
            print(f"{(time.perf_counter() - start) / 60:6.1f} min  update {updates:4d}  "
                  f"decisions {len(batch.chosen):5d}  entropy {stats['entropy']:.2f}  "
                  f"kl {stats['kl']:.4f}  clipfrac {stats['clipfrac']:.2f}", flush=True)
        if updates % args.curve_every == 0:
            point()
    if args.minutes > 0 and (not curve or curve[-1]["update"] != updates):
        point()
    train_minutes = (time.perf_counter() - start) / 60
    torch.save(agent.state_dict(), args.out / "agent.pt")

    results: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()},
                               "updates": updates, "matches_trained": trained,
                               "decisions_trained": decisions,
                               "train_minutes": train_minutes, "curve": curve, "eval": {}}
    if curve:
        plot(curve, args.out / "curve.png",
             f"PPO self-play, The Duel: {trained} training matches in {train_minutes:.0f} min "
             "(wall clock, one thread)")
    greedy = Player(agent, greedy=True)
    for name in [o for o in args.opponents.split(",") if o]:
        opp = bot(name, args.ismcts_iterations if name == "ismcts" else None)
        res = results["eval"][name] = evaluate(greedy, opp, args.eval_matches)
        if name == "ismcts":
            res["ismcts_iterations"] = args.ismcts_iterations
        lo, hi = res["win_ci95"]
        print(f"vs {name}: won {res['wins']}, drew {res['draws']}, lost {res['losses']} of "
              f"{res['matches']} (win rate {res['win_rate']:.3f}, 95% {lo:.3f}-{hi:.3f}) "
              f"in {res['seconds']:.0f} s", flush=True)
        (args.out / "results.json").write_text(json.dumps(results, indent=1))
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
