"""How good are a bot's single decisions, next to the heuristic's?  A sharper lens than arenas.

    python3 examples/decision_quality.py --game classic --players 5 --positions 800 --playouts 8
    python3 examples/decision_quality.py --bot ismcts --options '{"iterations": 1200}'

An arena's result mixes every decision of a match with the luck of the deal; in
Saboteur a per-decision edge of a few hundredths of a round is invisible in
1,000 matches.  This probe asks one question per position instead:

1. Heuristic bots play whole matches (seeds 90000, 90001, ...); every ninth
   decision with a choice becomes a test position, true state and all.
2. The bot under test and the heuristic each choose a move from the seat's view
   (never the true state).
3. Where they differ, both moves are played out from the *true* state to the
   round's end by heuristic bots, ``--playouts`` times each, with the same bot
   seeds for both moves (common random numbers), and compared by the seat's
   round result relative to the others (``ismcts.round_outcome``'s scale, about
   [-1, 1], 1 being a 5-gold swing).

It prints the mean difference over all positions (0 where the bot agrees with
the heuristic) with its standard error: positive means the bot's choices are
better than the heuristic's, judged by what heuristic players would make of
them.  ``--by-kind`` splits the differences by seat role and the kinds of the
two moves.  Results of the Saboteur searches are in docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from multiprocessing import Pool
from typing import Any

from pysaboteur.bots import BOTS, make_bot
from pysaboteur.bots.ismcts import round_outcome
from pysaboteur.engine.actions import Action, PlayOnCell, PlayOnPlayer
from pysaboteur.engine.game import State
from pysaboteur.registry import make_game

EVERY = 9  # one test position per this many decisions of a match


def positions(game: str, players: int, n: int) -> list[tuple[State, int]]:
    """``n`` positions met in all-heuristic matches, each with a key that seeds its bots."""
    g = make_game(game, players)
    out: list[tuple[State, int]] = []
    match = 0
    while len(out) < n:
        state = g.new_state(90000 + match)
        bots = [make_bot("heuristic", 31 * match + s) for s in range(players)]
        k = 0
        while not state.is_terminal and len(out) < n:
            p = state.current_player
            legal = state.legal_actions()
            if k % EVERY == EVERY // 2 and len(legal) > 1:
                out.append((state.clone(), match * 1000 + k))
            state.apply(bots[p].choose(state.view(p), legal))
            k += 1
        match += 1
    return out


def round_value(state: State, action: Action, seat: int, playout: int) -> float:
    """The seat's round result, relative to the others, after ``action`` and heuristic play."""
    s = state.clone()
    start = s.scores()
    round_no = s.round_no
    s.apply(action)
    bots = [make_bot("heuristic", 7777 + 13 * playout + q) for q in range(len(start))]
    while not s.is_terminal and s.round_no == round_no:
        p = s.current_player
        s.apply(bots[p].choose(s.view(p), s.legal_actions()))
    return round_outcome(start, s)[seat]


def kind(action: Action) -> str:
    """A move's kind for the breakdown: path, pass, discard, or the action card's family."""
    if isinstance(action, PlayOnPlayer | PlayOnCell):
        return action.card.split("-")[0]
    name = type(action).__name__
    return {"PlacePath": "path", "Pass": "pass", "Discard": "discard"}.get(name, name)


def judge(job: tuple[State, int, str, dict[str, Any], int]) -> tuple[float, str]:
    state, key, bot, options, playouts = job
    seat = state.current_player
    legal = state.legal_actions()
    view = state.view(seat)
    usual = make_bot("heuristic", key).choose(view, legal)
    chosen = BOTS[bot](key, **options).choose(view, legal)
    if chosen == usual:
        return 0.0, ""
    diff = sum(round_value(state, chosen, seat, r) - round_value(state, usual, seat, r)
               for r in range(playouts)) / playouts
    role = getattr(state, "roles", ["-"] * (seat + 1))[seat]
    return diff, f"{role}: heuristic {kind(usual)}, {bot} {kind(chosen)}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="classic")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--positions", type=int, default=800)
    ap.add_argument("--playouts", type=int, default=8, help="play-outs per move compared")
    ap.add_argument("--bot", default="ismcts", choices=sorted(BOTS))
    ap.add_argument("--options", default="{}", help="the bot's keyword arguments, as JSON")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--by-kind", action="store_true", help="split by role and kinds of move")
    args = ap.parse_args()
    options = json.loads(args.options)
    jobs = [(s, key, args.bot, options, args.playouts)
            for s, key in positions(args.game, args.players, args.positions)]
    with Pool(args.workers) as pool:
        results = pool.map(judge, jobs, chunksize=4)
    diffs = [d for d, _ in results]
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    differ = sum(1 for _, label in results if label)
    print(f"{args.bot} {args.options}: {n} positions, {differ} choices differ from the "
          f"heuristic's; mean difference {mean:+.4f} (standard error {se:.4f})")
    if args.by_kind:
        groups: dict[str, list[float]] = defaultdict(list)
        for d, label in results:
            if label:
                groups[label].append(d)
        for label, ds in sorted(groups.items(), key=lambda kv: sum(kv[1])):
            print(f"  {label:45s} {len(ds):4d} moves, mean {sum(ds) / len(ds):+.3f}")


if __name__ == "__main__":
    main()
