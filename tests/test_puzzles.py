"""Puzzles: every puzzle's solution is proven by the search; answers are checked."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pysaboteur.engine.position import Position
from pysaboteur.puzzles import DIFFICULTIES, KINDS, LANGS, Puzzle, check, get, prove, puzzles, solve
from pysaboteur.puzzles.search import (
    goal_pool,
    reach_lines,
    reply,
    richest_cells,
    role_worlds,
    suspect,
    told_worlds,
    worlds,
)

ALL = puzzles()


def test_at_least_30_puzzles_across_the_games() -> None:
    assert len(ALL) >= 30
    assert len({p.id for p in ALL}) == len(ALL)
    games = Counter(p.game for p in ALL)
    assert len(games) >= 3, games
    assert {p.kind for p in ALL} == set(KINDS)


@pytest.mark.parametrize("puzzle", ALL, ids=[p.id for p in ALL])
def test_the_search_proves_the_solution(puzzle: Puzzle) -> None:
    assert prove(puzzle) == []


@pytest.mark.parametrize("puzzle", ALL, ids=[p.id for p in ALL])
def test_every_solution_is_accepted(puzzle: Puzzle) -> None:
    for solution in puzzle.solutions:
        answer = ([f"{solution[0]},{solution[1]}"] if puzzle.kind == "where"
                  else [str(solution[0])] if puzzle.kind == "saboteur" else solution)
        verdict = check(puzzle, list(answer))
        assert verdict.right, (solution, verdict)


def test_texts_in_every_language() -> None:
    for p in ALL:
        for lang in LANGS:
            assert p.title[lang].strip() and p.goal[lang].strip(), (p.id, lang)
        assert len({p.goal[lang] for lang in LANGS}) == 3, p.id  # translated, not copied


def test_data_round_trips() -> None:
    for p in ALL:
        again = Puzzle.from_json(json.loads(json.dumps(p.to_json())))
        assert again == p
        assert Position.from_json(p.position.to_json()) == p.position


def test_public_never_shows_the_solution_or_hidden_facts() -> None:
    for p in ALL:
        data = p.public()
        assert "solutions" not in data and "position" not in data
        text = json.dumps(data)
        state = p.state()
        assert json.loads(json.dumps(data["view"])) == json.loads(
            json.dumps(state.view(p.seat).to_json()))
        if p.kind == "where":  # the gold's cell is not told
            assert "gold" not in data
        assert set(data) <= {"id", "game", "kind", "moves", "difficulty", "title", "goal",
                             "seat", "view", "gold", "shown", "said"}
        if p.shown is not None:  # the one hand the puzzle shows, and only it
            assert data["shown"] == {"seat": p.shown, "hand": state.hands[p.shown]}
        assert "solution" not in text


def test_wrong_answers_say_why() -> None:
    reach = next(p for p in ALL if p.kind == "reach" and p.game == "classic")
    assert check(reach, ["NESW@40,40"]).reason == "illegal"
    assert "not" in check(reach, ["NESW@40,40"]).detail
    assert check(reach, ["no such move"]).reason in ("unreadable", "illegal")
    hand = reach.state().hands[reach.seat]
    passing = check(reach, [f"pass {hand[0]}"])
    assert not passing.right and passing.reason == "not-reached"
    where = next(p for p in ALL if p.kind == "where")
    wrong = next(c for c in ((8, -2), (8, 0), (8, 2)) if c != tuple(where.solutions[0]))
    assert check(where, [f"{wrong[0]},{wrong[1]}"]).reason == "wrong-cell"
    assert check(where, ["here"]).reason == "unreadable"
    stop = next(p for p in ALL if p.kind == "stop")
    hand = stop.state().hands[stop.seat]
    verdict = check(stop, [f"pass {hand[0]}"])
    assert not verdict.right and verdict.reason == "not-stopped"
    assert f"seat {stop.shown} plays" in verdict.detail


def test_two_move_puzzles_have_no_one_move_answer() -> None:
    for p in ALL:
        if p.kind == "reach" and p.moves == 2:
            assert reach_lines(p.state(), p.seat, 1) == []


def test_where_puzzles_are_deductions() -> None:
    """The gold's goal is still face down and the solver has not looked at it: the answer
    follows from the other goals, in every world that gives the solver its view."""
    for p in (p for p in ALL if p.kind == "where" and p.game not in ("duel", "solo")):
        view = p.state().view(p.seat)
        known = [tuple(k[:2]) for k in view.known_goals]
        assert tuple(p.solutions[0]) not in known, p.id
        assert tuple(p.solutions[0]) in [tuple(c) for c in view.face_down], p.id
        assert worlds(p.position, p.seat), p.id


def test_saboteur_puzzles_follow_from_the_premise() -> None:
    """Exactly one seat made a move the premise forbids gold-diggers; every consistent
    assignment of the dwarf cards makes it the one saboteur, the solver a gold-digger."""
    for p in (p for p in ALL if p.kind == "saboteur" and not p.said):
        state = p.state()
        view = state.view(p.seat)
        assert view.role == "digger", p.id
        guilty = {s for s, text in list(view.log)[view.round_start:] if suspect(state, text)}
        assert guilty == {p.solutions[0][0]}, p.id
        found = role_worlds(state, p.seat)
        assert len(found) >= 1 and all(w[p.solutions[0][0]] == "saboteur" for w in found)
        others = [s for s in range(state.game.players) if s not in (p.seat, *guilty)]
        assert check(p, [str(others[0])]).reason == "wrong-seat"
        assert check(p, ["somebody"]).reason == "unreadable"


def test_the_fixed_reply_discards_one_card() -> None:
    p = next(p for p in ALL if p.kind == "reach" and p.moves == 2)
    state = p.state()
    state.apply(state.game.parse_action(p.solutions[0][0], state.hands[p.seat]))
    before = len(state.history)
    while state.current_player != p.seat:
        reply(state)
    assert all(str(a).startswith("pass ") for a in state.history[before:])


def test_get() -> None:
    assert get(ALL[0].id) is ALL[0]
    with pytest.raises(KeyError):
        get("no-such-puzzle")


def test_cli_lists_checks_and_solves() -> None:
    from typer.testing import CliRunner

    from pysaboteur.cli.main import app

    runner = CliRunner()
    listed = runner.invoke(app, ["puzzle", "--list", "--json"])
    assert listed.exit_code == 0
    assert [p["id"] for p in json.loads(listed.stdout)] == [p.id for p in ALL]
    assert "solutions" not in listed.stdout
    p = next(p for p in ALL if p.kind == "reach")
    right = runner.invoke(app, ["puzzle", p.id, "--answer", " ; ".join(p.solutions[0])])
    assert right.exit_code == 0 and "Right" in right.stdout
    wrong = runner.invoke(app, ["puzzle", p.id, "--answer", "NESW@40,40", "--json"])
    assert wrong.exit_code == 1 and json.loads(wrong.stdout)["reason"] == "illegal"
    shown = runner.invoke(app, ["puzzle", p.id, "--solution"])
    assert shown.exit_code == 0 and " ; ".join(p.solutions[0]) in shown.stdout
    where = next(p for p in ALL if p.kind == "where")
    x, y = where.solutions[0]
    solved = runner.invoke(app, ["puzzle", where.id, "-l", "nl"], input=f"{x},{y}\n")
    assert solved.exit_code == 0 and where.title["nl"] in solved.stdout
    assert "Right" in solved.stdout
    assert runner.invoke(app, ["puzzle", "nope"]).exit_code != 0


def test_api_lists_shows_and_checks(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from pysaboteur.web.server import create_app
    from pysaboteur.web.tables import view_json

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)) as c:
        listed = c.get("/api/puzzles").json()
        assert [p["id"] for p in listed] == [p.id for p in ALL]
        for p in (next(p for p in ALL if p.kind == k) for k in KINDS):
            shown = c.get(f"/api/puzzles/{p.id}")
            assert shown.status_code == 200
            data = shown.json()
            assert data["seat"] == p.seat and data["view"]["seat"] == p.seat
            assert "solutions" not in data and "position" not in data
            view = json.loads(json.dumps(view_json(p.state().view(p.seat))))
            assert data["view"] == view  # the solver's own view, nothing more
            first = p.solutions[0]
            answer = ([f"{first[0]},{first[1]}"] if p.kind == "where"
                      else [str(first[0])] if p.kind == "saboteur" else list(first))
            right = c.post(f"/api/puzzles/{p.id}/answer", json={"answer": answer}).json()
            assert right["right"] is True and right["reason"] == "solved"
        p = next(p for p in ALL if p.kind == "reach")
        wrong = c.post(f"/api/puzzles/{p.id}/answer", json={"answer": ["NESW@40,40"]}).json()
        assert wrong["right"] is False and wrong["reason"] == "illegal" and wrong["detail"]
        assert c.get("/api/puzzles/nope").status_code == 404
        assert c.post("/api/puzzles/nope/answer", json={"answer": []}).status_code == 404
        assert c.post(f"/api/puzzles/{p.id}/answer", json={"answer": "x"}).status_code == 422


# -- the gaps of issue 23: solo, the Duel's "where", hard deductions, difficulty -----------
def test_the_collection_covers_solo_duel_where_and_hard_deductions() -> None:
    assert sum(p.game == "solo" for p in ALL) >= 4
    assert sum(p.game == "duel" and p.kind == "where" for p in ALL) >= 3
    hard = [p for p in ALL if p.kind in ("where", "saboteur") and p.difficulty == "hard"]
    assert len(hard) >= 6 and len({p.game for p in hard}) >= 2
    assert {p.difficulty for p in ALL} == set(DIFFICULTIES)
    assert any(p.difficulty == "easy" and p.kind in ("where", "saboteur") for p in ALL)


def test_difficulty_is_listed_and_shown() -> None:
    for p in ALL:
        assert p.difficulty in DIFFICULTIES, p.id
        assert p.summary()["difficulty"] == p.difficulty == p.public()["difficulty"]


def test_solo_puzzles_are_one_seat_one_turn() -> None:
    for p in (p for p in ALL if p.game == "solo"):
        state = p.state()
        assert state.game.players == 1 and p.kind == "reach" and p.moves == 1, p.id
        # every solution is one turn: it ends with the main option (and what follows it)
        for line in p.solutions:
            after = state.clone()
            for text in line:
                after.apply(after.game.parse_action(text, after.hands[0]))
            assert len(after.view(0).face_down) < len(state.view(0).face_down), (p.id, line)


def test_told_puzzles_need_what_was_said() -> None:
    """A hard deduction: the solver's view and the move premise alone leave the answer
    open; with what the seats said (a saboteur may lie) one answer is left, and the
    position's own dwarf cards are one of the worlds (the puzzle tells no false story)."""
    told = [p for p in ALL if p.said]
    assert len(told) >= 6
    for p in told:
        bare = Puzzle(**{**p.__dict__, "said": ()})
        assert len(solve(bare)) > 1, p.id
        assert any("the search finds" in problem for problem in prove(bare)), p.id
        state = p.state()
        real = tuple(state.view(s).role for s in range(state.game.players))
        assert real in [roles for _, roles in told_worlds(p.position, p.seat, p.said)], p.id
        for seat, (x, y), word in p.said:  # the goal text tells every claim
            assert f"seat {seat}: ({x}, {y}) is {word}" in p.goal["en"], p.id
        view = state.view(p.seat)  # and what the terminal's view does not show
        for seat, text in list(view.log)[view.round_start:]:
            assert f"seat {seat} {text}" in p.goal["en"], (p.id, text)
        for seat, _ in getattr(view, "inspected", ()):
            assert f"You inspected seat {seat}: " in p.goal["en"], p.id


