"""Arena: bots play many seeded matches, with seats rotated, and are measured.

Match ``i`` uses seed ``seed + i`` and seats bot ``bots[(i + s) % len(bots)]`` in
seat ``s``, so every bot sits in every seat equally often and the same
arguments always give the same results, however many workers play them.

In the *duplicate* format (``duplicate=True``) each deal is played once per
rotation of the seats: match ``i`` uses seed ``seed + i // len(bots)``, so every
bot is dealt the same first round (cards, dwarf cards, goals) in every seat.
Later rounds may differ, as the gold drawn depends on the play.

Per bot: matches played, win rate (a shared first place counts as 1/k of a
win) with a Wilson 95% interval, mean score, an OpenSkill (Plackett-Luce)
rating, and for hidden-role games the rate of rounds won in each role.

Per pair of bots: the paired difference, match by match, of their seats' mean
win share and mean score, with a 95% interval.  Bots that meet in the same
matches share the deal's luck, so the paired interval separates them with far
fewer matches than two independent win rates (in Saboteur the deal and the
roles decide much of a match).  Matches of one deal (the duplicate format) are
averaged first and count as one sample: they are not independent.

A long run can keep a *match log* (``MatchLog``): every finished match is appended to
a file as one JSON line, and a run given the same file plays only the matches not in it
yet, so a run of hours can be stopped (even killed) and resumed, or played in parts.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .bots import make_bot
from .registry import make_game


@dataclass(frozen=True)
class MatchSpec:
    game: str
    players: int
    bots: tuple[str, ...]  # bot name per seat
    seed: int
    index: int
    options: tuple[tuple[str, Any], ...] = ()


@dataclass
class MatchResult:
    index: int
    bots: tuple[str, ...]
    scores: list[int]
    returns: list[float]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    decisions: int = 0
    deal: int | None = None  # the match's seed: matches of one deal share it (duplicate format)


def seating(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    return tuple(bots[(index + s) % len(bots)] for s in range(players))


def specs(game: str, players: int, bots: Sequence[str], games: int, seed: int,
          options: dict[str, Any] | None = None, duplicate: bool = False) -> list[MatchSpec]:
    """The matches of an arena; ``duplicate``: each deal once per rotation of the seats."""
    opts = tuple(sorted((options or {}).items()))
    per_deal = len(bots) if duplicate else 1
    return [MatchSpec(game, players, seating(bots, players, i), seed + i // per_deal, i, opts)
            for i in range(games)]


def play_match(spec: MatchSpec) -> MatchResult:
    """Play one match; every bot sees only its seat's view."""
    state = make_game(spec.game, spec.players, **dict(spec.options)).new_state(spec.seed)
    seats = [make_bot(name, spec.seed * 1009 + s) for s, name in enumerate(spec.bots)]
    decisions = 0
    while not state.is_terminal:
        p = state.current_player
        state.apply(seats[p].choose(state.view(p), state.legal_actions()))
        decisions += 1
    return MatchResult(spec.index, spec.bots, state.scores(), state.returns(),
                       [r.to_json() for r in state.results], decisions, spec.seed)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_shares(scores: Sequence[float]) -> list[float]:
    best = max(scores)
    winners = [s for s in scores if s == best]
    return [1 / len(winners) if s == best else 0.0 for s in scores]


class MatchLog:
    """Finished matches kept in a file, one JSON line each (the match's spec and result),
    appended as each match finishes.  ``load`` reads back the ones an arena asks for; a
    line cut short by a killed run is dropped; a line for one of the arena's matches
    that was played under another spec (game, players, seating, seed or options) is an
    error, so that two arenas' results are never mixed."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def load(self, match_specs: Sequence[MatchSpec]) -> dict[int, MatchResult]:
        """The results in the log of these specs' matches, by index."""
        if not self.path.exists():
            return {}
        wanted = {spec.index: spec for spec in match_specs}
        raw = self.path.read_bytes()
        if raw and not raw.endswith(b"\n"):  # a line cut short: dropped, the file mended
            raw = raw[:raw.rfind(b"\n") + 1]
            self.path.write_bytes(raw)
        found: dict[int, MatchResult] = {}
        for number, line in enumerate(raw.decode().splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                spec = _spec_of(entry["spec"])
                result = _result_of(entry["result"])
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{self.path}, line {number}: not a match of an arena "
                                 f"log ({exc})") from None
            if spec.index not in wanted:
                continue  # a log may hold more matches than a run asks for
            if spec != wanted[spec.index]:
                raise ValueError(f"{self.path} holds match {spec.index} of another arena "
                                 f"({_describe(spec)}, not {_describe(wanted[spec.index])})")
            found[spec.index] = result
        return found

    def append(self, spec: MatchSpec, result: MatchResult) -> None:
        """Add a finished match, on disk before this returns."""
        line = json.dumps({"spec": asdict(spec), "result": asdict(result)}) + "\n"
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())


def _spec_of(d: dict[str, Any]) -> MatchSpec:
    return MatchSpec(d["game"], int(d["players"]), tuple(d["bots"]), int(d["seed"]),
                     int(d["index"]), tuple((k, v) for k, v in d.get("options", ())))


def _result_of(d: dict[str, Any]) -> MatchResult:
    return MatchResult(int(d["index"]), tuple(d["bots"]), list(d["scores"]), list(d["returns"]),
                       list(d.get("rounds", [])), int(d.get("decisions", 0)), d.get("deal"))


