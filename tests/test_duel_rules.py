"""One test per rule of common.md and duel.md (The Duel and its solo mode).

Seat 0 plays green (start (0, 1), begins round 1), seat 1 blue (start (0, -1)),
unless a test says otherwise.  Goals lie face down at (5, -2), (5, 0), (5, 2),
(7, -1), (7, 1), (9, 0).
"""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import duel, end_round, pass_turn, put, put_all, reveal, snapshot, solo
from pysaboteur.engine import Bribe, Discard, EndTurn, Orient, Pass, PlacePath, PlayOnCell
from pysaboteur.engine.actions import PlayOnPlayer
from pysaboteur.engine.errors import (
    Blocked,
    CardNotInHand,
    GameOver,
    IllegalAction,
    IllegalPlacement,
    InvalidTarget,
    NotYourTurn,
    WrongPhase,
)
from pysaboteur.engine.maze import cell
from pysaboteur.games.duel import DuelGame
from pysaboteur.games.duel import cards as C
from pysaboteur.games.duel.state import choose_payment

pytestmark = pytest.mark.usefixtures("both_paths")  # the core's and the pure engine's

GREEN, BLUE = 0, 1
CAT = C.CATALOGUE


def placements(state, seat=None):
    """(card, x, y, rotated) of the path placements open to the current player."""
    return {tuple(a) for a in state.legal_actions() if isinstance(a, PlacePath)}


def cells_open(state):
    return {(a.x, a.y) for a in state.legal_actions() if isinstance(a, PlacePath)}


def refuse(state, action, error):
    """``action`` raises exactly ``error`` (a specific subclass) and changes nothing."""
    before = snapshot(state)
    assert action not in state.legal_actions()
    with pytest.raises(error):
        state.apply(action)
    assert snapshot(state) == before


def board(state):
    return {(p.x, p.y): (p.card, p.rotated) for p in state.view(None).board}


def green_row(state, last=3):
    """Green path along y = 1 from its start to x = ``last``."""
    put_all(state, [("EW", x, 1) for x in range(1, last + 1)])


# ---------------------------------------------------------------- components and layout
def test_components_counts():
    assert len(CAT.box(["path"])) == 34
    assert len(CAT.box(["start"])) == 2
    assert len(CAT.box(["action"])) == 18
    assert len(CAT.box(["goal"])) == 18
    assert C.MARKERS == 8 and C.KEY_TOKENS == 2


def test_layout_and_setup():
    state = DuelGame(2).new_state(5)
    view = state.view(0)
    assert board(state) == {(0, -1): ("start-blue", False), (0, 1): ("start-green", False)}
    assert view.face_down == tuple(sorted(C.GOAL_CELLS))
    assert view.hand_sizes == (6, 6) and view.deck_size == 52 - 12
    assert view.markers_left == (8, 8) and view.keys_left == 2
    assert state.current_player == GREEN  # green begins round 1


def test_seat0_colour_option():
    state = DuelGame(2, seat0_colour="blue").new_state(5)
    assert state.game.colours == ("blue", "green")
    assert state.current_player == 1  # green begins
    assert (1, 1) in cells_open(state) and (1, -1) not in cells_open(state)


# ---------------------------------------------------------------- placement
def test_path_must_fit_on_every_side():
    state = duel(hands=(["NESW", "NEW"], []))
    put(state, "EW", 1, 2)  # below (1, 1): its N edge is closed
    refuse(state, PlacePath("NESW", 1, 1), IllegalPlacement)  # S open against a closed edge
    refuse(state, PlacePath("NEW", 1, 1, True), IllegalPlacement)  # turned: S open, N closed
    assert PlacePath("NEW", 1, 1) in state.legal_actions()


def test_face_down_goal_imposes_no_fit():
    state = duel(hands=(["NS", "NES"], []))
    green_row(state)
    put(state, "NESW", 4, 1)
    # (4, 2) lies next to the face-down goal (5, 2): open or closed edge toward it both fit
    assert {("NS", 4, 2, False), ("NES", 4, 2, False)} <= placements(state)


