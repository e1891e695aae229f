"""What one seat of a Lost Mines match may know (lost-mines.md, "Information"), in one place.

Public: the board, pawns (and the segment of its card each stands on), tokens,
forest tiles, revealed mines, troll cards in front of players, every player's
clan, the types of the laid-out and collected treasures and which slots each
seat took, who holds the dragon, hand sizes, pile sizes, the cards the player on
turn will draw, whether it has proposed ending the round, the log (and where this
round begins in it).  Enough to rebuild the public position (determinization,
``determinize.py``).  Private to
the seat: its hand, its identity, the values of its own treasures and what its
information cards showed.  Hidden from all: deck order, face-down mines,
treasure values, other identities, set-aside cards, the cards of passes and of
trap discards.  At round end dwarf cards and treasures are revealed (``results``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.maze import xy
from ...engine.views import PlacedCard, RoundEnd, View, ViewMemo, masked_pass
from . import cards as C

if TYPE_CHECKING:
    from .state import LostMinesState

Cell = tuple[int, int]


@dataclass(frozen=True)
class LostMinesView(View):
    game: str
    seat: int | None  # None: a spectator
    players: int
    round: int
    rounds: int
    turn: int
    current_player: int  # -1 when the match is over
    phase: str  # "card", "move", "orient", "take", "vote"
    board: tuple[PlacedCard, ...]  # face-up cards in the order they were placed
    face_down: tuple[Cell, ...]  # face-down mines
    pawns: tuple[Cell, ...]  # per seat
    forest: tuple[Cell, ...]  # overcome obstacles
    traps: tuple[tuple[int, int, str], ...]  # joints: (x, y, "E" or "S")
    trolls: tuple[tuple[int, int, str, int], ...]  # joints and the owner seat
    in_front: tuple[tuple[str, ...], ...]
    clans: tuple[str, ...]  # public: the backs of the dwarf cards
    treasures: tuple[tuple[int, str, int], ...]  # laid out: (slot, type, holder or -1)
    collected: tuple[tuple[str, ...], ...]  # per seat: types of the treasures held
    dragon: int | None
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int
    set_aside: int
    pending: tuple[Any, ...] | None  # orient: (x, y, mine, ways); take: slots; vote: voters left
    results: tuple[dict[str, Any], ...]
    last_round: RoundEnd | None  # the last ended round as it ended (public), None before
    log: tuple[tuple[int, str], ...]  # (seat, move) with other seats' passes hidden
    round_start: int  # index in ``log`` of this round's first move
    pawn_segments: tuple[int, ...]  # per seat: the segment of its card the pawn stands on
    collected_slots: tuple[tuple[int, ...], ...]  # per seat: the slots it took, in order
    pending_draw: int  # cards the player on turn draws after the move
    proposed: bool  # the player on turn has proposed ending the round this turn
    # private to ``seat``
    hand: tuple[str, ...] | None
    identity: str | None
    own_treasures: tuple[str, ...]  # the values of the seat's treasures (cards)
    known_mines: tuple[tuple[int, int, str], ...]
    known_treasures: tuple[tuple[int, str], ...]  # (slot, card)
    known_dwarves: tuple[tuple[int, str], ...]  # (seat, card)

    @property
    def known_goals(self) -> tuple[tuple[int, int, str], ...]:
        """The mines this seat has looked at (the name other games use)."""
        return self.known_mines


def lost_mines_view(state: LostMinesState, seat: int | None) -> LostMinesView:
    from .state import ORIENT, PHASE_NAMES, TAKE, VOTE

    game = state.game
    maze = state.maze
    memo = ViewMemo.of(state)
    board = memo.placed(maze)
    pending: tuple[Any, ...] | None = None
    if state.phase == ORIENT:
        g, _, ways = state.pending
        pending = (*xy(g), maze.hidden[g], ways)  # the mine is being turned over: public
    elif state.phase == TAKE:
        pending = tuple(state.pending)
    elif state.phase == VOTE:
        pending = tuple(state.voters)
    own = seat is not None and 0 <= seat < game.players
    me = seat if own and seat is not None else -1
    return LostMinesView(
        game=game.name,
        seat=seat if own else None,
        players=game.players,
        round=state.round_no,
        rounds=game.options.rounds,
        turn=state.turn,
        current_player=state.current_player,
        phase=PHASE_NAMES[state.phase],
        board=board,
        face_down=tuple(sorted([xy(c) for c in maze.hidden
                                if state.phase != ORIENT or c != state.pending[0]])),
        pawns=tuple(map(xy, state.pawn)),
        forest=tuple(sorted(map(xy, state.overcome))),
        traps=tuple([(*xy(j >> 4), "E" if j & 15 == 2 else "S") for j in sorted(state.traps)]),
        trolls=tuple([(*xy(j >> 4), "E" if j & 15 == 2 else "S", s)
                      for j, s in sorted(state.trolls.items())]),
        in_front=tuple(map(tuple, state.in_front)),
        clans=tuple(map(state.clan, range(game.players))),
        treasures=tuple([(i, C.treasure_type(code), state.owner[i])
                         for i, code in enumerate(state.layout)]),
        collected=tuple([tuple([C.treasure_type(state.layout[i]) for i in slots])
                         for slots in state.collected]),
        dragon=state.dragon,
        scores=tuple(state.scores()),
        hand_sizes=tuple(map(len, state.hands)),
        deck_size=len(state.deck),
        discard_size=len(state.discards),
        set_aside=len(state.aside),
        pending=pending,
        results=tuple([r.to_json() for r in state.results]),
        last_round=state.last_round,
        log=memo.log(seat, state.actors, masked_pass),
        round_start=state.round_start,
        pawn_segments=tuple(state.pawn_seg),
        collected_slots=tuple(map(tuple, state.collected)),
        pending_draw=state.pending_draw,
        proposed=state.proposed,
        hand=tuple(sorted(state.hands[me])) if own else None,
        identity=state.identity(me) if own else None,
        own_treasures=tuple(state.layout[i] for i in state.collected[me]) if own else (),
        known_mines=tuple((*xy(c), code) for c, code in sorted(state.seen_mines[me].items())
                          if c in maze.hidden) if own else (),
        known_treasures=tuple((i, state.layout[i]) for i in sorted(state.seen_treasures[me]))
        if own else (),
        known_dwarves=tuple((s, state.dwarves[s]) for s in sorted(state.seen_dwarves[me]))
        if own else (),
    )
