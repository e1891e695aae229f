"""Sampling full Lost Mines states consistent with what one seat knows.

``Determinizer(view, weights)`` rebuilds the public part of the position once
(board, face-down mines, pawns and the segments they stand on, tokens, forest
tiles, troll cards in front, clans, who holds which treasure slot, the dragon,
pending choices, the seat's hand, identity, treasures and looks) and works out
what the seat cannot place:

* the path and action cards of this round that are in other hands, in the draw
  pile, set aside, or in the discard pile face down (other seats' passes and
  cards lost to traps);
* the face-down mines it has not looked at;
* the values of laid-out and collected treasures it has neither seen nor holds
  (within each type; the rest of that type is out of the round);
* the identities of the other dwarves of each clan it has not seen (clans are
  public), from the clan's dwarf cards in play minus the ones it knows.

``sample(rng)`` clones that template and deals each of these uniformly at
random among the consistent worlds; identities are weighted by ``weights`` (per
seat, identity -> weight, e.g. from a role-inference model) when given.  Search
bots call ``sample`` thousands of times per move.

The sampled state's ``view(seat)`` equals the view it came from, except for the
move log (a sample has no history).  What the seat does not keep: which card a
trap took from its own hand (the view does not show it; it is dealt as unknown).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import partial
from itertools import product
from operator import itemgetter
from typing import Any

from ... import core
from ...engine.actions import Pass, PlayOnCell, PlayOnPlayer, PlayOnTreasure
from ...engine.determinize import (
    Deals,
    blank_state,
    check_places,
    compiled_sample,
    core_calls,
    dealt_mazes,
)
from ...engine.maze import DELTA, Maze, Memo, cell
from ...engine.rng import RAW, Draws, Rng, reorder
from ...engine.tiles import EDGES, OPPOSITE
from ...registry import shared_game
from . import cards as C
from .state import (
    _DECK,
    _MINES,
    _TREASURES,
    CAT,
    PHASE_NAMES,
    VOTE,
    LostMinesGame,
    LostMinesState,
    dwarf_box,
)
from .state import ORIENT as _ORIENT
from .state import TAKE as _TAKE
from .view import LostMinesView

IDENTITIES = (C.LOYAL, C.SELFISH, C.SABOTEUR)
_KEPT_MINES = 5  # at most 5! mazes with the mines dealt kept per determinizer
_KEPT_TREASURES = 6  # at most 6! deals of one type's treasure values kept per determinizer
_NO_CARDS = ("move", "stay", "take", "orient", "propose", "accept", "decline")


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


class Determinizer:
    def __init__(self, view: LostMinesView,
                 weights: Sequence[Mapping[str, float] | None] | None = None) -> None:
        if view.seat is None:
            raise ValueError("determinize a seat's view, not a spectator's")
        if view.current_player < 0:
            raise ValueError("the match is over: nothing is hidden any more")
        self.seat = me = view.seat
        n = view.players
        game = shared_game("lost-mines", n, rounds=view.rounds)
        assert isinstance(game, LostMinesGame)
        t = self.template = blank_state(LostMinesState, game, view)
        t.totals = list(view.scores)
        t.round_start = view.round_start
        t.phase = PHASE_NAMES.index(view.phase)
        t.pending_draw = view.pending_draw
        t.proposed = view.proposed
        t.voters = list(view.pending or ()) if t.phase == VOTE else []
        t.pawn = [cell(x, y) for x, y in view.pawns]
        t.pawn_seg = list(view.pawn_segments)
        t.overcome = {cell(x, y) for x, y in view.forest}
        t.traps = {cell(x, y) << 4 | (2 if side == "E" else 4) for x, y, side in view.traps}
        t.trolls = {cell(x, y) << 4 | (2 if side == "E" else 4): s
                    for x, y, side, s in view.trolls}
        t.in_front = [list(f) for f in view.in_front]
        t.dragon = view.dragon
        # the board: face-down mines first (they take no constraint), then the cards in order
        t.maze = maze = Maze(CAT, 0)
        t._mt = Memo()
        for x, y in view.face_down:
            maze.put_hidden(cell(x, y), _MINES[0])  # placeholder until a sample deals the mines
        t.pending = None
        pending_mine: str | None = None
        if t.phase == _ORIENT:
            assert view.pending is not None
            x, y, pending_mine, ways = view.pending
            g = cell(x, y)
            maze.put_hidden(g, pending_mine)
            pc = t.pawn[t.current]
            entry = next(OPPOSITE[e] for e in EDGES if pc + DELTA[e] == g)
            t.pending = (g, entry, tuple(ways))
        elif t.phase == _TAKE:
            t.pending = list(view.pending or ())
        for p in view.board:
            maze.place(cell(p.x, p.y), CAT.otile[p.card, p.rotated])
        self.mine_cells = [cell(x, y) for x, y in view.face_down]
        # treasures: slots, holders, and the order each seat took them
        t.owner = [holder for _, _, holder in view.treasures]
        t.collected = [list(slots) for slots in view.collected_slots]
        self.slot_types = [kind for _, kind, _ in view.treasures]
        known_values: dict[int, str] = dict(view.known_treasures)
        for slot, code in zip(view.collected_slots[me], view.own_treasures, strict=True):
            known_values[slot] = code
        self.known_values = known_values
        # dwarves: mine and the ones I looked at are known, the rest per clan
        t.dwarf_removed = [f"{clan}-{C.LOYAL}" for clan in C.CLANS
                           for _ in range(C.LOYAL_REMOVED[n])]
        assert view.identity is not None
        known_dwarves = {me: f"{view.clans[me]}-{view.identity}", **dict(view.known_dwarves)}
        self.known_dwarves = known_dwarves
        box = Counter(dwarf_box(n))
        self.clan_tables: list[tuple[list[int], list[tuple[str, ...]], list[float],
                                     list[list[str]]]] = []
        for clan in C.CLANS:
            seats = [s for s in range(n) if view.clans[s] == clan and s not in known_dwarves]
            pool = Counter({d: k for d, k in box.items() if C.clan_of(d) == clan})
            pool.subtract(Counter(d for s, d in known_dwarves.items() if view.clans[s] == clan))
            self.clan_tables.append((seats, *_assignments(clan, seats, pool, weights)))
        # the seats' looks this round, from the public log; my hand, passes; face-up plays
        t.seen_mines = [{} for _ in range(n)]
        t.seen_treasures = [set() for _ in range(n)]
        t.seen_dwarves = [set() for _ in range(n)]
        self.looked_mines: list[tuple[int, int]] = []
        played: Counter[str] = Counter()
        passed: Counter[str] = Counter()
        for actor, text in view.log[view.round_start:]:
            if text.startswith(_NO_CARDS) or (text.startswith("pass") and actor != me):
                continue
            action = game.parse_action(text)
            if isinstance(action, Pass):
                passed.update(action.cards)
                continue
            played[action.card] += 1  # type: ignore[union-attr]
            if CAT[action.card].effect != "info":  # type: ignore[union-attr]
                continue
            if isinstance(action, PlayOnCell):
                self.looked_mines.append((actor, cell(action.x, action.y)))
            elif isinstance(action, PlayOnTreasure):
                t.seen_treasures[actor].add(action.slot)
            elif isinstance(action, PlayOnPlayer):
                t.seen_dwarves[actor].add(action.target)
        for x, y, code in view.known_mines:
            t.seen_mines[me][cell(x, y)] = code
        # which mines the seat cannot place
        on_board = Counter(p.card for p in view.board if CAT[p.card].category == "mine")
        known_mines = Counter(code for _, _, code in view.known_mines)
        if pending_mine is not None:
            known_mines[pending_mine] += 1
        self.unknown_mines = sorted((Counter(_MINES) - on_board - known_mines).elements())
        self.unseen_cells = [c for c in self.mine_cells if c not in t.seen_mines[me]]
        if len(self.unknown_mines) != len(self.unseen_cells):
            raise ValueError("view is inconsistent: face-down mines do not add up")
        self._mazes = dealt_mazes(t.maze, self.unseen_cells, self.unknown_mines,
                                 t.seen_mines[me], _KEPT_MINES)  # by the mines' Lehmer code
        # which path and action cards of this round the seat cannot place
        board_paths = Counter(p.card for p in view.board if CAT[p.card].category == "path")
        in_front = Counter(c for f in view.in_front for c in f)
        public_discards = played - board_paths - in_front + passed
        t.hands = [[] for _ in range(n)]
        t.hands[me] = list(view.hand or ())
        t.discards = sorted(public_discards.elements())
        known = board_paths + in_front + public_discards + Counter(t.hands[me])
        self.unknown_cards = sorted((Counter(_DECK) - known).elements())
        self.others = [(s, view.hand_sizes[s]) for s in range(n) if s != me]
        self.deck_size, self.aside_size = view.deck_size, view.set_aside
        self.hidden_discards = view.discard_size - len(t.discards)
        if self.hidden_discards < 0:
            raise ValueError("view is inconsistent: more face-up discards than discards")
        check_places(len(self.unknown_cards), sum(k for _, k in self.others) + self.deck_size
                     + self.aside_size + self.hidden_discards)
        # where a sample's shuffled unknown cards go: the other seats' hands, the draw pile,
        # the set-aside cards, the face-down discards (one getter of slices)
        cuts, k = [], 0
        for size in (*(size for _, size in self.others), self.deck_size, self.aside_size):
            cuts.append(slice(k, k + size))
            k += size
        self.other_seats = [s for s, _ in self.others]
        self._cut = itemgetter(*cuts, slice(k, None))  # 3 or more slices: a tuple
        # treasure values: per type, the cards not known to be elsewhere
        self.treasure_pools: list[tuple[list[int], list[str]]] = []
        for kind in C.TREASURE_TYPES:
            slots = [i for i, k in enumerate(self.slot_types)
                     if k == kind and i not in known_values]
            pool = Counter(c for c in _TREASURES if C.treasure_type(c) == kind)
            pool.subtract(c for c in known_values.values() if C.treasure_type(c) == kind)
            if any(v < 0 for v in pool.values()):
                raise ValueError("view is inconsistent: treasure values do not add up")
            self.treasure_pools.append((slots, sorted(pool.elements())))
        # per type: its slots, and by the Lehmer code of a deal of its pool, the values the
        # slots get and the ones left out
        self._treasure_deals = [
            (slots, len(pool), Deals(pool, partial(_split, len(slots)), _KEPT_TREASURES))
            for slots, pool in self.treasure_pools]
        t.layout = [known_values.get(i, "") for i in range(n)]
        t.treasures_out = []
        t.dwarves = [known_dwarves.get(s, "") for s in range(n)]
        t.dwarf_aside = []
        t.deck, t.aside = [], []
        # every sample draws the same calls: the state's seed, the unknown cards' order,
        # the mines' deal, each treasure type's deal, a number per clan with a choice
        self._calls = [RAW, len(self.unknown_cards), len(self.unknown_mines),
                       *(size for _, size, _ in self._treasure_deals),
                       *(RAW for _, options, _, _ in self.clan_tables if len(options) > 1)]
        self._draws = Draws(self._calls)
        self._plan: Any = None  # the compiled core's plan, made at the first sample on it

    def _core_plan(self, ext: Any) -> Any:
        """The compiled core's plan of this determinizer's samples (what ``__init__`` worked
        out from the view), or False where they stay Python (a subclass with its own
        sample, a state class with its own clone, a view past the core's sizes, a core built
        without it)."""
        if type(self).sample is not Determinizer.sample or type(self.template) is not \
                LostMinesState or LostMinesState.clone is not _CLONE \
                or getattr(ext, "det_plan", None) is None:
            return False
        try:
            return ext.det_plan("lost-mines", (
                self.template, Rng, Memo, core_calls(self._calls), self.seat,
                self.unknown_cards, self.others, self.deck_size, self.aside_size, self._mazes,
                self.looked_mines, CAT.codes,
                [(slots, deals) for slots, _, deals in self._treasure_deals],
                self.clan_tables))
        except ValueError:
            return False

    def sample(self, rng: Rng) -> LostMinesState:
        ext = core.extension()
        if ext is not None:  # the compiled core (issue 24): the whole sample in C, the same
            made = compiled_sample(self, ext, rng)
            if made is not None:
                return made  # type: ignore[no-any-return]
        state = self.template.clone()
        numbers = self._draws.take(rng)
        state.rng = Rng(numbers[0])
        *hands, state.deck, state.aside, discarded = self._cut(reorder(numbers[1],
                                                                       self.unknown_cards))
        for s, hand in zip(self.other_seats, hands, strict=True):
            state.hands[s] = hand
        state.discards += discarded
        state.maze = self._mazes[numbers[2]]
        if self.looked_mines:  # the looks are shared with the template: replaced, not changed
            hidden = state.maze.hidden
            seen = state.seen_mines = [d.copy() for d in state.seen_mines]
            for s, c in self.looked_mines:
                seen[s][c] = hidden[c] if c in hidden else CAT.codes[state.maze.cells[c]]
        # the template's layout and dwarf cards are shared by its clones (copy-on-write):
        # the sample's own are new lists
        layout = state.layout = state.layout.copy()
        out: list[str] = []
        state.treasures_out = out
        at = 3
        for slots, _, deals in self._treasure_deals:
            values, left_out = deals[numbers[at]]
            at += 1
            for i, code in zip(slots, values, strict=False):  # values may run out first
                layout[i] = code
            out += left_out
        dwarves = state.dwarves = state.dwarves.copy()
        aside: list[str] = []
        state.dwarf_aside = aside
        for seats, options, cumulative, spare in self.clan_tables:
            k = 0
            if len(options) > 1:
                k = _pick(numbers[at], cumulative)
                at += 1
            for s, d in zip(seats, options[k], strict=True):
                dwarves[s] = d
            aside += spare[k]
        return state


_CLONE = LostMinesState.clone  # the clone core/determinize.c does as its own


def _split(at: int, dealt: list[str]) -> tuple[list[str], list[str]]:
    """A deal of treasure values: the ones its type's slots get, and the ones left out."""
    return dealt[:at], dealt[at:]