def test_a_told_puzzle_with_two_answers_fails() -> None:
    p = next(p for p in ALL if p.said and p.kind == "where")
    loose = Puzzle(**{**p.__dict__, "said": p.said[:-1] if len(p.said) > 1 else ()})
    if len(solve(loose)) > 1:
        assert prove(loose) != []
    wrong = Puzzle(**{**p.__dict__, "said": ((p.said[0][0], p.said[0][1], "bogus"),)})
    assert prove(wrong) != []


def test_duel_where_counts_the_goal_cards() -> None:
    """The Duel's "where is the most gold?": the answer is face down; the goal cards that may
    lie under a goal not looked at are the 18 less those seen this match; the answer is not
    found without counting those seen in earlier rounds (hard) or this round (medium)."""
    for p in (p for p in ALL if p.game == "duel" and p.kind == "where"):
        state = p.state()
        view = state.view(p.seat)
        assert tuple(p.solutions[0]) in [tuple(c) for c in view.face_down], p.id
        pool = goal_pool(state, p.seat)
        assert not set(pool) & set(view.goals_seen), p.id
        assert richest_cells(state, p.seat) == [tuple(p.solutions[0])], p.id
        assert p.difficulty == ("hard" if view.round > 1 else "medium"), p.id
        # what this round alone shows (the goals face up on the board) does not decide it
        on_board = {c.card for c in view.board if c.card in view.goals_seen}
        forgetful = type(view)(**{**view.__dict__, "goals_seen": tuple(on_board)})
        assert _richest_of(state, forgetful) != [tuple(p.solutions[0])], p.id
        wrong = next(c for c in view.face_down if tuple(c) != tuple(p.solutions[0]))
        assert check(p, [f"{wrong[0]},{wrong[1]}"]).reason == "wrong-cell"
        other = Puzzle(**{**p.__dict__, "solutions": ((wrong[0], wrong[1]),)})
        assert prove(other) != [], p.id  # a stored answer the search does not find fails


def _richest_of(state: object, view: object) -> list[tuple[int, int]]:
    class Seen:  # the state as richest_cells reads it, with another view
        game = state.game  # type: ignore[attr-defined]

        def view(self, seat: int) -> object:
            return view
    return richest_cells(Seen(), 0)  # type: ignore[arg-type]
