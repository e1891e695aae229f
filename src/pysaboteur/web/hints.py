"""Hints: "suggest a move" asks the hard bot for its choice from the seat's own view.

:func:`suggest` is given the seat's view (``state.view(seat)``) and the legal actions,
never the state: what it suggests can depend on nothing the seat may not know.  Its bot's
randomness is seeded from the view alone (:func:`view_seed`), and its budget is a number
of iterations (never a time), so two states whose view for the seat is the same (the
other hands, the goals, the deck dealt otherwise) get the same hint on any machine.

:class:`HintDesk` answers ``POST /api/tables/{id}/hint``: only the seat whose turn it
is, only while playing, only at a table created with ``hints`` allowed; computed in the
hub's bot threads, at most one at a time per seat, cached per (table, index, seat) so
that asking again costs nothing, and at most ``Limits.hints_per_minute`` computed per
seat a minute.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..bots import IsmctsBot, make_bot
from ..engine.actions import Action
from ..engine.game import State
from .limits import Limits
from .tables import LiveTable, Rejected, action_json, bot_for, view_json

#: hints kept (per table, index and seat), the oldest forgotten first
CACHE_SIZE = 4096


@dataclass(frozen=True)
class Hint:
    """The hard bot's choice: ``legal[choice]``, with the search's numbers when it has them."""

    choice: int
    action: Action
    reason: str | None
    #: ISMCTS: {"visits": of the move chosen, "simulations": in all, "moves": searched}
    search: dict[str, int] | None = None


def view_seed(view: Any) -> int:
    """A seed made of the view alone (its JSON, keys sorted): the same view, the same seed."""
    text = json.dumps(view_json(view), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True)
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big") >> 1


class _Search(IsmctsBot):
    """The ISMCTS bot, keeping its search tree's root (its visit counts are the reason)."""

    root: Any = None

    def _iterate(self, root: Any, state: State) -> None:
        self.root = root
        super()._iterate(root, state)


def suggest(view: Any, legal: Sequence[Action], iterations: int | None = None) -> Hint:
    """The hard bot's choice among ``legal`` from ``view`` (seeded by :func:`view_seed`);
    ``iterations``: the search's budget (None: the hard bot's own per move)."""
    if not legal:
        raise ValueError("no legal action to suggest")
    legal = list(legal)
    if len(legal) == 1:
        return Hint(0, legal[0], "the only legal move")
    seed = view_seed(view)
    name = bot_for("hard")
    if name != "ismcts":
        action = make_bot(name, seed).choose(view, legal)
        return Hint(legal.index(action), action, None)
    bot = _Search(seed, iterations=iterations)
    action = bot.choose(view, legal)
    root = bot.root
    node = root.children.get(action) if root is not None else None
    if node is None or not bot.last_iterations:
        return Hint(legal.index(action), action, None)
    search = {"visits": node.visits, "simulations": bot.last_iterations,
              "moves": len(root.children)}
    share = round(100 * node.visits / bot.last_iterations)
    reason = (f"the most visited of {search['moves']} moves searched: {node.visits} of "
              f"{bot.last_iterations} simulations ({share}%)")
    return Hint(legal.index(action), action, reason, search)


def hint_json(hint: Hint, index: int) -> dict[str, Any]:
    """The answer of the hint route: the position ``index``, the move as in the legal list
    (``action_json``: text, kind, fields), its notation, its place in that list, the reason."""
    return {**action_json(hint.action), "index": index, "action": str(hint.action),
            "choice": hint.choice, "reason": hint.reason, "search": hint.search}


class HintDesk:
    """Hints for the seats of a hub's tables (see the module's docstring)."""

    def __init__(self, pool: Executor, limits: Limits | None = None,
                 cache_size: int = CACHE_SIZE) -> None:
        self.pool = pool
        self.limits = limits or Limits()
        self.cache_size = cache_size
        self.cache: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        #: the computation under way per (table, seat): its index and its future
        self.running: dict[tuple[str, int], tuple[int, asyncio.Future[Hint]]] = {}
        #: when each (table, seat) had a hint computed in the last minute
        self.asked: dict[tuple[str, int], deque[float]] = {}
        self.computed = 0  # hints computed (not answered from the cache)

    async def ask(self, table: LiveTable, token: str | None) -> dict[str, Any]:
        """The hint for the seat of ``token`` at the table's current position, or a
        :class:`Rejected` saying why not."""
        seat = table.seat_of(token)
        if seat is None:
            if token:
                raise Rejected(403, "bad-token", "this token holds no seat at this table")
            raise Rejected(403, "not-seated", "spectators get no hints; use your seat's link")
        state = table.state
        if table.status == "open":
            raise Rejected(409, "not-started", "the table has not started yet")
        if table.status == "abandoned":
            raise Rejected(409, "abandoned", "this table was closed: nobody played it")
        if table.status == "finished" or state.is_terminal:
            raise Rejected(409, "game-over", "the match is over")
        if not getattr(table, "hints", True):
            raise Rejected(403, "no-hints", "this table was created without hints")
        if state.current_player != seat:
            raise Rejected(403, "not-your-turn",
                           f"it is seat {state.current_player}'s turn, not yours")
        index = table.index
        key = (table.id, index, seat)
        found = self.cache.get(key)
        if found is not None:
            self.cache.move_to_end(key)
            return found
        under_way = self.running.get((table.id, seat))
        if under_way is not None:
            if under_way[0] == index:  # the same question: the same answer, computed once
                return hint_json(await asyncio.shield(under_way[1]), index)
            raise Rejected(409, "busy", "a hint for this seat is still being worked out")
        self._count(table.id, seat)
        view, legal = state.view(seat), state.legal_actions()
        iterations = self.limits.hint_iterations or None
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Hint] = loop.run_in_executor(
            self.pool, suggest, view, legal, iterations)
        place = (table.id, seat)
        self.running[place] = (index, future)

        def done(f: asyncio.Future[Hint]) -> None:  # whether or not the asker still waits
            if self.running.get(place, (None, None))[1] is f:
                del self.running[place]
            if not f.cancelled() and f.exception() is None:
                self.computed += 1
                self.cache[key] = hint_json(f.result(), index)
                while len(self.cache) > self.cache_size:
                    self.cache.popitem(last=False)

        future.add_done_callback(done)
        return hint_json(await asyncio.shield(future), index)

    def _count(self, table_id: str, seat: int) -> None:
        """Count one computed hint for the seat, or refuse it past ``hints_per_minute``
        (429 ``rate-limited`` with Retry-After)."""
        per_minute = self.limits.hints_per_minute
        if not per_minute:
            return
        now = time.monotonic()
        if len(self.asked) > self.cache_size:  # forget the seats that asked long ago
            for k in [k for k, times in self.asked.items() if not times or times[-1] <= now - 60]:
                del self.asked[k]
        times = self.asked.setdefault((table_id, seat), deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= per_minute:
            wait = max(1, int(times[0] + 60 - now + 0.999))
            raise Rejected(429, "rate-limited", f"at most {per_minute} hints a minute for one "
                                                f"seat; try again in {wait} s",
                           headers={"Retry-After": str(wait)})
        times.append(now)
