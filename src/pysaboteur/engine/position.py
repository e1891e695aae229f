"""Positions as data: a match's start built from what matters, plus a few moves.

A :class:`Position` names the game, the player count, the seed and the options, and
then only what a tutorial, a puzzle or a test cares about: some cards of some hands,
some dwarf cards, which goal lies where, the next cards of the draw pile (for The Lost
Mines also the treasures laid out).  Everything not given is shuffled from the seed, the
same way every time, out of the cards the game still has (the same cards in total: a
position that uses more of a card than the game holds is refused, naming the card).
``moves`` (in move notation) are then played from that start through the engine, each
one checked::

    >>> from pysaboteur.engine.position import Position
    >>> p = Position(game="classic", players=4, seed=1, hands={0: ["NESW", "map"]},
    ...              roles={0: "saboteur"},
    ...              goals=["goal-stone:NW", "goal-gold:NESW", "goal-stone:SW"],
    ...              top=["rockfall"], moves=["NESW@1,0"])
    >>> state = p.state()
    >>> state.role(0), state.hands[0][:1], len(state.hands[0])
    ('saboteur', ['map'], 6)
    >>> state.hands[0][-1]  # the card drawn after the move: the top of the pile
    'rockfall'
    >>> Position.from_json(p.to_json()) == p
    True

Every seat's view and every legal move are the same each time the position is built.
A position that cannot be is refused with a :class:`PositionError` saying why::

    >>> Position(game="classic", hands={0: ["NESW"] * 7}).state()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pysaboteur.engine.position.PositionError: hands[0] holds 7 cards; Saboteur deals 6 ...
    >>> Position(game="classic", hands={0: ["NESW"] * 3}, top=["NESW"] * 3).state()
    Traceback (most recent call last):
    ...
    pysaboteur.engine.position.PositionError: the position puts 6 x NESW in the draw pile; ...
    >>> Position(game="duel", hands={1: ["map"]}, moves=["map@9,9"]).state()
    Traceback (most recent call last):
    ...
    pysaboteur.engine.position.IllegalPositionMove: move 1 ('map@9,9') of the position: ...

A position travels in records (``"position"`` instead of, or beside, ``"deal"``: see
``pysaboteur.records``), so that ``saboteur check`` and ``saboteur replay`` take it:
:meth:`Position.record` makes one.  The layout of each game's start (how many cards are
set aside and dealt, where the goals lie, which seat is dealt first) comes from the game
itself (``Game.start_layout``), never from this module.  See ``docs/positions.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import RecordError, SaboteurError
from .game import Deal
from .rng import Rng

if TYPE_CHECKING:
    from ..records import Record
    from .game import Game, State

FORMAT = "pysaboteur-position"
#: the fields of a position's spec, as a record's ``"position"`` holds them
SPEC_FIELDS = ("hands", "roles", "goals", "top", "aside", "treasures", "moves")
#: the fields of a position file (``Position.to_json``)
FIELDS = ("format", "game", "players", "seed", "options", *SPEC_FIELDS)
#: bounds of what is read from outside: cards in one list, moves, characters of one text
MAX_CARDS = 1000
MAX_MOVES = 20_000
MAX_TEXT = 200
#: the seed: 0 <= seed < MAX_SEED (as records)
MAX_SEED = 1 << 63


class PositionError(RecordError):
    """A position that cannot be built: the message names what is wrong."""


class IllegalPositionMove(PositionError):
    """Move ``index`` (0-based) of a position does not parse or is illegal."""

    def __init__(self, index: int, move: str, reason: str) -> None:
        super().__init__(f"move {index + 1} ({move!r}) of the position: {reason}")
        self.index, self.move, self.reason = index, move, reason


@dataclass(frozen=True)
class StartLayout:
    """How a game deals round 1: what a position needs to know of the rules (each game's
    ``start_layout``)."""

    #: round 1's path and action cards (any order)
    deck: tuple[str, ...]
    #: cards set aside unseen before the hands are dealt
    aside: int
    #: cards dealt to each seat
    hand: int
    #: the seat dealt (and playing) first
    first: int
    #: the goal cards one ordering of goals covers
    goal_box: tuple[str, ...]
    #: round 1's goal cells, in the order they take goal cards
    goal_cells: tuple[tuple[int, int], ...]
    #: orderings of ``goal_box`` a fixed deal gives: one per round, or 1 when the goals
    #: are one pile for the whole match
    goal_orderings: int
    #: the dwarf cards dealt each round, none in games without them
    roles: tuple[str, ...] = ()
    #: the treasure cards (the first ``players`` are laid out), none in games without them
    treasures: tuple[str, ...] = ()
    #: cards that act when drawn and never stay in a hand (solo)
    never_in_hand: frozenset[str] = frozenset()


def _seat_keys(value: Mapping[Any, Any], what: str) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for key, item in value.items():
        seat = key
        if isinstance(key, str) and key.isdigit() and len(key) <= len(str(MAX_CARDS)):
            seat = int(key)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise PositionError(f"'{what}' is keyed by seat numbers, not {str(key)[:40]!r}")
        out[seat] = item
    return out


def _texts(value: Any, what: str, most: int = MAX_CARDS, holes: bool = False) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise PositionError(f"'{what}' is a list of texts, not {type(value).__name__}")
    if len(value) > most:
        raise PositionError(f"'{what}' holds {len(value)} entries, at most {most} are read")
    for i, item in enumerate(value):
        if item is None and holes:
            continue
        if not isinstance(item, str):
            kind = "a text or null" if holes else "a text"
            raise PositionError(f"'{what}[{i}]' is {kind}, not {type(item).__name__}")
        if len(item) > MAX_TEXT:
            raise PositionError(f"'{what}[{i}]' is {len(item)} characters long, "
                                f"at most {MAX_TEXT}")
    return list(value)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise PositionError(f"{what!r} is a whole number from {lo} to {hi}, not {value!r:.40}")
    return value


def _take(pool: list[str], avoid: frozenset[str] = frozenset()) -> str:
    """The last card of ``pool`` not in ``avoid``, taken out of it."""
    for i in range(len(pool) - 1, -1, -1):
        if pool[i] not in avoid:
            return pool.pop(i)
    raise PositionError("the game has too few cards left to fill the hands")


def _check_codes(given: Sequence[str], box: Sequence[str], what: str, title: str) -> None:
    known = set(box)
    for code in given:
        if code not in known:
            raise PositionError(f"{code!r} is not one of {title}'s {what}")


@dataclass(frozen=True)
class Position:
    """A match's start (what is given; the rest from the seed) and moves played from it.

    ``hands``: seat -> the first cards of its hand (the rest dealt from the seed);
    ``roles``: seat -> its dwarf card (Saboteur, Saboteur 2: e.g. ``"saboteur"``,
    ``"digger-blue"``; The Lost Mines: e.g. ``"blue-loyal"``); ``goals``: the goal cards
    on round 1's goal cells in the game's order (``None`` where any may lie); ``top``:
    the draw pile's next cards after the deal, top first; ``aside``: cards set aside
    unseen (Saboteur 2, solo, The Lost Mines); ``treasures`` (The Lost Mines): the
    treasures laid out, slot 0 first (``None`` where any may lie); ``moves``: move
    notation played from the start.  Only round 1 is fixed: later rounds are dealt by
    the match's generator, as in any match.
    """

    game: str = "duel"
    players: int | None = None
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    hands: Mapping[int, Sequence[str]] = field(default_factory=dict)
    roles: Mapping[int, str] = field(default_factory=dict)
    goals: Sequence[str | None] = ()
    top: Sequence[str] = ()
    aside: Sequence[str] = ()
    treasures: Sequence[str | None] = ()
    moves: Sequence[str] = ()

    def __post_init__(self) -> None:  # normalise: equal positions compare equal
        from ..registry import GAMES

        put = object.__setattr__
        if self.players is None and self.game in GAMES:
            put(self, "players", GAMES[self.game].default_players)
        put(self, "options", dict(self.options))
        put(self, "hands", {int(s): tuple(h) for s, h in sorted(self.hands.items()) if h})
        put(self, "roles", {int(s): r for s, r in sorted(self.roles.items())})
        for name in ("goals", "top", "aside", "treasures", "moves"):
            put(self, name, tuple(getattr(self, name)))

    # -- the game -------------------------------------------------------------
    def make_game(self) -> Game:
        from ..registry import GAMES, make_game

        if self.game not in GAMES:
            raise PositionError(f"'game' is one of {', '.join(GAMES)}, not {self.game!r:.40}")
        try:
            return make_game(self.game, self.players, **self.options)
        except (ValueError, TypeError) as exc:
            raise PositionError(f"cannot set up the game: {exc}") from exc

    # -- the start ------------------------------------------------------------
    def deal(self, game: Game | None = None) -> Deal:
        """The fixed deal of the start: what is given, the rest shuffled from the seed."""
        from ..registry import GAMES

        game = game or self.make_game()
        layout = game.start_layout()
        n, title = game.players, GAMES[self.game].title
        rng = Rng(self.seed)
        for seat in (*self.hands, *self.roles):
            if not 0 <= seat < n:
                raise PositionError(f"there is no seat {seat} in a game of {n}")
        given: list[str] = [*self.aside, *(c for h in self.hands.values() for c in h), *self.top]
        _check_codes(given, layout.deck, "draw-pile cards", title)
        for seat, hand in self.hands.items():
            if len(hand) > layout.hand:
                raise PositionError(f"hands[{seat}] holds {len(hand)} cards; {title} deals "
                                    f"{layout.hand} to each of {n} players")
            stays_out = [c for c in hand if c in layout.never_in_hand]
            if stays_out:
                raise PositionError(f"hands[{seat}]: {stays_out[0]} acts when drawn in "
                                    f"{title} and never stays in a hand")
        if len(self.aside) > layout.aside:
            raise PositionError(f"'aside' holds {len(self.aside)} card(s); {title} sets "
                                f"{layout.aside} aside")
        _too_many(given, layout.deck, "the draw pile", title)
        rest = sorted((Counter(layout.deck) - Counter(given)).elements())
        rng.shuffle(rest)
        aside = [*self.aside, *(_take(rest) for _ in range(layout.aside - len(self.aside)))]
        full = []
        for seat in range(n):
            hand = list(self.hands.get(seat, ()))
            hand += [_take(rest, layout.never_in_hand) for _ in range(layout.hand - len(hand))]
            full.append(hand)
        dealt = [full[(layout.first + i) % n][k] for k in range(layout.hand) for i in range(n)]
        rest.reverse()  # what is left, top first
        deck = (*aside, *dealt, *self.top, *rest)
        return Deal(goals=self._goals(layout, rng, title), decks=(deck,),
                    roles=self._roles(layout, rng, n, title),
                    treasures=self._treasures(layout, rng, n, title))

    def _goals(self, layout: StartLayout, rng: Rng, title: str) -> tuple[str, ...]:
        slots = len(layout.goal_cells)
        if len(self.goals) > slots:
            raise PositionError(f"'goals' names {len(self.goals)} cards; {title} has "
                                f"{slots} goal cells")
        order = _lay_out(self.goals, layout.goal_box, slots, "goal cards", "the goals", title,
                         rng)
        for _ in range(layout.goal_orderings - 1):  # the later rounds' goals
            order += rng.permutation(sorted(layout.goal_box))
        return tuple(order)

    def _roles(self, layout: StartLayout, rng: Rng, n: int, title: str
               ) -> tuple[tuple[str, ...], ...]:
        if not layout.roles:
            if self.roles:
                raise PositionError(f"{title} has no dwarf cards")
            return ()
        given = [self.roles.get(s) for s in range(n)]
        return (tuple(_lay_out(given, layout.roles, n, "dwarf cards", "the dwarf cards", title,
                               rng)),)

    def _treasures(self, layout: StartLayout, rng: Rng, n: int, title: str
                   ) -> tuple[tuple[str, ...], ...]:
        if not layout.treasures:
            if any(t is not None for t in self.treasures):
                raise PositionError(f"{title} has no treasures")
            return ()
        if len(self.treasures) > n:
            raise PositionError(f"'treasures' names {len(self.treasures)} cards; {title} "
                                f"lays out {n} for {n} players")
        return (tuple(_lay_out(self.treasures, layout.treasures, n, "treasures",
                               "the treasures", title, rng)),)

    def start(self) -> State:
        """The state of the start, before ``moves``."""
        game = self.make_game()
        deal = self.deal(game)
        try:
            state = game.new_state(self.seed, deal)
        except (SaboteurError, ValueError) as exc:
            raise PositionError(f"cannot deal the position: {exc}") from exc
        for seat, hand in self.hands.items():  # what the deal promised
            if state.hands[seat][:len(hand)] != list(hand):
                raise PositionError(f"seat {seat} was dealt {state.hands[seat]}, not {hand}")
        state.position = self  # type: ignore[attr-defined]
        return state

    def state(self) -> State:
        """The position: the start with every move played (each checked by the engine)."""
        state = self.start()
        game = state.game
        for i, text in enumerate(self.moves):
            try:
                state.apply(game.parse_action(text))
            except (SaboteurError, ValueError, KeyError, IndexError, TypeError) as exc:
                raise IllegalPositionMove(i, text, str(exc)) from exc
        return state

    # -- JSON -----------------------------------------------------------------
    def spec_json(self) -> dict[str, Any]:
        """What a record's ``"position"`` holds (the record gives game, players, seed and
        options); only the fields given."""
        data: dict[str, Any] = {}
        if self.hands:
            data["hands"] = {str(s): list(h) for s, h in self.hands.items()}
        if self.roles:
            data["roles"] = {str(s): r for s, r in self.roles.items()}
        for name in ("goals", "top", "aside", "treasures", "moves"):
            if getattr(self, name):
                data[name] = list(getattr(self, name))
        return data

    def to_json(self) -> dict[str, Any]:
        """A position file: ``{"format": "pysaboteur-position", "game", "players", "seed",
        "options", ...the spec}``."""
        return {"format": FORMAT, "game": self.game, "players": self.players, "seed": self.seed,
                "options": dict(self.options), **self.spec_json()}

    @staticmethod
    def from_spec(spec: Any, game: str, players: int, seed: int,
                  options: Mapping[str, Any] | None = None) -> Position:
        """A position from a record's ``"position"`` (every field checked)."""
        if not isinstance(spec, dict):
            raise PositionError(f"'position' is an object of {', '.join(SPEC_FIELDS)}, "
                                f"not {type(spec).__name__}")
        extra = [k for k in spec if k not in SPEC_FIELDS]
        if extra:
            raise PositionError(f"'position' has an unknown field {str(extra[0])[:40]!r}; its "
                                f"fields are {', '.join(SPEC_FIELDS)}")
        hands_in = spec.get("hands", {})
        roles_in = spec.get("roles", {})
        for name, value in (("hands", hands_in), ("roles", roles_in)):
            if not isinstance(value, dict):
                raise PositionError(f"'position.{name}' is an object keyed by seat numbers")
        hands = {s: tuple(_texts(h, f"position.hands.{s}"))
                 for s, h in _seat_keys(hands_in, "position.hands").items()}
        roles = _seat_keys(roles_in, "position.roles")
        for s, r in roles.items():
            if not isinstance(r, str) or len(r) > MAX_TEXT:
                raise PositionError(f"'position.roles.{s}' is the text of a dwarf card")
        return Position(
            game=game, players=players, seed=seed, options=dict(options or {}),
            hands=hands, roles=roles,
            goals=_texts(spec.get("goals", []), "position.goals", holes=True),
            top=_texts(spec.get("top", []), "position.top"),
            aside=_texts(spec.get("aside", []), "position.aside"),
            treasures=_texts(spec.get("treasures", []), "position.treasures", holes=True),
            moves=_texts(spec.get("moves", []), "position.moves", MAX_MOVES))

    @staticmethod
    def from_json(data: Any) -> Position:
        """A position from a position file's JSON (:meth:`to_json`), every field checked."""
        from ..registry import GAMES

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PositionError(f"not a {FORMAT} document")
        extra = [k for k in data if k not in FIELDS]
        if extra:
            raise PositionError(f"unknown field {str(extra[0])[:40]!r}; a position's fields "
                                f"are {', '.join(FIELDS)}")
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise PositionError(f"'game' is one of {', '.join(GAMES)}, not {game!r:.40}")
        lo, hi = GAMES[game].players
        players = _int(data.get("players", GAMES[game].default_players), "players", lo, hi)
        seed = _int(data.get("seed", 0), "seed", 0, MAX_SEED - 1)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise PositionError("'options' is an object of option names and values")
        spec = {k: v for k, v in data.items() if k in SPEC_FIELDS}
        return Position.from_spec(spec, game, players, seed, options)

    def record(self, seats: list[dict[str, Any]] | None = None) -> Record:
        """A record of this position with no further actions: what ``saboteur check`` and
        ``saboteur replay`` read (its replay is :meth:`state`)."""
        from ..records import Record

        game = self.make_game()
        return Record(game=self.game, players=game.players, seed=self.seed,
                      options=dict(self.options), position=self,
                      seats=seats or [{"name": f"seat {i}", "kind": "unknown"}
                                      for i in range(game.players)])


def _lay_out(given: Sequence[str | None], box: Sequence[str], slots: int, what: str,
            where: str, title: str, rng: Rng) -> list[str]:
    """The cards of ``box`` in order: ``given`` on the first ``slots`` places (None: any),
    the other places filled from the rest shuffled by ``rng``, then the rest left over
    (goals, dwarf cards and treasures are laid out alike)."""
    named = [c for c in given if c is not None]
    _check_codes(named, box, what, title)
    _too_many(named, box, where, title)
    rest = sorted((Counter(box) - Counter(named)).elements())
    rng.shuffle(rest)
    laid = [c if c is not None else _take(rest) for c in given]
    laid += [_take(rest) for _ in range(slots - len(laid))]
    return laid + rest[::-1]


def _too_many(given: Sequence[str], box: Sequence[str], what: str, title: str) -> None:
    """Refuse a position that uses more of a card than the game holds."""
    over = Counter(given) - Counter(box)
    if over:
        code = sorted(over)[0]
        raise PositionError(f"the position puts {Counter(given)[code]} x {code} in {what}; "
                            f"{title} has {Counter(box)[code]}")
