"""An arena's match log: a run stopped part way (even killed mid-line) and run again
with the same log plays only the missing matches and reports exactly what one
uninterrupted run reports; a log of another arena is refused, not mixed in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pysaboteur import arena
from pysaboteur.cli.main import app

BOTS = ["heuristic", "random"]


def test_a_resumed_run_is_the_uninterrupted_run(tmp_path: Path) -> None:
    specs = arena.specs("duel", 2, BOTS, 6, seed=3, duplicate=True)
    log = arena.MatchLog(tmp_path / "matches.jsonl")
    assert log.load(specs) == {}
    for spec, result in zip(specs[:4], arena.run_local(specs[:4]), strict=True):
        log.append(spec, result)
    kept = log.load(specs)
    assert sorted(kept) == [0, 1, 2, 3]
    rest = arena.run_local([s for s in specs if s.index not in kept])
    whole = arena.run_local(specs)
    resumed = sorted([*kept.values(), *rest], key=lambda r: r.index)
    assert resumed == whole
    assert arena.summarize(resumed, BOTS) == arena.summarize(whole, BOTS)


def test_a_line_cut_short_is_dropped_and_the_file_mended(tmp_path: Path) -> None:
    specs = arena.specs("duel", 2, BOTS, 2, seed=0)
    path = tmp_path / "matches.jsonl"
    log = arena.MatchLog(path)
    first, second = arena.run_local(specs)
    log.append(specs[0], first)
    log.append(specs[1], second)
    whole = path.read_bytes()
    path.write_bytes(whole[:-40])  # killed while writing the second line
    assert list(log.load(specs)) == [0]
    assert path.read_bytes() == whole[:whole.index(b"\n") + 1]
    log.append(specs[1], second)
    assert path.read_bytes() == whole


def test_a_log_of_another_arena_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    specs = arena.specs("duel", 2, BOTS, 2, seed=0)
    arena.MatchLog(path).append(specs[0], arena.run_local(specs[:1])[0])
    with pytest.raises(ValueError, match="another arena"):
        arena.MatchLog(path).load(arena.specs("duel", 2, BOTS[::-1], 2, seed=0))
    # matches of the log the run does not ask for are left alone
    assert arena.MatchLog(path).load(arena.specs("duel", 2, BOTS, 2, seed=0)[1:]) == {}
    path.write_text("not json\n")
    with pytest.raises(ValueError, match="line 1"):
        arena.MatchLog(path).load(specs)


def test_the_command_resumes_from_its_log(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    args = ["arena", "-g", "duel", "--bots", "heuristic,random", "--duplicate", "--workers",
            "1", "--json", "--log", str(path)]
    runner = CliRunner()
    part = runner.invoke(app, [*args, "-n", "4"])
    assert part.exit_code == 0, part.output
    assert len(path.read_text().splitlines()) == 4
    resumed = runner.invoke(app, [*args, "-n", "8"])
    assert resumed.exit_code == 0, resumed.output
    assert len(path.read_text().splitlines()) == 8
    plain = runner.invoke(app, [*args[:-2], "-n", "8"])
    assert json.loads(resumed.output) == json.loads(plain.output)
    other = runner.invoke(app, ["arena", "-g", "duel", "--bots", "random,heuristic", "-n", "2",
                                "--log", str(path)])
    assert other.exit_code == 2 and "another arena" in other.output
