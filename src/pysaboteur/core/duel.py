"""The Duel's and its solo mode's play-outs on the compiled core (``core/duel.c``): the
tables it reads, made from the Duel's catalogue and its state module's own tables (nothing of
the rules is written twice), and the glue that hands a state to the core and back.

The core plays a round in C on its own copy of the position (the maze with one reach
context per colour, its doors, trolls and keys; hands, pile, cards in front, markers,
bribes) and writes it back into the Python state: the log, the seats that acted, the
discards and the passes are changed in place as it plays, the rest when it stops.  At a
round's end it calls the state's own ``_end_round`` (the pay-out, the round's record and the
next round's set-up stay in Python) and, when the play-out goes on, reads the new round.

The rollout API (``legal_actions``, ``legal_count``, ``legal_action``, ``random_action``,
``apply``) is on the core too, as Saboteur's (``core/resident.py``): the position of the
state played a decision at a time stays on the core between calls, the state's class the
resident subclass of its own (``FIELDS``: what reading gives it back to Python first), a
round's end and the next set-up made by the core where the match has no fixed deal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from ..engine.actions import Bribe, Discard, EndTurn, Orient
from ..engine.game import RoundResult
from ..engine.maze import FITS, Maze, Memo, cell, cell_actions_of
from ..engine.moves import _PASSES, SINGLES
from ..engine.rng import _PLANS, Rng, _plan
from ..engine.views import EndedBoard, LaterRoundEnd, RoundEnd
from ..games.duel import cards as C
from ..games.duel import state as S
from ..games.duel.state import DuelGame, DuelState
from . import _ext, packed
from .resident import Calls, Steps, resident_class

#: what this family puts on the core, as ``core.describe()`` says it
COVERS = ("the Duel's and its solo mode's play-outs, rollout API, determinization and ISMCTS "
          "search")

#: the effects of the Duel's action cards, as the core numbers them (its D_...)
_EFFECTS = {None: 0, "break": 1, "repair": 2, "key": 3, "rockfall": 4, "map": 5}
#: card categories, as the core numbers them
_CATEGORIES = {"path": 0, "action": 1}
#: the oriented tiles the core keeps in one 64-bit set (the deck's path cards)
_BITS = 64


def _colour(colour: str | None) -> int:
    return -1 if colour is None else C.COLOURS.index(colour)


#: why a round ended, as the core numbers it (``DuelState._round_end``'s reasons)
_REASONS = ("markers", "goals", "exhausted")


def _pairs(v: list[int], i: int) -> tuple[dict[int, int], int]:
    """The dict packed at ``v[i]`` (its length, then key, value pairs) and where it ends."""
    n = v[i]
    end = i + 1 + 2 * n
    return dict(zip(v[i + 1:end:2], v[i + 2:end:2], strict=True)), end


def _ended(round_no: int, pieces: bytes) -> RoundEnd:
    """The ``last_round`` of a round the core ended, at its first read: the state's own
    ``ended_round`` of the pieces the core packed (``round_end_record`` in duel.c: the
    reason, the face-up and face-down cells, markers, bribes, keys, cards in front)."""
    if not _CODES:
        _CODES.extend(sorted(_ids()))
    codes = _CODES
    v = memoryview(pieces).cast("i").tolist()
    cells, i = _pairs(v, 1)
    found, i = _pairs(v, i)
    hidden = {c: codes[k] for c, k in found.items()}
    markers, i = _pairs(v, i)
    bribes, i = _pairs(v, i)
    keys, i = _pairs(v, i)
    in_front = []
    for _ in range(v[i]):
        n = v[i + 1]
        in_front.append(tuple(codes[k] for k in v[i + 2:i + 2 + n]))
        i += 1 + n
    assert i + 1 == len(v), "the core's pieces read whole"
    board = EndedBoard(S.CAT, cells, list(cells), hidden)
    return S.ended_round(round_no, _REASONS[v[0]], board, markers, bribes, keys,
                         tuple(in_front))


#: card codes by the core's ids (made at the first round's end read)
_CODES: list[str] = []


def _ids() -> dict[str, int]:
    """Card ids in code order: a hand's sorted distinct cards are its sorted ids."""
    return {code: i for i, code in enumerate(sorted(k.code for k in S.CAT.kinds))}


