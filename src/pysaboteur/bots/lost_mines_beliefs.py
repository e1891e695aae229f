"""Role inference for The Lost Mines: loyal, selfish or saboteur, per seat, from public facts.

The round's public log is replayed on a public board (cards laid and stormed,
forest tiles, traps, trolls, pawns).  Every card played that changes how far
other pawns are from the mines is evidence about its player:

* it helps or hinders the pawns of the player's own clan (a loyal dwarf helps
  them, a saboteur hinders them: it plays for the other clan);
* it helps or hinders the pawns of the other clan (the opposite);
* a selfish dwarf only looks after itself, so either way says little.

"Helps" is measured as the change of each pawn's walking prospect of a mine
(:mod:`.lost_mines_paths`): a path card laid ahead of a pawn helps, a trap,
troll, storm or obstacle in its way hinders.  Proposals to end the round and
the votes on them weigh in by who holds treasures.

The result, per seat, is a likelihood of the evidence under each identity
(``likelihoods``, what the determinizer multiplies into its prior of dealt
dwarf cards) and a posterior (``beliefs``).  The seat's own identity and the
dwarf cards it looked at are certain.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..engine.actions import (
    Move,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnJoint,
    PlayOnPlayer,
    PlayOnTreasure,
    ProposeEnd,
    Vote,
)
from ..engine.errors import NotationError
from ..engine.maze import Maze, cell
from ..games.lost_mines import cards as C
from ..games.lost_mines.state import CAT, dwarf_box, joint_of
from .kept import Kept
from .lost_mines_paths import prospect, targets, walk_costs

IDENTITIES = (C.LOYAL, C.SELFISH, C.SABOTEUR)
#: how strongly a unit of help (treasure value brought nearer) to the own clan rather
#: than to the other clan speaks for each identity
_LEAN = {C.LOYAL: 1.0, C.SELFISH: 0.0, C.SABOTEUR: -1.0}
#: ... and how strongly help to everybody else (either clan) speaks against a selfish dwarf
_ALONE = {C.LOYAL: 0.0, C.SELFISH: -1.0, C.SABOTEUR: 0.0}
BETA = 0.3  # evidence strength per unit of help (fitted on heuristic self-play)
BETA_SELF = 0.3
CAP = 3.0  # at most this much help counts from one card
VOTE_WEIGHT = 0.3


def likelihoods(view: Any) -> list[dict[str, float] | None]:
    """Per seat: identity -> likelihood of its public play this round (None: no evidence needed,
    the identity is known to the viewer)."""
    scores = _evidence(view)
    out: list[dict[str, float] | None] = []
    known = _known(view)
    for s in range(view.players):
        if s in known:
            out.append(None)
            continue
        side, others = scores[s]
        out.append({i: math.exp(BETA * _LEAN[i] * side + BETA_SELF * _ALONE[i] * others)
                    for i in IDENTITIES})
    return out


def beliefs(view: Any) -> list[dict[str, float]]:
    """Per seat: identity -> probability, from the dwarf cards in play and the evidence."""
    known = _known(view)
    like = likelihoods(view)
    box = Counter(dwarf_box(view.players))
    for d in known.values():
        box[d] -= 1
    out = []
    for s in range(view.players):
        if s in known:
            ident = C.identity_of(known[s])
            out.append({i: float(i == ident) for i in IDENTITIES})
            continue
        clan = view.clans[s]
        ls = like[s]
        assert ls is not None
        weights = {i: max(box[f"{clan}-{i}"], 0) * ls[i] for i in IDENTITIES}
        total = sum(weights.values()) or 1.0
        out.append({i: w / total for i, w in weights.items()})
    return out


def _known(view: Any) -> dict[int, str]:
    known = dict(view.known_dwarves)
    if view.seat is not None and view.identity is not None:
        known[view.seat] = f"{view.clans[view.seat]}-{view.identity}"
    return known


class _PublicRound:
    """The public board of the round, replayed move by move from the log."""

    def __init__(self, view: Any) -> None:
        self.maze = Maze(CAT, 0)
        for clan, (x, y) in C.STARTS.items():
            self.maze.place(cell(x, y), CAT.otile[f"start-{clan}", False])
        for x, y in C.MINE_CELLS:
            self.maze.put_hidden(cell(x, y), "?")
        self.mines = {cell(p.x, p.y): CAT.otile[p.card, p.rotated] for p in view.board
                      if CAT[p.card].category == "mine"}
        self.pawns = [cell(*C.STARTS[clan]) for clan in view.clans]
        self.overcome: set[int] = set()
        self.traps: set[int] = set()
        self.trolls: dict[int, int] = {}
        self.left = Counter(kind for _, kind, holder in view.treasures if holder < 0)
        self.held = [0] * view.players

    def prospects(self) -> list[float]:
        goals = targets(self.maze, self.left)
        out = []
        for c in self.pawns:
            segs = range(len(CAT.segments[self.maze.cells[c]])) if c in self.maze.cells else ()
            out.append(prospect(walk_costs(self.maze, c, segs, self.overcome, self.traps,
                                           self.trolls), goals))
        return out

    def new_turn(self, seat: int) -> None:
        for j in [j for j, owner in self.trolls.items() if owner == seat]:
            del self.trolls[j]  # a troll goes at the start of its owner's next turn

    def play(self, seat: int, action: Any) -> None:
        maze = self.maze
        if isinstance(action, PlacePath):
            maze.place(cell(action.x, action.y), CAT.otile[action.card, action.rotated])
        elif isinstance(action, PlayOnJoint):
            j = joint_of(action)
            if j is not None:
                if CAT[action.card].effect == "trap":
                    self.traps.add(j)
                else:
                    self.trolls[j] = seat
        elif isinstance(action, PlayOnCell):
            c = cell(action.x, action.y)
            effect = CAT[action.card].effect
            if effect == "tool":
                self.overcome.add(c)
            elif effect == "storm" and c in maze.cells:
                maze.remove(c)
                self.overcome.discard(c)

    def move(self, seat: int, action: Move) -> None:
        c = cell(*action.route[-1])
        if c in self.maze.hidden:
            self.maze.place(c, self.mines.get(c, CAT.otile["mine-gems", False]))
        self.pawns[seat] = c


class _Replay:
    """A round's log replayed up to ``log``: the public board after it and, per entry,
    what it said: None, a card's (seat, side, everybody) or a proposal's or vote's (seat,
    agrees)."""

    __slots__ = ("board", "log", "said")

    def __init__(self, view: Any) -> None:
        self.board = _PublicRound(view)
        self.log: tuple[tuple[int, str], ...] = ()
        self.said: list[tuple[int, float, float] | tuple[int, bool] | None] = []

    def extend(self, view: Any, log: tuple[tuple[int, str], ...]) -> None:
        """Replay the entries of ``log`` past those replayed so far."""
        n = view.players
        clans = view.clans
        board = self.board
        game_parse = _parser(view)
        said = self.said
        for seat, text in log[len(self.log):]:
            try:
                action = game_parse(text)
            except NotationError:
                said.append(None)  # another seat's pass: "pass 2"
                continue
            if isinstance(action, Move):
                board.move(seat, action)
                said.append(None)
                continue
            if isinstance(action, (PlacePath, PlayOnJoint, PlayOnCell, PlayOnTreasure,
                                   PlayOnPlayer, Pass)):
                board.new_turn(seat)
            if isinstance(action, (PlacePath, PlayOnJoint, PlayOnCell)) and \
                    CAT[action.card].effect != "info":
                before = board.prospects()
                board.play(seat, action)
                after = board.prospects()
                own = other = 0.0
                for s in range(n):
                    if s == seat:
                        continue
                    gain = after[s] - before[s]
                    if clans[s] == clans[seat]:
                        own += gain
                    else:
                        other += gain
                said.append((seat, max(-CAP, min(CAP, own - other)),
                             max(-CAP, min(CAP, own + other))))
            elif isinstance(action, (ProposeEnd, Vote)):
                said.append((seat, isinstance(action, ProposeEnd) or action.accept))
            else:
                said.append(None)
        self.log = log


#: the replays of the last rounds asked about, by what a replay depends on besides the log
#: (``_replay``)
_REPLAYS = Kept(32)


def _replay(view: Any) -> _Replay:
    """The view's round replayed: a replay kept from an earlier view of the same round, seat
    and mines and treasures still in play, taken on from where it stopped (a view per
    decision replayed the whole round: O(n^2) a round); otherwise a new one."""
    log = view.log[view.round_start:]
    # the replay reads the mines face up and which kinds of treasure are left (``targets``)
    left = frozenset(kind for _, kind, holder in view.treasures if holder < 0)
    mines = tuple(sorted((p.x, p.y, p.card, p.rotated) for p in view.board
                         if CAT[p.card].category == "mine"))
    key = (view.seat, view.players, view.clans, view.round_start, left, mines)
    replay: _Replay | None = _REPLAYS.get(key)
    if replay is None or log[:len(replay.log)] != replay.log:
        replay = _REPLAYS.put(key, _Replay(view))
    replay.extend(view, log)
    return replay


def _evidence(view: Any) -> list[tuple[float, float]]:
    """Per seat, summed over its plays: help to its own clan minus help to the other clan,
    and help to everybody else."""
    n = view.players
    clans = view.clans
    score = [0.0] * n
    total = [0.0] * n
    for said in _replay(view).said:
        if said is None:
            continue
        if len(said) == 3:
            seat, side, everybody = said
            score[seat] += side
            total[seat] += everybody
        else:
            # ending the round when the own clan holds fewer treasures: the other clan's friend
            seat, agree = said
            ahead = _clan_lead(view, clans[seat])
            score[seat] += VOTE_WEIGHT * (ahead if agree else -ahead)
    return list(zip(score, total, strict=True))


def _clan_lead(view: Any, clan: str) -> float:
    """Treasures held by the clan's members minus the other clan's (by count)."""
    lead = 0.0
    for s, held in enumerate(view.collected):
        lead += len(held) if view.clans[s] == clan else -len(held)
    return max(-2.0, min(2.0, lead))


def _parser(view: Any) -> Any:
    from ..engine.notation import parse_action

    def parse(text: str) -> Any:
        if text.startswith("pass ") and text[5:].isdigit():
            raise NotationError("a hidden pass")
        return parse_action(text, CAT)

    return parse
