"""Saboteur's play-out on the compiled core: the tables it reads, made from the catalogue and
the engine's own ``Tables`` (nothing of the rules is written twice), and the glue that hands
a state to the core and back.

The core plays the round in C on its own copy of the position and writes it back into the
Python state: hands, pile, the maze, the phase and the seats, the generator; the log, the
discards, the passes and the cards in front are changed in place as it plays.  At a round's
end it pays the round out itself where it sets the next round up (Saboteur's pay-out,
``_pay_spec``: the tables read from the game) and otherwise calls the state's own
``_end_round`` (Saboteur 2's), and, when the play-out goes on, sets the next round up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..engine.actions import Discard, Orient, Pass
from ..engine.game import RoundResult
from ..engine.maze import FITS, Maze, Memo, cell, cell_actions_of
from ..engine.moves import _PASSES, SINGLES
from ..engine.rng import Rng
from ..engine.views import EndedBoard, LaterRoundEnd, _round_end_of
from ..games.classic import cards as CC
from ..games.classic.menu import K_PATH, MAX_SEATS, REMOVES, FrontsMemo, tables
from ..games.classic.state import ClassicGame, ClassicState
from . import _ext, packed
from .resident import Calls, Steps, resident_class

#: what this family puts on the core, as ``core.describe()`` says it
COVERS = ("Saboteur's and Saboteur 2's play-outs, rollout API (legal_actions, "
          "legal_count, legal_action, random_action, apply) and determinization")

#: a memo of the cards in front that holds nothing yet: the menus work it out at first use
NO_FRONTS = FrontsMemo(None, None)  # type: ignore[arg-type]

#: the effects of action cards, as the core numbers them (its E_...): Saboteur's, then
#: Saboteur 2's ("swap-hand" changes hands in the core, the last three only Python's fields)
_EFFECTS = {None: 0, "break": 1, "repair": 2, "map": 3, "rockfall": 4, "hands-off": 5,
            "free": 5, "theft": 6, "trapped": 7, "swap-hand": 8, "inspection": 9,
            "swap-hats": 10}

#: what a game's rules say besides its cards: (passes of 1 to how many cards, how many cards
#: are discarded to remove one lying in front (0: no such option), the bits of the cards in
#: front that still let a seat build (``Tables.front_bit``), the cells no ladder may take)
Rules = tuple[int, int, int, tuple[int, ...]]


def _put_maze(state: ClassicState, cells: dict[int, int], hidden: dict[int, str],
              constraint: dict[int, int], order: list[int], reach: dict[int, int],
              reach_in: dict[int, int], sources: dict[int, int],
              version: int) -> tuple[Maze, Memo]:
    """A new maze for ``state`` from the core's, and its memo (its clones keep theirs:
    copy-on-write); the core puts both in the state."""
    maze = Maze.__new__(Maze)
    maze.cat = state.game.catalogue
    maze.cells, maze.hidden, maze.constraint, maze.order = cells, hidden, constraint, order
    maze.sources = [sources]
    maze.blocks = [{}]  # one reach context (the core's only); Saboteur's tiles block no passage
    maze.reach, maze.reach_in = [reach], [reach_in]
    maze.version = version
    return maze, Memo()


class PackedMaze(packed.PackedMaze):
    """A maze the core wrote packed (``_ext.classic_unpack_maze`` documents the packing),
    made a plain :class:`Maze` the first time anything touches it (``core/packed.py``)."""

    __slots__ = ()

    @staticmethod
    def fields(core: Any, packing: bytes) -> Iterable[tuple[str, Any]]:
        assert _ext is not None  # (only the core makes packed mazes)
        cells, hidden, constraint, order, reach, reach_in, sources, version = \
            _ext.classic_unpack_maze(core, packing)
        return (("cells", cells), ("hidden", hidden), ("constraint", constraint),
                ("order", order), ("sources", [sources]), ("blocks", [{}]), ("reach", [reach]),
                ("reach_in", [reach_in]), ("version", version))


def _spec(cat: Any, rules: Rules) -> dict[str, Any]:
    """What the core reads of a catalogue: per card (ids in code order, so that a hand's
    sorted distinct cards are its sorted ids) and per oriented tile; and the game's rules
    beside its cards."""
    T = tables(cat)
    codes = sorted(k.code for k in cat.kinds)
    ids = _core_ids(cat)
    zero = bytes(256)
    cards = []
    for code in codes:
        kind = cat[code]
        k = T.kind.get(code, -1)
        effect = T.effect.get(code)
        fit_rows = dict(T.fit_bytes.get(code, ()))
        orientations = tuple((rotated, otile, fit_rows.get(otile, zero))
                             for rotated, otile in cat.orientations.get(code, ()))
        tools: tuple[int, ...] = ()
        repairs = None
        if effect == "repair":
            tools = tuple(T.tool_bit[t] for t in kind.tools)
            repairs = tuple(tuple(T.repairs[code][s][bit][0] for bit in tools)
                            for s in range(MAX_SEATS))
        on_player = tuple(T.on_player[code]) if code in T.on_player else None
        deck_card = k >= 0
        cards.append((
            code, k, _EFFECTS.get(effect, 0), int(bool(kind.features.gold)),
            T.front_bit.get(code, 0), T.break_bit.get(code, 0),
            T.nfit.get(code, zero) if k == K_PATH else zero, orientations, tools, repairs,
            on_player, SINGLES[code] if deck_card else None,
            tuple((s, code) for s in range(MAX_SEATS)),
            cell_actions_of(code) if effect in ("map", "rockfall") else None,
            (cat.otile.get((code, False), -1), cat.otile.get((code, True), -1)),
            T.lies_bit[REMOVES[effect]] if effect in REMOVES else 0))
    otiles = [(cat.open_mask[t], cat.segments[t], cat.seg_of_edge[t], T.is_path[t],
               ids[cat.codes[t]], t in T.ladder_tiles) for t in range(len(cat.codes))]
    return {"cards": cards, "otiles": otiles, "ids": ids, "tool_mask": T.tool_mask,
            "fits": bytes(int(FITS[k][m]) for k in range(256) for m in range(16)),
            "place": T.place, "orient": (Orient(False), Orient(True)), "put_maze": _put_maze,
            "PackedMaze": PackedMaze, "no_fronts": NO_FRONTS,
            "Memo": Memo, "catalogue": cat,
            "rules": rules, "Pass": Pass, "Discard": Discard, "new": tuple.__new__,
            "passes": _PASSES}


#: the core's tables by state class, with the catalogue they were made from
_CORES: dict[type, tuple[Any, Any]] = {}


def core_tables(cls: type, cat: Any, rules: Callable[[], Rules]) -> Any:
    """The core's tables for the states of ``cls`` (one catalogue and one set of rules)."""
    known = _CORES.get(cls)
    if known is not None and known[0] is cat:
        return known[1]
    assert _ext is not None
    made = _ext.make_tables(_spec(cat, rules()))
    _CORES[cls] = (cat, made)
    return made


