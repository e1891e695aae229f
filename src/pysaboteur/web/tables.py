"""Live tables: the server's only authority over the games it hosts.

A :class:`Hub` holds the live state of every table in memory, validates every
action through the engine, stores it (``db``) before acknowledging it, sends
each connected seat its own view (and its legal actions on its turn) after
every change, and moves the bots as asyncio tasks whose thinking runs in a
thread pool.  Nothing here knows a rule or a game: games come from the
registry, views leave through ``view.to_json()`` / ``dataclasses.asdict``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any

from ..bots import BOTS, Bot, make_bot
from ..engine.actions import Action
from ..engine.errors import (
    BadOptions,
    GameOver,
    IllegalAction,
    NotationError,
    NotYourTurn,
    SaboteurError,
)
from ..engine.game import State
from ..engine.views import View, plain
from ..records import Record
from ..registry import GAMES, make_game
from .db import LIVE, Conflict, Database, LiveRow, StorageError, StoredTable
from .limits import Limits
from .owners import Owners, lock_key

log = logging.getLogger("pysaboteur.web")

#: difficulty -> bot names, best first; the first one that exists is used
DIFFICULTIES: dict[str, tuple[str, ...]] = {
    "easy": ("random",),
    "normal": ("heuristic", "random"),
    "hard": ("ismcts", "heuristic", "random"),
}
MAX_NAME = 40
#: a bot whose move the store refused waits this long, doubling with each refusal in a
#: row, up to BOT_BACKOFF_MAX seconds (a database that is down is not asked in a loop)
BOT_BACKOFF = 0.1
BOT_BACKOFF_MAX = 30.0
#: read-only copies of tables other processes own that one process keeps (several
#: processes: the lobby and "my tables" read them)
PEEKS = 256
#: a table being played (a write in the last ORPHAN_RECENT s) whose lock nobody has held for
#: ORPHAN_AFTER s is taken over by the first process to see it (its owner died)
ORPHAN_RECENT = 120.0
ORPHAN_AFTER = 2.0


def bot_for(difficulty: str) -> str:
    """The bot that plays at ``difficulty`` (falls back to random when a bot is missing)."""
    for name in DIFFICULTIES.get(difficulty, ()):
        if name in BOTS:
            return name
    return "random"


def seat_name(given: Any) -> str | None:
    """A seat's name as given (trimmed, at most ``MAX_NAME`` characters), or None."""
    name = str(given).strip()[:MAX_NAME] if given else ""
    return name or None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Rejected(Exception):
    """An action or request refused; ``status`` is the HTTP code, ``code`` a stable word."""

    def __init__(self, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None,
                 reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers  # of the HTTP answer (Retry-After)
        #: an illegal move's reason as data: {"code", "params"} (IllegalAction.to_json)
        self.reason = reason

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def view_json(view: Any) -> dict[str, Any]:
    """A view as JSON-ready data: ``plain()`` for the engine's views, else ``to_json()``
    when the view has it, else its fields."""
    if isinstance(view, View):
        return view.plain()
    if hasattr(view, "to_json"):
        data = view.to_json()
    elif is_dataclass(view) and not isinstance(view, type):
        data = asdict(view)
    else:
        data = dict(view)
    return plain(data)  # type: ignore[no-any-return]


def action_json(action: Action) -> dict[str, Any]:
    """An action for the client: its notation, its kind and its fields."""
    return {"text": str(action), "kind": type(action).__name__,
            **{k: plain(v) for k, v in action._asdict().items()}}


@dataclass
class Seat:
    #: the name its player (or the table's creator) gave; None: none was given (clients
    #: show a default in their language; tables stored before kept "player 1", "bot 1")
    name: str | None
    kind: str  # "human", "open" (anyone from the lobby may take it) or "bot"
    difficulty: str | None = None
    token_hash: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def claimed(self) -> bool:
        return self.kind != "open"

    def to_store(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "difficulty": self.difficulty,
                "token_hash": self.token_hash}


def safe_text(text: str) -> str:
    """``text`` as it can be encoded: a lone surrogate becomes the six characters of its
    escape (``\\ud800``), so that nothing the server echoes fails to encode."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def lone_surrogate(data: Any) -> bool:
    """Whether any string of JSON-like ``data`` (keys included) cannot be encoded as UTF-8
    (a lone surrogate such as ``"\\ud800"``, which JSON's escapes can carry)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def encode(message: dict[str, Any]) -> str:
    """A message as JSON text that always encodes (lone surrogates escaped)."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # \ud800-style escapes: still valid JSON, plain ASCII
        text = json.dumps(message, separators=(",", ":"))
    return text


class Outgoing:
    """One message on its way to connections; its JSON text is built once, for every
    connection it goes to (``changed()`` after the message was patched)."""

    __slots__ = ("_text", "message")

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = encode(self.message)
        return self._text

    def changed(self) -> None:
        self._text = None


class Dropped(Exception):
    """The connection was closed by the server (too slow, flooding, a failed send)."""


class Connection:
    """One WebSocket (or test client) subscribed to a table as a seat or a spectator.

    Its outgoing queue is bounded: a message pushed with a ``key`` ("state", "presence",
    "rate") replaces the one of the same key still waiting (a slow reader gets the newest
    state, not every state); other messages (ack, error, pong, rematch) count against
    ``limits.ws_queue``.  A reader further behind, a send that takes over
    ``limits.ws_send_timeout`` or any failure to send drops the connection: an error
    message and a close code (4429 too far behind or flooding, 4408 too slow, 1011 a
    failed send) when they can still be sent, and ``on_drop`` (the hub unsubscribes it).
    """

    #: keys whose message replaces the waiting one of the same key
    KEYS = ("state", "presence", "rate")

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 close: Callable[[int, str], Awaitable[None]] | None = None, *,
                 client: str = "", limits: Limits | None = None) -> None:
        self.seat = seat
        self.client = client
        self.limits = limits or Limits()
        self._send = send
        self._close = close
        self.queue: deque[tuple[str | None, Outgoing]] = deque()
        self.pending = 0  # messages of the queue without a key
        self.high_water = 0  # the longest the queue has been
        self.task: asyncio.Task[None] | None = None
        self.dead: tuple[int, str, str] | None = None  # (close code, error code, message)
        self.on_drop: Callable[[Connection], None] | None = None
        self.closing = False
        self._wake = asyncio.Event()
        self.dropped: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # the token bucket of messages received (see allow()) and the flood count
        self._tokens = float(self.limits.ws_burst)
        self._strikes = 0.0
        self._stamp = time.monotonic()

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, message: dict[str, Any] | Outgoing, key: str | None = None) -> None:
        """Queue ``message`` (``key``: replacing the waiting message of that key)."""
        if self.dead is not None or self.closing:
            return
        out = message if isinstance(message, Outgoing) else Outgoing(message)
        if key is not None:
            for i, (k, _) in enumerate(self.queue):
                if k == key:
                    del self.queue[i]
                    break
        elif self.pending >= self.limits.ws_queue:
            self.drop(4429, "too-slow", f"more than {self.limits.ws_queue} messages waited for "
                                        "this connection to read them: closed")
            return
        else:
            self.pending += 1
        self.queue.append((key, out))
        self.high_water = max(self.high_water, len(self.queue))
        self._wake.set()

    def allow(self) -> bool:
        """Whether one more message received keeps within the rate (a token bucket of
        ``ws_burst`` messages refilled at ``ws_rate`` a second); a refused one counts
        towards ``ws_flood`` (decaying one a second), past which :attr:`flooding`."""
        now = time.monotonic()
        elapsed, self._stamp = now - self._stamp, now
        refill = self._tokens + elapsed * self.limits.ws_rate
        self._tokens = min(float(self.limits.ws_burst), refill)
        self._strikes = max(0.0, self._strikes - elapsed)
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self._strikes += 1.0
        return False

    @property
    def flooding(self) -> bool:
        return self._strikes > self.limits.ws_flood

    def drop(self, code: int, error: str, message: str) -> None:
        """Close this connection from the server's side (once): stop sending, say why
        when that can still be said, and leave the table (``on_drop``)."""
        if self.dead is not None:
            return
        self.dead = (code, error, message)
        self.queue.clear()
        self.pending = 0
        if not self.dropped.done():
            self.dropped.set_result(None)
        if self.on_drop is not None:
            self.on_drop(self)
        if self.task is None:
            return
        if self.task is not asyncio.current_task() and not self.task.done():
            self.task.cancel()  # wherever the pump waits (a send that does not finish)
        self._wake.set()

    async def _pump(self) -> None:
        try:
            await self._run()
        except asyncio.CancelledError:
            if self.dead is None:
                raise  # the server stops
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        except Exception as exc:  # pragma: no cover - _run catches what it expects
            log.exception("a connection's sender failed")
            self.drop(1011, "send-failed", f"sending failed: {type(exc).__name__}")
        if self.dead is not None:
            await self._farewell()

    async def _run(self) -> None:
        while self.dead is None:
            if not self.queue:
                if self.closing:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            key, out = self.queue.popleft()
            if key is None:
                self.pending -= 1
            try:
                text = out.text
            except (TypeError, ValueError) as exc:  # pragma: no cover - our own message
                log.error("a message could not be encoded: %s", exc)
                continue
            try:
                await asyncio.wait_for(self._send(text), self.limits.ws_send_timeout)
            except TimeoutError:
                self.drop(4408, "too-slow", f"a message took over {self.limits.ws_send_timeout:g}"
                                            " s to send: closed")
            except Exception as exc:  # the socket is gone, or could not take it
                self.drop(1011, "send-failed", f"sending failed: {type(exc).__name__}")

    async def _farewell(self) -> None:
        """The error message and the close code of a dropped connection, if the socket
        takes them within a second or two (else the transport goes with the handler)."""
        if self._close is None or self.dead is None:
            return
        code, error, message = self.dead
        with contextlib.suppress(Exception):
            async with asyncio.timeout(min(2.0, self.limits.ws_send_timeout)):
                if code != 1011:
                    await self._send(encode({"type": "error", "code": error, "message": message}))
                await self._close(code, error)

    async def close(self) -> None:
        """Send what is queued (for a second or two at most), then stop."""
        self.closing = True
        self._wake.set()
        if self.task is not None and not self.task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self.task), 2)
            except (TimeoutError, asyncio.CancelledError, Exception):
                self.task.cancel()


@dataclass
class Views:
    """The state message of each seat (None: spectators) at one index of one table, all
    sharing one ``table`` info (patched in place when presence changes)."""

    index: int
    info: dict[str, Any]
    by_seat: dict[int | None, Outgoing] = field(default_factory=dict)


@dataclass
class LiveTable:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    host_hash: str
    status: str
    state: State
    public: bool = True
    rematch_of: str | None = None
    rematch_next: str | None = None
    #: whether its seats may ask for hints ("suggest a move"; every seat sees it)
    hints: bool = True
    created: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    #: open connections per seat (who is connected: presence, without counting sockets)
    present: dict[int, int] = field(default_factory=dict)
    #: the state messages built at the current index (Hub.state_out), until the next change
    views: Views | None = None
    actors: list[int] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    #: False once this process let the table go (several processes: owners.py): nothing
    #: more is applied or stored through this copy
    owned: bool = True
    #: the bot moves the store refused in a row (the bots back off)
    bot_failures: int = 0
    #: the time of the table's last write (an abandoned table: none for Limits.abandon_after)
    updated: float = field(default_factory=time.time)
    #: when the table was last used (time.monotonic(); its eviction from memory counts
    #: from there)
    touched: float = field(default_factory=time.monotonic)

    @property
    def index(self) -> int:
        return len(self.state.history)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.host_hash, token_hash(token or ""))

    def record(self) -> dict[str, Any]:
        """The match record (``pysaboteur.records``: what ``saboteur check`` and ``saboteur
        replay`` read), seed and every action included: for finished matches only, the
        caller's to check."""
        seats = [{"name": s.name or f"seat {i}",
                  "kind": bot_for(s.difficulty or "easy") if s.is_bot else "human",
                  **({"difficulty": s.difficulty} if s.is_bot else {})}
                 for i, s in enumerate(self.seats)]
        return Record.of(self.state, seats).to_json()

    def glance(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees of this table at a glance (its "my tables" entry): nothing
        that its view or the public table info does not show."""
        entry = GAMES.get(self.game)
        view = self.state.view(seat)
        playing = self.status == "playing" and not self.state.is_terminal
        current = self.state.current_player if playing else None
        return {
            "id": self.id, "game": self.game, "title": entry.title if entry else self.game,
            "status": self.status, "seat": seat, "players": self.players,
            "round": getattr(view, "round", self.state.round_no),
            "rounds": getattr(view, "rounds", None),
            "your_turn": current == seat, "turn_of": current,
            "seats": [s.name for s in self.seats], "kinds": [s.kind for s in self.seats],
            "rematch_next": self.rematch_next, "created": self.created,
        }

    def info(self) -> dict[str, Any]:
        """Public facts about the table (never a token, never the seed, never the private
        rematch table: :meth:`Hub.message_for` adds ``rematch_next`` for seats only)."""
        connected = {seat for seat, n in self.present.items() if n}
        entry = GAMES.get(self.game)
        return {
            "id": self.id, "game": self.game, "title": entry.title if entry else self.game,
            "players": self.players, "options": self.options, "status": self.status,
            "public": self.public, "hints": self.hints, "index": self.index,
            "rematch_of": self.rematch_of,
            "current_player": self.state.current_player,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind, "difficulty": s.difficulty,
                       "bot": bot_for(s.difficulty or "easy") if s.is_bot else None,
                       "claimed": s.claimed, "connected": s.is_bot or i in connected}
                      for i, s in enumerate(self.seats)],
            "free_seats": sum(1 for s in self.seats if s.kind == "open"),
        }


def unstartable(seats: Sequence[Seat]) -> str | None:
    """Why a table with these seats cannot start, or None.  A table starts once a person
    holds a seat (a human seat, or an open one taken), or when it has no open seat at all
    (bots only: a match to watch); never with open seats waiting and nobody seated."""
    if any(s.kind == "open" for s in seats) and not any(s.kind == "human" for s in seats):
        return ("nobody holds a seat yet: a table starts once a person has taken one of its "
                "open seats (or with human or bot seats only)")
    return None


class Hub:
    """Every live table of one server process."""

    def __init__(self, db: Database, bot_delay: float = 0.6, allow_seed: bool = False,
                 bot_threads: int = 2, limits: Limits | None = None,
                 cluster: bool = False, takeover_timeout: float = 5.0) -> None:
        self.db = db
        #: several processes share the database (owners.py): set by :meth:`join_cluster`
        self.cluster = cluster
        self.owners: Owners | None = None
        self.takeover_timeout = takeover_timeout
        #: read-only copies of tables other processes own (the lobby, "my tables"):
        #: table id -> (its last write, the copy), the newest PEEKS of them
        self._peeks: dict[str, tuple[float, LiveTable]] = {}
        self._taking: set[str] = set()  # tables being taken over right now
        self._tasks: set[asyncio.Task[Any]] = set()  # hand-overs under way
        self._orphans: dict[str, float] = {}  # tables without an owner, since when
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self.bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="bot")
        self.db_pool = ThreadPoolExecutor(1, thread_name_prefix="db")
        self._load_lock = asyncio.Lock()
        self.closing = False
        self.limits = limits or Limits()
        #: open connections per client address (``ws_per_client``)
        self.clients: dict[str, int] = {}
        #: every open or playing table, loaded or not (the lobby and the limits count them)
        self.live: dict[str, LiveRow] = {}
        #: tables evicted from ``tables`` that something still holds: found again there
        #: (never loaded twice)
        self._held: weakref.WeakValueDictionary[str, LiveTable] = weakref.WeakValueDictionary()
        #: when each client address created its tables of the last minute
        self._created: dict[str, deque[float]] = {}
        self._creating = 0  # creations admitted, not yet stored
        self._housekeeper: asyncio.Task[None] | None = None
        self.storage_checked = 0.0  # time.time() of the last storage check

    # -- life cycle -----------------------------------------------------------------
    async def resume(self) -> int:
        """Read which tables are open or playing (without loading any: each is loaded on
        its first use, and its bots go on from there); returns how many."""
        rows = await self._db(self.db.live)
        self.live = {r.id: r for r in rows}
        return len(rows)

    def housekeeping(self) -> None:
        """Start the task that checks the storage, closes abandoned tables and evicts idle
        ones from memory (``Limits``: storage_check_interval, abandon_after, evict_*)."""
        if self._housekeeper is None:
            self._housekeeper = asyncio.create_task(self._housekeep())

    async def close(self) -> None:
        self.closing = True
        if self._housekeeper is not None:
            self._housekeeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._housekeeper
        for table in list(self.tables.values()):
            if table.bot_task is not None:
                table.bot_task.cancel()
            await asyncio.gather(*(conn.close() for conn in list(table.connections)))
        if self.owners is not None:  # every table's lock goes with the connection
            await self.owners.close()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)

    async def _db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a database call in the database thread; a failure of the store is a
        :class:`Rejected` 503 ``unavailable`` (nothing was stored, nothing is acknowledged)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kwargs))
        except Conflict as exc:
            raise Rejected(409, "conflict", "another change was stored first; "
                                            "reload and try again") from exc
        except StorageError as exc:
            log.error("storage: %s", exc)
            raise Rejected(503, "unavailable", "the server cannot store anything now: nothing "
                                               "was changed; try again later",
                           headers={"Retry-After": "10"}) from exc

    # -- storage health -----------------------------------------------------------------
    @property
    def storage_problem(self) -> str | None:
        """None while the store works, else why it does not (as last seen)."""
        return self.db.problem

    async def check_storage(self) -> str | None:
        """Probe the store now (in the database thread): None, or what is wrong."""
        before = self.db.problem
        loop = asyncio.get_running_loop()
        problem: str | None = await loop.run_in_executor(self.db_pool, self.db.check)
        self.storage_checked = time.time()
        if problem != before:
            if problem is None:
                log.warning("storage works again")
            else:
                log.error("storage: %s", problem)
        return problem

    # -- housekeeping --------------------------------------------------------------------
    def _tick(self) -> float:
        L = self.limits
        times = [t for t in (L.abandon_after, L.evict_finished_after, L.evict_idle_after,
                             L.storage_check_interval) if t > 0]
        return min(5.0, max(0.02, min(times, default=20.0) / 4))

    async def _housekeep(self) -> None:
        next_check = 0.0
        while not self.closing:
            try:
                now = time.monotonic()
                if self.limits.storage_check_interval > 0 and now >= next_check:
                    next_check = now + self.limits.storage_check_interval
                    await self.check_storage()
                if self.owners is not None:
                    await self._cluster_round()
                await self.abandon_idle()
                self.evict()
                self._prune_rates()
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - housekeeping must go on
                log.exception("housekeeping failed")
            await asyncio.sleep(self._tick())

    def _loaded(self, table_id: str) -> LiveTable | None:
        return self.tables.get(table_id) or self._held.get(table_id)

    async def abandon_idle(self) -> int:
        """Close every open or playing table without a write for ``abandon_after``
        seconds: its status becomes ``abandoned`` (stored first), its bots stop, its
        connections are told (a state message); returns how many were closed."""
        after = self.limits.abandon_after
        if after <= 0:
            return 0
        cutoff = time.time() - after
        n = 0
        try:
            for row in [r for r in self.live.values() if r.updated <= cutoff]:
                n += await self._abandon(row, cutoff)
        except Rejected as exc:  # the store is down: the next round tries again
            log.debug("abandoning tables: %s", exc.message)
        return n

    async def _abandon(self, row: LiveRow, cutoff: float) -> int:
        """Abandon one table idle since before ``cutoff`` (1), unless it moved on (0)."""
        table = self._loaded(row.id)
        if table is None and self.owners is not None:
            return await self._abandon_unowned(row)
        if table is None:
            if not await self._db(self.db.abandon, row.id, row.updated):
                log.warning("table %s was not live in the store", row.id)
            self.live.pop(row.id, None)
            table = self._loaded(row.id)  # loaded meanwhile
            if table is None:
                return 1
        async with table.lock:
            if table.status not in LIVE or table.updated > cutoff:
                return 0
            await self._db(self.db.abandon, table.id, table.updated + 1)
            table.status = "abandoned"
            self.live.pop(table.id, None)
        if table.bot_task is not None:
            table.bot_task.cancel()
        log.info("table %s abandoned", table.id)
        self.broadcast(table)
        return 1

    def evict(self) -> int:
        """Drop from memory every table nobody uses: no connection, no bot moving, no
        change under way, unused for ``evict_finished_after`` (finished or abandoned) or
        ``evict_idle_after`` seconds; returns how many.  A table is loaded again from the
        store only for someone with a right to it (see :meth:`get`)."""
        now = time.monotonic()
        n = 0
        for table_id, table in list(self.tables.items()):
            if table.connections or table.lock.locked() or (
                    table.bot_task is not None and not table.bot_task.done()):
                table.touched = now
                continue
            idle = (self.limits.evict_idle_after if table.status in LIVE
                    else self.limits.evict_finished_after)
            if now - table.touched >= idle:
                del self.tables[table_id]
                table.views = None
                n += 1
                if self.owners is not None:  # loaded again from the store, by any process
                    table.owned = False
                    self._held.pop(table_id, None)
                    self._spawn(self.owners.release(table_id))
        return n

    def _prune_rates(self) -> None:
        cutoff = time.monotonic() - 60
        for client, times in list(self._created.items()):
            while times and times[0] <= cutoff:
                times.popleft()
            if not times:
                del self._created[client]

    def _admit(self, client: str | None) -> str | None:
        """Refuse a new table past ``max_open_tables`` (503) or past ``tables_per_minute``
        from ``client`` (429), each with Retry-After; else count it (:meth:`_admitted`)."""
        L = self.limits
        if L.max_open_tables and len(self.live) + self._creating >= L.max_open_tables:
            raise Rejected(503, "too-many-tables",
                           f"this server has {L.max_open_tables} tables open or playing, as "
                           "many as it takes; try again later", headers={"Retry-After": "60"})
        if client is not None and L.tables_per_minute:
            now = time.monotonic()
            times = self._created.setdefault(client, deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= L.tables_per_minute:
                wait = max(1, int(times[0] + 60 - now + 0.999))
                raise Rejected(429, "rate-limited",
                               f"at most {L.tables_per_minute} new tables a minute from one "
                               f"address; try again in {wait} s",
                               headers={"Retry-After": str(wait)})
            times.append(now)
        self._creating += 1
        return client

    def _admitted(self, client: str | None, stored: bool) -> None:
        self._creating -= 1
        if not stored and client is not None:
            times = self._created.get(client)
            if times:
                times.pop()  # a creation that failed does not count

    # -- several processes sharing PostgreSQL (--cluster; owners.py, docs/deploy.md) ------
    async def join_cluster(self) -> None:
        """Open this process's ownership connections: from now on it keeps in memory only
        the tables whose lock it holds, and hands one over when another process asks."""
        owners = Owners(self.db.url, self._asked)
        await owners.start()
        self.owners = owners

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            await work
        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _check_owned(self, table: LiveTable) -> None:
        """Refuse a change through a copy this process has let go (its new owner has it)."""
        if not table.owned:
            raise Rejected(503, "moved", "this table moved to another server process; try "
                                         "again", headers={"Retry-After": "1"})

    def _asked(self, table_id: str) -> None:
        """Another process asks for ``table_id``: let it go, if held here and not being
        taken over right now (the asker asks again)."""
        owners = self.owners
        if (owners is not None and table_id in owners.held and table_id not in self._taking
                and not self.closing):
            self._spawn(self.let_go(table_id))

    async def let_go(self, table_id: str) -> None:
        """Hand ``table_id`` over: wait for any change under way, stop (bots, sockets, this
        copy), then unlock; whatever was stored stays for the next owner to replay."""
        table = self._loaded(table_id)
        if table is not None:
            async with table.lock:
                self._put_away(table)
        if self.owners is not None and table_id not in self._taking:
            await self.owners.release(table_id)
            log.info("table %s handed over", table_id)

    def _put_away(self, table: LiveTable) -> None:
        """Forget a table this process no longer owns: nothing more through this copy, its
        bots stop, its sockets close with 1012 (they reconnect, through the proxy, to the
        table's new owner)."""
        table.owned = False
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self._held.get(table.id) is table:
            del self._held[table.id]
        table.views = None
        if table.bot_task is not None and table.bot_task is not asyncio.current_task():
            table.bot_task.cancel()
        for conn in list(table.connections):
            conn.drop(1012, "moved", "this table moved to another server process: connect "
                                     "again")

    async def _acquire(self, table_id: str) -> bool:
        assert self.owners is not None
        try:
            return await self.owners.acquire(table_id)
        except Exception as exc:
            raise Rejected(503, "unavailable", "the server cannot reach its database now; "
                                               "try again later",
                           headers={"Retry-After": "5"}) from exc

    async def _own(self, table_id: str) -> None:
        """Take the table's lock, asking its holder (every second) to let it go, for up to
        ``takeover_timeout`` s; then 503 ``elsewhere`` (the client tries again)."""
        assert self.owners is not None
        deadline = time.monotonic() + self.takeover_timeout
        asked: float | None = None
        while not await self._acquire(table_id):
            now = time.monotonic()
            if now >= deadline:
                raise Rejected(503, "elsewhere", "another server process holds this table "
                                                 "and has not handed it over; try again",
                               headers={"Retry-After": "1"})
            if asked is None or now - asked >= 1.0:
                asked = now
                with contextlib.suppress(Exception):
                    await self.owners.ask(table_id)
            await asyncio.sleep(0.05)

    async def _take(self, table_id: str, token: str | None, record: bool) -> LiveTable:
        """:meth:`get` of a table not in memory when several processes share the store:
        its right first (as :meth:`get`), then its lock, then its record replayed."""
        assert self.owners is not None
        head = await self._db(self.db.load, table_id, False)
        if head is None or (head.status not in LIVE and not record
                            and not _entitled(head, token)):
            raise Rejected(404, "no-table", "there is no such table")
        self._taking.add(table_id)
        began = time.monotonic()
        try:
            await self._own(table_id)
            async with self._load_lock:
                table = self._hold(table_id)
                if table is not None:
                    return table
                # read after the lock was taken: every action the last owner stored
                stored = await self._db(self.db.load, table_id)
                if stored is None:
                    raise Rejected(404, "no-table", "there is no such table")
                table = self._adopt(stored)
                self._peeks.pop(table_id, None)
                log.info("table %s taken over in %.0f ms (%d actions replayed)", table_id,
                         1000 * (time.monotonic() - began), len(stored.actions))
                return table
        except BaseException:
            if self._loaded(table_id) is None and table_id in self.owners.held:
                await self.owners.release(table_id)
            raise
        finally:
            self._taking.discard(table_id)

    async def _peek(self, table_id: str) -> LiveTable | None:
        """The table as stored, without taking it over: this process's own when it owns it,
        else a read-only copy (replayed once per write, the newest PEEKS kept)."""
        table = self._hold(table_id)
        if table is not None:
            return table
        head = await self._db(self.db.load, table_id, False)
        if head is None:
            return None
        cached = self._peeks.get(table_id)
        if cached is not None and cached[0] == head.updated:
            return cached[1]
        stored = await self._db(self.db.load, table_id)
        if stored is None:
            return None
        copy = self._revive(stored)
        copy.owned = False
        self._peeks.pop(table_id, None)
        self._peeks[table_id] = (stored.updated, copy)
        while len(self._peeks) > PEEKS:
            del self._peeks[next(iter(self._peeks))]
        return copy

    async def _peek_seated(self, table_id: str, token: str) -> tuple[LiveTable, int] | None:
        """:meth:`seated` without taking the table over ("my tables")."""
        if not token or not 1 <= len(table_id) <= 32:
            return None
        table = await self._peek(table_id)
        seat = None if table is None else table.seat_of(token)
        return None if table is None or seat is None else (table, seat)

    async def _cluster_lobby(self, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """The lobby from the store: every process's public tables that have not started
        (a copy's seats show as not connected: who is, only its owner knows)."""
        total, ids = await self._db(self.db.lobby, offset, limit)
        out: list[dict[str, Any]] = []
        for table_id in ids:
            table = await self._peek(table_id)
            if table is not None and table.public and table.status == "open":
                out.append(table.info())
        return total, out

    async def _abandon_unowned(self, row: LiveRow) -> int:
        """Abandon a table not in memory here: only when nobody owns it (its lock is free;
        an owner abandons its own)."""
        if not await self._acquire(row.id):
            return 0
        try:
            if self._loaded(row.id) is not None:
                return 0
            if not await self._db(self.db.abandon, row.id, row.updated):
                log.warning("table %s was not live in the store", row.id)
            self.live.pop(row.id, None)
            return 1
        finally:
            if self._loaded(row.id) is None:
                await self.owners.release(row.id)  # type: ignore[union-attr]

    async def _cluster_round(self) -> None:
        """Housekeeping: the lock connection still holds (else every table here is put
        away: another process may own it now) and the live tables, every process's."""
        assert self.owners is not None
        if not await self.owners.check():
            for table in list(self.tables.values()):
                self._put_away(table)
        with contextlib.suppress(Rejected):
            rows = await self._db(self.db.live)
            self.live = {r.id: r for r in rows}
        await self._adopt_orphans()

    async def _adopt_orphans(self) -> None:
        """Carry on the tables whose owner died while they were being played (a write in
        the last ORPHAN_RECENT s, nobody holding their lock for ORPHAN_AFTER s): the bots of
        a table nobody watches move on without waiting for a visitor.  The first process to
        take the lock has the table; the others leave it (no asking: nobody asked for it);
        the proxy may route its seats elsewhere later, and it is handed over then."""
        assert self.owners is not None
        now = time.time()
        window = ORPHAN_RECENT  # never a table idle long enough to leave memory
        if self.limits.evict_idle_after > 0:
            window = min(window, self.limits.evict_idle_after)
        recent = [r.id for r in self.live.values()
                  if r.status == "playing" and r.updated >= now - window
                  and self._loaded(r.id) is None and r.id not in self._taking]
        if not recent:
            self._orphans.clear()
            return
        try:
            held = await self.owners.locked()
        except Exception:
            return
        seen = time.monotonic()
        orphans = {t for t in recent if lock_key(t) not in held}
        self._orphans = {t: self._orphans.get(t, seen) for t in orphans}
        for table_id, since in list(self._orphans.items()):
            if seen - since >= ORPHAN_AFTER:
                del self._orphans[table_id]
                await self._adopt_orphan(table_id)

    async def _adopt_orphan(self, table_id: str) -> None:
        assert self.owners is not None
        self._taking.add(table_id)
        try:
            if self._loaded(table_id) is not None or not await self._acquire(table_id):
                return
            async with self._load_lock:
                if self._hold(table_id) is None:
                    stored = await self._db(self.db.load, table_id)
                    if stored is not None and stored.status == "playing":
                        self._adopt(stored)
                        log.info("table %s adopted (its owner is gone; %d actions "
                                 "replayed)", table_id, len(stored.actions))
        except Rejected:
            pass
        finally:
            self._taking.discard(table_id)
            if self._loaded(table_id) is None and table_id in self.owners.held:
                await self.owners.release(table_id)

    # -- tables -----------------------------------------------------------------------
    async def get(self, table_id: str, token: str | None = None, *,
                  record: bool = False) -> LiveTable:
        """The live table ``table_id``.  A table in memory, or open or playing, comes for
        anyone (spectators watch); a finished or abandoned one that was evicted from memory
        is loaded again only for ``token`` holding one of its seats or its host's token, or
        for its record (``record``): an unknown id, or a stored one asked for without a
        right to it, is a 404 without touching the store."""
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise Rejected(404, "no-table", "there is no such table")
        table = self._hold(table_id)
        if table is not None:
            return table
        if self.owners is not None:  # several processes: take it over from the store
            return await self._take(table_id, token, record)
        if table_id not in self.live and not token and not record:
            raise Rejected(404, "no-table", "there is no such table")
        async with self._load_lock:
            table = self._hold(table_id)
            if table is not None:
                return table
            if table_id not in self.live and not record:  # the token's right, first
                head = await self._db(self.db.load, table_id, False)
                if head is None or (head.status not in LIVE and not _entitled(head, token)):
                    raise Rejected(404, "no-table", "there is no such table")
            stored = await self._db(self.db.load, table_id)
            if stored is None:
                raise Rejected(404, "no-table", "there is no such table")
            return self._adopt(stored)

    def _hold(self, table_id: str) -> LiveTable | None:
        """The table if it is in memory (back among the hub's tables when it was evicted
        but is still held somewhere), marked as used now."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._held.get(table_id)
            if table is None:
                return None
            self.tables[table_id] = table
        table.touched = time.monotonic()
        return table

    def _adopt(self, stored: StoredTable) -> LiveTable:
        """The live table of ``stored`` (revived unless another caller did meanwhile); its
        bots go on."""
        table = self._hold(stored.id)
        if table is None:
            table = self.tables[stored.id] = self._held[stored.id] = self._revive(stored)
            if table.status in LIVE and table.id not in self.live:
                self.live[table.id] = LiveRow(table.id, table.status, table.public,
                                              table.created, table.updated)
            self._schedule_bots(table)
        return table

    def _touch(self, table: LiveTable) -> None:
        """The table was just written: its last write (abandonment counts from it), its
        entry among the live tables."""
        table.updated = time.time()
        table.touched = time.monotonic()
        if table.status in LIVE:
            row = self.live.get(table.id)
            if row is None:
                row = self.live[table.id] = LiveRow(table.id, table.status, table.public,
                                                    table.created, table.updated)
            row.status, row.updated = table.status, table.updated
        else:
            self.live.pop(table.id, None)

    async def seated(self, table_id: str, token: str) -> tuple[LiveTable, int] | None:
        """The table and the seat that ``token`` holds there, or None (no such table, or no
        seat of it): a stored table is revived only when the token holds one of its seats."""
        if not token:
            return None
        try:
            table = await self.get(table_id, token)
        except Rejected as exc:
            if exc.status == 404:
                return None
            raise
        seat = table.seat_of(token)
        return None if seat is None else (table, seat)

    async def mine(self, entries: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        """For each (table id, seat token) whose token holds a seat at that table, what that
        seat may know of it at a glance (entries that do not: left out, silently)."""
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for table_id, token in entries:
            if table_id in seen:
                continue
            found = (await self._peek_seated(table_id, token) if self.owners is not None
                     else await self.seated(table_id, token))
            if found is None:
                continue
            seen.add(table_id)
            table, seat = found
            out.append(table.glance(seat))
        return out

    def _revive(self, stored: StoredTable) -> LiveTable:
        """Rebuild a table by replaying its stored actions through the engine."""
        game = make_game(stored.game, stored.players, **stored.options)
        state = game.new_state(stored.seed)
        actors = []
        for seat, text in stored.actions:
            actors.append(state.current_player)
            state.apply_as(seat, game.parse_action(text))
        return LiveTable(
            id=stored.id, game=stored.game, players=stored.players, options=stored.options,
            seed=stored.seed, seats=[Seat(**s) for s in stored.seats], host_hash=stored.host_hash,
            status=stored.status, state=state, public=stored.public,
            rematch_of=stored.rematch_of, rematch_next=stored.rematch_next,
            created=stored.created, actors=actors, updated=stored.updated or stored.created,
            hints=stored.hints)

    async def create(self, game: str, players: int | None, options: dict[str, Any],
                     seats: Sequence[dict[str, Any]], public: bool = True, start: bool = False,
                     seed: int | None = None, rematch_of: str | None = None,
                     keep_hashes: Sequence[str | None] | None = None,
                     host_hash: str | None = None,
                     client: str | None = None,
                     hints: bool = True) -> tuple[LiveTable, str, list[str | None]]:
        """A new table: returns it, the host token and each seat's token (None: bot or open).

        Refused past ``Limits.max_open_tables`` (503 ``too-many-tables``) and, for
        ``client`` (the creator's address), past ``Limits.tables_per_minute`` (429
        ``rate-limited``); ``host_hash``: keep that host (a rematch) instead of a new one;
        ``hints``: whether its seats may ask for hints."""
        admitted = self._admit(client)
        stored_ok = False
        try:
            table, host, tokens = await self._create(
                game, players, options, seats, public, start, seed, rematch_of, keep_hashes,
                host_hash, hints)
            stored_ok = True
        finally:
            self._admitted(admitted, stored_ok)
        return table, host, tokens

    async def _create(self, game: str, players: int | None, options: dict[str, Any],
                      seats: Sequence[dict[str, Any]], public: bool, start: bool,
                      seed: int | None, rematch_of: str | None,
                      keep_hashes: Sequence[str | None] | None,
                      host_hash: str | None,
                      hints: bool = True) -> tuple[LiveTable, str, list[str | None]]:
        entry = GAMES.get(game)
        if entry is None:
            raise Rejected(422, "bad-game", f"unknown game {game!r}; choose from "
                                            f"{', '.join(GAMES)}")
        try:
            n = entry.default_players if players is None else players
            if not entry.players[0] <= n <= entry.players[1]:
                lo, hi = entry.players
                raise Rejected(422, "bad-players", f"{entry.title} is for {lo}-{hi} players, "
                                                   f"not {n}")
            if not isinstance(options, dict):
                raise BadOptions("options are an object of option names and values")
            checked = type(make_game(game, n).options).check(options, n, entry.title)
            g = make_game(game, n, **checked)
        except (ValueError, TypeError, SaboteurError) as exc:
            raise Rejected(422, "bad-options", str(exc)) from exc
        n = g.players
        if seed is not None and not self.allow_seed:
            raise Rejected(403, "no-seed", "this server does not accept chosen seeds")
        if seed is None:
            seed = secrets.randbits(48)
        specs = list(seats) or [{"kind": "human"}] + [{"kind": "bot"}] * (n - 1)
        if len(specs) != n:
            raise Rejected(422, "bad-seats", f"{entry.title} with {n} players needs {n} seats, "
                                             f"not {len(specs)}")
        tokens: list[str | None] = []
        seat_list: list[Seat] = []
        for i, spec in enumerate(specs):
            kind = spec.get("kind", "human")
            if kind not in ("human", "open", "bot"):
                raise Rejected(422, "bad-seats", f"seat {i}: kind is human, open or bot")
            difficulty = spec.get("difficulty") or ("easy" if kind == "bot" else None)
            if difficulty is not None and difficulty not in DIFFICULTIES:
                raise Rejected(422, "bad-seats", f"seat {i}: difficulty is one of "
                                                 f"{', '.join(DIFFICULTIES)}")
            name = seat_name(spec.get("name"))
            token: str | None = None
            h: str | None = None
            if keep_hashes is not None and keep_hashes[i] is not None:
                h = keep_hashes[i]
            elif kind == "human":
                token = new_token()
                h = token_hash(token)
            tokens.append(token)
            seat_list.append(Seat(name, kind, difficulty if kind == "bot" else None, h))
        host = new_token()
        table_id = secrets.token_hex(6)
        why = unstartable(seat_list) if start else None
        if why is not None:
            raise Rejected(422, "no-player", why)
        status = "playing" if start else "open"
        state = g.new_state(seed)
        stored = StoredTable(id=table_id, game=game, players=n, options=g.options.to_json(),
                             seed=seed, seats=[s.to_store() for s in seat_list],
                             host_hash=host_hash or token_hash(host), status=status,
                             public=public, rematch_of=rematch_of, created=time.time(),
                             hints=hints)
        if self.owners is not None and not await self._acquire(table_id):
            raise Rejected(503, "unavailable", "the table could not be made here now; try "
                                               "again", headers={"Retry-After": "1"})
        try:
            await self._db(self.db.create_table, stored)
        except Rejected:
            if self.owners is not None:
                await self.owners.release(table_id)
            raise
        table = LiveTable(id=table_id, game=game, players=n, options=stored.options, seed=seed,
                          seats=seat_list, host_hash=stored.host_hash, status=status, state=state,
                          public=public, rematch_of=rematch_of, created=stored.created,
                          hints=hints)
        self.tables[table_id] = self._held[table_id] = table
        self._touch(table)
        self._schedule_bots(table)
        return table, host, tokens

    async def lobby(self, offset: int = 0, limit: int | None = None) -> tuple[int, list[dict[
            str, Any]]]:
        """The public tables that have not started, newest first: how many there are, and
        the ``limit`` of them (at most ``Limits.lobby_page``) from ``offset`` on."""
        page = self.limits.lobby_page or 100
        limit = page if limit is None else max(0, min(limit, page))
        if self.owners is not None:  # the store lists every process's tables
            return await self._cluster_lobby(offset, limit)
        rows = sorted((r for r in self.live.values() if r.public and r.status == "open"),
                      key=lambda r: -r.created)
        out: list[dict[str, Any]] = []
        for row in rows[max(0, offset):max(0, offset) + limit]:
            try:
                table = await self.get(row.id)
            except Rejected as exc:
                if exc.status == 404:
                    continue
                raise
            if table.public and table.status == "open":
                out.append(table.info())
        return len(rows), out

    async def start(self, table: LiveTable, host_token: str | None) -> None:
        if not table.is_host(host_token):
            raise Rejected(403, "not-host", "only the table's host may start it")
        async with table.lock:
            self._check_owned(table)
            if table.status != "open":
                raise Rejected(409, "started", "the table has already started")
            why = unstartable(table.seats)
            if why is not None:
                raise Rejected(409, "no-player", why)
            await self._db(self.db.update_table, table.id, status="playing")
            table.status = "playing"
            self._touch(table)
        self.broadcast(table)
        self._schedule_bots(table)

    async def join(self, table: LiveTable, name: str | None) -> tuple[int, str]:
        """Take a free (``open``) seat from the lobby: returns the seat and its token."""
        async with table.lock:
            self._check_owned(table)
            if table.status == "finished":
                raise Rejected(409, "finished", "the match is over")
            if table.status == "abandoned":
                raise Rejected(409, "abandoned", "this table was closed: nobody played it")
            free = [i for i, s in enumerate(table.seats) if s.kind == "open"]
            if not free:
                raise Rejected(409, "full", "every seat of this table is taken")
            old = table.seats[free[0]]
            token = new_token()
            taken = Seat(seat_name(name) or old.name, "human", old.difficulty, token_hash(token))
            seats = [taken if i == free[0] else s for i, s in enumerate(table.seats)]
            await self._db(self.db.update_table, table.id, seats=[x.to_store() for x in seats])
            table.seats[free[0]] = taken  # only once stored
            self._touch(table)
        self.broadcast(table)
        return free[0], token

    async def rematch(self, table: LiveTable, token: str | None) -> LiveTable:
        """The same seats (and seat tokens) at a new table with a new seed; idempotent."""
        seat = table.seat_of(token)
        if seat is None and not table.is_host(token):
            raise Rejected(403, "not-seated", "only a player or the host may ask for a rematch")
        async with table.lock:
            self._check_owned(table)
            if table.status != "finished":
                raise Rejected(409, "not-finished", "a rematch needs a finished match")
            if table.rematch_next is not None:
                return await self.get(table.rematch_next, token)
            new, _, _ = await self.create(
                table.game, table.players, table.options,
                [{"kind": s.kind, "name": s.name,
                  "difficulty": s.difficulty} for s in table.seats],
                public=False, start=True, rematch_of=table.id, hints=table.hints,
                keep_hashes=[s.token_hash for s in table.seats], host_hash=table.host_hash)
            await self._db(self.db.update_table, table.id, rematch_next=new.id)
            table.rematch_next = new.id
        self.broadcast(table)
        return new

    # -- acting ---------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int | None, text: Any, index: Any) -> int:
        """Validate, store, then apply ``text`` for ``seat``; returns the new action count."""
        if seat is None:
            raise Rejected(403, "not-seated", "spectators cannot act; use your seat's link")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise Rejected(400, "bad-action", "an action is a short text in move notation")
        if isinstance(index, bool) or not isinstance(index, int):
            raise Rejected(400, "bad-index", "an action must say at which index it is played "
                                             "(the index of the last state you received)")
        async with table.lock:
            self._check_owned(table)
            state = table.state
            if table.status == "open":
                raise Rejected(409, "not-started", "the table has not started yet")
            if table.status == "finished" or state.is_terminal:
                raise Rejected(409, "game-over", "the match is over")
            if table.status == "abandoned":
                raise Rejected(409, "abandoned", "this table was closed: nobody played it")
            if index != table.index:
                raise Rejected(409, "stale", f"this action was meant for position {index}, "
                                             f"the game is at {table.index}")
            if seat != state.current_player:
                raise Rejected(403, "not-your-turn",
                               f"it is seat {state.current_player}'s turn, not yours")
            game = state.game
            try:
                action = game.parse_action(text)
            except (NotationError, KeyError, ValueError) as exc:
                raise Rejected(422, "bad-notation", str(exc)) from exc
            new = state.clone()
            try:
                new.apply_as(seat, action)
            except NotYourTurn as exc:  # pragma: no cover - checked above
                raise Rejected(403, "not-your-turn", str(exc)) from exc
            except GameOver as exc:  # pragma: no cover - checked above
                raise Rejected(409, "game-over", str(exc)) from exc
            except IllegalAction as exc:
                raise Rejected(422, "illegal", str(exc), reason=exc.to_json()) from exc
            finished = new.is_terminal
            try:
                await self._db(self.db.append_action, table.id, table.index, seat, str(action),
                               "finished" if finished else None)
            except Rejected as exc:
                if exc.status == 503:  # the actor hears it from its answer, the others here
                    self.tell(table, {"type": "error", "code": exc.code,
                                      "message": "a move could not be stored: " + exc.message},
                              skip_seat=seat)
                if exc.code == "conflict" and self.owners is not None:
                    # another process stored this index: it owns the table now
                    table.owned = False
                    self._spawn(self.let_go(table.id))
                raise
            table.state = new
            table.actors.append(seat)
            if finished:
                table.status = "finished"
            self._touch(table)
            index_now = table.index
        self.broadcast(table)
        self._schedule_bots(table)
        return index_now

    # -- messages ---------------------------------------------------------------------------
    def message_for(self, table: LiveTable, seat: int | None,
                    info: dict[str, Any] | None = None, private: bool = False) -> dict[str, Any]:
        """The one message shape a seat (or a spectator, ``seat=None``) receives (``info``:
        ``table.info()``, when the caller has it already).  A seat's ``table`` carries
        ``rematch_next`` (the rematch table's id, where its token holds the same seat); a
        spectator's does not (``private``: the host's, who sees it too)."""
        state = table.state
        legal: list[dict[str, Any]] = []
        if seat is not None and table.status == "playing" and state.current_player == seat:
            legal = [action_json(a) for a in state.legal_actions()]
        shown = table.info() if info is None else info
        if seat is not None or private:  # the rematch table is private: seats and host only
            shown = {**shown, "rematch_next": table.rematch_next}
        return {"type": "state", "seat": seat, "index": table.index, "table": shown,
                "view": view_json(state.view(seat)), "legal": legal}

    def state_out(self, table: LiveTable, seat: int | None) -> Outgoing:
        """The state message of ``seat`` at the table's current index, built once per
        (index, seat) and change: every connection of that seat, and each ``state``
        request, gets the same one (its JSON text encoded once)."""
        views = table.views
        if views is None or views.index != table.index:
            views = table.views = Views(table.index, table.info())
        out = views.by_seat.get(seat)
        if out is None:
            out = views.by_seat[seat] = Outgoing(self.message_for(table, seat, views.info))
        return out

    def subscribe(self, table: LiveTable, conn: Connection) -> None:
        """Add ``conn`` to the table and send it its state; refused (:class:`Rejected`,
        429 ``too-many-connections``) past ``ws_per_seat``, ``ws_per_table`` or
        ``ws_per_client``.  Costs the same at the 600th spectator as at the first: a
        spectator's arrival is told to nobody, a seat's only as a ``presence`` message
        when the seat was not connected before."""
        limits = self.limits
        if limits.ws_per_table and len(table.connections) >= limits.ws_per_table:
            raise Rejected(429, "too-many-connections",
                           f"this table has {limits.ws_per_table} connections already")
        if (conn.seat is not None and limits.ws_per_seat
                and table.present.get(conn.seat, 0) >= limits.ws_per_seat):
            raise Rejected(429, "too-many-connections",
                           f"this seat has {limits.ws_per_seat} connections already")
        if limits.ws_per_client and self.clients.get(conn.client, 0) >= limits.ws_per_client:
            raise Rejected(429, "too-many-connections",
                           f"at most {limits.ws_per_client} connections from one address")
        table.connections.add(conn)
        self.clients[conn.client] = self.clients.get(conn.client, 0) + 1
        conn.on_drop = lambda c: self._drop(table, c)
        if conn.seat is not None:
            table.present[conn.seat] = table.present.get(conn.seat, 0) + 1
            if table.present[conn.seat] == 1:
                self._presence(table, skip=conn)
        conn.start()
        conn.push(self.state_out(table, conn.seat), key="state")

    def _drop(self, table: LiveTable, conn: Connection) -> None:
        """Take ``conn`` off the table (once; a dropped connection leaves at once)."""
        if conn not in table.connections:
            return
        table.connections.discard(conn)
        left = self.clients.get(conn.client, 0) - 1
        if left > 0:
            self.clients[conn.client] = left
        else:
            self.clients.pop(conn.client, None)
        if conn.seat is not None:
            n = table.present.get(conn.seat, 0) - 1
            if n > 0:
                table.present[conn.seat] = n
            else:
                table.present.pop(conn.seat, None)
                self._presence(table)

    async def unsubscribe(self, table: LiveTable, conn: Connection) -> None:
        self._drop(table, conn)
        await conn.close()

    def presence(self, table: LiveTable) -> dict[str, Any]:
        """Who is connected: ``connected[i]`` as ``table.seats[i].connected`` says."""
        return {"type": "presence",
                "connected": [s.is_bot or table.present.get(i, 0) > 0
                              for i, s in enumerate(table.seats)]}

    def _presence(self, table: LiveTable, skip: Connection | None = None) -> None:
        """A seat came or went: patch the state messages built (so that each one sent from
        now on says so) and tell every other connection in one small message."""
        message = self.presence(table)
        views = table.views
        if views is not None:
            for entry, connected in zip(views.info.get("seats", ()), message["connected"],
                                        strict=False):
                entry["connected"] = connected
            for out in views.by_seat.values():
                out.changed()
        out = Outgoing(message)
        for conn in list(table.connections):
            if conn is not skip:
                conn.push(out, key="presence")

    def broadcast(self, table: LiveTable, extra: dict[str, Any] | None = None) -> None:
        """Send every connection its state after a change (of anything a state message
        shows: every such change comes through here), and ``extra`` after it."""
        table.views = None
        after = Outgoing(extra) if extra is not None else None
        for conn in list(table.connections):
            conn.push(self.state_out(table, conn.seat), key="state")
            if after is not None:
                conn.push(after)

    def tell(self, table: LiveTable, message: dict[str, Any], skip_seat: int | None = None) -> None:
        """Send ``message`` to every connection of the table but those of ``skip_seat``."""
        out = Outgoing(message)
        for conn in list(table.connections):
            if skip_seat is None or conn.seat != skip_seat:
                conn.push(out)

    def tell_seated(self, table: LiveTable, message: dict[str, Any]) -> None:
        """Send ``message`` to the connections that hold a seat (never to spectators)."""
        out = Outgoing(message)
        for conn in list(table.connections):
            if conn.seat is not None:
                conn.push(out)

    # -- bots -------------------------------------------------------------------------------
    def _schedule_bots(self, table: LiveTable) -> None:
        if (self.closing or not table.owned or table.status != "playing"
                or table.state.is_terminal):
            return
        p = table.state.current_player
        if not (0 <= p < len(table.seats)) or not table.seats[p].is_bot:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.create_task(self._bot_loop(table))

    def _bot(self, table: LiveTable, seat: int) -> Bot:
        bot = table.bots.get(seat)
        if bot is None:
            name = bot_for(table.seats[seat].difficulty or "easy")
            bot = make_bot(name, (table.seed + 7919 * (seat + 1) + table.index) % (1 << 63))
            table.bots[seat] = bot
        return bot

    async def _bot_loop(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        try:
            while table.owned and table.status == "playing" and not table.state.is_terminal:
                p = table.state.current_player
                if not table.seats[p].is_bot:
                    return
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                state = table.state
                index = table.index
                view, legal = state.view(p), state.legal_actions()
                bot = self._bot(table, p)
                action = await loop.run_in_executor(self.bot_pool, bot.choose, view, legal)
                try:
                    await self.act(table, p, str(action), index)
                    table.bot_failures = 0
                except Rejected as exc:  # the table moved on meanwhile (e.g. restart)
                    log.warning("bot move %s at %s refused: %s", action, table.id, exc.message)
                    if exc.status == 503:  # the store is down: wait longer each time
                        table.bot_failures += 1
                        await asyncio.sleep(bot_backoff(table.bot_failures))
                        continue
                    if exc.code != "stale":
                        return
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - a bot bug must not kill the server
            log.exception("bot task of table %s failed", table.id)
            table.bot_failures += 1
        finally:
            table.bot_task = None
            # an act() inside the loop saw the task still running; go on if a bot is due
            # (after a failure: not at once, and later with each failure in a row)
            if not self.closing and table.status == "playing" and not table.state.is_terminal:
                p = table.state.current_player
                if table.seats[p].is_bot:
                    delay = bot_backoff(table.bot_failures) if table.bot_failures else 0.0
                    with contextlib.suppress(RuntimeError):
                        asyncio.get_running_loop().call_later(delay, self._schedule_bots, table)


def bot_backoff(failures: int) -> float:
    """Seconds a bot waits after ``failures`` refusals in a row: doubling, bounded."""
    return float(min(BOT_BACKOFF_MAX, BOT_BACKOFF * 2 ** min(failures - 1, 30)))


def _entitled(stored: StoredTable, token: str | None) -> bool:
    """Whether ``token`` holds a seat of the stored table or is its host's."""
    if not token:
        return False
    h = token_hash(token)
    hashes = [s.get("token_hash") for s in stored.seats] + [stored.host_hash]
    return any(isinstance(x, str) and secrets.compare_digest(x, h) for x in hashes)
