"""Persistence: every table is stored as its record (game, options, seed, seats, actions).

SQLite (a file in the user's data directory) by default, any SQLAlchemy URL
otherwise (``postgresql+psycopg://user:pw@host/db``).  An action is appended in
its own transaction before the server acknowledges it, so a restart that
replays the stored records loses nothing that anybody was told happened.

Storage never lies: every failure to read or write raises :class:`StorageError` (with a
one-line reason) and is never acknowledged.  A SQLite file is watched: before and after
each write the file at the URL's path must still be the one opened (a file deleted or
replaced while the server runs would otherwise take every later write with it, unseen),
and :meth:`Database.check` probes that the database still takes writes, a new table's and
action's included (``GET /readyz`` answers from it).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

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
    delete,
    event,
    func,
    insert,
    inspect,
    make_url,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

T = TypeVar("T")

#: the statuses of a table still being played (or waiting to be): "live"
LIVE = ("open", "playing")

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
    Column("status", String(16), nullable=False),  # open, playing, finished, abandoned
    Column("public", Boolean, nullable=False, default=True),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_next", String(32), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    # whether its seats may ask for hints; NULL (a table stored before the column): allowed
    Column("hints", Boolean, nullable=True),
)

actions_t = Table(
    "actions", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", String(200), nullable=False),
    Column("at", Float, nullable=False),
)


#: one row that Database.check() writes: a probe that the store takes writes (a write that
#: changes nothing would not show a full disk)
health_t = Table(
    "health", metadata,
    Column("id", Integer, primary_key=True),
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


class StorageError(Exception):
    """The database failed a read or a write (``str()``: a one-line reason)."""


class Conflict(StorageError):
    """A write refused by a constraint (another writer stored the same action first)."""


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (``sqlite:///x``, ``sqlite:///file:x?mode=ro&uri=true``);
    None for an in-memory database or another engine."""
    try:
        u = make_url(url)
    except ArgumentError:
        return None
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    name = u.database
    if name.startswith("file:"):
        name = name[5:].split("?", 1)[0]
        if not name or name == ":memory:" or u.query.get("mode") == "memory":
            return None
    return Path(name).absolute()


@dataclass
class LiveRow:
    """What the server keeps of a table it has not loaded (its lobby and limits need it)."""

    id: str
    status: str
    public: bool
    created: float
    updated: float


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
    updated: float = 0.0
    hints: bool = True
    actions: list[tuple[int, str]] = field(default_factory=list)  # (seat, text)