def test_connection_to_own_start_not_opponents():
    state = duel(hands=(["EW"], ["EW"]))
    refuse(state, PlacePath("EW", 1, -1), IllegalPlacement)  # next to blue's start
    assert PlacePath("EW", 1, 1) in state.legal_actions()
    pass_turn(state)
    assert PlacePath("EW", 1, -1) in state.legal_actions()
    assert PlacePath("EW", 1, 1) not in state.legal_actions()


def test_stub_segment_leads_nowhere():
    state = duel(hands=(["EW"], []))
    put(state, "N,E,S,W", 1, 1)
    assert (2, 1) not in cells_open(state)


def test_bridge_one_path_suffices():
    state = duel(hands=(["NS,EW", "NESW"], []))
    assert PlacePath("NS,EW", 1, 1) in state.legal_actions()
    state.apply(PlacePath("NS,EW", 1, 1))
    pass_turn(state)
    assert (2, 1) in cells_open(state)  # through the E-W path
    assert (1, 2) not in cells_open(state) and (1, 0) not in cells_open(state)


def test_double_curve_one_path_suffices():
    state = duel(hands=(["NW,ES", "NESW"], []))
    state.apply(PlacePath("NW,ES", 1, 1))  # W-N curve joins the start, E-S does not
    pass_turn(state)
    assert (1, 0) in cells_open(state)
    assert (2, 1) not in cells_open(state) and (1, 2) not in cells_open(state)


def test_exactly_one_option_then_draw_one():
    state = duel(hands=(["EW"], []))
    deck = len(state.deck)
    state.apply(PlacePath("EW", 1, 1))
    assert len(state.hands[GREEN]) == 6 and len(state.deck) == deck - 1
    assert state.current_player == BLUE


# ---------------------------------------------------------------- ladders
def test_ladder_needs_no_connection_and_joins_its_start():
    state = duel(hands=(["ladder-green:EW"], []))
    put(state, "NESW", 3, 4)  # isolated
    state.apply(PlacePath("ladder-green:EW", 2, 4))
    pass_turn(state)
    assert {(4, 4), (3, 3), (3, 5), (1, 4)} <= cells_open(state)


def test_ladder_needs_a_neighbouring_card():
    state = duel(hands=(["ladder-green:EW"], []))
    refuse(state, PlacePath("ladder-green:EW", 2, 6), IllegalPlacement)


@pytest.mark.parametrize("case", ["face-down goal", "face-up goal", "gold"])
def test_ladder_not_next_to_goal_or_gold(case):
    state = duel(hands=(["ladder-green:EW"], []), goals={(5, 0): "goal0:NESW"})
    if case == "gold":
        put(state, "gold:NESW", 3, 0)
        target = (2, 0)
    else:
        put(state, "NESW", 3, 0)
        target = (4, 0)
        if case == "face-up goal":
            reveal(state, 5, 0)
    refuse(state, PlacePath("ladder-green:EW", *target), IllegalPlacement)


def test_ladder_of_either_colour_joins_its_own_start():
    # green lays the blue ladder: it joins blue's start, so blue claims the gold beyond it
    state = duel(hands=(["ladder-blue:EW"], []))
    put_all(state, [("EW", 2, 3), ("gold:NESW", 3, 3)])
    state.apply(PlacePath("ladder-blue:EW", 1, 3))
    assert state.markers == {cell(3, 3): BLUE}


# ---------------------------------------------------------------- doors and keys
def test_own_colour_door_is_open_other_colour_blocks_reach():
    state = duel()
    put(state, "door-green:NESW", 0, 0)  # between the two starts
    assert (1, 0) in cells_open(state)
    pass_turn(state)
    assert (1, 0) not in cells_open(state)  # blue cannot enter the green door


def test_other_colour_door_cannot_be_placed():
    state = duel(hands=(["door-blue:EW", "door-green:EW"], []))
    assert PlacePath("door-green:EW", 1, 1) in state.legal_actions()
    refuse(state, PlacePath("door-blue:EW", 1, 1), IllegalPlacement)


