"""Saboteur 2 (base game + expansion): one test per rule of expansion.md."""

from __future__ import annotations

from collections import Counter

import pytest

from pysaboteur.engine.actions import Discard, Pass, PlacePath, PlayOnCell, PlayOnPlayer, Steal
from pysaboteur.engine.errors import Blocked, IllegalAction, IllegalPlacement, InvalidTarget
from pysaboteur.engine.maze import cell, neighbours
from pysaboteur.games.expansion import cards as C
from pysaboteur.games.expansion.state import STEAL, ExpansionGame, ExpansionState
from pysaboteur.registry import make_game
from saboteur_helpers import corridor, fixed_deal, lay, put_in_front

CAT = C.CATALOGUE
BLUE, GREEN = "digger-blue", "digger-green"
BOSS, GEO, PROF, SAB = C.BOSS, C.GEOLOGIST, C.PROFITEER, C.SABOTEUR


def new(roles: tuple[str, ...], hands: dict[int, list[str]] | None = None, seed: int = 1,
        **options: object) -> ExpansionState:
    game = ExpansionGame(len(roles), **options)
    return game.new_state(seed, fixed_deal(game, hands, roles))


def find_gold(roles: tuple[str, ...], finder: int = 0, doors: dict[int, str] | None = None,
              **options: object) -> ExpansionState:
    """``finder`` completes a tunnel (1, 0)..(7, 0) to the gold at (8, 0), doors on the way."""
    state = new(roles, {finder: ["EW"]}, first_player=finder, **options)
    corridor(state, 6)
    for x, colour in (doors or {}).items():
        state.maze.remove(cell(x, 0))
        lay(state, f"door-{colour}:EW", x, 0)
    state.apply(PlacePath("EW", 7, 0))
    return state


def exhaust(state: ExpansionState, card: str = "map") -> None:
    """End the round without the gold: the current player plays the very last card."""
    state.deck.clear()
    for h in state.hands:
        h.clear()
    state.hands[state.current_player].append(card)
    state.apply(PlayOnCell(card, 8, 0))


# ------------------------------------------------------------------ components and set-up
def test_components() -> None:
    base = make_game("classic").catalogue
    assert sum(k.count for k in C.NEW_PATHS) + sum(C.UNIDENTIFIED.values()) == 30
    assert sum(k.count for k in C.NEW_ACTIONS) + C.EXTRA_ROCKFALLS == 21
    assert len(CAT.box(["path"])) == 70 and len(CAT.box(["action"])) == 48
    assert Counter(CAT.box(["role"])) == {BLUE: 4, GREEN: 4, BOSS: 1, GEO: 2, PROF: 1, SAB: 3}
    assert not CAT.box(["gold"]) and base.box(["goal"]) == CAT.box(["goal"])
    assert sum(CAT[c].features.crystals for c in CAT.box(["path"])) == 10
    assert sum(1 for c in CAT.box(["path"]) if CAT[c].features.ladder) == 4
    assert Counter(CAT[c].features.door for c in CAT.box(["path"]) if CAT[c].features.door) \
        == {"blue": 3, "green": 3}


@pytest.mark.parametrize("players", range(2, 13))
def test_setup(players: int) -> None:
    state = ExpansionGame(players).new_state(players)
    assert len(state.aside) == 10
    assert all(len(h) == 6 for h in state.hands)
    assert len(state.deck) == 118 - 10 - 6 * players
    assert len(state.roles) == players and len(state.spare_roles) == 15 - players
    assert Counter(state.roles + state.spare_roles) == Counter(CAT.box(["role"]))


def test_registry_range() -> None:
    assert make_game("expansion").players == 5
    with pytest.raises(ValueError):
        make_game("expansion", 13)
    with pytest.raises(ValueError):
        ExpansionGame(4, door_rule="other")


