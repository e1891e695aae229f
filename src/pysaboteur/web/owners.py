"""Which server process owns which table, when several share one PostgreSQL database.

``saboteur serve --cluster`` (PostgreSQL only; docs/deploy.md): a table is owned by the
process that holds its session-level advisory lock (``pg_try_advisory_lock`` on one
connection of its own, the *lock connection*); only the owner keeps the table in memory,
applies its actions and moves its bots.  The lock goes with the connection: a process that
dies (``kill -9``, a crash, a machine gone: the server's TCP keepalives, set here to about
11 s, notice) frees every table it held at once, and the next request for one of them
takes it over and replays its stored record.

A process asked for a table that another one holds asks it to let go: ``NOTIFY
pysaboteur_release, '<table id> <asker>'`` on the same database.  Every process LISTENs
(on a second connection, in a thread); the owner lets go at once (no action half done: it
waits for the table's lock, stores nothing more, closes the table's sockets so that they
reconnect, unlocks) and the asker takes the lock.  The proxy routes every request of a
table to one process (nginx ``hash ... consistent`` on the table id), so a hand-over
happens only when the route changes: a new table created elsewhere, an owner that died, a
process that came back.

What can never happen twice is guarded by the database, not by the locks alone: action
``idx`` of a table is a primary key, so of two processes that both believed they owned a
table (a lock connection lost unseen) one commit wins and the other's fails (``Conflict``):
that process forgets the table, and nothing it did not store was acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

log = logging.getLogger("pysaboteur.web")

#: the channel on which a process asks the owner of a table to let it go
CHANNEL = "pysaboteur_release"
#: TCP keepalives of both connections: the database notices a dead peer in about 11 s
KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 5,
                              "keepalives_interval": 2, "keepalives_count": 3}


def lock_key(table_id: str) -> int:
    """The advisory lock's key of a table: 64 bits of a hash of its id (signed)."""
    digest = hashlib.sha256(b"pysaboteur-table:" + table_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _signed(key: int) -> int:
    """A 64-bit key as PostgreSQL's bigint (pg_locks shows its two halves unsigned)."""
    return key - (1 << 64) if key >= 1 << 63 else key


def conninfo(database_url: str) -> str:
    """A libpq connection string from a SQLAlchemy PostgreSQL URL."""
    from sqlalchemy import make_url

    u = make_url(database_url)
    if u.get_backend_name() != "postgresql":
        raise ValueError("several server processes (--cluster) need a PostgreSQL database "
                         f"(postgresql+psycopg://...), not {u.get_backend_name()}")
    return str(u.set(drivername="postgresql").render_as_string(hide_password=False))


def process_name() -> str:
    """This process as the database sees it (``application_name`` of its connections)."""
    return f"pysaboteur-{socket.gethostname()[:30]}-{os.getpid()}"


class Owners:
    """This process's side of table ownership: its lock connection and its listener.

    Every call that touches the lock connection runs in one thread (``pool``), one at a
    time; :attr:`held` is the set of table ids whose lock this process holds.  ``on_ask``
    is called on the event loop with a table id that another process asks for."""

    def __init__(self, database_url: str, on_ask: Callable[[str], None]) -> None:
        self.info = conninfo(database_url)
        self.name = process_name()
        self.on_ask = on_ask
        self.held: set[str] = set()
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="owners")
        self.problem: str | None = None
        self._conn: Any = None
        self._loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._listener = threading.Thread(target=self._listen, name="owners-listen",
                                          daemon=True)

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.info, autocommit=True, application_name=self.name,
                               connect_timeout=5, **KEEPALIVES)
        # the server's side too: a process whose machine vanished frees its tables
        conn.execute("SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; "
                     "SET tcp_keepalives_count = 3")
        return conn

    async def start(self) -> None:
        """Open the lock connection and start listening (raises when the database refuses)."""
        self._conn = await self._run(self._connect)
        self._listener.start()
        await self._loop.run_in_executor(None, self._listening.wait, 10)

    async def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(Exception):
            await self._run(self._close_conn)
        self.held.clear()
        self.pool.shutdown(wait=False)

    def _close_conn(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._loop.run_in_executor(self.pool, fn, *args)

    # -- locks ---------------------------------------------------------------------------
    def _try(self, table_id: str) -> bool:
        if table_id in self.held:
            return True
        row = self._conn.execute("SELECT pg_try_advisory_lock(%s)",
                                 (lock_key(table_id),)).fetchone()
        if row and row[0]:
            self.held.add(table_id)
            return True
        return False

    def _unlock(self, table_id: str) -> None:
        if table_id in self.held:
            self.held.discard(table_id)
            self._conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))

    def _ask(self, table_id: str) -> None:
        self._conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {self.name}"))

    async def _on_lock_connection(self, fn: Callable[..., Any], *args: Any,
                                  quiet: bool = False) -> Any:
        """``fn(*args)`` on the lock connection's thread; a failure is noted (``_failed``)
        and raised again unless ``quiet``."""
        try:
            return await self._run(fn, *args)
        except Exception as exc:
            self._failed(exc)
            if not quiet:
                raise
            return None

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lock if nobody holds it (True: this process owns the table)."""
        return bool(await self._on_lock_connection(self._try, table_id))

    async def release(self, table_id: str) -> None:
        """Let the table's lock go (after the table was put away)."""
        await self._on_lock_connection(self._unlock, table_id, quiet=True)

    def _locked(self) -> set[int]:
        rows = self._conn.execute(
            "SELECT classid::bigint, objid::bigint FROM pg_locks WHERE locktype = 'advisory' "
            "AND granted AND objsubid = 1 AND database = (SELECT oid FROM pg_database "
            "WHERE datname = current_database())").fetchall()
        return {_signed((hi << 32) | lo) for hi, lo in rows}

    async def locked(self) -> set[int]:
        """The keys of every table lock some process of this database holds now."""
        return set(await self._on_lock_connection(self._locked))

    async def ask(self, table_id: str) -> None:
        """Ask whichever process holds the table to let it go."""
        await self._on_lock_connection(self._ask, table_id)

    def _failed(self, exc: BaseException) -> None:
        self.problem = f"the ownership connection failed: {str(exc).strip()[:200]}"
        log.error("%s", self.problem)

    async def check(self) -> bool:
        """Probe the lock connection; False when it was lost (every lock with it: the
        caller must put away every table it held), after which a new one is opened."""
        def probe() -> bool:
            try:
                self._conn.execute("SELECT 1")
                return True
            except Exception as exc:
                self._failed(exc)
                self._close_conn()
                self.held.clear()
                self._conn = self._connect()  # raises while the database is away
                self.problem = None
                return False
        try:
            return bool(await self._run(probe))
        except Exception as exc:
            self._failed(exc)
            return False

    # -- asks from other processes ------------------------------------------------------
    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            table_id, _, asker = note.payload.partition(" ")
                            if asker != self.name:
                                self._loop.call_soon_threadsafe(self.on_ask, table_id)
            except Exception as exc:  # the database went away: listen again soon
                if self._stop.is_set():
                    return
                log.warning("ownership listener: %s", str(exc).strip()[:200])
                self._listening.set()
                self._stop.wait(1.0)
