"""The shape every game shares: a ``Game`` (rules + options, immutable) makes ``State``s.

A state is mutable and cheap to clone.  It offers the OpenSpiel-style surface
every face and bot uses::

    state = game.new_state(seed=7)
    while not state.is_terminal:
        action = choose(state.view(state.current_player), state.legal_actions())
        state.apply(action)          # raises a specific IllegalAction, changing nothing
    state.returns()

Legality has one source of truth: ``legal_actions()``.  ``apply`` accepts
exactly the actions it lists and asks the game's ``explain`` for the reason
when it refuses one.  Fast callers that pick from the list themselves may skip
the check (``apply(action, check=False)``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from .actions import Action
from .cards import Catalogue
from .errors import BadOptions, GameOver, IllegalAction, NotYourTurn, RecordError
from .notation import parse_action
from .rng import Rng
from .views import LaterRoundEnd, RoundEnd

if TYPE_CHECKING:
    from .position import StartLayout

TERMINAL = -1


@dataclass(frozen=True)
class Deal:
    """A fixed deal: the order of the goal cards and of each round's draw pile (top first).

    ``roles`` (games with dwarf cards): each round's dwarf deck, top first; seat 0
    gets the first card, and so on; the rest stay face down.  ``treasures`` (The Lost
    Mines): each round's treasure cards, the laid-out ones first (slot 0 first), then
    those left out.  Rounds without a given deck are shuffled by the state's generator.
    Used by tests, puzzles and tutorials to set up exact positions; the convenient way to
    build one is :class:`pysaboteur.engine.position.Position`.
    """

    goals: tuple[str, ...] = ()
    decks: tuple[tuple[str, ...], ...] = ()
    roles: tuple[tuple[str, ...], ...] = ()
    treasures: tuple[tuple[str, ...], ...] = ()

    def deck(self, round_no: int) -> tuple[str, ...] | None:
        return self.decks[round_no - 1] if round_no <= len(self.decks) else None

    def role_deck(self, round_no: int) -> tuple[str, ...] | None:
        return self.roles[round_no - 1] if round_no <= len(self.roles) else None

    def treasure_order(self, round_no: int) -> tuple[str, ...] | None:
        return self.treasures[round_no - 1] if round_no <= len(self.treasures) else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"goals": list(self.goals), "decks": [list(d) for d in self.decks]}
        if self.roles:
            data["roles"] = [list(r) for r in self.roles]
        if self.treasures:
            data["treasures"] = [list(t) for t in self.treasures]
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Deal:
        return Deal(tuple(data.get("goals", ())), tuple(tuple(d) for d in data.get("decks", ())),
                    tuple(tuple(r) for r in data.get("roles", ())),
                    tuple(tuple(t) for t in data.get("treasures", ())))


def deal_round(deck: list[str], hands: list[list[str]], first: int, each: int) -> None:
    """Deal ``each`` cards to every hand from the top of ``deck`` (its end), one card at a
    time in seat order from ``first``, while cards last: the same cards to the same hands
    as drawing them one by one, by slicing."""
    n = len(hands)
    k = min(each * n, len(deck))
    top = deck[len(deck) - k:]
    del deck[len(deck) - k:]
    top.reverse()  # in the order they are drawn
    for i in range(n):
        hands[(first + i) % n] += top[i::n]


def draw(deck: list[str], hand: list[str], n: int) -> None:
    """Move the top ``n`` cards of ``deck`` (its end; fewer when it runs out) to ``hand``,
    the top card first: what ``n`` pops would do, by slicing.

    >>> deck, hand = ["a", "b", "c"], []
    >>> draw(deck, hand, 2); deck, hand
    (['a'], ['c', 'b'])
    >>> draw(deck, hand, 5); deck, hand
    ([], ['c', 'b', 'a'])
    """
    if n == 1:  # the common case
        if deck:
            hand.append(deck.pop())
        return
    k = min(n, len(deck))
    if k > 0:
        hand += deck[:-k - 1:-1]
        del deck[-k:]


def check_same_cards(given: Sequence[str], expected: Sequence[str], what: str) -> None:
    """A fixed deal must hold exactly the cards the rules put there."""
    if Counter(given) != Counter(expected):
        missing = Counter(expected) - Counter(given)
        extra = Counter(given) - Counter(expected)
        raise RecordError(f"fixed {what} does not match the cards in play: "
                          f"missing {dict(missing)}, unexpected {dict(extra)}")


OPTION = "option"  # the field metadata key of an option's declaration


def option(default: Any, *, min: int | None = None, max: int | None = None,
           choices: Sequence[Any] | None = None, seat: bool = False,
           players: tuple[int, int] | None = None) -> Any:
    """A field of a game's :class:`Options` with what it accepts, next to its default: the
    one table that the options schema (what a client builds its controls from) and the
    validation of options from outside (:meth:`Options.check`) both read.

    The type follows from the declaration: ``choices`` make a choice (one of the listed
    JSON values), a ``bool`` default a boolean, anything else an integer within ``min`` and
    ``max``; ``seat`` marks an integer that names a seat (at most the player count - 1).
    ``players`` (lowest, highest): the player counts the option matters at (the schema of
    a game played by other counts leaves it out).
    """
    if choices is not None:
        kind = "choice"
        if default not in choices:
            raise ValueError(f"the default {default!r} is not one of the choices {choices!r}")
    elif isinstance(default, bool):
        kind = "bool"
    elif isinstance(default, int):
        kind = "int"
        if seat and min is None:
            min = 0
        if min is None or (max is None and not seat):
            raise ValueError("an integer option needs its bounds (min and max, or seat=True)")
    else:
        raise ValueError(f"an option is a bool, a bounded int or a choice, not {default!r}")
    meta: dict[str, Any] = {"type": kind}
    if min is not None:
        meta["min"] = min
    if max is not None:
        meta["max"] = max
    if choices is not None:
        meta["choices"] = tuple(choices)
    if seat:
        meta["seat"] = True
    if players is not None:
        meta["players"] = players
    return field(default=default, metadata={OPTION: meta})


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``True`` is not ``1``, ``4.0`` is not ``4``."""
    return type(a) is type(b) and bool(a == b)