class Database:
    """A thin, synchronous store; every write is one short transaction.

    ``problem`` is None while the store works, else why it does not (the last failure);
    it clears on the next write or :meth:`check` that succeeds (except for a SQLite file
    deleted or replaced under the server: that stays until a restart)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.path = sqlite_path(self.url)
        self.problem: str | None = None
        self._gone: str | None = None  # the SQLite file is not the one opened any more
        self._identity: tuple[int, int] | None = None
        if self.path is not None and not self.path.parent.is_dir():
            raise StorageError(f"the database directory {self.path.parent} does not exist")
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except (SQLAlchemyError, ImportError, ValueError) as exc:
            raise StorageError(f"cannot use the database {self.safe_url}: {_reason(exc)}") from exc
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            metadata.create_all(self.engine)
            _add_missing_columns(self.engine)
        except (SQLAlchemyError, OSError) as exc:
            self.engine.dispose()
            raise StorageError(f"cannot open the database {self.safe_url}: "
                               f"{_reason(exc)}") from exc
        if self.path is not None:
            self._identity = self._file_identity()

    @property
    def safe_url(self) -> str:
        """The URL without its password."""
        try:
            u = make_url(self.url)
            return self.url if u.password is None else u.render_as_string(hide_password=True)
        except ArgumentError:
            return "(an invalid URL)"

    def close(self) -> None:
        self.engine.dispose()

    # -- health -----------------------------------------------------------------------
    def _file_identity(self) -> tuple[int, int] | None:
        assert self.path is not None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _check_file(self) -> None:
        """Refuse to go on when the SQLite file opened is no longer at its path."""
        if self._gone is not None:
            raise StorageError(self._gone)
        if self.path is None or self._identity is None:
            return
        now = self._file_identity()
        if now != self._identity:
            what = "deleted" if now is None else "replaced"
            self._gone = self.problem = (f"the database file {self.path} was {what} while the "
                                         f"server ran; restart it on a database file")
            raise StorageError(self._gone)

    def _write(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in one transaction; any failure raises :class:`StorageError` (and sets
        ``problem``), and nothing that raised was committed to the file the server uses."""
        self._check_file()
        try:
            with self.engine.begin() as conn:
                out = fn(conn)
        except IntegrityError as exc:
            raise Conflict(f"the database refused the write: {_reason(exc)}") from exc
        except (SQLAlchemyError, OSError) as exc:
            self.problem = f"the database refused a write: {_reason(exc)}"
            raise StorageError(self.problem) from exc
        self._check_file()  # deleted during the commit: the commit went nowhere lasting
        self.problem = None
        return out

    def _read(self, fn: Callable[[Connection], T]) -> T:
        self._check_file()
        try:
            with self.engine.connect() as conn:
                return fn(conn)
        except (SQLAlchemyError, OSError) as exc:
            self.problem = f"the database refused a read: {_reason(exc)}"
            raise StorageError(self.problem) from exc

    def check(self) -> str | None:
        """Probe the store (the file is still the one opened; a write goes through): None
        when it works, else the reason (also kept in ``problem``).

        The probe also writes a table and an action as real writes do and deletes them in
        the same transaction: on a full disk the one row of ``health``, updated in place,
        may still fit where a new table or action does not (PostgreSQL: their relations
        must grow; SQLite: their pages need room in the log)."""
        def probe(conn: Connection) -> None:
            now = time.time()
            if not conn.execute(update(health_t).where(health_t.c.id == 1)
                                .values(at=now)).rowcount:
                conn.execute(insert(health_t).values(id=1, at=now))
            tid = f"probe-{os.urandom(12).hex()}"
            conn.execute(insert(tables_t).values(
                id=tid, game="probe", players=2, options="{}", seed=0,
                seats=json.dumps([{"kind": "human", "token_hash": "0" * 64}] * 2),
                host_hash="0" * 64, status="probe", public=False, created=now, updated=now,
                hints=False))
            conn.execute(insert(actions_t).values(table_id=tid, idx=0, seat=0, text="x" * 200,
                                                  at=now))
            conn.execute(delete(actions_t).where(actions_t.c.table_id == tid))
            conn.execute(delete(tables_t).where(tables_t.c.id == tid))
        try:
            self._write(probe)
        except Conflict:  # another process wrote the row first: writes go through
            self.problem = None
        except StorageError as exc:
            self.problem = str(exc)
        return self.problem

    # -- writes ---------------------------------------------------------------------
    def create_table(self, t: StoredTable) -> None:
        now = time.time()
        self._write(lambda conn: conn.execute(insert(tables_t).values(
            id=t.id, game=t.game, players=t.players, options=json.dumps(t.options),
            seed=t.seed, seats=json.dumps(t.seats), host_hash=t.host_hash, status=t.status,
            public=t.public, rematch_of=t.rematch_of, rematch_next=t.rematch_next,
            created=t.created or now, updated=now, hints=t.hints)))

    def update_table(self, table_id: str, **values: Any) -> None:
        if "seats" in values:
            values["seats"] = json.dumps(values["seats"])
        self._write(lambda conn: conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                                              .values(updated=time.time(), **values)))

    def abandon(self, table_id: str, before: float) -> bool:
        """Close a live table with no write since ``before`` as abandoned; False when it was
        not live or moved on meanwhile."""
        def go(conn: Connection) -> bool:
            res = conn.execute(update(tables_t).where(
                tables_t.c.id == table_id, tables_t.c.status.in_(LIVE),
                tables_t.c.updated <= before).values(status="abandoned", updated=time.time()))
            return bool(res.rowcount)
        return self._write(go)

    def append_action(self, table_id: str, idx: int, seat: int, text: str,
                      status: str | None = None) -> None:
        """Store action ``idx`` (and, when the game just ended, the new status) atomically.

        The primary key (table, idx) makes a second writer of the same index fail.
        """
        now = time.time()
        values: dict[str, Any] = {"updated": now}
        if status is not None:
            values["status"] = status

        def go(conn: Connection) -> None:
            conn.execute(insert(actions_t).values(table_id=table_id, idx=idx, seat=seat,
                                                  text=text, at=now))
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
        self._write(go)

    # -- reads ----------------------------------------------------------------------
    def load(self, table_id: str, actions: bool = True) -> StoredTable | None:
        """The stored table (``actions=False``: without its actions, a cheap look)."""
        def go(conn: Connection) -> tuple[Any, list[Any]] | None:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            if not actions:
                return row, []
            acts = conn.execute(select(actions_t.c.idx, actions_t.c.seat, actions_t.c.text)
                                .where(actions_t.c.table_id == table_id)
                                .order_by(actions_t.c.idx)).all()
            return row, list(acts)
        found = self._read(go)
        if found is None:
            return None
        row, acts = found
        t = _stored(row._mapping)
        for i, (idx, seat, text) in enumerate(acts):
            if idx != i:
                raise RuntimeError(f"table {table_id}: action {i} missing from the store")
            t.actions.append((seat, text))
        return t

    def ids(self, statuses: tuple[str, ...] = LIVE) -> list[str]:
        rows = self._read(lambda conn: conn.execute(
            select(tables_t.c.id).where(tables_t.c.status.in_(statuses))
            .order_by(tables_t.c.created)).all())
        return [r[0] for r in rows]

    def live(self) -> list[LiveRow]:
        """Every open or playing table, without its actions (what a restart reads)."""
        rows = self._read(lambda conn: conn.execute(
            select(tables_t.c.id, tables_t.c.status, tables_t.c.public, tables_t.c.created,
                   tables_t.c.updated).where(tables_t.c.status.in_(LIVE))
            .order_by(tables_t.c.created)).all())
        return [LiveRow(r[0], r[1], bool(r[2]), float(r[3]), float(r[4])) for r in rows]

    def lobby(self, offset: int, limit: int) -> tuple[int, list[str]]:
        """The lobby from the store: how many public tables have not started, and the ids
        of ``limit`` of them from ``offset`` on, newest first."""
        where = (tables_t.c.status == "open", tables_t.c.public.is_(True))

        def go(conn: Connection) -> tuple[int, list[str]]:
            total = conn.execute(select(func.count()).select_from(tables_t)
                                 .where(*where)).scalar_one()
            rows = conn.execute(select(tables_t.c.id).where(*where)
                                .order_by(tables_t.c.created.desc())
                                .offset(offset).limit(limit)).all()
            return int(total), [r[0] for r in rows]
        return self._read(go)

    def iter_all(self) -> Iterator[StoredTable]:
        for table_id in self.ids(("open", "playing", "finished", "abandoned")):
            t = self.load(table_id)
            if t is not None:
                yield t


