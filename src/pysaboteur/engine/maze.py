"""The maze: an unbounded grid of oriented tiles with incremental fit and reachability.

Cells are single integers so that every table is a flat ``dict[int, int]``
(cheap to copy, cheap to look up):

>>> c = cell(3, -1)
>>> xy(c), xy(c + DELTA[E]), xy(c + DELTA[N])
((3, -1), (4, -1), (3, -2))

The coordinate range is +-512 in each direction.  A maze is built from the
cards of one game (at most a few hundred), so it can never get there: for the
players the grid is unbounded.

What the maze keeps up to date on every change:

* ``cells``: face-up tiles, cell -> oriented tile id (see :class:`Catalogue`).
* ``hidden``: face-down cards (goals, mines), cell -> code.  They impose no fit
  constraint and let nothing through (common.md).
* ``constraint``: for every empty cell next to a face-up tile, the edges that
  must be open (low 4 bits) and closed (high 4 bits).  Fit is one table look-up.
* One *reach context* per passage rule set (a Duel player, the Saboteur team...).
  Each holds its sources (start, ladders), per-cell passage blocks, the set of
  reachable segments (cell -> bit mask of segment indexes) and ``reach_in``:
  for every cell without a face-up tile, the edges through which a reachable
  segment points into it.  A fitting tile placed on a cell with a non-zero
  ``reach_in`` is connected; a face-down goal with a non-zero ``reach_in`` is
  reached.  Placements push reachability forward; removals and passage changes
  recompute it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .actions import PlacePath, PlayOnCell
from .cards import Catalogue, derived
from .tiles import ALL_EDGES, EDGES, OPPOSITE, E, N, S, W

_STRIDE_BITS = 10
_OFFSET = 512
_LOW = (1 << _STRIDE_BITS) - 1
DELTA = {N: -1, E: 1 << _STRIDE_BITS, S: 1, W: -(1 << _STRIDE_BITS)}
_STEPS = tuple((edge, DELTA[edge], OPPOSITE[edge]) for edge in EDGES)
#: the steps out of a segment, by its edge mask: (delta, edge of the neighbour it enters)
_SEG_STEPS = tuple(tuple((delta, opposite) for edge, delta, opposite in _STEPS if seg & edge)
                   for seg in range(16))
_EDGE_TOWARD = {delta: edge for edge, delta, _ in _STEPS}  # a neighbour's offset -> its side
#: what a tile puts on its neighbours' fit constraints, by its open edges: (delta, the
#: neighbour's edge that must be open, or closed in the high 4 bits)
_FACING = tuple(tuple((delta, opposite if open_mask & edge else opposite << 4)
                      for edge, delta, opposite in _STEPS) for open_mask in range(16))

#: passage block flags (per reach context, per cell)
NO_ENTER = 1  # the tile cannot be entered at all (a locked door)
NO_LEAVE = 2  # the tile can be entered but not passed through (an unbribed troll)


def cell(x: int, y: int) -> int:
    return ((x + _OFFSET) << _STRIDE_BITS) | (y + _OFFSET)


def xy(c: int) -> tuple[int, int]:
    return (c >> _STRIDE_BITS) - _OFFSET, (c & _LOW) - _OFFSET


def neighbours(c: int) -> Iterator[tuple[int, int]]:
    """(edge, neighbouring cell) for the four sides of ``c``."""
    for edge, delta, _ in _STEPS:
        yield edge, c + delta


def around(cells: Iterable[int]) -> frozenset[int]:
    """The cells next to any of ``cells`` (where a ladder may not go, next to goals or gold)."""
    return frozenset(c + delta for c in cells for _, delta, _ in _STEPS)


class TilePlacements(dict[int, PlacePath]):
    """The ``PlacePath`` actions of one oriented tile, by cell, each made once."""

    def __init__(self, code: str, rotated: bool) -> None:
        super().__init__()
        self.code = code
        self.rotated = rotated

    def __missing__(self, c: int) -> PlacePath:
        action = self[c] = PlacePath(self.code, (c >> _STRIDE_BITS) - _OFFSET,
                                     (c & _LOW) - _OFFSET, self.rotated)
        return action


class Placements(dict[int, PlacePath]):
    """The ``PlacePath`` actions of one catalogue, each made once: ``table[c << 8 | otile]``,
    or by oriented tile, ``tiles[otile][c]`` (the same objects).

    Actions are values; looking one up is several times cheaper than making a
    NamedTuple, and listing legal moves makes thousands per second.
    """

    def __init__(self, cat: Catalogue) -> None:
        super().__init__()
        assert len(cat.codes) <= 256, "oriented tile ids fit in 8 bits"
        self.tiles = [TilePlacements(code, cat.otile[code, True] == t)
                      for t, code in enumerate(cat.codes)]

    def __missing__(self, key: int) -> PlacePath:
        action = self[key] = self.tiles[key & 255][key >> 8]
        return action


def placements_of(cat: Catalogue) -> Placements:
    """The shared :class:`Placements` table of ``cat``."""
    return derived(cat, Placements)


class CellActions(dict[int, PlayOnCell]):
    """The ``PlayOnCell`` actions of one card, each made once: ``table[c]``."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def __missing__(self, c: int) -> PlayOnCell:
        action = self[c] = PlayOnCell(self.code, (c >> _STRIDE_BITS) - _OFFSET,
                                      (c & _LOW) - _OFFSET)
        return action