def _classic_rules() -> Rules:
    return (1, 0, 0, ())


#: per game (by id, with the game: a game lives as long as its states), what the core needs
#: to set up its rounds (``_setup_of``); forgotten, all at once, past _MOST_SETUPS games
_SETUPS: dict[int, tuple[ClassicGame, tuple[Any, ...]]] = {}
_MOST_SETUPS = 1024


def _pay_spec(game: ClassicGame) -> tuple[Any, ...] | None:
    """What the core's pay-out of a base-game round reads (``ClassicState._pay_round``'s
    tables, from ``games/classic/cards.py``): (DIGGER, SABOTEUR, the nuggets the finder's
    side draws at this player count, the saboteurs' pay by their number, the nuggets'
    values, ``RoundResult``, ``LaterRoundEnd``, ``EndedBoard``, the catalogue); Saboteur 2's
    (``expansion.pay_spec``) for its games; None where ``_end_round`` stays Python: the option
    that pays sabotaged diggers nothing, and any other game."""
    if type(game) is not ClassicGame:
        from . import expansion  # Saboteur 2's own pay-out, or None

        return expansion.pay_spec(game)
    if getattr(game.options, "sabotaged_diggers_get_nothing", False):
        return None
    n = game.players
    return (CC.DIGGER, CC.SABOTEUR, CC.DIGGER_DRAW[n],
            tuple(CC.SABOTEUR_PAY.get(k, 0) for k in range(n + 1)), game.tables.value,
            RoundResult, later_end(game.catalogue), EndedBoard, game.catalogue)


def later_end(cat: Any) -> tuple[Any, ...]:
    """What the core makes at a round's end for its ``last_round``: a ``LaterRoundEnd``
    holding ``(round_no, reason, board, extra)``, the board the state's maze, or (a round
    whose maze the core did not write) the packed cards of the core's (``ended_board`` in
    classic.c), unpacked into a ``views.EndedBoard`` only if the round's end is read:
    (the class, the maker of a round end from a maze, the maker from packed cards, the
    catalogue, the card codes by core id)."""
    codes = tuple(sorted(k.code for k in cat.kinds))  # by core id (``_core_ids``)
    return (LaterRoundEnd, _round_end_of, _unpacked_end, cat, codes)