def _describe(spec: MatchSpec) -> str:
    return f"{spec.game}, {spec.players} players, {', '.join(spec.bots)}, seed {spec.seed}"


def run_local(match_specs: Sequence[MatchSpec], workers: int = 1,
              progress: Callable[[MatchResult], None] | None = None) -> list[MatchResult]:
    """Play the matches on this machine with ``workers`` processes; ``progress`` is
    called with each result as it comes."""
    results: list[MatchResult] = []
    if workers <= 1:
        for spec in match_specs:
            results.append(play_match(spec))
            if progress:
                progress(results[-1])
    else:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            for result in pool.imap_unordered(play_match, match_specs):
                results.append(result)
                if progress:
                    progress(result)
    return sorted(results, key=lambda r: r.index)


def run_ray(match_specs: Sequence[MatchSpec], address: str,
            progress: Callable[[MatchResult], None] | None = None) -> list[MatchResult]:
    """Play the matches on a Ray cluster (``address``: "auto", "local" or ray://host:port)."""
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("--ray needs the optional extra: pip install 'pysaboteur[ray]'") from exc
    ray.init(address=None if address == "local" else address, ignore_reinit_error=True,
             include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_match)
    pending = [remote.remote(spec) for spec in match_specs]
    results = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for result in ray.get(done):
            results.append(result)
            if progress:
                progress(result)
    return sorted(results, key=lambda r: r.index)


def summarize(results: Iterable[MatchResult], bot_names: Sequence[str]) -> dict[str, Any]:
    """Per-bot statistics and ratings, in match order (so reproducible)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in bot_names}
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    score_sum: dict[str, float] = defaultdict(float)
    role_rounds: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    matches = 0
    for r in _in_order(results):
        matches += 1
        for seat, (name, share) in enumerate(zip(r.bots, win_shares(r.scores), strict=True)):
            played[name] += 1
            wins[name] += share
            score_sum[name] += r.scores[seat]
        for rnd in r.rounds:
            roles, winners = rnd.get("roles"), rnd.get("winners")
            if roles is None or winners is None:
                continue
            for seat, role in enumerate(roles):
                tally = role_rounds[r.bots[seat]][str(role)]
                tally[0] += seat in winners
                tally[1] += 1
        # rate distinct bots by their mean return in this match
        present = sorted(set(r.bots))
        if len(present) > 1:
            mean = {b: sum(x for x, n in zip(r.returns, r.bots, strict=True) if n == b)
                    / r.bots.count(b) for b in present}
            # OpenSkill wants whole-number ranks (it truncates fractions): 0 for the best mean
            order = sorted(set(mean.values()), reverse=True)
            ranks = [order.index(mean[b]) for b in present]
            new = model.rate([[ratings[b]] for b in present], ranks=ranks)
            for b, team in zip(present, new, strict=True):
                ratings[b] = team[0]
    out: dict[str, Any] = {"matches": matches, "bots": {}, "pairs": paired(results, bot_names)}
    for name in bot_names:
        n = played[name]
        lo, hi = wilson(wins[name], n)
        rating = ratings[name]
        out["bots"][name] = {
            "matches": n,
            "win_rate": wins[name] / n if n else 0.0,
            "win_rate_ci95": [lo, hi],
            "mean_score": score_sum[name] / n if n else 0.0,
            "rating_mu": rating.mu,
            "rating_sigma": rating.sigma,
            "rating_ordinal": rating.ordinal(),
            "round_win_rate_by_role": {role: w / t for role, (w, t) in
                                       sorted(role_rounds[name].items()) if t},
        }
    return out


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    half = z * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def paired(results: Iterable[MatchResult], bot_names: Sequence[str]) -> list[dict[str, Any]]:
    """For each pair of bots, over the matches both played in: the mean, per match, of
    the first's seats minus the second's, in win share and in score, with 95% intervals.
    Matches of one deal are averaged into one sample first (``deals``: the samples)."""
    # per pair, per deal: the per-match differences in win share and in score
    diffs: dict[tuple[str, str], dict[Any, list[tuple[float, float]]]] = {}
    names = list(dict.fromkeys(bot_names))
    for r in _in_order(results):
        shares = win_shares(r.scores)
        per_bot = {b: [s for s, name in enumerate(r.bots) if name == b] for b in set(r.bots)}
        deal = ("match", r.index) if r.deal is None else r.deal
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if a not in per_bot or b not in per_bot:
                    continue
                sa, sb = per_bot[a], per_bot[b]
                diffs.setdefault((a, b), {}).setdefault(deal, []).append(
                    (_seat_mean(shares, sa) - _seat_mean(shares, sb),
                     _seat_mean(r.scores, sa) - _seat_mean(r.scores, sb)))
    out = []
    for (a, b), deals in diffs.items():
        groups = list(deals.values())
        w, wlo, whi = mean_interval([sum(d[0] for d in g) / len(g) for g in groups])
        sc, slo, shi = mean_interval([sum(d[1] for d in g) / len(g) for g in groups])
        out.append({"bots": [a, b], "matches": sum(map(len, groups)), "deals": len(groups),
                    "win_share_diff": w, "win_share_diff_ci95": [wlo, whi], "score_diff": sc,
                    "score_diff_ci95": [slo, shi]})
    return out


def _seat_mean(values: Sequence[float], seats: Sequence[int]) -> float:
    return sum(values[s] for s in seats) / len(seats)


def _in_order(results: Iterable[MatchResult]) -> Iterator[MatchResult]:
    return iter(sorted(results, key=lambda r: r.index))
