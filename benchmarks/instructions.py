"""The workload behind the instruction counts of docs/performance-history.md.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3 benchmarks/instructions.py TREE/src GAME MODE PLAYERS MATCHES

Plays MATCHES random matches of GAME (seeds 0, 1, ...) with one chooser, ``Rng(1)``,
either picking from ``legal_actions()`` every decision (MODE ``list``), taking
``random_action`` (``rollout``) or ``playout_action`` (``playout``) and applying it, or
letting ``State.play_out`` play the whole match (``play_out``; ``play_out_playout``: with
``policy="playout"``), the same games as ``rollout`` (``playout``), or as ``play_out`` with
each state dropped once played out, as ``saboteur bench`` drops it (``play_out_dropped``:
``play_out`` keeps it until the next match is made, so that a state the core holds is given
back, written, first); and prints the number of decisions on stderr.  MODE ``ismcts``:
``IsmctsBot(0, iterations=MATCHES, leaf_values=False)`` chooses on 8 of ``saboteur bench``'s
positions (seed 0); the count printed is the iterations (run 0 and 100).  Run it once with 0
matches and subtract that count (imports, set-up) before dividing by the decisions.  MODE
``determinize``: the bots' determinizer of each of ``saboteur bench``'s 64 positions samples
MATCHES times (the count printed is the samples; run 0 and 5).
``TREE/src`` goes first on the import path, so that an installed copy of the package is
not what gets measured.  PLAYERS may be empty for the game's default.
"""

from __future__ import annotations

import sys

sys.path.insert(0, sys.argv[1])

from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game


def main() -> None:
    _, _, name, mode, players, matches = sys.argv
    game = make_game(name, int(players) if players else None)
    pick = Rng(1)
    if mode == "ismcts":  # MATCHES: iterations per position (play-outs to the round's end)
        from pysaboteur.bots.ismcts import IsmctsBot
        from pysaboteur.cli.bench import _positions

        views = [(s.view(s.current_player), s.legal_actions()) for s in _positions(game, 8, 0)]
        iterations = 0
        if int(matches):
            bot = IsmctsBot(0, iterations=int(matches), leaf_values=False)
            for view, legal in views:
                bot.choose(view, legal)
                iterations += bot.last_iterations
        print(max(iterations, 1), file=sys.stderr)
        return
    if mode == "determinize":
        from pysaboteur.bots.worlds import determinizer
        from pysaboteur.cli.bench import _positions

        worlds = [determinizer(s.view(s.current_player)) for s in _positions(game, 64, 1)]
        for _ in range(int(matches)):
            for world in worlds:
                world.sample(pick)
        print(len(worlds) * int(matches), file=sys.stderr)
        return
    decisions = 0
    for seed in range(int(matches)):
        if mode == "play_out_dropped":
            decisions += game.new_state(seed).play_out(pick, until_round_end=False)
            continue
        state = game.new_state(seed)
        if mode.startswith("play_out"):
            decisions += state.play_out(pick, until_round_end=False,
                                        policy="playout" if mode.endswith("playout") else "random")
            continue
        while not state.is_terminal:
            if mode == "list":
                legal = state.legal_actions()
                state.apply(legal[pick.below(len(legal))], check=False)
            elif mode == "playout":
                state.apply(state.playout_action(pick), check=False)
            else:
                state.apply(state.random_action(pick), check=False)
            decisions += 1
    print(decisions, file=sys.stderr)


if __name__ == "__main__":
    main()