def test_key_opens_other_colour_door():
    state = duel(hands=(["key"], []))
    put(state, "door-blue:EW", 1, 1)
    assert (2, 1) not in cells_open(state)
    state.apply(PlayOnCell("key", 1, 1))
    assert state.view(0).keys == ((1, 1),) and state.keys_left == 1
    pass_turn(state)
    assert (2, 1) in cells_open(state)


def test_key_only_on_other_colour_door():
    state = duel(hands=(["key"], []))
    put(state, "door-green:EW", 1, 1)
    refuse(state, PlayOnCell("key", 1, 1), InvalidTarget)


def test_key_not_on_door_already_opened():
    state = duel(hands=(["key", "key"], []))
    put(state, "door-blue:EW", 1, 1)
    state.apply(PlayOnCell("key", 1, 1))
    pass_turn(state)
    refuse(state, PlayOnCell("key", 1, 1), InvalidTarget)


def test_only_two_key_tokens():
    state = duel(hands=(["key"], []))
    put(state, "door-blue:EW", 1, 1)
    state.keys_left = 0  # both tokens lie on other doors
    refuse(state, PlayOnCell("key", 1, 1), Blocked)


def test_key_returns_to_supply_on_rockfall():
    state = duel(hands=(["key", "rockfall"], []))
    put(state, "door-blue:EW", 1, 1)
    state.apply(PlayOnCell("key", 1, 1))
    pass_turn(state)
    state.apply(PlayOnCell("rockfall", 1, 1))
    assert state.keys_left == 2 and state.keys == {}


# ---------------------------------------------------------------- trolls and bribes
def test_troll_enterable_not_passable_bribe_after_option_before_draw():
    state = duel(hands=(["troll:EW"], []))
    state.apply(PlacePath("troll:EW", 1, 1))  # entered
    assert state.view(0).phase == "after" and state.current_player == GREEN
    assert set(state.legal_actions()) == {Bribe(1, 1), EndTurn()}
    assert len(state.hands[GREEN]) == 5  # not drawn yet
    state.apply(EndTurn())
    assert len(state.hands[GREEN]) == 6
    pass_turn(state)
    assert (2, 1) not in cells_open(state)  # not passable


def test_bribe_after_option_then_turn_ends_and_draws():
    state = duel(hands=(["troll:EW"], []))
    state.apply(PlacePath("troll:EW", 1, 1))
    state.apply(Bribe(1, 1))  # no further bribe possible: the turn ends by itself
    assert state.current_player == BLUE and len(state.hands[GREEN]) == 6
    assert state.bribes == {cell(1, 1): GREEN}


def test_bribe_before_main_option_opens_troll():
    state = duel()
    put(state, "troll:EW", 1, 1)
    state.apply(Bribe(1, 1))
    assert state.view(0).phase == "main" and state.current_player == GREEN
    assert state.bribes == {cell(1, 1): GREEN} and state.markers_left(GREEN) == 7
    assert (2, 1) in cells_open(state)


def test_bribed_troll_open_to_both():
    state = duel()
    put(state, "troll:NESW", 0, 0)  # between the two starts
    state.apply(Bribe(0, 0))
    pass_turn(state)
    assert (1, 0) in cells_open(state)  # blue passes the troll green bribed


def test_bribe_needs_reach():
    state = duel()
    put(state, "troll:EW", 3, 3)
    refuse(state, Bribe(3, 3), InvalidTarget)


def test_bribe_needs_a_marker():
    state = duel(markers_per_player=4)
    put(state, "troll:EW", 1, 1)
    state.pools = [0, 4]
    refuse(state, Bribe(1, 1), Blocked)


def test_bribe_of_last_marker_ends_round():
    state = duel()
    put(state, "troll:EW", 1, 1)
    state.pools = [1]
    state.apply(Bribe(1, 1))
    assert state.round_no == 2 and state.results[0].details["bribes"] == [1, 0]


def test_choose_payment_no_change():
    assert choose_payment(["goal3:EW", "gold:EW", "gold:NES"], 2) == ["gold:EW", "gold:NES"]
    assert choose_payment(["gold:EW", "gold:NES", "goal2:SW"], 2) == ["goal2:SW"]  # fewest
    assert choose_payment(["goal3:EW"], 1) == ["goal3:EW"]  # no change given
    assert choose_payment(["gold:EW"], 3) == ["gold:EW"]  # pays all they have
    assert choose_payment([], 2) == []