def _plain_record(cls: type) -> type:
    """``cls`` (``RoundResult``), checked to be what duel.c's ``round_result`` makes without
    calling it: a plain dataclass of (round, gold, details), no ``__post_init__``, no slots."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    assert names == ("round", "gold", "details"), "RoundResult's fields, as duel.c sets them"
    assert not hasattr(cls, "__post_init__") and "__slots__" not in vars(cls), \
        "RoundResult made by duel.c without its __init__"
    return cls


def _later(cls: type) -> type:
    """``cls`` (``LaterRoundEnd``), checked to be what duel.c's ``round_end_record`` makes as
    its ``by`` does, without calling it: the slots (make, args, made), no ``__new__``."""
    assert vars(cls).get("__slots__") == ("args", "made", "make") and "__new__" not in vars(cls), \
        "LaterRoundEnd made by duel.c as its by() makes it"
    return cls


def _spec() -> dict[str, Any]:
    """What the core reads of the Duel's catalogue and of ``games/duel/state.py``'s tables."""
    cat = S.CAT
    ids = _ids()
    tiles_of = [S._TILES_FOR[colour] for colour in C.COLOURS]
    ladders_of = [S._LADDERS_FOR[colour] for colour in C.COLOURS]
    for tiles in tiles_of:
        assert all(mask < 1 << _BITS for mask in tiles.values()), "the deck's tiles in 64 bits"
    cards = []
    for code in sorted(ids):
        kind = cat[code]
        effect = S._EFFECT[code]
        tools = S._TOOLS[code] or ()
        if effect == "break":  # aimed at the other seat, no tool named
            on_player: Any = tuple((S._on_player(code, seat),) for seat in range(2))
        elif effect == "repair":
            two = len(tools) > 1
            on_player = tuple(tuple(S._on_player(code, seat, t if two else None) for t in tools)
                              for seat in range(2))
        else:
            on_player = None
        cards.append((
            code, _CATEGORIES.get(S._CATEGORY[code], 2), _EFFECTS[effect],
            tuple(C.TOOLS.index(t) for t in tools), _colour(S._LADDER[code]),
            tuple(cat.orientations.get(code, ())),
            (cat.otile.get((code, False), -1), cat.otile.get((code, True), -1)),
            tuple(tiles.get(code, 0) for tiles in tiles_of),
            tuple(code in ladders for ladders in ladders_of),
            on_player, SINGLES[code] if kind.category in ("path", "action") else None,
            cell_actions_of(code) if effect in ("key", "rockfall", "map") else None))
    otiles = [(cat.open_mask[t], cat.segments[t], cat.seg_of_edge[t], ids[cat.codes[t]],
               int(f.gold), int(bool(f.troll)), _colour(f.door), _colour(f.ladder),
               int(S._REMOVABLE[t]))
              for t, f in enumerate(cat.features)]
    return {"cards": cards, "otiles": otiles, "ids": ids,
            "fitset": [m & ((1 << _BITS) - 1) for m in S._FITSET],
            "fits": bytes(int(FITS[k][m]) for k in range(256) for m in range(16)),
            "place": S._PLACES, "orient": (Orient(False), Orient(True)), "end_turn": EndTurn(),
            "Bribe": Bribe, "Discard": Discard, "new": tuple.__new__, "passes": _PASSES,
            # a new maze written back: the Maze, a new Memo and the values DuelState._forget_kept
            # sets (shared: replaced, never changed in place), the packed maze's class
            "new_maze": (Maze, S.CAT, Memo, S._UNKEPT,
                         tuple(S._Kept((None,) * seats) for seats in (1, 2)), PackedMaze),
            "round_end": (C.ROUNDS, tuple(S._value(code) for code in sorted(ids)),
                    _colour(C.BLUE), _plain_record(RoundResult), _later(LaterRoundEnd), _ended),
            "setup": (C.GOALS_PER_ROUND, C.HAND_SIZE, C.KEY_TOKENS, C.SOLO_SET_ASIDE,
                      tuple(ids[code] for code in S._ROUND_CARDS),
                      tuple(code in S._DECK_PATH_SET for code in sorted(ids))),
            "rules": (C.PASS_MAX, C.DISCARD_TO_REPAIR, S.MAIN, S.AFTER, S.ORIENT,
                      S._RESUME_MAIN, S._RESUME_AFTER)}


#: what ``duel_unpack_maze`` gives, in its order
_UNPACKED = ("cells", "hidden", "constraint", "order", "sources", "blocks", "reach", "reach_in",
             "version")


class PackedMaze(packed.PackedMaze):
    """A Duel's maze the core wrote packed (``_ext.duel_unpack_maze`` documents the
    packing), as Saboteur's: a plain :class:`Maze` once anything touches it."""

    __slots__ = ()

    @staticmethod
    def fields(core: Any, packing: bytes) -> Iterable[tuple[str, Any]]:
        assert _ext is not None  # (only the core makes packed mazes)
        return zip(_UNPACKED, _ext.duel_unpack_maze(core, packing), strict=True)