# ------------------------------------------------------------------ placing
def test_ladder_needs_no_connection_but_not_next_to_a_goal() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["ladder:W"]})
    lay(state, "EW", 1, 0)
    corridor(state, 6)
    ladders = [a for a in state.legal_actions()
               if isinstance(a, PlacePath) and a.card == "ladder:W"]
    cells = {cell(a.x, a.y) for a in ladders}
    assert cell(1, 1) in cells  # below an EW: touches the maze, not connected
    goals = {cell(x, y) for x, y in C.GOAL_CELLS}
    assert not any(n in goals for c in cells for _, n in neighbours(c))
    assert cell(6, 1) in cells and cell(7, 0) not in cells
    state.apply(PlacePath("ladder:W", 1, 1))
    assert cell(1, 1) in state.maze.reach[0]  # joined to the start
    assert state.maze.reach_in[0].get(cell(0, 1))  # and a card there would be connected


def test_ladder_refused_for_the_goal_next_to_it_not_for_a_connection() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["ladder:W", "EW"]})
    corridor(state, 6)
    with pytest.raises(IllegalPlacement) as err:  # fits (6, 0)'s open east edge
        state.apply(PlacePath("ladder:W", 7, 0))
    assert "goal" in str(err.value) and "connected" not in str(err.value)
    with pytest.raises(IllegalPlacement) as err:  # next to no card at all
        state.apply(PlacePath("ladder:W", 3, 5))
    assert str(err.value) == "a ladder goes next to a path card"
    with pytest.raises(IllegalPlacement) as err:  # other path cards still need the start
        state.apply(PlacePath("EW", 3, 5))
    assert "not connected to the start" in str(err.value)


def test_bridge_needs_one_path_connected_and_doors_do_not_block_placement() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["NS,EW", "door-green:EW"]})
    legal = state.legal_actions()
    assert PlacePath("NS,EW", 1, 0) in legal
    assert PlacePath("door-green:EW", 1, 0) in legal  # a blue gold-digger may lay it


def test_trapped_blocks_building_and_goes_on_another_player() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["trapped", "EW"]})
    targets = {a.target for a in state.legal_actions()
               if isinstance(a, PlayOnPlayer) and a.card == "trapped"}
    assert targets == {1, 2}
    with pytest.raises(InvalidTarget):
        state.apply(PlayOnPlayer("trapped", 0))
    put_in_front(state, 0, "trapped")
    assert not any(isinstance(a, PlacePath) for a in state.legal_actions())
    with pytest.raises(Blocked):
        state.apply(PlacePath("EW", 1, 0))


def test_a_theft_in_front_does_not_stop_building() -> None:
    """Only a broken tool or a Trapped! stops path cards (expansion.md, option 1): a Theft
    lying in front of the player does not, alone or beside another card."""
    state = new((BLUE, GREEN, SAB), {0: ["EW", "theft"]})
    state.apply(PlayOnPlayer("theft", 0))
    for _ in range(2):
        state.apply(state.legal_actions()[-1])
    assert state.current_player == 0 and state.in_front[0] == ("theft",)
    assert PlacePath("EW", 1, 0) in state.legal_actions()
    put_in_front(state, 0, "break-cart")
    assert not any(isinstance(a, PlacePath) for a in state.legal_actions())
    with pytest.raises(Blocked):
        state.apply(PlacePath("EW", 1, 0))


def test_free_at_last_on_anyone_including_oneself() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["free"]})
    put_in_front(state, 0, "trapped")
    put_in_front(state, 2, "trapped")
    assert {a.target for a in state.legal_actions() if isinstance(a, PlayOnPlayer)} >= {0, 2}
    state.apply(PlayOnPlayer("free", 0))
    assert state.in_front[0] == () and Counter(state.discards) == {"free": 1, "trapped": 1}


def test_one_card_of_each_kind_in_front() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["theft", "trapped"]})
    put_in_front(state, 0, "theft")
    put_in_front(state, 1, "trapped")
    legal = state.legal_actions()
    assert PlayOnPlayer("theft", 0) not in legal and PlayOnPlayer("trapped", 1) not in legal


