"""Find candidate puzzles by playing bot matches from fixed goals and keeping the moments
whose answer the search proves unique (or small).  A tool for writing puzzles, not run by
the game: ``python -m pysaboteur.puzzles.generate classic 40``."""

from __future__ import annotations

import json
import sys
from typing import Any

from ..bots import make_bot
from ..engine.position import Position
from ..engine.rng import Rng
from .search import (
    gold_cells,
    reach_lines,
    role_worlds,
    saboteur_seats,
    stop_moves,
    turns,
    wins_now,
)


def candidates(game: str, seed: int, players: int | None = None) -> list[dict[str, Any]]:
    base = Position(game=game, players=players, seed=seed)
    layout = base.make_game().start_layout()
    goals = list(layout.goal_box)
    Rng(seed).shuffle(goals)
    goals = goals[:len(layout.goal_cells)]
    base = Position(game=game, players=players, seed=seed, goals=goals)
    state = base.state()
    bots = [make_bot("heuristic", seed * 10 + i) for i in range(state.game.players)]
    found: list[dict[str, Any]] = []
    kinds: set[str] = set()
    for _ in range(200):
        if state.results or state.is_terminal:
            break
        me = state.current_player
        pos = Position(game=game, players=players, seed=seed, goals=goals,
                       moves=[str(a) for a in state.history])
        gold_at = [xy for xy, g in zip(layout.goal_cells, goals, strict=True) if "gold" in g]
        can_build = getattr(state, "can_build", lambda seat: True)
        if game in ("classic", "expansion", "duel", "solo") and can_build(me):
            if "reach1" not in kinds and "reach2" not in kinds:
                one = reach_lines(state, me, 1)
                if one and len({ln[0].split("@")[0] for ln in one}) == 1 and len(one) <= 2:
                    found.append({"kind": "reach", "n": 1, "seat": me, "solutions": one})
                    kinds.add("reach1")
                elif not one and "reach2" not in kinds and game != "solo":
                    two = reach_lines(state, me, 2)
                    if two and len(two) <= 4:
                        found.append({"kind": "reach", "n": 2, "seat": me, "solutions": two})
                        kinds.add("reach2")
            if found and found[-1].get("position") is None:
                found[-1].update(position=pos.to_json(), gold=gold_at)
        if game == "lost-mines" and "reach1" not in kinds:
            one = reach_lines(state, me, 1)
            if one and len(one) <= 3:
                found.append({"kind": "reach", "n": 1, "seat": me, "solutions": one,
                              "position": pos.to_json()})
                kinds.add("reach1")
        if game in ("classic", "expansion") and "stop" not in kinds:
            opts = [t for t in turns(state, me)]
            passing = [after for line, after, _ in opts if line[0].startswith("pass")]
            if passing and wins_now(passing[0]):
                stops = stop_moves(state, me)
                if 1 <= len(stops) <= 3:
                    found.append({"kind": "stop", "seat": me, "solutions": stops,
                                  "position": pos.to_json(), "gold": gold_at,
                                  "next": passing[0].current_player})
                    kinds.add("stop")
        if "where" not in kinds and len(layout.goal_box) <= 3:
            view = state.view(me)
            known = [tuple(k[:2]) for k in view.known_goals]
            face_down = [tuple(c) for c in view.face_down]
            if len(face_down) + len(known) >= 2 and not any(tuple(xy) in known
                                                         for xy in gold_at):
                cells = gold_cells(pos, me)
                if len(cells) == 1 and tuple(cells[0]) not in known:
                    found.append({"kind": "where", "seat": me, "solutions": [list(cells[0])],
                                  "position": pos.to_json()})
                    kinds.add("where")
        if game == "classic" and "saboteur" not in kinds \
                and state.view(me).role != "saboteur" and len(state.history) >= 6:
            worlds_now = role_worlds(state, me)
            seats = saboteur_seats(state, me)
            if worlds_now and len(seats) == 1 and all(
                    sum(r == "saboteur" for r in w) == 1 for w in worlds_now):
                found.append({"kind": "saboteur", "seat": me, "solutions": [[seats[0]]],
                              "position": pos.to_json()})
                kinds.add("saboteur")
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    return found


if __name__ == "__main__":
    game, count = sys.argv[1], int(sys.argv[2])
    start = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    for seed in range(start, start + count):
        for c in candidates(game, seed):
            print(json.dumps({"game": game, "seed": seed, **c}), flush=True)