def test_bribes_paid_at_round_end_and_cards_leave_game():
    state = duel()
    put(state, "troll:EW", 1, 1)
    state.gold[GREEN] = ["goal3:EW", "gold:SW"]
    state.apply(Bribe(1, 1))
    end_round(state)
    assert state.gold[GREEN] == ["goal3:EW"] and "gold:SW" in state.paid
    assert "gold:SW" not in state.deck + state.hands[0] + state.hands[1]


# ---------------------------------------------------------------- gold claims
@pytest.mark.parametrize("actor", [GREEN, BLUE])
def test_gold_reached_by_both_goes_to_acting_player(actor):
    state = duel(hands=(["gold:NESW"], ["gold:NES"]))
    card = "gold:NESW"
    if actor == BLUE:
        state.apply(Pass(("gold:NESW",)))
        card = "gold:NES"
    state.apply(PlacePath(card, 0, 0))  # next to both starts
    assert state.markers == {cell(0, 0): actor}


def test_marker_stays_when_route_broken():
    state = duel(hands=(["gold:EW", "rockfall"], []))
    put(state, "EW", 1, 1)
    state.apply(PlacePath("gold:EW", 2, 1))
    pass_turn(state)
    state.apply(PlayOnCell("rockfall", 1, 1))
    assert state.markers == {cell(2, 1): GREEN}
    end_round(state)
    assert state.gold[GREEN] == ["gold:EW"]


def test_several_claims_most_valuable_first():
    state = duel(hands=(["key"], []))
    put_all(state, [("door-blue:NESW", 1, 1), ("gold:NES", 1, 0), ("goal3:NESW", 2, 1)])
    state.pools = [1]
    state.apply(PlayOnCell("key", 1, 1))  # both golds become reachable at once
    assert state.round_no == 2 and state.gold[GREEN] == ["goal3:NESW"]


def test_several_claims_acting_player_first():
    # blue bribes the troll between the starts: blue reaches the 1-gold card, green also
    # the 3-gold goal behind its own door; the last marker goes to the acting player
    state = duel()
    put_all(state, [("troll:NESW", 0, 0), ("gold:EW", -1, 0), ("door-green:EW", 1, 0),
                    ("goal3:NESW", 2, 0)])
    state.pools = [2]
    pass_turn(state)
    state.apply(Bribe(0, 0))
    assert state.round_no == 2
    assert state.results[0].gold == [0, 1]  # blue's gold:EW (then paid for the bribe)


def test_marker_exhaustion_ends_round_at_once():
    state = duel(hands=(["gold:NESW"], []))
    state.pools = [1]
    state.apply(PlacePath("gold:NESW", 0, 0))
    assert state.round_no == 2 and state.gold[GREEN] == ["gold:NESW"]
    assert state.results[0].gold == [1, 0]


def test_markers_per_player_option():
    state = duel(markers_per_player=4)
    assert state.view(0).markers_left == (4, 4)
    put(state, "troll:NESW", 0, 0)
    state.pools = [0, 1]
    refuse(state, Bribe(0, 0), Blocked)  # green has none left; the round goes on
    pass_turn(state)
    state.apply(Bribe(0, 0))  # blue places the last of the 8
    assert state.round_no == 2


# ---------------------------------------------------------------- goal reveals
def reach_goal_from_west(goal, extra=(), **options):
    """Green's path up to (4, 1); green holds NES to lay at (4, 0), facing (5, 0) from W."""
    hands = (["NES"], []) if options.get("seat0_colour", "green") == "green" else ([], ["NES"])
    state = duel(hands=hands, goals={(5, 0): goal}, **options)
    green_row(state)
    put(state, "NEW", 4, 1)
    put_all(state, extra)
    return state


