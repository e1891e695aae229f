"""Bots: only legal moves, only the view, reproducible arenas."""

from __future__ import annotations

import math

import pytest

from pysaboteur import arena
from pysaboteur.bots import BOTS, DIFFICULTY, IsmctsBot, make_bot
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

SEARCH_GAMES = [("duel", 2), ("solo", 1)]


def _positions(name: str, players: int, count: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """Random live positions of a game."""
    pick = Rng(seed)
    found = 0
    while found < count:
        state = make_game(name, players).new_state(pick.below(10**6))
        for _ in range(pick.below(120)):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[pick.below(len(legal))])
        if not state.is_terminal:
            found += 1
            yield state


def _fast(name: str, seed: int):  # type: ignore[no-untyped-def]
    if name == "ismcts":
        return IsmctsBot(seed, iterations=20, seconds=5)
    return make_bot(name, seed)


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize(("game", "players"), SEARCH_GAMES)
def test_bots_choose_legal_moves(bot: str, game: str, players: int) -> None:
    count = 15 if bot == "ismcts" else 150
    for i, state in enumerate(_positions(game, players, count, seed=len(bot))):
        p = state.current_player
        legal = state.legal_actions()
        assert _fast(bot, i).choose(state.view(p), legal) in legal


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_decide_from_the_view_alone(bot: str) -> None:
    """Dealing every hidden card anew (same view) must not change a bot's choice."""
    for i, state in enumerate(_positions("duel", 2, 12 if bot == "ismcts" else 60, seed=7)):
        p = state.current_player
        other = state.shuffle_hidden(p, Rng(i))
        assert other.view(p) == state.view(p)
        assert other.legal_actions() == state.legal_actions()
        a = _fast(bot, i).choose(state.view(p), state.legal_actions())
        b = _fast(bot, i).choose(other.view(p), other.legal_actions())
        assert a == b


def test_difficulty_levels_name_bots() -> None:
    for level, name in DIFFICULTY.items():
        assert type(make_bot(level)) is BOTS[name]
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


def test_arena_is_reproducible_and_rotates_seats() -> None:
    specs = arena.specs("duel", 2, ["heuristic", "random"], 6, seed=11)
    assert [s.bots for s in specs[:2]] == [("heuristic", "random"), ("random", "heuristic")]
    first = arena.run_local(specs, workers=1)
    again = arena.run_local(specs, workers=2)
    assert [(r.scores, r.bots) for r in first] == [(r.scores, r.bots) for r in again]
    summary = arena.summarize(first, ["heuristic", "random"])
    assert summary == arena.summarize(again, ["heuristic", "random"])
    heuristic = summary["bots"]["heuristic"]
    assert heuristic["matches"] == 6
    assert 0 <= heuristic["win_rate_ci95"][0] <= heuristic["win_rate"] <= 1


def test_wilson_interval() -> None:
    lo, hi = arena.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert arena.wilson(0, 0) == (0.0, 1.0)
    assert arena.win_shares([3, 3, 1]) == [0.5, 0.5, 0.0]


def test_ratings_follow_fractional_returns() -> None:
    """With several seats per bot, a bot's mean return in a match is a fraction; the bot
    that wins more must still rate higher (OpenSkill truncates fractional ranks)."""
    bots = ("a", "b", "a", "b", "a")
    results = [arena.MatchResult(i, bots, [1, 0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0, 0.0])
               for i in range(20)]
    rated = arena.summarize(results, ["a", "b"])["bots"]
    assert rated["a"]["rating_mu"] > rated["b"]["rating_mu"]


def test_written_out_generator_steps_agree_with_next64() -> None:
    """``Rng.below`` and ``Rng.shuffle`` inline ``next64`` for speed: they must draw the
    same numbers as the plain definition."""
    from pysaboteur.engine.rng import Rng

    a, b = Rng(123), Rng(123)
    for n in (1, 2, 7, 52, 1 << 40):
        assert a.below(n) == (b.next64() * n) >> 64
    items = list(range(30))
    a.shuffle(items)
    expected = list(range(30))
    for i in range(len(expected) - 1, 0, -1):
        j = (b.next64() * (i + 1)) >> 64
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected and a.state == b.state


def test_paired_differences_share_each_matchs_luck() -> None:
    """The paired comparison: per match, one bot's seats minus the other's."""
    bots = ("a", "b", "a", "b")
    results = [arena.MatchResult(0, bots, [4, 2, 2, 0], [0.0] * 4),
               arena.MatchResult(1, bots, [1, 1, 3, 1], [0.0] * 4),
               arena.MatchResult(2, ("a", "a", "a", "a"), [5, 0, 0, 0], [0.0] * 4)]
    (pair,) = arena.summarize(results, ["a", "b"])["pairs"]
    assert pair["bots"] == ["a", "b"] and pair["matches"] == 2  # the all-"a" match is no pair
    assert pair["score_diff"] == pytest.approx(((3 - 1) + (2 - 1)) / 2)
    assert pair["win_share_diff"] == pytest.approx(((0.5 - 0) + (0.5 - 0)) / 2)
    lo, hi = pair["score_diff_ci95"]
    assert lo < pair["score_diff"] < hi
    assert arena.mean_interval([1.0]) == (1.0, -math.inf, math.inf)


def test_duplicate_arena_deals_each_deal_to_every_rotation() -> None:
    """``duplicate``: every rotation of the seats plays the same deal, so each bot gets the
    same first-round dwarf cards and hands in every seat; the paired comparison then counts
    a deal, not a match, as one sample."""
    specs = arena.specs("classic", 5, ["heuristic", "random"], 6, seed=40, duplicate=True)
    assert [s.seed for s in specs] == [40, 40, 41, 41, 42, 42]
    assert specs[0].bots != specs[1].bots
    assert [s.seed for s in arena.specs("classic", 5, ["a", "b"], 3, seed=40)] == [40, 41, 42]
    results = arena.run_local(specs[:2], workers=1)
    first, second = (r.rounds[0] for r in results)
    assert first["roles"] == second["roles"] and results[0].deal == results[1].deal == 40
    (pair,) = arena.summarize(results, ["heuristic", "random"])["pairs"]
    assert pair["matches"] == 2 and pair["deals"] == 1
    # two matches of one deal average into one sample: its difference is their mean
    bots = ("a", "b", "a", "b")
    pooled = [arena.MatchResult(0, bots, [4, 2, 2, 0], [0.0] * 4, deal=7),
              arena.MatchResult(1, bots[::-1], [1, 1, 3, 1], [0.0] * 4, deal=7),
              arena.MatchResult(2, bots, [0, 2, 0, 0], [0.0] * 4, deal=8)]
    (pair,) = arena.paired(pooled, ["a", "b"])
    assert pair["deals"] == 2 and pair["matches"] == 3
    assert pair["score_diff"] == pytest.approx((((3 - 1) + (1 - 2)) / 2 + (0 - 1)) / 2)
