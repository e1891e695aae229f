"""Pieces every game's view shares: its base (``View``: as JSON), the face-up board, the
public log.

A view is built every decision (environments, bots, the web tables), and the public log
holds every move of the match: built from the history each time, a view cost grew with the
match (a match of random play with a view per decision took O(n^2)), and the log was most
of an environment's step.  So each state has a :class:`ViewMemo`: the public text of
each move, worked out once, and each seat's log, grown as the history grows; and the
face-up cards of its maze, kept until the maze changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, is_dataclass
from operator import attrgetter
from typing import Any, ClassVar, NamedTuple
from weakref import WeakKeyDictionary

from .actions import Action, Pass
from .cards import Catalogue
from .maze import Maze, xy


class View:
    """What every game's view (a frozen dataclass) shares: its data as JSON."""

    #: fields that are tuples of tuples of leaves (the log: seat and text), the longest
    #: part of a view late in a match, made lists in one C call
    FLAT: ClassVar[frozenset[str]] = frozenset({"log"})

    def to_json(self) -> dict[str, Any]:
        """The fields as a dict, nested dataclasses too (``dataclasses.asdict``)."""
        return asdict(self)  # type: ignore[call-overload, no-any-return]

    def plain(self) -> dict[str, Any]:
        """The fields as JSON-ready data: dataclasses as dicts, tuples as lists, keys as
        strings; what the web tables send to every seat after every move.  The same data
        as converting ``to_json()``, without ``asdict``'s deep copy of every leaf (12-17
        times faster on a view with a long log)."""
        flat = self.FLAT
        return {name: list(map(list, value)) if name in flat else plain(value)
                for name, value in _items(self)}


_LEAVES = frozenset((str, int, float, bool, type(None)))
_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses as dicts of their fields, tuples and
    lists as lists, dict keys as strings, leaves as they are."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is tuple or kind is list:
        return [v if type(v) in _LEAVES else plain(v) for v in value]
    if kind is dict:
        return {str(k): v if type(v) in _LEAVES else plain(v) for k, v in value.items()}
    if kind in _FIELDS or (is_dataclass(value) and not isinstance(value, type)):
        return {name: v if type(v) in _LEAVES else plain(v) for name, v in _items(value)}
    if isinstance(value, list | tuple):  # NamedTuples
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def _items(value: Any) -> zip[tuple[str, Any]]:
    """A dataclass's (field name, value) pairs, in order; the names and a getter of the
    values are made once per class."""
    kind = type(value)
    known = _FIELDS.get(kind)
    if known is None:
        names = tuple(f.name for f in fields(value))
        get = attrgetter(*names) if len(names) > 1 else (
            lambda v: tuple(getattr(v, n) for n in names))
        known = _FIELDS[kind] = (names, get)
    names, get = known
    return zip(names, get(value), strict=True)


@dataclass(frozen=True)
class PlacedCard:
    x: int
    y: int
    card: str
    rotated: bool


@dataclass(frozen=True)
class RoundEnd:
    """The public facts of the last ended round, as it ended: what a round-end screen
    shows (every game's view: ``last_round``, None until a round has ended).

    The state makes it once, when the round ends (the next round is set up inside the
    same move), and clones share it.  It holds only what the rules make public at that
    moment, so every seat and a spectator see the same object; what each seat won is in
    the round's entry of the view's ``results`` (other seats' gold hidden where the rules
    keep it private).

    ``reason``, why the round ended:

    - Saboteur and Saboteur 2: ``"gold"`` (a path reached the gold), ``"exhausted"``
      (the draw pile and every hand are empty);
    - the Duel and solo: ``"goals"`` (every goal is face up), ``"markers"`` (every
      marker is on the table), ``"exhausted"`` (the pile and the hands are empty);
    - The Lost Mines: ``"treasures"`` (every laid-out treasure is collected),
      ``"vote"`` (every player agreed to end it), ``"exhausted"`` (the pile is empty
      and nobody holds a card).

    ``extra``, per game (JSON-ready values):

    - Saboteur: ``in_front`` (the cards lying in front of each seat; broken tools);
    - Saboteur 2: ``in_front`` and ``trapped`` (the seats with Trapped! in front:
      they win nothing);
    - the Duel: ``markers`` and ``bribes`` ((x, y, seat) on gold cards and trolls),
      ``keys`` ((x, y) of the doors opened), ``in_front``;
    - The Lost Mines: ``pawns`` ((x, y) per seat), ``forest`` (overcome obstacles),
      ``traps`` ((x, y, "E"/"S") joints), ``trolls`` ((x, y, "E"/"S", seat)),
      ``in_front``.
    """

    round: int
    reason: str
    board: tuple[PlacedCard, ...]  # the face-up cards in the order they were placed
    face_down: tuple[tuple[int, int], ...]  # cells of the goals (mines) still face down
    extra: dict[str, Any]


