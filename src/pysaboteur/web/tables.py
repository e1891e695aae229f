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
import logging
import secrets
import time
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
from .db import Database, StoredTable

log = logging.getLogger("pysaboteur.web")

#: difficulty -> bot names, best first; the first one that exists is used
DIFFICULTIES: dict[str, tuple[str, ...]] = {
    "easy": ("random",),
    "normal": ("heuristic", "random"),
    "hard": ("ismcts", "heuristic", "random"),
}
MAX_NAME = 40


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

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


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


class Connection:
    """One WebSocket (or test client) subscribed to a table as a seat or a spectator."""

    def __init__(self, seat: int | None, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        self.seat = seat
        self._send = send
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    async def _pump(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None:
                return
            try:
                await self._send(msg)
            except Exception:  # the socket is gone; the reader side cleans up
                return

    async def close(self) -> None:
        self.closing = True
        self.queue.put_nowait(None)
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 2)


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
    created: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    actors: list[int] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None

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
        """Public facts about the table (never a token, never the seed)."""
        connected = {c.seat for c in self.connections if c.seat is not None}
        entry = GAMES.get(self.game)
        return {
            "id": self.id, "game": self.game, "title": entry.title if entry else self.game,
            "players": self.players, "options": self.options, "status": self.status,
            "public": self.public, "index": self.index,
            "rematch_of": self.rematch_of, "rematch_next": self.rematch_next,
            "current_player": self.state.current_player,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind, "difficulty": s.difficulty,
                       "bot": bot_for(s.difficulty or "easy") if s.is_bot else None,
                       "claimed": s.claimed, "connected": s.is_bot or i in connected}
                      for i, s in enumerate(self.seats)],
            "free_seats": sum(1 for s in self.seats if s.kind == "open"),
        }


