"""Helpers that build exact Duel positions: fixed deals plus direct board set-up."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.engine import Deal, EndTurn, Pass
from pysaboteur.engine.maze import cell
from pysaboteur.games.duel import DuelGame, DuelState
from pysaboteur.games.duel import cards as C

CAT = C.CATALOGUE
DECK = tuple(CAT.box(["path", "action"]))  # the 52 cards of a round-1 pile
GOALS = tuple(CAT.box(["goal"]))


def _filler_key(code: str) -> tuple[bool, str]:
    # sabotage and rockfall last, so that solo draws from the filler are inert
    return CAT[code].effect in ("break", "rockfall"), code


def _pile(front: Sequence[str]) -> tuple[str, ...]:
    """``front`` (top first) followed by every other card of the round."""
    rest = Counter(DECK) - Counter(front)
    if Counter(front) - Counter(DECK):
        raise ValueError(f"more cards than the box holds: {Counter(front) - Counter(DECK)}")
    return (*front, *sorted(rest.elements(), key=_filler_key))


def _fill(given: Sequence[str], n: int, used: Counter[str]) -> list[str]:
    spare = sorted((Counter(DECK) - used).elements(), key=_filler_key)
    out = list(given)
    for code in spare:
        if len(out) >= n:
            break
        out.append(code)
        used[code] += 1
    return out


def _goals(goals: Mapping[tuple[int, int], str],
           cells: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    rest = iter(sorted((Counter(GOALS) - Counter(goals.values())).elements()))
    first = [goals.get(xy) or next(rest) for xy in cells]
    return (*first, *rest)


def duel(hands: Sequence[Sequence[str]] = ((), ()), top: Sequence[str] = (),
         goals: Mapping[tuple[int, int], str] | None = None, seed: int = 1,
         **options: Any) -> DuelState:
    """A two-player state whose hands (filled up to 6), next draws and goals are fixed."""
    game = DuelGame(2, **options)
    used: Counter[str] = Counter(top)
    for hand in hands:
        used.update(hand)
    full = [_fill(hand, C.HAND_SIZE, used) for hand in hands]
    starter = game.colours.index(C.GREEN)
    dealt = [full[(starter + j) % 2][i] for i in range(C.HAND_SIZE) for j in range(2)]
    deal = Deal(goals=_goals(goals or {}, C.GOAL_CELLS), decks=(_pile([*dealt, *top]),))
    state = game.new_state(seed, deal)
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in full]
    return state


def solo(draws: Sequence[str] = (), aside: Sequence[str] | None = None,
         goals: Mapping[tuple[int, int], str] | None = None, seed: int = 1,
         **options: Any) -> DuelState:
    """A solo state: ``aside`` (10 cards) set aside, then ``draws`` drawn in order (solo rules)."""
    game = DuelGame(1, **options)
    if aside is None:
        aside = _fill([], C.SOLO_SET_ASIDE, Counter(draws))
    deal = Deal(goals=_goals(goals or {}, C.SOLO_GOAL_CELLS), decks=(_pile([*aside, *draws]),))
    return game.new_state(seed, deal)


def put(state: DuelState, code: str, x: int, y: int, rotated: bool = False) -> None:
    """Lay a card straight onto the board (no fit or connection check, no claims or reveals).

    A deck card is taken from the bottom of the pile; a goal card from the unused goals.
    """
    state.lay(cell(x, y), CAT.otile[code, rotated])
    if code in state.deck:
        state.deck.remove(code)
    elif code in state.goals_left:
        state.goals_left.remove(code)


def put_all(state: DuelState, cards: Iterable[tuple[str, int, int] | tuple[str, int, int, bool]]
            ) -> None:
    for spec in cards:
        put(state, *spec)


def reveal(state: DuelState, x: int, y: int, rotated: bool = False) -> None:
    """Turn a face-down goal over directly (no claims)."""
    state._reveal(cell(x, y), rotated)


def pass_turn(state: DuelState) -> None:
    """The current player passes one card (and ends the turn without bribing)."""
    seat = state.current_player
    state.apply(Pass((state.hands[seat][0],)))
    if state.current_player == seat and EndTurn() in state.legal_actions():
        state.apply(EndTurn())


def end_round(state: DuelState) -> None:
    """Finish the round through play: empty pile, one card each, everybody passes."""
    round_no = state.round_no
    state.deck.clear()
    for hand in state.hands:
        del hand[1:]
    while state.round_no == round_no and not state.is_terminal:
        pass_turn(state)


def snapshot(state: DuelState) -> Any:
    """Everything an illegal action must leave untouched."""
    views = [state.view(s).to_json() for s in range(state.game.players)]
    return (views, list(state.deck), state.rng.state, dict(state.maze.cells),
            [list(h) for h in state.hands], state.phase, state.current, state.turn,
            dict(state.markers), list(state.pools), state.keys_left)


@pytest.fixture(scope="module", params=["core", "pure"])
def both_paths(request: pytest.FixtureRequest) -> Iterator[str]:
    """A module's tests run on the compiled core, then on the pure engine (the same games
    bit for bit: the rule and property tests must hold on both; issue 24).  Where the core
    is not built both runs are pure."""
    with core.use_pure(request.param == "pure"):
        yield request.param


#: test modules that start servers, proxies or databases of their own and time what they do
_PROCESS_MODULES = frozenset({"test_scale_out", "test_web_restart", "test_web_full_disk"})


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Under pytest-xdist (``-n``, ``--dist loadgroup``) the browser tests and the tests that
    start processes of their own run one after another on one worker, as they would alone:
    each drives servers and a chromium against the clock, and two at once on a small machine
    would time each other out.  The other tests share the workers."""
    for item in items:
        if (item.get_closest_marker("e2e") is not None
                or item.path.stem in _PROCESS_MODULES):
            item.add_marker(pytest.mark.xdist_group("processes"))