@pytest.mark.parametrize("goal", ["goal3:NESW", "goal1:EW", "goal0:NS"])
def test_symmetric_goal_no_choice(goal):
    state = reach_goal_from_west(goal)
    state.apply(PlacePath("NES", 4, 0))
    assert board(state)[5, 0] == (goal, False) and state.view(0).phase != "orient"


def test_goal_one_orientation_fits():
    state = reach_goal_from_west("goal1:NES")  # only turned does it open W
    state.apply(PlacePath("NES", 4, 0))
    assert board(state)[5, 0] == ("goal1:NES", True)
    assert state.markers == {cell(5, 0): GREEN}


@pytest.mark.parametrize("seat0_colour", ["green", "blue"])
def test_goal_both_fit_revealer_chooses(seat0_colour):
    state = reach_goal_from_west("goal2:NEW", seat0_colour=seat0_colour)
    actor = state.current_player  # the green seat
    state.apply(PlacePath("NES", 4, 0))
    view = state.view(actor)
    assert view.phase == "orient" and state.current_player == actor
    assert view.pending_goal == (5, 0, "goal2:NEW", (False, True))
    assert set(state.legal_actions()) == {Orient(False), Orient(True)}
    state.apply(Orient(True))
    assert board(state)[5, 0] == ("goal2:NEW", True)
    assert state.markers == {cell(5, 0): actor} and state.current_player == 1 - actor


def test_goal_neither_fits_most_open_edges_toward_reach():
    # (5, 1) closes the S edge: NES misses W, turned NSW opens S: neither fits
    state = reach_goal_from_west("goal1:NES", [("EW", 5, 1)])
    state.apply(PlacePath("NES", 4, 0))
    assert board(state)[5, 0] == ("goal1:NES", True)  # the one open toward the reach (W)


def test_goal_neither_fits_tie_revealer_chooses():
    # N and S closed by face-up cards: NEW and ESW both misfit, both open W
    state = reach_goal_from_west("goal2:NEW", [("EW", 5, 1), ("EW", 5, -1)])
    state.apply(PlacePath("NES", 4, 0))
    assert state.view(0).pending_goal == (5, 0, "goal2:NEW", (False, True))
    refuse(state, Pass((state.hands[GREEN][0],)), WrongPhase)  # the choice comes first


def test_chain_reveals_ordered_by_x_then_y():
    state = duel(hands=(["NES"], []), goals={(5, 0): "goal0:NESW", (5, 2): "goal0:NS",
                                            (7, -1): "goal1:EW"})
    green_row(state)
    put_all(state, [("ES", 4, 1, True), ("NS", 5, 1), ("NEW", 6, 0), ("NES", 6, -1)])
    state.apply(PlacePath("NES", 4, 0))
    order = [(p.x, p.y) for p in state.view(None).board][-3:]
    assert order == [(5, 0), (5, 2), (7, -1)]  # (5, 2) before (7, -1): x first
    assert state.markers == {cell(7, -1): GREEN}


def test_revealed_goal_counts_as_reached_even_if_not_fitting():
    state = duel(hands=(["ES"], []), goals={(5, 0): "goal3:EW"})
    green_row(state, 4)
    state.apply(PlacePath("ES", 5, 1, True))  # N-W curve: faces the goal's closed S edge
    assert board(state)[5, 0] == ("goal3:EW", False)
    assert state.markers == {cell(5, 0): GREEN}


def test_revealed_goal_with_other_door_not_claimed_until_key():
    state = duel(hands=(["ES", "key"], []), goals={(5, 0): "goal1-blue:NESW"})
    green_row(state, 4)
    state.apply(PlacePath("ES", 5, 1, True))
    assert board(state)[5, 0][0] == "goal1-blue:NESW" and state.markers == {}
    pass_turn(state)
    state.apply(PlayOnCell("key", 5, 0))  # a key lies on a revealed goal's door
    assert state.markers == {cell(5, 0): GREEN}


