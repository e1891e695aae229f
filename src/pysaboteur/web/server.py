"""The HTTP + WebSocket server: FastAPI on uvicorn, JSON API, one WebSocket per seat.

``create_app(database_url, limits=Limits(...))`` builds the application; ``saboteur
serve`` runs it (every field of :class:`~pysaboteur.web.limits.Limits` is an option of
it).  The OpenAPI schema is at ``/openapi.json`` (browsable at ``/docs``).
``GET /healthz`` says the process is alive; ``GET /readyz`` fails with 503 while the
database does not take writes.

WebSocket protocol (``/api/tables/{id}/ws``), JSON text messages of at most
``Limits.max_message`` bytes:

* client -> server, first (within ``Limits.hello_timeout`` s): ``{"type": "hello",
  "token": "<seat token>"}`` (``null`` or no token: a spectator); then ``{"type":
  "action", "action": "NES@1,0r", "index": 12}`` where ``index`` is the ``index`` of the
  last state received (an action meant for another position is refused as stale);
  ``{"type": "state"}`` (the current state again); ``{"type": "ping"}``.  At most
  ``Limits.ws_rate`` messages a second (``ws_burst`` at once); each one over it is
  answered by an ``error`` ``rate`` and not read.  Text must be valid Unicode: a lone
  surrogate (``"\\ud800"``) anywhere is refused as ``bad-text``, never echoed.
* server -> client: ``{"type": "state", "seat", "index", "table", "view", "legal"}``
  on connecting, after every change and on request (``legal`` only to the seat whose
  decision it is; a slow reader gets the newest state, not every one);
  ``{"type": "presence", "connected": [bool, ...]}`` when a seat connects or leaves
  (``connected[i]`` is ``table.seats[i].connected``; spectators come and go unannounced);
  ``{"type": "ack", "index"}`` to the seat whose action was accepted;
  ``{"type": "pong"}``; ``{"type": "error", "code", "message"}`` for anything refused
  (nothing changes; ``unavailable``: the database could not store a move, sent to its
  actor and to the table's other seats); ``{"type": "rematch", "table"}`` to the seats
  (never to spectators: the rematch table is private) when a rematch table exists; a
  seat's ``table`` carries its id as ``rematch_next``, a spectator's has no such key.
* HTTP refusals have one body, ``{"detail": {"code", "message"}}`` (:class:`ErrorBody`;
  422 ``invalid`` adds ``errors``), documented per route in the OpenAPI schema.
* the server closes a socket with an ``error`` message, then a close code: 4404 no such
  table, 4400 no hello, 4403 a token that holds no seat, 4408 no hello in time or a
  message that took over ``ws_send_timeout`` s to send, 4429 too many connections (per
  seat, table or client address: ``ws_per_seat``, ``ws_per_table``, ``ws_per_client``),
  a reader more than ``ws_queue`` messages behind, or a client that keeps flooding
  (``ws_flood``); 1011 a send that failed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import svg
from ..engine import reasons
from ..registry import GAMES, make_game
from .db import Database, StorageError
from .hints import HintDesk
from .limits import Limits
from .owners import conninfo
from .tables import (
    DIFFICULTIES,
    Connection,
    Dropped,
    Hub,
    Rejected,
    bot_for,
    encode,
    lone_surrogate,
    safe_text,
)

log = logging.getLogger("pysaboteur.web")

WEB_DIR = Path(str(resources.files("pysaboteur.web")))
STATIC_DIR = WEB_DIR / "static"
I18N_DIR = WEB_DIR / "i18n"
LANGUAGES = ("en", "de", "nl")


# -- request and response models (the OpenAPI schema) ------------------------------------
class SeatSpec(BaseModel):
    kind: str = Field("human", description="human (private link), open (lobby) or bot")
    name: str | None = Field(None, max_length=40)
    difficulty: str | None = Field(None, description="bots: easy, normal or hard")


class CreateTable(BaseModel):
    game: str = "duel"
    players: int | None = Field(None, ge=1, le=12)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(default_factory=list, max_length=12)
    public: bool = True
    start: bool = False
    seed: int | None = Field(None, ge=0, lt=1 << 63,
                             description="only on servers started with --allow-seed")
    hints: bool = Field(True, description="whether its seats may ask for hints "
                                          "(POST /api/tables/{id}/hint); shown to every "
                                          "seat in the table info")


class SeatLink(BaseModel):
    seat: int
    kind: str
    token: str | None = Field(None, description="a human seat's private token (else null)")
    link: str | None = Field(None, description=(
        "human seats: the private link /#/t/<table id>/<token> (whoever holds it plays the "
        "seat); open seats: the join link /#/join/<table id> (no token: whoever opens it "
        "takes a free seat with POST /api/tables/{id}/join); bots: null"))


class Created(BaseModel):
    id: str
    host_token: str
    seats: list[SeatLink]
    table: dict[str, Any]


class Join(BaseModel):
    name: str | None = Field(None, max_length=40)


class Joined(BaseModel):
    id: str
    seat: int
    token: str
    link: str


class ActionIn(BaseModel):
    action: str = Field(..., max_length=200, description="move notation, e.g. NES@1,0r")
    index: int = Field(..., ge=0, description="the index of the last state received")


class Acked(BaseModel):
    ok: bool = True
    index: int


class TableId(BaseModel):
    id: str


class HintOut(BaseModel):
    """A hint: the hard bot's choice from the asking seat's view, as in the legal list
    (``text``, ``kind`` and the action's own fields, e.g. ``card``, ``x``, ``y``)."""

    model_config = {"extra": "allow"}
    index: int = Field(..., description="the position (state index) the hint is for")
    action: str = Field(..., description="the move's notation (as POST .../actions takes it)")
    text: str
    kind: str
    choice: int = Field(..., description="its place in the state message's legal list")
    reason: str | None = Field(..., description="one line from the search (null: none)")
    search: dict[str, int] | None = Field(None, description="the search's numbers: visits "
                                                            "of the move, simulations, moves")


MAX_MINE = 50  # entries of one "my tables" request


class SeatRef(BaseModel):
    id: str = Field(..., max_length=32, description="a table id")
    token: str = Field(..., max_length=64, description="the seat token held at that table")


class MineIn(BaseModel):
    seats: list[SeatRef] = Field(default_factory=list,
                                 description=f"at most {MAX_MINE} (table id, seat token) pairs")


class MyTable(BaseModel):
    id: str
    game: str
    title: str
    status: str = Field(..., description="open (waiting for the host), playing or finished")
    seat: int = Field(..., description="the seat the token holds")
    players: int
    round: int
    rounds: int | None
    your_turn: bool
    turn_of: int | None = Field(..., description="the seat whose decision it is (playing only)")
    seats: list[str | None] = Field(..., description="each seat's name (null: none given)")
    kinds: list[str] = Field(..., description="each seat's kind: human, open or bot")
    rematch_next: str | None = Field(..., description="the rematch table, where the same "
                                                      "token holds the same seat")
    created: float


class Problem(BaseModel):
    loc: list[str | int] = Field(..., description="where: body, query, header or path, "
                                                  "then the field")
    msg: str
    type: str


class Reason(BaseModel):
    code: str = Field(..., description="a stable word (pysaboteur.engine.reasons: the "
                                       "texts in every language are the i18n reasons group)")
    params: dict[str, Any] = Field(..., description="the reason's parameters (cells, cards, "
                                                    "tools...)")


class ErrorDetail(BaseModel):
    code: str = Field(..., description="a stable word: not-finished, no-table, stale, ...")
    message: str = Field(..., description="what is wrong, in a sentence")
    errors: list[Problem] | None = Field(None, description="422 invalid only: each field "
                                                           "that does not fit the schema")
    reason: Reason | None = Field(None, description="422 illegal only: the engine's reason "
                                                    "as data, to say in any language")


class ErrorBody(BaseModel):
    """Every refusal's body: ``{"detail": {"code", "message"}}``."""

    detail: ErrorDetail


#: what each refusal means, for the schema (each route lists the ones it can answer)
REFUSALS: dict[int, str] = {
    400: "a malformed request (bad-text: a lone surrogate in the body; bad-action, "
         "bad-index)",
    403: "not allowed (a token that holds no seat, not the host, not your turn, a record "
         "before the match is over, a chosen seed on a server that takes none, a hint at a "
         "table without hints)",
    404: "no such table, game, card or language",
    409: "not now (stale index, already started, full, finished, not finished, no player, "
         "busy)",
    413: "the request body is too large",
    422: "the request does not fit the schema (invalid) or the game (bad-options, bad-seats, "
         "bad-players, bad-game, bad-notation, illegal, no-player, too-many)",
    429: "too many requests from one address, or hints for one seat (Retry-After)",
    503: "the database takes no writes, or the server holds all the tables it may",
}


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that can answer ``codes``, each with :class:`ErrorBody`."""
    return {code: {"model": ErrorBody, "description": REFUSALS[code]} for code in codes}


#: what every POST can answer before its route runs (BodyLimit, TextCheck, validation)
POSTED = (400, 413, 422)


def _link(table_id: str, token: str) -> str:
    return f"/#/t/{table_id}/{token}"


def _join_link(table_id: str) -> str:
    return f"/#/join/{table_id}"


def _seat_link(table_id: str, kind: str, token: str | None) -> str | None:
    """A seat's link in the answer to its table's creation (see :class:`SeatLink`)."""
    if token:
        return _link(table_id, token)
    return _join_link(table_id) if kind == "open" else None


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, whatever the headers say."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_large(send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send)


class _TooLarge(Exception):
    pass


_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


class TextCheck:
    """Refuse a JSON request body holding a lone surrogate (``"\\ud800"``: valid JSON, but
    no text can hold it) with 400 ``bad-text``, before anything stores or echoes it.
    Runs inside :class:`BodyLimit` (bodies it sees are bounded)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                break
            chunks.append(msg.get("body", b""))
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        if _SURROGATE.search(body):
            try:
                data = json.loads(body)
            except (ValueError, RecursionError):
                data = None
            if lone_surrogate(data):
                out = json.dumps({"detail": {"code": "bad-text", "message": (
                    "the request's text must be valid Unicode (a lone surrogate such as "
                    "\\ud800 is not)")}}).encode()
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": out})
                return
        replayed = False

        async def again() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, again, send)


