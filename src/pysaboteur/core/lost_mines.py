"""The Lost Mines' play-out on the compiled core (``core/lost_mines.c``): the tables it
reads, made from the game's catalogue (``games/lost_mines/cards.py``) and the state's own
menu tables (the actions the legal list shares, the walking steps), and the glue that hands
a state to the core and back.

The core plays the decisions in C on its own copy of the position: placing path cards,
the action cards (tools, traps, trolls, storms), passes, the pawns' moves with their
routes, traps sprung, mines entered and turned over, treasures taken, proposals to end the
round and the votes on them.  It writes the position back into the Python state (hands,
pile, the maze, pawns, tokens, treasures, phase and seats, the generators); the log, the
seats that acted and the discards are changed in place as it plays; an information card's
look is made as the state's ``_look`` makes it.  The maze is written packed
(:class:`PackedMaze`, a plain ``Maze`` when first touched).  A round's end is the core's
where it sets the next round up (``_score_spec``; the round's end held packed until read,
``_unpacked_end``), else the state's own ``_end_round``.  Rounds of a match
without a fixed deal are set up by the core as ``_setup_round`` does (the same numbers
drawn): a new match's first (``setup_for``), and the next ones inside a play-out, where the
core answers ``_end_round``'s call of ``_setup_round``; a fixed deal's rounds are set up in
Python and read back.

The rollout API (``legal_actions``, ``legal_count``, ``legal_action``, ``random_action``,
``apply``) is on the core too (``steps_for``): the state played a decision at a time stays
on the core between calls, its class the resident subclass of ``core/resident.py`` (the
fields the core keeps a copy of, ``_RESIDENT_FIELDS``, give it back to Python when read);
every decision is written into it as it is applied but for the maze, written when the state
is given back.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Move, Orient, PlayOnPlayer, PlayOnTreasure, Take
from ..engine.game import RoundResult
from ..engine.maze import FITS, Maze, Memo, cell, xy
from ..engine.moves import _PASSES, SINGLES
from ..engine.rng import Rng
from ..engine.tiles import E as EAST
from ..engine.tiles import S as SOUTH
from ..engine.views import EndedBoard, LaterRoundEnd, RoundEnd
from ..games.lost_mines import cards as C
from ..games.lost_mines import state as S
from . import _ext, packed
from .resident import Calls, Steps, resident_class

#: what this family puts on the core, as ``core.describe()`` says it
COVERS = "The Lost Mines' play-outs, rollout API and determinization"

#: the effects of action cards, as the core numbers them (lost_mines.c E_...)
_EFFECTS = {"tool": 1, "info": 2, "trap": 3, "troll": 4, "storm": 5}
#: an information card's options, as the core numbers them (O_...)
_LOOKS = {"mine": 0, "treasure": 1, "dwarf": 2}
#: the core's grid: a cell is (x + 2) * _STRIDE + (y + 2), a border of two cells round the
#: board (the fit constraints of the cards at its edge lie on the first; the second keeps
#: every neighbour of those on the grid)
_STRIDE = 16
_GRID = 256


def _gi(c: int) -> int:
    x, y = xy(c)
    return (x + 2) * _STRIDE + y + 2


def _by_grid(table: dict[int, Any]) -> tuple[Any, ...]:
    """A table by engine cell as a tuple by the core's grid cell (None off the board)."""
    out: list[Any] = [None] * _GRID
    for c, value in table.items():
        out[_gi(c)] = value
    return tuple(out)


class PackedMaze(packed.PackedMaze):
    """The Lost Mines' packed maze (``lost_mines.c``'s ``pack_maze`` documents the packing;
    ``core.packed`` what it does until unpacked); a play-out on the state reads the packing
    itself.  While packed, its ``blocks`` hold (the core's tables, the packing, the
    catalogue)."""

    __slots__ = ()

    @classmethod
    def unpack(cls, maze: Maze) -> None:
        assert _ext is not None  # (only the core makes packed mazes)
        _ext.lost_mines_unpack_maze(maze)