class Hub:
    """Every live table of one server process."""

    def __init__(self, db: Database, bot_delay: float = 0.6, allow_seed: bool = False,
                 bot_threads: int = 2) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.tables: dict[str, LiveTable] = {}
        self.bot_pool = ThreadPoolExecutor(bot_threads, thread_name_prefix="bot")
        self.db_pool = ThreadPoolExecutor(1, thread_name_prefix="db")
        self._load_lock = asyncio.Lock()
        self.closing = False

    # -- life cycle -----------------------------------------------------------------
    async def resume(self) -> int:
        """Load every open or playing table from the store and restart its bots."""
        n = 0
        for table_id in self.db.ids(("open", "playing")):
            table = await self.get(table_id)
            self._schedule_bots(table)
            n += 1
        return n

    async def close(self) -> None:
        self.closing = True
        for table in list(self.tables.values()):
            if table.bot_task is not None:
                table.bot_task.cancel()
            for conn in list(table.connections):
                await conn.close()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)

    async def _db(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kwargs))

    # -- tables -----------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise Rejected(404, "no-table", "there is no such table")
        async with self._load_lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            stored = await self._db(self.db.load, table_id)
            if stored is None:
                raise Rejected(404, "no-table", "there is no such table")
            return self._adopt(stored)

    def _adopt(self, stored: StoredTable) -> LiveTable:
        """The live table of ``stored`` (revived unless another caller did meanwhile)."""
        table = self.tables.get(stored.id)
        if table is None:
            table = self.tables[stored.id] = self._revive(stored)
        return table

    async def seated(self, table_id: str, token: str) -> tuple[LiveTable, int] | None:
        """The table and the seat that ``token`` holds there, or None (no such table, or no
        seat of it): a stored table is revived only when the token holds one of its seats."""
        table = self.tables.get(table_id)
        if table is None:
            if not 1 <= len(table_id) <= 32 or not token:
                return None
            stored = await self._db(self.db.load, table_id)
            if stored is None:
                return None
            h = token_hash(token)
            if not any(isinstance(s.get("token_hash"), str)
                       and secrets.compare_digest(s["token_hash"], h) for s in stored.seats):
                return None
            async with self._load_lock:
                table = self._adopt(stored)
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
            found = await self.seated(table_id, token)
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
            created=stored.created, actors=actors)

    async def create(self, game: str, players: int | None, options: dict[str, Any],
                     seats: Sequence[dict[str, Any]], public: bool = True, start: bool = False,
                     seed: int | None = None, rematch_of: str | None = None,
                     keep_hashes: Sequence[str | None] | None = None) -> tuple[LiveTable, str,
                                                                                list[str | None]]:
        """A new table: returns it, the host token and each seat's token (None: bot or open)."""
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
        status = "playing" if start else "open"
        state = g.new_state(seed)
        stored = StoredTable(id=table_id, game=game, players=n, options=g.options.to_json(),
                             seed=seed, seats=[s.to_store() for s in seat_list],
                             host_hash=token_hash(host), status=status, public=public,
                             rematch_of=rematch_of)
        await self._db(self.db.create_table, stored)
        table = LiveTable(id=table_id, game=game, players=n, options=stored.options, seed=seed,
                          seats=seat_list, host_hash=stored.host_hash, status=status, state=state,
                          public=public, rematch_of=rematch_of)
        self.tables[table_id] = table
        self._schedule_bots(table)
        return table, host, tokens

    def lobby(self) -> list[dict[str, Any]]:
        return [t.info() for t in sorted(self.tables.values(), key=lambda t: -t.created)
                if t.public and t.status == "open"]

    async def start(self, table: LiveTable, host_token: str | None) -> None:
        if not table.is_host(host_token):
            raise Rejected(403, "not-host", "only the table's host may start it")
        async with table.lock:
            if table.status != "open":
                raise Rejected(409, "started", "the table has already started")
            await self._db(self.db.update_table, table.id, status="playing")
            table.status = "playing"
        self.broadcast(table)
        self._schedule_bots(table)

    async def join(self, table: LiveTable, name: str | None) -> tuple[int, str]:
        """Take a free (``open``) seat from the lobby: returns the seat and its token."""
        async with table.lock:
            if table.status == "finished":
                raise Rejected(409, "finished", "the match is over")
            free = [i for i, s in enumerate(table.seats) if s.kind == "open"]
            if not free:
                raise Rejected(409, "full", "every seat of this table is taken")
            seat = table.seats[free[0]]
            token = new_token()
            seat.kind, seat.token_hash = "human", token_hash(token)
            if seat_name(name):
                seat.name = seat_name(name)
            await self._db(self.db.update_table, table.id,
                           seats=[x.to_store() for x in table.seats])
        self.broadcast(table)
        return free[0], token

    async def rematch(self, table: LiveTable, token: str | None) -> LiveTable:
        """The same seats (and seat tokens) at a new table with a new seed; idempotent."""
        seat = table.seat_of(token)
        if seat is None and not table.is_host(token):
            raise Rejected(403, "not-seated", "only a player or the host may ask for a rematch")
        async with table.lock:
            if table.status != "finished":
                raise Rejected(409, "not-finished", "a rematch needs a finished match")
            if table.rematch_next is not None:
                return await self.get(table.rematch_next)
            new, _, _ = await self.create(
                table.game, table.players, table.options,
                [{"kind": s.kind, "name": s.name,
                  "difficulty": s.difficulty} for s in table.seats],
                public=False, start=True, rematch_of=table.id,
                keep_hashes=[s.token_hash for s in table.seats])
            new.host_hash = table.host_hash
            await self._db(self.db.update_table, new.id, host_hash=table.host_hash)
            table.rematch_next = new.id
            await self._db(self.db.update_table, table.id, rematch_next=new.id)
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
            state = table.state
            if table.status == "open":
                raise Rejected(409, "not-started", "the table has not started yet")
            if table.status == "finished" or state.is_terminal:
                raise Rejected(409, "game-over", "the match is over")
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
                raise Rejected(422, "illegal", str(exc)) from exc
            finished = new.is_terminal
            await self._db(self.db.append_action, table.id, table.index, seat, str(action),
                           "finished" if finished else None)
            table.state = new
            table.actors.append(seat)
            if finished:
                table.status = "finished"
            index_now = table.index
        self.broadcast(table)
        self._schedule_bots(table)
        return index_now

    # -- messages ---------------------------------------------------------------------------
    def message_for(self, table: LiveTable, seat: int | None,
                    info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The one message shape a seat (or a spectator, ``seat=None``) receives (``info``:
        ``table.info()``, when the caller has it already)."""
        state = table.state
        legal: list[dict[str, Any]] = []
        if seat is not None and table.status == "playing" and state.current_player == seat:
            legal = [action_json(a) for a in state.legal_actions()]
        return {"type": "state", "seat": seat, "index": table.index,
                "table": table.info() if info is None else info,
                "view": view_json(state.view(seat)), "legal": legal}

    def subscribe(self, table: LiveTable, conn: Connection) -> None:
        table.connections.add(conn)
        conn.start()
        self.broadcast(table)  # everybody sees who is connected

    async def unsubscribe(self, table: LiveTable, conn: Connection) -> None:
        table.connections.discard(conn)
        await conn.close()
        self.broadcast(table)

    def broadcast(self, table: LiveTable, extra: dict[str, Any] | None = None) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        info = table.info()  # the same for every seat
        for conn in list(table.connections):
            if conn.seat not in cache:
                cache[conn.seat] = self.message_for(table, conn.seat, info)
            conn.push(cache[conn.seat])
            if extra is not None:
                conn.push(extra)

    # -- bots -------------------------------------------------------------------------------
    def _schedule_bots(self, table: LiveTable) -> None:
        if self.closing or table.status != "playing" or table.state.is_terminal:
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
            while table.status == "playing" and not table.state.is_terminal:
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
                except Rejected as exc:  # the table moved on meanwhile (e.g. restart)
                    log.warning("bot move %s at %s refused: %s", action, table.id, exc.message)
                    if exc.code != "stale":
                        return
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:  # pragma: no cover - a bot bug must not kill the server
            log.exception("bot task of table %s failed", table.id)
        finally:
            table.bot_task = None
            # an act() inside the loop saw the task still running; go on if a bot is due
            if not self.closing and table.status == "playing" and not table.state.is_terminal:
                p = table.state.current_player
                if table.seats[p].is_bot:
                    with contextlib.suppress(RuntimeError):
                        asyncio.get_running_loop().call_soon(self._schedule_bots, table)
