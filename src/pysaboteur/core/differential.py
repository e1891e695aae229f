"""The differential check of the compiled core: matches played through both paths, every
decision compared.

``python -m pysaboteur.core.differential [--matches N] [--game G] [--seed S]``

Each match starts from a new seed (its first round set up in Python and again on the core,
compared), is opened by a few random moves on the pure path (so
that play-outs also start in the middle of a round, in a goal's orientation, in later
rounds), then cloned: the original plays on with the pure loop (``_pure_play_out``), the
clone with ``State.play_out`` on the compiled core, the same chooser seed for both, round
by round or the whole match at once, either policy, the chooser a generator of its own or
the state's own.  After every play-out the two must agree on the count of decisions, the
history (every decision, values and types), the seats that made them, every field of the
state, the maze and both generators.  Prints one line per game and player count; exit 1
on the first difference, naming it.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..engine.game import State
from ..engine.rng import Rng
from ..registry import make_game
from . import active, compiled_play_out, describe, use_pure

#: what the differential plays, per game: the player counts (matches spread over them)
PLAYERS: dict[str, tuple[int, ...]] = {"classic": (3, 4, 5, 6, 7, 8, 9, 10),
                                       "expansion": tuple(range(2, 13)),
                                       "lost-mines": (3, 4, 5, 6, 7, 8, 9),
                                       "duel": (2,), "solo": (1,)}
_SKIP = ("game", "maze", "rng", "deal")


def difference(a: State, b: State) -> str | None:
    """What differs between two states (None: nothing), the pure one first."""
    if a.rng.state != b.rng.state:
        return "the state's generator"
    da, db = a.__dict__, b.__dict__
    for key in da.keys() | db.keys():
        if key in _SKIP:
            continue
        if key not in da or key not in db:
            return f"field {key} is on one state only"
        if da[key] != db[key]:
            return f"field {key}: {str(da[key])[:200]} != {str(db[key])[:200]}"
        if key == "history" and list(map(type, da[key])) != list(map(type, db[key])):
            return "the types of the history's actions"
    ma, mb = getattr(a, "maze", None), getattr(b, "maze", None)
    if ma is not None and mb is not None:
        for slot in type(ma).__slots__:
            x, y = getattr(ma, slot), getattr(mb, slot)
            if slot != "cat" and x != y:
                return f"maze.{slot}: {str(x)[:200]} != {str(y)[:200]}"
    return None


def check_match(name: str, players: int, seed: int) -> tuple[int, int]:
    """One match through both paths (the set-up chosen by ``seed``); returns (decisions,
    play-outs) compared; raises AssertionError at the first difference."""
    setup = Rng(seed ^ 0xD1FF)
    with use_pure():  # the first round set up in Python, and again on the core: the same
        a = make_game(name, players).new_state(seed)
    first = make_game(name, players).new_state(seed)
    diff = difference(a, first)
    assert diff is None, f"{name} {players}p seed {seed}, the first round's set-up: {diff}"
    opening = Rng(seed ^ 0x5EED)
    for _ in range(setup.below(4) * setup.below(60)):  # mostly short openings, some long
        if a.is_terminal:
            break
        a.apply(a.random_action(opening), check=False)
    policy: Any = "playout" if setup.below(2) else "random"
    whole = setup.below(3) == 0
    shared = setup.below(3) == 0
    b = a.clone()
    pick_a, pick_b = (a.rng, b.rng) if shared else (Rng(seed + 1), Rng(seed + 1))
    decisions = outs = 0
    while not a.is_terminal:
        played_a = a._pure_play_out(pick_a, not whole, policy)  # type: ignore[attr-defined]
        played_b = b.play_out(pick_b, not whole, policy)
        outs += 1
        where = (f"{name} {players}p seed {seed} ({policy}, {'match' if whole else 'round'}, "
                 f"{'shared' if shared else 'own'} chooser), play-out {outs}")
        assert played_a == played_b, f"{where}: {played_a} decisions pure, {played_b} compiled"
        assert pick_a.state == pick_b.state, f"{where}: the chooser's generator"
        diff = difference(a, b)
        assert diff is None, f"{where}: {diff}"
        decisions += played_a
    return decisions, outs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pysaboteur.core.differential",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--matches", type=int, default=10_000, help="matches per game")
    parser.add_argument("--game", default="all", help=f"one of {', '.join(PLAYERS)}, or all")
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed")
    args = parser.parse_args(argv)
    print(f"engine: {describe()}")
    if not active():
        print("the compiled core is not active: nothing to compare")
        return 1
    names = list(PLAYERS) if args.game == "all" else [args.game]
    for name in names:
        counts = PLAYERS.get(name)
        if counts is None or compiled_play_out(type(make_game(name, counts[0]).new_state(0))
                                               ) is None:
            print(f"{name}: not on the compiled core yet, skipped")
            continue
        start = time.process_time()
        per: dict[int, list[int]] = {p: [0, 0, 0] for p in counts}
        try:
            for i in range(args.matches):
                players = counts[i % len(counts)]
                decisions, outs = check_match(name, players, args.seed + i)
                row = per[players]
                row[0] += 1
                row[1] += decisions
                row[2] += outs
        except AssertionError as exc:
            print(f"DIFFERENCE: {exc}")
            return 1
        for players, (matches, decisions, outs) in per.items():
            print(f"{name} {players:>2}p: {matches:>6,} matches, {outs:>7,} play-outs, "
                  f"{decisions:>9,} decisions compared: identical")
        total = sum(row[1] for row in per.values())
        print(f"{name}: {args.matches:,} matches, {total:,} decisions, no difference "
              f"({time.process_time() - start:.0f} CPU s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