_TABLES: list[Any] = []


def core_tables() -> Any:
    """The core's tables of the Duel (made once)."""
    if not _TABLES:
        assert _ext is not None
        _TABLES.append(_ext.duel_tables(_spec()))
    return _TABLES[0]


#: per game (by id, with the game: a game lives as long as its states), what the core reads
#: of it; forgotten, all at once, past _MOST_GAMES games
_GAMES: dict[int, tuple[DuelGame, tuple[Any, ...]]] = {}
_MOST_GAMES = 1024


def _game_of(game: DuelGame) -> tuple[Any, ...]:
    """(solo, each seat's colour, each seat's pool of markers, the cells next to a goal,
    each colour's start (cell, tile), the goals' cells, the pools of markers of a round)."""
    known = _GAMES.get(id(game))
    if known is not None and known[0] is game:
        return known[1]
    if len(_GAMES) >= _MOST_GAMES:
        _GAMES.clear()
    starts = tuple((cell(*game.starts[colour]), S.CAT.otile[f"start-{colour}", False])
                   for colour in game.colours)
    rules = (game.solo, tuple(map(_colour, game.colours)), tuple(game.pool_of_seat),
             tuple(sorted(game.near_goals)), starts, tuple(game.goal_cell_ids),
             tuple(game.pools))
    _GAMES[id(game)] = (game, rules)
    return rules


def play_out_for(cls: type) -> Any:
    """The compiled play-out for states of exactly ``cls`` (the Duel's, 1 or 2 players, or
    the class of one the core holds: a new match's, see ``_duel_first_round``)."""
    return _duel_play_out if cls is DuelState or (_CTX and cls is _CTX[0][1]) else None


def setup_for(cls: type) -> Any:
    """The compiled first-round set-up for states of exactly ``cls`` (the Duel's), else
    None."""
    return _duel_first_round if cls is DuelState else None


def _duel_first_round(state: DuelState) -> None:
    """A new match without a fixed deal: its goals shuffled (``DuelState.__init__`` leaves
    them in box order for this) and ``state._setup_round()``, on the core (in Python where
    the core is busy).  The round is left on the core, the state held as the rollout API
    holds one (``resident``: what it has not written is written when read), so that its
    play-out or its first decisions read nothing back."""
    if (_ext is None or state.deal is not None or state._round != 0
            or state.game.catalogue is not S.CAT
            or not _ext.duel_first_round(state, core_tables(), _game_of(state.game), True,
                                         _duel_ctx(state))):
        state.rng.shuffle(state.goals_left)
        state._setup_round()


def _duel_play_out(state: DuelState, rng: Rng, until_round_end: bool = True,
                   policy: str = "random") -> int:
    if type(rng) is not Rng or _ext is None or state.game.catalogue is not S.CAT:
        if _ext is not None:
            _ext.duel_release(state)  # (a held state given back first)
        return state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    round_no = state._round
    # (left held where it stops: written when read, never if dropped, as a new match's)
    played, finished = _ext.duel_play_out(state, rng, until_round_end, policy == "playout",
                                          core_tables(), _game_of(state.game), _duel_ctx(state))
    if not finished:  # a position the core does not take: the rest in Python
        if until_round_end and state._round != round_no:
            return int(played)
        return int(played) + state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    return int(played)


