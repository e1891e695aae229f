"""Benchmarks behind ``saboteur bench`` (measure here, never in timed tests)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from itertools import count
from typing import Any

from ..engine.game import Game
from ..engine.rng import Rng


def _one_run(game: Game, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Play random games for ``seconds`` of CPU time; return decisions, rounds, legal moves,
    time."""
    decisions = rounds = legal_total = 0
    pick = Rng(seed)
    start = time.process_time()  # CPU time: the machine may be shared
    deadline = start + seconds
    while True:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            legal_total += len(legal)
            state.apply(legal[pick.below(len(legal))], check=False)
            decisions += 1
        rounds += len(state.results)
        if time.process_time() >= deadline:
            return decisions, rounds, legal_total, time.process_time() - start


def random_play(game: Game, seconds: float, runs: int, seed: int = 0) -> dict[str, Any]:
    rates, round_rates, per_decision = [], [], []
    for r in range(runs):
        decisions, rounds, legal, elapsed = _one_run(game, seconds, seed + 1_000_003 * r)
        rates.append(decisions / elapsed)
        round_rates.append(rounds / elapsed)
        per_decision.append(legal / decisions)
    return {
        "game": getattr(game, "mode", game.name),
        "players": game.players,
        "runs": runs,
        "seconds": seconds,
        "decisions_per_s": statistics.median(rates),
        "rounds_per_s": statistics.median(round_rates),
        "legal_per_decision": statistics.median(per_decision),
        "all_decisions_per_s": rates,
    }


def env_play(game: str, players: int | None, seconds: float, runs: int,
             seed: int = 0) -> dict[str, Any]:
    """Random play through the PettingZoo AEC environment: observation and mask every step.

    The agent picks among ``info["legal_actions"]`` (what the mask marks), so that the
    figure is the environment's: scanning a mask of every action (101,513 in Saboteur 2)
    is the agent's cost, and would be more than half of a Saboteur 2 step.
    Needs the ``envs`` extra (numpy, gymnasium, pettingzoo).  CPU time, like the rest.
    """
    import numpy as np

    from ..envs.pettingzoo import env as make_env

    rates = []
    for r in range(runs):
        aec = make_env(game=game, players=players)
        rng = np.random.default_rng(seed + r)
        steps, match = 0, seed + 1_000_003 * r
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            aec.reset(seed=match)
            match += 1
            for _ in aec.agent_iter():
                _obs, _, terminated, truncated, info = aec.last()  # observed, like an agent
                if terminated or truncated:
                    aec.step(None)
                    continue
                legal = info["legal_actions"]
                aec.step(legal[int(rng.integers(len(legal)))])
                steps += 1
        rates.append(steps / (time.process_time() - start))
    return {"interface": "pettingzoo-aec", "env_steps_per_s": statistics.median(rates),
            "all_env_steps_per_s": rates}


# -- the costs that matter, one by one ---------------------------------------------------------

def _positions(game: Game, count: int, seed: int) -> list[Any]:
    """Live positions from random play, spread over the match (deterministic)."""
    pick = Rng(seed)
    out = []
    while len(out) < count:
        state = game.new_state(pick.below(1 << 30))
        for _ in range(pick.below(60)):
            if state.is_terminal:
                break
            state.apply(state.random_action(pick), check=False)
        if not state.is_terminal:
            out.append(state)
    return out


def _in_play(game: Game, seconds: float, seed: int) -> tuple[float, float]:
    """``legal_actions()`` and ``apply`` calls per second, each timed on its own inside random
    play (whole matches, a new seed each, for ``seconds`` of CPU time).

    Timed where play meets them, not on a few positions over and over: a position's second
    listing finds what the first one kept (a Saboteur board's placements), and applying one
    chosen move to fresh clones pays for copying the shared maze, which play does not.  Each
    call is timed with ``perf_counter`` (a tenth of what ``process_time`` costs to read), and
    what reading it costs is measured and taken off.  A loop of its own: ``_one_run`` plays
    the same way untimed (reading the clock around every call would slow the decisions/s it
    reports), and views stay out of it (building one before each list, as an environment
    does, slows the list that follows by a fifth: the view's objects push the engine's out
    of the processor's caches)."""
    clock = time.perf_counter
    reads = [clock() for _ in range(1001)]
    read = (reads[-1] - reads[0]) / 1000  # one reading of the clock, between two timed calls
    listing = applying = 0.0
    decisions = 0
    pick = Rng(seed)
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        state = game.new_state(seed)
        seed += 1
        while not state.is_terminal:
            start = clock()
            legal = state.legal_actions()
            listed = clock()
            action = legal[pick.below(len(legal))]
            chosen = clock()
            state.apply(action, check=False)
            applying += clock() - chosen
            listing += listed - start
            decisions += 1
    return (decisions / max(listing - decisions * read, 1e-9),
            decisions / max(applying - decisions * read, 1e-9))


def _rate(work: Any, seconds: float) -> float:
    """Calls of ``work()`` (which returns how many operations it did) per CPU second."""
    done = 0
    start = time.process_time()
    while True:
        done += work()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def _play_out_both_paths(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any]:
    """``State.play_out`` over whole matches on the compiled core and on the pure path, run
    by run side by side (the same matches on both), where the core plays this game: each
    path's median decisions/s and the ratio of the medians.  Nothing where the core is off
    (``--pure``, ``PYSABOTEUR_PURE=1``, not built) or does not play this game."""
    from .. import core

    state = game.new_state(seed)
    if not core.active() or core.compiled_play_out(type(state)) is None:
        return {}
    rates: dict[bool, list[float]] = {True: [], False: []}
    for r in range(runs):
        for pure in (False, True):
            matches = count(seed + 1_000_003 * r)

            def play_out(matches: Iterator[int] = matches) -> int:
                match = next(matches)
                return game.new_state(match).play_out(Rng(match), until_round_end=False)

            with core.use_pure(pure):
                rates[pure].append(_rate(play_out, seconds))
    compiled, pure_rate = statistics.median(rates[False]), statistics.median(rates[True])
    return {"play_out_compiled_decisions_per_s": compiled,
            "play_out_pure_decisions_per_s": pure_rate,
            "play_out_compiled_over_pure": compiled / pure_rate}


