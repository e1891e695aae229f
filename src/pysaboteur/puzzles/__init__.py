"""Puzzles: positions with a question whose answer an engine search proves.

Each puzzle is data (``data/<game>.json``): an id, the game, the kind of question, the
solver's seat, the title and goal in English, German and Dutch, the position
(:class:`pysaboteur.engine.position.Position`) and its solutions.  The kinds:

``reach``  reach the gold (Saboteur, Saboteur 2) or turn a goal face up (the Duel) in
           ``moves`` turns of your own, the other seats discarding a card in between;
           ``solutions`` lists every line that does (the search proves there is no other
           and none shorter).
``stop``   the next seat shows you its hand and could reach the gold now: which move stops
           it?  ``solutions`` lists every move after which it cannot.
``where``  where is the gold?  Every order of the goal cards that gives you the view you
           have puts it on the same cell: ``solutions`` is that cell.
``saboteur`` which seat is the saboteur?  The gold-diggers at this table never play a broken
           tool, a rockfall or a dead end: every assignment of the dwarf cards in which none
           of them did, as the public log shows, makes the same seat the saboteur.

:func:`check` checks an answer and says why it is right or wrong; :func:`prove` runs the
search and compares it with the stored solutions (the test suite runs it on every puzzle).
See ``docs/puzzles.md``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..engine.errors import SaboteurError
from ..engine.game import State
from ..engine.position import Position
from .search import (
    Claim,
    Line,
    goal_pool,
    gold_cells,
    looked_this_round,
    reach_lines,
    reached,
    reply,
    richest_cells,
    richest_witnesses,
    role_worlds,
    saboteur_seats,
    stop_moves,
    told_gold_cells,
    told_saboteur_seats,
    told_worlds,
    turns,
)

KINDS = ("reach", "stop", "where", "saboteur")
LANGS = ("en", "de", "nl")
GAME_ORDER = ("duel", "solo", "classic", "expansion", "lost-mines")
#: how much reasoning a puzzle needs: one fact or one move; a few combined; many combined
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Puzzle:
    id: str
    game: str
    kind: str
    seat: int
    title: dict[str, str]
    goal: dict[str, str]
    position: Position
    #: reach, stop: lines of move notation; where: one ``[x, y]``
    solutions: tuple[tuple[Any, ...], ...]
    moves: int = 1
    #: reach, stop: the cell of the gold, told to the solver
    gold: tuple[int, int] | None = None
    #: stop: the seat whose hand is shown
    shown: int | None = None
    #: ``easy``, ``medium`` or ``hard`` (:data:`DIFFICULTIES`)
    difficulty: str = "easy"
    #: where, saboteur: what the seats said at the table about the goal each looked at
    #: with a map, ``(seat, (x, y), "gold" | "stone")``; a saboteur may lie, no one else does
    said: tuple[Claim, ...] = ()

    @staticmethod
    def from_json(data: dict[str, Any]) -> Puzzle:
        gold = data.get("gold")
        return Puzzle(
            id=data["id"], game=data["game"], kind=data["kind"], seat=int(data["seat"]),
            title=dict(data["title"]), goal=dict(data["goal"]),
            position=Position.from_json(data["position"]),
            solutions=tuple(tuple(s) for s in data["solutions"]),
            moves=int(data.get("moves", 1)),
            gold=(int(gold[0]), int(gold[1])) if gold else None,
            shown=data.get("shown"), difficulty=str(data.get("difficulty", "easy")),
            said=tuple((int(seat), (int(xy[0]), int(xy[1])), str(word))
                       for seat, xy, word in data.get("said", ())))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "game": self.game, "kind": self.kind, "seat": self.seat,
            "moves": self.moves, "difficulty": self.difficulty, "title": self.title,
            "goal": self.goal,
            "position": self.position.to_json(), "solutions": [list(s) for s in self.solutions]}
        if self.gold is not None:
            data["gold"] = list(self.gold)
        if self.shown is not None:
            data["shown"] = self.shown
        if self.said:
            data["said"] = [[seat, list(xy), word] for seat, xy, word in self.said]
        return data

    def summary(self) -> dict[str, Any]:
        """What a list of puzzles shows: never the position or the solution."""
        return {"id": self.id, "game": self.game, "kind": self.kind, "moves": self.moves,
                "difficulty": self.difficulty, "title": self.title, "goal": self.goal}

    def state(self) -> State:
        return self.position.state()

    def public(self) -> dict[str, Any]:
        """What the solver may see: the summary, the solver's view, the facts the puzzle
        tells (the gold's cell, the shown hand); never the solution or other hidden facts."""
        state = self.state()
        data = {**self.summary(), "seat": self.seat,
                "view": state.view(self.seat).to_json()}
        if self.gold is not None:
            data["gold"] = list(self.gold)
        if self.shown is not None:
            data["shown"] = {"seat": self.shown, "hand": list(state.hands[self.shown])}
        if self.said:
            data["said"] = [{"seat": seat, "cell": list(xy), "says": word}
                            for seat, xy, word in self.said]
        return data


def _data_files() -> list[Any]:
    folder = resources.files(__package__).joinpath("data")
    return sorted((f for f in folder.iterdir() if f.name.endswith(".json")),
                  key=lambda f: f.name)


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """Every puzzle, by game (the Duel, Saboteur, Saboteur 2, The Lost Mines) then file order."""
    out: list[Puzzle] = []
    for f in _data_files():
        out += [Puzzle.from_json(d) for d in json.loads(f.read_text(encoding="utf-8"))]
    order = {g: i for i, g in enumerate(GAME_ORDER)}
    return tuple(sorted(out, key=lambda p: (order.get(p.game, 99), KINDS.index(p.kind),
                                            p.moves, int(p.id.rsplit("-", 1)[-1]))))


def get(puzzle_id: str) -> Puzzle:
    for p in puzzles():
        if p.id == puzzle_id:
            return p
    raise KeyError(puzzle_id)


# -- the search ----------------------------------------------------------------
def solve(puzzle: Puzzle) -> list[tuple[Any, ...]]:
    """The search's answer: every solution of the puzzle."""
    state = puzzle.state()
    if puzzle.kind == "reach":
        return [tuple(line) for line in reach_lines(state, puzzle.seat, puzzle.moves)]
    if puzzle.kind == "stop":
        return [tuple(line) for line in stop_moves(state, puzzle.seat)]
    if puzzle.kind == "where" and puzzle.game in ("duel", "solo"):
        return [tuple(xy) for xy in richest_cells(state, puzzle.seat)]
    if puzzle.kind == "where" and puzzle.said:
        return [tuple(xy) for xy in told_gold_cells(puzzle.position, puzzle.seat, puzzle.said)]
    if puzzle.kind == "where":
        return [tuple(xy) for xy in gold_cells(puzzle.position, puzzle.seat)]
    if puzzle.kind == "saboteur" and puzzle.said:
        return [(seat,) for seat in told_saboteur_seats(puzzle.position, puzzle.seat,
                                                         puzzle.said)]
    if puzzle.kind == "saboteur":
        return [(seat,) for seat in saboteur_seats(state, puzzle.seat)]
    raise ValueError(f"unknown puzzle kind {puzzle.kind!r}")


def prove(puzzle: Puzzle) -> list[str]:
    """What is wrong with the puzzle, empty when the search proves its solutions: they
    are exactly what the search finds (and, for ``reach``, none is shorter; for
    ``where``, the cell is the only one)."""
    problems = []
    state = puzzle.state()
    if state.current_player != puzzle.seat:
        problems.append(f"seat {puzzle.seat} is not to play")
    found = solve(puzzle)
    if not found:
        problems.append("the search finds no solution")
    if sorted(found) != sorted(puzzle.solutions):
        problems.append(f"the search finds {found}, the puzzle says {list(puzzle.solutions)}")
    if puzzle.kind == "reach" and puzzle.moves > 1 and reach_lines(state, puzzle.seat,
                                                                   puzzle.moves - 1):
        problems.append("the gold can be reached in fewer moves than the puzzle says")
    if puzzle.kind == "stop" and puzzle.shown is not None:
        passing = [after for line, after, _ in turns(state, puzzle.seat)
                   if line[0].startswith("pass")]
        if not passing or not any(reached(passing[0], a, puzzle.shown)
                                  for _, a, _ in turns(passing[0], puzzle.shown)):
            problems.append("the shown seat cannot reach the gold anyway")
    if puzzle.kind == "saboteur":
        worlds_now = ([roles for _, roles in told_worlds(puzzle.position, puzzle.seat,
                                                         puzzle.said)]
                      if puzzle.said else role_worlds(state, puzzle.seat))
        if any(sum(r == "saboteur" for r in w) != 1 for w in worlds_now):
            problems.append("a world has no saboteur or more than one")
    for seat, xy, word in puzzle.said:
        if word not in ("gold", "stone") or seat == puzzle.seat \
                or not looked_this_round(state, puzzle.seat, seat, xy):
            problems.append(f"seat {seat} did not look at {xy} this round, or said {word!r}")
    if puzzle.kind == "where" and puzzle.game in ("duel", "solo"):
        problems += _richest_problems(puzzle, state, found)
    if puzzle.difficulty not in DIFFICULTIES:
        problems.append(f"difficulty {puzzle.difficulty!r} is not one of {DIFFICULTIES}")
    for lang in LANGS:
        if not puzzle.title.get(lang) or not puzzle.goal.get(lang):
            problems.append(f"no title or goal in {lang}")
    return problems


def _richest_problems(puzzle: Puzzle, state: State, found: list[tuple[Any, ...]]
                      ) -> list[str]:
    """The Duel's "where": the answer is face down, the goal cards that may lie under the
    goals not looked at (:func:`goal_pool`) never hold more gold, and for every other
    face-down goal not looked at the engine confirms a world (same moves, same view) where
    it holds less gold than the answer."""
    if len(found) != 1:
        return []
    view = state.view(puzzle.seat)
    known = {(x, y) for x, y, _ in view.known_goals}
    need = {tuple(c) for c in view.face_down} - known - {tuple(found[0])}
    if tuple(found[0]) in known:
        shown = richest_witnesses(puzzle.position, puzzle.seat)
        missing = sorted(need - set(shown))
        if missing:
            return [f"no world confirms a poorer goal at {missing}"]
    elif not goal_pool(state, puzzle.seat):
        return ["no goal card is left for the goal not looked at"]
    return []


# -- answers -------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    right: bool
    #: ``solved``, ``illegal``, ``not-reached``, ``not-stopped``, ``wrong-cell``, ``wrong-seat``,
    #: ``unreadable``, ``too-long``, ``too-short``
    reason: str
    #: the engine's reason, a move, a cell...
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"right": self.right, "reason": self.reason, "detail": self.detail}

    def text(self) -> str:
        words = {
            "solved": "Right: ", "illegal": "That move is not allowed: ",
            "not-reached": "Legal, but it does not reach the gold",
            "not-stopped": "Not enough: then ", "wrong-cell": "No: the gold can still lie "
            "elsewhere, or not there at all", "unreadable": "Cannot read the answer: ",
            "too-long": "Too many moves for this puzzle",
            "wrong-seat": "No: that seat may be a gold-digger", "too-short": "More moves needed",
            "other": "Legal, but not the answer"}
        return words.get(self.reason, self.reason) + self.detail