def _encodable(data: Any) -> Any:
    """JSON-like ``data`` with every string made encodable (:func:`safe_text`)."""
    if isinstance(data, str):
        return safe_text(data)
    if isinstance(data, dict):
        return {_encodable(k): _encodable(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_encodable(v) for v in data]
    return data


async def _too_large(send: Send) -> None:
    body = json.dumps({"detail": {"code": "too-large", "message": "request body too large"}})
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body.encode()})


@lru_cache(maxsize=16)
def cards_payload(game: str) -> dict[str, Any]:
    g = make_game(game)
    # a game played on a fixed board (The Lost Mines) names its size; the page draws it whole
    bounds = [0, 0, g.board_size[0] - 1, g.board_size[1] - 1] if g.board_size else None
    return {"game": game, "width": svg.CARD_W, "height": svg.CARD_H,
            "cards": svg.catalogue_fragments(g.catalogue), "bounds": bounds,
            "back": svg.back_fragment("goal"), "deck_back": svg.back_fragment("deck")}


@lru_cache(maxsize=8)
def translations(lang: str) -> dict[str, Any]:
    """``i18n/<lang>.json`` with every ``i18n/<lang>.<module>.json`` merged in, group by
    group: each of the browser client's modules keeps its own strings in its own file."""
    data: dict[str, Any] = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    for part in sorted(I18N_DIR.glob(f"{lang}.*.json")):
        extra = json.loads(part.read_text(encoding="utf-8"))
        for group, entries in extra.items():
            if isinstance(entries, dict):
                data.setdefault(group, {}).update(entries)
    data["reasons"] = reasons.client_table(lang)  # the engine's refusals: its one table
    return data