def _unpacked_end(cat: Any, codes: tuple[str, ...], round_no: int, reason: str, packed: bytes,
                  extra: Any) -> Any:
    ints = memoryview(packed).cast("i")
    laid = ints[0]
    order = list(ints[1:1 + 2 * laid:2])
    cells = dict(zip(order, ints[2:2 + 2 * laid:2], strict=True))
    rest = ints[1 + 2 * laid:]
    hidden = {c: codes[k] for c, k in zip(rest[::2], rest[1::2], strict=True)}
    return _round_end_of(round_no, reason, EndedBoard(cat, cells, order, hidden), extra)


#: a game's own fields of a new round, for the core to set before the base game's set-up:
#: (the fields that start as an empty list, the fields that start as an empty dict per seat)
FreshRound = tuple[tuple[str, ...], tuple[str, ...]]


def _setup_of(game: ClassicGame, fresh: FreshRound | None = None) -> tuple[Any, ...]:
    """What ``ClassicState._setup_round`` reads of the game, for the core to set up the rounds
    of a match without a fixed deal the same way (the same numbers drawn, the same cards):
    (start cell, start tile, goal cards' cells, goal cards, the pile's card ids (bytes: the
    core takes fewer than 256 cards), hand size, cards set aside, ``role_deck()`` sorted (a
    game's dwarf cards are the same every round), ``Memo``, rounds, ``fresh``: a game's own
    fields of a new round (``FreshRound``), or None; the pay-out's tables, ``_pay_spec``)."""
    known = _SETUPS.get(id(game))
    if known is not None and known[0] is game:
        return known[1]
    if len(_SETUPS) >= _MOST_SETUPS:
        _SETUPS.clear()
    cat, data = game.catalogue, game.data
    ids = _core_ids(cat)
    setup = (cell(*data.START_CELL), cat.otile["start", False],
             tuple(cell(x, y) for x, y in data.GOAL_CELLS),
             tuple(ids[code] for code in game.goal_cards),
             bytes(ids[code] for code in game.deck_cards), game.hand_size, data.SET_ASIDE,
             tuple(sorted(game.role_deck())), Memo, data.ROUNDS, fresh, _pay_spec(game))
    _SETUPS[id(game)] = (game, setup)
    return setup


def _core_ids(cat: Any) -> dict[str, int]:
    return {code: i for i, code in enumerate(sorted(k.code for k in cat.kinds))}


# ------------------------------------------------------------------ the rollout API
def _classic_ctx(state: ClassicState) -> tuple[Any, type, Any] | None:
    game = state.game
    if game.contexts != 1 or game.data.PASS_MAX != 1 or not state.DISTINCT_HAND:
        return None
    return _ctx_of(ClassicState, game.catalogue, _classic_rules)


#: per state class, the rollout API's context (tables, resident class) with its catalogue
_CTXS: dict[type, tuple[Any, tuple[Any, type, Any]]] = {}


def _ctx_of(cls: type, cat: Any, rules: Callable[[], Rules]) -> tuple[Any, type, Any]:
    """What the core's rollout API takes for the states of ``cls``: its tables, the class
    its states have while the core holds them (``resident.resident_class``) and what sets
    the next round up at a round's end (``_next_setup``)."""
    known = _CTXS.get(cls)
    if known is not None and known[0] is cat:
        return known[1]
    assert _ext is not None
    # the rollout API's hot methods in C (no Python frame a call); a play-out goes on from
    # the core's copy (``adopt`` in classic.c), not given back first
    resident = resident_class(cls, _calls(), methods=_ext.classic_held_methods(cls),
                              play_out=play_out_for(cls))
    ctx = (core_tables(cls, cat, rules), resident, _next_setup)
    resident._ctx = ctx  # type: ignore[attr-defined]
    _CTXS[cls] = (cat, ctx)
    return ctx


def _next_setup(state: ClassicState) -> tuple[Any, ...] | None:
    """What the core needs to set the next round up itself at a round's end in the rollout
    API (as ``play_out``), or None (Python's ``_end_round`` and ``_next_round`` do it)."""
    if state.deal is not None:
        return None
    setup = _setup_of(state.game, _FRESH.get(type(state)))
    if "_end_round" in state.__dict__:  # a round's end of its own (tests): it is called
        setup = (*setup[:-1], None)
    return setup


#: a game's own fields of a new round, by state class (Saboteur 2's: core/expansion.py)
_FRESH: dict[type, FreshRound] = {}


def _calls() -> Calls:
    assert _ext is not None
    return Calls(_ext.classic_legal, _ext.classic_count, _ext.classic_nth, _ext.classic_random,
                 _ext.classic_apply, _ext.classic_release)


def steps_for(cls: type) -> Steps | None:
    """The rollout API on the core for states of exactly ``cls`` (Saboteur's or Saboteur
    2's), else None."""
    if cls is ClassicState:
        return Steps(_calls(), _classic_ctx)
    from . import expansion

    return expansion.steps_for(cls)