# ---------------------------------------------------------------- action cards
def test_rockfall_limits():
    state = duel(hands=(["rockfall"], []), goals={(5, 0): "goal0:NESW"})
    put_all(state, [("EW", 1, 1), ("gold:EW", 2, 1), ("troll:EW", 3, 1)])
    reveal(state, 5, 0)
    targets = {(a.x, a.y) for a in state.legal_actions() if isinstance(a, PlayOnCell)}
    assert targets == {(1, 1)}
    for xy in [(0, 1), (2, 1), (3, 1), (5, 0)]:
        refuse(state, PlayOnCell("rockfall", *xy), InvalidTarget)
    state.apply(PlayOnCell("rockfall", 1, 1))
    assert (1, 1) not in board(state)


def test_sabotage_on_opponent_one_of_each_kind():
    state = duel(hands=(["break-cart", "break-lantern"], []))
    refuse(state, PlayOnPlayer("break-cart", GREEN), InvalidTarget)
    state.in_front[BLUE] = ["break-cart"]
    refuse(state, PlayOnPlayer("break-cart", BLUE), InvalidTarget)
    state.apply(PlayOnPlayer("break-lantern", BLUE))
    assert state.view(1).in_front[BLUE] == ("break-cart", "break-lantern")


def test_broken_tool_forbids_path_cards():
    state = duel(hands=(["EW"], []))
    state.in_front[GREEN] = ["break-pickaxe"]
    assert not placements(state)
    refuse(state, PlacePath("EW", 1, 1), Blocked)


def test_two_symbol_repair_mends_one():
    state = duel(hands=(["repair-pickaxe-lantern"], []))
    state.in_front[GREEN] = ["break-pickaxe", "break-lantern"]
    refuse(state, PlayOnPlayer("repair-pickaxe-lantern", GREEN, "cart"), InvalidTarget)
    state.apply(PlayOnPlayer("repair-pickaxe-lantern", GREEN, "lantern"))
    assert state.in_front[GREEN] == ["break-pickaxe"]


def test_repair_own_tools_only():
    state = duel(hands=(["repair-cart"], []))
    state.in_front[BLUE] = ["break-cart"]
    refuse(state, PlayOnPlayer("repair-cart", BLUE), InvalidTarget)
    refuse(state, PlayOnPlayer("repair-cart", GREEN), InvalidTarget)  # nothing to mend


def test_discard_two_removes_sabotage_and_draws_one():
    state = duel(hands=(["EW", "NESW"], []))
    state.in_front[GREEN] = ["break-cart"]
    state.apply(Discard(("EW", "NESW"), "break-cart"))
    assert state.in_front[GREEN] == [] and len(state.hands[GREEN]) == 5
    refuse(state, Discard(tuple(sorted(state.hands[BLUE][:2])), "break-cart"), InvalidTarget)


@pytest.mark.parametrize("n", [1, 2])
def test_pass_one_or_two_draws_as_many(n):
    state = duel()
    deck = len(state.deck)
    state.apply(Pass(tuple(sorted(state.hands[GREEN][:n]))))
    assert len(state.hands[GREEN]) == 6 and len(state.deck) == deck - n


def test_pass_three_refused():
    state = duel()
    refuse(state, Pass(tuple(sorted(state.hands[GREEN][:3]))), InvalidTarget)


def test_map_is_private():
    state = duel(hands=(["map"], []), goals={(5, 0): "goal3:EW"})
    state.apply(PlayOnCell("map", 5, 0))
    assert state.view(0).known_goals == ((5, 0, "goal3:EW"),)
    assert state.view(1).known_goals == () and state.view(None).known_goals == ()
    assert (5, 0) in state.view(0).face_down and state.view(1).hand == tuple(sorted(state.hands[1]))


# ---------------------------------------------------------------- empty pile and round ends
def test_empty_pile_no_draw_still_must_play():
    state = duel(hands=(["EW"], []))
    state.deck.clear()
    state.apply(PlacePath("EW", 1, 1))
    assert len(state.hands[GREEN]) == 5 and state.current_player == BLUE
    assert all(not isinstance(a, EndTurn) for a in state.legal_actions())


def test_player_without_cards_is_skipped():
    state = duel()
    state.deck.clear()
    state.hands[BLUE] = []
    pass_turn(state)
    assert state.current_player == GREEN and state.round_no == 1


def test_round_ends_when_pile_and_hands_empty():
    state = duel()
    end_round(state)
    assert state.round_no == 2 and len(state.results) == 1


