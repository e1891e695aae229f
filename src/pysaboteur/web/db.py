"""Persistence: every table is stored as its record (game, options, seed, seats, actions).

SQLite (a file in the user's data directory) by default, any SQLAlchemy URL
otherwise (``postgresql+psycopg://user:pw@host/db``).  An action is appended in
its own transaction before the server acknowledges it, so a restart that
replays the stored records loses nothing that anybody was told happened.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),  # JSON: [{name, kind, difficulty, token_hash}]
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, finished
    Column("public", Boolean, nullable=False, default=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_next", String(32), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

actions_t = Table(
    "actions", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", String(200), nullable=False),
    Column("at", Float, nullable=False),
)


def default_url() -> str:
    """A SQLite file in the user's data directory."""
    try:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("pysaboteur", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is in the web extra
        folder = Path.home() / ".local" / "share" / "pysaboteur"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"


@dataclass
class StoredTable:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    host_hash: str
    status: str
    public: bool = True
    rematch_of: str | None = None
    rematch_next: str | None = None
    created: float = 0.0
    actions: list[tuple[int, str]] = field(default_factory=list)  # (seat, text)


class Database:
    """A thin, synchronous store; every write is one short transaction."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writes ---------------------------------------------------------------------
    def create_table(self, t: StoredTable) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(
                id=t.id, game=t.game, players=t.players, options=json.dumps(t.options),
                seed=t.seed, seats=json.dumps(t.seats), host_hash=t.host_hash, status=t.status,
                public=t.public, rematch_of=t.rematch_of, rematch_next=t.rematch_next,
                created=t.created or now, updated=now))

    def update_table(self, table_id: str, **values: Any) -> None:
        if "seats" in values:
            values["seats"] = json.dumps(values["seats"])
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                         .values(updated=time.time(), **values))

    def append_action(self, table_id: str, idx: int, seat: int, text: str,
                      status: str | None = None) -> None:
        """Store action ``idx`` (and, when the game just ended, the new status) atomically.

        The primary key (table, idx) makes a second writer of the same index fail.
        """
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(actions_t).values(table_id=table_id, idx=idx, seat=seat,
                                                  text=text, at=now))
            values: dict[str, Any] = {"updated": now}
            if status is not None:
                values["status"] = status
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    # -- reads ----------------------------------------------------------------------
    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            acts = conn.execute(select(actions_t.c.idx, actions_t.c.seat, actions_t.c.text)
                                .where(actions_t.c.table_id == table_id)
                                .order_by(actions_t.c.idx)).all()
        t = _stored(row._mapping)
        for i, (idx, seat, text) in enumerate(acts):
            if idx != i:
                raise RuntimeError(f"table {table_id}: action {i} missing from the store")
            t.actions.append((seat, text))
        return t

    def ids(self, statuses: tuple[str, ...] = ("open", "playing")) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id).where(tables_t.c.status.in_(statuses))
                                .order_by(tables_t.c.created)).all()
        return [r[0] for r in rows]

    def iter_all(self) -> Iterator[StoredTable]:
        for table_id in self.ids(("open", "playing", "finished")):
            t = self.load(table_id)
            if t is not None:
                yield t


def _stored(m: Any) -> StoredTable:
    return StoredTable(id=m["id"], game=m["game"], players=m["players"],
                       options=json.loads(m["options"]), seed=int(m["seed"]),
                       seats=json.loads(m["seats"]), host_hash=m["host_hash"], status=m["status"],
                       public=bool(m["public"]), rematch_of=m["rematch_of"],
                       rematch_next=m["rematch_next"], created=m["created"])


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL + NORMAL: a commit survives the process being killed at any moment
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
