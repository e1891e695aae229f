"""The ``saboteur`` command, driven through typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pysaboteur.cli.main import app
from pysaboteur.engine.rng import Rng
from pysaboteur.records import Record
from pysaboteur.registry import make_game

runner = CliRunner()


def _finished_record(tmp_path: Path, seed: int = 4) -> Path:
    state = make_game("duel").new_state(seed)
    pick = Rng(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    path = tmp_path / "game.json"
    Record.of(state).save(path)
    return path


def test_help_lists_the_public_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("play", "replay", "check", "bench"):
        assert command in result.output


def test_check_prints_final_scores(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["ok"] and out["finished"]
    assert out["scores"] == Record.load(path).final["scores"]  # type: ignore[index]


def test_check_names_the_first_illegal_action(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    data = json.loads(path.read_text())
    data["actions"][5] = "NESW@40,40"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out == {"ok": False, "index": 5, "action": "NESW@40,40", "reason": out["reason"]}
    assert out["reason"]


def test_check_rejects_garbage(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1 and "not JSON" in result.output


def test_replay_steps_through_every_action(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    n = len(Record.load(path).actions)
    result = runner.invoke(app, ["replay", str(path), "--seat", "0", "--to", "5"])
    assert result.exit_code == 0, result.output
    assert "5/5" in result.output
    assert n > 5


def test_play_accepts_moves_refuses_bad_ones_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "played.json"
    result = runner.invoke(app, ["play", "duel", "--seed", "3", "--save", str(save)],
                           input="?\nfoo\nNESW@9,9\npass 1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "cannot read 'foo'" in result.output
    record = Record.load(save)
    assert record.game == "duel" and record.seed == 3
    assert record.actions and record.actions[0].startswith("pass ")


def test_play_solo_to_the_end_by_passing(tmp_path: Path) -> None:
    save = tmp_path / "solo.json"
    result = runner.invoke(app, ["play", "solo", "--seed", "1", "--save", str(save)],
                           input="pass 1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "rating:" in result.output
    assert runner.invoke(app, ["check", str(save)]).exit_code == 0


def test_bench_json() -> None:
    result = runner.invoke(app, ["bench", "--game", "duel", "--seconds", "0.2", "--runs", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["decisions_per_s"] > 0 and out["legal_per_decision"] > 1


@pytest.fixture
def seeded_classic(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[int]]:
    """A Saboteur game whose ``new_state`` notes every seed it is asked for."""
    game = make_game("classic", 4)
    fresh = game.new_state
    seeds: list[int] = []

    def new_state(seed: int, deal: Any = None) -> Any:
        seeds.append(seed)
        return fresh(seed, deal)

    monkeypatch.setattr(game, "new_state", new_state)
    return game, seeds


def test_bench_plays_a_new_match_each_time(monkeypatch: pytest.MonkeyPatch,
                                           seeded_classic: tuple[Any, list[int]]) -> None:
    """The rollout measures play many matches, the same ones for both: one match played again
    and again would report that match's speed (as it did before the tenth round)."""
    from pysaboteur.cli import bench

    game, seeds = seeded_classic
    monkeypatch.setattr(bench, "_positions", lambda *args: [make_game("classic", 4).new_state(1)])
    monkeypatch.setattr(bench, "_median", lambda measure, runs: measure())
    monkeypatch.setattr(bench, "_rate", lambda work, seconds: float(work() + work() + work()))
    bench.costs(game, seconds=0.01, runs=1)
    rollout, play_out = seeds[:3], seeds[3:6]  # three matches each, before anything else
    assert len(set(rollout)) == 3 and play_out == rollout


def test_bench_times_lists_and_apply_inside_random_play(
        seeded_classic: tuple[Any, list[int]]) -> None:
    """Legal-move lists and apply are timed where random play meets them, match after match,
    not on a few positions listed over and over (a second listing finds what the first kept)."""
    from pysaboteur.cli import bench

    game, seeds = seeded_classic
    legal, apply = bench._in_play(game, 0.05, 7)
    assert seeds[:3] == [7, 8, 9]
    assert 0 < legal < float("inf") and 0 < apply < float("inf")