def test_round_end_on_empty_hands_is_immediate_no_bribe():
    state = duel(hands=(["troll:EW"], []))
    state.deck.clear()
    state.hands = [["troll:EW"], []]
    state.apply(PlacePath("troll:EW", 1, 1))  # the last card: no bribe may follow
    assert state.round_no == 2 and state.results[0].details["bribes"] == [0, 0]


def test_round_ends_when_all_goals_face_up():
    state = reach_goal_from_west("goal0:NESW")
    for x, y in C.GOAL_CELLS:
        if (x, y) != (5, 0):
            reveal(state, x, y)
    state.apply(PlacePath("NES", 4, 0))
    assert state.round_no == 2


def test_gold_taken_at_round_end_goals_leave_game():
    state = duel(hands=(["gold:NESW"], []))
    round_goals = list(state.round_goals)
    state.apply(PlacePath("gold:NESW", 0, 0))
    end_round(state)
    assert state.gold[GREEN] == ["gold:NESW"] and state.results[0].gold == [1, 0]
    assert set(round_goals) <= set(state.out)
    assert not set(round_goals) & set(state.round_goals + state.goals_left)
    in_play = Counter(state.deck + state.hands[0] + state.hands[1])
    assert in_play["gold:NESW"] == 0 and in_play["gold:EW"] == 1  # unclaimed gold returns
    assert sum(in_play.values()) == 52 - 1
    assert state.view(0).markers_left == (8, 8) and state.keys_left == 2  # supply restored


@pytest.mark.parametrize(("gold", "starter"), [
    ([["gold:EW"], []], BLUE), ([[], ["gold:EW"]], GREEN), ([["gold:EW"], ["gold:SW"]], BLUE),
])
def test_next_round_less_gold_begins_blue_on_tie(gold, starter):
    state = duel()
    state.gold = gold
    end_round(state)
    assert state.round_no == 2 and state.current_player == starter


def test_tie_blue_begins_whatever_its_seat():
    state = duel(seat0_colour="blue")
    end_round(state)
    assert state.current_player == 0


@pytest.mark.parametrize(("gold", "winners", "returns"), [
    ([["goal3:EW"], ["goal1:EW"]], [0], [1.0, -1.0]),
    ([["goal1:EW"], ["goal3:EW"]], [1], [-1.0, 1.0]),
    ([["goal2:SW"], ["goal2:NEW"]], [0, 1], [0.0, 0.0]),
])
def test_three_rounds_then_most_gold_wins(gold, winners, returns):
    state = duel()
    for _ in range(C.ROUNDS - 1):
        end_round(state)
    state.gold = gold
    end_round(state)
    assert state.is_terminal and len(state.results) == 3
    assert state.winners() == winners and state.returns() == returns


# ---------------------------------------------------------------- illegal actions
@pytest.mark.parametrize(("action", "error"), [
    (PlacePath("NESW", 1, 1), CardNotInHand),
    (PlacePath("EW", 3, 3), IllegalPlacement),
    (PlacePath("EW", 0, 1), IllegalPlacement),  # taken
    (Orient(False), WrongPhase),
    (EndTurn(), WrongPhase),
    (PlayOnCell("map", 1, 1), InvalidTarget),
])
def test_illegal_action_specific_error_state_unchanged(action, error):
    state = duel(hands=(["EW", "map"], []))
    refuse(state, action, error)


def test_not_your_turn_and_game_over():
    state = duel()
    before = snapshot(state)
    with pytest.raises(NotYourTurn):
        state.apply_as(BLUE, Pass((state.hands[BLUE][0],)))
    assert snapshot(state) == before
    for _ in range(C.ROUNDS):
        end_round(state)
    with pytest.raises(GameOver):
        state.apply(Pass(("EW",)))
    assert issubclass(GameOver, IllegalAction)


# ---------------------------------------------------------------- solo mode
def test_solo_layout_markers_and_set_aside():
    state = solo()
    assert board(state) == {(0, 0): ("start-green", False)}
    assert state.view(0).face_down == tuple(sorted(C.SOLO_GOAL_CELLS))
    assert state.pools == [6] and len(state.aside) == 10
    assert len(state.hands[0]) == 6 and len(state.deck) == 52 - 10 - 6


