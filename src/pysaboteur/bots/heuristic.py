"""The heuristic bot: one imagined world, every legal move tried, the best kept."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.rng import Rng
from .base import Bot
from .worlds import Determinizer, determinizer


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.game == "lost-mines":
            from . import lost_mines_heuristic

            return lost_mines_heuristic.choose(view, legal, self.rng)
        if view.game in ("classic", "expansion"):
            return self._choose_card_game(view, legal)
        if view.game not in ("duel", "solo"):
            return legal[self.rng.below(len(legal))]
        from . import duel_heuristic as rules

        world = determinizer(view).sample(self.rng)
        me = view.seat
        best, best_score = legal[0], float("-inf")
        for action in legal:
            trial = world.clone()
            trial.apply(action, check=False)
            # a tiny random term breaks ties without favouring the list order
            score = (rules.evaluate(trial, me) + rules.action_bias(str(action))  # type: ignore[arg-type]
                     + self.rng.below(1000) * 1e-6)
            if score > best_score:
                best, best_score = action, score
        return best

    def _choose_card_game(self, view: Any, legal: Sequence[Action]) -> Action:
        return card_game_ranking(view, legal, self.rng)[0]


def card_game_ranking(view: Any, legal: Sequence[Action], rng: Rng,
                      worlds: Determinizer | None = None) -> list[Action]:
    """Saboteur and Saboteur 2: the legal moves ranked by rules of thumb, best first,
    in one world dealt by role beliefs (from ``worlds``, the view's determinizer, when
    the caller has built it already)."""
    from . import classic_heuristic as rules
    from .beliefs import role_beliefs

    world = (worlds or determinizer(view)).sample(rng)
    jitter = [rng.below(1000) * 1e-6 for _ in legal]
    return rules.ranked(view, list(legal), world, role_beliefs(view),  # type: ignore[arg-type]
                        jitter)