def pick_language(accept: str | None) -> str:
    """The first language of an Accept-Language header that we speak (else English)."""
    best: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        lang = tag.strip().lower()[:2]
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        if lang in LANGUAGES:
            best.append((-weight, i, lang))
    return min(best)[2] if best else "en"


class Health(BaseModel):
    status: str = Field(..., description="ok (/healthz: the process answers), ready or "
                                         "unavailable (/readyz)")
    storage: str = Field(..., description="ok, or why the database takes no writes")
    checked: float = Field(..., description="when the storage was last probed (Unix time)")
    live_tables: int = Field(..., description="tables open or playing")
    loaded_tables: int = Field(..., description="tables in memory (with --cluster: the "
                                                "tables this process owns)")
    process: str = Field("", description="with --cluster: this process as the database "
                                         "names it (pysaboteur-<host>-<pid>); else empty")


def create_app(database_url: str | None = None, bot_delay: float = 0.6,
               allow_seed: bool = False, limits: Limits | None = None,
               cluster: bool = False, takeover_timeout: float = 5.0) -> FastAPI:
    """The whole server as one ASGI application.

    ``cluster``: one of several processes sharing a PostgreSQL database (owners.py,
    docs/deploy.md): it keeps only the tables it owns, takes one over when asked for it
    (waiting up to ``takeover_timeout`` s for its owner to hand it over).

    On start-up it reads which tables are open or playing (loading none: each is loaded on
    its first use) and probes the database (a database that takes no writes starts the
    server unready: ``/readyz`` 503, every write 503).  Raises
    :class:`~pysaboteur.web.db.StorageError` when the database cannot be opened at all."""
    limits = limits or Limits()
    db = Database(database_url)
    if cluster:
        try:
            conninfo(db.url)
        except ValueError as exc:
            db.close()
            raise StorageError(str(exc)) from exc
    state: dict[str, Hub] = {}
    desks: dict[str, HintDesk] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(db, bot_delay=bot_delay, allow_seed=allow_seed, limits=limits,
                  cluster=cluster, takeover_timeout=takeover_timeout)
        state["hub"] = _app.state.hub = hub
        if cluster:
            await hub.join_cluster()
        desks["hints"] = _app.state.hints = HintDesk(hub.bot_pool, limits)
        n = await hub.resume()
        if n:
            log.info("%d tables open or playing (each loaded on its first use)", n)
        if await hub.check_storage() is not None:
            log.error("the database takes no writes: %s", hub.storage_problem)
        hub.housekeeping()
        try:
            yield
        finally:
            await hub.close()
            db.close()

    app = FastAPI(title="pysaboteur", version="0.1.0", lifespan=lifespan,
                  description="Play the Saboteur card games: tables, seats, actions, views.")
    app.add_middleware(TextCheck)  # inside BodyLimit (added after: the outer one)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.state.db = db
    app.state.limits = limits

    def hub() -> Hub:
        return state["hub"]

    @app.exception_handler(Rejected)
    async def rejected(_request: Request, exc: Rejected) -> JSONResponse:
        return JSONResponse({"detail": exc.to_json()}, status_code=exc.status,
                            headers=exc.headers)

    # -- health ------------------------------------------------------------------------
    def health(status: str) -> Health:
        h = hub()
        owners = h.owners
        problem = h.storage_problem or (owners.problem if owners is not None else None)
        return Health(status=status, storage=problem or "ok",
                      checked=h.storage_checked, live_tables=len(h.live),
                      loaded_tables=len(h.tables),
                      process=owners.name if owners is not None else "")

    @app.get("/healthz", tags=["health"], response_model=Health)
    def healthz() -> Health:
        """Liveness: 200 while the process answers, whatever the database does
        (``storage`` says whether it takes writes)."""
        return health("ok")

    @app.get("/readyz", tags=["health"], response_model=Health, responses={
        503: {"model": Health, "description": "the database takes no writes (deleted, "
                                              "read-only, full or unreachable)"}})
    def readyz() -> JSONResponse:
        """Readiness: 200 while the database takes writes; 503 (``status``:
        ``unavailable``, ``storage``: why) from the moment a write or the periodic check
        (every ``--storage-check-interval`` seconds) fails until one succeeds again."""
        h = hub()
        ready = (h.storage_problem is None and not h.closing
                 and (h.owners is None or h.owners.problem is None))
        body = health("ready" if ready else "unavailable")
        return JSONResponse(body.model_dump(), status_code=200 if ready else 503)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """A request that does not fit the schema: 422 ``invalid`` in the body every refusal
        has (:class:`ErrorBody`), each problem's place and message in ``errors`` (the input
        is never echoed: nothing to encode but our own words)."""
        problems = [{"loc": [x if isinstance(x, int) else str(x) for x in e.get("loc", ())],
                     "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
                    for e in jsonable_encoder(exc.errors())]
        said = "; ".join(f"{'.'.join(str(x) for x in p['loc'])}: {p['msg']}"
                         for p in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        return JSONResponse({"detail": _encodable({
            "code": "invalid", "message": f"{said or 'the request is invalid'}{more}"[:500],
            "errors": problems[:20]})}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's own refusals in the body every refusal has: a body that is not JSON
        (400 ``bad-json``), no such path (404 ``not-found``), a method the path does not
        take (405 ``bad-method``, with every method it takes in ``Allow``)."""
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # the methods of the path the request names, all routes
            matching = [r for r in app.routes if isinstance(r, Route) and r.methods
                        and r.matches(request.scope)[0] != Match.NONE]
            path = matching[0].path_format if matching else None
            allowed = {m for r in matching if r.path_format == path for m in r.methods or ()}
            headers["Allow"] = ", ".join(sorted(allowed))
        code = {400: "bad-json", 404: "not-found", 405: "bad-method"}.get(exc.status_code,
                                                                         "refused")
        return JSONResponse({"detail": {"code": code, "message": safe_text(str(exc.detail))}},
                            status_code=exc.status_code, headers=headers)

    # -- games and cards -----------------------------------------------------------------
    @app.get("/api/games", tags=["games"])
    def games() -> list[dict[str, Any]]:
        """Every game of the registry with its player range, default options and
        ``options_schema``: one entry per option a table of it takes, ``{"name", "type":
        "bool"|"int"|"choice", "default", "min"?, "max"?, "choices"?, "seat"?}`` (``seat``:
        an integer naming a seat, at most the table's player count - 1).  Creating a table
        checks its options against the same declarations."""
        out = []
        for entry in GAMES.values():
            try:
                options = make_game(entry.name).options
            except Exception:  # a game still being written: list it without options
                continue
            out.append({"name": entry.name, "title": entry.title, "min_players": entry.players[0],
                        "max_players": entry.players[1], "default_players": entry.default_players,
                        "options": options.to_json(),
                        "options_schema": type(options).schema(entry.players)})
        return out

    @app.get("/api/difficulties", tags=["games"])
    def difficulties() -> dict[str, str]:
        """Each bot difficulty and the bot that plays it on this server."""
        return {d: bot_for(d) for d in DIFFICULTIES}

    @app.get("/api/games/{game}/cards", tags=["games"], responses=refusals(404, 422))
    def cards(game: str) -> JSONResponse:
        """Every card of a game: data, SVG fragment (and the turned one), the card backs."""
        if game not in GAMES:
            raise Rejected(404, "no-game", f"unknown game {game!r}")
        try:
            payload = cards_payload(game)
        except Exception as exc:
            raise Rejected(404, "no-game", f"{game} cannot be played here yet") from exc
        return JSONResponse(payload, headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/api/games/{game}/cards/{code}.svg", tags=["games"],
             responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}},
                              "description": "the card as an SVG image"},
                        **refusals(404, 422)})
    def card_image(game: str, code: str, rotated: bool = False) -> Response:
        """One card as a standalone SVG image."""
        if game not in GAMES:
            raise Rejected(404, "no-game", f"unknown game {game!r}")
        cat = make_game(game).catalogue
        if code not in cat:
            raise Rejected(404, "no-card", f"no card {code!r} in {game}")
        return Response(svg.card_svg(cat, code, rotated), media_type="image/svg+xml")

    # -- languages ---------------------------------------------------------------------------
    @app.get("/api/i18n", tags=["i18n"], responses=refusals(422))
    def languages(accept_language: str | None = Header(None)) -> dict[str, Any]:
        """The languages spoken here and the one the browser's Accept-Language prefers."""
        return {"languages": list(LANGUAGES), "preferred": pick_language(accept_language)}

    @app.get("/api/i18n/{lang}", tags=["i18n"], responses=refusals(404, 422))
    def language(lang: str) -> dict[str, Any]:
        if lang not in LANGUAGES:
            raise Rejected(404, "no-language", f"languages: {', '.join(LANGUAGES)}")
        return translations(lang)

    # -- tables ------------------------------------------------------------------------------
    @app.get("/api/tables", tags=["tables"], responses={
        200: {"description": "a page of the lobby", "headers": {"X-Total-Count": {
            "description": "how many tables the lobby holds in all",
            "schema": {"type": "integer"}}}},
        **refusals(422, 503)})
    async def lobby(
        response: Response,
        offset: int = Query(0, ge=0, description="how many tables to skip"),
        limit: int = Query(min(50, limits.lobby_page or 100), ge=1,
                           le=limits.lobby_page or 100,
                           description="how many tables to list at most"),
    ) -> list[dict[str, Any]]:
        """The lobby: public tables that have not started, newest first, a page of them
        (``offset``, ``limit``: at most the server's ``--lobby-page``); the header
        ``X-Total-Count`` says how many there are in all."""
        total, page = await hub().lobby(offset, limit)
        response.headers["X-Total-Count"] = str(total)
        return page

    @app.post("/api/tables", tags=["tables"], response_model=Created, status_code=201,
              responses=refusals(*POSTED, 403, 429, 503))
    async def create(body: CreateTable, request: Request) -> Created:
        """Create a table; the answer holds the host token and a link for each seat: a human
        seat's private link (``/#/t/<id>/<token>``, for that seat's player only), an open
        seat's join link (``/#/join/<id>``: no token, whoever opens it takes a free seat of
        the table with ``POST /api/tables/{id}/join``, listed in the lobby or not), none for
        a bot.  Options are checked against the game's ``options_schema``
        (``GET /api/games``): 422 ``bad-options`` names what is wrong.  Refused with 429
        ``rate-limited`` past ``--tables-per-minute`` from one address, with 503
        ``too-many-tables`` past ``--max-open-tables`` (both with ``Retry-After``)."""
        table, host, tokens = await hub().create(
            body.game, body.players, body.options, [s.model_dump() for s in body.seats],
            public=body.public, start=body.start, seed=body.seed,
            client=request.client.host if request.client else "", hints=body.hints)
        seats = [SeatLink(seat=i, kind=s.kind, token=tokens[i],
                          link=_seat_link(table.id, s.kind, tokens[i]))
                 for i, s in enumerate(table.seats)]
        return Created(id=table.id, host_token=host, seats=seats, table=table.info())

    @app.post("/api/tables/mine", tags=["tables"], response_model=list[MyTable],
              responses=refusals(*POSTED, 503))
    async def mine(body: MineIn) -> list[MyTable]:
        """"My tables": for each ``{"id", "token"}`` (at most 50) whose token holds a seat at
        that table, what that seat sees of it at a glance: its status, round, whose turn it
        is, the seats' names.  Entries whose table is unknown or whose token holds no seat
        there are left out silently (nothing can be probed); the same table twice counts
        once.  More than 50 entries: 422 ``too-many``."""
        if len(body.seats) > MAX_MINE:
            raise Rejected(422, "too-many", f"ask for at most {MAX_MINE} tables at once, "
                                            f"not {len(body.seats)}")
        found = await hub().mine([(s.id, s.token) for s in body.seats])
        return [MyTable(**entry) for entry in found]

    @app.get("/api/tables/{table_id}", tags=["tables"],
             responses=refusals(403, 404, 422, 503))
    async def table_state(table_id: str,
                          x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """What the seat of ``X-Seat-Token`` sees now (no token: the spectators' view).
        A finished table is shown to spectators while it is in memory; once evicted, only
        to a token of its seats or its host (else 404)."""
        table = await hub().get(table_id, x_seat_token)
        seat = table.seat_of(x_seat_token)
        if x_seat_token and seat is None and not table.is_host(x_seat_token):
            raise Rejected(403, "bad-token", "this token holds no seat at this table")
        if seat is None and table.is_host(x_seat_token):  # the host also learns the rematch
            return hub().message_for(table, None, private=True)
        # the message the seat's sockets get, built once per (index, seat): polling costs
        # no view per request
        return hub().state_out(table, seat).message

    @app.get("/api/tables/{table_id}/record", tags=["tables"], responses={
        200: {"description": "the match record (format pysaboteur-record, as a download)",
              "content": {"application/json": {"schema": {"type": "object"}}}},
        **refusals(403, 404, 422, 503)})
    async def record(table_id: str) -> JSONResponse:
        """The match record once the match is over: the JSON document that ``saboteur check
        FILE`` and ``saboteur replay FILE`` read (format ``pysaboteur-record``: game,
        options, seed, the deal, seats, every action, each round's results with its hidden
        facts, the final scores).  Anyone may download it once the match is over, to check
        that the deal was fair; before the end 403 ``not-finished``: the seed and the order
        of every card are secret until then."""
        table = await hub().get(table_id, record=True)
        if table.status != "finished" or not table.state.is_terminal:
            raise Rejected(403, "not-finished", "the record is shown once the match is over "
                                                "(it holds the seed and every card's place)")
        return JSONResponse(table.record(), headers={
            "Content-Disposition": f'attachment; filename="pysaboteur-{table.id}.json"'})

    @app.post("/api/tables/{table_id}/start", tags=["tables"], response_model=Acked,
              responses=refusals(*POSTED, 403, 404, 409, 503))
    async def start(table_id: str, x_seat_token: str | None = Header(None)) -> Acked:
        """Start the table (the host's token)."""
        table = await hub().get(table_id, x_seat_token)
        await hub().start(table, x_seat_token)
        return Acked(index=table.index)

    @app.post("/api/tables/{table_id}/join", tags=["tables"], response_model=Joined,
              responses=refusals(*POSTED, 404, 409, 503))
    async def join(table_id: str, body: Join) -> Joined:
        """Take a free (open) seat of a table, public or not, that has not finished: what an
        open seat's join link (``/#/join/<id>``) does.  The answer is that seat's private
        token and link; 409 ``full`` when no seat is free, ``finished`` after the match."""
        table = await hub().get(table_id)
        seat, token = await hub().join(table, body.name)
        return Joined(id=table.id, seat=seat, token=token, link=_link(table.id, token))

    @app.post("/api/tables/{table_id}/actions", tags=["tables"], response_model=Acked,
              responses=refusals(*POSTED, 403, 404, 409, 503))
    async def act(table_id: str, body: ActionIn,
                  x_seat_token: str | None = Header(None)) -> Acked:
        """Play an action for the seat of ``X-Seat-Token`` (refused unless legal now)."""
        table = await hub().get(table_id, x_seat_token)
        seat = table.seat_of(x_seat_token)
        if seat is None:
            raise Rejected(403, "bad-token", "acting needs your seat's token")
        index = await hub().act(table, seat, body.action, body.index)
        return Acked(index=index)

    @app.post("/api/tables/{table_id}/hint", tags=["tables"], response_model=HintOut,
              responses=refusals(*POSTED, 403, 404, 409, 429, 503))
    async def hint(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """"Suggest a move": the hard bot's choice for the seat of ``X-Seat-Token``, worked
        out from that seat's view only (never the hidden facts), with a one-line reason from
        its search.  Only the seat whose turn it is (403 ``not-your-turn``; no seat: 403
        ``not-seated`` or ``bad-token``), only while playing (409 ``not-started``,
        ``game-over``, ``abandoned``), only at a table created with ``hints`` (403
        ``no-hints``).  The same position gives the same hint, cached: asking again costs
        nothing; at most ``--hints-per-minute`` worked out per seat (429 ``rate-limited``),
        one at a time (409 ``busy``)."""
        table = await hub().get(table_id, x_seat_token)
        return await desks["hints"].ask(table, x_seat_token)

    @app.post("/api/tables/{table_id}/rematch", tags=["tables"], response_model=TableId,
              responses=refusals(*POSTED, 403, 404, 409, 503))
    async def rematch(table_id: str, x_seat_token: str | None = Header(None)) -> TableId:
        """A new match with the same seats; seat tokens stay valid at the new table."""
        table = await hub().get(table_id, x_seat_token)
        new = await hub().rematch(table, x_seat_token)
        # the rematch table is private: its id goes to the seats (and the host, here), never
        # to spectators
        hub().tell_seated(table, {"type": "rematch", "table": new.id})
        return TableId(id=new.id)

    # -- the WebSocket ------------------------------------------------------------------------
    @app.websocket("/api/tables/{table_id}/ws")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        limits = hub().limits
        try:
            hello = await asyncio.wait_for(_receive(ws, limits.max_message), limits.hello_timeout)
        except (TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(code=4408)
            return
        if isinstance(hello, Rejected) or hello.get("type") != "hello":
            await _refuse(ws, 4400, "no-hello", 'first send {"type": "hello", "token": ...}')
            return
        token = hello.get("token")
        try:  # after the hello: an evicted finished table comes back for its seats' tokens
            table = await hub().get(table_id, token if isinstance(token, str) else None)
        except Rejected as exc:
            await _refuse(ws, 4404 if exc.status == 404 else 1013, exc.code, exc.message)
            return
        seat = table.seat_of(token) if isinstance(token, str) else None
        if token and seat is None and not table.is_host(token if isinstance(token, str) else ""):
            await _refuse(ws, 4403, "bad-token", "this token holds no seat at this table")
            return
        client = ws.client.host if ws.client else ""
        conn = Connection(seat, ws.send_text, _closer(ws), client=client, limits=limits)
        try:
            hub().subscribe(table, conn)
        except Rejected as exc:
            await _refuse(ws, 4429, exc.code, exc.message)
            return
        try:
            while conn.dead is None:
                msg = await _next(ws, conn, limits.max_message)
                if not conn.allow():
                    if conn.flooding:
                        conn.drop(4429, "flood", "too many messages: closed")
                        break
                    conn.push({"type": "error", "code": "rate",
                               "message": f"at most {limits.ws_rate:g} messages a second "
                                          "(this one was not read)"}, key="rate")
                    continue
                if isinstance(msg, Rejected):
                    conn.push({"type": "error", **msg.to_json()})
                    continue
                kind = msg.get("type")
                if kind == "ping":
                    conn.push({"type": "pong"})
                elif kind == "action":
                    try:
                        index = await hub().act(table, seat, msg.get("action"), msg.get("index"))
                        conn.push({"type": "ack", "index": index})
                    except Rejected as exc:
                        echo = safe_text(str(msg.get("action"))[:200])
                        conn.push({"type": "error", "action": echo, **exc.to_json()})
                elif kind == "state":
                    conn.push(hub().state_out(table, seat), key="state")
                else:
                    conn.push({"type": "error", "code": "bad-message",
                               "message": "messages are hello, action, state or ping"})
        except (WebSocketDisconnect, Dropped):
            pass
        finally:
            await hub().unsubscribe(table, conn)

    add_tutorial_routes(app, hub)
    add_puzzle_routes(app)

    # -- the browser client ---------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


class TutorialMove(BaseModel):
    move: str = Field(..., max_length=200, description="the learner's move in notation")


def add_tutorial_routes(app: FastAPI, hub: Callable[[], Hub]) -> None:
    """The tutorials' routes (``pysaboteur.tutorials.web``): a session per learner, in
    memory; the free round afterwards is an ordinary table against easy bots."""
    from ..tutorials import tutorial as tutorial_of
    from ..tutorials.web import TutorialDesk

    desk = app.state.tutorials = TutorialDesk()

    @app.get("/api/tutorials", tags=["tutorials"])
    def tutorials() -> list[dict[str, Any]]:
        """The games that have a tutorial, with its title in every language."""
        return desk.listing()

    @app.post("/api/tutorials/{game}", tags=["tutorials"], status_code=201,
              responses=refusals(*POSTED, 404, 429))
    def tutorial_start(game: str, request: Request) -> dict[str, Any]:
        """Start ``game``'s tutorial: the answer holds the session's secret ``id``, the
        step's texts (en, de, nl) and ``msg``, the learner's state message (a table's
        shape); the bots' moves come from the script.  At most ``--tables-per-minute``
        new tutorials a minute from one address (429 ``rate-limited``)."""
        client = request.client.host if request.client else ""
        return desk.create(game, client, hub().limits.tables_per_minute)

    @app.get("/api/tutorials/session/{sid}", tags=["tutorials"], responses=refusals(404, 422))
    def tutorial_state(sid: str) -> dict[str, Any]:
        """The session's current step and state."""
        return desk.state(sid)

    @app.post("/api/tutorials/session/{sid}/moves", tags=["tutorials"],
              responses=refusals(*POSTED, 404))
    def tutorial_move(sid: str, body: TutorialMove) -> dict[str, Any]:
        """Try the learner's move: taken (the scripted replies played) or refused, with
        ``outcome.explain`` (the engine's own reason for an illegal move)."""
        return desk.move(sid, body.move)

    @app.post("/api/tutorials/session/{sid}/free", tags=["tutorials"], status_code=201,
              responses=refusals(*POSTED, 403, 404, 409, 429, 503))
    async def tutorial_free(sid: str, request: Request) -> dict[str, Any]:
        """After the tutorial: a free round at a private table against easy bots; the
        answer is the learner's table link (``/#/t/<id>/<token>``)."""
        runner = desk.get(sid)
        if not runner.done:
            raise Rejected(409, "not-done", "finish the tutorial first")
        script = tutorial_of(runner.tutorial.game)
        entry = GAMES[script.game]
        n = script.free_players or entry.default_players
        seats = [{"kind": "human"}] + [{"kind": "bot", "difficulty": "easy"}] * (n - 1)
        table, _host, tokens = await hub().create(
            script.game, n, {}, seats, public=False, start=True,
            client=request.client.host if request.client else "", hints=False)
        token = tokens[0] or ""
        desk.forget(sid)
        return {"id": table.id, "token": token, "link": _link(table.id, token)}


class PuzzleAnswer(BaseModel):
    answer: list[str] = Field(..., max_length=10, description="the solver's moves in "
                              "notation, in order, or one cell \"x,y\" (where is the gold?)")


def add_puzzle_routes(app: FastAPI) -> None:
    """The puzzles' routes (``pysaboteur.puzzles``): the list, one puzzle as its solver
    sees it (never the solution or another hidden fact), and checking an answer."""
    from ..puzzles import check as puzzle_check
    from ..puzzles import get as puzzle_of
    from ..puzzles import puzzles
    from .tables import action_json, view_json

    def find(puzzle_id: str) -> Any:
        try:
            return puzzle_of(puzzle_id)
        except KeyError:
            raise Rejected(404, "no-puzzle", f"no puzzle {puzzle_id[:40]!r}") from None

    @app.get("/api/puzzles", tags=["puzzles"])
    def puzzle_list() -> list[dict[str, Any]]:
        """Every puzzle: id, game, kind, moves, title and goal in every language."""
        return [p.summary() for p in puzzles()]

    @app.get("/api/puzzles/{puzzle_id}", tags=["puzzles"], responses=refusals(404, 422))
    def puzzle_get(puzzle_id: str) -> dict[str, Any]:
        """The puzzle as its solver sees it: the solver's view and legal moves, and what
        the puzzle tells (the gold's cell, a hand shown); never the solution."""
        puzzle = find(puzzle_id)
        state = puzzle.state()
        data = puzzle.public()
        data["view"] = view_json(state.view(puzzle.seat))
        data["legal"] = [action_json(a) for a in state.legal_actions()]
        return _encodable(data)  # type: ignore[no-any-return]

    @app.post("/api/puzzles/{puzzle_id}/answer", tags=["puzzles"],
              responses=refusals(*POSTED, 404))
    def puzzle_answer(puzzle_id: str, body: PuzzleAnswer) -> dict[str, Any]:
        """Check an answer: ``right``, ``reason`` (``solved``, ``illegal``, ``not-reached``,
        ``not-stopped``, ``wrong-cell``, ...), ``detail`` (the engine's reason, the reply
        that still reaches the gold...) and ``text`` (in English)."""
        puzzle = find(puzzle_id)
        if any(len(a) > 200 for a in body.answer):
            raise Rejected(422, "too-long", "a move is at most 200 characters")
        verdict = puzzle_check(puzzle, body.answer)
        return {**verdict.to_json(), "text": verdict.text()}


async def _receive(ws: WebSocket, limit: int) -> dict[str, Any] | Rejected:
    """The next JSON message, or a :class:`Rejected` for an oversized, malformed or
    unencodable one (a lone surrogate anywhere: refused, never echoed)."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    if text is None:
        data = msg.get("bytes") or b""
        if len(data) > limit:
            return Rejected(413, "too-large", f"messages are at most {limit} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return Rejected(400, "bad-json", "messages are JSON text")
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        return Rejected(413, "too-large", f"messages are at most {limit} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return Rejected(400, "bad-json", "that message is not JSON")
    if not isinstance(data, dict):
        return Rejected(400, "bad-json", "a message is a JSON object")
    if lone_surrogate(data):
        return Rejected(400, "bad-text", "a message's text must be valid Unicode "
                                         "(a lone surrogate such as \\ud800 is not)")
    return data


async def _next(ws: WebSocket, conn: Connection, limit: int) -> dict[str, Any] | Rejected:
    """The next message of ``ws``, unless the server drops ``conn`` first (:class:`Dropped`)."""
    receiving = asyncio.ensure_future(_receive(ws, limit))
    waiting: set[asyncio.Future[Any]] = {receiving, conn.dropped}
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    if not receiving.done():
        receiving.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await receiving
        raise Dropped
    return receiving.result()


def _closer(ws: WebSocket) -> Callable[[int, str], Awaitable[None]]:
    async def close(code: int, reason: str) -> None:
        await ws.close(code=code, reason=reason)
    return close


async def _refuse(ws: WebSocket, code: int, error: str, message: str) -> None:
    """An error message, then the close code, to a socket that is not subscribed."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(5):
            await ws.send_text(encode({"type": "error", "code": error, "message": message}))
            await ws.close(code=code, reason=error)


class StartError(Exception):
    """The server cannot start (``str()``: one line for the operator)."""


def open_storage(database_url: str | None) -> str:
    """Check before serving that the database opens and takes writes; the URL (its
    password hidden) for the start-up line, else :class:`StartError` with one line."""
    try:
        db = Database(database_url)
    except StorageError as exc:
        raise StartError(str(exc)) from exc
    try:
        problem = db.check()
    finally:
        db.close()
    if problem is not None:
        raise StartError(f"the database {db.safe_url} takes no writes (read-only?): {problem}")
    return db.safe_url


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None,
          bot_delay: float = 0.6, open_browser: bool = False, allow_seed: bool = False,
          log_level: str = "info", limits: Limits | None = None, cluster: bool = False,
          takeover_timeout: float = 5.0, forwarded_allow_ips: str = "127.0.0.1") -> None:
    """Run the server with uvicorn until interrupted; :class:`StartError` (one line) when
    its database cannot be opened or takes no writes.  ``cluster``: one of several
    processes sharing PostgreSQL (docs/deploy.md); ``forwarded_allow_ips``: the proxies
    whose X-Forwarded-For / X-Forwarded-Proto are believed (the client's address counts
    against the per-address limits)."""
    import uvicorn

    open_storage(database_url)
    try:
        app = create_app(database_url, bot_delay=bot_delay, allow_seed=allow_seed,
                         limits=limits, cluster=cluster, takeover_timeout=takeover_timeout)
    except StorageError as exc:
        raise StartError(str(exc)) from exc
    if cluster and not log.handlers:  # who took over or handed over which table, and when
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    url = f"http://{'localhost' if host in ('0.0.0.0', '::', '127.0.0.1') else host}:{port}/"
    print(f"pysaboteur server on {url}  (database: {app.state.db.safe_url})", flush=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, log_level=log_level,
                proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips)
