"""Bots written with a budget a move (``ismcts@100ms``, ``ismcts@2000``) and the engine they
think on (``+pure``): parsed, bounded, and obeyed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from pysaboteur import core
from pysaboteur.bots import BotSpec, IsmctsBot, PureEngine, RandomBot, ismcts, make_bot
from pysaboteur.bots.base import Bot
from pysaboteur.cli.main import app
from pysaboteur.engine.actions import Action
from pysaboteur.registry import make_game


@pytest.mark.parametrize(("text", "spec"), [
    ("ismcts", BotSpec("ismcts")),
    ("hard", BotSpec("ismcts")),
    ("easy+pure", BotSpec("random", pure=True)),
    ("ismcts@100ms", BotSpec("ismcts", seconds=0.1)),
    ("ismcts@0.25s", BotSpec("ismcts", seconds=0.25)),
    ("ismcts@2000", BotSpec("ismcts", iterations=2000)),
    ("hard@50ms+pure", BotSpec("ismcts", seconds=0.05, pure=True)),
])
def test_specs_parse(text: str, spec: BotSpec) -> None:
    assert BotSpec.parse(text) == spec
    assert BotSpec.parse(str(spec)) == spec  # written back as it reads


@pytest.mark.parametrize(("text", "words"), [
    ("nobody", "unknown bot"),
    ("heuristic@1s", "takes no budget"),
    ("ismcts@0ms", "more than 0"),
    ("ismcts@601s", "at most 600"),
    ("ismcts@0", "whole number"),
    ("ismcts@2.5", "whole number"),
    ("ismcts@99999999999", "whole number"),
    ("ismcts@", "bad bot"),
    ("ismcts@1h", "bad bot"),
    ("ismcts+impure", "bad bot"),
])
def test_bad_specs_say_why(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_bot(text)


def test_budgets_reach_the_search_bot() -> None:
    timed = make_bot("ismcts@100ms", 3)
    assert isinstance(timed, IsmctsBot) and timed.seconds == 0.1
    assert timed.budget == ismcts.UNBOUNDED  # the time alone ends its search
    counted = make_bot("ismcts@40", 3)
    assert isinstance(counted, IsmctsBot) and (counted.budget, counted.seconds) == (40, None)
    assert isinstance(make_bot("hard", 3), IsmctsBot) and make_bot("hard").budget is None


def test_a_time_budget_ends_the_search_on_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves 1 ms a reading, a 100 ms budget stops the search just after its
    deadline, far beyond the game's own count of iterations, and a count stops at the count."""
    clock = [0.0]

    def tick() -> float:
        clock[0] += 0.001
        return clock[0]

    monkeypatch.setattr(ismcts.time, "perf_counter", tick)
    state = make_game("duel", 2).new_state(7)
    view, legal = state.view(state.current_player), state.legal_actions()
    timed = make_bot("ismcts@100ms", 1)
    assert isinstance(timed, IsmctsBot)
    timed.choose(view, legal)
    # the clock is read once when the search starts and once every 16 iterations
    assert 16 * 95 <= timed.last_iterations <= 16 * 101
    counted = make_bot("ismcts@30", 1)
    assert isinstance(counted, IsmctsBot)
    counted.choose(view, legal)
    assert counted.last_iterations == 30


class _Witness(Bot):
    """Notes whether the compiled core was on while it chose."""

    def __init__(self) -> None:
        super().__init__(0)
        self.seen: list[bool] = []

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        self.seen.append(core.active())
        return legal[0]


def test_pure_bots_think_on_the_pure_engine_and_switch_it_back() -> None:
    state = make_game("duel", 2).new_state(1)
    witness = _Witness()
    before = core.active()
    PureEngine(witness).choose(state.view(state.current_player), state.legal_actions())
    assert witness.seen == [False]
    assert core.active() == before
    wrapped = make_bot("random+pure", 5)
    assert isinstance(wrapped, PureEngine) and isinstance(wrapped.bot, RandomBot)
    assert wrapped.name == "random+pure"


def test_the_arena_and_play_take_budgets() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "--game", "duel", "--bots", "ismcts@8,random+pure",
                                 "--games", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert "ismcts@8" in result.output and "random+pure" in result.output
    bad = runner.invoke(app, ["arena", "--bots", "ismcts@0ms,random", "--games", "1"])
    assert bad.exit_code != 0 and "more than 0" in bad.output
