"""Saboteur: The Lost Mines (3-9 players): the rules (lost-mines.md).

A turn is three steps: play or discard a card (phase ``card``), move the pawn
(phase ``move``: a ``Move`` along a route of cells, or ``stay``), then the
automatic draw.  Choices that arise on the way are the acting seat's next
decision: how a mine entered face down lies (``orient``), which of several
treasures to take (``take``).  A proposal to end the round asks every other
seat in turn (``vote``).

The maze has no reach contexts: cards need not connect to a start, and pawns
walk segment by segment with :meth:`Maze.passages`.  Tokens lie on *joints*:
a joint is a cell and its E or S neighbour, as one integer ``cell << 4 | side``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core import CLONES, RNG_CLONE, UNKNOWN, CloneSpec, compiled_clone
from ...engine.actions import (
    Action,
    Move,
    NoMove,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnJoint,
    PlayOnPlayer,
    PlayOnTreasure,
    ProposeEnd,
    Take,
    Vote,
    cards_of,
)
from ...engine.errors import (
    Blocked,
    CardNotInHand,
    IllegalAction,
    IllegalMove,
    IllegalPlacement,
    InvalidTarget,
    WrongPhase,
)
from ...engine.game import (
    Deal,
    Game,
    Options,
    RoundResult,
    check_same_cards,
    deal_round,
    draw,
    option,
)
from ...engine.maze import DELTA, FITS, Maze, Memo, SharedMaze, cell, xy
from ...engine.menu import Entry, MenuState, compiled_setup
from ...engine.moves import hand_template, nth_template_pass, template_passes
from ...engine.position import StartLayout
from ...engine.rng import Rng
from ...engine.secrecy import redeal
from ...engine.tiles import EDGES, OPPOSITE, E, N, S, W
from ...engine.views import Board, LaterRoundEnd
from . import cards as C

CARD, MOVE, ORIENT, TAKE, VOTE = range(5)
PHASE_NAMES = ("card", "move", "orient", "take", "vote")
#: why a pawn's route is refused: a reason's code and parameters (engine/reasons.py)
Problem = tuple[str, dict[str, Any]]

CAT = C.CATALOGUE
_DECK = tuple(CAT.box(["path", "action"]))
_MINES = tuple(CAT.box(["mine"]))
_TREASURES = tuple(CAT.box(["treasure"]))
BOARD = frozenset(cell(x, y) for x in range(C.WIDTH) for y in range(C.HEIGHT))
_SIDE = {E: "E", S: "S"}
_SIDE_EDGE = {"E": E, "S": S}


def joint(c: int, edge: int) -> int:
    """The joint between ``c`` and its neighbour across ``edge`` (one integer per joint)."""
    if edge == N:
        return (c + DELTA[N]) << 4 | S
    if edge == W:
        return (c + DELTA[W]) << 4 | E
    return c << 4 | edge


def joint_cells(j: int) -> tuple[int, int]:
    c = j >> 4
    return c, c + DELTA[j & 15]


def joint_action(card: str, j: int) -> PlayOnJoint:
    x, y = xy(j >> 4)
    return PlayOnJoint(card, x, y, _SIDE[j & 15])


def joint_of(a: PlayOnJoint) -> int | None:
    edge = _SIDE_EDGE.get(a.side)
    return None if edge is None else cell(a.x, a.y) << 4 | edge


# -- tables for legal-move generation (the hot path) ---------------------------------
# menu entry kinds (see LostMinesState._menu)
_M_LIST, _M_PLACE, _M_CELL, _M_JOINT, _M_TREASURE, _M_PLAYER, _M_PASS, _M_ROUTE = range(8)
_new = tuple.__new__  # builds a NamedTuple action without its Python-level __new__
_XY = {c: xy(c) for c in BOARD}
#: joint -> (x, y, side) of its notation
_SPOT = {c << 4 | side: (*xy(c), _SIDE[side]) for c in BOARD for side in (E, S)}
#: per board cell: (edge, joint) for each side whose neighbour is on the board
_CELL_JOINTS = {c: tuple((edge, joint(c, edge)) for edge in EDGES if c + DELTA[edge] in BOARD)
                for c in BOARD}
#: a step across ``edge``: (edge, cell delta, edge entered, joint cell delta, joint side)
_WALK = tuple((edge, DELTA[edge], OPPOSITE[edge], *((DELTA[edge], OPPOSITE[edge])
                                                    if edge in (N, W) else (0, edge)))
              for edge in EDGES)
#: per oriented tile and segment: the steps out of it (cell delta, edge entered, joint)
_SEG_WALK = tuple(tuple(tuple(w[1:] for w in _WALK if w[0] & seg) for seg in segs)
                  for segs in CAT.segments)
_SEG_OF_EDGE = CAT.seg_of_edge
#: per oriented tile: its obstacle kind (or None), room for one dwarf, a storm may take it
_OBSTACLE = tuple(f.obstacle for f in CAT.features)
_ROCK = tuple(f.rock for f in CAT.features)
_STORMABLE = tuple(CAT[code].category == "path" for code in CAT.codes)
#: path card code -> ((rotated, open mask), ...) of its distinct orientations
_PATH_WAYS = {k.code: tuple((r, CAT.open_mask[t]) for r, t in CAT.orientations[k.code])
              for k in CAT.kinds if k.category == "path"}
_ACTION_CODES = frozenset(k.code for k in CAT.kinds if k.category == "action")
#: every card-on-board action, made once: the legal list shares these objects
_PLACE_ACT = {(code, r): {c: PlacePath(code, *xy(c), r) for c in BOARD}
              for code, ways in _PATH_WAYS.items() for r, _ in ways}
_CELL_ACT = {code: {c: PlayOnCell(code, *xy(c)) for c in BOARD} for code in _ACTION_CODES}
_JOINT_ACT = {code: {j: PlayOnJoint(code, *spot) for j, spot in _SPOT.items()}
              for code in _ACTION_CODES}
#: (cell, open mask) -> the joints next to those open edges with both cells on the board
_OPEN_JOINTS = {c << 4 | om: frozenset(j for edge, j in _CELL_JOINTS[c] if om & edge)
                for c in BOARD for om in range(16)}
_STAY: tuple[Action, ...] = (NoMove(),)
_VOTES: tuple[Action, ...] = (Vote(True), Vote(False))
_PROPOSE: tuple[Action, ...] = (ProposeEnd(),)
assert C.PASS_MAX <= 3, "passes come from engine.moves.Template (1 to 3 cards)"


def _decode(tag: int, a: Any, b: Any, i: int) -> Action:
    """The ``i``-th action of one menu entry."""
    if tag == _M_PLACE:
        return _PLACE_ACT[a][b[i]]
    if tag == _M_ROUTE:
        return _new(Move, (a[i],))
    if tag == _M_CELL:
        return _CELL_ACT[a][b[i]]
    if tag == _M_JOINT:
        return _JOINT_ACT[a][b[i]]
    if tag == _M_LIST:
        return a[i]  # type: ignore[no-any-return]
    if tag == _M_PASS:
        return nth_template_pass(a, b, i)
    if tag == _M_TREASURE:
        return PlayOnTreasure(a, b[i])
    if tag == _M_PLAYER:
        return PlayOnPlayer(a, b[i])
    raise AssertionError(tag)


def dwarf_box(players: int) -> list[str]:
    """The dwarf cards in play for ``players``: loyal ones removed per clan [rule]."""
    removed = C.LOYAL_REMOVED[players]
    out: list[str] = []
    for kind in CAT.of_category("dwarf"):
        count = kind.count - removed if C.identity_of(kind.code) == C.LOYAL else kind.count
        out += [kind.code] * count
    return out


@dataclass(frozen=True)
class LostMinesOptions(Options):
    #: rounds in a match [rule: two; more is an option]
    rounds: int = option(C.ROUNDS, min=1, max=C.MAX_ROUNDS)
    #: the seat that begins round 1 [rule: an option]
    first_player: int = option(0, seat=True)

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError("rounds must be at least 1")
        if self.first_player < 0:
            raise ValueError("first_player must be a seat number")


class LostMinesGame(Game):
    """Saboteur: The Lost Mines for 3 to 9 players."""

    name = "lost-mines"
    title = "Saboteur: The Lost Mines"
    min_players = 3
    max_players = 9
    catalogue = CAT
    board_size = (C.WIDTH, C.HEIGHT)

    def __init__(self, players: int = 5, **options: Any) -> None:
        super().__init__(players, LostMinesOptions(**options))
        self.options: LostMinesOptions
        if self.options.first_player >= players:
            raise ValueError(f"first_player must be below {players}")

    def new_state(self, seed: int, deal: Deal | None = None) -> LostMinesState:
        return LostMinesState(self, seed, deal)

    def start_layout(self) -> StartLayout:
        """Round 1's dealing: also the dwarf cards and the treasures laid out."""
        n = self.players
        return StartLayout(deck=_DECK, aside=C.SET_ASIDE, hand=C.HAND_SIZE[n],
                           first=self.options.first_player, goal_box=_MINES,
                           goal_cells=tuple(C.MINE_CELLS), goal_orderings=self.options.rounds,
                           roles=tuple(dwarf_box(n)), treasures=_TREASURES)


