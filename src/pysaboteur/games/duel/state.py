"""Saboteur: The Duel (two players) and its solo mode: the rules (duel.md).

The maze keeps one reach context per colour (doors and keys make them differ);
everything else is flat lists and dicts.  A turn is: any bribes, one main
option, any bribes, then the draw.  A goal whose orientation is a real choice
pauses the state for the acting player's ``Orient`` decision.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain, product
from typing import Any

from ...core import CLONES, RNG_NEW, UNKNOWN, CloneSpec, compiled_clone
from ...engine.actions import (
    Action,
    Bribe,
    Discard,
    EndTurn,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnPlayer,
    cards_of,
)
from ...engine.errors import (
    Blocked,
    CardNotInHand,
    IllegalAction,
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
from ...engine.goals import GoalReveals, goal_orientations
from ...engine.maze import (
    FITS,
    NO_ENTER,
    NO_LEAVE,
    Maze,
    Memo,
    SharedMaze,
    around,
    cell,
    cell_actions_of,
    placements_of,
    xy,
)
from ...engine.menu import LISTED, Entry, MenuState, compiled_setup
from ...engine.moves import add_template_passes, hand_template, nth_template_pass
from ...engine.position import StartLayout
from ...engine.rng import Rng
from ...engine.views import Board, LaterRoundEnd, RoundEnd, round_end
from . import cards as C

MAIN, AFTER, ORIENT = 0, 1, 2
PHASE_NAMES = ("main", "after", "orient")

# what to do when a settle (claims and reveals) that paused for an orientation finishes
_RESUME_MAIN, _RESUME_AFTER = 0, 1

CAT = C.CATALOGUE
_DECK_PATHS = tuple(CAT.box(["path"]))
_ACTIONS = tuple(CAT.box(["action"]))
_GOALS = tuple(CAT.box(["goal"]))
#: the cards of a round before any gold left the game, sorted (the order they are shuffled in)
_ROUND_CARDS = tuple(sorted(_ACTIONS + _DECK_PATHS))
#: the effects of the cards that act when drawn in solo, never staying in hand (_solo_drawn)
_SOLO_ACTING = ("break", "rockfall")
_DECK_PATH_SET = frozenset(_DECK_PATHS)

# menu entry kinds (see DuelState._menu)
_M_LIST, _M_BRIBE, _M_PLACE, _M_CELL, _M_DISCARD, _M_PASS, _M_FIT = range(7)

# flat per-code and per-oriented-tile tables for the hot paths
_CATEGORY = {k.code: k.category for k in CAT.kinds}
_EFFECT = {k.code: k.effect for k in CAT.kinds}
_DOOR = {k.code: k.features.door for k in CAT.kinds}
_LADDER = {k.code: k.features.ladder for k in CAT.kinds}
_TOOLS = {k.code: k.tools for k in CAT.kinds}
#: bit set of the oriented tiles (distinct orientations) of each tile card
_CODE_TILES = {code: sum(1 << t for _, t in ways) for code, ways in CAT.orientations.items()}
#: placements are values, each made once (``Placements``): _PLACES[cell << 8 | oriented tile]
_PLACES = placements_of(CAT)


#: per colour: path card -> bit set of its oriented tiles, for the cards that need a
#: connection and may connect for that colour (no door of the other colour: its only
#: segment would be locked to the player); ladders are listed apart
_TILES_FOR = {colour: {code: _CODE_TILES[code] for code in CAT.orientations
                       if _CATEGORY[code] == "path" and _LADDER[code] is None
                       and _DOOR[code] in (None, colour)}
              for colour in C.COLOURS}
_LADDERS_FOR = {colour: frozenset(code for code in CAT.orientations
                                  if _CATEGORY[code] == "path" and _LADDER[code] is not None
                                  and _DOOR[code] in (None, colour))
                for colour in C.COLOURS}
#: oriented tiles a rockfall may remove: path cards showing neither gold nor a troll
_REMOVABLE = [CAT[code].category == "path" and not f.gold and not f.troll
              for code, f in zip(CAT.codes, CAT.features, strict=True)]
#: per colour: oriented tiles that are doors of the other colour
_LOCKED = {colour: [f.door not in (None, colour) for f in CAT.features] for colour in C.COLOURS}
#: action cards aimed at a seat, made once: (code, seat, tool) -> action
_ON_PLAYER: dict[tuple[str, int, str | None], PlayOnPlayer] = {}


def _on_player(code: str, seat: int, tool: str | None = None) -> PlayOnPlayer:
    action = _ON_PLAYER.get((code, seat, tool))
    if action is None:
        action = _ON_PLAYER[code, seat, tool] = PlayOnPlayer(code, seat, tool)
    return action


class _Kept(tuple[Any, ...]):
    """A value kept beside the position, derived from it (a cache: see ``_frontier``): like
    ``maze.Memo``, not part of the position, so kept values compare equal whatever they
    hold (a state played on the compiled core, which forgets them, equals its pure twin).
    Replaced, never changed in place: clones share them (copy-on-write)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Kept)

    def __ne__(self, other: object) -> bool:
        return not isinstance(other, _Kept)

    __hash__ = None  # type: ignore[assignment]


#: nothing kept yet
_UNKEPT = _Kept()

_MAX_BIT_SETS = 1 << 16  # bit sets kept (about 10 MB): forgotten, all at once, past it


class _Bits(dict[int, tuple[int, ...]]):
    """A bit set -> its set bits, ascending (the oriented tiles of a cell's placements).

    The sets met keep growing slowly (about 15,000 after 500 random matches), so a
    long-running server forgets them past ``_MAX_BIT_SETS`` instead of growing for ever.
    """

    def __missing__(self, key: int) -> tuple[int, ...]:
        if len(self) >= _MAX_BIT_SETS:
            self.clear()
        bits = []
        m = key
        while m:
            low = m & -m
            bits.append(low.bit_length() - 1)
            m ^= low
        out = self[key] = tuple(bits)
        return out


