"""Sampling full Saboteur states consistent with what one seat knows.

``Determinizer(view)`` rebuilds the public part of the position once (maze,
cards in front, face-up discards, the seat's hand, role, passes, map looks,
the public facts of the round's log) and works out which cards, goals and
dwarf cards the seat cannot place.  ``sample(rng)`` clones that template and
deals the unknowns: other hands, their face-down passes, the draw pile, the
set-aside cards, the face-down goals the seat has not seen, other seats' dwarf
cards and the spare ones.

Dwarf cards are dealt uniformly, or weighted by role beliefs
(``weights[seat][role]``, e.g. from :mod:`pysaboteur.bots.beliefs`): seats in
random order each draw from what is left with chances proportional to
``copies left x weight``.

Not sampled: other seats' gold (their totals are private and play no part in
the rest of a round; they stay empty, the nuggets stay in the pile), and what
a "swap your hand" showed (the other hand is treated as unknown).

A sample's ``view(seat)`` equals the view it came from, except for the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from ... import core
from ...engine.determinize import (
    blank_state,
    check_places,
    compiled_sample,
    core_calls,
    dealt_mazes,
)
from ...engine.maze import Maze, Memo, cell
from ...engine.rng import RAW, Draws, Rng, reorder
from ...registry import shared_game
from .state import MAIN, ORIENT, STEAL, ClassicGame, ClassicState

_PHASES = {"main": MAIN, "orient": ORIENT, "steal": STEAL}
Weights = Mapping[int, Mapping[str, float]]
_KEPT_GOALS = 5  # at most 5! mazes with the goals dealt kept per determinizer
_TWO_53 = float(1 << 53)  # a draw of 53 bits over this: a float in [0, 1)


def round_log(view: Any) -> list[tuple[int, str]]:
    """The public log of the current round."""
    return list(view.log[view.round_start:])


class Determinizer:
    """Samples :class:`ClassicState` s consistent with one seat's view (see the module doc)."""

    game_type: type[ClassicGame] = ClassicGame
    #: the compiled core's sampler of this class (``core/determinize.c``): "classic", or
    #: "expansion" (Saboteur 2's dwarf cards set aside and inspections besides)
    _core_kind = "classic"

    def __init__(self, view: Any, weights: Weights | None = None) -> None:
        if view.seat is None:
            raise ValueError("determinize a seat's view, not a spectator's")
        if view.current_player == -1:
            raise ValueError("the match is over: nothing to determinize")
        self.seat = seat = view.seat
        self.weights = weights
        game = shared_game(view.game, view.players, **view.options)
        assert isinstance(game, self.game_type)
        self.game = game
        cat = game.catalogue
        n = view.players
        log = round_log(view)
        kind = self._state_type()
        self.template = t = blank_state(kind, game, view)
        t.phase = _PHASES[view.phase]
        t.pending_draw = 1 if t.phase == ORIENT else 0
        t.round_start = view.round_start
        main_moves = [a for a, m in log if not m.startswith(("orient", "steal"))]
        t.last = main_moves[-1] if main_moves else view.turn
        t.finder = -1
        if t.phase == STEAL:
            t.finder = view.results[-1]["finder"]
            t.next_turn = (t.last + 1) % n
        t._mt = Memo()
        t.hands = [[] for _ in range(n)]
        t.hands[seat] = list(view.hand or ())
        t.in_front = tuple(map(tuple, view.in_front))
        t.discards = list(view.discards)
        t.passed = [(seat, c) for c in view.my_passes]
        t.seen = [{} for _ in range(n)]
        t.seen[seat] = {cell(x, y): code for x, y, code in view.known_goals}
        t.deck, t.aside = [], []
        t.pending = None
        self._init_gold(view, t)
        self._init_extra(view, t, log)
        # the maze, laid in the order the cards were placed
        t.maze = maze = Maze(cat, game.contexts)
        for p in view.board:
            c, otile = cell(p.x, p.y), cat.otile[p.card, p.rotated]
            if cat[p.card].category == "start":
                maze.place(c, otile, source_for=(0,))
            else:
                t._place(c, otile)
        self.hidden_cells = [cell(x, y) for x, y in view.face_down]
        placeholder = game.goal_cards[0]
        for c in self.hidden_cells:
            maze.put_hidden(c, placeholder)
        known_goals: Counter[str] = Counter(t.seen[seat].values())
        if view.pending_goal is not None:
            x, y, code, ways = view.pending_goal
            maze.put_hidden(cell(x, y), code)
            t.pending = (cell(x, y), tuple(ways))
            known_goals[code] += 1
        on_board = Counter(cat.codes[o] for o in maze.cells.values()
                           if cat[cat.codes[o]].category == "goal")
        self.unknown_goals = sorted((Counter(game.goal_cards) - on_board - known_goals).elements())
        self.unseen_cells = [c for c in self.hidden_cells if c not in t.seen[seat]]
        # the maze with the goals dealt, by their Lehmer code (``goals.pop()`` dealt the
        # last goal to the first cell: the same deal, the cells taken the other way round)
        self._mazes = dealt_mazes(maze, self.unseen_cells[::-1], self.unknown_goals,
                                 t.seen[seat], _KEPT_GOALS)
        # other seats' map looks this round, at goals still face down
        self.looked = []
        for actor, move in log:
            if actor != seat and move.startswith("map@"):
                x, y = map(int, move[4:].split(","))
                if cell(x, y) in self.hidden_cells:
                    self.looked.append((actor, cell(x, y)))
        # cards the seat cannot place
        visible: Counter[str] = Counter(cat.codes[o] for o in maze.cells.values()
                                        if cat[cat.codes[o]].category == "path")
        visible.update(t.hands[seat])
        visible.update(view.my_passes)
        visible.update(t.discards)
        for f in t.in_front:
            visible.update(f)
        self.unknown_cards = sorted((Counter(game.deck_cards) - visible).elements())
        self.others = [s for s in range(n) if s != seat]
        self.sizes = [(s, view.hand_sizes[s], view.passed_sizes[s]) for s in self.others]
        self.deck_size, self.aside_size = view.deck_size, view.set_aside
        check_places(len(self.unknown_cards),
                     sum(h + p for _, h, p in self.sizes) + self.deck_size + self.aside_size)
        # where a sample's shuffled unknown cards go: seat by seat, the hand then the
        # face-down passes; then the draw pile, then the set-aside cards
        hands: list[slice] = []
        self.pass_seats: list[int] = []
        self.pass_at: list[int] = []
        k = 0
        for s, hand, npassed in self.sizes:
            hands.append(slice(k, k + hand))
            self.pass_seats += [s] * npassed
            self.pass_at += range(k + hand, k + hand + npassed)
            k += hand + npassed
        deck = slice(k, k + self.deck_size)
        self._cut = itemgetter(*hands, deck, slice(deck.stop, None))  # 4 or more: a tuple
        # dwarf cards
        known_roles = self._known_roles(view)
        pool = Counter(game.role_deck())
        pool[view.role] -= 1
        for role in known_roles.values():
            pool[role] -= 1
        t.roles = [known_roles.get(s, "") for s in range(n)]
        t.roles[seat] = view.role
        self.role_pool = sorted(pool.elements())
        self.unknown_role_seats = [s for s in self.others if s not in known_roles]
        # per unknown seat, each dwarf card's weight as a chance (at least 1e-6), looked up
        self._weigh: dict[int, Callable[[str], float]] | None = None
        if weights is not None:
            roles = set(self.role_pool)
            self._weigh = {s: {r: max(weights.get(s, {}).get(r, 1.0), 1e-6)
                               for r in roles}.__getitem__
                           for s in self.unknown_role_seats}
        self.role_places = self._role_places(view)
        # every sample draws the same calls: the state's seed, the unknown cards' order,
        # the goals' deal, the dwarf cards' order, and with weights the order the seats
        # draw in and one number per seat (``_deal_roles``)
        calls = [RAW, len(self.unknown_cards), len(self.unknown_goals), len(self.role_pool)]
        if self._weigh is not None:
            seats = len(self.unknown_role_seats)
            calls += [seats, *[RAW] * seats]
        self._draws = Draws(calls)
        self._calls = calls
        self._plan: Any = None  # the compiled core's plan, made at the first sample on it

    # -- game-specific pieces (Saboteur 2 overrides) -------------------------------------------
    def _state_type(self) -> type[ClassicState]:
        return ClassicState

    def _init_gold(self, view: Any, t: ClassicState) -> None:
        """Own gold as nugget cards (largest first); other seats' gold is not sampled."""
        cat = self.game.catalogue
        nuggets = sorted(cat.box(["gold"]), key=lambda c: -cat[c].value)
        mine, owed = [], view.gold or 0
        for code in list(nuggets):
            if cat[code].value <= owed:
                mine.append(code)
                nuggets.remove(code)
                owed -= cat[code].value
        t.gold = [[] for _ in range(view.players)]
        t.gold[view.seat] = mine
        t.nuggets = sorted(nuggets)

    def _init_extra(self, view: Any, t: ClassicState, log: list[tuple[int, str]]) -> None:
        """Fields only Saboteur 2 has."""

    def _known_roles(self, view: Any) -> dict[int, str]:
        """Other seats whose dwarf card the seat knows (Saboteur 2: inspections)."""
        return {}

    def _role_places(self, view: Any) -> tuple[int, int]:
        """Sizes of the spare pile and the set-aside dwarf cards."""
        return len(self.game.role_deck()) - view.players, 0

    def _set_aside_roles(self, state: ClassicState, spare: list[str], aside: list[str]) -> None:
        state.spare_roles = spare

    # -- sampling -----------------------------------------------------------------------------
    def _deal_roles(self, numbers: list[int]) -> tuple[dict[int, str], list[str]]:
        """The unknown seats' dwarf cards and the rest, from the sample's last numbers
        (``_draws``): the pool's order, then with weights the seats' order and a number per
        seat (the top 53 bits of a 64-bit number: what ``rng.below(1 << 53)`` gives)."""
        pool = reorder(numbers[3], self.role_pool)
        seats = self.unknown_role_seats
        weigh = self._weigh
        if weigh is None:
            return dict(zip(seats, pool, strict=False)), pool[len(seats):]
        dealt: dict[int, str] = {}
        order = reorder(numbers[4], seats)
        for s, x in zip(order, numbers[5:], strict=True):
            chances = list(map(weigh[s], pool))
            pick = (x >> 11) / _TWO_53 * sum(chances)
            i, last = 0, len(pool) - 1
            while i < last and pick >= chances[i]:
                pick -= chances[i]
                i += 1
            dealt[s] = pool.pop(i)
        return dealt, pool

    def _core_plan(self, ext: Any) -> Any:
        """The compiled core's plan of this determinizer's samples (what ``__init__`` worked
        out from the view), or False where its samples stay Python: a subclass that samples
        its own way, a state class with its own clone or its own fields, a view past the
        core's sizes (``det_plan``'s ValueError), a core built without it."""
        if getattr(ext, "det_plan", None) is None:
            return False
        owner = next(k for k in type(self).__mro__ if "_core_kind" in k.__dict__)
        for k in type(self).__mro__[:type(self).__mro__.index(owner)]:
            if {"sample", "_deal_roles", "_set_aside_roles"} & k.__dict__.keys():
                return False
        kind = type(self.template)
        fields = ("rng", "_mt", "history", "actors", "deck", "discards", "passed", "hands",
                  "aside", "maze", "seen", "roles", "spare_roles", "hats_aside", "inspected")
        if kind.clone is not ClassicState.clone or any(
                hasattr(getattr(kind, name, None), "__set__") for name in fields):
            return False
        weights = None
        if self._weigh is not None:
            weights = [[self._weigh[s](r) for r in self.role_pool]
                       for s in self.unknown_role_seats]
        spare, aside = self.role_places
        expansion = self._core_kind == "expansion"
        try:
            return ext.det_plan("classic", (
                self.template, Rng, Memo, core_calls(self._calls), self.seat,
                self.unknown_cards, self.sizes, self.deck_size, self._mazes, self.looked,
                self.role_pool, self.unknown_role_seats, weights, spare, aside, expansion,
                getattr(self, "looks", []) if expansion else []))
        except ValueError:
            return False

    def sample(self, rng: Rng) -> ClassicState:
        draws, ext = self._draws, core.extension()
        if ext is not None:  # the compiled core (issue 24): the whole sample in C, the same
            made = compiled_sample(self, ext, rng)
            if made is not None:
                return made  # type: ignore[no-any-return]
        state = self.template.clone()
        if ext is None:
            numbers = draws.take(rng)
            cards = reorder(numbers[1], self.unknown_cards)
        else:  # the core, without a plan: the same numbers and the same order, in C
            numbers = ext.draws(rng, draws.calls, draws.words)
            cards = ext.lehmer(numbers[1], self.unknown_cards)
        state.rng = Rng(numbers[0])
        parts = self._cut(cards)  # the other seats' hands, the pile, the set-aside cards
        seat, hands = self.seat, state.hands
        hands[:seat] = parts[:seat]
        hands[seat + 1:] = parts[seat:-2]
        state.deck, state.aside = parts[-2:]
        state.passed += zip(self.pass_seats, map(cards.__getitem__, self.pass_at),
                            strict=True)
        state.maze = self._mazes[numbers[2]]
        hidden = state.maze.hidden
        if self.looked:
            seen = state.seen = [d.copy() for d in state.seen]
            for s, c in self.looked:
                seen[s][c] = hidden[c]
        dealt, rest = self._deal_roles(numbers)
        roles = state.roles = state.roles.copy()
        for s, role in dealt.items():
            roles[s] = role
        spare, aside = self.role_places
        self._set_aside_roles(state, rest[:spare], rest[spare:spare + aside])
        return state


def determinize(view: Any, rng: Rng, weights: Weights | None = None) -> ClassicState:
    """One full state consistent with ``view``."""
    return Determinizer(view, weights).sample(rng)