_CELL_ACTIONS: dict[str, CellActions] = {}


def cell_actions_of(code: str) -> CellActions:
    """The shared :class:`CellActions` table of card ``code`` (codes name the same card
    in every game that has it)."""
    table = _CELL_ACTIONS.get(code)
    if table is None:
        table = _CELL_ACTIONS[code] = CellActions(code)
    return table


def _build_fit_table() -> tuple[tuple[bool, ...], ...]:
    table = []
    for constraint in range(256):
        need_open, need_closed = constraint & 15, constraint >> 4
        table.append(tuple((m & need_open) == need_open and not m & need_closed for m in range(16)))
    return tuple(table)


#: FITS[constraint][open_mask] -> does a tile with these open edges fit?
FITS = _build_fit_table()


class Maze:
    """Grid + fit constraints + reachability for ``contexts`` passage rule sets."""

    __slots__ = ("blocks", "cat", "cells", "constraint", "hidden", "order", "reach", "reach_in",
                 "sources", "version")

    def __init__(self, catalogue: Catalogue, contexts: int) -> None:
        self.cat = catalogue
        self.cells: dict[int, int] = {}
        self.hidden: dict[int, str] = {}
        self.constraint: dict[int, int] = {}
        #: face-up cells in the order they were placed (for "most recently placed")
        self.order: list[int] = []
        self.sources: list[dict[int, int]] = [{} for _ in range(contexts)]
        self.blocks: list[dict[int, int]] = [{} for _ in range(contexts)]
        self.reach: list[dict[int, int]] = [{} for _ in range(contexts)]
        self.reach_in: list[dict[int, int]] = [{} for _ in range(contexts)]
        #: bumped by every change made through these methods (callers may cache derived
        #: tables, such as sorted target cells, per version)
        self.version = 0

    def clone(self) -> Maze:
        new = Maze.__new__(Maze)
        new.cat = self.cat
        new.cells = self.cells.copy()
        new.hidden = self.hidden.copy()
        new.constraint = self.constraint.copy()
        new.order = self.order.copy()
        new.sources = [d.copy() for d in self.sources]
        new.blocks = [d.copy() for d in self.blocks]
        new.reach = [d.copy() for d in self.reach]
        new.reach_in = [d.copy() for d in self.reach_in]
        new.version = self.version
        return new

    def with_hidden(self, hidden: dict[int, str]) -> Maze:
        """A maze with other face-down cards on the same cells, sharing every other table
        with this one: only for a state that treats its maze as shared (copy-on-write) and
        clones it before any other change (a determinization deals the goals this way)."""
        assert hidden.keys() == self.hidden.keys()
        new = Maze.__new__(Maze)
        new.cat, new.cells, new.hidden = self.cat, self.cells, hidden
        new.constraint, new.order = self.constraint, self.order
        new.sources, new.blocks = self.sources, self.blocks
        new.reach, new.reach_in, new.version = self.reach, self.reach_in, self.version
        return new

    # ------------------------------------------------------------------ queries
    def fits(self, c: int, otile: int) -> bool:
        """Does ``otile`` fit on the empty cell ``c`` (every face-up neighbour agrees)?"""
        return FITS[self.constraint.get(c, 0)][self.cat.open_mask[otile]]

    def constraint_of(self, c: int) -> int:
        """The fit constraint the face-up neighbours put on ``c`` (also for a face-down card)."""
        value = 0
        open_mask = self.cat.open_mask
        for edge, delta, opposite in _STEPS:
            t = self.cells.get(c + delta)
            if t is not None:
                value |= edge if open_mask[t] & opposite else edge << 4
        return value

    def is_reachable(self, ctx: int, c: int) -> bool:
        """Is any segment of the face-up tile on ``c`` reachable in context ``ctx``?"""
        return c in self.reach[ctx]

    def occupied(self, c: int) -> bool:
        return c in self.cells or c in self.hidden

    def passages(self, c: int, s: int) -> list[tuple[int, int, int]]:
        """Where a walker on segment ``s`` of the face-up tile on ``c`` can step next.

        ``(edge, neighbour, segment)`` for every edge of the segment that meets a
        face-up neighbour's open opposite edge (the segment entered there), or a
        face-down card (segment -1: it can be entered, not passed).  This is the
        segment-level connectivity of :meth:`_spread`, one step at a time, for
        games whose pieces walk (The Lost Mines' pawns).
        """
        out = []
        cells, hidden, seg_of_edge = self.cells, self.hidden, self.cat.seg_of_edge
        seg = self.cat.segments[cells[c]][s]
        for edge, delta, opposite in _STEPS:
            if not seg & edge:
                continue
            n = c + delta
            t = cells.get(n)
            if t is not None:
                s2 = seg_of_edge[t][opposite]
                if s2 >= 0:
                    out.append((edge, n, s2))
            elif n in hidden:
                out.append((edge, n, -1))
        return out

    def reached_hidden(self) -> list[int]:
        """Face-down cells that some context reaches, ordered by x then y."""
        hidden = self.hidden.keys()
        for reach_in in self.reach_in:
            if not hidden.isdisjoint(reach_in):
                break
        else:  # the common case after a placement: nothing face down reached
            return []
        return sorted(set().union(*(hidden & r.keys() for r in self.reach_in)))

    # ------------------------------------------------------------------ changes
    def put_hidden(self, c: int, code: str) -> None:
        self.version += 1
        self.hidden[c] = code
        self.constraint.pop(c, None)

    def place(self, c: int, otile: int, blocks: Iterable[int] | None = None,
              source_for: Iterable[int] = ()) -> None:
        """Lay a face-up tile on ``c`` (empty or face-down) and update everything.

        ``blocks`` gives the tile's passage flags per context, ``source_for`` the
        contexts for which the tile is itself a source (a ladder).
        """
        self.version += 1
        self.hidden.pop(c, None)
        self.constraint.pop(c, None)
        self.cells[c] = otile
        self.order.append(c)
        constraint, cells, hidden = self.constraint, self.cells, self.hidden
        for delta, bit in _FACING[self.cat.open_mask[otile]]:
            n = c + delta
            if n in cells or n in hidden:
                continue
            constraint[n] = constraint.get(n, 0) | bit
        if blocks is not None:
            for ctx, flags in enumerate(blocks):
                if flags:
                    self.blocks[ctx][c] = flags
        entered = self.cat.entered[otile]
        for ctx, reach_in in enumerate(self.reach_in):
            entry = reach_in.pop(c, 0)
            if ctx in source_for:
                self.sources[ctx][c] = (1 << len(self.cat.segments[otile])) - 1
                segs = (*range(len(self.cat.segments[otile])), *entered[entry])
            elif entry:
                segs = entered[entry]
            else:
                continue
            if segs:
                self._spread(ctx, [(c, s) for s in segs])

    def remove(self, c: int) -> int:
        """Take the face-up tile off ``c``; returns its oriented tile id.

        Reachability is recomputed only where the tile may have carried it on (a
        context where it was a source, carried a passage flag, or joined two or more
        reached segments); elsewhere only the tile itself leaves it (``_lift``).
        """
        self.version += 1
        otile = self.cells.pop(c)
        self.order.remove(c)
        stale = []
        for ctx in range(len(self.reach)):
            blocked = self.blocks[ctx].pop(c, 0)
            source = self.sources[ctx].pop(c, None)
            if blocked or source is not None or not self._lift(ctx, c, otile):
                stale.append(ctx)
        for _, n in neighbours(c):
            self._refresh_constraint(n)
        self._refresh_constraint(c)
        if stale:
            self.recompute(stale)
        return otile

    def set_block(self, ctx: int, c: int, flags: int) -> None:
        """Change a passage flag; call :meth:`recompute` after a batch of changes."""
        self.version += 1
        if flags:
            self.blocks[ctx][c] = flags
        else:
            self.blocks[ctx].pop(c, None)

    def change_block(self, ctx: int, c: int, flags: int) -> None:
        """Set the passage flags of the face-up tile on ``c`` and bring reachability up to
        date: pushed on from ``c`` when flags are only lifted (reach can only grow, and
        only through ``c``), recomputed otherwise."""
        old = self.blocks[ctx].get(c, 0)
        self.set_block(ctx, c, flags)
        if flags & ~old:
            self.recompute((ctx,))
            return
        lifted = old & ~flags
        reach = self.reach[ctx]
        segments = self.cat.segments[self.cells[c]]
        stack: list[tuple[int, int]] = []
        if lifted & NO_LEAVE:  # its reached segments lead on now: reached again, spread
            mask = reach.pop(c, 0)
            stack += [(c, s) for s in range(len(segments)) if mask >> s & 1]
        if lifted & NO_ENTER:  # its segments may be entered from reached neighbours now
            blocks = self.blocks[ctx]
            stack += [(c, s) for s, seg in enumerate(segments)
                      if any(not blocks.get(n, 0) & NO_LEAVE
                             for n, _ in self._reached_beside(ctx, c, seg))]
        if stack:
            self._spread(ctx, stack)

    def add_source(self, ctx: int, c: int) -> None:
        self.version += 1
        self.sources[ctx][c] = (1 << len(self.cat.segments[self.cells[c]])) - 1

    def recompute(self, contexts: Iterable[int] | None = None) -> None:
        """Rebuild reachability from the sources (after a removal or a passage change)."""
        self.version += 1
        for ctx in range(len(self.reach)) if contexts is None else contexts:
            self.reach[ctx] = {}
            self.reach_in[ctx] = {}
            starts = [(c, s) for c, segmask in self.sources[ctx].items()
                      for s in range(4) if segmask >> s & 1]
            self._spread(ctx, starts)

    # ------------------------------------------------------------------ internals
    def _lift(self, ctx: int, c: int, otile: int) -> bool:
        """Take the tile ``otile``, just lifted off ``c`` (neither a source nor blocked in
        ``ctx``), out of context ``ctx``'s reach when nothing else was reached through it:
        it was not reached, or its reached segments touch one reached segment at most (the
        one they were reached from).  False, changing nothing: it may have carried reach on.
        """
        reach, reach_in, cells = self.reach[ctx], self.reach_in[ctx], self.cells
        segments = self.cat.segments[otile]
        mask = reach.get(c, 0)
        if mask:
            reached = [seg for s, seg in enumerate(segments) if mask >> s & 1]
            touched = {near for seg in reached for near in self._reached_beside(ctx, c, seg)}
            if len(touched) > 1:
                return False
            del reach[c]
            # the open ends its reached segments pointed out of (only this tile faces them)
            for seg in reached:
                for delta, opposite in _SEG_STEPS[seg]:
                    n = c + delta
                    if n not in cells:
                        left = reach_in.get(n, 0) & ~opposite
                        if left:
                            reach_in[n] = left
                        else:
                            reach_in.pop(n, None)
        # ``c`` is an empty cell now: the reached segments around that lead into it
        blocks = self.blocks[ctx]
        into = 0
        for n, _ in self._reached_beside(ctx, c, ALL_EDGES):
            if not blocks.get(n, 0) & NO_LEAVE:
                into |= _EDGE_TOWARD[n - c]
        if into:
            reach_in[c] = into
        return True

    def _reached_beside(self, ctx: int, c: int, seg: int) -> Iterator[tuple[int, int]]:
        """The reached segments of face-up neighbours that the segment ``seg`` (its edges)
        of a tile on ``c`` meets, as (cell, segment)."""
        reach, cells, seg_of_edge = self.reach[ctx], self.cells, self.cat.seg_of_edge
        for delta, opposite in _SEG_STEPS[seg]:
            n = c + delta
            t = cells.get(n)
            if t is not None:
                s2 = seg_of_edge[t][opposite]
                if s2 >= 0 and reach.get(n, 0) >> s2 & 1:
                    yield n, s2

    def _refresh_constraint(self, c: int) -> None:
        if c in self.cells or c in self.hidden:
            self.constraint.pop(c, None)
            return
        value = self.constraint_of(c)
        if value:
            self.constraint[c] = value
        else:
            self.constraint.pop(c, None)

    def _spread(self, ctx: int, stack: list[tuple[int, int]]) -> None:
        """Mark segments reachable, depth first, honouring passage blocks."""
        reach, reach_in, blocks = self.reach[ctx], self.reach_in[ctx], self.blocks[ctx]
        cells, segments, seg_of_edge = self.cells, self.cat.segments, self.cat.seg_of_edge
        while stack:
            c, s = stack.pop()
            bit = 1 << s
            mask = reach.get(c, 0)
            if mask & bit:
                continue
            if blocks:
                flags = blocks.get(c, 0)
                if flags & NO_ENTER and c not in self.sources[ctx]:
                    continue
                reach[c] = mask | bit
                if flags & NO_LEAVE:
                    continue
            else:
                reach[c] = mask | bit
            for delta, opposite in _SEG_STEPS[segments[cells[c]][s]]:
                n = c + delta
                t = cells.get(n)
                if t is None:
                    reach_in[n] = reach_in.get(n, 0) | opposite
                else:
                    s2 = seg_of_edge[t][opposite]
                    if s2 >= 0 and not reach.get(n, 0) >> s2 & 1:
                        stack.append((n, s2))


class Memo:
    """What a state keeps beside the position: a value derived from its maze (Saboteur's
    ``Board``), and whether a clone shares that maze (copy-on-write, see :class:`SharedMaze`).

    Not part of the position: memos compare equal whatever they hold.
    """

    __slots__ = ("shared", "value")

    def __init__(self) -> None:
        self.value: Any = None
        self.shared = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> Memo:
        return Memo()


class SharedMaze:
    """A state whose clones share its maze until one of them changes it.

    ``clone`` marks the memo ``_mt`` of both states shared; every change of the maze goes
    through :meth:`_wmaze`, which copies it first when it is shared.  A new maze (a new
    round) comes with a new ``Memo()``.
    """

    maze: Maze
    _mt: Memo

    def _wmaze(self) -> Maze:
        """The maze, ready to be changed (copied first when a clone shares it)."""
        if self._mt.shared:
            self.maze = self.maze.clone()
            self._mt.shared = False
        return self.maze