def test_solo_set_aside_returns_next_round():
    aside = ["map", "map", "key", "key", "key", "rockfall", "rockfall", "NESW", "NESW", "EW"]
    state = solo(aside=aside)
    assert "map" not in state.deck + state.hands[0]
    end_round(state)
    cards = Counter(state.deck + state.hands[0] + state.aside + state.in_front[0]
                    + state.discards)
    assert cards["map"] == 2 and cards["key"] == 3 and sum(cards.values()) == 52
    assert len(state.aside) == 10


def test_solo_opening_hand_sabotage_in_front_duplicate_discarded_rockfall_replaced():
    state = solo(draws=["break-cart", "break-cart", "rockfall"])
    assert state.in_front[0] == ["break-cart"]
    assert Counter(state.discards) == {"break-cart": 1, "rockfall": 1}
    assert len(state.hands[0]) == 6
    assert not {"break-cart", "rockfall"} & set(state.hands[0])
    assert board(state) == {(0, 0): ("start-green", False)}  # nothing to remove


def test_solo_drawn_sabotage_in_front_and_replaced():
    state = solo(draws=["EW"] * 2 + ["NESW"] * 2 + ["NEW"] * 2 + ["break-lantern", "NS"])
    state.apply(Pass(("EW",)))
    assert state.in_front[0] == ["break-lantern"]
    assert sorted(state.hands[0]) == ["EW", "NESW", "NESW", "NEW", "NEW", "NS"]


def test_solo_drawn_rockfall_removes_last_plain_path_card():
    state = solo(draws=["EW"] * 2 + ["NESW"] * 2 + ["NEW"] * 2 + ["rockfall", "NS"])
    put_all(state, [("NES", 1, 0), ("E,W", 2, 0), ("gold:EW", 3, 0), ("troll:EW", 4, 0)])
    state.apply(Pass(("EW",)))
    assert set(board(state)) == {(0, 0), (1, 0), (3, 0), (4, 0)}  # E,W was the last plain one
    assert "NS" in state.hands[0] and len(state.hands[0]) == 6


def test_solo_other_colour_ladder_is_ordinary_path():
    state = solo(draws=["ladder-blue:EW", "ladder-green:EW"])
    put(state, "NESW", 2, 5)  # isolated
    assert PlacePath("ladder-green:EW", 1, 5) in state.legal_actions()
    refuse(state, PlacePath("ladder-blue:EW", 1, 5), IllegalPlacement)  # needs connection
    put(state, "NESW", 1, 0)
    assert PlacePath("ladder-blue:EW", 2, 0) in state.legal_actions()


def test_solo_other_colour_ladder_keeps_placement_limits():
    state = solo(draws=["ladder-blue:EW"])
    put(state, "gold:NESW", 1, 0)
    refuse(state, PlacePath("ladder-blue:EW", 2, 0), IllegalPlacement)


@pytest.mark.parametrize(("total", "rating"), [
    (0, "apprentice"), (14, "apprentice"), (15, "miner"), (19, "miner"),
    (20, "master miner"), (24, "master miner"), (25, "legend"), (40, "legend"),
])
def test_solo_rating(total, rating):
    state = solo()
    state.gold = [["goal1:EW"] * total]
    assert state.rating() == rating
    assert [low for low, _ in C.SOLO_RATINGS] == [0, 15, 20, 25]


def test_solo_other_colour_door_blocks_until_key():
    state = solo(draws=["key"])
    put(state, "door-blue:EW", 1, 0)
    assert (2, 0) not in cells_open(state)
    state.apply(PlayOnCell("key", 1, 0))
    assert (2, 0) in cells_open(state)


def test_solo_round_ends_when_six_markers_out():
    state = solo(draws=["gold:NESW"])
    state.pools = [1]
    state.apply(PlacePath("gold:NESW", 1, 0))
    assert state.round_no == 2 and state.gold == [["gold:NESW"]]
