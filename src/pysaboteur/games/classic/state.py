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
from itertools import repeat
from types import ModuleType
from typing import Any, ClassVar

from ...core import CLONES, RNG_SET, UNKNOWN, CloneSpec, compiled_clone
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
from ...engine.cards import Catalogue, derived
from ...engine.errors import (
    Blocked,
    CardNotInHand,
    IllegalAction,
    IllegalPlacement,
    InvalidTarget,
    WrongPhase,
)
from ...engine.game import (
    Deal,
    Game,
    Options,
    RoundResult,
    check_same_cards,
    deal_round,
    draw,
    option,
)
from ...engine.goals import GoalReveals, goal_orientations
from ...engine.maze import Maze, Memo, SharedMaze, cell
from ...engine.menu import LISTED, Entry, MenuState, compiled_setup
from ...engine.moves import DISTINCT, SINGLES, Template, add_template_passes, hand_template
from ...engine.position import StartLayout
from ...engine.rng import Rng
from ...engine.secrecy import redeal
from ...engine.views import LaterRoundEnd
from . import cards as C
from .menu import (
    K_CELL,
    K_LADDER,
    K_PATH,
    K_TOOL,
    M_CELL,
    M_CODE,
    M_LIST,
    M_PASS,
    Board,
    FrontsMemo,
    Tables,
    decode,
    tables,
)

MAIN, ORIENT, STEAL = 0, 1, 2
PHASE_NAMES = ("main", "orient", "steal")


@dataclass(frozen=True)
class ClassicOptions(Options):
    #: official optional rule: gold-diggers with a broken tool at round end get no gold
    sabotaged_diggers_get_nothing: bool = option(False)
    #: Board Game Arena: one gold-digger card less, all dwarf cards dealt, none set aside
    max_saboteurs: bool = option(False)
    #: the seat that begins round 1 ("the youngest player")
    first_player: int = option(0, seat=True)


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
        self.tables: Tables = tables(cat)

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

    def start_layout(self) -> StartLayout:
        """Round 1's dealing (Saboteur 2 inherits it with its own data and hand size)."""
        return StartLayout(deck=self.deck_cards, aside=self.data.SET_ASIDE,
                           hand=self.hand_size, first=self.first_player,
                           goal_box=self.goal_cards, goal_cells=tuple(self.data.GOAL_CELLS),
                           goal_orderings=self.data.ROUNDS, roles=tuple(self.role_deck()))


def _nugget_box(cat: Catalogue) -> tuple[str, ...]:
    """The nugget cards of the box (a match's gold to share out), made once a catalogue."""
    return tuple(cat.box(["gold"]))