@dataclass(frozen=True)
class Options:
    """Base of each game's options (frozen dataclass, JSON-friendly fields).

    Declare each field with :func:`option` (its bounds or choices beside its default).
    """

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def declared(cls) -> list[tuple[str, Any, dict[str, Any]]]:
        """Each option as (name, default, declaration)."""
        out = []
        for f in fields(cls):
            meta = f.metadata.get(OPTION)
            if meta is None:  # an undeclared field: only booleans explain themselves
                if not isinstance(f.default, bool):
                    raise TypeError(f"{cls.__name__}.{f.name} is not declared with option()")
                meta = {"type": "bool"}
            default = None if f.default is MISSING else f.default
            out.append((f.name, default, dict(meta)))
        return out

    @classmethod
    def schema(cls, players: tuple[int, int] | None = None) -> list[dict[str, Any]]:
        """One JSON entry per option: ``{"name", "type": "bool"|"int"|"choice", "default",
        "min"?, "max"?, "choices"?, "seat"?}`` for a game of ``players`` (lowest, highest
        count; options for other counts are left out); a seat option's ``max`` is the
        last seat of the highest count (at a table: of its player count)."""
        out = []
        max_players = players[1] if players else None
        for name, default, meta in cls.declared():
            when = meta.get("players")
            if players and when and (when[1] < players[0] or when[0] > players[1]):
                continue
            entry: dict[str, Any] = {"name": name, "type": meta["type"], "default": default}
            if "min" in meta:
                entry["min"] = meta["min"]
            top = meta.get("max")
            if meta.get("seat") and max_players is not None:
                top = max_players - 1 if top is None else min(top, max_players - 1)
            if top is not None:
                entry["max"] = top
            if "choices" in meta:
                entry["choices"] = list(meta["choices"])
            if meta.get("seat"):
                entry["seat"] = True
            out.append(entry)
        return out

    @classmethod
    def check(cls, data: Mapping[str, Any], players: int | None = None,
              title: str | None = None) -> dict[str, Any]:
        """Options from outside (JSON) checked against the declarations: the options by name,
        or :class:`BadOptions` naming the first option that is unknown, of the wrong type
        or out of bounds (a seat option must name a seat of ``players``)."""
        declared = {name: meta for name, _default, meta in cls.declared()}
        of = f" of {title}" if title else ""
        out: dict[str, Any] = {}
        for name, value in data.items():
            meta = declared.get(name) if isinstance(name, str) else None
            if meta is None:
                valid = ", ".join(declared) if declared else "none"
                raise BadOptions(f"unknown option {str(name)[:40]!r}{of}; the options are: "
                                 f"{valid}")
            kind = meta["type"]
            if kind == "bool":
                if not isinstance(value, bool):
                    raise BadOptions(f"option {name} is true or false")
            elif kind == "choice":
                choices = meta["choices"]
                if not any(_same(value, c) for c in choices):
                    listed = ", ".join(json_text(c) for c in choices)
                    raise BadOptions(f"option {name} is one of {listed}")
            else:
                lo, hi = meta.get("min"), meta.get("max")
                if meta.get("seat") and players is not None:
                    hi = players - 1 if hi is None else min(hi, players - 1)
                if isinstance(value, bool) or not isinstance(value, int):
                    raise BadOptions(f"option {name} is a whole number from {lo} to {hi}")
                if (lo is not None and value < lo) or (hi is not None and value > hi):
                    raise BadOptions(f"option {name} is a whole number from {lo} to {hi}, "
                                     f"not {value}")
            out[name] = value
        return out


