"""What one seat of a Duel may know (duel.md, "Information"), built in this one place.

Public: the grid, markers, keys, cards in front of players, collected gold
cards, hand sizes, pile sizes, the public log.  Private to the seat: its hand
and its map looks.  Hidden from all: deck order, face-down goals, unused goals,
the cards of passes (face down) and the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.maze import xy
from ...engine.views import PlacedCard, RoundEnd, View, ViewMemo, masked_pass
from . import cards as C
from .state import PHASE_NAMES

if TYPE_CHECKING:
    from .state import DuelState

Cell = tuple[int, int]


@dataclass(frozen=True)
class DuelView(View):
    game: str  # "duel" or "solo"
    seat: int | None  # None: a spectator
    players: int
    options: dict[str, Any]
    colours: tuple[str, ...]
    round: int
    rounds: int
    turn: int
    current_player: int  # -1 when the match is over
    phase: str  # "main", "after" (bribe or end), "orient"
    board: tuple[PlacedCard, ...]  # face-up cards in the order they were placed
    face_down: tuple[Cell, ...]  # face-down goals
    markers: tuple[tuple[int, int, int], ...]  # (x, y, seat) on gold cards
    bribes: tuple[tuple[int, int, int], ...]  # (x, y, seat) on trolls
    keys: tuple[Cell, ...]
    markers_left: tuple[int, ...]  # per seat: markers that seat can still use
    keys_left: int
    in_front: tuple[tuple[str, ...], ...]
    gold: tuple[tuple[str, ...], ...]  # collected gold cards (public)
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int  # face-up and face-down discards together
    discards: tuple[str, ...]  # the face-up discards, in order
    passed_sizes: tuple[int, ...]  # cards each seat passed face down this round
    set_aside: int
    paid: tuple[str, ...]  # gold cards paid for trolls (out of the game)
    goals_seen: tuple[str, ...]  # goal cards turned face up so far in the match
    reveals: tuple[tuple[int, int, int], ...]  # (x, y, mask of the seats whose start revealed it)
    bribes_made: tuple[int, ...]  # this round, per seat
    pending_draw: int  # cards the seat on turn draws when the turn ends
    resume: str  # after an orientation choice: "main" (before the option) or "after"
    pending_goal: tuple[int, int, str, tuple[bool, ...]] | None  # being revealed: x, y, card, ways
    results: tuple[dict[str, Any], ...]
    last_round: RoundEnd | None  # the last ended round as it ended (public), None before
    log: tuple[tuple[int, str], ...]  # (seat, move) with other seats' passes hidden
    # private to ``seat``
    hand: tuple[str, ...] | None
    known_goals: tuple[tuple[int, int, str], ...]
    looked: tuple[tuple[int, int, int], ...]  # (seat, x, y): face-down goals looked at (public)
    my_passes: tuple[str, ...]  # what this seat passed face down this round


def duel_view(state: DuelState, seat: int | None) -> DuelView:
    game = state.game
    maze = state.maze
    memo = ViewMemo.of(state)
    board = memo.placed(maze)
    pending = None
    if state.pending is not None:
        g, ways = state.pending
        pending = (*xy(g), maze.hidden[g], ways)
    own = seat is not None and 0 <= seat < game.players
    return DuelView(
        game=game.mode,
        seat=seat if own else None,
        players=game.players,
        options=game.options.to_json(),
        colours=game.colours,
        round=state.round_no,
        rounds=C.ROUNDS,
        turn=state.turn,
        current_player=state.current_player,
        phase=PHASE_NAMES[state.phase],
        board=board,
        face_down=tuple(sorted([xy(c) for c in maze.hidden if state.pending is None
                                or c != state.pending[0]])),
        markers=tuple([(*xy(c), s) for c, s in sorted(state.markers.items())]),
        bribes=tuple([(*xy(c), s) for c, s in sorted(state.bribes.items())]),
        keys=tuple(sorted(map(xy, state.keys))),
        markers_left=tuple(map(state.markers_left, range(game.players))),
        keys_left=state.keys_left,
        in_front=tuple(map(tuple, state.in_front)),
        gold=tuple(map(tuple, state.gold)),
        scores=tuple(state.scores()),
        hand_sizes=tuple(map(len, state.hands)),
        deck_size=len(state.deck),
        discard_size=len(state.discards) + sum(map(len, state.passed)),
        discards=tuple(state.discards),
        passed_sizes=tuple(map(len, state.passed)),
        set_aside=len(state.aside),
        paid=tuple(state.paid),
        goals_seen=tuple(state.goals_seen),
        reveals=tuple([(*xy(c), mask) for c, mask in sorted(state.forced.items())]),
        bribes_made=tuple(state.bribes_made),
        pending_draw=state.pending_draw,
        resume=("main", "after")[state.resume],
        pending_goal=pending,
        results=tuple([r.to_json() for r in state.results]),
        last_round=state.last_round,
        log=memo.log(seat, state.actors, masked_pass),
        hand=tuple(sorted(state.hands[seat])) if own and seat is not None else None,
        known_goals=tuple([(*xy(c), code) for c, code in sorted(state.seen[seat].items())
                           if c in maze.hidden]) if own and seat is not None else (),
        looked=tuple([(s, *xy(c)) for s in range(game.players) for c in sorted(state.seen[s])
                      if c in maze.hidden]),
        my_passes=tuple(state.passed[seat]) if own and seat is not None else (),
    )
