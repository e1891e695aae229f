"""History features: what each seat has done in public, read from the view's log.

A seat's view holds the public log (every move as the seat saw it: other seats'
passes and discards face down, its own in full) and the results of earlier rounds.
:class:`History` turns them into two fixed-size tensors:

* :meth:`History.features` - ``(players + 1, len(columns))`` ``float32``: row ``r`` is
  relative seat ``r`` (0 = the observing seat), the last row is the table.  Per seat,
  counted over this round (``round:*``; the Duel's view does not say where a round
  starts, so there it is the match) and over the match (``match:*``):

  * ``moves:<Family>`` - moves of each kind (``PlacePath``, ``PlayOnPlayer``, ``Pass``...);
  * ``played:<card>`` - cards laid or played face up, by kind (path cards, rockfalls,
    maps, doors, trolls, crystals...);
  * ``aimed:<card>>rel<t>`` - seat-aimed cards (tools broken and repaired, thefts, hand
    swaps, inspections, information...) by kind and target, the target relative to the
    *observing* seat;
  * ``dead_ends`` - path cards laid that join no two of their edges;
  * ``passed`` - cards put face down (passes and discards), ``removed:<card>`` - cards
    taken from in front of the seat by discarding two;

  and ``role_r<k>:<role>`` - its role (dwarf card; Lost Mines: loyal / selfish /
  saboteur) in earlier round ``k``, from the round results every seat is shown.  The
  table row holds ``discards:<card>``: the face-up discards of this round by kind.

* :meth:`History.rows` - the whole log as ``(max_moves, ROW)`` ``float32`` rows, one per
  move, in order (OpenSpiel's information-state tensor): see :data:`ROW_FIELDS`.

Both are built from the view alone (the log's text is parsed with the move notation),
so they hold nothing the seat cannot know (tested by re-dealing hidden worlds).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..engine.actions import Discard, Move, Pass, PlacePath, PlayOnPlayer
from ..engine.notation import parse_action
from .encoding import Encoding
from .factored import FACTORS, FactoredActions

#: the fields of one row of :meth:`History.rows`
ROW_FIELDS = ("present", "actor", "masked", *FACTORS, "cards", "cell2", "cell3", "cell4",
              "cell5")
ROW = len(ROW_FIELDS)
_MASKED_PASS = re.compile(r"^pass (\d+)$")
_MASKED_DISCARD = re.compile(r"^discard (\d+) -(\S+)$")
#: the role names of a game's round results, when they are not its role cards
_ROLES = {"lost-mines": ("loyal", "selfish", "saboteur")}
_CACHE_BOUND = 200_000


class History:
    """History features and rows of one encoding."""

    def __init__(self, encoding: Encoding, factored: FactoredActions | None = None) -> None:
        from ..registry import game_key

        self.encoding = encoding
        self.factored = factored or FactoredActions.of(encoding)
        cat = encoding.cat
        n = encoding.players
        self.players = n
        fams = tuple("Move" if f == "Route" else f for f in self.factored.families)
        self.families = fams
        codes = list(encoding.hand_codes)
        aimed = sorted({k.card for k in encoding.keys if type(k).__name__ == "PlayOnPlayer"})
        front = list(encoding.front_codes)
        roles = _ROLES.get(game_key(encoding.game)) or tuple(
            k.code for k in cat.kinds if k.category == "role")
        self.roles = tuple(roles)
        block = [f"moves:{f}" for f in fams] + [f"played:{c}" for c in codes]
        block += [f"aimed:{c}>rel{t}" for c in aimed for t in range(n)]
        block += ["dead_ends", "passed"] + [f"removed:{c}" for c in front]
        cols = [f"round:{c}" for c in block] + [f"match:{c}" for c in block]
        cols += [f"role_r{k}:{r}" for k in range(encoding.max_rounds) for r in roles]
        cols += [f"discards:{c}" for c in codes if f"discards:{c}" not in cols]
        self.columns = tuple(cols)
        self.shape = (n + 1, len(cols))
        self.block = len(block)
        at = {c: i for i, c in enumerate(cols)}
        self._fam = {f: at[f"round:moves:{f}"] for f in fams}
        self._played = {c: at[f"round:played:{c}"] for c in codes}
        self._aimed = {c: at[f"round:aimed:{c}>rel0"] for c in aimed}
        self._dead_end_col = at["round:dead_ends"]
        self._passed_col = at["round:passed"]
        self._removed = {c: at[f"round:removed:{c}"] for c in front}
        self._role = {(k, r): at[f"role_r{k}:{r}"] for k in range(encoding.max_rounds)
                      for r in roles}
        self._discard = {c: at[f"discards:{c}"] for c in codes}
        self.dead_ends = frozenset(
            k.code for k in cat.kinds if k.category == "path" and k.tile is not None
            and k.tile.segments and all(bin(seg).count("1") < 2 for seg in k.tile.segments))
        self._parsed: dict[str, Any] = {}
        self._rows: dict[tuple[int, int, str], np.ndarray] = {}

    # ------------------------------------------------------------------ parsing
    def parse(self, text: str) -> Any:
        """A log entry as an action, or ``("pass", n)`` / ``("discard", n, removed)`` for
        a move seen face down."""
        got = self._parsed.get(text)
        if got is None:
            if m := _MASKED_PASS.match(text):
                got = ("pass", int(m[1]))
            elif m := _MASKED_DISCARD.match(text):
                got = ("discard", int(m[1]), m[2])
            else:
                got = parse_action(text, self.encoding.cat)
            if len(self._parsed) > _CACHE_BOUND:
                self._parsed.clear()
            self._parsed[text] = got
        return got

    # ------------------------------------------------------------------ features
    def features(self, view: Any, seat: int | None = None,
                 memo: dict[int, Any] | None = None) -> np.ndarray:
        """The ``(players + 1, columns)`` history tensor of ``view`` seen from ``seat``.

        ``memo`` (a dict the caller keeps for one match and empties for the next) lets the
        counts of the moves already seen be kept, so a step costs only its new moves.
        """
        if seat is None:
            seat = view.seat if view.seat is not None else 0
        n = self.players
        log = view.log
        start = getattr(view, "round_start", 0)
        kept = memo.get(seat) if memo is not None else None
        if kept is not None and kept[0] <= len(log) and (kept[1] == start or start >= kept[0]):
            done, _, counts = kept
            if kept[1] != start:
                counts[:, :self.block] = 0
        else:
            done, counts = 0, np.zeros((n, 2 * self.block), dtype=np.float32)
        self._count(counts, log, done, start, seat)
        if memo is not None:
            memo[seat] = (len(log), start, counts)
        out = np.zeros(self.shape, dtype=np.float32)
        out[:n, :2 * self.block] = counts
        for k, result in enumerate(getattr(view, "results", ())):
            roles = result.get("roles") if isinstance(result, dict) else None
            if not roles:
                continue
            for s, role in enumerate(roles):
                col = self._role.get((k, role))
                if col is not None:
                    out[(s - seat) % n, col] = 1
        table = out[n]
        for code in getattr(view, "discards", ()):
            col = self._discard.get(code)
            if col is not None:
                table[col] += 1
        return out

    def _count(self, counts: np.ndarray, log: Any, done: int, start: int, seat: int) -> None:
        """Add the moves ``log[done:]`` to ``counts`` (per relative seat: round, match)."""
        n, b = self.players, self.block
        fam, played, aimed = self._fam, self._played, self._aimed
        passed = self._passed_col
        for i in range(done, len(log)):
            actor, text = log[i]
            row = counts[(actor - seat) % n]
            cols: list[int] = []
            k = 0  # cards put face down
            got = self.parse(text)
            if type(got) is tuple:  # seen face down
                k = got[1]
                cols.append(fam["Pass" if got[0] == "pass" else "Discard"])
                if got[0] == "discard" and got[2] in self._removed:
                    cols.append(self._removed[got[2]])
            else:
                t = type(got)
                cols.append(fam[t.__name__])
                card = getattr(got, "card", None)
                if card is not None:
                    if t is PlayOnPlayer and card in aimed:
                        cols.append(aimed[card] + (got.target - seat) % n)
                    elif card in played:
                        cols.append(played[card])
                    if t is PlacePath and card in self.dead_ends:
                        cols.append(self._dead_end_col)
                if t is Pass or t is Discard:
                    k = len(got.cards)
                    if t is Discard and got.remove in self._removed:
                        cols.append(self._removed[got.remove])
            now = i >= start
            if k:
                row[passed + b] += k
                if now:
                    row[passed] += k
            for c in cols:
                row[c + b] += 1
                if now:
                    row[c] += 1

    # ------------------------------------------------------------------ rows
    def row_of(self, actor: int, text: str, seat: int) -> np.ndarray:
        """One log entry as a row of :data:`ROW_FIELDS` (targets relative to the actor,
        the actor relative to ``seat``)."""
        got = self._rows.get((actor, seat, text))
        if got is None:
            if len(self._rows) > _CACHE_BOUND:
                self._rows.clear()
            got = self._rows[actor, seat, text] = self._row_of(actor, text, seat)
            got.flags.writeable = False
        return got

    def _row_of(self, actor: int, text: str, seat: int) -> np.ndarray:
        fa = self.factored
        enc = self.encoding
        row = np.zeros(ROW, dtype=np.float32)
        row[0] = 1
        row[1] = (actor - seat) % self.players
        f0 = 3  # where the factors start
        got = self.parse(text)
        if type(got) is tuple:
            row[2] = 1
            family = "Pass" if got[0] == "pass" else "Discard"
            row[f0] = fa.families.index(family)
            row[f0 + len(FACTORS)] = got[1]
            if family == "Discard":
                row[f0 + FACTORS.index("extra")] = next(
                    i for i, v in enumerate(fa.extra_values("Discard")) if v["remove"] == got[2])
            return row
        if type(got) is Move:
            win = enc.window
            cells = [(y - win.y0) * win.width + (x - win.x0) for x, y in got.route]
            row[f0] = fa.families.index("Route")
            row[f0 + FACTORS.index("cell")] = cells[0]
            for j, c in enumerate(cells[1:]):
                row[f0 + len(FACTORS) + 1 + j] = c + 1
            row[f0 + len(FACTORS)] = 0
            return row
        key = enc.key(got, actor)
        i = enc.index[type(key)][key]
        row[f0:f0 + len(FACTORS)] = fa.rows[i]
        row[f0 + len(FACTORS)] = len(getattr(got, "cards", ())) or (
            1 if getattr(got, "card", None) else 0)
        return row

    def rows(self, log: Any, seat: int, max_moves: int) -> np.ndarray:
        """The log as ``(max_moves, ROW)`` rows (zeros after the last move)."""
        if len(log) > max_moves:
            raise ValueError(f"the log has {len(log)} moves, more than {max_moves}")
        out = np.zeros((max_moves, ROW), dtype=np.float32)
        if log:
            out[:len(log)] = [self.row_of(actor, text, seat) for actor, text in log]
        return out