def test_theft_only_in_front_of_oneself_and_hands_off_removes_it() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["theft"], 1: ["hands-off"]})
    assert [a for a in state.legal_actions() if isinstance(a, PlayOnPlayer)] \
        == [PlayOnPlayer("theft", 0)]
    state.apply(PlayOnPlayer("theft", 0))
    assert state.theft_order == [0]
    state.apply(PlayOnPlayer("hands-off", 0))
    assert state.in_front[0] == () and state.theft_order == []


def test_swap_your_hand_the_other_draws() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["swap-hand"]})
    mine = sorted(state.hands[0][1:])
    theirs = sorted(state.hands[2])
    top = state.deck[-1]
    state.apply(PlayOnPlayer("swap-hand", 2))
    assert sorted(state.hands[0]) == theirs  # the player who played it draws none
    assert sorted(state.hands[2]) == sorted([*mine, top])
    with pytest.raises(IllegalAction):
        new((BLUE, GREEN, SAB), {0: ["swap-hand"]}).apply(PlayOnPlayer("swap-hand", 0))


def test_inspection_is_private() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["inspection"]})
    state.apply(PlayOnPlayer("inspection", 2))
    assert state.view(0).inspected == ((2, SAB),)
    assert state.view(1).inspected == () and state.view(2).inspected == ()


def test_swap_your_hats() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["swap-hats"]})
    spare = list(state.spare_roles)
    state.apply(PlayOnPlayer("swap-hats", 0))  # oneself included
    assert state.roles[0] == spare[-1] and state.hats_aside == [BLUE]
    assert state.spare_roles == spare[:-1]  # the old card does not return this round


def test_discard_two_to_remove_a_card_in_front() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["EW", "NS"]})
    put_in_front(state, 0, "break-cart")
    assert Discard(("EW", "NS"), "break-cart") in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(Discard(("EW",), "break-cart"))
    state.apply(Discard(("EW", "NS"), "break-cart"))
    assert state.in_front[0] == () and len(state.hands[0]) == 5


def test_pass_one_to_three_draw_as_many() -> None:
    state = new((BLUE, GREEN, SAB), {0: ["EW", "NS", "ES", "SW"]})
    legal = state.legal_actions()
    assert Pass(("ES", "EW", "NS")) in legal
    assert not any(isinstance(a, Pass) and len(a.cards) > 3 for a in legal)
    state.apply(Pass(("ES", "EW", "NS")))
    assert len(state.hands[0]) == 6 and len(state.deck) == 118 - 10 - 18 - 3


# ------------------------------------------------------------------ who wins: the door rule
ROLES = {BLUE: (BLUE, BLUE, GREEN, SAB, GEO), GREEN: (GREEN, BLUE, GREEN, SAB, GEO),
         BOSS: (BOSS, BLUE, GREEN, SAB, GEO), SAB: (SAB, BLUE, GREEN, GEO, GEO),
         GEO: (GEO, BLUE, GREEN, SAB, GEO), PROF: (PROF, BLUE, GREEN, SAB, GEO)}
DOORS = {"none": {}, "blue": {3: "blue"}, "green": {3: "green"}, "both": {2: "blue", 4: "green"}}


@pytest.mark.parametrize(("finder", "doors", "bga", "literal"), [
    (BLUE, "none", "blue", "blue"), (BLUE, "blue", "blue", "blue"),
    (BLUE, "green", "green", "green"), (BLUE, "both", "nobody", "green"),
    (GREEN, "none", "green", "green"), (GREEN, "blue", "blue", "blue"),
    (GREEN, "green", "green", "green"), (GREEN, "both", "nobody", "blue"),
    *[(other, "none", "blue+green", "blue+green") for other in (BOSS, SAB, GEO, PROF)],
    *[(other, "blue", "blue", "blue") for other in (BOSS, SAB, GEO, PROF)],
    *[(other, "green", "green", "green") for other in (BOSS, SAB, GEO, PROF)],
    *[(other, "both", "nobody", "nobody") for other in (BOSS, SAB, GEO, PROF)],
])
def test_door_rule(finder: str, doors: str, bga: str, literal: str) -> None:
    for rule, expected in (("bga", bga), ("literal", literal)):
        state = find_gold(ROLES[finder], doors=DOORS[doors], door_rule=rule)
        assert state.results[0].details["side"] == expected, rule