class ClassicState(SharedMaze, GoalReveals, MenuState):
    """A position of a Saboteur match."""

    MAIN_PHASE = MAIN
    #: passes of one card and no option besides cards and passing (``_extra_menu``): a
    #: hand's distinct cards are all its menu needs, and give it in the same order
    DISTINCT_HAND: ClassVar[bool] = C.PASS_MAX == 1
    #: the cards in front and the K_TOOL cards' entries of ``in_front`` (``_fronts``)
    _fronts_memo: FrontsMemo | None = None

    game: ClassicGame

    def __init__(self, game: ClassicGame, seed: int, deal: Deal | None = None) -> None:
        self.game = game
        self._begin(game, seed, deal)
        self._init_gold()
        self._round = 0
        self.terminal = False
        self.turn = game.first_player
        fast = compiled_setup(type(self)) if deal is None else None
        if fast is None:
            self._setup_round()
        else:  # the compiled core (issue 24): the same round, the same numbers drawn
            fast(self)

    # ------------------------------------------------------------------ set-up
    def _init_gold(self) -> None:
        """Classic: the nugget deck and each seat's nugget cards (private)."""
        self.nuggets: list[str] = list(derived(self.game.catalogue, _nugget_box))
        self.gold: list[list[str]] = [[] for _ in range(self.game.players)]

    def _setup_round(self) -> None:
        game = self.game
        cat = game.catalogue
        data = game.data
        self._round += 1
        seats = game.players
        self.maze = maze = Maze(cat, game.contexts)
        self._mt = Memo()  # the Board of the maze (see _menu)
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
        self.discards: list[str] = []  # face up
        self.passed: list[tuple[int, str]] = []  # face down: (seat, card), in the order passed
        # where this round's moves begin in the log; a later round is set up while the
        # action that ended the last one is applied, before it joins the history
        self.round_start = len(self.history) + (self._round > 1)
        #: the cards lying in front of each seat; immutable, replaced at every change (so
        #: the same object means the same cards: see ``FrontsMemo``)
        self.in_front: tuple[tuple[str, ...], ...] = ((),) * seats
        self.seen: list[dict[int, str]] = [{} for _ in range(seats)]  # map looks
        self.phase = MAIN
        self.pending: tuple[int, tuple[bool, ...]] | None = None
        self.pending_draw = 0
        self.last = self.turn  # who played (or passed) last
        self.finder = -1
        deal_round(self.deck, self.hands, self.turn, game.hand_size)
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
    def role(self, seat: int) -> str:
        return self.roles[seat]

    def broken(self, seat: int) -> set[str]:
        cat = self.game.catalogue
        return {cat[c].tools[0] for c in self.in_front[seat] if cat[c].effect == "break"}

    def can_build(self, seat: int) -> bool:
        """No broken tool (and, in Saboteur 2, no Trapped!) in front of the player."""
        return not self.in_front[seat]

    # Cloning copies what changes on most turns (hands, piles, the log).  What
    # changes rarely is shared copy-on-write: the maze (``_wmaze``) and the fields
    # below, which the rules replace instead of changing in place: ``results``,
    # ``aside``, ``roles``, ``spare_roles``, ``in_front``, ``seen``, the gold.
    _LIST_FIELDS: ClassVar[tuple[str, ...]] = ("history", "actors", "deck", "discards", "passed")

    def clone(self) -> ClassicState:
        fast = CLONES.get(type(self), UNKNOWN)  # the compiled core's (core/clone.c), or None
        if fast is UNKNOWN:
            fast = compiled_clone(type(self), CloneSpec(
                self._LIST_FIELDS, ("hands",), None, "rng", RNG_SET, "_mt", True))
        if fast is not None:
            return fast(self)  # type: ignore[no-any-return]
        new = self.__class__.__new__(self.__class__)
        d = self.__dict__
        nd = new.__dict__ = d.copy()  # see engine.game.State.clone on copying the dict
        rng = new.rng = Rng.__new__(Rng)
        rng.state = self.rng.state
        old = self._mt
        old.shared = True
        memo = new._mt = Memo.__new__(Memo)
        memo.value = old.value
        memo.shared = True
        for name in self._LIST_FIELDS:
            nd[name] = d[name].copy()
        new.hands = [h.copy() for h in self.hands]
        return new

    # ------------------------------------------------------------------ legality
    # Legal actions come from a menu (see ``menu.py``): listing builds every action as
    # the menu finds them, the rollout path counts them and decodes one.  Both give the
    # same order.
    def _menu(self, listing: bool = False) -> list[Entry]:
        """The menu.  ``listing``: every action will be built (``legal_actions``), so the
        menu is one entry (``M_LIST``) holding them all, joined as they are found, and path
        cards' placements are built at once instead of counted first."""
        if self.phase != MAIN or self.terminal:
            return self._choice_menu()
        seat = self.current
        hand = self.hands[seat]
        T = self.game.tables
        if self.DISTINCT_HAND:
            h = sorted(set(hand))
            tpl = DISTINCT[len(h)]
        else:
            h = sorted(hand)
            tpl = hand_template(h)
        menu: list[Entry] = []
        listed: list[Action] | None = [] if listing else None  # the actions, in menu order
        maze = self.maze
        board = self._mt.value
        if board is None or board.maze is not maze or board.version != maze.version:
            board = self._mt.value = Board(maze, T)
        kinds = T.kind
        cards = []
        front = self.in_front[seat]
        build = not front or self.can_build(seat)
        for code in h if len(tpl.ones) == len(h) else map(h.__getitem__, tpl.ones):
            kind = kinds[code]
            if kind == K_PATH:
                if not build:
                    continue
                if listed is not None:
                    listed += board.acts.get(code) or board.placements(code)
                else:  # counted, not built: the rollout path decodes only the one it picks
                    n = sum(board.ks.translate(T.nfit[code]))  # a loop in C, see Tables.nfit
                    if n:
                        menu.append((n, M_CODE, code, board))
            elif kind == K_LADDER:
                if not build:
                    continue
                lst = board.acts.get(code)
                if lst is None:
                    lst = board.placements(code, self._ladder_cells(board))
                if listed is not None:
                    listed += lst
                elif lst:
                    menu.append((len(lst), M_LIST, lst, None))
            else:  # action cards come after every path card (codes of both may interleave)
                cards.append(code)
        tools = None
        for code in cards:
            kind = kinds[code]
            if kind == K_TOOL:
                if tools is None:
                    fronts = self._fronts_memo
                    if fronts is None or fronts.fronts is not self.in_front:
                        fronts = self._fronts()
                    tools = fronts.entries
                entry = tools[code]
                if entry is None:
                    continue
                if listed is not None:
                    listed += entry[2]
                else:
                    menu.append(entry)
            elif kind == K_CELL:
                cells = board.cell_targets(code, T.effect[code], T.is_path)
                if not cells:
                    continue
                if listed is not None:
                    listed += board.acts.get(code) or board.on_cells(code)
                else:
                    menu.append((len(cells), M_CELL, code, board))
            else:
                lst = self._more_targets(seat, code)
                if listed is not None:
                    listed += lst
                elif lst:
                    menu.append((len(lst), M_LIST, lst, None))
        if front:
            self._extra_menu(seat, h, tpl, menu, listed)
        if h:
            count = tpl.passes[self.game.data.PASS_MAX]
            if listed is None:
                menu.append((count, M_PASS, h, tpl))
            elif self.DISTINCT_HAND:  # passes of one card: one per distinct card
                listed += map(SINGLES.__getitem__, h)
            else:
                add_template_passes(listed, h, tpl, count)
        return menu if listed is None else [(len(listed), M_LIST, listed, LISTED)]

    def _choice_menu(self) -> list[Entry]:
        """Decisions outside the main option: a goal's orientation, a theft's victim."""
        if self.terminal:
            return []
        if self.phase == ORIENT:
            assert self.pending is not None
            ways = [Orient(r) for r in self.pending[1]]
            return [(len(ways), M_LIST, ways, None)]
        victims = [Steal(v) for v in self._victims(self.current)]
        return [(len(victims), M_LIST, victims, None)]

    _decode = staticmethod(decode)

    def _fronts(self) -> FrontsMemo:
        """The memo of the cards in front of the players, worked out again if they changed."""
        fronts = self.in_front
        memo = self._fronts_memo
        if memo is not None and memo.fronts is fronts:
            return memo
        T = self.game.tables
        if not any(fronts):
            bits = [0] * len(fronts)
        else:
            bit = T.front_bit.__getitem__
            bits = [sum(map(bit, front)) if front else 0 for front in fronts]
        memo = self._fronts_memo = FrontsMemo(fronts, T.entries_for(bits))
        return memo

    def _ladder_cells(self, board: Board) -> tuple[list[int], bytes]:
        """Where a ladder may go: sorted cells and their fit constraints (Saboteur 2)."""
        return [], b""

    def _more_targets(self, seat: int, code: str) -> list[Action]:
        """Targets of the action cards only Saboteur 2 has."""
        raise AssertionError(code)

    def _extra_menu(self, seat: int, hand: list[str], tpl: Template, menu: list[Entry],
                    listed: list[Action] | None) -> None:
        """Options besides cards and passing (Saboteur 2: discard 2 to remove a card): their
        actions added to ``listed`` when listing, else their entries to ``menu``."""

    def _victims(self, thief: int) -> list[int]:
        return []

    # ------------------------------------------------------------------ explanations
    def explain(self, action: Action) -> IllegalAction:
        seat = self.current
        cat = self.game.catalogue
        if self.phase == ORIENT:
            if isinstance(action, Orient):
                return InvalidTarget("orientation-not-offered")
            return WrongPhase("orient-first")
        if self.phase == STEAL:
            if isinstance(action, Steal):
                return InvalidTarget("steal-target")
            return WrongPhase("steal-first")
        if isinstance(action, (Orient, Steal)):
            return WrongPhase("not-on-offer", action=str(action))
        if not isinstance(action, (PlacePath, PlayOnCell, PlayOnPlayer, Pass, Discard)):
            return WrongPhase("not-a-move-here", action=str(action))
        cards = action.cards if isinstance(action, (Pass, Discard)) else (action.card,)
        missing = Counter(cards) - Counter(self.hands[seat])
        if missing:
            return CardNotInHand("not-in-hand", cards=", ".join(missing))
        if isinstance(action, Pass):
            return InvalidTarget("pass-count-s", n=self.game.data.PASS_MAX)
        if isinstance(action, Discard):
            return self._explain_discard(seat, action)
        if isinstance(action, PlacePath):
            return self._explain_placement(seat, action)
        kind = cat[action.card]
        if kind.category != "action":
            return InvalidTarget("not-action-card", card=action.card)
        if isinstance(action, PlayOnCell):
            c = cell(action.x, action.y)
            if kind.effect == "rockfall":
                return InvalidTarget("rockfall-target")
            if kind.effect == "map":
                return InvalidTarget("map-target")
            if c not in self.maze.cells:
                return InvalidTarget("not-on-cell", card=action.card)
            return InvalidTarget("not-there", card=action.card)
        return self._explain_on_player(seat, action)

    def _explain_discard(self, seat: int, a: Discard) -> IllegalAction:
        return WrongPhase("no-discard-option")

    def _explain_placement(self, seat: int, a: PlacePath) -> IllegalAction:
        cat = self.game.catalogue
        if cat[a.card].category != "path":
            return InvalidTarget("not-path-card", card=a.card)
        if not self.can_build(seat):
            return Blocked("cannot-build", cards=", ".join(self.in_front[seat]))
        c = cell(a.x, a.y)
        if self.maze.occupied(c):
            return IllegalPlacement("cell-taken", x=a.x, y=a.y)
        if not self.maze.fits(c, cat.otile[a.card, a.rotated]):
            return IllegalPlacement("does-not-fit", card=a.card, x=a.x, y=a.y)
        return self._explain_unplaceable(a, c)

    def _explain_unplaceable(self, a: PlacePath, c: int) -> IllegalAction:
        """Why a path card that fits a free cell cannot go there (Saboteur 2's ladders
        have reasons of their own)."""
        return IllegalPlacement("not-connected", x=a.x, y=a.y)

    def _explain_on_player(self, seat: int, a: PlayOnPlayer) -> IllegalAction:
        kind = self.game.catalogue[a.card]
        if not 0 <= a.target < self.game.players:
            return InvalidTarget("no-seat", seat=a.target)
        if kind.effect == "break":
            return InvalidTarget("already-broken", tool=kind.tools[0])
        if kind.effect == "repair":
            if len(kind.tools) > 1 and a.tool not in kind.tools:
                return InvalidTarget("name-the-tool", seat=a.target, first=kind.tools[0],
                                     second=kind.tools[1])
            return InvalidTarget("no-broken-tool-there")
        return InvalidTarget("not-on-seat", card=a.card, seat=a.target)

    # ------------------------------------------------------------------ playing
    def _apply(self, action: Action) -> None:
        seat = self.current
        self.actors.append(seat)
        kind = type(action)
        if kind is PlacePath:  # the common case, inline
            a: Any = action
            self.last = seat
            self.pending_draw = 1
            self.hands[seat].remove(a[0])
            self._place(((a[1] + 512) << 10) | (a[2] + 512), self.game.catalogue.otile[a[0], a[3]])
            if self._settle(seat):
                self._end_turn()
            return
        if kind is Pass:  # the commonest move in random play, inline too
            self.last = seat
            hand = self.hands[seat]
            a = action
            cards = a.cards
            for code in cards:
                hand.remove(code)
            if len(cards) == 1:
                self.passed.append((seat, cards[0]))
            else:
                self.passed += zip(repeat(seat), cards)
            self.pending_draw = len(cards)
            self._end_turn()
            return
        if kind is Orient:
            if self._orient(seat, action.rotated):  # type: ignore[union-attr]
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
        """Lay a path card; a ladder (Saboteur 2) is itself joined to the start."""
        ladder = otile in self.game.tables.ladder_tiles
        self._wmaze().place(c, otile, None, (0,) if ladder else ())

    def _play_on_cell(self, seat: int, code: str, c: int) -> None:
        self.discards.append(code)
        if self.game.tables.effect[code] == "map":
            seen = self.seen = self.seen.copy()
            seen[seat] = {**seen[seat], c: self.maze.hidden[c]}
        else:  # rockfall
            otile = self._wmaze().remove(c)
            self.discards.append(self.game.catalogue.codes[otile])

    def _play_on_player(self, seat: int, code: str, target: int, tool: str | None) -> None:
        T = self.game.tables
        if T.effect[code] == "break":
            self._put_in_front(target, code)
            return
        # repair: mends one tool (a break card's bit is its tool's), both cards are discarded
        bit = T.tool_bit[tool or T.tools_of[code][0]]
        broken = next(c for c in self.in_front[target] if T.front_bit[c] == bit)
        self._take_in_front(target, broken)
        self.discards += (code, broken)

    def _put_in_front(self, seat: int, code: str) -> None:
        self._set_front(seat, (*self.in_front[seat], code))

    def _take_in_front(self, seat: int, code: str) -> None:
        front = list(self.in_front[seat])
        front.remove(code)
        self._set_front(seat, tuple(front))

    def _set_front(self, seat: int, cards: tuple[str, ...]) -> None:
        """Replace the cards in front of ``seat`` (a new ``in_front``, never a change in place)."""
        fronts = self.in_front
        self.in_front = (*fronts[:seat], cards, *fronts[seat + 1:])

    def _play_other(self, seat: int, action: Action) -> None:
        raise AssertionError(action)

    def _steal(self, seat: int, target: int) -> None:
        raise AssertionError(target)

    def _end_turn(self) -> None:
        deck, hands = self.deck, self.hands
        if deck:
            draw(deck, hands[self.turn], self.pending_draw)
        elif not any(hands):
            self.pending_draw = 0
            self._end_round()
            return
        self.pending_draw = 0
        seats = len(hands)
        nxt = (self.turn + 1) % seats
        while not hands[nxt]:  # some hand holds cards: an empty one implies an empty pile
            nxt = (nxt + 1) % seats
        self.turn = self.current = nxt
        self.phase = MAIN

    def _draw(self, seat: int, n: int) -> None:
        draw(self.deck, self.hands[seat], n)

    # ------------------------------------------------------------------ goals
    def _settle(self, actor: int) -> bool:
        """Reveal reached goals, stone first, then by x and y, until none is left.

        Returns False when the state stopped: the gold was reached (round over)
        or a goal's orientation waits for the actor's decision.
        """
        maze = self.maze
        reach_in = maze.reach_in[0]
        for c in maze.hidden:
            if c in reach_in:
                break
        else:  # the common case: no face-down goal reached
            return True
        cat = self.game.catalogue
        while True:
            maze = self.maze
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
        maze = self._wmaze()
        maze.place(g, cat.otile[maze.hidden[g], rotated])

    # ------------------------------------------------------------------ round end
    def _end_round(self) -> None:
        earned, details = self._pay_round()
        details = {"winners": details.pop("winners"), "side": details.pop("side"),
                   "finder": self.finder,
                   "roles": list(self.roles), "spare_roles": sorted(self.spare_roles), **details}
        self.results = [*self.results, RoundResult(self._round, earned, details)]
        # the board as the round ended, made once when first read (``last_round``); the maze
        # is marked shared so that nothing changes it under the holder (a change copies it)
        self._last_round = LaterRoundEnd(self._round,
                                         "gold" if self.finder >= 0 else "exhausted",
                                         self.maze, self._round_end_extra())
        self._mt.shared = True
        self.phase = MAIN
        self.pending = None
        self.next_turn = (self.last + 1) % self.game.players
        if not self._start_thefts():
            self._next_round()

    def _round_end_extra(self) -> dict[str, Any]:
        """The public facts of the round's end besides the board (``RoundEnd.extra``)."""
        return {"in_front": self.in_front}

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
        value = self.game.tables.value
        self.nuggets = self.nuggets.copy()  # shared with clones: copied before a change
        self.gold = [g.copy() for g in self.gold]
        if self.finder >= 0:
            order = [(self.finder - i) % n for i in range(n)]  # finder, then counter-clockwise
            takers = [s for s in order if self._digger_paid(s)]
            drawn = [self._draw_nugget()
                     for _ in range(min(C.DIGGER_DRAW[n], len(self.nuggets)))]
            drawn.sort(key=lambda code: -value[code])
            if not takers:  # nobody may take them: they go back
                self.nuggets += drawn
                self.nuggets.sort()
            for i, code in enumerate(drawn if takers else ()):
                seat = takers[i % len(takers)]
                self.gold[seat].append(code)
                earned[seat] += value[code]
            return earned, {"winners": [s for s in range(n) if self.roles[s] == C.DIGGER],
                            "side": "gold-diggers"}
        saboteurs = [s for s in range(n) if self.roles[s] == C.SABOTEUR]
        owed = C.SABOTEUR_PAY.get(len(saboteurs), 0)
        for s in saboteurs:
            for code in self._pay_from_nuggets(owed):
                self.gold[s].append(code)
                earned[s] += value[code]
        return earned, {"winners": saboteurs, "side": "saboteurs" if saboteurs else "nobody"}

    def _digger_paid(self, seat: int) -> bool:
        if self.roles[seat] != C.DIGGER:
            return False
        return not (getattr(self.game.options, "sabotaged_diggers_get_nothing", False)
                    and self.broken(seat))

    def _draw_nugget(self) -> str:
        return self.nuggets.pop(self.rng.below(len(self.nuggets)))

    def _pay_from_nuggets(self, owed: int) -> list[str]:
        """Largest nugget card not above what is still owed, first."""
        value = self.game.tables.value
        paid: list[str] = []
        while owed > 0:
            fitting = [c for c in self.nuggets if value[c] <= owed]
            if not fitting:
                break
            code = max(fitting, key=value.__getitem__)
            self.nuggets.remove(code)
            paid.append(code)
            owed -= value[code]
        return paid

    # ------------------------------------------------------------------ outcome
    def scores(self) -> list[int]:
        value = self.game.tables.value
        return [sum(map(value.__getitem__, g)) for g in self.gold]

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
        cards.update(code for _, code in self.passed)
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
        new.rng = Rng(rng.next64())  # the generator decides future deals: unknown too
        others = [s for s in range(self.game.players) if s != seat]
        theirs = [i for i, (s, _) in enumerate(new.passed) if s != seat]
        *hands, new.deck, new.aside, passed = redeal(
            rng, [*(new.hands[s] for s in others), new.deck, new.aside,
                  [new.passed[i][1] for i in theirs]])
        for s, hand in zip(others, hands, strict=True):
            new.hands[s] = hand
        for i, code in zip(theirs, passed, strict=True):
            new.passed[i] = (new.passed[i][0], code)
        if not self.terminal:
            new.roles = new.roles.copy()
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
        hidden = new._wmaze().hidden
        for c, code in zip(cells, goals, strict=True):
            hidden[c] = code
        if not self.terminal:
            new._shuffle_gold(others, rng)
        return new

    def _known_roles(self, seat: int | None) -> set[int]:
        """Seats whose dwarf card ``seat`` has seen this round (Saboteur 2: inspection)."""
        return set()

    def _shuffle_gold(self, others: list[int], rng: Rng) -> None:
        *piles, nuggets = redeal(rng, [*(self.gold[s] for s in others), self.nuggets])
        self.gold = self.gold.copy()
        for s, pile in zip(others, piles, strict=True):
            self.gold[s] = pile
        self.nuggets = sorted(nuggets)

    def view(self, seat: int | None) -> Any:
        from .view import classic_view

        return classic_view(self, seat)
