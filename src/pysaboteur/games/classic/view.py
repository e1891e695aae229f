"""What one seat of Saboteur may know (classic.md, "Information"), built in this one place.

Public: the grid, cards in front of players, hand sizes, pile sizes, the
public log (other seats' passes hidden), earlier rounds' roles and winners.
Private to the seat: its hand, its dwarf card, its map looks, its gold.
Hidden from all: deck order, face-down goals, the spare dwarf card, the
content of passes, other seats' gold (until the match ends).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.actions import Action, Discard
from ...engine.maze import xy
from ...engine.views import PlacedCard, RoundEnd, View, ViewMemo, masked_pass
from .state import PHASE_NAMES

if TYPE_CHECKING:
    from .state import ClassicState

Cell = tuple[int, int]
__all__ = ["ClassicView", "PlacedCard", "classic_view", "common_fields"]


@dataclass(frozen=True)
class ClassicView(View):
    game: str
    options: dict[str, Any]
    seat: int | None  # None: a spectator
    players: int
    round: int
    rounds: int
    turn: int
    current_player: int  # -1 when the match is over
    phase: str  # "main", "orient", "steal"
    board: tuple[PlacedCard, ...]  # face-up cards in the order they were placed
    face_down: tuple[Cell, ...]  # face-down goals
    in_front: tuple[tuple[str, ...], ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int  # face up and face down
    discards: tuple[str, ...]  # the face-up discards of this round (played and removed cards)
    passed_sizes: tuple[int, ...]  # cards each seat discarded face down this round
    set_aside: int
    pending_goal: tuple[int, int, str, tuple[bool, ...]] | None  # being revealed: x, y, card, ways
    results: tuple[dict[str, Any], ...]  # earlier rounds; others' gold hidden until the end
    last_round: RoundEnd | None  # the last ended round as it ended (public), None before
    log: tuple[tuple[int, str], ...]  # (seat, move) with other seats' face-down cards hidden
    round_start: int  # index in ``log`` of this round's first move
    final_scores: tuple[int, ...] | None  # everybody's gold, once the match is over
    # private to ``seat``
    hand: tuple[str, ...] | None
    role: str | None
    known_goals: tuple[tuple[int, int, str], ...]
    my_passes: tuple[str, ...]  # own face-down discards this round, in order
    gold: int | None  # own gold so far


def masked_move(action: Action) -> str | None:
    """What the other seats see of a move, or None when they see it all: passes and
    discards go face down."""
    if type(action) is Discard:
        return f"discard {len(action.cards)} -{action.remove}"
    return masked_pass(action)


def passed_sizes(passed: list[tuple[int, str]], players: int) -> tuple[int, ...]:
    """How many cards each seat has passed face down this round."""
    sizes = [0] * players
    for s, _ in passed:
        sizes[s] += 1
    return tuple(sizes)


def public_result(result: dict[str, Any], seat: int | None, over: bool) -> dict[str, Any]:
    """A round's result with the other seats' gold hidden (None) until the match is over."""
    if over:
        return result
    shown = dict(result)
    shown["gold"] = [g if s == seat else None for s, g in enumerate(result["gold"])]
    return shown


def common_fields(state: ClassicState, seat: int | None) -> dict[str, Any]:
    """The fields every Saboteur card game's view shares (the expansion adds to them)."""
    game = state.game
    maze = state.maze
    memo = ViewMemo.of(state)
    pending = None
    if state.pending is not None:
        g, ways = state.pending
        pending = (*xy(g), maze.hidden[g], ways)
    own = seat is not None and 0 <= seat < game.players
    me = seat if own else None
    over = state.is_terminal
    return {
        "game": game.name,
        "options": game.options.to_json(),
        "seat": me,
        "players": game.players,
        "round": state.round_no,
        "rounds": game.data.ROUNDS,
        "turn": state.turn,
        "current_player": state.current_player,
        "phase": PHASE_NAMES[state.phase],
        "board": memo.placed(maze),
        "face_down": tuple(sorted([xy(c) for c in maze.hidden
                                   if state.pending is None or c != state.pending[0]])),
        "in_front": tuple(map(tuple, state.in_front)),
        "hand_sizes": tuple(map(len, state.hands)),
        "deck_size": len(state.deck),
        "discard_size": len(state.discards) + len(state.passed),
        "discards": tuple(state.discards),
        "passed_sizes": passed_sizes(state.passed, game.players),
        "set_aside": len(state.aside),
        "pending_goal": pending,
        "results": tuple([public_result(r.to_json(), me, over) for r in state.results]),
        "last_round": state.last_round,
        "log": memo.log(me, state.actors, masked_move),
        "round_start": state.round_start,
        "final_scores": tuple(state.scores()) if over else None,
        "hand": tuple(sorted(state.hands[me])) if me is not None else None,
        "role": state.roles[me] if me is not None else None,
        "known_goals": tuple([(*xy(c), code) for c, code in sorted(state.seen[me].items())
                              if c in maze.hidden]) if me is not None else (),
        "my_passes": tuple([c for s, c in state.passed if s == me]) if me is not None else (),
    }


def classic_view(state: ClassicState, seat: int | None) -> ClassicView:
    fields = common_fields(state, seat)
    me = fields["seat"]
    return ClassicView(**fields, gold=state.scores()[me] if me is not None else None)
