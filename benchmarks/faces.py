"""What the engine costs where people meet it: views, view JSON, environment steps.

    python3 benchmarks/faces.py TREE/src [--env] [--games N]

For every game (default player counts, Saboteur 4p and Saboteur 2 7p), plays ``--games``
random matches (seeds 0, 1, ...; chooser ``Rng(seed)``) and prints:

* ``view``: the mean time of the current seat's ``state.view(seat)``, taken before every
  decision (what an environment, a bot or a web table builds every move);
* ``view json``: the mean time of the web tables' JSON of seat 0's view
  (``web.tables.view_json``) at the last decision of each match, where the log is longest;
* ``env`` (with ``--env``; needs the ``envs`` extra): PettingZoo AEC steps per CPU second,
  ``saboteur bench --env``'s random play (picking among ``info["legal_actions"]``),
  median of 3 runs of 1 s.

``TREE/src`` goes first on the import path, so two trees can be timed side by side (one per
core) and compared: ``docs/performance-history.md``, seventh round.
"""

from __future__ import annotations

import sys
import time

sys.path.insert(0, sys.argv[1])

from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

CASES = [("duel", None), ("solo", None), ("classic", 4), ("expansion", 7), ("lost-mines", 5)]


def views(name: str, players: int | None, games: int) -> tuple[float, float]:
    from pysaboteur.web.tables import view_json

    game = make_game(name, players)
    spent, count, json_spent = 0.0, 0, 0.0
    clock = time.perf_counter
    for seed in range(games):
        state, pick = game.new_state(seed), Rng(seed)
        last = state
        while not state.is_terminal:
            start = clock()
            state.view(state.current_player)
            spent += clock() - start
            count += 1
            last = state.clone()
            state.apply(state.random_action(pick), check=False)
        view = last.view(0)
        start = clock()
        for _ in range(20):
            view_json(view)
        json_spent += (clock() - start) / 20
    return spent / count * 1e6, json_spent / games * 1e6


def env_steps(name: str, players: int | None) -> float:
    """``saboteur bench --env``'s figure: PettingZoo AEC steps per CPU second (needs the
    ``envs`` extra).  Trees before df33eb9 had their agent scan the mask; df33eb9's version
    of this file carries the agent the seventh round compared them with."""
    from pysaboteur.cli.bench import env_play

    return float(env_play(name, players, 1.0, 3)["env_steps_per_s"])


def main() -> None:
    args = sys.argv[2:]
    games = int(args[args.index("--games") + 1]) if "--games" in args else 10
    for name, players in CASES:
        view_us, json_us = views(name, players, games)
        line = f"{name:10} {players or '':>2}  view {view_us:6.1f} us  view json {json_us:6.1f} us"
        if "--env" in args:
            line += f"  env {env_steps(name, players):8,.0f} steps/s"
        print(line, flush=True)


if __name__ == "__main__":
    main()
