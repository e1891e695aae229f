"""Python bytecodes executed per decision, by function (docs/performance.md, "Where the
time goes now").

    python3 benchmarks/bytecodes.py TREE/src GAME MODE PLAYERS MATCHES [TOP]

Plays MATCHES random matches of GAME (seeds 0, 1, ...; one match first, untraced, to warm
the engine's caches) either building the full legal list every decision (MODE ``list``,
the chooser ``Rng(seed)``) or with ``State.play_out`` (``play_out``), traces every
bytecode (``sys.settrace`` with ``f_trace_opcodes``) and prints the bytecodes per decision,
then the TOP functions (default 12) by their own bytecodes per decision.  Deterministic, like
the instruction counts, but much slower than the game (about 100 times): keep MATCHES
small (20).  ``TREE/src`` goes first on the import path.  PLAYERS may be empty for the
game's default.
"""

from __future__ import annotations

import sys
from collections import Counter
from types import FrameType
from typing import Any

sys.path.insert(0, sys.argv[1])

from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game


def main() -> None:
    name, mode, players, matches = sys.argv[2:6]
    top = int(sys.argv[6]) if len(sys.argv) > 6 else 12
    game = make_game(name, int(players) if players else None)
    game.new_state(10**6).play_out(Rng(10**6), until_round_end=False)  # warm the caches
    counts: Counter[str] = Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            counts[frame.f_code.co_qualname] += 1
        return tracer

    decisions = 0
    for seed in range(int(matches)):
        state = game.new_state(seed)
        pick = Rng(seed)
        sys.settrace(tracer)
        if mode == "list":
            while not state.is_terminal:
                legal = state.legal_actions()
                state.apply(legal[pick.below(len(legal))], check=False)
                decisions += 1
        else:
            decisions += state.play_out(pick, until_round_end=False)
        sys.settrace(None)
    print(f"{name} {mode}: {decisions} decisions, "
          f"{sum(counts.values()) / decisions:.0f} bytecodes a decision")
    for function, n in counts.most_common(top):
        print(f"  {n / decisions:7.1f}  {function}")


if __name__ == "__main__":
    main()
