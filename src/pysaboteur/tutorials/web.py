"""The browser face's server side: tutorial sessions in memory.

A session is one learner in one tutorial (:class:`~.runner.Runner`); its id is a secret
(whoever holds it plays it).  Each answer is the page's whole picture: the step's texts
(every language), the last move's outcome and a state message of the same shape as a
table's (``{"type": "state", "seat", "index", "table", "view", "legal"}``), so that the
browser draws the board with the table page itself.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict, deque
from typing import Any

from ..registry import GAMES
from ..web.tables import Rejected, action_json, view_json
from . import games, tutorial
from .runner import Outcome, Runner

#: sessions kept at once (the least recently used goes first) and their idle lifetime
MAX_SESSIONS = 500
IDLE_SECONDS = 6 * 3600
#: the longest move text read
MAX_MOVE = 200


class TutorialDesk:
    """Every tutorial session of one server."""

    def __init__(self, max_sessions: int = MAX_SESSIONS) -> None:
        self.max_sessions = max_sessions
        self.sessions: OrderedDict[str, tuple[Runner, float]] = OrderedDict()
        #: per client address, when it started its sessions of the last minute
        self.started: dict[str, deque[float]] = {}

    def listing(self) -> list[dict[str, Any]]:
        return [{"game": g, "title": dict(tutorial(g).title), "steps": len(tutorial(g).steps)}
                for g in games()]

    def create(self, game: str, client: str | None = None, per_minute: int = 0
               ) -> dict[str, Any]:
        """A new session; at most ``per_minute`` a minute from one ``client`` address (0: no
        limit), so that one client cannot push every other learner's session out."""
        if game not in games():
            raise Rejected(404, "no-tutorial", f"no tutorial for {game!r}; choose from "
                                               f"{', '.join(games())}")
        self._admit(client, per_minute)
        self._prune()
        sid = secrets.token_urlsafe(12)
        runner = Runner(tutorial(game))
        self.sessions[sid] = (runner, time.monotonic())
        return self.payload(sid, runner, None)

    def get(self, sid: str) -> Runner:
        found = self.sessions.get(sid)
        if found is None:
            raise Rejected(404, "no-tutorial-session", "this tutorial is over or unknown: "
                                                       "start it again")
        self.sessions[sid] = (found[0], time.monotonic())
        self.sessions.move_to_end(sid)
        return found[0]

    def state(self, sid: str) -> dict[str, Any]:
        return self.payload(sid, self.get(sid), None)

    def move(self, sid: str, text: Any) -> dict[str, Any]:
        runner = self.get(sid)
        if not isinstance(text, str) or not text or len(text) > MAX_MOVE:
            raise Rejected(422, "bad-notation", "a move is a text in notation")
        out = runner.move(text)
        return self.payload(sid, runner, out)

    def _admit(self, client: str | None, per_minute: int) -> None:
        if client is None or not per_minute:
            return
        now = time.monotonic()
        for known in [c for c, t in self.started.items() if not t or t[-1] <= now - 60]:
            del self.started[known]  # forget addresses quiet for a minute
        times = self.started.setdefault(client, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= per_minute:
            wait = max(1, int(times[0] + 60 - now + 0.999))
            raise Rejected(429, "rate-limited", f"at most {per_minute} new tutorials a minute "
                                                f"from one address; try again in {wait} s",
                           headers={"Retry-After": str(wait)})
        times.append(now)

    def forget(self, sid: str) -> None:
        self.sessions.pop(sid, None)

    def _prune(self) -> None:
        now = time.monotonic()
        while self.sessions:
            sid, (_runner, used) = next(iter(self.sessions.items()))
            if len(self.sessions) < self.max_sessions and now - used < IDLE_SECONDS:
                break
            del self.sessions[sid]

    @staticmethod
    def payload(sid: str, runner: Runner, out: Outcome | None) -> dict[str, Any]:
        t = runner.tutorial
        step = runner.step
        return {
            "id": sid, "game": t.game, "title": dict(t.title), "intro": dict(t.intro),
            "step": runner.step_no, "steps": len(t.steps), "done": runner.done,
            "say": dict(step.say) if step else None,
            "then": dict(runner.last_then) if runner.last_then else None,
            "outro": dict(t.outro) if runner.done else None,
            "suggested": runner.suggested(),
            "outcome": out.to_json() if out else None,
            "msg": state_message(sid, runner),
        }


def state_message(sid: str, runner: Runner) -> dict[str, Any]:
    """The learner's state message, shaped as a table's (``Hub.message_for``)."""
    state = runner.state
    seat = runner.seat
    tut = runner.tutorial
    n = state.game.players
    mine = not runner.done and not state.is_terminal and state.current_player == seat
    legal = [action_json(a) for a in state.legal_actions()] if mine else []
    entry = GAMES.get(tut.game)
    seats = [{"seat": i, "name": None, "kind": "human" if i == seat else "bot",
              "difficulty": None if i == seat else "easy",
              "bot": None if i == seat else "tutorial", "claimed": True, "connected": True}
             for i in range(n)]
    table = {"id": f"tutorial-{sid}", "game": tut.game,
             "title": entry.title if entry else tut.game, "players": n,
             "options": state.game.options.to_json(),
             "status": "finished" if state.is_terminal else "playing",
             "public": False, "hints": False, "index": len(state.history), "rematch_of": None,
             "current_player": state.current_player, "seats": seats, "free_seats": 0,
             "rematch_next": None, "tutorial": True}
    return {"type": "state", "seat": seat, "index": len(state.history), "table": table,
            "view": view_json(state.view(seat)), "legal": legal}