def test_no_team_qualifies_nobody_paid_but_geologists() -> None:
    state = new((BOSS, BLUE, GREEN, GEO, PROF), {0: ["EW"]})
    corridor(state, 6)
    state.maze.remove(cell(2, 0))
    lay(state, "door-blue:EW", 2, 0)
    state.maze.remove(cell(3, 0))
    lay(state, "door-green:EW", 3, 0)
    lay(state, "crystal:NESW", 4, 1)
    state.apply(PlacePath("EW", 7, 0))
    assert state.results[0].gold == [0, 0, 0, 1, 0]


def test_saboteurs_win_with_the_profiteer() -> None:
    state = new((SAB, PROF, BLUE, SAB, BOSS))
    exhaust(state)
    assert state.results[0].details["side"] == "saboteurs"
    assert state.results[0].gold == [3, 1, 0, 3, 0]  # 3 winners: 3 each, profiteer 2 less


# ------------------------------------------------------------------ gold
@pytest.mark.parametrize(("roles", "gold"), [
    ((BLUE, SAB), [5, 0]),
    ((BLUE, BLUE, SAB), [4, 4, 0]),
    ((BLUE, BOSS, PROF, GREEN), [3, 2, 1, 0]),
    ((BLUE, BLUE, BOSS, PROF), [2, 2, 1, 0]),
    ((BLUE, BLUE, BLUE, BLUE, BOSS), [1, 1, 1, 1, 0]),
    ((BLUE, BLUE, BLUE, BLUE, BOSS, PROF, GREEN), [1, 1, 1, 1, 0, 0, 0]),
])
def test_payout_table_with_deductions(roles: tuple[str, ...], gold: list[int]) -> None:
    assert find_gold(roles).results[0].gold == gold


def test_trapped_winner_neither_paid_nor_counted() -> None:
    state = new((BLUE, BLUE, SAB), {0: ["EW"]})
    put_in_front(state, 1, "trapped")
    corridor(state, 6)
    state.apply(PlacePath("EW", 7, 0))
    assert state.results[0].gold == [5, 0, 0]


def test_geologists_split_crystals_rounded_down() -> None:
    state = new((GEO, GEO, SAB))
    for x in (1, 2, 3):
        lay(state, "crystal:NESW", x, 0)
    exhaust(state)
    assert state.results[0].gold == [1, 1, 5]
    assert state.results[0].details["crystals"] == 3


def test_trapped_geologist_gets_nothing_and_no_split() -> None:
    state = new((GEO, GEO, SAB))
    for x in (1, 2, 3):
        lay(state, "crystal:NESW", x, 0)
    put_in_front(state, 1, "trapped")
    exhaust(state)
    assert state.results[0].gold == [3, 0, 5]


def test_theft_order_last_played_first_then_clockwise_trapped_skipped() -> None:
    state = new((BLUE, SAB, GREEN, SAB, GEO))
    state.purse = [2, 0, 3, 0, 1]
    for seat in (3, 4, 1):  # played in this order: seat 1 last
        put_in_front(state, seat, "theft")
        state.theft_order.append(seat)
    put_in_front(state, 4, "trapped")
    exhaust(state)  # saboteurs 1 and 3 win 4 each
    assert state.phase == STEAL and state.current_player == 1
    assert set(state.legal_actions()) == {Steal(0), Steal(2), Steal(3), Steal(4)}
    with pytest.raises(InvalidTarget):
        state.apply(Steal(1))
    state.apply(Steal(2))
    assert state.current_player == 3  # then clockwise: 3; 4 is trapped
    state.apply(Steal(0))
    assert state.round_no == 2 and state.purse == [1, 5, 2, 5, 1]
    assert state.results[0].details["thefts"] == [[1, 2], [3, 0]]