def round_end(round_no: int, reason: str, maze: Board, extra: dict[str, Any]) -> RoundEnd:
    """The :class:`RoundEnd` of a round that ends with ``maze`` (made once per round)."""
    cat = maze.cat
    known = _MADE.get(id(cat))
    # the catalogue itself is checked: a copied one (deepcopy) may die and its id be reused
    if known is None or known[0] is not cat or len(known[1]) > MADE_BOUND:
        if len(_MADE) > MADE_BOUND >> 10:  # copies kept alive here: forgotten, bounded
            _MADE.clear()
        known = _MADE[id(cat)] = (cat, {})  # a long-running process forgets, bounded
    cards = known[1]
    return RoundEnd(round_no, reason, face_up(maze, cards),
                    tuple(sorted(map(xy, maze.hidden))), extra)


class EndedBoard(NamedTuple):
    """What :func:`round_end` reads of a maze: the compiled core hands this to a round's
    :class:`LaterRoundEnd` instead of writing a whole ``Maze`` (reach, fit constraints)
    back at every round's end of a play-out."""

    cat: Catalogue
    cells: dict[int, int]
    order: list[int]
    hidden: dict[int, str]


#: what a round's end is made from: a maze, or the part of it that it reads
Board = Maze | EndedBoard
#: a round's ``RoundEnd.extra``, or a function that makes it (``LaterRoundEnd``)
Extra = dict[str, Any] | Callable[[], dict[str, Any]]


def _round_end_of(round_no: int, reason: str, maze: Board, extra: Extra) -> RoundEnd:
    """``round_end`` of a held round's end whose extra may be made only now."""
    return round_end(round_no, reason, maze, extra if isinstance(extra, dict) else extra())


class LaterRoundEnd:
    """A round's :class:`RoundEnd` made when it is first read, not when the round ends.

    Play-outs (bots, benchmarks, the compiled core) end thousands of rounds a second and
    read none of their ends; building each board (a ``PlacedCard`` per face-up card) was
    most of a round end's cost.  The state keeps one of these instead (``last_round`` reads
    it through :meth:`get`): the same ``RoundEnd`` as :func:`round_end` makes at the round's
    end, because the maze it holds is no longer changed (the next round gets a new maze, and
    the state marks this one shared, so a change would copy it first).  Clones share the
    holder, so they share the one ``RoundEnd`` it makes, as they shared the eager one; two
    holders compare equal when their round ends do (the differential and tests compare
    states field by field).

    ``extra`` is the ``RoundEnd.extra`` dict, or a function of no arguments that makes it
    at the first read (The Lost Mines: its pawns and tokens as notation, from what the
    round ended with; the function holds values that are no longer changed).

    A game whose round's end is more than a board and a dict (the Duel's markers, bribes
    and keys, read as coordinates; the compiled core's packed pieces) gives its own maker
    through :meth:`by`: whatever it holds must not change after the round's end either.
    """

    __slots__ = ("args", "made", "make")

    def __init__(self, round_no: int, reason: str, maze: Board, extra: Extra) -> None:
        self.make: Callable[..., RoundEnd] = _round_end_of
        self.args: tuple[Any, ...] | None = (round_no, reason, maze, extra)
        self.made: RoundEnd | None = None

    @classmethod
    def by(cls, make: Callable[..., RoundEnd], *args: Any) -> LaterRoundEnd:
        """The holder of ``make(*args)``, made when first read."""
        later = cls.__new__(cls)
        later.make, later.args, later.made = make, args, None
        return later

    def get(self) -> RoundEnd:
        """The round's end (made at the first call, then the same object)."""
        made = self.made
        if made is None:
            assert self.args is not None
            made = self.made = self.make(*self.args)
            self.args = None  # the maze is not needed any more
        return made

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LaterRoundEnd):
            other = other.get()
        return self.get() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.get())

    def __copy__(self) -> LaterRoundEnd:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> LaterRoundEnd:
        """The holder itself: what it holds is no longer changed, and a deep copy would copy
        the catalogue too, whose ``id`` keys ``_MADE`` (a copy's id, reused after it is
        gone, would find another catalogue's cards)."""
        return self


