"""Sampling full Duel states consistent with what one seat knows.

``Determinizer(view)`` rebuilds the public part of the position once (maze,
markers, keys, cards in front, gold, the seat's hand and knowledge) and works
out which cards and goals the seat cannot place.  ``sample(rng)`` then clones
that template and deals the unknown cards (the other hand, its face-down
passes, the draw pile, set-aside cards) and the unknown goals uniformly at
random.  Search bots call ``sample`` thousands of times per move.

The sampled state's ``view(seat)`` equals the view it came from, except for the
move log (a sample has no history).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ... import core
from ...core.duel import deal_plan
from ...engine.determinize import blank_state, check_places
from ...engine.maze import Maze, Memo, cell
from ...engine.rng import RAW, Draws, Rng, reorder
from ...registry import shared_game
from . import cards as C
from .state import _ACTIONS, _DECK_PATHS, _GOALS, CAT, PHASE_NAMES, DuelGame, DuelState
from .view import DuelView

_PHASES = {name: phase for phase, name in enumerate(PHASE_NAMES)}


class Determinizer:
    def __init__(self, view: DuelView) -> None:
        if view.seat is None:
            raise ValueError("determinize a seat's view, not a spectator's")
        self.seat = seat = view.seat
        game = shared_game(view.game, view.players, **view.options)
        assert isinstance(game, DuelGame)
        self.template = t = blank_state(DuelState, game, view)
        t.phase = _PHASES[view.phase]
        t.resume = 0 if view.resume == "main" else 1
        t.pending_draw = view.pending_draw
        t.gold = [list(g) for g in view.gold]
        t.paid = list(view.paid)
        t.goals_seen = list(view.goals_seen)
        t.in_front = [list(f) for f in view.in_front]
        t.discards = list(view.discards)
        t.keys_left = view.keys_left
        t.bribes_made = list(view.bribes_made)
        t.markers = {cell(x, y): s for x, y, s in view.markers}
        t.bribes = {cell(x, y): s for x, y, s in view.bribes}
        t.keys = {cell(x, y): 0 for x, y in view.keys}
        t.forced = {cell(x, y): mask for x, y, mask in view.reveals}
        t.pools = [0] * len(game.pools)
        for s, left in enumerate(view.markers_left):
            t.pools[game.pool_of_seat[s]] = left
        t.hands = [[] for _ in range(view.players)]
        t.hands[seat] = list(view.hand or ())
        t.passed = [[] for _ in range(view.players)]
        t.passed[seat] = list(view.my_passes)
        t.seen = [{} for _ in range(view.players)]
        t.seen[seat] = {cell(x, y): code for x, y, code in view.known_goals}
        t.deck, t.aside, t.out, t.goals_left = [], [], [], []
        # the maze, placed in the order the cards were laid
        t.maze = maze = Maze(CAT, len(game.colours))
        t._mt = Memo()
        for p in view.board:
            c = cell(p.x, p.y)
            otile = CAT.otile[p.card, p.rotated]
            colour = CAT.features[otile].ladder
            if p.card.startswith("start-"):
                source: tuple[int, ...] = (game.colours.index(p.card[len("start-"):]),)
            elif colour is not None and t._is_joined_ladder(p.card):
                source = (game.colours.index(colour),)
            else:
                source = ()
            maze.place(c, otile, t._blocks(c, otile), source)
        self.hidden_cells = [cell(x, y) for x, y in view.face_down]
        for c in self.hidden_cells:
            maze.put_hidden(c, _GOALS[0])  # placeholder until a sample deals the goals
        t.pending = None
        if view.pending_goal is not None:
            x, y, code, ways = view.pending_goal
            maze.put_hidden(cell(x, y), code)
            t.pending = (cell(x, y), tuple(ways))
        maze.recompute()
        t.unclaimed_gold = {c for c, o in maze.cells.items()
                            if CAT.features[o].gold and c not in t.markers}
        t._forget_kept()
        t.trolls = {c for c, o in maze.cells.items()
                    if CAT.features[o].troll and c not in t.bribes}
        t.round_goals = []
        # which goals the seat cannot place: the rest of the 18
        known = Counter(view.goals_seen) + Counter(t.seen[seat].values())
        if view.pending_goal is not None:
            known[view.pending_goal[2]] += 1
        self.unknown_goals = sorted((Counter(_GOALS) - known).elements())
        self.unseen_cells = [c for c in self.hidden_cells if c not in t.seen[seat]]
        self.goals_left_size = C.GOALS_PER_ROUND * (C.ROUNDS - view.round)
        on_board = Counter(CAT.codes[o] for o in maze.cells.values()
                           if CAT[CAT.codes[o]].category == "goal")
        self.seen_out = list((Counter(view.goals_seen) - on_board
                              - Counter(c for g in (*t.gold, t.paid) for c in g)).elements())
        # which cards of this round the seat cannot place
        taken = Counter(c for pile in (*t.gold, t.paid) for c in pile)
        round_cards = Counter(_ACTIONS) + (Counter(_DECK_PATHS) - taken)
        visible = Counter(CAT.codes[o] for o in maze.cells.values()
                          if CAT[CAT.codes[o]].category == "path")
        visible.update(t.hands[seat])
        visible.update(t.passed[seat])
        visible.update(t.discards)
        for f in t.in_front:
            visible.update(f)
        self.unknown_cards = sorted((round_cards - visible).elements())
        self.others = [s for s in range(view.players) if s != seat]
        self.sizes = [(s, view.hand_sizes[s], view.passed_sizes[s]) for s in self.others]
        self.deck_size, self.aside_size = view.deck_size, view.set_aside
        check_places(len(self.unknown_cards),
                     sum(h + p for _, h, p in self.sizes) + self.deck_size + self.aside_size)
        self.looked = [(s, cell(x, y)) for s, x, y in view.looked if s != seat]
        self.board_goals = list(on_board.elements())
        # every sample draws the same calls: the state's seed, the unknown cards' order,
        # the unknown goals' order
        self._draws = Draws([RAW, len(self.unknown_cards), len(self.unknown_goals)])
        self._cards, self._goals = tuple(self.unknown_cards), tuple(self.unknown_goals)
        self._words = (deal_plan(len(self._cards)), deal_plan(len(self._goals)))
        # the template's face-down cells in its maze's order, with the goals the seat knows
        # (the pending goal's too); the unseen cells' places among them, in dealing order
        hidden = t.maze.hidden
        self._hidden_keys = list(hidden)
        self._hidden_values = [t.seen[seat].get(c, code) for c, code in hidden.items()]
        self._unseen_at = [self._hidden_keys.index(c) for c in self.unseen_cells]
        t._mt.shared = True  # samples share its maze (copy-on-write)
        self._plan: tuple[Any, ...] | None = None  # what the core's sample reads

    def sample(self, rng: Rng) -> DuelState:
        ext = core.extension()
        if ext is not None:  # the compiled core (issue 24): this body in C, the same state
            if self._plan is None:
                self._plan = self._compiled_plan()
            sampled = ext.duel_sample(self._plan, rng)
            if sampled is not None:  # (None: the core busy with this thread's own work)
                return sampled  # type: ignore[no-any-return]
        numbers = self._draws.take(rng)
        seed = numbers[0]
        cards = reorder(numbers[1], self.unknown_cards)
        goals = reorder(numbers[2], self.unknown_goals)
        # the template's clone (DuelState.clone), the fields it copies made here from the deal
        t = self.template
        state = DuelState.__new__(DuelState)
        d = t.__dict__.copy()
        d["rng"] = Rng(seed)
        memo = d["_mt"] = Memo()
        memo.shared = True  # the template's maze, or a dealt one (below), copy-on-write
        d["history"], d["actors"] = [], []
        d["discards"] = t.discards.copy()
        d["in_front"] = [f.copy() for f in t.in_front]
        hands, passed = d["hands"], d["passed"] = t.hands.copy(), t.passed.copy()
        hands[self.seat] = hands[self.seat].copy()
        passed[self.seat] = passed[self.seat].copy()
        at = 0
        for s, hand, given in self.sizes:
            hands[s] = cards[at:at + hand]
            at += hand
            passed[s] = cards[at:at + given]
            at += given
        d["deck"] = cards[at:at + self.deck_size]
        d["aside"] = cards[at + self.deck_size:]
        # the goals: each unseen cell takes the last goal left (goals.pop())
        values = self._hidden_values.copy()
        for i in self._unseen_at:
            values[i] = goals.pop()
        hidden = dict(zip(self._hidden_keys, values, strict=True))
        d["maze"] = t.maze.with_hidden(hidden)  # only the goals are new
        d["goals_left"] = goals[:self.goals_left_size]
        d["out"] = goals[self.goals_left_size:] + self.seen_out
        d["round_goals"] = self.board_goals + values
        if self.looked:
            seen = d["seen"] = [dict(seen) for seen in t.seen]  # copy-on-write (see clone)
            for s, c in self.looked:
                seen[s][c] = hidden[c]
        state.__dict__ = d
        return state

    def _compiled_plan(self) -> tuple[Any, ...]:
        """What the core's ``duel_sample`` reads (the order of its tuple)."""
        t = self.template
        return (t, DuelState, Rng, Memo, self._cards, self._words[0], self._goals,
                self._words[1], tuple(self.sizes), self.deck_size, self.seat,
                tuple(self._hidden_keys), tuple(self._hidden_values), tuple(self._unseen_at),
                self.goals_left_size, tuple(self.seen_out), tuple(self.board_goals),
                tuple(self.looked), t.maze.with_hidden)

    def compiled_search(self, exploration: float) -> Any:
        """An ISMCTS search with play-outs from this determinizer's samples on the compiled
        core (``core.duel.Search``), or None where the core is off or does not take the
        position."""
        from ...core.duel import search

        return search(self, exploration)


def determinize(view: DuelView, rng: Rng) -> DuelState:
    """One full state consistent with ``view``, drawn uniformly from the seat's uncertainty."""
    return Determinizer(view).sample(rng)