def check(puzzle: Puzzle, answer: Sequence[str]) -> Verdict:
    """Is ``answer`` (reach, stop: the solver's actions in move notation; where: one cell,
    ``"x,y"``) right, and why (or why not)?"""
    if puzzle.kind == "saboteur":
        text = " ".join(answer).strip().removeprefix("seat").strip()
        if not text.isdigit() or len(text) > 3:
            return Verdict(False, "unreadable", text[:40])
        if (int(text),) in puzzle.solutions:
            return Verdict(True, "solved", f"seat {int(text)}")
        return Verdict(False, "wrong-seat", "")
    if puzzle.kind == "where":
        text = " ".join(answer).replace("(", "").replace(")", "").replace(" ", "")
        try:
            x, y = (int(v) for v in text.split(","))
        except ValueError:
            return Verdict(False, "unreadable", text[:40])
        if [x, y] in [list(s) for s in puzzle.solutions]:
            return Verdict(True, "solved", f"{x},{y}")
        return Verdict(False, "wrong-cell", "")
    state = puzzle.state()
    me = puzzle.seat
    line: list[str] = []
    for text in answer:
        text = text.strip()
        if not text:
            continue
        if state.results or state.is_terminal:
            return Verdict(False, "too-long", "")
        while state.current_player != me:
            reply(state)
        try:
            action = state.game.parse_action(text, state.hands[me])
        except (SaboteurError, ValueError, KeyError, IndexError) as exc:
            return Verdict(False, "unreadable", str(exc)[:200])
        try:
            state.apply(action)
        except SaboteurError as exc:
            return Verdict(False, "illegal", str(exc)[:200])
        line.append(str(action))
    key = tuple(line)
    if key in puzzle.solutions:
        return Verdict(True, "solved", " ".join(line))
    if puzzle.kind == "stop":
        nxt = state.current_player
        for reply_line, after, _ in turns(state, nxt):
            if reached(state, after, nxt):
                return Verdict(False, "not-stopped",
                               f"seat {nxt} plays {' '.join(reply_line)} and reaches the gold")
        return Verdict(False, "other", "")
    if any(s[:len(key)] == key for s in puzzle.solutions):
        return Verdict(False, "too-short", "")
    return Verdict(False, "not-reached", "")


__all__ = ["DIFFICULTIES", "KINDS", "Line", "Puzzle", "Verdict", "check", "get", "prove",
           "puzzles", "solve"]
