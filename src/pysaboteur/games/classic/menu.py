"""Legal actions of the Saboteur card games as a *menu*: groups decoded on demand.

A menu is a list of entries ``(count, tag, a, b)``; each entry stands for
``count`` consecutive legal actions and holds only what tells them apart
(cells, seats, card combinations).  ``legal_actions()`` asks for a *listing*
menu: one entry (``M_LIST``) of every action, joined as the menu finds them
(most kept with the board or the broken tools); the rollout path
(``legal_count``, ``legal_action(i)``, ``random_action``, ``play_out``) counts
entries and decodes one action.  Both give the same canonical order, which
depends on the position only:

1. path cards by card code, each by orientation, then by cell (x, then y);
2. action cards by card code, each with its targets (seats ascending, cells by x then y);
3. Saboteur 2's "discard 2 to remove a card", by removed card then card pair;
4. passes, by size, then by card combination.

The rollout path counts a path card's placements without building them: one
sum over the frontier's fit constraints of how many of the card's orientations
fit each (:class:`Tables` ``nfit``, a translation table for the board's constraints as
bytes); the :class:`Board` decodes the one picked.
Card combinations come from a template per *duplicate pattern* of the sorted
hand (``engine.moves.template``), so counting passes costs a dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, repeat
from typing import Any

from ...engine.actions import Action, Discard, PlayOnPlayer
from ...engine.cards import Catalogue, derived
from ...engine.maze import FITS, cell_actions_of, placements_of
from ...engine.menu import Entry
from ...engine.moves import nth_template_pass

_STRIDE_BITS, _OFFSET, _LOW = 10, 512, (1 << 10) - 1

# menu entry tags, with what ``a`` and ``b`` hold:
#   M_LIST     the actions themselves, None
#   M_DISCARD  the card pairs, the cards that may be removed (Saboteur 2)
#   M_PASS     the sorted hand, its Template
#   M_CODE     a path card, the Board (placements counted; built or decoded by the board)
#   M_CELL     a map or rockfall card, the Board (its targets in ``Board.targets``)
M_LIST, M_DISCARD, M_PASS, M_CODE, M_CELL = range(5)
# what a card in hand offers (``Tables.kind``): placements (a path card that must connect,
# or a ladder), actions on seats worked out from the cards in front of the seats alone
# (break, repair; Saboteur 2's hands-off and free at last), actions on cells of the maze
# (map, rockfall), actions on seats per position (Saboteur 2's others)
K_PATH, K_LADDER, K_TOOL, K_CELL, K_SEAT = range(5)
_new = tuple.__new__  # builds a NamedTuple action without its Python-level __new__

MAX_SEATS = 16
MAX_FRONT_PATTERNS = 4096  # patterns of cards in front whose menu entries are kept
#: Saboteur 2's cards that lie in front of a seat besides broken tools (a bit each in
#: ``Tables.front_bit``), and the effects that take them away
LIES_IN_FRONT = ("theft", "trapped")
REMOVES = {"hands-off": "theft", "free": "trapped"}


class Board:
    """Actions that depend on the maze only, built on demand and kept until it changes.

    ``cs``: empty cells a fitting path card would connect, sorted (x, then y), and
    ``ks`` their fit constraints (bytes: they are 8 bits, and counted in C); ``acts``: card
    code -> its placements (or actions on cells); ``targets``: map or rockfall card -> the
    cells it may aim at.  A state keeps one in a :class:`Memo`, checked against ``(maze,
    version)``; clones that share the maze share it.
    """

    __slots__ = ("acts", "cs", "ks", "ladders", "maze", "tables", "targets", "version")

    def __init__(self, maze: Any, tables: Tables) -> None:
        self.maze = maze
        self.tables = tables
        self.version = maze.version
        self.cs = cs = sorted(maze.reach_in[0].keys() - maze.hidden.keys())
        self.ks = bytes(map(maze.constraint.get, cs, repeat(0)))
        self.acts: dict[str, list[Action]] = {}
        self.targets: dict[str, list[int]] = {}
        #: where a ladder may go, as cells and their constraints like ``cs`` and ``ks``
        #: (Saboteur 2, on demand)
        self.ladders: tuple[list[int], bytes] | None = None

    def nth_placement(self, code: str, i: int) -> Action:
        """``placements(code)[i]`` without building the list (unless it exists already)."""
        done = self.acts.get(code)
        if done is not None:
            return done[i]
        for otile, row in self.tables.fit_bytes[code]:
            hits = self.ks.translate(row)  # per cell: 1 where this orientation fits
            n = hits.count(1)
            if i < n:
                at = hits.index(1)
                for _ in range(i):
                    at = hits.index(1, at + 1)
                return self.tables.place[self.cs[at] << 8 | otile]
            i -= n
        raise IndexError("placement index out of range")

    def placements(self, code: str, cells: tuple[list[int], bytes] | None = None
                   ) -> list[Action]:
        """Every placement of path card ``code``: by orientation, then cell (kept in ``acts``).

        ``cells``: sorted cells and their constraints other than the board's (ladders).
        """
        cs, ks = (self.cs, self.ks) if cells is None else cells
        out: list[Action] = []
        for get, hit in self.tables.fit_gets[code]:  # per orientation; the cells picked in C
            out += map(get, compress(cs, ks.translate(hit)))
        self.acts[code] = out
        return out

    def cell_targets(self, code: str, effect: str, is_path: list[bool]) -> list[int]:
        """The cells a map (face-down goals) or a rockfall (path cards) may aim at, sorted."""
        cells = self.targets.get(code)
        if cells is None:
            maze = self.maze
            cells = self.targets[code] = sorted(
                maze.hidden if effect == "map" else
                [c for c, o in maze.cells.items() if is_path[o]])
        return cells

    def on_cells(self, code: str) -> list[Action]:
        """The actions of ``code`` on its :meth:`cell_targets` (kept in ``acts``)."""
        out: list[Action] = list(map(cell_actions_of(code).__getitem__, self.targets[code]))
        self.acts[code] = out
        return out


#: FITS_BY_MASK[open_mask][constraint]: FITS turned around, for scanning cells
FITS_BY_MASK = tuple(tuple(FITS[k][om] for k in range(256)) for om in range(16))


class FrontsMemo:
    """What a state keeps of the cards in front of the players (``ClassicState.in_front``):
    the cards it was worked out from and the menu entries of the cards whose targets depend
    on those cards only (``K_TOOL``).  The cards are an immutable
    tuple, replaced at every change, so the same object means the same cards.

    Not part of the position: memos compare equal whatever they hold.
    """

    __slots__ = ("entries", "fronts")

    def __init__(self, fronts: tuple[tuple[str, ...], ...] | None, entries: ToolEntries) -> None:
        self.fronts = fronts
        #: card -> its entry (None: no target), for each seat's cards in front
        #: (``entries.bits``); shared by every memo of the same bits (``Tables.entries_for``)
        self.entries = entries

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FrontsMemo)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> FrontsMemo:
        return FrontsMemo(None, self.entries)  # a cache of the catalogue: shared


class ToolEntries(dict[str, "Entry | None"]):
    """The menu entries of the cards aimed at seats whose targets depend on the cards in
    front of the seats only (``K_TOOL``), for one pattern of those cards (``bits``: per seat,
    the sum of ``Tables.front_bit``), each worked out on first use; None: no target."""

    def __init__(self, tables: Tables, bits: tuple[int, ...]) -> None:
        super().__init__()
        self.tables = tables
        self.bits = bits

    def __missing__(self, code: str) -> Entry | None:
        T = self.tables
        effect = T.effect[code]
        if effect == "break":  # seats where this tool is whole
            bit, mine = T.break_bit[code], T.on_player[code]
            lst = [mine[s] for s, b in enumerate(self.bits) if not b & bit]
        elif effect == "repair":  # each broken tool it mends
            fixes, tools = T.repairs[code], T.tool_mask
            lst = [act for s, b in enumerate(self.bits) if b & tools
                   for act in fixes[s][b & tools]]
        else:  # hands-off, free at last: seats where the card they take away lies
            bit, mine = T.lies_bit[REMOVES[effect]], T.on_player[code]
            lst = [mine[s] for s, b in enumerate(self.bits) if b & bit]
        entry = self[code] = (len(lst), M_LIST, lst, None) if lst else None
        return entry


class Tables:
    """Per-catalogue lookup tables for legality (built once, shared by all states)."""

    def __init__(self, cat: Catalogue) -> None:
        self.code_mask: dict[str, int] = {}  # path cards needing a connection
        self.ladder_mask: dict[str, int] = {}  # ladders: joined to the start by themselves
        self.is_path = [cat[code].category == "path" for code in cat.codes]
        #: the catalogue's placements (``engine.maze.Placements``)
        self.place = placements_of(cat)
        #: path card -> per orientation, (oriented tile, a translation table of the fit
        #: constraints: 1 where it fits); ``Board.placements`` and ``Board.nth_placement``
        self.fit_bytes: dict[str, tuple[tuple[int, bytes], ...]] = {
            code: tuple((otile, bytes(FITS_BY_MASK[cat.open_mask[otile]])) for _, otile in variants)
            for code, variants in cat.orientations.items() if cat[code].category == "path"}
        #: the same with, instead of the oriented tile, the look-up of its placement by cell
        #: (``Board.placements``: nothing to build but the list)
        self.fit_gets: dict[str, tuple[tuple[Callable[[int], Action], bytes], ...]] = {
            code: tuple((self.place.tiles[otile].__getitem__, hit) for otile, hit in rows)
            for code, rows in self.fit_bytes.items()}
        placeable = 0
        for code, variants in cat.orientations.items():
            kind = cat[code]
            if kind.category != "path":
                continue
            mask = 0
            for _, otile in variants:
                mask |= 1 << otile
            placeable |= mask
            target = self.ladder_mask if kind.features.ladder is not None else self.code_mask
            target[code] = mask
        #: the oriented tiles of ladders (sources of the maze where they lie)
        self.ladder_tiles = frozenset(otile for mask in self.ladder_mask.values()
                                      for otile in range(mask.bit_length()) if mask >> otile & 1)
        self.fitmask: list[int] = []
        for constraint in range(256):
            row = FITS[constraint]
            m = 0
            for otile, om in enumerate(cat.open_mask):
                if placeable >> otile & 1 and row[om]:
                    m |= 1 << otile
            self.fitmask.append(m)
        #: path cards needing a connection: code -> number of its orientations fitting
        #: each constraint, as a translation table: a card's placements on a board are
        #: counted in C, ``sum(board.ks.translate(nfit[code]))`` (the rollout path;
        #: ``Board.nth_placement`` decodes)
        self.nfit: dict[str, bytes] = {
            code: bytes((self.fitmask[k] & mask).bit_count() for k in range(256))
            for code, mask in self.code_mask.items()}
        #: action cards: code -> effect
        self.effect: dict[str, str] = {k.code: k.effect for k in cat.kinds
                                       if k.category == "action" and k.effect is not None}
        #: deck cards: code -> what it offers in a menu (K_PATH...)
        self.kind: dict[str, int] = {
            **dict.fromkeys(self.code_mask, K_PATH), **dict.fromkeys(self.ladder_mask, K_LADDER),
            **{code: K_TOOL if effect in ("break", "repair", *REMOVES) else
               K_CELL if effect in ("map", "rockfall") else K_SEAT
               for code, effect in self.effect.items()}}
        #: break cards: code -> tool bit; tool name -> bit
        tools: list[str] = []
        for k in cat.kinds:
            for t in k.tools:
                if t not in tools:
                    tools.append(t)
        self.tool_bit = {t: 1 << i for i, t in enumerate(tools)}
        self.tool_mask = (1 << len(tools)) - 1
        #: Saboteur 2's theft and trapped effects -> their bit, above the tools'
        self.lies_bit = {e: 1 << (len(tools) + i) for i, e in enumerate(LIES_IN_FRONT)}
        self.break_bit: dict[str, int] = {k.code: self.tool_bit[k.tools[0]] for k in cat.kinds
                                          if k.effect == "break"}
        self.tools_of: dict[str, tuple[str, ...]] = {k.code: k.tools for k in cat.kinds}
        #: every code -> its value (gold nuggets)
        self.value: dict[str, int] = {k.code: k.value for k in cat.kinds}
        #: every code -> the bit it sets lying in front of a seat: the tool it breaks, its
        #: ``lies_bit``, 0 for the others; so what lies in front of a seat is the sum over
        #: its cards (a tool is broken at most once, a seat has one Theft and one Trapped!
        #: at most)
        self.front_bit: dict[str, int] = {
            k.code: self.break_bit.get(k.code) or self.lies_bit.get(k.effect or "", 0)
            for k in cat.kinds}
        #: repair cards: repairs[code][seat][broken bits] -> its actions on that seat
        self.repairs: dict[str, list[list[tuple[PlayOnPlayer, ...]]]] = {
            k.code: [[tuple(PlayOnPlayer(k.code, seat, t if len(k.tools) > 1 else None)
                            for t in k.tools if b & self.tool_bit[t])
                      for b in range(1 << len(tools))] for seat in range(MAX_SEATS)]
            for k in cat.kinds if k.effect == "repair"}
        #: action cards aimed at a seat, built once: on_player[code][seat]
        self.on_player: dict[str, list[Action]] = {
            code: [PlayOnPlayer(code, seat) for seat in range(MAX_SEATS)] for code in self.effect}
        #: per pattern of cards in front (seat by seat), the K_TOOL cards' menu entries
        self._entries_by_front: dict[tuple[int, ...], ToolEntries] = {}

    def entries_for(self, bits: list[int]) -> ToolEntries:
        """The ``K_TOOL`` cards' menu entries for these cards in front (``front_bit`` sums,
        by seat; each entry worked out when a state first needs it), shared by every state of
        the catalogue: the same few patterns come back match after match.  Forgotten, all at
        once, past ``MAX_FRONT_PATTERNS`` patterns."""
        key = tuple(bits)
        entries = self._entries_by_front.get(key)
        if entries is None:
            if len(self._entries_by_front) >= MAX_FRONT_PATTERNS:
                self._entries_by_front.clear()
            entries = self._entries_by_front[key] = ToolEntries(self, key)
        return entries


def tables(cat: Catalogue) -> Tables:
    return derived(cat, Tables)


def decode(tag: int, a: Any, b: Any, i: int) -> Action:
    """The ``i``-th action of one menu entry (the commonest picks in random play first)."""
    if tag == M_CODE:
        return b.nth_placement(a, i)  # type: ignore[no-any-return]
    if tag == M_PASS:
        return nth_template_pass(a, b, i)
    if tag == M_LIST:
        return a[i]  # type: ignore[no-any-return]
    if tag == M_CELL:
        return cell_actions_of(a)[b.targets[a][i]]
    assert tag == M_DISCARD
    return _new(Discard, (a[i % len(a)], b[i // len(a)]))


def discards(combos: list[tuple[str, str]], removable: list[str]) -> list[Action]:
    """Discard each card pair to remove each removable card: by removed card, then pair."""
    out: list[Action] = []
    for removed in removable:
        out += map(_new, repeat(Discard), zip(combos, repeat(removed)))
    return out