class LostMinesState(SharedMaze, MenuState):
    """A position of a Lost Mines match."""

    def __init__(self, game: LostMinesGame, seed: int, deal: Deal | None = None) -> None:
        self.game: LostMinesGame = game
        self._begin(game, seed, deal)
        self.totals = [0] * game.players
        self._round = 0
        self.terminal = False
        self.turn = game.options.first_player
        fast = compiled_setup(type(self)) if deal is None else None
        if fast is None:
            self._setup_round()
        else:  # the compiled core (issue 24): the same round, the same numbers drawn
            fast(self)

    # ------------------------------------------------------------------ set-up
    def _mine_order(self) -> list[str]:
        goals = self.deal.goals if self.deal is not None else ()
        if goals:
            k = len(_MINES)
            start = (self._round - 1) * k % len(goals) if len(goals) > k else 0
            order = list(goals[start:start + k])
            check_same_cards(order, _MINES, f"mines of round {self._round}")
            return order
        mines = list(_MINES)
        self.rng.shuffle(mines)
        return mines

    def _setup_round(self) -> None:
        game = self.game
        n = game.players
        self._round += 1
        # index of the round's first move (set up inside the move that ended the last round)
        self.round_start = len(self.history) + (self._round > 1)
        self.maze = maze = Maze(CAT, 0)
        self._mt = Memo()  # whether a clone shares the maze (see clone)
        for clan, (x, y) in C.STARTS.items():
            maze.place(cell(x, y), CAT.otile[f"start-{clan}", False])
        for (x, y), code in zip(C.MINE_CELLS, self._mine_order(), strict=True):
            maze.put_hidden(cell(x, y), code)
        treasures = list(_TREASURES)
        fixed_treasures = self.deal.treasure_order(self._round) if self.deal else None
        if fixed_treasures is not None:
            check_same_cards(fixed_treasures, treasures, f"treasures of round {self._round}")
            treasures = list(fixed_treasures)
        else:
            self.rng.shuffle(treasures)
        self.layout = treasures[:n]  # slot -> treasure card, for the whole round
        self.treasures_out = treasures[n:]
        self.owner = [-1] * n  # slot -> seat that collected it (-1: still laid out)
        self.collected: list[list[int]] = [[] for _ in range(n)]  # seat -> slots, in order
        dwarves = dwarf_box(n)
        fixed_dwarves = self.deal.role_deck(self._round) if self.deal else None
        if fixed_dwarves is not None:  # top first: seat 0 gets the first card
            check_same_cards(fixed_dwarves, dwarves, f"dwarf cards of round {self._round}")
            dwarves = list(reversed(fixed_dwarves))
        else:
            self.rng.shuffle(dwarves)
        self.dwarves = [dwarves.pop() for _ in range(n)]
        self.dwarf_aside = dwarves  # set aside unseen
        self.dwarf_removed = [f"{clan}-{C.LOYAL}" for clan in C.CLANS
                              for _ in range(C.LOYAL_REMOVED[n])]
        self.pawn = [cell(*C.STARTS[C.clan_of(d)]) for d in self.dwarves]
        self.pawn_seg = [0] * n
        cards = list(_DECK)
        fixed = self.deal.deck(self._round) if self.deal is not None else None
        if fixed is not None:
            check_same_cards(fixed, cards, f"deck of round {self._round}")
            self.deck = list(reversed(fixed))  # top of the pile = end of the list
        else:
            cards.sort()
            self.rng.shuffle(cards)
            self.deck = cards
        self.aside = [self.deck.pop() for _ in range(C.SET_ASIDE)]
        self.hands: list[list[str]] = [[] for _ in range(n)]
        deal_round(self.deck, self.hands, self.turn, C.HAND_SIZE[n])
        self.discards: list[str] = []
        self.in_front: list[list[str]] = [[] for _ in range(n)]  # troll cards
        self.overcome: set[int] = set()  # obstacle cells with a forest tile
        self.traps: set[int] = set()  # joints
        self.trolls: dict[int, int] = {}  # joint -> seat whose troll it is
        self.dragon: int | None = None
        self.seen_mines: list[dict[int, str]] = [{} for _ in range(n)]
        self.seen_treasures: list[set[int]] = [set() for _ in range(n)]
        self.seen_dwarves: list[set[int]] = [set() for _ in range(n)]
        self.phase = CARD
        self.pending: Any = None  # ORIENT: (mine cell, entry edge, ways); TAKE: slots
        self.pending_draw = 0
        self.proposed = False
        self.voters: list[int] = []
        self.current = self.turn

    # ------------------------------------------------------------------ basics
    def clan(self, seat: int) -> str:
        return C.clan_of(self.dwarves[seat])

    def identity(self, seat: int) -> str:
        return C.identity_of(self.dwarves[seat])

    def clone(self) -> LostMinesState:
        fast = CLONES.get(type(self), UNKNOWN)  # the compiled core's (core/clone.c), or None
        if fast is UNKNOWN:
            fast = compiled_clone(type(self), _CLONE_SPEC)
        if fast is not None:
            return fast(self)  # type: ignore[no-any-return]
        new = LostMinesState.__new__(LostMinesState)
        d = self.__dict__
        nd = new.__dict__ = d.copy()  # see engine.game.State.clone on copying the dict
        new.rng = self.rng.clone()
        self._mt.shared = True  # the maze is shared until either state changes it (_wmaze)
        memo = new._mt = Memo()
        memo.shared = True
        for name in ("history", "actors", "pawn", "pawn_seg", "deck", "aside", "discards"):
            nd[name] = d[name].copy()
        new.hands = [h.copy() for h in self.hands]
        # everything else that changes is shared, copy-on-write: replaced, never changed in
        # place (the looks in ``_look``; trolls, traps, forest tiles, the cards in front,
        # the treasures' owners, votes and scores where they change; the layout of
        # treasures and the dwarf cards only change at a new round, or in a sample of a
        # determinizer, which copies them first)
        return new

    # ------------------------------------------------------------------ legality
    # Legal actions are built from a *menu*: groups of actions that share a card
    # and a kind, each holding only what distinguishes its members (cells, joints,
    # routes, card combinations).  Listing expands every group; the rollout path
    # counts the groups and decodes just the chosen action.  Both give the same
    # order, and that order depends on the position only, never on its history:
    # cards by code, then orientation, then cells by x then y; joints likewise.
    def _menu(self, listing: bool = False) -> list[Entry]:
        if self.terminal:
            return []
        phase = self.phase
        if phase == MOVE:
            found = self._route_list(self.current)
            return [(len(found), _M_ROUTE, found, None), (1, _M_LIST, _STAY, None)]
        if phase == ORIENT:
            ways = [Orient(r) for r in self.pending[2]]
            return [(len(ways), _M_LIST, ways, None)]
        if phase == TAKE:
            takes = [Take(slot) for slot in self.pending]
            return [(len(takes), _M_LIST, takes, None)]
        if phase == VOTE:
            return [(2, _M_LIST, _VOTES, None)]
        seat = self.current
        h = sorted(self.hands[seat])
        tpl = hand_template(h)
        distinct = h if len(tpl.ones) == len(h) else list(map(h.__getitem__, tpl.ones))
        menu: list[Entry] = []
        self._placement_menu(distinct, menu)
        for code in distinct:
            if code in _ACTION_CODES:
                self._action_menu(seat, code, menu)
        if h:
            menu.append((tpl.passes[C.PASS_MAX], _M_PASS, h, tpl))
        if not self.proposed:
            menu.append((1, _M_LIST, _PROPOSE, None))
        return menu

    _decode = staticmethod(_decode)

    def _expand(self, menu: list[Entry]) -> list[Action]:
        out: list[Action] = []
        for count, tag, a, b in menu:
            if tag == _M_PLACE:
                out += map(_PLACE_ACT[a].__getitem__, b)
            elif tag == _M_CELL:
                out += map(_CELL_ACT[a].__getitem__, b)
            elif tag == _M_JOINT:
                out += map(_JOINT_ACT[a].__getitem__, b)
            elif tag == _M_ROUTE:
                out += [_new(Move, (route,)) for route in a]
            elif tag == _M_LIST:
                out += a
            elif tag == _M_PASS:
                out += template_passes(a, b, count)
            else:
                out += [_decode(tag, a, b, i) for i in range(count)]
        return out

    def _placement_cells(self) -> list[int]:
        """Empty board cells where a card would extend an open path end, by x then y."""
        cells = [c for c, k in self.maze.constraint.items() if k & 15 and c in BOARD]
        cells.sort()
        return cells

    def _placement_menu(self, distinct: list[str], menu: list[Entry]) -> None:
        rows: list[tuple[int, tuple[bool, ...]]] | None = None
        by_mask: dict[int, list[int]] = {}
        for code in distinct:
            ways = _PATH_WAYS.get(code)
            if ways is None:
                continue
            if rows is None:
                constraint = self.maze.constraint
                rows = [(c, FITS[constraint[c]]) for c in self._placement_cells()]
            for rotated, om in ways:
                fitting = by_mask.get(om)
                if fitting is None:
                    fitting = by_mask[om] = [c for c, row in rows if row[om]]
                if fitting:
                    menu.append((len(fitting), _M_PLACE, (code, rotated), fitting))

    def _joints(self) -> list[int]:
        """Free joints: next to an open edge of a face-up card, both cells on the board."""
        open_mask = CAT.open_mask
        found: set[int] = set()
        found.update(*[_OPEN_JOINTS[c << 4 | open_mask[t]] for c, t in self.maze.cells.items()])
        if self.traps:
            found -= self.traps
        if self.trolls:
            found.difference_update(self.trolls)
        return sorted(found)

    def _obstacles(self, kind: str) -> list[int]:
        overcome = self.overcome
        return sorted(c for c, t in self.maze.cells.items()
                      if _OBSTACLE[t] == kind and c not in overcome)

    def _stormable(self) -> list[int]:
        pawns = self.pawn
        return sorted(c for c, t in self.maze.cells.items() if _STORMABLE[t] and c not in pawns)

    def _action_menu(self, seat: int, code: str, menu: list[Entry]) -> None:
        kind = CAT[code]
        effect = kind.effect
        if effect == "tool":
            cells = self._obstacles(kind.tools[0])
        elif effect in ("trap", "troll"):
            joints = self._joints()
            if joints:
                menu.append((len(joints), _M_JOINT, code, joints))
            return
        elif effect == "storm":
            cells = self._stormable()
        elif effect == "info":
            for option in kind.tools:
                if option == "mine":
                    mines = sorted(self.maze.hidden)
                    if mines:
                        menu.append((len(mines), _M_CELL, code, mines))
                elif option == "treasure":
                    slots = [s for s, o in enumerate(self.owner) if o < 0]
                    if slots:
                        menu.append((len(slots), _M_TREASURE, code, slots))
                else:
                    seats = [t for t in range(self.game.players) if t != seat]
                    menu.append((len(seats), _M_PLAYER, code, seats))
            return
        else:
            raise AssertionError(effect)
        if cells:
            menu.append((len(cells), _M_CELL, code, cells))

    # ------------------------------------------------------------------ movement
    def _others(self, seat: int) -> set[int]:
        return {c for s, c in enumerate(self.pawn) if s != seat}

    def _step_problem(self, c: int, edge: int, n: int, s2: int,
                      others: set[int]) -> Problem | None:
        """Why a pawn may not step from ``c`` across ``edge`` onto ``n`` (None: it may):
        a reason's code and parameters (:mod:`pysaboteur.engine.reasons`)."""
        if joint(c, edge) in self.trolls:
            return "troll-blocks", {}
        if s2 < 0:
            return None  # a face-down mine: entered, turned over, the move ends there
        f = CAT.features[self.maze.cells[n]]
        if f.obstacle is not None and n not in self.overcome:
            x, y = xy(n)
            return "obstacle-not-overcome", {"obstacle": f.obstacle, "x": x, "y": y}
        if (f.rock or n in self.overcome) and n in others:
            x, y = xy(n)
            return "rock-occupied", {"x": x, "y": y}
        return None

    def _limit(self, seat: int) -> int:
        t = self.maze.cells[self.pawn[seat]]
        return C.CAMPFIRE_STEPS if CAT.features[t].campfire else C.STEPS

    def _steps(self, c: int, s: int, others: set[int]) -> list[tuple[int, int]]:
        """The cells a pawn on segment ``s`` of ``c`` may step onto: (cell, segment or -1).

        The rules of :meth:`_step_problem`, inlined: the hot loop of move generation.
        """
        cells, trolls, overcome = self.maze.cells, self.trolls, self.overcome
        out = []
        for delta, opposite, jd, js in _SEG_WALK[cells[c]][s]:
            if trolls and ((c + jd) << 4 | js) in trolls:
                continue
            n = c + delta
            t = cells.get(n)
            if t is None:
                if n in self.maze.hidden:
                    out.append((n, -1))
                continue
            s2 = _SEG_OF_EDGE[t][opposite]
            if s2 < 0:
                continue
            if _OBSTACLE[t] is not None and n not in overcome:
                continue
            if (_ROCK[t] or n in overcome) and n in others:
                continue
            out.append((n, s2))
        return out

    def _route_list(self, seat: int) -> list[tuple[tuple[int, int], ...]]:
        """Every route of 1 to 3 (5) steps that enters no cell twice, as (x, y) cells.

        Depth first, steps in N E S W order: the rules of :meth:`_steps`, inlined.
        """
        cells, hidden, trolls, overcome = self.maze.cells, self.maze.hidden, self.trolls, \
            self.overcome
        others = self._others(seat)
        limit = self._limit(seat)
        start = self.pawn[seat]
        path = [start]
        trail: list[tuple[int, int]] = []
        found: list[tuple[tuple[int, int], ...]] = []

        def walk(c: int, s: int) -> None:
            for delta, opposite, jd, js in _SEG_WALK[cells[c]][s]:
                n = c + delta
                if n in path or (trolls and ((c + jd) << 4 | js) in trolls):
                    continue
                t = cells.get(n)
                if t is None:
                    if n in hidden:
                        found.append((*trail, _XY[n]))
                    continue
                s2 = _SEG_OF_EDGE[t][opposite]
                if s2 < 0 or (_OBSTACLE[t] is not None and n not in overcome) \
                        or ((_ROCK[t] or n in overcome) and n in others):
                    continue
                trail.append(_XY[n])
                found.append(tuple(trail))
                if len(trail) < limit:
                    path.append(n)
                    walk(n, s2)
                    path.pop()
                trail.pop()

        walk(start, self.pawn_seg[seat])
        return found

    def _routes(self, seat: int) -> list[Action]:
        return [Move(route) for route in self._route_list(seat)]

    def _can_move(self, seat: int) -> bool:
        return bool(self._steps(self.pawn[seat], self.pawn_seg[seat], self._others(seat)))

    def _route_problem(self, seat: int, route: tuple[tuple[int, int], ...]) -> Problem:
        """Why ``route`` is not a legal move (for the error: a reason's code, parameters)."""
        limit = self._limit(seat)
        if len(route) > limit:
            return "route-too-long", {"n": limit}
        c, s = self.pawn[seat], self.pawn_seg[seat]
        seen = {c}
        others = self._others(seat)
        for i, (x, y) in enumerate(route):
            n = cell(x, y)
            if n in seen:
                return "route-twice", {"x": x, "y": y}
            step = next(((e, s2) for e, n2, s2 in self.maze.passages(c, s) if n2 == n), None)
            if step is None:
                x0, y0 = xy(c)
                return "no-path-between", {"x0": x0, "y0": y0, "x": x, "y": y}
            problem = self._step_problem(c, step[0], n, step[1], others)
            if problem is not None:
                return problem
            if step[1] < 0 and i < len(route) - 1:
                return "move-ends-at-mine", {}
            seen.add(n)
            c, s = n, step[1]
        return "route-not-offered", {}

    # ------------------------------------------------------------------ explanations
    def explain(self, action: Action) -> IllegalAction:
        phase = self.phase
        if phase == VOTE:
            return WrongPhase("answer-proposal")
        if phase == ORIENT:
            if isinstance(action, Orient):
                return InvalidTarget("mine-orientation")
            return WrongPhase("orient-mine-first")
        if phase == TAKE:
            if isinstance(action, Take):
                return InvalidTarget("treasure-not-here")
            return WrongPhase("take-first")
        if phase == MOVE:
            if isinstance(action, Move):
                code, params = self._route_problem(self.current, action.route)
                return IllegalMove(code, **params)
            return WrongPhase("move-or-stay")
        if isinstance(action, (Move, NoMove)):
            return WrongPhase("card-before-move")
        if isinstance(action, (Orient, Take, Vote)):
            return WrongPhase("choice-not-offered", action=str(action))
        if isinstance(action, ProposeEnd):
            return Blocked("already-proposed")
        seat = self.current
        cards = cards_of(action)
        missing = Counter(cards) - Counter(self.hands[seat])
        if missing:
            return CardNotInHand("not-in-hand", cards=", ".join(missing))
        if isinstance(action, Pass):
            return InvalidTarget("pass-count", n=C.PASS_MAX)
        if isinstance(action, PlacePath):
            return self._explain_placement(action)
        if not isinstance(action, (PlayOnCell, PlayOnJoint, PlayOnTreasure, PlayOnPlayer)):
            return WrongPhase("not-a-lost-mines-move", action=str(action))
        kind = CAT[action.card]
        if kind.category != "action":
            return InvalidTarget("path-card-place", card=kind.code)
        effect = kind.effect
        if effect == "tool":
            return InvalidTarget("tool-on-obstacle", card=kind.code, obstacle=kind.tools[0])
        if effect in ("trap", "troll"):
            return InvalidTarget("joint-target", effect=effect, card=effect)
        if effect == "storm":
            return InvalidTarget("storm-target")
        look1, look2 = kind.tools  # the two options printed on an information card
        return InvalidTarget("info-target", card=kind.code, look1=look1, look2=look2)

    def _explain_placement(self, a: PlacePath) -> IllegalAction:
        if CAT[a.card].category != "path":
            return InvalidTarget("not-path-card", card=a.card)
        c = cell(a.x, a.y)
        if c not in BOARD:
            return IllegalPlacement("off-board", x=a.x, y=a.y, w=C.WIDTH, h=C.HEIGHT)
        if self.maze.occupied(c):
            return IllegalPlacement("cell-taken", x=a.x, y=a.y)
        if not self.maze.fits(c, CAT.otile[a.card, a.rotated]):
            return IllegalPlacement("does-not-fit", card=a.card, x=a.x, y=a.y)
        return IllegalPlacement("no-open-end", x=a.x, y=a.y)

    # ------------------------------------------------------------------ playing
    def _apply(self, action: Action) -> None:
        seat = self.current
        self.actors.append(seat)
        kind = type(action)
        if kind is Move:
            self._move(seat, action.route)  # type: ignore[union-attr]
        elif kind is NoMove:
            self._collect(seat)
        elif kind is Orient:
            g, entry, _ = self.pending
            self.pending = None
            self._reveal(seat, g, action.rotated, entry)  # type: ignore[union-attr]
            self._collect(seat)
        elif kind is Take:
            self.pending = None
            self._take(seat, action.slot)  # type: ignore[union-attr]
            self._after_move()
        elif kind is ProposeEnd:
            self.proposed = True
            n = self.game.players
            self.voters = [(seat + i) % n for i in range(1, n)]
            self.phase = VOTE
            self.current = self.voters[0]
        elif kind is Vote:
            if not action.accept:  # type: ignore[union-attr]
                self.voters = []
                self.phase = CARD
                self.current = self.turn
            else:
                self.voters = self.voters[1:]  # replaced, not changed in place (see clone)
                if self.voters:
                    self.current = self.voters[0]
                else:
                    self._end_round("vote")
        else:
            self._play(seat, action)
            if not self.deck and not any(self.hands):
                self._end_round()
            elif self._can_move(seat):
                self.phase = MOVE
            else:
                self._collect(seat)  # no step is possible: the pawn stays [decision]

    def _play(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        self.pending_draw = 1
        if isinstance(action, Pass):
            for code in action.cards:
                hand.remove(code)
            self.discards += action.cards
            self.pending_draw = len(action.cards)
            return
        a: Any = action
        hand.remove(a.card)
        if isinstance(action, PlacePath):
            self._wmaze().place(cell(a.x, a.y), CAT.otile[a.card, a.rotated])
            return
        effect = CAT[a.card].effect
        if effect == "troll":
            j = joint_of(a)
            assert j is not None
            self.trolls = {**self.trolls, j: seat}  # replaced, not changed in place (see clone)
            front = self.in_front = self.in_front.copy()
            front[seat] = [*front[seat], a.card]
            return
        self.discards.append(a.card)
        if effect == "trap":
            j = joint_of(a)
            assert j is not None
            self.traps = self.traps | {j}
        elif effect == "tool":
            self.overcome = self.overcome | {cell(a.x, a.y)}
        elif effect == "storm":
            self._storm(cell(a.x, a.y))
        else:
            self._look(seat, action)

    def _look(self, seat: int, action: Action) -> None:
        """An information card: the seat sees a face-down mine, a treasure's value or another
        player's dwarf card.  The looks are replaced, never changed in place (clones share
        them)."""
        a: Any = action
        if isinstance(action, PlayOnCell):
            c = cell(a.x, a.y)
            mines = self.seen_mines = self.seen_mines.copy()
            mines[seat] = {**mines[seat], c: self.maze.hidden[c]}
        elif isinstance(action, PlayOnTreasure):
            treasures = self.seen_treasures = self.seen_treasures.copy()
            treasures[seat] = treasures[seat] | {action.slot}
        else:  # another player's dwarf card
            dwarves = self.seen_dwarves = self.seen_dwarves.copy()
            dwarves[seat] = dwarves[seat] | {a.target}

    def _storm(self, c: int) -> None:
        otile = self._wmaze().remove(c)
        self.discards.append(CAT.codes[otile])
        if c in self.overcome:  # the forest tile goes back to the supply
            self.overcome = self.overcome - {c}
        for edge in EDGES:
            if self.maze.occupied(c + DELTA[edge]):
                continue  # the token now lies at an open path end: it stays
            j = joint(c, edge)
            if j in self.traps:
                self.traps = self.traps - {j}
            if j in self.trolls:  # its card goes with it [decision]
                trolls = self.trolls = self.trolls.copy()
                owner = trolls.pop(j)
                front = self.in_front = self.in_front.copy()
                cards = front[owner] = front[owner].copy()
                cards.remove("troll")
                self.discards.append("troll")

    def _move(self, seat: int, route: tuple[tuple[int, int], ...]) -> None:
        maze = self.maze
        c, s = self.pawn[seat], self.pawn_seg[seat]
        for x, y in route:
            n = cell(x, y)
            edge, s2 = next((e, s2) for e, n2, s2 in maze.passages(c, s) if n2 == n)
            if joint(c, edge) in self.traps:
                self._spring_trap(seat)
            if s2 < 0:
                entry = OPPOSITE[edge]
                ways = tuple(r for r, t in CAT.orientations[maze.hidden[n]]
                             if CAT.open_mask[t] & entry)
                if len(ways) > 1:
                    self.phase = ORIENT
                    self.pending = (n, entry, ways)
                    return
                self._reveal(seat, n, ways[0], entry)
                break
            c, s = n, s2
            self.pawn[seat], self.pawn_seg[seat] = c, s
        self._collect(seat)

    def _spring_trap(self, seat: int) -> None:
        """The left neighbour discards a random card of the mover's hand, unseen [rule]."""
        hand = self.hands[seat]
        if hand:
            self.discards.append(hand.pop(self.rng.below(len(hand))))

    def _reveal(self, seat: int, g: int, rotated: bool, entry: int) -> None:
        maze = self._wmaze()
        code = maze.hidden[g]
        otile = CAT.otile[code, rotated]
        maze.place(g, otile)
        self.pawn[seat], self.pawn_seg[seat] = g, CAT.seg_of_edge[otile][entry]
        if C.MINE_TYPE[code] == C.DRAGON:
            self.dragon = seat

    def _collect(self, seat: int) -> None:
        """A pawn ending its move on a revealed treasure mine takes one treasure there."""
        t = self.maze.cells[self.pawn[seat]]
        kind = C.MINE_TYPE.get(CAT.codes[t])
        if kind is not None and kind != C.DRAGON:
            slots = [i for i, code in enumerate(self.layout)
                     if self.owner[i] < 0 and C.treasure_type(code) == kind]
            if len(slots) > 1:
                self.phase = TAKE
                self.pending = slots
                return
            if slots:
                self._take(seat, slots[0])
        self._after_move()

    def _take(self, seat: int, slot: int) -> None:
        owner = self.owner = self.owner.copy()  # replaced, not changed in place (see clone)
        owner[slot] = seat
        collected = self.collected = self.collected.copy()
        collected[seat] = [*collected[seat], slot]

    def _after_move(self) -> None:
        if min(self.owner) >= 0 or (not self.deck and not any(self.hands)):
            self._end_round()
            return
        draw(self.deck, self.hands[self.turn], self.pending_draw)
        self.pending_draw = 0
        self._next_turn()

    def _next_turn(self) -> None:
        n = self.game.players
        seat = self.turn
        for _ in range(n):
            seat = (seat + 1) % n
            self._expire_trolls(seat)
            if self.hands[seat]:
                self.turn = self.current = seat
                self.phase = CARD
                self.proposed = False
                return
        self._end_round()  # nobody holds a card (cannot happen while the pile lasts)

    def _expire_trolls(self, seat: int) -> None:
        """At the start of its owner's turn (played or sat out) a troll goes [rule]."""
        if not self.in_front[seat]:
            return
        self.trolls = {j: owner for j, owner in self.trolls.items() if owner != seat}
        self.discards += self.in_front[seat]
        front = self.in_front = self.in_front.copy()
        front[seat] = []

    # ------------------------------------------------------------------ round end
    def _end_round(self, reason: str | None = None) -> None:
        """The round is over: ``reason`` "vote", or what the position says (``RoundEnd``)."""
        if reason is None:
            reason = "treasures" if min(self.owner) >= 0 else "exhausted"
        # the board as the round ended, made once when first read (``last_round``); the maze
        # is marked shared so that nothing changes it under the holder (a change copies it)
        self._last_round = self._round_end(reason)
        self._mt.shared = True
        points = round_points(self.dwarves, [[self.layout[s] for s in slots]
                                             for slots in self.collected], self.dragon)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        top = max(points)
        self.results = [*self.results, RoundResult(self._round, points, {
            "dwarves": list(self.dwarves),
            "treasures": [[self.layout[s] for s in slots] for slots in self.collected],
            "dragon": self.dragon,
            "totals": list(self.totals),
            # for tallies by identity (arena): the revealed identities, who scored most
            "roles": [C.identity_of(d) for d in self.dwarves],
            "winners": [s for s, p in enumerate(points) if p == top] if top > 0 else [],
        })]
        self.pending = None
        self.voters = []
        if self._round >= self.game.options.rounds:
            self.terminal = True
            return
        self.turn = (self.turn + 1) % self.game.players
        self._setup_round()

    def _round_end(self, reason: str) -> LaterRoundEnd:
        """The public facts of the round that ends now, as it ends (the board, the pawns and
        the tokens on it), made when first read.  The tokens and the cards in front are
        replaced, never changed in place (see ``clone``), so the holder keeps them as they
        are; the pawns' list is changed in place: a copy."""
        return ended_round(self._round, reason, self.maze, tuple(self.pawn), self.overcome,
                           self.traps, self.trolls, self.in_front)

    # ------------------------------------------------------------------ outcome
    def scores(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def returns(self) -> list[float]:
        """1 shared among the seats with the most points [decision: a tie is shared]."""
        if not self.terminal:
            return [0.0] * self.game.players
        won = self.winners()
        return [1.0 / len(won) if s in won else 0.0 for s in range(self.game.players)]

    def census(self) -> Counter[str]:
        cards: Counter[str] = Counter(self.deck)
        for pile in (*self.hands, *self.in_front, self.discards, self.aside, self.layout,
                     self.treasures_out, self.dwarves, self.dwarf_aside, self.dwarf_removed):
            cards.update(pile)
        for t in self.maze.cells.values():
            code = CAT.codes[t]
            if CAT[code].category != "start":
                cards[code] += 1
        cards.update(self.maze.hidden.values())
        return cards

    def shuffle_hidden(self, seat: int | None, rng: Rng) -> LostMinesState:
        """A copy in which everything ``seat`` cannot know is dealt anew.

        Other hands, the draw pile and the set-aside cards among themselves;
        face-down mines the seat has not looked at; treasure values the seat
        has neither seen nor holds (within each type, with the treasures out of
        the round); other seats' identities it has not seen (within each clan,
        with the dwarf cards set aside).  Finished rounds stay revealed.
        """
        new = self.clone()
        new.rng = Rng(rng.next64())  # the generator decides future deals: unknown too
        others = [s for s in range(self.game.players) if s != seat]
        dealt = redeal(rng, [*(new.hands[s] for s in others), new.deck, new.aside])
        for s, hand in zip(others, dealt, strict=False):
            new.hands[s] = hand
        new.deck, new.aside = dealt[-2], dealt[-1]
        seen = new.seen_mines[seat] if seat is not None else {}
        pending = new.pending[0] if new.phase == ORIENT else None
        cells = [c for c in sorted(new.maze.hidden) if c not in seen and c != pending]
        hidden = new._wmaze().hidden
        for c, code in zip(cells, redeal(rng, [[hidden[c]] for c in cells]), strict=True):
            hidden[c] = code[0]
        new.layout, new.dwarves = new.layout.copy(), new.dwarves.copy()  # shared by the clone
        known = set() if seat is None else self.seen_treasures[seat] | set(self.collected[seat])
        if self.terminal:  # the last round's collected treasures are revealed
            known |= {i for i, o in enumerate(self.owner) if o >= 0}
        for kind in C.TREASURE_TYPES:
            slots = [i for i, code in enumerate(new.layout)
                     if i not in known and C.treasure_type(code) == kind]
            out = [code for code in new.treasures_out if C.treasure_type(code) == kind]
            piles = redeal(rng, [*([new.layout[i]] for i in slots), out])
            for i, pile in zip(slots, piles, strict=False):
                new.layout[i] = pile[0]
            new.treasures_out = [c for c in new.treasures_out
                                 if C.treasure_type(c) != kind] + piles[-1]
        if not self.terminal:
            unknown = [s for s in others
                       if seat is None or s not in self.seen_dwarves[seat]]
            for clan in C.CLANS:
                mine = [s for s in unknown if self.clan(s) == clan]
                spare = [d for d in new.dwarf_aside if C.clan_of(d) == clan]
                piles = redeal(rng, [*([new.dwarves[s]] for s in mine), spare])
                for s, pile in zip(mine, piles, strict=False):
                    new.dwarves[s] = pile[0]
                new.dwarf_aside = [d for d in new.dwarf_aside if C.clan_of(d) != clan] + piles[-1]
        return new

    def view(self, seat: int | None) -> Any:
        from .view import lost_mines_view

        return lost_mines_view(self, seat)


def ended_round(round_no: int, reason: str, board: Board, pawns: tuple[int, ...],
                overcome: set[int], traps: set[int], trolls: dict[int, int],
                in_front: list[list[str]]) -> LaterRoundEnd:
    """``last_round``'s holder of a round that ended so (``LostMinesState._round_end``; the
    compiled core hands it a ``views.EndedBoard`` for the maze)."""
    return LaterRoundEnd(round_no, reason, board,
                         partial(round_end_extra, pawns, overcome, traps, trolls, in_front))


def round_end_extra(pawns: tuple[int, ...], overcome: set[int], traps: set[int],
                    trolls: dict[int, int], in_front: list[list[str]]) -> dict[str, Any]:
    """``RoundEnd.extra`` of a round that ended with these pawns (cells), forest tiles
    (cells), traps and trolls (joints; the seat whose troll) and cards in front."""
    return {
        "pawns": tuple(map(xy, pawns)),
        "forest": tuple(sorted(map(xy, overcome))),
        "traps": tuple([(*xy(j >> 4), "E" if j & 15 == 2 else "S") for j in sorted(traps)]),
        "trolls": tuple([(*xy(j >> 4), "E" if j & 15 == 2 else "S", s)
                         for j, s in sorted(trolls.items())]),
        "in_front": tuple(map(tuple, in_front)),
    }


def round_points(dwarves: list[str], treasures: list[list[str]], dragon: int | None) -> list[int]:
    """Scoring of one round [rule], from each seat's dwarf card and treasures.

    Selfish dwarves keep their own; everyone else shares a clan's total (a
    saboteur with the opposing clan), rounded down; the remainder goes to the
    members with the single most valuable treasure, split evenly, the rest is
    lost; the dragon then costs its holder up to 2 of these points.

    >>> round_points(["blue-loyal", "blue-loyal", "yellow-saboteur", "yellow-selfish"],
    ...              [["gold-5"], ["gems-2"], ["silver-2"], ["gems-6"]], 0)
    [1, 3, 3, 6]
    """
    values = [sum(CAT[t].value for t in pile) for pile in treasures]
    best = [max((CAT[t].value for t in pile), default=0) for pile in treasures]
    points = [0] * len(dwarves)
    teams: dict[str, list[int]] = {clan: [] for clan in C.CLANS}
    for seat, dwarf in enumerate(dwarves):
        identity, clan = C.identity_of(dwarf), C.clan_of(dwarf)
        if identity == C.SELFISH:
            points[seat] = values[seat]
        elif identity == C.SABOTEUR:
            teams[C.other_clan(clan)].append(seat)
        else:
            teams[clan].append(seat)
    for members in teams.values():
        if not members:
            continue
        total = sum(values[m] for m in members)
        share, rest = divmod(total, len(members))
        for m in members:
            points[m] += share
        if rest:
            top = max(best[m] for m in members)
            tied = [m for m in members if best[m] == top]
            for m in tied:
                points[m] += rest // len(tied)
    if dragon is not None:
        points[dragon] -= min(C.DRAGON_PENALTY, points[dragon])
    return points


#: what ``LostMinesState.clone`` copies, for the compiled core's clone (``core/clone.c``)
_CLONE_SPEC = CloneSpec(("history", "actors", "pawn", "pawn_seg", "deck", "aside", "discards"),
                        ("hands",), LostMinesState, "rng", RNG_CLONE, "_mt", False)
