"""Information-set Monte Carlo tree search (single observer, Cowling et al. 2012).

Every iteration samples a full state consistent with the seat's view (a
*determinization*), walks the shared tree choosing among the moves legal in
that sample by UCB with availability counts, adds one node, plays the round out
at random and backs up each seat's result.  The tree's statistics are over
moves, so what the samples disagree on averages out.

Results are per round: the gold each seat gains by the round's end, relative to
the others (scaled to about [-1, 1]), so that search horizons stay short.

Where a game has a position evaluation (``worlds.leaf_evaluator``) new nodes are
scored by it instead of a play-out.  In Saboteur and Saboteur 2 the root is
narrowed to the heuristic's best few moves and each root move carries a bias for
what a board evaluation cannot see (cards passed away, a map's information, a
door's colour): ``worlds.shortlist`` and ``worlds.root_bias``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.game import State
from ..engine.rng import Rng
from .base import Bot
from .worlds import (
    determinizer,
    exploration_for,
    iterations_for,
    leaf_evaluator,
    root_bias,
    shortlist,
)

GOLD_SCALE = 5.0  # a round's gold swing that counts as a full win


class _Node:
    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


def round_outcome(start: list[int], state: State) -> list[float]:
    """Each seat's gold gained since ``start``, minus the mean gain of the others."""
    return relative([now - before for now, before in zip(state.scores(), start, strict=True)])


def relative(gains: Sequence[float]) -> list[float]:
    """Each seat's gain minus the mean gain of the others, scaled to about [-1, 1]."""
    n = len(gains)
    if n == 1:
        return [g / GOLD_SCALE for g in gains]
    total = sum(gains)
    return [(g - (total - g) / (n - 1)) / GOLD_SCALE for g in gains]


#: the iterations of a search bounded by its time alone
UNBOUNDED = 1 << 62


class IsmctsBot(Bot):
    """Information-set MCTS over worlds sampled from the view.  Its budget a move:
    ``iterations`` (reproducible: the same seed, the same move), ``seconds`` alone (as many
    iterations as the time allows), both (whichever ends first), or neither (the game's
    own count)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 exploration: float | None = None, leaf_values: bool = True,
                 bias_scale: float | None = None) -> None:
        """``leaf_values``: score new nodes with the game's position evaluation where it
        has one; otherwise (or when False) play the round out from every new node."""
        super().__init__(seed)
        self.use_leaf_values = leaf_values
        self.bias_scale = bias_scale
        self.last_iterations = 0
        self.rng = Rng(seed)
        #: iterations per move; by default the game's own budget (about 0.2-0.5 s here), or,
        #: with ``seconds`` alone, as many as the time allows
        self.budget = iterations if iterations is not None or seconds is None else UNBOUNDED
        self.iterations = 0
        #: a time limit makes play depend on the machine; the default budget is iterations only,
        #: so that the same seed always gives the same move (arenas are reproducible)
        self.seconds = seconds
        #: UCB exploration; by default the game's own (its values' scale differs)
        self.explore_setting = exploration
        self.exploration = 0.7
        #: per-seat leaf values for games whose random play-outs say little (The Lost Mines)
        self._leaf: Callable[[Any], list[float]] | None = None
        #: the moves searched at the root when the game narrows them (see worlds.shortlist)
        self._root_moves: frozenset[Action] | None = None
        #: per root move, a value for what the leaves cannot see (see worlds.root_bias)
        self._root_bias: dict[Action, float] = {}

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        worlds = determinizer(view)
        self._leaf = leaf_evaluator(view) if self.use_leaf_values else None
        short = shortlist(view, legal, self.rng, worlds)
        self._root_moves = frozenset(short) if short is not None else None
        self._root_bias = root_bias(view, short or legal, self.bias_scale) if self._leaf else {}
        root = _Node()
        deadline = time.perf_counter() + (self.seconds if self.seconds is not None else 1e9)
        self.exploration = (self.explore_setting if self.explore_setting is not None
                            else exploration_for(view))
        self.iterations = self.budget if self.budget is not None else iterations_for(view)
        self.last_iterations = 0
        visits = self._compiled(worlds, deadline)
        if visits is None:  # the search in Python
            for i in range(self.iterations):
                self._iterate(root, worlds.sample(self.rng))
                self.last_iterations += 1
                if i % 16 == 15 and time.perf_counter() > deadline:
                    break
            visits = {a: child.visits for a, child in root.children.items()}
        options = [a for a in legal if a in visits]
        if not options:
            return legal[self.rng.below(len(legal))]
        return max(options, key=visits.__getitem__)

    def _compiled(self, worlds: Any, deadline: float) -> dict[Action, int] | None:
        """The search on the compiled core, where the game has one (``compiled_search`` of
        its determinizer: the same iterations as ``_iterate``'s, the same numbers drawn) and
        the leaves are played out: the root's moves with their visits; None: search in
        Python (from the generator as it was)."""
        make = getattr(worlds, "compiled_search", None)
        if make is None or self._leaf is not None or self._root_moves is not None \
                or self._root_bias or type(self.rng) is not Rng:
            return None
        search = make(self.exploration)
        if search is None:
            return None
        start = self.rng.state
        step = self.iterations if self.seconds is None else 16  # the clock read as _iterate's loop
        done = 0
        while done < self.iterations:
            n = min(step, self.iterations - done)
            if not search.run(self.rng, n):
                self.rng.state, self.last_iterations = start, 0
                return None
            done += n
            self.last_iterations = done
            if done % 16 == 0 and time.perf_counter() > deadline:
                break
        return search.root()  # type: ignore[no-any-return]

    def _iterate(self, root: _Node, state: State) -> None:
        rng = self.rng
        start = state.scores()
        round_no = state.round_no
        node = root
        path: list[tuple[_Node, int]] = []
        # selection and expansion
        while not state.is_terminal and state.round_no == round_no:
            legal = state.legal_actions()
            if node is root and self._root_moves is not None:
                legal = [a for a in legal if a in self._root_moves]
            player = state.current_player
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[rng.below(len(untried))]
                child = node.children[action] = _Node()
                child.available = 1
                for a in legal:
                    if a is not action and a in node.children:
                        node.children[a].available += 1
                state.apply(action, check=False)
                path.append((child, player))
                break
            bias = self._root_bias if node is root else {}
            best, best_value = legal[0], float("-inf")
            for a in legal:
                c = node.children[a]
                c.available += 1
                value = (c.total / c.visits + bias.get(a, 0.0)
                         + self.exploration * math.sqrt(math.log(c.available) / c.visits))
                if value > best_value:
                    best, best_value = a, value
            state.apply(best, check=False)
            node = node.children[best]
            path.append((node, player))
        if self._leaf is not None and not state.is_terminal and state.round_no == round_no:
            outcome = relative(self._leaf(state))
        else:  # simulation: random play to the end of the round
            if state.round_no == round_no:
                state.play_out(rng, policy="playout")
            outcome = round_outcome(start, state)
        for n, player in path:
            n.visits += 1
            n.total += outcome[player]