# ------------------------------------------------------------------ the rollout API
#: what the core keeps a copy of while it holds a Duel state (``resident.resident_class``):
#: the maze (written when read) and the lists, sets and dicts Python could change in place
FIELDS = ("maze", "_mt", "hands", "deck", "in_front", "markers", "bribes", "keys", "forced",
          "unclaimed_gold", "trolls", "pools", "bribes_made")


def _calls() -> Calls:
    from . import _ext

    assert _ext is not None
    return Calls(_ext.duel_legal, _ext.duel_count, _ext.duel_nth, _ext.duel_random,
                 _ext.duel_apply, _ext.duel_release)


def _game_of_state(state: DuelState) -> tuple[Any, ...]:
    """What the core reads of a state's game when it takes the state (``_game_of``)."""
    return _game_of(state.game)


#: the rollout API's context (tables, resident class, ``_game_of_state``), made once
_CTX: list[tuple[Any, type, Any]] = []


def _duel_ctx(state: DuelState) -> tuple[Any, type, Any] | None:
    """What the core's rollout API takes for a Duel state (None: not taken: another
    catalogue)."""
    if state.game.catalogue is not S.CAT:
        return None
    if not _CTX:
        # the rollout API's hot methods in C, as Saboteur's; a play-out goes on from the
        # core's copy (``adopt`` in duel.c), not given back first
        assert _ext is not None
        resident = resident_class(DuelState, _calls(), FIELDS,
                                  methods=_ext.duel_held_methods(DuelState),
                                  play_out=_duel_play_out)
        ctx = (core_tables(), resident, _game_of_state)
        resident._ctx = ctx  # type: ignore[attr-defined]
        _CTX.append(ctx)
    return _CTX[0]


def steps_for(cls: type) -> Steps | None:
    """The rollout API on the core for states of exactly ``cls`` (the Duel's, 1 or 2
    players), else None."""
    return Steps(_calls(), _duel_ctx) if cls is DuelState else None


def release() -> None:
    """Whichever Duel state the rollout API holds given back to Python."""
    from . import _ext

    if _ext is not None:
        _ext.duel_release(None)


# ---------------------------------------------------------------------- determinization and search
def deal_plan(n: int) -> int:
    """How many 64-bit numbers ``Rng.lehmer_code(n)`` (and ``Draws``) take for n items."""
    return 0 if n < 2 else (_PLANS.get(n) or _plan(n))[1]


class Search:
    """An ISMCTS search with play-outs on the core (``duel_search`` in duel.c): the tree,
    its samples and play-outs in C, the same numbers drawn from the bot's generator as
    ``IsmctsBot._iterate``'s (the same decisions)."""

    __slots__ = ("_ext", "_handle")

    def __init__(self, ext: Any, handle: Any) -> None:
        self._ext, self._handle = ext, handle

    def run(self, rng: Rng, n: int) -> bool:
        """``n`` more iterations; False: a sample the core does not take (the search is
        spoilt and the generator moved: search in Python from where it was)."""
        return bool(self._ext.duel_search_run(self._handle, rng, n) >= 0)

    def root(self) -> dict[Any, int]:
        """The root's moves searched, with their visits."""
        return dict(self._ext.duel_search_root(self._handle))


def search(worlds: Any, exploration: float) -> Search | None:
    """A compiled search from the Duel's determinizer ``worlds`` (None: search in Python: the
    core is off or does not take the position)."""
    from . import extension

    ext = extension()
    template = worlds.template
    if ext is None or type(template) is not DuelState or template.game.catalogue is not S.CAT:
        return None
    plan = (list(worlds.unknown_cards), deal_plan(len(worlds.unknown_cards)),
            list(worlds.unknown_goals), deal_plan(len(worlds.unknown_goals)),
            tuple(worlds.sizes), worlds.deck_size, tuple(worlds.unseen_cells),
            tuple(template.seen[worlds.seat].items()), tuple(map(tuple, template.gold)))
    handle = ext.duel_search(template, core_tables(), _game_of(template.game), plan,
                             float(exploration))
    return None if handle is None else Search(ext, handle)
