"""Records: a whole match as one JSON document, and replaying it.

Format (``"format": "pysaboteur-record"``, ``"version": 1``)::

    {
      "format": "pysaboteur-record", "version": 1,
      "game": "duel",                  # a name from pysaboteur.registry.GAMES
      "players": 2,
      "options": {},                   # the game's options, by name
      "seed": 12345,                   # seeds every shuffle and random draw
      "deal": null,                    # or {"goals": [...], "decks": [[...], ...]}: a fixed deal
      "seats": [{"name": "Ada", "kind": "human"}, {"name": "bot", "kind": "random"}],
      "actions": ["NES@1,1", "pass map", ...],   # every decision in order, in move notation
      "results": [{"round": 1, "gold": [3, 1], ...}, ...],  # written for readers; recomputed
      "final": {"scores": [7, 4], "returns": [1.0, -1.0]}    # on replay and checked
    }

Replaying applies every action through the engine, so a record is also a test:
``saboteur check FILE`` names the first illegal action and why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine.errors import IllegalAction, RecordError, SaboteurError
from .engine.game import Deal, Game, State
from .registry import game_key, make_game

FORMAT = "pysaboteur-record"
VERSION = 1


@dataclass
class Record:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    deal: Deal | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None

    # -- building -------------------------------------------------------------
    @staticmethod
    def of(state: State, seats: list[dict[str, Any]] | None = None) -> Record:
        """The record of everything played on ``state`` so far."""
        game = state.game
        return Record(
            game=game_key(game),
            players=game.players,
            seed=getattr(state, "seed", 0),
            options=game.options.to_json(),
            deal=getattr(state, "deal", None),
            seats=seats or [{"name": f"seat {i}", "kind": "unknown"} for i in range(game.players)],
            actions=[str(a) for a in state.history],
            results=[r.to_json() for r in state.results],
            final=({"scores": state.scores(), "returns": state.returns()}
                   if state.is_terminal else None),
        )

    def make_game(self) -> Game:
        return make_game(self.game, self.players, **self.options)

    def new_state(self) -> State:
        return self.make_game().new_state(self.seed, self.deal)

    # -- JSON -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
            "options": self.options, "seed": self.seed,
            "deal": self.deal.to_json() if self.deal else None,
            "seats": self.seats, "actions": self.actions, "results": self.results,
            "final": self.final,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @staticmethod
    def from_json(data: Any) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a {FORMAT} document")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r}")
        try:
            deal = data.get("deal")
            return Record(
                game=str(data["game"]), players=int(data["players"]), seed=int(data["seed"]),
                options=dict(data.get("options") or {}),
                deal=Deal.from_json(deal) if deal else None,
                seats=list(data.get("seats") or []),
                actions=[str(a) for a in data.get("actions") or []],
                results=list(data.get("results") or []),
                final=data.get("final"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed record: {exc}") from exc

    @staticmethod
    def loads(text: str) -> Record:
        try:
            return Record.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from exc

    @staticmethod
    def load(path: str | Path) -> Record:
        return Record.loads(Path(path).read_text(encoding="utf-8"))


class ReplayError(RecordError):
    """Action ``index`` (0-based) of a record could not be played."""

    def __init__(self, index: int, action: str, reason: str) -> None:
        super().__init__(f"action {index + 1} ({action!r}): {reason}")
        self.index, self.action, self.reason = index, action, reason


def replay(record: Record, upto: int | None = None) -> State:
    """Play the record's actions (the first ``upto`` of them) and return the state.

    Raises :class:`ReplayError` at the first action that does not parse or is
    illegal, and :class:`RecordError` when the stored results disagree.
    """
    try:
        state = record.new_state()
    except (ValueError, TypeError) as exc:
        raise RecordError(f"cannot set up the game: {exc}") from exc
    game = state.game
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        try:
            action = game.parse_action(text)
            state.apply(action)
        except (IllegalAction, SaboteurError) as exc:
            raise ReplayError(i, text, str(exc)) from exc
    finished = upto is None and record.final is not None and state.is_terminal
    if finished and list(record.final.get("scores", [])) != state.scores():  # type: ignore[union-attr]
            raise RecordError(f"the record says the scores were {record.final.get('scores')}, "
                              f"the replay gives {state.scores()}")
    return state
