"""Records: a whole match as one JSON document, and replaying it.

Format (``"format": "pysaboteur-record"``, ``"version": 1``)::

    {
      "format": "pysaboteur-record", "version": 1,
      "game": "duel",                  # a name from pysaboteur.registry.GAMES
      "players": 2,
      "options": {},                   # the game's options, by name
      "seed": 12345,                   # seeds every shuffle and random draw
      "deal": null,                    # or {"goals": [...], "decks": [[...], ...]}: a fixed deal
      "position": {"hands": {"0": [...]}, "moves": [...]},  # optional: a position's spec
      "seats": [{"name": "Ada", "kind": "human"}, {"name": "bot", "kind": "random"}],
      "actions": ["NES@1,1", "pass map", ...],   # every decision in order, in move notation
      "results": [{"round": 1, "gold": [3, 1], ...}, ...],  # written for readers; recomputed
      "final": {"scores": [7, 4], "returns": [1.0, -1.0]}    # on replay and checked
    }

A record may carry a position (``engine.position.Position``: hands, dwarf cards, goals,
the top of the pile, treasures, and moves played from that start) instead of, or beside, a
deal (which must then be the position's); replaying it builds the position first and plays
``actions`` from there, so a tutorial, a puzzle and a test are the same kind of file.

Replaying applies every action through the engine, so a record is also a test:
``saboteur check FILE`` names the first illegal action and why.

Reading a record is strict, because records come from anywhere (a download, a
mail, a hand-edited file): :meth:`Record.from_json` checks every field's type
(an integer is a JSON integer, never a float or a boolean), the seed's range
(``0 <= seed < 2**63``, what the server deals with), the player count against
the game's, the options against the game's declarations, and bounded sizes
(:data:`MAX_BYTES`, :data:`MAX_ACTIONS`, ...).  Anything else is a
:class:`~pysaboteur.engine.errors.RecordError` whose message is one line naming
the field and what it should be.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine.errors import IllegalAction, RecordError, SaboteurError
from .engine.game import Deal, Game, State
from .engine.position import Position
from .registry import GAMES, game_key, make_game

FORMAT = "pysaboteur-record"
VERSION = 1

#: bytes of one record file (the longest real matches take some 10 KB)
MAX_BYTES = 4 * 1024 * 1024
#: actions of one record (a ten-round Lost Mines takes under a thousand)
MAX_ACTIONS = 20_000
#: characters of one action (the server takes at most 200 too)
MAX_ACTION_CHARS = 200
#: the seed: 0 <= seed < MAX_SEED (what the server's tables accept and deal with)
MAX_SEED = 1 << 63
#: rounds in a fixed deal (its decks, its role decks) and cards in one deck
MAX_DEAL_ROUNDS = 100
MAX_DEAL_CARDS = 1000
#: entries of ``results`` and fields of one seat
MAX_RESULTS = 1000
MAX_SEAT_FIELDS = 8
MAX_SEAT_TEXT = 100
#: digits of one JSON integer (a seed below 2**63 has 19)
MAX_DIGITS = 40
#: nesting of the JSON document (a record needs 4 levels; results a few more)
MAX_DEPTH = 32

FIELDS = ("format", "version", "game", "players", "options", "seed", "deal", "position",
          "seats", "actions", "results", "final")


def _shown(value: Any, limit: int = 40) -> str:
    """``value`` for an error message, on one line and safe to print: a text as its
    ``ascii()`` (no line break, lone surrogates escaped), a number as written (a huge one
    by its size), anything else by its kind; cut to about ``limit`` characters."""
    if isinstance(value, str):
        text = ascii(value)
    elif _is_int(value):
        text = str(value) if value.bit_length() <= 128 else f"a {value.bit_length()}-bit number"
    elif isinstance(value, bool | float) or value is None:
        text = json.dumps(value)
    else:
        text = _kind(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(data: dict[str, Any], name: str, lo: int, hi: int) -> int:
    """``data[name]``: a JSON integer with ``lo <= value <= hi``."""
    if name not in data:
        raise RecordError(f"the record has no {name!r}")
    value = data[name]
    what = f"{name!r} is {lo}" if lo == hi else f"{name!r} is a whole number from {lo} to {hi}"
    if not _is_int(value):
        raise RecordError(f"{what}, not {_kind(value)}")
    if not lo <= value <= hi:
        raise RecordError(f"{what}, not {_shown(value)}")
    return int(value)


def _strings(value: Any, what: str, most: int, chars: int) -> list[str]:
    """``value``: a list of at most ``most`` strings of at most ``chars`` characters."""
    if not isinstance(value, list):
        raise RecordError(f"'{what}' is a list of texts, not {_kind(value)}")
    if len(value) > most:
        raise RecordError(f"'{what}' holds {len(value)} entries, at most {most} are read")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(f"'{what}[{i}]' is a text, not {_kind(item)}")
        if len(item) > chars:
            raise RecordError(f"'{what}[{i}]' is {len(item)} characters long, at most {chars}")
    return list(value)


def _kind(value: Any) -> str:
    """What a JSON value is, for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction" if math.isfinite(value) else "an infinite number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _deal(value: Any) -> Deal | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError(f"'deal' is null or an object of goals, decks and roles, "
                          f"not {_kind(value)}")
    extra = [k for k in value if k not in ("goals", "decks", "roles", "treasures")]
    if extra:
        raise RecordError(f"'deal' has an unknown field {_shown(extra[0])}; its fields are "
                          "goals, decks, roles and treasures")
    goals = _strings(value.get("goals", []), "deal.goals", MAX_DEAL_CARDS, MAX_ACTION_CHARS)
    lists: dict[str, list[tuple[str, ...]]] = {}
    for name in ("decks", "roles", "treasures"):
        rounds = value.get(name, [])
        if not isinstance(rounds, list):
            raise RecordError(f"'deal.{name}' is a list (one list of cards per round), "
                              f"not {_kind(rounds)}")
        if len(rounds) > MAX_DEAL_ROUNDS:
            raise RecordError(f"'deal.{name}' holds {len(rounds)} rounds, at most "
                              f"{MAX_DEAL_ROUNDS} are read")
        lists[name] = [tuple(_strings(deck, f"deal.{name}[{i}]", MAX_DEAL_CARDS,
                                      MAX_ACTION_CHARS)) for i, deck in enumerate(rounds)]
    return Deal(tuple(goals), tuple(lists["decks"]), tuple(lists["roles"]),
                tuple(lists["treasures"]))