def json_text(value: Any) -> str:
    """A choice as it is written in JSON (``null``, ``4``, ``"green"``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


class Game(ABC):
    """A game's rules and options.  Immutable; shared by every state it makes."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    catalogue: ClassVar[Catalogue]
    #: (width, height) of a game played on a fixed board (cells 0..width-1, 0..height-1),
    #: None where the maze grows from its start card
    board_size: ClassVar[tuple[int, int] | None] = None

    def __init__(self, players: int, options: Options) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players}-{self.max_players} players, "
                             f"not {players}")
        self.players = players
        self.options = options

    @abstractmethod
    def new_state(self, seed: int, deal: Deal | None = None) -> State: ...

    def start_layout(self) -> StartLayout:
        """How round 1 is dealt, for building positions (``engine.position``)."""
        raise NotImplementedError(f"{self.title} does not describe its start")

    def parse_action(self, text: str, hand: Sequence[str] | None = None) -> Action:
        return parse_action(text, self.catalogue, hand)


def is_listed(action: Action, legal: Sequence[Action]) -> bool:
    """Is ``action`` one of ``legal``, type included?

    Actions are NamedTuples, which compare as plain tuples: ``Orient(True) == Steal(1)``
    and ``EndTurn() == NoMove()``.  Legality must not be fooled by that.
    """
    kind = type(action)
    return any(a == action and type(a) is kind for a in legal)


@dataclass
class RoundResult:
    """What a round gave each seat, in the form records and views show."""

    round: int
    gold: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "gold": list(self.gold), **self.details}