def release() -> None:
    """Whichever state the rollout API holds given back to Python."""
    if _ext is not None:
        _ext.classic_release(None)


def play_out_for(cls: type) -> Any:
    """The compiled play-out for states of exactly ``cls`` (Saboteur's or Saboteur 2's),
    else None."""
    if cls is ClassicState:
        return _classic_play_out
    from . import expansion

    return expansion.play_out_for(cls)


def setup_for(cls: type) -> Any:
    """The compiled first-round set-up for states of exactly ``cls`` (Saboteur's or Saboteur
    2's), else None."""
    if cls is ClassicState:
        return _classic_first_round
    from . import expansion

    return expansion.setup_for(cls)


def _classic_takes(game: ClassicGame) -> bool:
    """Does the core play this game of Saboteur?  (One reach context, passes of one card,
    hands of distinct cards: the base game's rules, not a variant's.)"""
    return game.contexts == 1 and game.data.PASS_MAX == 1 and ClassicState.DISTINCT_HAND


#: what the core plays a game's matches with: its tables, its rounds' set-up and the
#: rollout API's context (the class a state has while the core holds it, ``_ctx_of``)
Plan = tuple[Any, tuple[Any, ...], tuple[Any, type, Any]]

#: per state class and game (by id, with the game: a game lives as long as its states), its
#: ``Plan``, or None where the core does not take the game; forgotten, all at once, past
#: _MOST_SETUPS games
_PLANS: dict[tuple[type, int], tuple[ClassicGame, Plan | None]] = {}


def plan_of(cls: type, game: ClassicGame, takes: Callable[[Any], bool],
            rules: Callable[[], Rules], fresh: FreshRound | None) -> Plan | None:
    """The core's ``Plan`` for the matches of ``game`` (states of ``cls``: its ``rules``, its
    own fields of a new round ``fresh``), or None where the core does not take the game
    (``takes``); made once a game: a play-out or a new match looks it up."""
    known = _PLANS.get((cls, id(game)))
    if known is not None and known[0] is game:
        return known[1]
    if len(_PLANS) >= _MOST_SETUPS:
        _PLANS.clear()
    plan = ((core_tables(cls, game.catalogue, rules), _setup_of(game, fresh),
             _ctx_of(cls, game.catalogue, rules))
            if _ext is not None and takes(game) else None)
    _PLANS[cls, id(game)] = (game, plan)
    return plan


def _classic_first_round(state: ClassicState) -> None:
    first_round(state, plan_of(ClassicState, state.game, _classic_takes, _classic_rules, None))


def first_round(state: ClassicState, plan: Plan | None) -> None:
    """``state._setup_round()`` of a new match without a fixed deal, on the core with the
    game's ``plan`` (in Python where the core is busy or does not take the game).  The
    round is left on the core, the state held as the rollout API holds one (what the core
    has not written is written when read), so that its play-out or its first decisions
    read nothing back."""
    if plan is None or state.deal is not None or state._round != 0 \
            or not _ext.first_round(state, *plan):  # type: ignore[union-attr]
        state._setup_round()


def _classic_play_out(state: ClassicState, rng: Rng, until_round_end: bool = True,
                      policy: str = "random") -> int:
    plan = plan_of(ClassicState, state.game, _classic_takes, _classic_rules, None)
    return play_out(state, rng, until_round_end, policy, plan)


def play_out(state: ClassicState, rng: Rng, until_round_end: bool, policy: str,
             plan: Plan | None) -> int:
    """``state.play_out`` on the core with the game's ``plan`` (``plan_of``), in Python
    where the core does not take the game.  The state is left held where the play-out
    stops (written when read: never, for a state dropped after its play-out)."""
    if plan is None or type(rng) is not Rng:  # (a held state: given back as it is read)
        return state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    core, game_setup, ctx = plan
    round_no = state._round
    # (a round's end of the state's own, tests that nest a play-out in it, is called: the
    # core looks for it in the state's dict, not read through a held state's __dict__)
    setup = None if state.deal is not None else game_setup
    played, finished, tools_seen = _ext.classic_play_out(  # type: ignore[union-attr]
        state, rng, until_round_end, policy == "playout", core, setup, ctx)
    if tools_seen and "_fronts_memo" not in state.__dict__:
        # where the pure menus leave a memo behind, one that holds nothing yet (not part of
        # the position: memos compare equal whatever they hold, and the menus work out again
        # one that was not made from the state's ``in_front``)
        state._fronts_memo = NO_FRONTS
    if not finished:  # a position the core does not take: the rest in Python
        if until_round_end and state._round != round_no:
            return int(played)
        return int(played) + state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    return int(played)