def _assignments(clan: str, seats: list[int], pool: Counter[str],
                 weights: Sequence[Mapping[str, float] | None] | None,
                 ) -> tuple[list[tuple[str, ...]], list[float], list[list[str]]]:
    """Every way to deal the clan's unknown dwarf cards to ``seats``, with its weight.

    The weight is the number of ways the deal can happen (cards of one identity
    are alike) times the seats' identity weights.  Returns the deals, their
    cumulative weights and, per deal, the cards left set aside."""
    codes = [f"{clan}-{i}" for i in IDENTITIES]
    options: list[tuple[str, ...]] = []
    cumulative: list[float] = []
    spares: list[list[str]] = []
    total = 0.0
    for combo in product(range(3), repeat=len(seats)):
        used = Counter(codes[i] for i in combo)
        if any(used[c] > pool[c] for c in used):
            continue
        w = float(1)
        for c, k in used.items():
            w *= _falling(pool[c], k)
        if weights is not None:
            for s, i in zip(seats, combo, strict=True):
                ws = weights[s]
                if ws is not None:
                    w *= max(ws.get(IDENTITIES[i], 0.0), 1e-9)
        if w <= 0:
            continue
        total += w
        options.append(tuple(codes[i] for i in combo))
        cumulative.append(total)
        spares.append(sorted((pool - used).elements()))
    if not options:
        raise ValueError(f"view is inconsistent: no deal of the {clan} dwarf cards fits")
    return options, cumulative, spares


def _pick(number: int, cumulative: list[float]) -> int:
    """An index drawn, by a 64-bit random ``number``, with probability proportional to its
    weight (cumulative sums): the first whose sum exceeds the draw, the last if none does
    (the draw can round up to the total).

    >>> _pick(Rng(1).next64(), [1.0, 1.0, 3.0]) in (0, 2)
    True
    """
    x = number / 2.0**64 * cumulative[-1]
    return min(bisect_right(cumulative, x), len(cumulative) - 1)


def determinize(view: LostMinesView, rng: Rng,
                weights: Sequence[Mapping[str, float] | None] | None = None) -> LostMinesState:
    """One full state consistent with ``view``, drawn from the seat's uncertainty."""
    return Determinizer(view, weights).sample(rng)