# ------------------------------------------------------------------ saboteur play
def _play(*args: str, keys: str) -> str:
    result = runner.invoke(app, ["play", *args], input=keys)
    assert result.exit_code == 0, result.output
    return result.output


def test_play_shows_my_role_and_identity() -> None:
    role = make_game("classic", 4).new_state(3).roles[0]
    out = _play("classic", "--players", "4", "--seed", "3", keys="quit\n")
    assert f"you are seat 0: {'gold-digger' if role == 'digger' else role} (secret)" in out
    state = make_game("lost-mines", 4).new_state(3)
    out = _play("lost-mines", "--players", "4", "--seed", "3", keys="quit\n")
    assert f"you are seat 0: {state.clan(0)} clan, {state.identity(0)} dwarf (secret)" in out
    assert "pawns: 0 you" in out  # the pawns' legend under the board


def test_classic_round_end_shows_roles_and_winner_but_only_my_gold() -> None:
    out = _play("classic", "--players", "4", "--seed", "3", keys="pass 1\n" * 60 + "quit\n")
    assert "round 1 over: the draw pile and every hand ran out" in out
    end = out[out.index("round 1 over"):]
    end = end[:end.index("Enter for the next round")]
    assert "roles: 0 (you) " in end and " win" in end
    assert "you receive 0 gold this round; the others' gold stays secret" in end
    during = out[:out.index("round 3 over")] if "round 3 over" in out else out
    assert "gold this round:" not in during and "gold [" not in out  # nobody else's amounts
    if "final standings" in out:  # the match is over: every amount is public
        assert "gold this round: 0 (you): " in out[out.index("round 3 over"):]


def test_help_is_each_games_own() -> None:
    texts = {}
    for game, players in (("duel", "2"), ("solo", "1"), ("classic", "4"), ("expansion", "5"),
                          ("lost-mines", "4")):
        out = _play(game, "--players", players, "--seed", "1", keys="help\nquit\n")
        texts[game] = out[out.index("Cards by code"):out.index("game left unfinished")]
    assert len(set(texts.values())) == 5
    assert "bribe@" in texts["duel"] and "bribe@" not in texts["classic"]
    assert "steal>" in texts["expansion"] and "steal>" not in texts["classic"]
    assert "move 1,2" in texts["lost-mines"] and "move 1,2" not in texts["expansion"]


def test_quit_says_whether_the_game_is_saved(tmp_path: Path) -> None:
    out = _play("classic", "--seed", "2", keys="help\nquit\n")
    assert "NOT saved" in out and "not saved (start with --save FILE" in out
    assert "record saved" not in out
    save = tmp_path / "kept.json"
    out = _play("classic", "--seed", "2", "--save", str(save), keys="help\nquit\n")
    assert "quit  save the record and leave" in out and save.exists()
    assert "the record is saved to" in out


def test_lost_mines_skipped_move_is_explained() -> None:
    # seed 3, seat 0: a log obstacle north of the yellow start leaves the pawn no step
    out = _play("lost-mines", "--players", "4", "--seed", "3", keys="3@0,3\nquit\n")
    assert "no move this turn: no step is open from your pawn at 0,4" in out


def test_the_terminal_shows_what_the_seat_alone_has_seen() -> None:
    """The status's "you know" line: goals seen with maps, and dwarf cards seen (Saboteur 2's
    inspection, The Lost Mines' information card), each once."""
    from rich.console import Console

    from pysaboteur.cli.render import view_panel
    from pysaboteur.tutorials import Runner, tutorial

    def known(game: str, steps: int) -> str:
        r = Runner(tutorial(game))
        for _ in range(steps):
            assert r.move(r.suggested() or "").ok
        console = Console(width=200, record=True)
        console.print(view_panel(r.state.view(r.seat), r.state.game.catalogue))
        return next(line for line in console.export_text().splitlines()
                    if line.startswith("you know: "))

    inspected = known("expansion", 6)  # a map on (8,0), then an inspection of seat 1
    assert "(8,0) goal-gold" in inspected and "seat 1 green gold-digger" in inspected
    informed = known("lost-mines", 11)  # a look at a mine, then at seat 2's dwarf card
    assert informed.count("(10,2) mine-gold") == 1 and "seat 2 selfish" in informed