def _stored(m: Any) -> StoredTable:
    return StoredTable(id=m["id"], game=m["game"], players=m["players"],
                       options=json.loads(m["options"]), seed=int(m["seed"]),
                       seats=json.loads(m["seats"]), host_hash=m["host_hash"], status=m["status"],
                       public=bool(m["public"]), rematch_of=m["rematch_of"],
                       rematch_next=m["rematch_next"], created=m["created"],
                       updated=m["updated"], hints=m.get("hints") is not False)


def _add_missing_columns(engine: Engine) -> None:
    """Add the columns of ``tables_t`` that a database made by an older version lacks
    (each nullable: its stored tables keep loading, a NULL meaning the old behaviour)."""
    have = {c["name"] for c in inspect(engine).get_columns(tables_t.name)}
    missing = [c for c in tables_t.columns if c.name not in have]
    if not missing:
        return
    with engine.begin() as conn:
        for column in missing:
            kind = column.type.compile(dialect=engine.dialect)
            conn.execute(sql_text(
                f'ALTER TABLE "{tables_t.name}" ADD COLUMN "{column.name}" {kind}'))


def _reason(exc: BaseException) -> str:
    """An exception as one short line (a driver's first line, without SQLAlchemy's
    statement and background link)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL + NORMAL: a commit survives the process being killed at any moment
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