def _options(value: Any, game: str, players: int) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"'options' is an object of option names and values, "
                          f"not {_kind(value)}")
    entry = GAMES[game]
    try:
        declared = type(make_game(game, players).options)
        checked = declared.check(value, players, entry.title)
    except (SaboteurError, ValueError, TypeError) as exc:
        raise RecordError(f"'options': {exc}") from exc
    return checked


def _seats(value: Any, players: int) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise RecordError(f"'seats' is a list of {players} objects, not {_kind(value)}")
    if value and len(value) != players:
        raise RecordError(f"'seats' lists {len(value)} seats for {players} players")
    for i, seat in enumerate(value):
        if not isinstance(seat, dict):
            raise RecordError(f"'seats[{i}]' is an object (name, kind), not {_kind(seat)}")
        if len(seat) > MAX_SEAT_FIELDS:
            raise RecordError(f"'seats[{i}]' has {len(seat)} fields, at most "
                              f"{MAX_SEAT_FIELDS}")
        for key, text in seat.items():
            if len(key) > MAX_SEAT_TEXT:
                raise RecordError(f"'seats[{i}]' has a field name of {len(key)} characters")
            if text is not None and not isinstance(text, str):
                raise RecordError(f"'seats[{i}].{key[:40]}' is a text or null, "
                                  f"not {_kind(text)}")
            if text is not None and len(text) > MAX_SEAT_TEXT:
                raise RecordError(f"'seats[{i}].{key[:40]}' is {len(text)} characters long, "
                                  f"at most {MAX_SEAT_TEXT}")
    return [dict(s) for s in value]


