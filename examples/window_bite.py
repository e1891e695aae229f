"""How often does the encoding's window bite?  Play random rounds, count legal actions outside.

Every decision of every round lists the legal actions and asks the game's
encoding for each one; an action it cannot encode (a placement, bribe or cell
target beyond the window) is a *bite*.  Also reports the extreme cells any legal
action aimed at, to show the margin left.

    python3 examples/window_bite.py --game duel --rounds 100000
    python3 examples/window_bite.py --game classic --rounds 100000 --players 3,5,10

Player counts are cycled match by match.  ``--bot heuristic`` has every seat played by
that bot (``pysaboteur.bots.make_bot``) instead of uniformly random moves; the legal
actions of every decision are checked all the same.  Results are in docs/envs.md.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pysaboteur.bots import make_bot
from pysaboteur.engine.rng import Rng
from pysaboteur.envs import make_encoding
from pysaboteur.registry import GAMES, make_game


def measure(game: str, rounds: int, players: list[int], seed: int = 0,
            bot: str | None = None) -> dict[str, Any]:
    encs = {p: make_encoding(make_game(game, p)) for p in players}
    played = decisions = actions = bites = matches = 0
    lo_x = lo_y = 10**9
    hi_x = hi_y = -10**9
    start = time.perf_counter()
    while played < rounds:
        p = players[matches % len(players)]
        enc = encs[p]
        state = enc.game.new_state(seed + matches)
        pick = Rng(seed + matches + 7919)
        bots = [make_bot(bot, seed + matches * 31 + s) for s in range(p)] if bot else None
        matches += 1
        while not state.is_terminal:
            seat = state.current_player
            legal = state.legal_actions()
            view = state.view(seat) if game == "lost-mines" else None
            _, _, missed = enc.legal(legal, seat, view)
            bites += missed
            decisions += 1
            actions += len(legal)
            for a in legal:
                x = getattr(a, "x", None)
                if x is not None:
                    y = a.y  # type: ignore[union-attr]
                    lo_x, hi_x, lo_y, hi_y = min(lo_x, x), max(hi_x, x), min(lo_y, y), max(hi_y, y)
            if bots is not None:
                state.apply(bots[seat].choose(state.view(seat), legal), check=False)
            else:
                state.apply(legal[pick.below(len(legal))], check=False)
        played += len(state.results)
    win = next(iter(encs.values())).window
    return {"game": game, "players": players, "play": bot or "random", "rounds": played,
            "matches": matches,
            "decisions": decisions, "legal_actions": actions, "bites": bites,
            "window": {"x": [win.x0, win.x1], "y": [win.y0, win.y1]},
            "extent": {"x": [lo_x, hi_x], "y": [lo_y, hi_y]},
            "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="duel", choices=list(GAMES))
    ap.add_argument("--rounds", type=int, default=100_000)
    ap.add_argument("--players", default="", help="comma-separated player counts to cycle")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", default=None, help="seats played by this bot (default: random)")
    args = ap.parse_args()
    entry = GAMES[args.game]
    players = ([int(p) for p in args.players.split(",")] if args.players
               else list(range(entry.players[0], entry.players[1] + 1)))
    print(json.dumps(measure(args.game, args.rounds, players, args.seed, args.bot)))


if __name__ == "__main__":
    main()
