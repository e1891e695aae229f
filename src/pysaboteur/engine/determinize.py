"""What every game's determinizer shares: an empty state to fill from a view, and the
count of places the unknown cards go to.

A determinizer (``games/*/determinize.py``) rebuilds the public part of a position
from one seat's view, then deals what the seat cannot know; see
:mod:`pysaboteur.bots.worlds`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .game import TERMINAL, Game, RoundResult, State
from .rng import Rng

S = TypeVar("S", bound=State)


def blank_state(kind: type[S], game: Game, view: Any) -> S:
    """A state of ``kind`` with the fields every game keeps, taken from ``view``.

    The sample has no seed, no fixed deal and no history (the view's log is all it
    knows of the past); its generator is set per sample.
    """
    state = kind.__new__(kind)
    state.game = game
    state.seed, state.deal, state.rng = 0, None, Rng(0)
    state.history, state.actors = [], []
    state.results = [RoundResult(r["round"], list(r["gold"]),
                                 {k: v for k, v in r.items() if k not in ("round", "gold")})
                     for r in view.results]
    state._round = view.round
    state.terminal = view.current_player == TERMINAL
    state.turn = view.turn  # type: ignore[attr-defined]
    state.current = max(view.current_player, 0)
    return state


def check_places(unknown: int, places: int) -> None:
    """The unknown cards must fill exactly the hidden places (other hands, passes, pile...)."""
    if unknown != places:
        raise ValueError(f"view is inconsistent: {unknown} unknown cards for {places} "
                         "hidden places")