class State(ABC):
    """One position of a match.  Subclasses keep flat, cheaply copied fields.

    The fields every game keeps: ``terminal`` (the match is over), ``current`` (the seat
    that decides now), ``_round`` (1-based), ``hands`` (each seat's card codes).
    """

    game: Game
    rng: Rng
    history: list[Action]
    results: list[RoundResult]
    #: ``last_round``'s value: the round's end, or its holder until first read
    _last_round: RoundEnd | LaterRoundEnd | None
    terminal: bool
    current: int
    _round: int
    hands: list[list[str]]

    def _begin(self, game: Game, seed: int, deal: Deal | None) -> None:
        """Set the fields every match starts with: its game, seed, deal, generator, an
        empty history (with the seat of each action) and no round results yet."""
        self.game = game
        self.seed = seed
        self.deal = deal
        self.rng = Rng(seed)
        self.history = []
        self.actors: list[int] = []
        self.results = []
        self.last_round = None

    @property
    def last_round(self) -> RoundEnd | None:
        """The public facts of the last ended round (``views.RoundEnd``), None before.

        Games keep a ``views.LaterRoundEnd`` until it is read: most rounds' ends are never
        read (play-outs), and building the board was most of their cost."""
        end = self._last_round
        return end.get() if isinstance(end, LaterRoundEnd) else end

    @last_round.setter
    def last_round(self, end: RoundEnd | LaterRoundEnd | None) -> None:
        self._last_round = end

    # -- turn ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat that must decide now, or ``TERMINAL``."""
        return TERMINAL if self.terminal else self.current

    @property
    def is_terminal(self) -> bool:
        return self.terminal  # what current_player says with TERMINAL, one call fewer

    @abstractmethod
    def legal_actions(self) -> list[Action]: ...

    # The rollout path: games may count and decode legal actions without building
    # the list.  It must agree exactly with ``legal_actions()`` (same order), so
    # that ``random_action(rng)`` plays the same games as picking from the list.
    def legal_count(self) -> int:
        """``len(legal_actions())``."""
        return len(self.legal_actions())

    def legal_action(self, index: int) -> Action:
        """``legal_actions()[index]``."""
        return self.legal_actions()[index]

    def random_action(self, rng: Rng) -> Action:
        """A uniformly random legal action: ``legal[rng.below(len(legal))]``."""
        legal = self.legal_actions()
        return legal[rng.below(len(legal))]

    def playout_action(self, rng: Rng) -> Action:
        """A cheap random move for Monte Carlo playouts (a policy, not a rule).

        Default: uniformly random.  Games may weigh kinds of move evenly instead,
        so that playouts are not mostly passes.
        """
        return self.random_action(rng)

    def play_out(self, rng: Rng, until_round_end: bool = True,
                 policy: Literal["random", "playout"] = "random") -> int:
        """Play on with moves chosen by ``rng`` until the match ends, or with
        ``until_round_end`` until the round does (its number changes); returns the number
        of decisions played.

        Exactly the game (same numbers drawn from ``rng``, same state, same history) of::

            while not state.is_terminal and state.round_no == round_no:
                state.apply(state.random_action(rng), check=False)

        (``policy="playout"``: ``playout_action``, what Monte Carlo play-outs use).  Games
        may play it faster than one ``apply`` at a time (the rollout path of bots).
        """
        pick = self.playout_action if policy == "playout" else self.random_action
        round_no = self._round
        played = 0
        while not self.terminal and (self._round == round_no or not until_round_end):
            action = pick(rng)
            self._apply(action)
            self.history.append(action)
            played += 1
        return played

    def apply(self, action: Action, check: bool = True) -> None:
        """Play ``action`` for the current player.

        With ``check`` (the default) an action that is not in ``legal_actions()``
        raises a specific :class:`IllegalAction` and leaves the state untouched.
        """
        if check:
            if self.is_terminal:
                raise GameOver("match-over")
            if not is_listed(action, self.legal_actions()):
                raise self.explain(action)
        self._apply(action)
        self.history.append(action)

    def apply_as(self, seat: int, action: Action) -> None:
        """Like :meth:`apply`, but refuse when it is not ``seat``'s decision."""
        if not self.is_terminal and seat != self.current_player:
            raise NotYourTurn("not-your-turn", current=self.current_player, seat=seat)
        self.apply(action)

    @abstractmethod
    def _apply(self, action: Action) -> None: ...

    def explain(self, action: Action) -> IllegalAction:
        """Why ``action`` is not legal now (games override with specific reasons)."""
        return IllegalAction("not-legal-now", action=str(action))

    @abstractmethod
    def clone(self) -> State:
        """A copy to play on, independent of this state (games share what they never change
        in place).  Games start from ``new.__dict__ = self.__dict__.copy()``: copying an
        instance's dict whole is 2-3 times cheaper than ``new.__dict__.update(...)``, which
        cannot take CPython's fast path for the key-sharing dicts of instances (0.3 against
        0.65-0.85 us for a Saboteur or Lost Mines state)."""

    # -- outcome ------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Gold (or points) each seat has collected so far."""

    @abstractmethod
    def returns(self) -> list[float]: ...

    # -- information ----------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know (``None``: a spectator).  The only door out of the engine."""

    def hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def census(self) -> Counter[str]:
        """Every card of the box wherever it is (for conservation checks)."""
        raise NotImplementedError

    @property
    def round_no(self) -> int:
        """The round being played (1-based)."""
        return self._round
