"""What every game's determinizer shares: an empty state to fill from a view, and the
count of places the unknown cards go to.

A determinizer (``games/*/determinize.py``) rebuilds the public part of a position
from one seat's view, then deals what the seat cannot know; see
:mod:`pysaboteur.bots.worlds`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .game import TERMINAL, Game, RoundResult, State
from .maze import Maze
from .rng import _PLANS, RAW, Rng, _plan, reorder

S = TypeVar("S", bound=State)
V = TypeVar("V")


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
    state.last_round = view.last_round  # immutable, public: shared
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


class Deals(dict[int, V]):
    """What each deal of ``cards`` gives, by its Lehmer code (``Rng.lehmer_code(len(cards))``):
    ``deals[code]`` is ``make(reorder(code, cards))``, worked out on first use and kept for
    the next samples when there are at most ``keep`` cards (``keep``! deals).

    >>> deals = Deals(["a", "b", "c"], "".join, keep=3)
    >>> deals[0], deals[5], len(deals)
    ('abc', 'cba', 2)
    """

    def __init__(self, cards: list[str], make: Callable[[list[str]], V], keep: int) -> None:
        super().__init__()
        self.cards, self.make, self.keep = cards, make, keep

    def __missing__(self, code: int) -> V:
        value = self.make(reorder(code, self.cards))
        if len(self.cards) <= self.keep:
            self[code] = value
        return value


def dealt_mazes(maze: Maze, cells: list[int], cards: list[str], seen: Mapping[int, str],
                keep: int) -> Deals[Maze]:
    """A template's maze with its unknown face-down cards (goals, mines) dealt, by the
    Lehmer code of the deal: ``cells[i]`` gets the deal's ``i``-th card, the cells in
    ``seen`` their known cards.  Samples share the template's maze copy-on-write
    (``Maze.with_hidden``), so they may share these too."""

    def deal(dealt: list[str]) -> Maze:
        hidden = maze.hidden.copy()
        hidden.update(zip(cells, dealt, strict=True))
        hidden.update(seen)
        return maze.with_hidden(hidden)

    return Deals(cards, deal, keep)


def compiled_sample(det: Any, ext: Any, rng: Rng) -> Any:
    """``det.sample(rng)`` made whole by the compiled core ``ext`` (``core/determinize.c``),
    or None where it does not take the determinizer (its plan, ``det._core_plan(ext)``, made
    at the first call and kept in ``det._plan``: False when the core declines it)."""
    plan = det._plan
    if plan is None:
        plan = det._plan = det._core_plan(ext)
    return None if plan is False else ext.det_sample(plan, rng)


def core_calls(calls: list[int]) -> list[tuple[int, int, int | None]]:
    """A :class:`~pysaboteur.engine.rng.Draws`' calls as the compiled core's samplers read
    them (``core/determinize.c``): per call its n (-1: a raw number), its 64-bit words, and
    n! where a code of more than 20 items is looked up (None: the core works it out)."""
    out: list[tuple[int, int, int | None]] = []
    for n in calls:
        if n == RAW:
            out.append((-1, 1, None))
        elif n < 2:
            out.append((n, 0, None))
        else:
            bound, words = _PLANS.get(n) or _plan(n)
            out.append((n, words, bound if n > 20 else None))
    return out
