"""Hidden-information sampling for bots: one determinizer per game, looked up by view.

A determinizer is built once from a seat's view and then samples full states
consistent with it (``sample(rng)``).  Bots never see the true state; they
search these samples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..engine.actions import Action
from ..engine.game import State
from ..engine.rng import Rng


class Determinizer(Protocol):
    def sample(self, rng: Rng) -> State: ...


def determinizer(view: Any) -> Determinizer:
    """The determinizer for ``view``'s game; ValueError for a game that has none yet."""
    if view.game in ("duel", "solo"):
        from ..games.duel.determinize import Determinizer as DuelDeterminizer

        return DuelDeterminizer(view)
    if view.game == "lost-mines":
        from ..games.lost_mines.determinize import Determinizer as LostMinesDeterminizer
        from .lost_mines_beliefs import likelihoods

        return LostMinesDeterminizer(view, likelihoods(view))
    if view.game in ("classic", "expansion"):
        from .beliefs import role_weights

        if view.game == "classic":
            from ..games.classic.determinize import Determinizer as CardDeterminizer
        else:
            from ..games.expansion.determinize import Determinizer as CardDeterminizer
        return CardDeterminizer(view, role_weights(view))
    raise ValueError(f"no determinizer for {view.game!r} yet")


def leaf_evaluator(view: Any) -> Callable[[Any], list[float]] | None:
    """Per-seat values of a search leaf, for games whose random play-outs say little
    (None: play the round out at random and score it)."""
    if view.game == "lost-mines":
        from .lost_mines_heuristic import leaf_values

        return leaf_values
    if view.game in ("duel", "solo"):
        from .duel_heuristic import leaf_values as duel_leaf_values

        return duel_leaf_values  # type: ignore[return-value]
    if view.game in ("classic", "expansion"):
        from .card_leaf import leaf_evaluator as card_leaf_evaluator

        return card_leaf_evaluator(view)
    return None


#: UCB exploration constants of ISMCTS: leaves valued by a position evaluation (the Duel,
#: Saboteur) differ little from move to move; play-out results span about [-1, 1]
EXPLORATION = {"duel": 0.1, "solo": 0.1, "classic": 0.1, "expansion": 0.1,
               "lost-mines": 0.15}  # 30 matches: 1.4 points and 34% wins a match vs 0.8, 21% at 0.7


def exploration_for(view: Any) -> float:
    return EXPLORATION.get(view.game, 0.7)


#: ISMCTS iterations per move: a deterministic budget of well under a second here
ITERATIONS = {"duel": 800, "solo": 800}


def iterations_for(view: Any) -> int:
    return ITERATIONS.get(view.game, 300)


#: how many of the heuristic's best moves ISMCTS searches at the root, per game (all when
#: absent): in Saboteur a hand offers 50-100 moves, too many to judge each by a few leaves
SHORTLIST = {"classic": 6, "expansion": 6}


def shortlist(view: Any, legal: Sequence[Action], rng: Rng,
              worlds: Determinizer | None = None) -> list[Action] | None:
    """The moves ISMCTS considers at the root (None: every legal move); ``worlds``: the
    view's determinizer, if already built."""
    k = SHORTLIST.get(view.game)
    if k is None or len(legal) <= k:
        return None
    from .heuristic import card_game_ranking

    return card_game_ranking(view, legal, rng, worlds)[:k]


#: Saboteur and Saboteur 2: what one point of the heuristic's move bias (cards passed
#: away, maps on unseen goals, doors of one's colour...) is worth in ISMCTS values, whose
#: leaves see the board only.  The heuristic counts a step toward the gold as 3 points;
#: in the leaf model a step is worth about 0.075 (0.6 in log-odds near even chances, on a
#: 3-gold stake, relative to the others, over GOLD_SCALE), so a point is about 0.025
BIAS_SCALE = {"classic": 0.025, "expansion": 0.025}


def root_bias(view: Any, moves: Sequence[Action], scale: float | None = None
              ) -> dict[Action, float]:
    """Per root move, a value added to its search value for what the leaf evaluation
    cannot see (empty: none)."""
    scale = BIAS_SCALE.get(view.game) if scale is None else scale
    if not scale:
        return {}
    from ..registry import shared_game
    from .beliefs import role_beliefs
    from .classic_heuristic import action_bias

    beliefs = role_beliefs(view)
    cat = shared_game(view.game, view.players).catalogue
    return {a: scale * action_bias(a, view, beliefs, cat) for a in moves}