def _spec() -> dict[str, Any]:
    """What the core reads: per card (ids in code order, so that a hand's sorted distinct
    cards are its sorted ids), per oriented tile, the actions it logs (the objects the
    state's menus share, by the core's grid cell) and the game's counts."""
    cat = S.CAT
    codes = sorted(k.code for k in cat.kinds)
    ids = {code: i for i, code in enumerate(codes)}
    seats = S.LostMinesGame.max_players
    obstacles = {kind: i for i, kind in enumerate(C.OBSTACLES)}
    types = {kind: i for i, kind in enumerate(C.TREASURE_TYPES)}
    cards = []
    for code in codes:
        kind = cat[code]
        effect = kind.effect
        is_path, is_action = code in S._PATH_WAYS, code in S._ACTION_CODES
        mine = C.MINE_TYPE.get(code)
        place = tuple(_by_grid(S._PLACE_ACT[code, r]) for r, _ in S._PATH_WAYS[code]) \
            if is_path else ()
        cards.append((
            code, 1 if is_path else 2 if is_action else 0, _EFFECTS.get(effect or "", 0),
            obstacles[kind.tools[0]] if effect == "tool" else -1,
            tuple(_LOOKS[look] for look in kind.tools) if effect == "info" else (),
            types[C.treasure_type(code)] if kind.category == "treasure" else -1,
            -1 if mine is None else -2 if mine == C.DRAGON else types[mine],
            tuple((rotated, otile) for rotated, otile in cat.orientations.get(code, ())),
            place,
            _by_grid(S._CELL_ACT[code]) if is_action else None,
            tuple(_joint_row(S._JOINT_ACT[code])) if is_action else None,
            tuple(PlayOnTreasure(code, slot) for slot in range(seats)) if is_action else None,
            tuple(PlayOnPlayer(code, seat) for seat in range(seats)) if is_action else None,
            SINGLES[code] if is_path or is_action else None,
            tuple(_PASSES[code, other] if other >= code and (other in S._PATH_WAYS
                                                            or other in S._ACTION_CODES)
                  else None for other in codes) if is_path or is_action else None))
    otiles = [(cat.open_mask[t], cat.segments[t], cat.seg_of_edge[t],
               obstacles.get(S._OBSTACLE[t] or "", -1),
               int(S._ROCK[t]), int(cat.features[t].campfire), int(S._STORMABLE[t]),
               ids[cat.codes[t]]) for t in range(len(cat.codes))]
    trolls = [code for code in codes if cat[code].effect == "troll"]
    assert len(trolls) == 1, "a storm takes a troll's card by its code (LostMinesState._storm)"
    return {"cards": cards, "otiles": otiles, "ids": ids,
            "fits": bytes(int(FITS[k][m]) for k in range(256) for m in range(16)),
            "xy": tuple(((g // _STRIDE) - 2, (g % _STRIDE) - 2) for g in range(_GRID)),
            "board": (C.WIDTH, C.HEIGHT), "steps": (C.STEPS, C.CAMPFIRE_STEPS),
            "pass_max": C.PASS_MAX, "seats": seats, "troll": ids[trolls[0]],
            "treasure_types": len(C.TREASURE_TYPES),
            "Move": Move, "new": tuple.__new__, "orient": (Orient(False), Orient(True)),
            "take": tuple(Take(slot) for slot in range(seats)), "votes": S._VOTES,
            "propose": S._PROPOSE[0], "stay": S._STAY[0], "vote": "vote",
            "PackedMaze": PackedMaze, "Maze": Maze, "Memo": Memo, "score": _score_spec(codes)}


def _score_spec(codes: list[str]) -> tuple[Any, ...]:
    """What the core's round end (``LostMinesState._end_round``, ``round_points``) reads of
    ``games/lost_mines/cards.py``: per card id (team, value, identity): the clan (by its
    index in ``CLANS``) whose team a dwarf card plays for (-1: selfish, it keeps its own; a
    saboteur plays for the other clan), a treasure's value, a dwarf card's identity; then the
    clans, the dragon's cost, ``RoundResult``, the reasons a round ends by itself; and what a
    round not written back at its end makes its ``last_round`` of (``LaterRoundEnd``,
    ``EndedBoard``, the catalogue)."""
    cat = S.CAT
    clans = {clan: i for i, clan in enumerate(C.CLANS)}
    rows: list[tuple[int, int, str | None]] = []
    for code in codes:
        kind = cat[code]
        if kind.category != "dwarf":
            rows.append((-2, kind.value if kind.category == "treasure" else 0, None))
            continue
        identity, clan = C.identity_of(code), C.clan_of(code)
        team = -1 if identity == C.SELFISH else clans[
            C.other_clan(clan) if identity == C.SABOTEUR else clan]
        rows.append((team, 0, identity))
    return (tuple(rows), len(C.CLANS), C.DRAGON_PENALTY, RoundResult, "treasures", "exhausted",
            LaterRoundEnd, _unpacked_end, cat)


#: the engine's cell of each of the core's grid cells (``_gi``'s inverse)
_PY_CELL = tuple(cell(g // _STRIDE - 2, g % _STRIDE - 2) for g in range(_GRID))
#: the card codes by the core's ids (code order)
_CODES = tuple(sorted(k.code for k in S.CAT.kinds))


def _py_joint(j: int) -> int:
    """The engine's joint of the core's (grid cell * 2, + 1 for the S side)."""
    return _PY_CELL[j >> 1] << 4 | (SOUTH if j & 1 else EAST)


def _unpacked_end(round_no: int, reason: str, packed: bytes) -> RoundEnd:
    """The end of a round the core did not write back (``ended_round`` in lost_mines.c
    documents the packing): the state's own ``ended_round`` of the board, pawns and tokens
    the round ended with, read."""
    ints = iter(memoryview(packed).cast("i").tolist())

    def take(k: int) -> list[int]:
        return [next(ints) for _ in range(k)]

    laid = take(2 * next(ints))
    order = [_PY_CELL[g] for g in laid[::2]]
    cells = dict(zip(order, laid[1::2], strict=True))
    down = take(2 * next(ints))
    hidden = {_PY_CELL[g]: _CODES[c] for g, c in zip(down[::2], down[1::2], strict=True)}
    pawns = tuple(_PY_CELL[g] for g in take(next(ints)))
    overcome = {_PY_CELL[g] for g in take(next(ints))}
    traps = {_py_joint(j) for j in take(next(ints))}
    laid_trolls = take(2 * next(ints))
    trolls = {_py_joint(j): s for j, s in zip(laid_trolls[::2], laid_trolls[1::2], strict=True)}
    front = [[_CODES[c] for c in take(next(ints))] for _ in pawns]
    assert next(ints, None) is None, "lost mines core: a round's end's packing"
    board = EndedBoard(S.CAT, cells, order, hidden)
    return S.ended_round(round_no, reason, board, pawns, overcome, traps, trolls, front).get()


def _joint_row(table: dict[int, Any]) -> list[Any]:
    """A card's joint actions by the core's joint (grid cell * 2, + 1 for the S side)."""
    out: list[Any] = [None] * (2 * _GRID)
    for j, action in table.items():
        out[2 * _gi(j >> 4) + (j & 15 == SOUTH)] = action
    return out


_TABLES: list[Any] = []


def _tables() -> Any:
    """The core's tables of The Lost Mines (made once)."""
    if not _TABLES:
        assert _ext is not None
        _TABLES.append(_ext.lost_mines_tables(_spec()))
    return _TABLES[0]


#: per player count, what the core needs to set up a round (``_setup_of``)
_SETUPS: dict[int, tuple[Any, ...]] = {}


def _setup_of(players: int) -> tuple[Any, ...]:
    """What ``LostMinesState._setup_round`` reads of the game for a round without a fixed
    deal, for the core to set up rounds the same way (the same numbers drawn, the same
    cards): (start cells, their tiles, mine cells, mines, treasures, dwarf cards, each dwarf
    card's start cell by card id, dwarf cards removed, pile, cards set aside, hand size)."""
    known = _SETUPS.get(players)
    if known is not None:
        return known
    cat = S.CAT
    ids = {code: i for i, code in enumerate(sorted(k.code for k in cat.kinds))}
    starts = {clan: _gi(cell(*at)) for clan, at in C.STARTS.items()}
    dwarf_start = [-1] * len(ids)
    for kind in cat.of_category("dwarf"):
        dwarf_start[ids[kind.code]] = starts[C.clan_of(kind.code)]
    setup = (tuple(starts.values()),
             tuple(cat.otile[f"start-{clan}", False] for clan in C.STARTS),
             tuple(_gi(cell(*at)) for at in C.MINE_CELLS), tuple(ids[c] for c in S._MINES),
             tuple(ids[c] for c in S._TREASURES), tuple(ids[c] for c in S.dwarf_box(players)),
             tuple(dwarf_start),
             tuple(f"{clan}-{C.LOYAL}" for clan in C.CLANS
                   for _ in range(C.LOYAL_REMOVED[players])),
             tuple(ids[c] for c in sorted(S._DECK)), C.SET_ASIDE, C.HAND_SIZE[players])
    _SETUPS[players] = setup
    return setup


def play_out_for(cls: type) -> Any:
    """The compiled play-out for states of exactly ``cls`` (The Lost Mines'), else None."""
    return _play_out if cls is S.LostMinesState else None


def setup_for(cls: type) -> Any:
    """The compiled first-round set-up for states of exactly ``cls`` (The Lost Mines'), else
    None."""
    return _first_round if cls is S.LostMinesState else None


def _first_round(state: S.LostMinesState) -> None:
    """``state._setup_round()`` of a new match without a fixed deal, on the core (in Python
    where the core is busy).  The core then holds the state (the rollout API's held state,
    ``_RESIDENT_FIELDS``): what it has not written yet is written when read, at the first
    decision applied, or by a play-out, which plays on from where the core holds it."""
    ctx = None if _ext is None or state.deal is not None or state._round != 0 else _ctx_of(state)
    if ctx is None or _ext is None \
            or not _ext.lost_mines_first_round(state, ctx[0], _setup_of(state.game.players), ctx):
        state._setup_round()


#: an instance's own dict, past a held state's ``__dict__`` property
_INSTANCE_DICT = next(k.__dict__["__dict__"] for k in S.LostMinesState.__mro__
                      if "__dict__" in k.__dict__).__get__


def _held_play_out(state: S.LostMinesState, rng: Rng, until_round_end: bool = True,
                   policy: str = "random") -> int:
    """``play_out`` of a state the core holds (the rollout API's, or a new match's): on the
    core from where it holds it, not given back to Python first (written when it stops)."""
    if _ext is None or type(rng) is not Rng:
        _ext_release(state)
        return state.play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    return _play_out(state, rng, until_round_end, policy)


def _ext_release(state: S.LostMinesState) -> None:
    if _ext is not None:
        _ext.lost_mines_release(state)


def _play_out(state: S.LostMinesState, rng: Rng, until_round_end: bool, policy: str) -> int:
    """``state.play_out`` on the core (the rest in Python where it stops: a position it
    does not take)."""
    if type(rng) is not Rng or _ext is None or state.game.catalogue is not S.CAT:
        return state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    round_no = state._round
    setup = _setup_of(state.game.players) if state.deal is None else None
    # the round's end on the core where the core sets the next round up, unless the state
    # has a round's end of its own (tests that nest a play-out in it); its own dict read
    # past a held state's ``__dict__``, which would give it back to Python first
    own_end = setup is not None and "_end_round" not in _INSTANCE_DICT(state)
    played, finished = _ext.lost_mines_play_out(state, rng, until_round_end,
                                                policy == "playout", _tables(), setup, own_end)
    if not finished:
        if until_round_end and state._round != round_no:
            return int(played)
        return int(played) + state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    return int(played)


# ------------------------------------------------------------------ the rollout API
#: what the core keeps a copy of while it holds a state (``resident.resident_class``): the
#: maze (written when read) and what Python could change in place (lists, sets, dicts), or
#: whose changes the core must see (the pawns' lists are changed in place by ``_move``)
_RESIDENT_FIELDS = ("maze", "_mt", "hands", "deck", "pawn", "pawn_seg", "overcome", "traps",
                    "trolls", "in_front", "layout", "owner", "collected", "voters", "pending")
_CTX: list[tuple[Any, type, Any]] = []


def _calls() -> Calls:
    assert _ext is not None
    return Calls(_ext.lost_mines_legal, _ext.lost_mines_count, _ext.lost_mines_nth,
                 _ext.lost_mines_random, _ext.lost_mines_apply, _ext.lost_mines_release)


def _ctx_of(state: S.LostMinesState) -> tuple[Any, type, Any] | None:
    """What the core's rollout API takes for a Lost Mines state: its tables, the class its
    states have while the core holds them and what the round's end needs (``_next_setup``);
    None where the core does not play the game (another catalogue)."""
    if state.game.catalogue is not S.CAT:
        return None
    if not _CTX:
        # the rollout API's hot methods in C, as Saboteur's and the Duel's; a play-out
        # goes on from where the core holds the state
        assert _ext is not None
        resident = resident_class(S.LostMinesState, _calls(), _RESIDENT_FIELDS,
                                  methods=_ext.lost_mines_held_methods(S.LostMinesState),
                                  play_out=_held_play_out)
        ctx = (_tables(), resident, _next_setup)
        resident._ctx = ctx  # type: ignore[attr-defined]
        _CTX.append(ctx)
    return _CTX[0]


def _next_setup(state: S.LostMinesState) -> tuple[tuple[Any, ...] | None, bool]:
    """At a round's end in the rollout API (as ``_play_out``): what the core sets the next
    round up with (None: a fixed deal, set up in Python) and whether the round's end is the
    core's (not where the state has an ``_end_round`` of its own: tests)."""
    setup = _setup_of(state.game.players) if state.deal is None else None
    return setup, setup is not None and "_end_round" not in state.__dict__


def steps_for(cls: type) -> Steps | None:
    """The rollout API on the core for states of exactly ``cls`` (The Lost Mines'), else
    None."""
    return Steps(_calls(), _ctx_of) if cls is S.LostMinesState else None


def release() -> None:
    """Whichever state the rollout API holds given back to Python."""
    if _ext is not None:
        _ext.lost_mines_release(None)
