"""Fit the search-leaf model of Saboteur and Saboteur 2 (``pysaboteur.bots.card_leaf``).

    python3 examples/fit_card_leaf.py --game classic --players 5 --matches 150
    python3 examples/fit_card_leaf.py --game expansion --players 7 --matches 60

Heuristic bots play whole matches; every position met on the way is a sample of
``card_leaf.features`` (read from the true state), labelled by whether the gold
was reached in that round.  A logistic regression (Newton's method, numpy) gives
the weights, printed as the ``LeafWeights`` row to paste into ``card_leaf.WEIGHTS``,
with the log-loss against the base rate's.  (Saboteur 2 can be fitted too, for study:
its steps to the gold get almost no weight, so its ISMCTS borrows Saboteur's row.)
"""

from __future__ import annotations

import argparse

import numpy as np

from pysaboteur.bots import make_bot
from pysaboteur.bots.card_leaf import LeafWeights, features
from pysaboteur.registry import make_game


def samples(game: str, players: int, matches: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rows: list[tuple[float, ...]] = []
    labels: list[float] = []
    g = make_game(game, players)
    for m in range(matches):
        state = g.new_state(seed + m)
        bots = [make_bot("heuristic", (seed + m) * 7 + s) for s in range(players)]
        seen: list[tuple[int, tuple[float, ...]]] = []
        while not state.is_terminal:
            p = state.current_player
            seen.append((state.round_no, features(state)))
            state.apply(bots[p].choose(state.view(p), state.legal_actions()))
        reached = {r.round: float(r.details.get("finder", -1) >= 0) for r in state.results}
        for round_no, f in seen:
            rows.append(f)
            labels.append(reached[round_no])
    return np.array(rows), np.array(labels)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    x = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(len(w))
        w += np.linalg.solve(hessian, x.T @ (y - p))
    return w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="classic", choices=["classic", "expansion"])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--matches", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5000)
    args = ap.parse_args()
    x, y = samples(args.game, args.players, args.matches, args.seed)
    w = fit(x, y)
    p = 1 / (1 + np.exp(-np.column_stack([np.ones(len(x)), x]) @ w))
    eps = 1e-12
    loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
    base = y.mean()
    base_loss = -(base * np.log(base + eps) + (1 - base) * np.log(1 - base + eps))
    print(f"{len(y)} positions, gold reached in {base:.3f}; log-loss {loss:.4f} "
          f"(base rate {base_loss:.4f}); accuracy {np.mean((p > 0.5) == y):.3f}")
    print(f'"{args.game}": {LeafWeights(*(round(float(v), 3) for v in w))!r},')


if __name__ == "__main__":
    main()