def test_thief_without_victims_steals_nothing() -> None:
    state = new((BLUE, GREEN, GEO))
    put_in_front(state, 0, "theft")
    state.theft_order.append(0)
    exhaust(state)
    assert state.round_no == 2 and state.scores() == [0, 0, 0]


# ------------------------------------------------------------------ the rulebook's example
def test_rulebook_worked_example() -> None:
    roles = (BLUE, GREEN, GREEN, BOSS, PROF, SAB, SAB)

    def play(finder: int) -> ExpansionState:
        game = ExpansionGame(7, first_player=finder)
        state = game.new_state(3, fixed_deal(game, {finder: ["EW"]}, roles))
        corridor(state, 6)
        state.maze.remove(cell(4, 0))
        lay(state, "door-blue:EW", 4, 0)
        for seat in (5, 6):
            put_in_front(state, seat, "theft")
            state.theft_order.append(seat)
        put_in_front(state, 6, "trapped")
        state.apply(PlacePath("EW", 7, 0))
        return state

    state = play(3)  # the boss completes the path
    assert state.results[0].details["side"] == "blue"
    assert state.results[0].gold == [3, 0, 0, 2, 1, 0, 0]
    assert state.phase == STEAL and state.current_player == 5
    assert {a.target for a in state.legal_actions()} == {0, 3, 4}  # who has gold
    state.apply(Steal(3))
    assert state.round_no == 2 and state.scores() == [3, 0, 0, 1, 1, 1, 0]  # 6 steals nothing
    assert play(1).results[0].details["side"] == "blue"  # a green digger: blue still wins


# ------------------------------------------------------------------ information
def test_has_gold_public_amount_private() -> None:
    state = new((BLUE, GREEN, SAB))
    state.purse = [0, 4, 0]
    v = state.view(0)
    assert v.has_gold == (False, True, False) and v.gold == 0
    assert state.view(1).gold == 4 and "4" not in repr(v.results)
    assert v.role == BLUE and SAB not in repr(v)


# ------------------------------------------------------------------ the menu's shortcuts
def random_positions(players: int, seeds: range) -> list[ExpansionState]:
    """Every main-phase position of random matches (the legal list built at each)."""
    from pysaboteur.engine.rng import Rng

    pick, out = Rng(7), []
    for seed in seeds:
        state = ExpansionGame(players).new_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            if state.phase == 0:
                out.append(state.clone())
            state.apply(legal[pick.below(len(legal))])
    return out


def test_ladder_cells_match_the_rule_in_random_play() -> None:
    """Ladder cells use the cells next to the goals worked out once (goals never move)."""
    from pysaboteur.games.classic.menu import Board

    goals = {cell(x, y) for x, y in C.GOAL_CELLS}
    for state in random_positions(7, range(3)):
        maze = state.maze
        assert set(maze.hidden) | {c for c, t in maze.cells.items()
                                   if CAT.codes[t] in CAT.box(["goal"])} == goals
        near = {n for g in goals for _, n in neighbours(g)}
        expected = sorted(c for c in maze.constraint if c not in near)
        cells, ks = state._ladder_cells(Board(maze, state.game.tables))
        assert cells == expected
        assert ks == bytes(maze.constraint[c] for c in expected)


def test_cards_taking_a_card_away_target_where_it_lies_in_random_play() -> None:
    """Hands-off and free at last take their targets from the entries shared by every state
    with the same cards in front (``menu.ToolEntries``): the same as the rule."""
    for state in random_positions(7, range(3, 6)):
        entries = state._fronts().entries
        for code, lies in (("hands-off", "theft"), ("free", "trapped")):
            expected = [PlayOnPlayer(code, s) for s, front in enumerate(state.in_front)
                        if lies in front]
            entry = entries[code]
            assert (entry[2] if entry is not None else []) == expected