def _median(measure: Any, runs: int) -> float:
    return statistics.median(measure() for _ in range(runs))


def costs(game: Game, seconds: float, runs: int, seed: int = 0) -> dict[str, Any]:
    """Rollout path (``random_action`` and ``apply`` a move at a time, then ``play_out``),
    legal-move generation and apply each timed alone inside random play (``_in_play``), clone,
    views (one every decision, and as JSON), determinization, ISMCTS iterations and memory:
    each a median over ``runs`` (CPU time)."""
    import tracemalloc

    from ..bots.ismcts import IsmctsBot
    from ..bots.worlds import determinizer

    positions = _positions(game, 64, seed)
    out: dict[str, Any] = {}

    # whole matches of random play, a new seed each, like ``random_play`` (one match played
    # again and again would measure that match, with every cache it fills warm)
    rollout_seeds, play_out_seeds = count(seed), count(seed)  # the same matches for both

    def rollout() -> int:
        match = next(rollout_seeds)
        pick = Rng(match)
        state = game.new_state(match)
        n = 0
        while not state.is_terminal:
            state.apply(state.random_action(pick), check=False)
            n += 1
        return n

    out["rollout_decisions_per_s"] = _median(lambda: _rate(rollout, seconds), runs)

    def play_out() -> int:  # the same games as rollout(), in the engine's own loop
        match = next(play_out_seeds)
        return game.new_state(match).play_out(Rng(match), until_round_end=False)

    out["play_out_decisions_per_s"] = _median(lambda: _rate(play_out, seconds), runs)
    out.update(_play_out_both_paths(game, seconds, runs, seed))

    # legal-move lists and apply, each on its own, as random play meets them
    in_play = [_in_play(game, seconds, seed + 1_000_003 * r) for r in range(runs)]
    out["legal_actions_per_s"] = statistics.median(legal for legal, _ in in_play)
    out["apply_per_s"] = statistics.median(apply for _, apply in in_play)

    def clone() -> int:
        for state in positions:
            state.clone()
        return len(positions)

    out["clones_per_s"] = _median(lambda: _rate(clone, seconds), runs)

    def view_each_decision() -> float:
        """The current seat's view before every decision of random matches (what
        environments, bots and the web tables build every move); only the views timed."""
        done, spent, match = 0, 0.0, seed
        while spent < seconds:
            state, pick = game.new_state(match), Rng(match)
            match += 1
            while not state.is_terminal:
                start = time.process_time()
                state.view(state.current_player)
                spent += time.process_time() - start
                done += 1
                state.apply(state.random_action(pick), check=False)
        return done / spent

    out["views_per_s"] = _median(view_each_decision, runs)
    views = [s.view(s.current_player) for s in positions]

    def as_json() -> int:  # what the web tables send every seat after every move
        for view in views:
            view.plain()
        return len(views)

    out["view_json_per_s"] = _median(lambda: _rate(as_json, seconds), runs)
    try:
        worlds = [determinizer(v) for v in views]
    except ValueError:
        worlds = []
    if worlds:
        pick = Rng(seed)

        def sample() -> int:
            for w in worlds:
                w.sample(pick)
            return len(worlds)

        out["determinizations_per_s"] = _median(lambda: _rate(sample, seconds), runs)
        bot = IsmctsBot(seed, iterations=10**9, seconds=seconds / 4, leaf_values=False)

        def search() -> float:
            done, start = 0, time.process_time()
            for state, view in zip(positions, views, strict=True):
                bot.choose(view, state.legal_actions())
                done += bot.last_iterations
                if time.process_time() - start >= seconds:
                    break
            return done / (time.process_time() - start)

        out["ismcts_iterations_per_s"] = _median(search, runs)
    tracemalloc.start()
    one = positions[len(positions) // 2].clone()
    single = tracemalloc.get_traced_memory()[0]
    many = [one.clone() for _ in range(1000)]
    thousand = tracemalloc.get_traced_memory()[0] - single
    tracemalloc.stop()
    del many
    out["memory_one_state_bytes"] = _state_size(positions[len(positions) // 2])
    out["memory_1000_states_bytes"] = thousand
    return out


def _state_size(state: Any, copies: int = 20) -> int:
    """Bytes a state holds on its own (not its game): deep copies measured with tracemalloc,
    per copy.  One copy alone is not enough: objects taken from CPython's free lists (small
    tuples, floats...) are not traced, and how many it finds there depends on what ran
    before (one copy of the same Saboteur 2 state measured 7,100 to 13,300 bytes).  A first
    copy, not counted, fills whatever one-off caches copying fills."""
    import copy
    import tracemalloc

    shared = state.game  # rules, options and card tables belong to the game, not the state
    memo = {id(shared): shared, id(shared.catalogue): shared.catalogue}
    copy.deepcopy(state, memo=dict(memo))  # a first copy may fill one-off caches: not counted
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    twins = [copy.deepcopy(state, memo=dict(memo)) for _ in range(copies)]
    size = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del twins
    return size // copies
