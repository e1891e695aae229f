"""How much of the rollout target's time budget the rules can have (docs/performance.md).

    python3 benchmarks/floor.py [TREE/src] [--seconds 1] [--runs 3]

Saboteur, 4 players, whole matches of random play, CPU time of this process, medians of
``runs`` runs of ``seconds`` each, printed as one JSON line:

* ``play_out``: the engine's rollout path, ``State.play_out`` (what ``saboteur bench``
  reports as ``play_out_decisions_per_s``);
* ``bookkeeping``: the same states (``game.new_state``, so the same set-up), where every
  decision only does what any decision of any implementation of the rules must do with
  the engine's data: read the hand's distinct cards in order, take one number from the
  chooser (``rng.Batch``), take the card out of the hand, log the action, its seat and
  the face-down card, draw, and pass the turn on.  No maze, no counting of legal moves,
  no action cards, no round end: it plays no rule, and is not a game;
* ``budget_us``: what is left of a decision's time at 250,000 decisions/s (4 us) once the
  bookkeeping is paid, i.e. the time every rule of a decision (counting the legal moves
  of each card, decoding the one picked, laying a path card with its fit constraints and
  reach, goals, action cards, the round's end) must fit in; ``rules_us_now``: what they
  take in ``play_out`` today.

Both are timed after 50 untimed matches of each (the engine fills some tables on first use).
``TREE/src`` goes first on the import path (to measure another tree).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

TARGET = 250_000  # Saboteur 4p, rollout path (issue 3)
PLAYERS = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", nargs="?", help="a tree's src/ to measure (default: installed)")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, args.src)

    from pysaboteur.engine.moves import SINGLES
    from pysaboteur.engine.rng import Batch, Rng
    from pysaboteur.games.classic.state import ClassicGame

    game = ClassicGame(PLAYERS)

    def play_out(seed: int) -> int:
        return game.new_state(seed).play_out(Rng(seed), until_round_end=False)

    def bookkeeping(seed: int) -> int:
        state = game.new_state(seed)
        hands, deck = state.hands, state.deck
        history, actors, passed = state.history, state.actors, state.passed
        batch = Batch(Rng(seed))
        below = batch.below
        seat, seats, decisions = state.current, len(hands), 0
        while hands[seat]:
            hand = hands[seat]
            distinct = sorted(set(hand))
            code = distinct[below(len(distinct))]
            hand.remove(code)
            actors.append(seat)
            passed.append((seat, code))
            history.append(SINGLES[code])
            if deck:
                hand.append(deck.pop())
            seat = (seat + 1) % seats
            decisions += 1
        batch.close()
        return decisions

    def rate(matches: Callable[[int], int]) -> float:
        done, seed = 0, 0
        start = time.process_time()
        while (elapsed := time.process_time() - start) < args.seconds:
            done += matches(seed)
            seed += 1
        return done / elapsed

    for seed in range(50):  # warm the engine's caches (tables filled on first use)
        play_out(seed)
        bookkeeping(seed)
    engine = statistics.median(rate(play_out) for _ in range(args.runs))
    floor = statistics.median(rate(bookkeeping) for _ in range(args.runs))
    print(json.dumps({
        "game": "classic", "players": PLAYERS, "runs": args.runs, "seconds": args.seconds,
        "play_out": round(engine), "bookkeeping": round(floor),
        "budget_us": round(1e6 / TARGET - 1e6 / floor, 2),
        "rules_us_now": round(1e6 / engine - 1e6 / floor, 2),
    }))


if __name__ == "__main__":
    main()
