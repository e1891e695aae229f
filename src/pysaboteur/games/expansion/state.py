"""Saboteur 2 (base game + expansion), 2-12 players: the rules (expansion.md).

The base game's state with the expansion's data and a few overrides: the
dealing (10 cards set aside, 6 each, 15 dwarf cards), ladders, the new action
cards, the "discard 2 to remove a card" option, and the pay-out (door rule,
boss, profiteer, geologists, trapped players, thefts).

The maze has one reach context (everybody's: placement and goals; ladders
are sources).  Doors matter only for who wins: when the gold is reached, a
second maze with two contexts, the blue and the green route (green doors,
resp. blue doors, cannot be entered), is built from the cards on the table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

from ...engine.actions import Action, Discard, PlacePath, PlayOnPlayer
from ...engine.cards import Catalogue
from ...engine.errors import IllegalAction, IllegalPlacement, InvalidTarget
from ...engine.game import Deal, Options, RoundResult, option
from ...engine.maze import NO_ENTER, Maze, around, cell
from ...engine.menu import Entry
from ...engine.moves import Template
from ...engine.rng import Rng
from ...engine.secrecy import redeal
from ..classic.menu import M_DISCARD, Board, discards
from ..classic.state import MAIN, STEAL, ClassicGame, ClassicState
from . import cards as C

BLUE_ROUTE, GREEN_ROUTE = 0, 1  # reach contexts of the route maze (see _routes)
#: the cells next to a goal: no ladder goes there.  Goals never move (face down on
#: ``GOAL_CELLS``, turned face up where they lie, never removed by a rockfall), so these
#: cells are the same in every position
NEAR_GOALS = around(cell(x, y) for x, y in C.GOAL_CELLS)
DOOR_RULES = ("bga", "literal")


@dataclass(frozen=True)
class ExpansionOptions(Options):
    #: who wins when the finder's own route is blocked: "bga" (the other team only if its
    #: route is open) or "literal" (the other team, whatever its route)
    door_rule: str = option("bga", choices=DOOR_RULES)
    #: the seat that begins round 1
    first_player: int = option(0, seat=True)

    def __post_init__(self) -> None:
        if self.door_rule not in DOOR_RULES:
            raise ValueError(f"door_rule must be one of {DOOR_RULES}, not {self.door_rule!r}")


class ExpansionGame(ClassicGame):
    """Saboteur 2: the base game with the expansion, for 2-12 players."""

    name = "expansion"
    title = "Saboteur 2"
    min_players = 2
    max_players = 12
    catalogue: ClassVar[Catalogue] = C.CATALOGUE
    data: ClassVar[ModuleType] = C
    options_type: ClassVar[type[Options]] = ExpansionOptions
    contexts: ClassVar[int] = 1

    @property
    def hand_size(self) -> int:
        return C.HAND_SIZE

    def role_deck(self) -> list[str]:
        return self.catalogue.box(["role"])

    def new_state(self, seed: int, deal: Deal | None = None) -> ExpansionState:
        return ExpansionState(self, seed, deal)


class ExpansionState(ClassicState):
    """A position of a Saboteur 2 match.  ``purse``: each seat's gold, a number."""

    game: ExpansionGame
    DISTINCT_HAND = False  # passes of 1 to 3 cards, and the discard-2 option

    # copy-on-write (replaced, never changed in place): theft_order, hats_aside, thieves,
    # inspected, purse

    # ------------------------------------------------------------------ set-up
    def _init_gold(self) -> None:
        self.purse = [0] * self.game.players

    def _gold_piles(self) -> list[list[str]]:
        return []

    def _setup_round(self) -> None:
        self.theft_order: list[int] = []  # seats with a Theft in front, in the order played
        self.hats_aside: list[str] = []  # dwarf cards set aside by "swap your hats"
        self.thieves: list[int] = []  # thieves still to steal at round end
        self.inspected: list[dict[int, str]] = [{} for _ in range(self.game.players)]
        super()._setup_round()

    # ------------------------------------------------------------------ basics
    def has(self, seat: int, code: str) -> bool:
        return code in self.in_front[seat]

    def trapped(self, seat: int) -> bool:
        return "trapped" in self.in_front[seat]

    def can_build(self, seat: int) -> bool:
        front = self.in_front[seat]
        return not front or front == ("theft",)  # at most one card of a kind lies there

    def has_gold(self) -> list[bool]:
        return [g > 0 for g in self.purse]

    # ------------------------------------------------------------------ legality
    def _ladder_cells(self, board: Board) -> tuple[list[int], bytes]:
        """Empty cells next to a face-up card and not next to a goal (face down or not),
        kept with the board (every ladder card of every hand uses them until the maze
        changes)."""
        cells = board.ladders
        if cells is None:
            maze = board.maze
            cs = sorted(maze.constraint.keys() - NEAR_GOALS)
            cells = board.ladders = (cs, bytes(map(maze.constraint.__getitem__, cs)))
        return cells

    def _explain_unplaceable(self, a: PlacePath, c: int) -> IllegalAction:
        """A ladder needs no connection (it is joined to the start itself): it is refused
        only away from every card on the table or next to a goal."""
        if self.game.catalogue[a.card].features.ladder is None:
            return super()._explain_unplaceable(a, c)
        if c not in self.maze.constraint:
            return IllegalPlacement("ladder-next-to-path")
        return IllegalPlacement("ladder-near-goal")

    def _more_targets(self, seat: int, code: str) -> list[Action]:
        """Targets of the cards aimed at seats that depend on more than the cards in front
        (hands-off and free at last are ``K_TOOL`` cards: ``menu.ToolEntries``)."""
        n = self.game.players
        T = self.game.tables
        effect = T.effect[code]
        mine = T.on_player[code]  # the card's action on each seat
        if effect == "theft":
            return [] if "theft" in self.in_front[seat] else [mine[seat]]
        if effect in ("swap-hand", "inspection"):  # every other seat
            return mine[:seat] + mine[seat + 1:n]
        if effect == "trapped":
            fronts = self.in_front
            return [mine[s] for s in range(n) if s != seat and "trapped" not in fronts[s]]
        if effect == "swap-hats":
            return mine[:n] if self.spare_roles else []
        raise AssertionError(code)

    def _extra_menu(self, seat: int, hand: list[str], tpl: Template, menu: list[Entry],
                    listed: list[Action] | None) -> None:
        """Discard 2 cards to remove one card lying in front of oneself."""
        front = self.in_front[seat]
        if front and len(hand) >= C.DISCARD_TO_REMOVE:
            combos = [(hand[i], hand[j]) for i, j in tpl[1]]
            targets = sorted(set(front))
            if listed is not None:
                listed += discards(combos, targets)
            else:
                menu.append((len(combos) * len(targets), M_DISCARD, combos, targets))

    def _victims(self, thief: int) -> list[int]:
        return [s for s in range(self.game.players) if s != thief and self.purse[s] > 0]

    def _explain_discard(self, seat: int, a: Discard) -> IllegalAction:
        if len(a.cards) != C.DISCARD_TO_REMOVE:
            return InvalidTarget("discard-count", n=C.DISCARD_TO_REMOVE)
        return InvalidTarget("not-in-front", card=a.remove)

    def _explain_on_player(self, seat: int, a: PlayOnPlayer) -> IllegalAction:
        effect = self.game.catalogue[a.card].effect
        reasons = {
            "theft": "theft-target",
            "hands-off": "hands-off-target",
            "swap-hand": "swap-hand-target",
            "inspection": "inspection-target",
            "swap-hats": "swap-hats-empty",
            "trapped": "trapped-target",
            "free": "free-target",
        }
        if effect in reasons and 0 <= a.target < self.game.players:
            return InvalidTarget(reasons[effect])
        return super()._explain_on_player(seat, a)

    # ------------------------------------------------------------------ playing
    def _play_on_player(self, seat: int, code: str, target: int, tool: str | None) -> None:
        effect = self.game.tables.effect[code]
        if effect in ("break", "repair"):
            super()._play_on_player(seat, code, target, tool)
            return
        if effect in ("theft", "trapped"):
            self._put_in_front(target, code)
            if effect == "theft":
                self.theft_order = [*self.theft_order, target]
            return
        self.discards.append(code)
        if effect == "hands-off":
            self._take_from_front(target, "theft")
        elif effect == "free":
            self._take_from_front(target, "trapped")
        elif effect == "swap-hand":
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            self._draw(target, 1)  # the other player draws, the one who played it does not
            self.pending_draw = 0
        elif effect == "inspection":
            inspected = self.inspected = self.inspected.copy()
            inspected[seat] = {**inspected[seat], target: self.roles[target]}
        elif effect == "swap-hats":
            self.hats_aside = [*self.hats_aside, self.roles[target]]
            roles = self.roles = self.roles.copy()
            spare = self.spare_roles = self.spare_roles.copy()
            roles[target] = spare.pop()
            self.inspected = [{s: r for s, r in known.items() if s != target}
                              for known in self.inspected]
        else:
            raise AssertionError(code)

    def _take_from_front(self, seat: int, code: str) -> None:
        self._take_in_front(seat, code)
        self.discards.append(code)
        if code == "theft":
            order = self.theft_order = self.theft_order.copy()
            order.remove(seat)

    def _play(self, seat: int, action: Action) -> bool:
        if type(action) is Discard:
            hand = self.hands[seat]
            for code in action.cards:
                hand.remove(code)
            self.passed += [(seat, code) for code in action.cards]
            self._take_from_front(seat, action.remove)
            self.pending_draw = 1
            return False
        return super()._play(seat, action)

    # ------------------------------------------------------------------ round end
    def _routes(self) -> tuple[bool, bool]:
        """Is there a route to the gold passing no green door (B), no blue door (G)?"""
        cat = self.game.catalogue
        maze = self.maze
        routes = Maze(cat, 2)
        for c in maze.order:
            otile = maze.cells[c]
            door = cat.features[otile].door
            blocks = None
            if door is not None:  # BLUE_ROUTE enters no green door, GREEN_ROUTE no blue one
                blocks = (NO_ENTER if door == C.GREEN else 0, NO_ENTER if door == C.BLUE else 0)
            routes.place(c, otile, blocks, (0, 1) if c in maze.sources[0] else ())
        gold = next(c for c, t in maze.cells.items() if cat.features[t].gold)
        return gold in routes.reach[BLUE_ROUTE], gold in routes.reach[GREEN_ROUTE]

    def winning_teams(self, finder_role: str, blue: bool, green: bool) -> list[str]:
        """The door rule: which colours win, given the finder and the open routes."""
        own = C.TEAM_OF.get(finder_role)
        if own is None:
            return [team for team, ok in ((C.BLUE, blue), (C.GREEN, green)) if ok]
        other = C.GREEN if own == C.BLUE else C.BLUE
        if (blue if own == C.BLUE else green):
            return [own]
        if self.game.options.door_rule == "literal" or (green if own == C.BLUE else blue):  # type: ignore[attr-defined]
            return [other]
        return []

    def team_winners(self, teams: list[str]) -> list[int]:
        """The seats that win when ``teams`` (colours) win the gold: their diggers and,
        if any team wins, the boss and the profiteer."""
        roles = self.roles
        winners = [s for s, r in enumerate(roles) if C.TEAM_OF.get(r) in teams]
        if teams:
            winners += [s for s, r in enumerate(roles) if r in (C.BOSS, C.PROFITEER)]
        return winners

    def saboteur_winners(self) -> list[int]:
        """The seats that win when the gold is not reached."""
        roles = self.roles
        if C.SABOTEUR not in roles:  # nobody can win as a saboteur [decision]
            return []
        return [s for s, r in enumerate(roles) if r in (C.SABOTEUR, C.PROFITEER)]

    def paid(self, winners: list[int]) -> list[int]:
        """The winners that are paid: trapped ones are not."""
        return sorted(s for s in winners if not self.trapped(s))

    def earnings(self, paid: list[int]) -> list[int]:
        """Each seat's gold when ``paid`` share the round's pay-out, and the geologists
        their crystals on the table."""
        roles = self.roles
        earned = [0] * self.game.players
        share = C.PAYOUT[min(len(paid), len(C.PAYOUT) - 1)]
        for s in paid:
            earned[s] = max(0, share - C.DEDUCTION.get(roles[s], 0))
        geologists = [s for s, r in enumerate(roles) if r == C.GEOLOGIST and not self.trapped(s)]
        for s in geologists:
            earned[s] += self.crystals() // len(geologists)
        return earned

    def crystals(self) -> int:
        features = self.game.catalogue.features
        return sum(features[t].crystals for t in self.maze.cells.values())

    def _pay_round(self) -> tuple[list[int], dict[str, Any]]:
        details: dict[str, Any] = {}
        if self.finder >= 0:
            blue, green = self._routes()
            teams = self.winning_teams(self.roles[self.finder], blue, green)
            details["routes"] = {"blue": blue, "green": green}
            winners = self.team_winners(teams)
            label = "+".join(teams) if teams else "nobody"
        else:
            winners = self.saboteur_winners()
            label = "saboteurs" if winners else "nobody"
        winners = self.paid(winners)
        earned = self.earnings(winners)
        self.purse = [p + e for p, e in zip(self.purse, earned, strict=True)]
        details.update(winners=winners, side=label, crystals=self.crystals(),
                       set_aside_roles=sorted(self.hats_aside), thefts=[])
        return earned, details

    def _round_end_extra(self) -> dict[str, Any]:
        """Also who is trapped (they win nothing this round)."""
        return {"in_front": self.in_front,
                "trapped": tuple(s for s in range(self.game.players) if self.trapped(s))}

    def _start_thefts(self) -> bool:
        """Every untrapped Theft holder steals; the last played first, then clockwise."""
        if not self.theft_order:
            return False
        n = self.game.players
        first = self.theft_order[-1]
        holders = set(self.theft_order)
        self.thieves = [s for s in ((first + i) % n for i in range(n))
                        if s in holders and not self.trapped(s)]
        return self._next_thief()

    def _next_thief(self) -> bool:
        while self.thieves:
            thief = self.thieves[0]
            if self._victims(thief):
                self.phase = STEAL
                self.current = thief
                return True
            self.thieves = self.thieves[1:]
        self.phase = MAIN
        return False

    def _steal(self, seat: int, target: int) -> None:
        purse = self.purse = self.purse.copy()
        purse[target] -= C.THEFT_AMOUNT
        purse[seat] += C.THEFT_AMOUNT
        last = self.results[-1]
        details = {**last.details, "thefts": [*last.details["thefts"], [seat, target]]}
        self.results = [*self.results[:-1], RoundResult(last.round, last.gold, details)]
        self.thieves = self.thieves[1:]
        if not self._next_thief():
            self._next_round()

    # ------------------------------------------------------------------ outcome
    def scores(self) -> list[int]:
        return list(self.purse)

    def census(self) -> Counter[str]:
        cards = super().census()
        cards.update(self.hats_aside)
        return cards

    def _known_roles(self, seat: int | None) -> set[int]:
        return set(self.inspected[seat]) if seat is not None else set()

    def shuffle_hidden(self, seat: int | None, rng: Rng) -> ExpansionState:
        new = super().shuffle_hidden(seat, rng)
        assert isinstance(new, ExpansionState)
        if not self.terminal:
            new.spare_roles, new.hats_aside = redeal(rng, [new.spare_roles, new.hats_aside])
        return new

    def _shuffle_gold(self, others: list[int], rng: Rng) -> None:
        """Amounts are private, whether a seat has gold is public."""
        rich = [s for s in others if self.purse[s] > 0]
        amounts = [self.purse[s] for s in rich]
        rng.shuffle(amounts)
        self.purse = self.purse.copy()
        for s, amount in zip(rich, amounts, strict=True):
            self.purse[s] = amount

    def view(self, seat: int | None) -> Any:
        from .view import expansion_view

        return expansion_view(self, seat)
