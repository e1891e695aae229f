"""What one server accepts: every limit in one place, each with a safe default.

``saboteur serve`` (and ``python -m pysaboteur.web``) offers each field as an option
(``--max-open-tables 500``, ...; ``saboteur serve --help`` lists them with their
defaults); ``create_app`` takes a :class:`Limits`.  A limit of 0 means "no limit" only
where its field says so.

Every field is declared with :func:`limit`, which keeps its description (the option's
help) in the field's metadata::

    max_open_tables: int = limit(500, "tables open or playing at once ...")

Field types are ``int``, ``float`` or ``bool``: the options are generated from them.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, get_type_hints

#: the types a limit may have (the command-line options are generated from them)
TYPES: dict[str, type] = {"int": int, "float": float, "bool": bool}


def limit(default: Any, help: str) -> Any:
    """A :class:`Limits` field: its default and its description (``--help`` shows it)."""
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class Limits:
    """The server's limits (fields are added by the parts that enforce them)."""

    # -- messages and requests
    max_message: int = limit(4096, "bytes of one WebSocket message from a client")
    max_body: int = limit(16384, "bytes of one HTTP request body")
    hello_timeout: float = limit(10.0, "seconds a new WebSocket has to say hello")

    # -- tables
    tables_per_minute: int = limit(
        30, "tables one client address may create per minute (0: no limit)")
    max_open_tables: int = limit(
        500, "tables open or playing at once on this server; past it creating a table is "
             "refused with 503 (0: no limit)")
    lobby_page: int = limit(
        100, "most tables one lobby request lists (GET /api/tables?limit=)")
    abandon_after: float = limit(
        86400.0, "seconds without an action after which an open or playing table is closed "
                 "as abandoned (0: never)")
    evict_finished_after: float = limit(
        300.0, "seconds a finished (or abandoned) table nobody uses stays in memory; it is "
               "loaded again for a seat's or the host's token, or its record")
    evict_idle_after: float = limit(
        900.0, "seconds an open or playing table with nobody connected and no action stays "
               "in memory (it is loaded again on its next use)")

    # -- connections (WebSockets)
    ws_queue: int = limit(
        32, "messages (besides the newest state and presence, which replace older ones) "
            "that may wait for one connection to read them; past it the connection is closed "
            "(4429)")
    ws_send_timeout: float = limit(
        10.0, "seconds one message may take to reach a connection; a slower reader is "
              "closed (4408)")
    ws_per_seat: int = limit(6, "connections open at once for one seat (0: no limit)")
    ws_per_table: int = limit(
        256, "connections open at once to one table, spectators included (0: no limit)")
    ws_per_client: int = limit(
        32, "connections open at once from one client address (behind a proxy every client "
            "shares its address; 0: no limit)")
    ws_rate: float = limit(
        20.0, "messages a second one connection may send on average (more: an error each)")
    ws_burst: int = limit(60, "messages one connection may send at once, above the rate")
    ws_flood: int = limit(
        100, "messages refused for the rate (forgotten one a second) that close the "
             "connection (4429)")

    # -- hints ("suggest a move", POST /api/tables/{id}/hint)
    hints_per_minute: int = limit(
        20, "hints one seat may have worked out per minute (asking again at the same "
            "position costs nothing; 0: no limit)")
    hint_iterations: int = limit(
        0, "search iterations of one hint (0: the hard bot's own budget per move); a "
           "budget of iterations, never of time, so that a position's hint is the same "
           "on any machine")

    # -- storage
    storage_check_interval: float = limit(
        5.0, "seconds between checks that the database is still there and writable "
             "(GET /readyz answers from the last one)")

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def options(cls) -> list[tuple[str, type, Any, str]]:
        """Each field as a command-line option: (``--option-name``, type, default, help)."""
        hints = get_type_hints(cls)
        out = []
        for f in fields(cls):
            kind = hints.get(f.name, str)
            kind = TYPES.get(kind, kind) if isinstance(kind, str) else kind
            out.append((option_name(f.name), kind, _default(f), str(f.metadata.get("help", ""))))
        return out

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def option_name(name: str) -> str:
    """``max_open_tables`` -> ``--max-open-tables``."""
    return "--" + name.replace("_", "-")


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return None