class _OnCell(dict[int, PlacePath]):
    """The placements on one cell, by oriented tile (the ``_PLACES`` objects)."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.key = c << 8

    def __missing__(self, otile: int) -> PlacePath:
        action = self[otile] = _PLACES[self.key | otile]
        return action


class _ByCell(dict[int, _OnCell]):
    def __missing__(self, c: int) -> _OnCell:
        table = self[c] = _OnCell(c)
        return table


#: listing a cell's placements is one ``map`` over its tiles: _ON_CELL[cell][otile],
#: the tiles from _BITS[fitting tile set]
_BITS = _Bits()
_ON_CELL = _ByCell()

#: bit set of the oriented tiles that fit each fit constraint
_FITSET = [sum(1 << t for t, om in enumerate(CAT.open_mask) if FITS[con][om]) for con in range(256)]


assert C.PASS_MAX <= 3, "passes come from engine.moves.Template (1 to 3 cards)"


def _decode(tag: int, a: Any, b: Any, i: int) -> Action:
    """The ``i``-th action of one menu entry."""
    if tag == _M_FIT:
        for c, m in b:
            k = m.bit_count()
            if i < k:
                for _ in range(i):
                    m &= m - 1  # drop the lowest tile
                return _PLACES[c << 8 | (m & -m).bit_length() - 1]
            i -= k
        raise IndexError("placement index out of range")
    if tag == _M_PLACE:  # a: the oriented tile, b: the cells
        return _PLACES[b[i] << 8 | a]
    if tag == _M_CELL:
        return cell_actions_of(a)[b[i]]
    if tag == _M_BRIBE:
        return Bribe(*xy(b[i]))
    if tag == _M_LIST:
        return a[i]  # type: ignore[no-any-return]
    if tag == _M_DISCARD:
        return Discard(a[i % len(a)], b[i // len(a)])
    return nth_template_pass(a, b, i)


@dataclass(frozen=True)
class DuelOptions(Options):
    #: colour of seat 0 in the two-player game (seat 1 plays the other)
    seat0_colour: str = option(C.GREEN, choices=C.COLOURS, players=(2, 2))
    #: 4 = each colour has its own 4 markers instead of one shared pool of 8
    markers_per_player: int | None = option(None, choices=(None, C.MARKERS_SPLIT),
                                            players=(2, 2))
    #: the solo player's colour
    solo_colour: str = option(C.GREEN, choices=C.COLOURS, players=(1, 1))

    def __post_init__(self) -> None:
        for colour in (self.seat0_colour, self.solo_colour):
            if colour not in C.COLOURS:
                raise ValueError(f"colour must be one of {C.COLOURS}, not {colour!r}")
        if self.markers_per_player not in (None, C.MARKERS_SPLIT):
            raise ValueError(f"markers_per_player must be {C.MARKERS_SPLIT} or unset")


class DuelGame(Game):
    """Saboteur: The Duel for two players, or its solo mode for one."""

    name = "duel"
    title = "Saboteur: The Duel"
    min_players = 1
    max_players = 2
    catalogue = CAT

    def __init__(self, players: int = 2, **options: Any) -> None:
        super().__init__(players, DuelOptions(**options))
        self.options: DuelOptions
        self.solo = players == 1
        if self.solo:
            self.colours: tuple[str, ...] = (self.options.solo_colour,)
        else:
            first = self.options.seat0_colour
            self.colours = (first, C.BLUE if first == C.GREEN else C.GREEN)
        # one reach context per colour in play, in seat order
        self.starts = ({self.colours[0]: C.SOLO_START} if self.solo else C.STARTS)
        self.goal_cells = C.SOLO_GOAL_CELLS if self.solo else C.GOAL_CELLS
        self.goal_cell_ids = tuple(cell(x, y) for x, y in self.goal_cells)
        #: the cells next to a goal card, where no ladder may go
        self.near_goals = around(self.goal_cell_ids)
        if self.solo:
            self.pools: tuple[int, ...] = (C.SOLO_MARKERS,)
            self.pool_of_seat: tuple[int, ...] = (0,)
        elif self.options.markers_per_player:
            self.pools = (C.MARKERS_SPLIT, C.MARKERS_SPLIT)
            self.pool_of_seat = (0, 1)
        else:
            self.pools = (C.MARKERS,)
            self.pool_of_seat = (0, 0)

    @property
    def mode(self) -> str:
        return "solo" if self.solo else "duel"

    def new_state(self, seed: int, deal: Deal | None = None) -> DuelState:
        return DuelState(self, seed, deal)

    def start_layout(self) -> StartLayout:
        """Round 1's dealing: the goals are one pile for the match; solo sets cards aside
        and never keeps a sabotage or rockfall in hand (they act when drawn)."""
        acting = frozenset(c for c in _ROUND_CARDS if CAT[c].effect in _SOLO_ACTING)
        return StartLayout(deck=_ROUND_CARDS, aside=C.SOLO_SET_ASIDE if self.solo else 0,
                           hand=C.HAND_SIZE, first=_first_seat(self.colours),
                           goal_box=_GOALS, goal_cells=tuple(self.goal_cells),
                           goal_orderings=1,
                           never_in_hand=acting if self.solo else frozenset())


def _first_seat(colours: tuple[str, ...]) -> int:
    """The seat that begins round 1: green's [rule] (solo: the only one)."""
    return colours.index(C.GREEN) if C.GREEN in colours else 0


def _value(code: str) -> int:
    kind = CAT[code]
    return kind.tile.features.gold if kind.tile is not None else 0


def ended_round(round_no: int, reason: str, maze: Board, markers: dict[int, int],
                bribes: dict[int, int], keys: dict[int, int],
                in_front: tuple[tuple[str, ...], ...]) -> RoundEnd:
    """The Duel's ``RoundEnd`` of a round's pieces as it ended (``last_round``, first read):
    the board, the markers and bribes ((x, y, seat)), the doors opened, the cards in front."""
    return round_end(round_no, reason, maze, {
        "markers": tuple([(*xy(c), s) for c, s in sorted(markers.items())]),
        "bribes": tuple([(*xy(c), s) for c, s in sorted(bribes.items())]),
        "keys": tuple(sorted(map(xy, keys))),
        "in_front": in_front,
    })