def _results(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise RecordError(f"'results' is a list of objects (one per round), not {_kind(value)}")
    if len(value) > MAX_RESULTS:
        raise RecordError(f"'results' holds {len(value)} rounds, at most {MAX_RESULTS}")
    for i, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise RecordError(f"'results[{i}]' is an object, not {_kind(entry)}")
    return [dict(r) for r in value]


def _final(value: Any, players: int) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError(f"'final' is null or an object of scores and returns, "
                          f"not {_kind(value)}")
    extra = [k for k in value if k not in ("scores", "returns")]
    if extra:
        raise RecordError(f"'final' has an unknown field {_shown(extra[0])}; its fields are "
                          "scores and returns")
    out: dict[str, Any] = {}
    for name in ("scores", "returns"):
        if name not in value:
            if name == "scores":
                raise RecordError("'final' has no 'scores'")
            continue
        numbers = value[name]
        if not isinstance(numbers, list) or len(numbers) != players:
            given = (f"a list of {len(numbers)}" if isinstance(numbers, list)
                     else _kind(numbers))
            raise RecordError(f"'final.{name}' is a list of {players} numbers (one per seat), "
                              f"not {given}")
        for i, x in enumerate(numbers):
            fine = _is_int(x) if name == "scores" else (
                _is_int(x) or (isinstance(x, float) and math.isfinite(x)))
            if not fine:
                what = "a whole number" if name == "scores" else "a finite number"
                raise RecordError(f"'final.{name}[{i}]' is {what}, not {_kind(x)}")
        out[name] = list(numbers)
    return out


def _depth(value: Any, most: int = MAX_DEPTH) -> None:
    """Refuse JSON nested deeper than ``most`` (without recursing: any depth is safe)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            if level > most:
                raise RecordError(f"the document is nested deeper than {most} levels")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, level + 1) for c in children)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS} "
                          "are read)")
    return int(text)


def _parse_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"the field {_shown(key)} is given twice")
        out[key] = value
    return out


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
    #: a position to start from (its moves played before ``actions``), or None
    position: Position | None = None

    # -- building -------------------------------------------------------------
    @staticmethod
    def of(state: State, seats: list[dict[str, Any]] | None = None) -> Record:
        """The record of everything played on ``state`` so far (from its position, for a
        state built by ``Position.state``: the position's moves are not repeated)."""
        game = state.game
        position: Position | None = getattr(state, "position", None)
        skip = len(position.moves) if position is not None else 0
        return Record(
            game=game_key(game),
            players=game.players,
            seed=getattr(state, "seed", 0),
            options=game.options.to_json(),
            deal=getattr(state, "deal", None) if position is None else None,
            position=position,
            seats=seats or [{"name": f"seat {i}", "kind": "unknown"} for i in range(game.players)],
            actions=[str(a) for a in state.history[skip:]],
            results=[r.to_json() for r in state.results],
            final=({"scores": state.scores(), "returns": state.returns()}
                   if state.is_terminal else None),
        )

    def make_game(self) -> Game:
        return make_game(self.game, self.players, **self.options)

    def new_state(self) -> State:
        """The state the actions start from: the position (its moves played), else the
        deal's or the seed's start."""
        if self.position is None:
            return self.make_game().new_state(self.seed, self.deal)
        if self.deal is not None and self.deal != self.position.deal():
            raise RecordError("the record's deal is not its position's")
        return self.position.state()

    # -- JSON -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
            "options": self.options, "seed": self.seed,
            "deal": self.deal.to_json() if self.deal else None,
            **({"position": self.position.spec_json()} if self.position is not None else {}),
            "seats": self.seats, "actions": self.actions, "results": self.results,
            "final": self.final,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @staticmethod
    def from_json(data: Any) -> Record:
        """A record from parsed JSON, every field checked (see the module's doc): a
        :class:`RecordError` names the first field that is missing, unknown, of the
        wrong type, out of range or too large."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a {FORMAT} document")
        version = data.get("version")
        if not _is_int(version) or version != VERSION:
            raise RecordError(f"unsupported record version {_shown(version)} (this reads "
                              f"version {VERSION})")
        extra = [k for k in data if k not in FIELDS]
        if extra:
            raise RecordError(f"unknown field {_shown(extra[0])}; a record's fields are "
                              f"{', '.join(FIELDS)}")
        _depth(data)
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            given = "none" if "game" not in data else _shown(game)
            raise RecordError(f"'game' is one of {', '.join(GAMES)}, not {given}")
        lo, hi = GAMES[game].players
        players = _integer(data, "players", lo, hi)
        seed = _integer(data, "seed", 0, MAX_SEED - 1)
        actions = _strings(data.get("actions", []), "actions", MAX_ACTIONS, MAX_ACTION_CHARS)
        options = _options(data.get("options", {}), game, players)
        spec = data.get("position")
        return Record(
            game=game, players=players, seed=seed,
            options=options,
            deal=_deal(data.get("deal")),
            position=(None if spec is None
                      else Position.from_spec(spec, game, players, seed, options)),
            seats=_seats(data.get("seats", []), players),
            actions=actions,
            results=_results(data.get("results", [])),
            final=_final(data.get("final"), players),
        )

    @staticmethod
    def loads(text: str | bytes) -> Record:
        """A record from JSON text (or UTF-8 bytes), checked (:meth:`from_json`)."""
        if len(text) > MAX_BYTES:
            raise RecordError(f"a record is at most {MAX_BYTES // (1024 * 1024)} MiB, this is "
                              f"{len(text) / (1024 * 1024):.1f}")
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(f"not UTF-8 text (byte {exc.start})") from exc
        try:
            data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant,
                              object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from exc
        except RecursionError as exc:
            raise RecordError("not a record: the JSON is nested too deeply") from exc
        except ValueError as exc:  # e.g. a number Python will not read
            raise RecordError(f"not JSON: {str(exc)[:100]}") from exc
        return Record.from_json(data)

    @staticmethod
    def load(path: str | Path) -> Record:
        """The record in the file ``path`` (``OSError`` when it cannot be read)."""
        with Path(path).open("rb") as f:
            data = f.read(MAX_BYTES + 1)
        return Record.loads(data)


class ReplayError(RecordError):
    """Action ``index`` (0-based) of a record could not be played."""

    def __init__(self, index: int, action: str, reason: str) -> None:
        super().__init__(f"action {index + 1} ({action!r}): {reason}")
        self.index, self.action, self.reason = index, action, reason


def _as_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def replay(record: Record, upto: int | None = None) -> State:
    """Play the record's actions (the first ``upto`` of them) and return the state.

    Raises :class:`ReplayError` at the first action that does not parse or is
    illegal, and :class:`RecordError` when the stored results disagree.
    """
    try:
        state = record.new_state()
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"cannot set up the game: {exc}") from exc
    game = state.game
    actions = record.actions if upto is None else record.actions[:max(upto, 0)]
    for i, text in enumerate(actions):
        try:
            action = game.parse_action(text)
            state.apply(action)
        except (IllegalAction, SaboteurError, ValueError, KeyError, IndexError,
                TypeError) as exc:
            raise ReplayError(i, text, str(exc)) from exc
    if upto is not None:
        return state
    final = record.final
    if final is not None and not state.is_terminal:
        raise RecordError(f"the record says the match is over, but after its "
                          f"{len(record.actions)} actions it is not (round {state.round_no})")
    if record.results and _as_json([r.to_json() for r in state.results]) != record.results:
        raise RecordError(f"the record's results ({len(record.results)} rounds) are not the "
                          f"replay's ({len(state.results)} rounds)")
    if final is not None:
        if list(final["scores"]) != state.scores():
            raise RecordError(f"the record says the scores were {final['scores']}, "
                              f"the replay gives {state.scores()}")
        if "returns" in final and list(final["returns"]) != _as_json(state.returns()):
            raise RecordError(f"the record says the returns were {final['returns']}, "
                              f"the replay gives {state.returns()}")
    return state