#: per catalogue (by id, with the catalogue: the games' catalogues live as long as the
#: process, copies may not), PlacedCard by (cell << 8 | oriented tile), shared by every round
#: end (immutable)
_MADE: dict[int, tuple[Catalogue, dict[int, PlacedCard]]] = {}
#: PlacedCards kept per catalogue at the most (cells times orientations could grow for ever
#: over millions of matches)
MADE_BOUND = 65536


#: what the other seats see of a move, or None when they see it all (``ViewMemo.log``)
Masked = Callable[[Action], "str | None"]


def masked_pass(action: Action) -> str | None:
    """Others see how many cards a pass put face down, not which."""
    return f"pass {len(action.cards)}" if type(action) is Pass else None


class ViewMemo:
    """What a state's views are built from, kept between views (not part of the position,
    so kept beside the state rather than on it: copies, snapshots and records never see it).

    Made for one history list: the history only grows, so the texts worked out stay right,
    and a state given another history list gets a new memo.
    """

    __slots__ = ("board", "cards", "history", "logs", "maze", "texts", "version")

    def __init__(self, history: list[Action]) -> None:
        self.history = history
        #: per move: (actor, its text) and what the others see, or None when the same
        self.texts: list[tuple[tuple[int, str], tuple[int, str] | None]] = []
        #: per seat (None: a spectator), its log so far
        self.logs: dict[int | None, list[tuple[int, str]]] = {}
        self.maze: Maze | None = None
        self.version = -1
        self.board: tuple[PlacedCard, ...] = ()
        #: (cell << 8 | oriented tile) -> its PlacedCard
        self.cards: dict[int, PlacedCard] = {}

    @staticmethod
    def of(state: Any) -> ViewMemo:
        """The memo of ``state`` (a clone is another state: it gets its own)."""
        memo = _MEMOS.get(state)
        if memo is None or memo.history is not state.history:
            memo = _MEMOS[state] = ViewMemo(state.history)
        return memo

    def log(self, seat: int | None, actors: list[int],
            masked: Masked) -> tuple[tuple[int, str], ...]:
        """(seat, move) for every decision so far, as ``seat`` saw it: ``masked`` says what
        a move of another seat showed, when not all of it (one rule per game: the texts
        are worked out once, with the rule of the first call)."""
        texts, history = self.texts, self.history
        for i in range(len(texts), len(history)):
            action, actor = history[i], actors[i]
            text = masked(action)
            texts.append(((actor, str(action)), (actor, text) if text is not None else None))
        mine = self.logs.get(seat)
        if mine is None:
            mine = self.logs[seat] = []
        for i in range(len(mine), len(texts)):
            shown, masked_move = texts[i]
            mine.append(shown if masked_move is None or shown[0] == seat else masked_move)
        return tuple(mine)

    def placed(self, maze: Maze) -> tuple[PlacedCard, ...]:
        """The face-up cards in the order they were placed, with how they lie."""
        if maze is not self.maze or maze.version != self.version:
            self.maze, self.version = maze, maze.version
            self.board = face_up(maze, self.cards)
        return self.board


_MEMOS: WeakKeyDictionary[Any, ViewMemo] = WeakKeyDictionary()


def face_up(maze: Board, cards: dict[int, PlacedCard]) -> tuple[PlacedCard, ...]:
    """The face-up cards of ``maze`` in the order they were placed, with how they lie;
    ``cards`` keeps each PlacedCard made, by (cell << 8 | oriented tile), for the next call."""
    cells = maze.cells
    out = []
    for c in maze.order:
        t = cells[c]
        card = cards.get(c << 8 | t)
        if card is None:
            card = cards[c << 8 | t] = _placed_card(maze, c, t)
        out.append(card)
    return tuple(out)


def _placed_card(maze: Board, c: int, t: int) -> PlacedCard:
    cat = maze.cat
    code = cat.codes[t]
    return PlacedCard(*xy(c), code, cat.otile[code, True] == t)