def choose_payment(gold: list[str], debt: int) -> list[str]:
    """Gold cards paying ``debt`` with no change: least excess, then fewest cards.

    A player whose gold does not cover the debt pays everything.  Among cards
    of equal value the oldest go first.

    >>> choose_payment(["gold:EW", "goal3:EW", "goal2:NESW"], 2)
    ['goal2:NESW']
    >>> choose_payment(["goal3:EW"], 2)
    ['goal3:EW']
    """
    if debt <= 0:
        return []
    if sum(map(_value, gold)) <= debt:
        return list(gold)
    by_value: dict[int, list[str]] = {}
    for code in gold:
        by_value.setdefault(_value(code), []).append(code)
    values = sorted(by_value)
    best: tuple[int, int, tuple[int, ...]] | None = None
    for counts in product(*(range(len(by_value[v]) + 1) for v in values)):
        total = sum(v * n for v, n in zip(values, counts, strict=True))
        if total < debt:
            continue
        key = (total - debt, sum(counts), counts)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return [code for v, n in zip(values, best[2], strict=True) for code in by_value[v][:n]]


class DuelState(SharedMaze, GoalReveals, MenuState):
    """A position of a Duel (or solo) match."""

    MAIN_PHASE = MAIN

    def __init__(self, game: DuelGame, seed: int, deal: Deal | None = None) -> None:
        self.game: DuelGame = game
        self._begin(game, seed, deal)
        seats = game.players
        self.gold: list[list[str]] = [[] for _ in range(seats)]
        self.paid: list[str] = []  # gold cards paid for trolls: out of the game
        self.out: list[str] = []  # goal cards gone from the game unseen or unclaimed
        self.goals_seen: list[str] = []  # every goal card turned face up in this match (public)
        fast = compiled_setup(type(self)) if deal is None else None
        goals = list(_GOALS)
        if deal is not None and deal.goals:
            check_same_cards(deal.goals, _GOALS, "goal order")
            self.goals_left = list(reversed(deal.goals))  # next goal = last
        else:
            if fast is None:  # (the compiled set-up shuffles them first, the same numbers)
                self.rng.shuffle(goals)
            self.goals_left = goals
        self._round = 0
        self.terminal = False
        self.turn = _first_seat(game.colours)
        if fast is None:
            self._setup_round()
        else:  # the compiled core (issue 24): the same round, the same numbers drawn
            fast(self)

    # ------------------------------------------------------------------ set-up
    def _setup_round(self) -> None:
        game = self.game
        self._round += 1
        seats = game.players
        self.maze = maze = Maze(CAT, len(game.colours))
        self._mt = Memo()  # whether a clone shares the maze (see clone)
        for ctx, colour in enumerate(game.colours):
            x, y = game.starts[colour]
            maze.place(cell(x, y), CAT.otile[f"start-{colour}", False], source_for=(ctx,))
        self.goals_left = self.goals_left.copy()  # copy-on-write (see clone)
        self.round_goals = [self.goals_left.pop() for _ in range(C.GOALS_PER_ROUND)]
        for (x, y), code in zip(game.goal_cells, self.round_goals, strict=True):
            maze.put_hidden(cell(x, y), code)
        cards = list(_ROUND_CARDS)  # sorted
        for code in chain(*self.gold, self.paid):  # gold taken out of the game stays out
            if code in _DECK_PATH_SET and code in cards:
                cards.remove(code)
        fixed = self.deal.deck(self._round) if self.deal is not None else None
        if fixed is not None:
            check_same_cards(fixed, cards, f"deck of round {self._round}")
            self.deck = list(reversed(fixed))  # top of the pile = end of the list
        else:
            self.rng.shuffle(cards)
            self.deck = cards
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.discards: list[str] = []  # face up: everybody knows them
        self.passed: list[list[str]] = [[] for _ in range(seats)]  # face down, per seat
        self.in_front: list[list[str]] = [[] for _ in range(seats)]
        self.markers: dict[int, int] = {}  # gold card cell -> seat whose marker is on it
        self.bribes: dict[int, int] = {}  # troll cell -> seat who bribed it
        self.keys: dict[int, int] = {}  # door cell -> seat who put the key there
        self.keys_left = C.KEY_TOKENS
        self.pools = list(game.pools)
        self.forced: dict[int, int] = {}  # revealed goal -> contexts whose start revealed it
        self.unclaimed_gold: set[int] = set()
        self.trolls: set[int] = set()  # troll cards not yet bribed
        self._forget_kept()
        self.seen: list[dict[int, str]] = [{} for _ in range(seats)]
        self.bribes_made = [0] * seats
        self.phase = MAIN
        self.pending: tuple[int, tuple[bool, ...]] | None = None
        self.resume = _RESUME_AFTER
        self.pending_draw = 0
        self.aside: list[str] = []
        if game.solo:
            self.aside = [self.deck.pop() for _ in range(min(C.SOLO_SET_ASIDE, len(self.deck)))]
        if game.solo:  # solo drawing has its own rules (see _solo_draw)
            for _ in range(C.HAND_SIZE):
                self._solo_draw(self.turn, 1)
        else:
            deal_round(self.deck, self.hands, self.turn, C.HAND_SIZE)
        self.current = self.turn

    def _forget_kept(self) -> None:
        """Drop the values kept beside the position (recomputed when next needed): a new
        round, a determinized copy, the compiled core's play-out after changing the maze."""
        seats = self.game.players
        self._forbidden = _UNKEPT  # (forbidden cells,): see _ladder_forbidden
        self._front = _Kept((None,) * seats)  # see _frontier
        self._doors = _Kept((None,) * seats)  # see _locked_doors
        self._ladders = _UNKEPT  # (version, forbidden cells, cells): see _ladder_cells

    # ------------------------------------------------------------------ basics
    def colour(self, seat: int) -> str:
        return self.game.colours[seat]

    def opponent(self, seat: int) -> int | None:
        return None if self.game.solo else 1 - seat

    def broken(self, seat: int) -> set[str]:
        tools = _TOOLS
        return {tools[c][0] for c in self.in_front[seat]}

    def markers_left(self, seat: int) -> int:
        return self.pools[self.game.pool_of_seat[seat]]

    def clone(self) -> DuelState:
        """A copy to play on.  Only what every turn changes is copied; the fields that
        change rarely (markers, keys, gold, results...) are copy-on-write: the code
        never changes them in place, it replaces them, so clones may share them.  The
        maze is shared until either state changes it (``_wmaze``).  On the compiled core the
        same clone is made in C (``core/clone.c``, from :data:`_CLONE_SPEC`)."""
        fast = CLONES.get(type(self), UNKNOWN)
        if fast is UNKNOWN:
            fast = compiled_clone(type(self), _CLONE_SPEC)
        if fast is not None:
            return fast(self)  # type: ignore[no-any-return]
        new = DuelState.__new__(DuelState)
        new.__dict__ = self.__dict__.copy()  # see engine.game.State.clone on copying the dict
        new.rng = Rng(self.rng.state)
        self._mt.shared = True
        memo = new._mt = Memo()
        memo.shared = True
        new.history = self.history.copy()
        new.actors = self.actors.copy()
        new.deck = self.deck.copy()
        new.discards = self.discards.copy()
        new.aside = self.aside.copy()
        new.hands = [h.copy() for h in self.hands]
        new.passed = [p.copy() for p in self.passed]
        new.in_front = [f.copy() for f in self.in_front]
        return new

    # ------------------------------------------------------------------ legality
    # Legal actions are built from a *menu*: groups of actions that share a card
    # and a kind, each holding only what distinguishes its members (cells, card
    # combinations).  Listing expands every group; the rollout path counts the
    # groups and decodes just the chosen action.  Both give the same order.
    def _menu(self, listing: bool = False) -> list[Entry]:
        """The menu.  ``listing``: every action will be built (``legal_actions``), so the
        placements and passes, most of the list, are built as they are found instead of
        counted first, and the menu is one entry (``_M_LIST``) holding every action."""
        if self.terminal:
            return []
        if self.phase == ORIENT:
            assert self.pending is not None
            ways = [Orient(r) for r in self.pending[1]]
            return [(len(ways), _M_LIST, ways, None)]
        seat = self.current
        menu: list[Entry] = []
        bribes = self._bribable(seat) if self.trolls else None
        if bribes:
            menu.append((len(bribes), _M_BRIBE, None, bribes))
        if self.phase == AFTER:
            menu.append((1, _M_LIST, [EndTurn()], None))
            return menu
        listed: list[Action] | None = None
        if listing:
            listed = self._expand(menu) if menu else []
            menu = []
        h = sorted(self.hands[seat])
        tpl = hand_template(h)
        distinct = h if len(tpl.ones) == len(h) else list(map(h.__getitem__, tpl.ones))
        front = self.in_front[seat]
        if not front:
            self._placement_menu(seat, distinct, menu, listed)
        for code in distinct:
            if _CATEGORY[code] == "action":
                self._action_menu(seat, code, menu)
        if front and len(h) >= C.DISCARD_TO_REPAIR:
            assert C.DISCARD_TO_REPAIR == 2, "discard combinations are the template's pairs"
            combos = [(h[i], h[j]) for i, j in tpl.pairs]
            targets = sorted(set(front))
            menu.append((len(combos) * len(targets), _M_DISCARD, combos, targets))
        if listed is None:
            if h:
                menu.append((tpl.passes[C.PASS_MAX], _M_PASS, h, tpl))
            return menu
        if menu:  # the action cards' and discards' entries, after the placements
            listed += self._expand(menu)
        if h:
            add_template_passes(listed, h, tpl, tpl.passes[C.PASS_MAX])
        return [(len(listed), _M_LIST, listed, LISTED)]

    _decode = staticmethod(_decode)

    def _expand(self, menu: list[Entry]) -> list[Action]:
        """The actions of the entries a listing menu expands (bribes, the end of a turn,
        action cards, discards); placements and passes it builds as it finds them."""
        out: list[Action] = []
        for count, tag, a, b in menu:
            if tag == _M_LIST:
                out += a
            elif tag == _M_CELL:
                out += map(cell_actions_of(a).__getitem__, b)
            else:
                out += [_decode(tag, a, b, i) for i in range(count)]
        return out

    def _placement_menu(self, seat: int, distinct: list[str], menu: list[Entry],
                        listed: list[Action] | None = None) -> None:
        """Placements: for every cell a reachable edge points at, the hand's tiles that fit.

        The tiles of the hand are a bit set; each cell's fit constraint indexes a
        precomputed bit set of fitting tiles; their AND is the cell's placements.
        Ladders (which need no connection) follow, card by card.  With ``listed``, the
        placements are added to it instead of the menu.
        """
        maze = self.maze
        colour = self.game.colours[seat]
        tiles_of, ladder_codes = _TILES_FOR[colour], _LADDERS_FOR[colour]
        tiles = 0
        ladders = []
        for code in distinct:
            t = tiles_of.get(code)
            if t is not None:
                tiles |= t
            elif code in ladder_codes:
                ladders.append(code)
        if not tiles and not ladders:
            return
        targets, fitting_tiles = self._frontier(seat)
        if tiles:
            if listed is not None:
                on_cell, bits = _ON_CELL, _BITS
                for c, fit in fitting_tiles:
                    m = fit & tiles
                    if m:
                        listed += map(on_cell[c].__getitem__, bits[m])
            else:
                fits = []
                total = 0
                for c, fit in fitting_tiles:
                    m = fit & tiles
                    if m:
                        fits.append((c, m))
                        total += m.bit_count()
                if fits:
                    menu.append((total, _M_FIT, None, fits))
        for code in ladders:
            if self._is_joined_ladder(code):
                cells = self._ladder_cells()
            else:  # solo: the other colour's ladder is a path card with a ladder's limits
                forbidden = self._ladder_forbidden()
                cells = [c for c in targets if c not in forbidden]
            for _, otile in CAT.orientations[code]:
                om = CAT.open_mask[otile]
                fitting = [c for c in cells if FITS[maze.constraint.get(c, 0)][om]]
                if not fitting:
                    continue
                if listed is not None:
                    on_cell = _ON_CELL
                    listed += [on_cell[c][otile] for c in fitting]
                else:
                    menu.append((len(fitting), _M_PLACE, otile, fitting))

    def _frontier(self, seat: int) -> tuple[list[int], list[tuple[int, int]]]:
        """The empty cells the seat's reachable edges point at, sorted (so that the order
        of legal moves depends on the position only), each with the bit set of the
        oriented tiles that fit there.  Kept until the maze changes: most turns in a
        rollout are passes and reuse it."""
        version = self.maze.version
        entry = self._front[seat]
        if entry is None or entry[0] != version:
            maze = self.maze
            targets = sorted(maze.reach_in[seat].keys() - maze.hidden.keys())
            fitset, constraint = _FITSET, maze.constraint.get
            entry = (version, targets, [(c, fitset[constraint(c, 0)]) for c in targets])
            front = list(self._front)  # copy-on-write (see clone)
            front[seat] = entry
            self._front = _Kept(front)
        return entry[1], entry[2]

    def _action_menu(self, seat: int, code: str, menu: list[Entry]) -> None:
        maze = self.maze
        effect = _EFFECT[code]
        if effect == "break":
            if not self.game.solo and (not self.in_front[1 - seat]
                                       or _TOOLS[code][0] not in self.broken(1 - seat)):
                menu.append((1, _M_LIST, [_on_player(code, 1 - seat)], None))
            return
        if effect == "repair":
            if not self.in_front[seat]:
                return
            broken = self.broken(seat)
            tools = _TOOLS[code]
            two = len(tools) > 1
            repairs = [_on_player(code, seat, t if two else None) for t in tools if t in broken]
            if repairs:
                menu.append((len(repairs), _M_LIST, repairs, None))
            return
        if effect == "key":
            cells = self._locked_doors(seat) if self.keys_left else []
        elif effect == "rockfall":
            removable = _REMOVABLE
            cells = [c for c, t in maze.cells.items() if removable[t]]
        elif effect == "map":
            cells = sorted(maze.hidden)
        else:
            raise AssertionError(effect)
        if cells:
            menu.append((len(cells), _M_CELL, code, cells))

    def _is_joined_ladder(self, code: str) -> bool:
        """A ladder needs no connection; in solo only the player's own colour's ladder."""
        colour = _LADDER[code]
        return colour is not None and (not self.game.solo or colour == self.game.colours[0])

    def _near_goal_or_gold(self, c: int) -> bool:
        return c in self._ladder_forbidden()

    def _ladder_forbidden(self) -> frozenset[int]:
        """Cells next to a goal card (face down or up) or a card showing gold.

        Kept until a card showing gold appears (``lay``, ``_reveal``, a new round).
        """
        if not self._forbidden:
            gold = (*self.unclaimed_gold, *self.markers)
            near = self.game.near_goals
            self._forbidden = _Kept((near | around(gold) if gold else near,))
        return self._forbidden[0]  # type: ignore[no-any-return]

    def _ladder_cells(self) -> list[int]:
        """Empty cells next to a path card, not next to a goal or a card showing gold.

        Kept until the maze or the forbidden cells change (like ``_frontier``).
        """
        forbidden = self._ladder_forbidden()
        version = self.maze.version
        entry = self._ladders
        if not entry or entry[0] != version or entry[1] is not forbidden:
            cells = sorted(c for c in self.maze.constraint if c not in forbidden)
            entry = self._ladders = _Kept((version, forbidden, cells))
        return entry[2]  # type: ignore[no-any-return]

    def _locked_doors(self, seat: int) -> list[int]:
        """The doors of the other colour without a key, in the maze's order.

        Kept per seat until the maze or the keys change (like ``_frontier``).
        """
        maze, keys = self.maze, self.keys
        entry = self._doors[seat]
        if entry is None or entry[0] != maze.version or entry[1] is not keys:
            locked = _LOCKED[self.colour(seat)]
            cells = [c for c, t in maze.cells.items() if locked[t] and c not in keys]
            entry = (maze.version, keys, cells)
            doors = list(self._doors)  # copy-on-write (see clone)
            doors[seat] = entry
            self._doors = _Kept(doors)
        return entry[2]  # type: ignore[no-any-return]

    def _removable(self, c: int) -> bool:
        return _REMOVABLE[self.maze.cells[c]]

    def _bribable(self, seat: int) -> list[int]:
        if not self.trolls or not self.pools[self.game.pool_of_seat[seat]]:
            return []
        reach = self.maze.reach[seat]
        return sorted(c for c in self.trolls if c in reach)

    # ------------------------------------------------------------------ explanations
    def explain(self, action: Action) -> IllegalAction:
        seat = self.current
        if self.phase == ORIENT:
            if isinstance(action, Orient):
                return InvalidTarget("orientation-not-offered")
            return WrongPhase("orient-first")
        if isinstance(action, Orient):
            return WrongPhase("nothing-to-orient")
        if isinstance(action, Bribe):
            c = cell(action.x, action.y)
            t = self.maze.cells.get(c)
            if t is None or not CAT.features[t].troll:
                return InvalidTarget("no-troll-there")
            if c in self.bribes:
                return InvalidTarget("troll-bribed")
            if not self.markers_left(seat):
                return Blocked("no-markers")
            return InvalidTarget("troll-out-of-reach")
        if isinstance(action, EndTurn):
            return WrongPhase("option-first")
        if self.phase == AFTER:
            return WrongPhase("option-taken")
        cards = cards_of(action)
        missing = Counter(cards) - Counter(self.hands[seat])
        if missing:
            return CardNotInHand("not-in-hand", cards=", ".join(missing))
        if isinstance(action, PlacePath):
            return self._explain_placement(seat, action)
        if isinstance(action, Pass) and not 1 <= len(action.cards) <= C.PASS_MAX:
            return InvalidTarget("pass-count", n=C.PASS_MAX)
        if isinstance(action, Discard):
            if len(action.cards) != C.DISCARD_TO_REPAIR:
                return InvalidTarget("discard-count", n=C.DISCARD_TO_REPAIR)
            return InvalidTarget("not-in-front", card=action.remove)
        if isinstance(action, PlayOnPlayer):
            return self._explain_on_player(seat, action)
        if isinstance(action, PlayOnCell):
            return self._explain_on_cell(seat, action)
        return IllegalAction("not-legal-now", action=str(action))

    def _explain_placement(self, seat: int, a: PlacePath) -> IllegalAction:
        if CAT[a.card].category != "path":
            return InvalidTarget("not-path-card", card=a.card)
        if self.in_front[seat]:
            return Blocked("cannot-build", cards=", ".join(self.in_front[seat]))
        c = cell(a.x, a.y)
        if self.maze.occupied(c):
            return IllegalPlacement("cell-taken", x=a.x, y=a.y)
        if not self.maze.fits(c, CAT.otile[a.card, a.rotated]):
            return IllegalPlacement("does-not-fit", card=a.card, x=a.x, y=a.y)
        door = CAT[a.card].features.door
        if door not in (None, self.colour(seat)):
            return IllegalPlacement("door-locked", door=door)
        if self._is_joined_ladder(a.card):
            if c not in self.maze.constraint:
                return IllegalPlacement("ladder-next-to-path")
            return IllegalPlacement("ladder-near-goal-gold")
        if (self.game.solo and CAT[a.card].features.ladder is not None
                and self._near_goal_or_gold(c)):
            return IllegalPlacement("ladder-near-goal-gold")
        return IllegalPlacement("not-connected-yours", x=a.x, y=a.y)

    def _explain_on_player(self, seat: int, a: PlayOnPlayer) -> IllegalAction:
        kind = CAT[a.card]
        if kind.effect == "break":
            if a.target != self.opponent(seat):
                return InvalidTarget("break-opponent")
            return InvalidTarget("already-broken", tool=kind.tools[0])
        if kind.effect == "repair":
            if a.target != seat:
                return InvalidTarget("repair-own")
            if len(kind.tools) > 1 and a.tool not in kind.tools:
                return InvalidTarget("name-the-tool", seat=seat, first=kind.tools[0],
                                     second=kind.tools[1])
            return InvalidTarget("no-broken-tool")
        return InvalidTarget("not-on-player", card=a.card)

    def _explain_on_cell(self, seat: int, a: PlayOnCell) -> IllegalAction:
        kind = CAT[a.card]
        c = cell(a.x, a.y)
        if kind.effect == "key":
            if not self.keys_left:
                return Blocked("no-keys")
            return InvalidTarget("key-target")
        if kind.effect == "rockfall":
            return InvalidTarget("rockfall-target-duel")
        if kind.effect == "map":
            return InvalidTarget("map-target")
        if c not in self.maze.cells:
            return InvalidTarget("not-on-cell", card=a.card)
        return InvalidTarget("not-there", card=a.card)

    # ------------------------------------------------------------------ playing
    def _apply(self, action: Action) -> None:
        seat = self.current
        self.actors.append(seat)
        kind = type(action)
        a: Any = action
        if kind is Pass:  # the commonest move in random play, first
            hand = self.hands[seat]
            for code in a.cards:
                hand.remove(code)
            self.passed[seat] += a.cards
            self.pending_draw = len(a.cards)
            self.resume = _RESUME_AFTER
            self._after_main()
            return
        if kind is Orient:
            if self._orient(seat, a.rotated):
                self._resume()
            return
        if kind is Bribe:
            self._bribe(seat, cell(a.x, a.y))
            return
        if kind is EndTurn:
            self._end_turn()
            return
        hand = self.hands[seat]
        self.pending_draw = 1
        settle = False
        if kind is PlacePath:
            hand.remove(a.card)
            self.lay(cell(a.x, a.y), CAT.otile[a.card, a.rotated])
            settle = True
        elif kind is PlayOnPlayer:
            hand.remove(a.card)
            if _EFFECT[a.card] == "break":
                self.in_front[a.target].append(a.card)
            else:
                tool = a.tool or _TOOLS[a.card][0]
                front = self.in_front[a.target]
                broken = next(c for c in front if _TOOLS[c][0] == tool)
                front.remove(broken)
                self.discards += (a.card, broken)
        elif kind is PlayOnCell:
            hand.remove(a.card)
            c = cell(a.x, a.y)
            effect = _EFFECT[a.card]
            self.discards.append(a.card)
            if effect == "map":
                seen = self.seen.copy()  # copy-on-write (see clone)
                seen[seat] = {**seen[seat], c: self.maze.hidden[c]}
                self.seen = seen
            elif effect == "rockfall":
                self._rockfall(c)
            else:  # key
                self.keys_left -= 1
                self.keys = {**self.keys, c: seat}
                self._refresh_blocks(c)
                settle = True
        elif kind is Discard:
            for code in a.cards:
                hand.remove(code)
            self.in_front[seat].remove(a.remove)
            self.discards += (*a.cards, a.remove)
        else:
            raise AssertionError(action)
        self.resume = _RESUME_AFTER
        if settle and not self._settle(seat):
            return
        self._after_main()

    def lay(self, c: int, otile: int) -> None:
        """Put a path card on the maze with its bookkeeping (no rules checked, nothing settled).

        The one way a deck card gets onto the grid; tests use it to build positions.
        """
        f = CAT.features[otile]
        source = ((self.game.colours.index(f.ladder),)
                  if f.ladder is not None and self._is_joined_ladder(CAT.codes[otile]) else ())
        blocks = self._blocks(c, otile) if f.door is not None or f.troll else None
        self._wmaze().place(c, otile, blocks, source)
        if f.gold:
            self.unclaimed_gold = self.unclaimed_gold | {c}
            self._forbidden = _UNKEPT
        elif f.troll and c not in self.bribes:
            self.trolls = self.trolls | {c}

    def _blocks(self, c: int, otile: int) -> list[int] | None:
        f = CAT.features[otile]
        if f.door is not None:
            locked = c not in self.keys
            return [NO_ENTER if locked and colour != f.door else 0 for colour in self.game.colours]
        if f.troll and c not in self.bribes:
            return [NO_LEAVE] * len(self.game.colours)
        return None

    def _refresh_blocks(self, c: int) -> None:
        """The passage flags of ``c`` after a bribe or a key (which only lift them)."""
        maze = self._wmaze()
        blocks = self._blocks(c, maze.cells[c]) or [0] * len(self.game.colours)
        for ctx, flags in enumerate(blocks):
            maze.change_block(ctx, c, flags)

    def _rockfall(self, c: int) -> None:
        otile = self._wmaze().remove(c)
        self.discards.append(CAT.codes[otile])
        if c in self.keys:  # the key returns to the supply [decision]
            self.keys = {k: s for k, s in self.keys.items() if k != c}
            self.keys_left += 1

    def _bribe(self, seat: int, c: int) -> None:
        self.bribes = {**self.bribes, c: seat}
        self.trolls = self.trolls - {c}
        self.bribes_made = self.bribes_made.copy()
        self.bribes_made[seat] += 1
        self.pools = self.pools.copy()
        self.pools[self.game.pool_of_seat[seat]] -= 1
        self._refresh_blocks(c)
        self.resume = _RESUME_MAIN if self.phase == MAIN else _RESUME_AFTER
        if self._settle(seat):
            self._resume()

    def _resume(self) -> None:
        if self.resume == _RESUME_MAIN:
            self.phase = MAIN
            self.current = self.turn
        else:
            self._after_main()

    def _after_main(self) -> None:
        if not self.deck and not any(self.hands):  # the round is over at once: no bribe follows
            self._end_round()
        elif self.trolls and self._bribable(self.turn):
            self.phase = AFTER
            self.current = self.turn
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.game.solo:
            self._solo_draw(self.turn, self.pending_draw)
        else:  # the two-player game: plain drawing
            draw(self.deck, self.hands[self.turn], self.pending_draw)
        self.pending_draw = 0
        if not self.deck and not any(self.hands):
            self._end_round()
            return
        seats = self.game.players
        nxt = (self.turn + 1) % seats
        while not self.hands[nxt]:  # some hand holds cards: an empty one implies an empty pile
            nxt = (nxt + 1) % seats
        self.turn = self.current = nxt
        self.phase = MAIN

    def _solo_draw(self, seat: int, n: int) -> None:
        """Draw ``n`` cards by the solo rules (see ``_solo_drawn``)."""
        deck = self.deck
        for _ in range(n):
            while deck:
                code = deck.pop()
                if self._solo_drawn(seat, code):
                    continue
                self.hands[seat].append(code)
                break

    def _solo_drawn(self, seat: int, code: str) -> bool:
        """Solo drawing rules: sabotage and rockfall act at once and are replaced."""
        effect = CAT[code].effect
        if effect == "break":
            if CAT[code].tools[0] in self.broken(seat):
                self.discards.append(code)  # a duplicate has no effect [rule]
            else:
                self.in_front[seat].append(code)
            return True
        if effect == "rockfall":
            self.discards.append(code)
            for c in reversed(self.maze.order):
                if self._removable(c):
                    self._rockfall(c)
                    break
            return True
        return False

    # ------------------------------------------------------------------ goals and gold
    def _settle(self, actor: int) -> bool:
        """Claim gold and reveal reached goals until nothing changes.

        Returns False when the state stopped: the round ended, or a goal's
        orientation waits for the actor's decision.
        """
        while True:
            if not any(self.pools):
                self._end_round()
                return False
            self._claim(actor)
            if not any(self.pools):
                self._end_round()
                return False
            reached = self.maze.reached_hidden()  # a reveal may have copied the maze
            if not reached:
                break
            g = reached[0]
            options = self._orientations(g)
            if len(options) > 1:
                self.phase = ORIENT
                self.pending = (g, options)
                self.current = actor
                return False
            self._reveal(g, options[0])
        if not self.maze.hidden:
            self._end_round()
            return False
        return True

    def _orientations(self, g: int) -> tuple[bool, ...]:
        return goal_orientations(self.maze, g)

    def _reveal(self, g: int, rotated: bool) -> None:
        maze = self._wmaze()
        code = maze.hidden[g]
        reached_by = 0
        for ctx, reach_in in enumerate(maze.reach_in):
            if reach_in.get(g):
                reached_by |= 1 << ctx
        otile = CAT.otile[code, rotated]
        maze.place(g, otile, self._blocks(g, otile))
        self.goals_seen = [*self.goals_seen, code]
        self.forced = {**self.forced, g: reached_by}
        if CAT.features[otile].gold:
            self.unclaimed_gold = self.unclaimed_gold | {g}
            self._forbidden = _UNKEPT

    def _reaches(self, ctx: int, c: int) -> bool:
        maze = self.maze
        if c in maze.reach[ctx]:
            return True
        return bool(self.forced.get(c, 0) >> ctx & 1) and not maze.blocks[ctx].get(c, 0) & NO_ENTER

    def _claim(self, actor: int) -> None:
        if not self.unclaimed_gold:
            return
        seats = [actor] + [s for s in range(self.game.players) if s != actor]
        cells = self.maze.cells
        for seat in seats:
            ctx = seat  # one reach context per seat, in seat order
            found = [c for c in self.unclaimed_gold if self._reaches(ctx, c)]
            if not found:
                continue
            # copy-on-write (see clone)
            self.pools, self.markers = self.pools.copy(), self.markers.copy()
            self.unclaimed_gold = set(self.unclaimed_gold)
            found.sort(key=lambda c: (-CAT.features[cells[c]].gold, xy(c)))
            pool = self.game.pool_of_seat[seat]
            for c in found:
                if not self.pools[pool]:
                    break
                self.pools[pool] -= 1
                self.markers[c] = seat
                self.unclaimed_gold.discard(c)

    # ------------------------------------------------------------------ round end
    def _end_round(self) -> None:
        game = self.game
        cells = self.maze.cells
        # copy-on-write (see clone)
        self.gold = [g.copy() for g in self.gold]
        self.paid, self.out, self.results = self.paid.copy(), self.out.copy(), self.results.copy()
        earned = [0] * game.players
        for c, seat in self.markers.items():
            code = CAT.codes[cells[c]]
            self.gold[seat].append(code)
            earned[seat] += _value(code)
        payments = []
        for seat in range(game.players):
            pay = choose_payment(self.gold[seat], self.bribes_made[seat])
            for code in pay:
                self.gold[seat].remove(code)
            self.paid += pay
            payments.append(pay)
        if self._round < C.ROUNDS:  # the last board stays on show
            claimed = {CAT.codes[cells[c]] for c in self.markers}
            self.out += [g for g in self.round_goals if g not in claimed]
        self.results.append(RoundResult(self._round, earned, {
            "bribes": list(self.bribes_made),
            "paid": [sum(map(_value, p)) for p in payments],
            "totals": self.scores(),
        }))
        # made when first read (``last_round``): the markers, bribes and keys are replaced,
        # never changed, and the maze is marked shared, so nothing changes them underneath
        self._last_round = self._round_end()
        self._mt.shared = True
        if self._round == C.ROUNDS:
            self.terminal = True
            self.phase = MAIN
            self.pending = None
            return
        totals = self.scores()
        if not game.solo:
            lo = min(totals)
            poorer = [s for s in range(game.players) if totals[s] == lo]
            self.turn = poorer[0] if len(poorer) == 1 else game.colours.index(C.BLUE)
        self._setup_round()

    def _round_end(self) -> LaterRoundEnd:
        """The public facts of the round that just ended, as it ended (``RoundEnd``), made
        when first read."""
        if not any(self.pools):
            reason = "markers"
        elif not self.maze.hidden:
            reason = "goals"
        else:
            reason = "exhausted"
        return LaterRoundEnd.by(ended_round, self._round, reason, self.maze, self.markers,
                                self.bribes, self.keys, tuple(map(tuple, self.in_front)))

    # ------------------------------------------------------------------ outcome
    def scores(self) -> list[int]:
        return [sum(map(_value, g)) for g in self.gold]

    def winners(self) -> list[int]:
        totals = self.scores()
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def returns(self) -> list[float]:
        """Two players: +1 win, -1 loss, 0 shared; solo: the gold collected."""
        totals = self.scores()
        if self.game.solo:
            return [float(totals[0])]
        if totals[0] == totals[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0]

    def rating(self) -> str:
        """The solo rating of the gold collected (meaningful at the end of a solo match)."""
        total = self.scores()[0]
        return [name for low, name in C.SOLO_RATINGS if total >= low][-1]

    def census(self) -> Counter[str]:
        cards: Counter[str] = Counter(self.deck)
        for pile in (*self.hands, *self.in_front, *self.gold, *self.passed, self.discards,
                     self.aside, self.paid, self.out, self.goals_left):
            cards.update(pile)
        for c, t in self.maze.cells.items():
            code = CAT.codes[t]
            # at the very end the claimed cards are counted in the players' gold
            if CAT[code].category != "start" and not (self.terminal and c in self.markers):
                cards[code] += 1
        cards.update(self.maze.hidden.values())
        return cards

    def shuffle_hidden(self, seat: int | None, rng: Rng) -> DuelState:
        """A copy in which everything ``seat`` cannot know is dealt anew.

        The other hands, the draw pile and the set-aside cards are reshuffled
        among themselves (sizes kept); the face-down goals the seat has not
        looked at, with the unused goals, likewise.  ``seat``'s view of the copy
        equals its view of this state: that is what view secrecy means.
        """
        new = self.clone()
        new.rng = Rng(rng.next64())  # the generator decides future deals: unknown too
        others = [s for s in range(self.game.players) if s != seat]
        pool = [c for s in others for c in new.hands[s] + new.passed[s]] + new.deck + new.aside
        rng.shuffle(pool)
        for s in others:
            n, m = len(new.hands[s]), len(new.passed[s])
            new.hands[s], new.passed[s], pool = pool[:n], pool[n:n + m], pool[n + m:]
        new.deck, new.aside = pool[:len(new.deck)], pool[len(new.deck):]
        seen = new.seen[seat] if seat is not None else {}
        pending = new.pending[0] if new.pending is not None else None
        cells = [c for c in sorted(new.maze.hidden) if c not in seen and c != pending]
        goals = [new.maze.hidden[c] for c in cells] + new.goals_left
        rng.shuffle(goals)
        hidden = new._wmaze().hidden
        for c, code in zip(cells, goals, strict=False):
            hidden[c] = code
        new.goals_left = goals[len(cells):]
        return new

    def view(self, seat: int | None) -> Any:
        from .view import duel_view

        return duel_view(self, seat)


#: what ``DuelState.clone`` copies, for the compiled core's clone (``core/clone.c``)
_CLONE_SPEC = CloneSpec(("history", "actors", "deck", "discards", "aside"),
                        ("hands", "passed", "in_front"), DuelState, "rng", RNG_NEW, "_mt", False)
