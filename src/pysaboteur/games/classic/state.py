"""Saboteur (base game), 3-10 players: the rules (classic.md).

One reach context (everybody builds from the same start).  A turn is one
option (path card, action card or pass) and the draw.  A revealed stone goal
whose orientation is a real choice pauses the state for the acting player's
``Orient`` decision.  Saboteur 2 (``games/expansion``) subclasses this state and
overrides the data and a few hooks (``_setup_round``'s dealing, the action
cards' targets and effects, the extra option, the pay-out).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

from ...engine.actions import (
    Action,
    Discard,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnPlayer,
    Steal,
)
from ...engine.cards import Catalogue
from ...engine.errors import (
    Blocked,
    CardNotInHand,
    IllegalAction,
    IllegalPlacement,
    InvalidTarget,
    WrongPhase,
)
from ...engine.game import TERMINAL, Deal, Game, Options, RoundResult, State, check_same_cards
from ...engine.goals import goal_orientations
from ...engine.maze import FITS, Maze, cell, xy
from ...engine.moves import pass_actions
from ...engine.rng import Rng
from ...engine.secrecy import redeal
from . import cards as C

MAIN, ORIENT, STEAL = 0, 1, 2
PHASE_NAMES = ("main", "orient", "steal")


@dataclass(frozen=True)
class ClassicOptions(Options):
    #: official optional rule: gold-diggers with a broken tool at round end get no gold
    sabotaged_diggers_get_nothing: bool = False
    #: Board Game Arena: one gold-digger card less, all dwarf cards dealt, none set aside
    max_saboteurs: bool = False
    #: the seat that begins round 1 ("the youngest player")
    first_player: int = 0


class ClassicGame(Game):
    """Saboteur, the base game, for 3-10 players."""

    name = "classic"
    title = "Saboteur"
    min_players = 3
    max_players = 10
    catalogue: ClassVar[Catalogue] = C.CATALOGUE
    data: ClassVar[ModuleType] = C
    options_type: ClassVar[type[Options]] = ClassicOptions
    #: reach contexts of the maze (classic: one, everybody's)
    contexts: ClassVar[int] = 1

    def __init__(self, players: int = 4, **options: Any) -> None:
        super().__init__(players, self.options_type(**options))
        first = getattr(self.options, "first_player", 0)
        if not 0 <= first < players:
            raise ValueError(f"first_player must be a seat 0-{players - 1}, not {first}")
        self.first_player: int = first
        cat = self.catalogue
        self.deck_cards: tuple[str, ...] = tuple(cat.box(["path", "action"]))
        self.goal_cards: tuple[str, ...] = tuple(cat.box(["goal"]))
        self.gold_goal = next(k.code for k in cat.of_category("goal") if k.features.gold)

    @property
    def hand_size(self) -> int:
        return C.SETUP[self.players][2]

    def role_deck(self) -> list[str]:
        """The dwarf cards shuffled each round (players + 1, or players with max_saboteurs)."""
        saboteurs, diggers, _ = C.SETUP[self.players]
        if getattr(self.options, "max_saboteurs", False):
            diggers -= 1
        return [C.SABOTEUR] * saboteurs + [C.DIGGER] * diggers

    def new_state(self, seed: int, deal: Deal | None = None) -> ClassicState:
        return ClassicState(self, seed, deal)


class ClassicState(State):
    """A position of a Saboteur match."""

    game: ClassicGame

    def __init__(self, game: ClassicGame, seed: int, deal: Deal | None = None) -> None:
        self.game = game
        self.seed = seed
        self.deal = deal
        self.rng = Rng(seed)
        self.history = []
        self.actors: list[int] = []
        self.results = []
        self._init_gold()
        self._round = 0
        self.terminal = False
        self.turn = game.first_player
        self._setup_round()

    # ------------------------------------------------------------------ set-up
    def _init_gold(self) -> None:
        """Classic: the nugget deck and each seat's nugget cards (private)."""
        self.nuggets: list[str] = self.game.catalogue.box(["gold"])
        self.gold: list[list[str]] = [[] for _ in range(self.game.players)]

    def _setup_round(self) -> None:
        game = self.game
        cat = game.catalogue
        data = game.data
        self._round += 1
        seats = game.players
        self.maze = maze = Maze(cat, game.contexts)
        sx, sy = data.START_CELL
        # context 0 (everybody's) is kept up to date; others are computed when needed
        maze.place(cell(sx, sy), cat.otile["start", False], source_for=(0,))
        for (x, y), code in zip(data.GOAL_CELLS, self._round_goals(), strict=True):
            maze.put_hidden(cell(x, y), code)
        # dwarf cards
        roles = game.role_deck()
        fixed_roles = self.deal.role_deck(self._round) if self.deal is not None else None
        if fixed_roles is not None:
            check_same_cards(fixed_roles, roles, f"dwarf cards of round {self._round}")
            roles = list(reversed(fixed_roles))
        else:
            roles.sort()
            self.rng.shuffle(roles)
        self.roles: list[str] = [roles.pop() for _ in range(seats)]
        self.spare_roles: list[str] = roles  # face down, unseen
        # path and action cards
        cards = list(game.deck_cards)
        fixed = self.deal.deck(self._round) if self.deal is not None else None
        if fixed is not None:
            check_same_cards(fixed, cards, f"deck of round {self._round}")
            self.deck = list(reversed(fixed))  # top of the pile = end of the list
        else:
            self.rng.shuffle(cards)
            self.deck = cards
        self.aside: list[str] = [self.deck.pop() for _ in range(data.SET_ASIDE)]
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.discards: list[str] = []
        self.in_front: list[list[str]] = [[] for _ in range(seats)]
        self.seen: list[dict[int, str]] = [{} for _ in range(seats)]  # map looks
        self.phase = MAIN
        self.pending: tuple[int, tuple[bool, ...]] | None = None
        self.pending_draw = 0
        self.last = self.turn  # who played (or passed) last
        self.finder = -1
        for _ in range(game.hand_size):
            for i in range(seats):
                self._draw((self.turn + i) % seats, 1)
        self.current = self.turn

    def _round_goals(self) -> list[str]:
        """Goal cards for (8,-2), (8,0), (8,2): from the fixed deal, else shuffled.

        A fixed deal gives 3 codes (every round) or 3 per round.
        """
        goals = list(self.game.goal_cards)
        given = self.deal.goals if self.deal is not None else ()
        if given:
            k = len(goals)
            start = (self._round - 1) * k % len(given)
            chosen = list(given[start:start + k])
            check_same_cards(chosen, goals, f"goals of round {self._round}")
            return chosen
        self.rng.shuffle(goals)
        return goals

    # ------------------------------------------------------------------ basics
    @property
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.current

    @property
    def round_no(self) -> int:
        return self._round

    def hand(self, seat: int) -> list[str]:
        return self.hands[seat]

    def role(self, seat: int) -> str:
        return self.roles[seat]

    def broken(self, seat: int) -> set[str]:
        cat = self.game.catalogue
        return {cat[c].tools[0] for c in self.in_front[seat] if cat[c].effect == "break"}

    def can_build(self, seat: int) -> bool:
        """No broken tool (and, in Saboteur 2, no Trapped!) in front of the player."""
        return not self.in_front[seat]

    _LIST_FIELDS: ClassVar[tuple[str, ...]] = (
        "history", "actors", "results", "deck", "aside", "discards", "roles", "spare_roles")
    _NESTED_FIELDS: ClassVar[tuple[str, ...]] = ("hands", "in_front", "seen")

    def clone(self) -> ClassicState:
        new = self.__class__.__new__(self.__class__)
        d = self.__dict__
        nd = new.__dict__
        nd.update(d)
        new.rng = self.rng.clone()
        new.maze = self.maze.clone()
        for name in self._LIST_FIELDS:
            nd[name] = d[name].copy()
        for name in self._NESTED_FIELDS:
            nd[name] = [x.copy() for x in d[name]]
        self._clone_gold(new)
        return new

    def _clone_gold(self, new: ClassicState) -> None:
        new.nuggets = self.nuggets.copy()
        new.gold = [g.copy() for g in self.gold]

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        if self.terminal:
            return []
        if self.phase == ORIENT:
            assert self.pending is not None
            return [Orient(r) for r in self.pending[1]]
        if self.phase == STEAL:
            return [Steal(v) for v in self._victims(self.current)]
        seat = self.current
        hand = self.hands[seat]
        distinct = sorted(set(hand))
        cat = self.game.catalogue
        actions: list[Action] = []
        if self.can_build(seat):
            actions += self._placements(distinct)
        for code in distinct:
            if cat[code].category == "action":
                actions += self._action_targets(seat, code)
        actions += self._extra_options(seat, hand)
        actions += pass_actions(hand, self.game.data.PASS_MAX)
        return actions

    def _extra_options(self, seat: int, hand: list[str]) -> list[Action]:
        """Options besides cards and passing (Saboteur 2: discard 2 to remove a card)."""
        return []

    def _victims(self, thief: int) -> list[int]:
        return []

    def _connected_cells(self) -> list[int]:
        """Empty cells a fitting path card would connect to the start."""
        maze = self.maze
        return [c for c in maze.reach_in[0] if c not in maze.hidden]

    def _cells_for(self, code: str, connected: list[int]) -> list[int]:
        """Where a path card may go (before the fit test); Saboteur 2 overrides for ladders."""
        return connected

    def _placements(self, distinct: list[str]) -> list[Action]:
        cat = self.game.catalogue
        connected = self._connected_cells()
        constraint, open_mask = self.maze.constraint, cat.open_mask
        out: list[Action] = []
        for code in distinct:
            if cat[code].category != "path":
                continue
            cells = self._cells_for(code, connected)
            for rotated, otile in cat.orientations[code]:
                om = open_mask[otile]
                for c in cells:
                    if FITS[constraint.get(c, 0)][om]:
                        x, y = xy(c)
                        out.append(PlacePath(code, x, y, rotated))
        return out

    def _action_targets(self, seat: int, code: str) -> list[Action]:
        kind = self.game.catalogue[code]
        effect = kind.effect
        seats = range(self.game.players)
        if effect == "break":
            tool = kind.tools[0]
            return [PlayOnPlayer(code, s) for s in seats if tool not in self.broken(s)]
        if effect == "repair":
            two = len(kind.tools) > 1
            out: list[Action] = []
            for s in seats:
                broken = self.broken(s)
                out += [PlayOnPlayer(code, s, t if two else None)
                        for t in kind.tools if t in broken]
            return out
        if effect == "rockfall":
            return [PlayOnCell(code, *xy(c)) for c in sorted(self.maze.cells) if self._removable(c)]
        if effect == "map":
            return [PlayOnCell(code, *xy(c)) for c in sorted(self.maze.hidden)]
        return self._more_targets(seat, code)

    def _more_targets(self, seat: int, code: str) -> list[Action]:
        raise AssertionError(code)

    def _removable(self, c: int) -> bool:
        """Rockfall: any path card except the start and the goals."""
        cat = self.game.catalogue
        return cat[cat.codes[self.maze.cells[c]]].category == "path"

    # ------------------------------------------------------------------ explanations
    def explain(self, action: Action) -> IllegalAction:
        seat = self.current
        cat = self.game.catalogue
        if self.phase == ORIENT:
            if isinstance(action, Orient):
                return InvalidTarget("that orientation is not on offer; type ? for the choices")
            return WrongPhase("first choose how the revealed goal lies: orient or orient r")
        if self.phase == STEAL:
            if isinstance(action, Steal):
                return InvalidTarget("steal from another player who has gold")
            return WrongPhase("choose whom to steal from: steal>SEAT")
        if isinstance(action, (Orient, Steal)):
            return WrongPhase(f"{action} is not on offer now")
        if not isinstance(action, (PlacePath, PlayOnCell, PlayOnPlayer, Pass, Discard)):
            return WrongPhase(f"{action} is not a move of this game")
        cards = action.cards if isinstance(action, (Pass, Discard)) else (action.card,)
        missing = Counter(cards) - Counter(self.hands[seat])
        if missing:
            return CardNotInHand(f"you do not hold {', '.join(missing)}")
        if isinstance(action, Pass):
            return InvalidTarget(f"pass discards 1 to {self.game.data.PASS_MAX} card(s)")
        if isinstance(action, Discard):
            return self._explain_discard(seat, action)
        if isinstance(action, PlacePath):
            return self._explain_placement(seat, action)
        kind = cat[action.card]
        if kind.category != "action":
            return InvalidTarget(f"{action.card} is not an action card")
        if isinstance(action, PlayOnCell):
            c = cell(action.x, action.y)
            if kind.effect == "rockfall":
                return InvalidTarget("rockfall removes a path card (not the start or a goal)")
            if kind.effect == "map":
                return InvalidTarget("the map looks at a face-down goal")
            if c not in self.maze.cells:
                return InvalidTarget(f"{action.card} is not played on a cell")
            return InvalidTarget(f"{action.card} cannot be played there")
        return self._explain_on_player(seat, action)

    def _explain_discard(self, seat: int, a: Discard) -> IllegalAction:
        return WrongPhase("this game has no discard-to-remove option; pass 1 card instead")

    def _explain_placement(self, seat: int, a: PlacePath) -> IllegalAction:
        cat = self.game.catalogue
        if cat[a.card].category != "path":
            return InvalidTarget(f"{a.card} is not a path card")
        if not self.can_build(seat):
            return Blocked(f"you cannot build while {', '.join(self.in_front[seat])} lies "
                           "in front of you")
        c = cell(a.x, a.y)
        if self.maze.occupied(c):
            return IllegalPlacement(f"({a.x}, {a.y}) is taken")
        if not self.maze.fits(c, cat.otile[a.card, a.rotated]):
            return IllegalPlacement(f"{a.card} does not fit at ({a.x}, {a.y}) that way round")
        return IllegalPlacement(f"({a.x}, {a.y}) is not connected to the start")

    def _explain_on_player(self, seat: int, a: PlayOnPlayer) -> IllegalAction:
        kind = self.game.catalogue[a.card]
        if not 0 <= a.target < self.game.players:
            return InvalidTarget(f"there is no seat {a.target}")
        if kind.effect == "break":
            return InvalidTarget(f"a broken {kind.tools[0]} already lies there")
        if kind.effect == "repair":
            if len(kind.tools) > 1 and a.tool not in kind.tools:
                return InvalidTarget(f"name the tool to mend: >{a.target}:{kind.tools[0]} "
                                     f"or >{a.target}:{kind.tools[1]}")
            return InvalidTarget("no matching broken tool lies there")
        return InvalidTarget(f"{a.card} cannot be played on seat {a.target}")

    # ------------------------------------------------------------------ playing
    def _apply(self, action: Action) -> None:
        seat = self.current
        self.actors.append(seat)
        kind = type(action)
        if kind is Orient:
            assert self.pending is not None
            g = self.pending[0]
            self.pending = None
            self.phase = MAIN
            self._reveal(g, action.rotated)  # type: ignore[union-attr]
            if self._settle(seat):
                self._end_turn()
            return
        if kind is Steal:
            self._steal(seat, action.target)  # type: ignore[union-attr]
            return
        self.last = seat
        self.pending_draw = 1
        if self._play(seat, action) and not self._settle(seat):
            return
        self._end_turn()

    def _play(self, seat: int, action: Action) -> bool:
        """Carry out the main option; True when the maze grew (goals to settle)."""
        cat = self.game.catalogue
        hand = self.hands[seat]
        kind = type(action)
        if kind is PlacePath:
            a: Any = action
            hand.remove(a.card)
            c = cell(a.x, a.y)
            self._place(c, cat.otile[a.card, a.rotated])
            return True
        if kind is Pass:
            a = action
            for code in a.cards:
                hand.remove(code)
            self.discards += a.cards
            self.pending_draw = len(a.cards)
            return False
        a = action
        hand.remove(a.card)
        if kind is PlayOnCell:
            self._play_on_cell(seat, a.card, cell(a.x, a.y))
        elif kind is PlayOnPlayer:
            self._play_on_player(seat, a.card, a.target, a.tool)
        else:
            self._play_other(seat, action)
        return False

    def _place(self, c: int, otile: int) -> None:
        self.maze.place(c, otile)

    def _play_on_cell(self, seat: int, code: str, c: int) -> None:
        self.discards.append(code)
        if self.game.catalogue[code].effect == "map":
            self.seen[seat][c] = self.maze.hidden[c]
        else:  # rockfall
            otile = self.maze.remove(c)
            self.discards.append(self.game.catalogue.codes[otile])

    def _play_on_player(self, seat: int, code: str, target: int, tool: str | None) -> None:
        cat = self.game.catalogue
        kind = cat[code]
        if kind.effect == "break":
            self.in_front[target].append(code)
            return
        # repair: mends one tool, both cards are discarded
        tool = tool or kind.tools[0]
        front = self.in_front[target]
        broken = next(c for c in front if cat[c].effect == "break" and cat[c].tools[0] == tool)
        front.remove(broken)
        self.discards += (code, broken)

    def _play_other(self, seat: int, action: Action) -> None:
        raise AssertionError(action)

    def _steal(self, seat: int, target: int) -> None:
        raise AssertionError(target)

    def _end_turn(self) -> None:
        self._draw(self.turn, self.pending_draw)
        self.pending_draw = 0
        if not self.deck and not any(self.hands):
            self._end_round()
            return
        seats = self.game.players
        nxt = (self.turn + 1) % seats
        while not self.hands[nxt]:  # some hand holds cards: an empty one implies an empty pile
            nxt = (nxt + 1) % seats
        self.turn = self.current = nxt
        self.phase = MAIN

    def _draw(self, seat: int, n: int) -> None:
        deck, hand = self.deck, self.hands[seat]
        for _ in range(min(n, len(deck))):
            hand.append(deck.pop())

    # ------------------------------------------------------------------ goals
    def _settle(self, actor: int) -> bool:
        """Reveal reached goals, stone first, then by x and y, until none is left.

        Returns False when the state stopped: the gold was reached (round over)
        or a goal's orientation waits for the actor's decision.
        """
        maze = self.maze
        cat = self.game.catalogue
        while True:
            reached = maze.reached_hidden()
            if not reached:
                return True
            reached.sort(key=lambda c: (bool(cat[maze.hidden[c]].features.gold), c))
            g = reached[0]
            options = goal_orientations(maze, g)
            if len(options) > 1 and not cat[maze.hidden[g]].features.gold:
                self.phase = ORIENT
                self.pending = (g, options)
                self.current = actor
                return False
            gold = bool(cat[maze.hidden[g]].features.gold)
            self._reveal(g, options[0])
            if gold:
                self.finder = actor
                self._end_round()
                return False

    def _reveal(self, g: int, rotated: bool) -> None:
        cat = self.game.catalogue
        self.maze.place(g, cat.otile[self.maze.hidden[g], rotated])

    # ------------------------------------------------------------------ round end
    def _end_round(self) -> None:
        earned, details = self._pay_round()
        details = {"winners": details.pop("winners"), "finder": self.finder,
                   "roles": list(self.roles), "spare_roles": sorted(self.spare_roles), **details}
        self.results.append(RoundResult(self._round, earned, details))
        self.phase = MAIN
        self.pending = None
        self.next_turn = (self.last + 1) % self.game.players
        if not self._start_thefts():
            self._next_round()

    def _start_thefts(self) -> bool:
        """Saboteur 2 settles thefts here; True when a thief's decision is pending."""
        return False

    def _next_round(self) -> None:
        self.phase = MAIN
        if self._round == self.game.data.ROUNDS:
            self.terminal = True
            return
        self.turn = self.next_turn
        self._setup_round()

    def _pay_round(self) -> tuple[list[int], dict[str, Any]]:
        """Hand out the round's gold; returns what each seat earned and the details."""
        n = self.game.players
        earned = [0] * n
        cat = self.game.catalogue
        if self.finder >= 0:
            order = [(self.finder - i) % n for i in range(n)]  # finder, then counter-clockwise
            takers = [s for s in order if self._digger_paid(s)]
            drawn = [self._draw_nugget() for _ in range(min(n, len(self.nuggets)))]
            drawn.sort(key=lambda code: -cat[code].value)
            if not takers:  # nobody may take them: they go back
                self.nuggets += drawn
                self.nuggets.sort()
            for i, code in enumerate(drawn if takers else ()):
                seat = takers[i % len(takers)]
                self.gold[seat].append(code)
                earned[seat] += cat[code].value
            return earned, {"winners": "gold-diggers"}
        saboteurs = [s for s in range(n) if self.roles[s] == C.SABOTEUR]
        owed = C.SABOTEUR_PAY.get(len(saboteurs), 0)
        for s in saboteurs:
            for code in self._pay_from_nuggets(owed):
                self.gold[s].append(code)
                earned[s] += cat[code].value
        return earned, {"winners": "saboteurs" if saboteurs else "nobody"}

    def _digger_paid(self, seat: int) -> bool:
        if self.roles[seat] != C.DIGGER:
            return False
        return not (getattr(self.game.options, "sabotaged_diggers_get_nothing", False)
                    and self.broken(seat))

    def _draw_nugget(self) -> str:
        return self.nuggets.pop(self.rng.below(len(self.nuggets)))

    def _pay_from_nuggets(self, owed: int) -> list[str]:
        """Largest nugget card not above what is still owed, first."""
        cat = self.game.catalogue
        paid: list[str] = []
        while owed > 0:
            fitting = [c for c in self.nuggets if cat[c].value <= owed]
            if not fitting:
                break
            code = max(fitting, key=lambda c: cat[c].value)
            self.nuggets.remove(code)
            paid.append(code)
            owed -= cat[code].value
        return paid

    # ------------------------------------------------------------------ outcome
    def scores(self) -> list[int]:
        cat = self.game.catalogue
        return [sum(cat[c].value for c in g) for g in self.gold]

    def winners(self) -> list[int]:
        totals = self.scores()
        best = max(totals)
        return [s for s, t in enumerate(totals) if t == best]

    def returns(self) -> list[float]:
        """At the end: 1 for each seat sharing first place, 0 for the others."""
        if not self.terminal:
            return [0.0] * self.game.players
        top = set(self.winners())
        return [1.0 if s in top else 0.0 for s in range(self.game.players)]

    def census(self) -> Counter[str]:
        cat = self.game.catalogue
        cards: Counter[str] = Counter(self.deck)
        for pile in (*self.hands, *self.in_front, self.discards, self.aside, self.roles,
                     self.spare_roles, *self._gold_piles()):
            cards.update(pile)
        cards.update(cat.codes[t] for t in self.maze.cells.values())
        cards.update(self.maze.hidden.values())
        return cards

    def _gold_piles(self) -> list[list[str]]:
        return [self.nuggets, *self.gold]

    def shuffle_hidden(self, seat: int | None, rng: Rng) -> ClassicState:
        """A copy in which everything ``seat`` cannot know is dealt anew.

        Other hands, the draw pile and the set-aside cards are reshuffled among
        themselves; other seats' dwarf cards (this round) with the spare ones;
        the face-down goals the seat has not looked at; other seats' gold.
        """
        new = self.clone()
        others = [s for s in range(self.game.players) if s != seat]
        *hands, new.deck, new.aside = redeal(rng, [*(new.hands[s] for s in others), new.deck,
                                                   new.aside])
        for s, hand in zip(others, hands, strict=True):
            new.hands[s] = hand
        if not self.terminal:
            unknown = [s for s in others if s not in self._known_roles(seat)]
            *roles, new.spare_roles = redeal(rng, [*([new.roles[s]] for s in unknown),
                                                   new.spare_roles])
            for s, role in zip(unknown, roles, strict=True):
                new.roles[s] = role[0]
        seen = new.seen[seat] if seat is not None else {}
        pending = new.pending[0] if new.pending is not None else None
        cells = [c for c in sorted(new.maze.hidden) if c not in seen and c != pending]
        goals = [new.maze.hidden[c] for c in cells]
        rng.shuffle(goals)
        for c, code in zip(cells, goals, strict=True):
            new.maze.hidden[c] = code
        if not self.terminal:
            new._shuffle_gold(others, rng)
        return new

    def _known_roles(self, seat: int | None) -> set[int]:
        """Seats whose dwarf card ``seat`` has seen this round (Saboteur 2: inspection)."""
        return set()

    def _shuffle_gold(self, others: list[int], rng: Rng) -> None:
        *piles, nuggets = redeal(rng, [*(self.gold[s] for s in others), self.nuggets])
        for s, pile in zip(others, piles, strict=True):
            self.gold[s] = pile
        self.nuggets = sorted(nuggets)

    def view(self, seat: int | None) -> Any:
        from .view import classic_view

        return classic_view(self, seat)
