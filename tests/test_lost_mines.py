"""Saboteur: The Lost Mines: one test per rule of lost-mines.md (positions set up by hand)."""

from __future__ import annotations

from collections import Counter

import pytest

from pysaboteur.engine.actions import (
    Move,
    NoMove,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnJoint,
    PlayOnPlayer,
    PlayOnTreasure,
    ProposeEnd,
    Take,
    Vote,
)
from pysaboteur.engine.errors import IllegalMove, IllegalPlacement, InvalidTarget, WrongPhase
from pysaboteur.engine.maze import cell
from pysaboteur.games.lost_mines import LostMinesGame, LostMinesState
from pysaboteur.games.lost_mines import cards as C
from pysaboteur.games.lost_mines.state import CARD, MOVE, ORIENT, TAKE, dwarf_box, round_points
from pysaboteur.registry import make_game

CAT = C.CATALOGUE
pytestmark = pytest.mark.usefixtures("both_paths")  # the core's and the pure engine's


# ---------------------------------------------------------------- helpers
def fresh(players: int = 3, seed: int = 7) -> LostMinesState:
    state = LostMinesGame(players).new_state(seed)
    for seat in range(players):
        state.hands[seat] = ["NS", "NS", "NS"]
        place_pawn(state, seat, 0, 2)
    return state


def put(state: LostMinesState, code: str, x: int, y: int, rotated: bool = False) -> None:
    state.maze.place(cell(x, y), CAT.otile[code, rotated])


def place_pawn(state: LostMinesState, seat: int, x: int, y: int, seg: int = 0) -> None:
    state.pawn[seat], state.pawn_seg[seat] = cell(x, y), seg


def to_move(state: LostMinesState, seat: int) -> None:
    """Pretend ``seat`` has just played a card: its move is the next decision."""
    state.turn = state.current = seat
    state.phase = MOVE
    state.pending_draw = 1


def routes(state: LostMinesState) -> set[tuple[tuple[int, int], ...]]:
    return {a.route for a in state.legal_actions() if isinstance(a, Move)}


def row(state: LostMinesState, y: int, xs: range, code: str = "EW") -> None:
    for x in xs:
        put(state, code, x, y)


def finish_turn(state: LostMinesState) -> None:
    """Pass with one card and stay."""
    seat = state.current
    state.apply(Pass((sorted(state.hands[seat])[0],)))
    if state.phase == MOVE and state.current == seat:
        state.apply(NoMove())


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize(("players", "hand", "dwarves"), [(3, 5, 6), (5, 5, 8), (7, 4, 10),
                                                          (9, 4, 10)])
def test_setup_by_player_count(players: int, hand: int, dwarves: int) -> None:
    state = LostMinesGame(players).new_state(1)
    assert all(len(h) == hand for h in state.hands)
    assert len(dwarf_box(players)) == dwarves
    assert len(state.layout) == players and len(state.treasures_out) == 12 - players
    assert len(state.aside) == C.SET_ASIDE
    assert sorted(state.maze.hidden) == sorted(cell(*c) for c in C.MINE_CELLS)
    for seat in range(players):  # the pawn starts on its clan's start card
        assert state.pawn[seat] == cell(*C.STARTS[state.clan(seat)])


def test_box_counts() -> None:
    assert len(CAT.box(["path"])) == 40 and len(CAT.box(["action"])) == 23
    assert len(CAT.box(["treasure"])) == 12 and len(CAT.box(["dwarf"])) == 10


def test_registry_and_options() -> None:
    game = make_game("lost-mines")
    assert game.players == 5 and game.options.rounds == 2
    with pytest.raises(ValueError):
        make_game("lost-mines", 10)
    state = make_game("lost-mines", 4, rounds=3, first_player=2).new_state(3)
    assert state.current_player == 2


# ---------------------------------------------------------------- placing
def test_placement_needs_an_open_path_end_on_the_board() -> None:
    state = fresh()
    state.turn = state.current = 0
    state.hands[0] = ["EW"]
    legal = state.legal_actions()
    assert PlacePath("EW", 1, 2) in legal  # next to the start: fine
    assert PlacePath("EW", -1, 2) not in legal  # off the board
    assert PlacePath("EW", 5, 5) not in legal  # extends nothing
    with pytest.raises(IllegalPlacement, match="off the"):
        state.apply(PlacePath("EW", -1, 2))
    put(state, "N", 3, 3)  # a dead end: its open N edge is an open path end
    assert PlacePath("EW", 3, 2) not in state.legal_actions()  # would not fit (S closed)
    state.hands[0] = ["NS"]
    assert PlacePath("NS", 3, 2) in state.legal_actions()  # need not connect to a start


def test_placement_next_to_a_face_down_mine_is_free() -> None:
    state = fresh()
    state.turn = state.current = 0
    row(state, 2, range(1, 9))
    state.hands[0] = ["NS"]
    # (9, 2) touches the face-down mine at (10, 2) but no open end: not allowed
    assert not any(isinstance(a, PlacePath) and (a.x, a.y) == (9, 2)
                   for a in state.legal_actions())
    state.hands[0] = ["EW"]
    assert PlacePath("EW", 9, 2) in state.legal_actions()


# ---------------------------------------------------------------- moving
def test_moves_are_one_to_three_steps_along_segments() -> None:
    state = fresh()
    row(state, 2, range(1, 6))
    to_move(state, 0)
    assert routes(state) >= {((1, 2),), ((1, 2), (2, 2)), ((1, 2), (2, 2), (3, 2))}
    assert ((1, 2), (2, 2), (3, 2), (4, 2)) not in routes(state)
    with pytest.raises(IllegalMove, match="at most 3"):
        state.apply(Move(((1, 2), (2, 2), (3, 2), (4, 2))))


def test_a_dead_end_stub_leads_nowhere() -> None:
    state = fresh()
    put(state, "E,W", 1, 2)
    put(state, "EW", 2, 2)
    to_move(state, 0)
    assert routes(state) == {((1, 2),)}


def test_campfire_range_counts_from_the_start_of_the_move() -> None:
    state = fresh()
    put(state, "campfire:EW", 1, 2)
    row(state, 2, range(2, 8))
    to_move(state, 0)  # on the start: 3 steps, even across the campfire
    assert max(len(r) for r in routes(state)) == 3
    place_pawn(state, 0, 1, 2)  # on the campfire: 5
    assert ((2, 2), (3, 2), (4, 2), (5, 2), (6, 2)) in routes(state)
    assert max(len(r) for r in routes(state)) == 5


def test_obstacle_blocks_until_overcome_then_holds_one_dwarf() -> None:
    state = fresh()
    put(state, "EW", 1, 2)
    put(state, "log:EW", 2, 2)
    put(state, "EW", 3, 2)
    to_move(state, 0)
    assert routes(state) == {((1, 2),)}
    with pytest.raises(IllegalMove, match="not overcome"):
        state.apply(Move(((1, 2), (2, 2))))
    # the axe lays a forest tile on the logs: passable, room for one
    state.phase = CARD
    state.hands[0] = ["axe", "boat"]
    legal = state.legal_actions()
    assert PlayOnCell("axe", 2, 2) in legal and not any(
        isinstance(a, PlayOnCell) and a.card == "boat" for a in legal)
    state.apply(PlayOnCell("axe", 2, 2))
    assert cell(2, 2) in state.overcome and state.phase == MOVE
    assert ((1, 2), (2, 2), (3, 2)) in routes(state)
    place_pawn(state, 1, 2, 2)
    assert routes(state) == {((1, 2),)}


def test_rock_passable_when_empty_never_with_another_dwarf() -> None:
    state = fresh()
    put(state, "EW", 1, 2)
    put(state, "rock:EW", 2, 2)
    put(state, "EW", 3, 2)
    to_move(state, 0)
    assert {((1, 2), (2, 2)), ((1, 2), (2, 2), (3, 2))} <= routes(state)
    place_pawn(state, 1, 2, 2)
    assert routes(state) == {((1, 2),)}  # neither stop on it nor pass through
    with pytest.raises(IllegalMove, match="one dwarf"):
        state.apply(Move(((1, 2), (2, 2), (3, 2))))
    # an ordinary card holds any number of dwarves
    place_pawn(state, 1, 1, 2)
    place_pawn(state, 2, 1, 2)
    assert ((1, 2),) in routes(state)


def _square(state: LostMinesState) -> None:
    for x, y in ((1, 1), (2, 1), (1, 2), (2, 2)):
        put(state, "NESW", x, y)


def test_trap_triggers_only_on_the_route_that_crosses_it() -> None:
    state = fresh()
    _square(state)
    state.traps.add(cell(1, 2) << 4 | 2)  # joint (1, 2)-(2, 2)
    place_pawn(state, 0, 1, 2)
    to_move(state, 0)
    safe = state.clone()
    state.apply(Move(((2, 2), (2, 1))))
    assert len(state.hands[0]) == 3  # 3 - 1 (trap) + 1 (draw)
    assert len(state.discards) == 1 and state.traps  # the trap stays
    safe.apply(Move(((1, 1), (2, 1))))
    assert len(safe.hands[0]) == 4 and not safe.discards
    assert state.pawn[0] == safe.pawn[0] == cell(2, 1)


def test_troll_blocks_its_joint_until_its_owner_next_turn() -> None:
    state = fresh()
    put(state, "EW", 1, 2)
    put(state, "EW", 2, 2)
    state.turn = state.current = 0
    state.hands[0] = ["troll", "NS", "NS"]
    assert PlayOnJoint("troll", 0, 2, "E") in state.legal_actions()
    state.apply(PlayOnJoint("troll", 0, 2, "E"))
    assert state.in_front[0] == ["troll"]
    assert state.current == 1  # the troll blocks the only way out: no move to offer
    state.apply(Pass(("NS",)))
    assert state.current == 2  # blocked for every dwarf
    finish_turn(state)  # seat 2
    assert state.current == 0 and not state.trolls and state.in_front[0] == []
    assert "troll" in state.discards


def test_storm_removes_tokens_only_between_two_empty_spaces() -> None:
    state = fresh()
    row(state, 2, range(1, 3))
    between = cell(1, 2) << 4 | 2  # (1, 2)-(2, 2)
    open_end = cell(2, 2) << 4 | 2  # (2, 2)-(3, 2), (3, 2) empty
    state.traps |= {between}
    state.trolls[open_end] = 1
    state.in_front[1] = ["troll"]
    state.overcome.add(cell(2, 2))
    state.turn = state.current = 0
    state.hands[0] = ["storm", "NS"]
    legal = state.legal_actions()
    assert PlayOnCell("storm", 2, 2) in legal
    assert PlayOnCell("storm", 0, 2) not in legal  # never a start
    assert PlayOnCell("storm", 1, 2) in legal
    state.apply(PlayOnCell("storm", 2, 2))
    assert cell(2, 2) not in state.maze.cells and cell(2, 2) not in state.overcome
    assert between in state.traps  # (1, 2) still holds a card
    assert not state.trolls and state.in_front[1] == []


def test_storm_spares_a_card_with_a_dwarf() -> None:
    state = fresh()
    put(state, "EW", 1, 2)
    place_pawn(state, 1, 1, 2)
    state.turn = state.current = 0
    state.hands[0] = ["storm"]
    assert PlayOnCell("storm", 1, 2) not in state.legal_actions()
    with pytest.raises(InvalidTarget):
        state.apply(PlayOnCell("storm", 1, 2))


# ---------------------------------------------------------------- mines and treasures
def _to_mine(state: LostMinesState, mine: str) -> None:
    """Seat 0 stands at (9, 2), next to the face-down ``mine`` at (10, 2)."""
    state.maze.hidden[cell(10, 2)] = mine
    row(state, 2, range(1, 10))
    place_pawn(state, 0, 9, 2)
    to_move(state, 0)


def test_mine_lies_so_that_it_can_be_entered_and_the_move_ends_there() -> None:
    state = fresh()
    _to_mine(state, "mine-silver")  # NES: only turned (NSW) opens to the west
    assert ((10, 2),) in routes(state)
    state.apply(Move(((10, 2),)))
    assert state.maze.cells[cell(10, 2)] == CAT.otile["mine-silver", True]
    assert state.pawn[0] == cell(10, 2)


def test_route_cannot_pass_a_face_down_mine() -> None:
    state = fresh()
    _to_mine(state, "mine-gems")
    put(state, "NS", 10, 3)
    place_pawn(state, 0, 8, 2)
    assert ((9, 2), (10, 2)) in routes(state)
    assert ((9, 2), (10, 2), (10, 3)) not in routes(state)


def test_mine_with_two_ways_is_the_movers_choice() -> None:
    state = fresh()
    _to_mine(state, "mine-gold")  # NEW and ESW both open to the west
    state.layout = ["silver-2", "silver-3", "gems-1"]
    state.apply(Move(((10, 2),)))
    assert state.phase == ORIENT and state.current == 0
    assert state.legal_actions() == [Orient(False), Orient(True)]
    assert state.view(1).pending == (10, 2, "mine-gold", (False, True))
    state.apply(Orient(True))
    assert state.maze.cells[cell(10, 2)] == CAT.otile["mine-gold", True]
    assert state.current == 1  # no gold treasure laid out: nothing to take


def test_treasure_taken_on_arrival_choice_when_several() -> None:
    state = fresh()
    _to_mine(state, "mine-gems")
    state.layout = ["gems-1", "silver-2", "gems-6"]
    state.apply(Move(((10, 2),)))
    assert state.phase == TAKE and state.legal_actions() == [Take(0), Take(2)]
    state.apply(Take(2))
    assert state.owner == [-1, -1, 0] and state.collected[0] == [2]
    assert state.view(0).own_treasures == ("gems-6",)
    assert state.view(1).collected[0] == ("gems",) and state.view(1).own_treasures == ()


def test_treasure_taken_when_staying_on_a_mine() -> None:
    state = fresh()
    put(state, "mine-gems", 10, 2)  # already turned over
    put(state, "EW", 9, 2)
    state.layout = ["gems-1", "silver-2", "gems-6"]
    state.owner = [-1, -1, 0]
    place_pawn(state, 1, 10, 2)
    to_move(state, 1)
    state.apply(NoMove())
    assert state.owner == [1, -1, 0]  # the only gems left: no choice to make


def test_sitting_out_player_neither_moves_nor_collects() -> None:
    state = fresh()
    put(state, "mine-gems", 10, 2)
    state.layout = ["gems-1", "silver-2", "gems-6"]
    place_pawn(state, 1, 10, 2)
    state.hands[1] = []
    state.turn = state.current = 0
    finish_turn(state)
    assert state.current == 2 and state.owner == [-1, -1, -1]


def test_dragon_goes_to_whoever_turns_it_over() -> None:
    state = fresh()
    _to_mine(state, "mine-dragon")
    state.apply(Move(((10, 2),)))
    if state.phase == ORIENT:
        state.apply(Orient(False))
    assert state.dragon == 0 and state.view(2).dragon == 0


def test_round_ends_when_all_laid_out_treasures_are_collected() -> None:
    state = fresh()
    _to_mine(state, "mine-gems")
    state.layout = ["gems-1", "silver-2", "gems-6"]
    state.owner = [-1, 1, 2]
    state.apply(Move(((10, 2),)))
    assert state.round_no == 2 and len(state.results) == 1
    assert state.results[0].details["treasures"][0] == ["gems-1"]
    assert state.current == 1  # the left neighbour of the player who played last


# ---------------------------------------------------------------- information
def test_information_card_looks_are_private() -> None:
    state = fresh()
    state.turn = state.current = 0
    state.hands[0] = ["info-mine-dwarf", "info-treasure-dwarf", "NS"]
    legal = state.legal_actions()
    assert PlayOnCell("info-mine-dwarf", 8, 0) in legal
    assert PlayOnPlayer("info-mine-dwarf", 1) in legal
    assert PlayOnPlayer("info-mine-dwarf", 0) not in legal  # another player's card
    assert PlayOnTreasure("info-treasure-dwarf", 2) in legal
    assert not any(isinstance(a, PlayOnTreasure) and a.card == "info-mine-dwarf" for a in legal)
    state.apply(PlayOnCell("info-mine-dwarf", 8, 0))
    assert state.view(0).known_mines == ((8, 0, state.maze.hidden[cell(8, 0)]),)
    assert state.view(1).known_mines == ()


def test_identity_secret_clan_public() -> None:
    state = make_game("lost-mines", 5).new_state(4)
    view = state.view(0)
    assert view.identity == state.identity(0)
    assert view.clans == tuple(state.clan(s) for s in range(5))
    assert view.known_dwarves == () and "dwarves" not in str(view.to_json()["results"])


# ---------------------------------------------------------------- round ends
def test_round_ends_at_once_when_the_pile_and_all_hands_are_empty() -> None:
    state = fresh()
    row(state, 2, range(1, 3))
    state.deck = []
    state.hands = [["NS"], [], []]
    state.turn = state.current = 0
    state.apply(Pass(("NS",)))
    assert len(state.results) == 1 and state.round_no == 2  # no move was offered


def test_vote_all_accept_ends_the_round() -> None:
    state = fresh()
    state.turn = state.current = 1
    state.apply(ProposeEnd())
    assert state.current == 2 and state.legal_actions() == [Vote(True), Vote(False)]
    state.apply(Vote(True))
    assert state.current == 0
    state.apply(Vote(True))
    assert len(state.results) == 1 and state.round_no == 2 and state.current == 2


def test_vote_declined_returns_to_the_proposer_once_per_turn() -> None:
    state = fresh()
    state.turn = state.current = 1
    state.apply(ProposeEnd())
    state.apply(Vote(False))
    assert state.current == 1 and state.phase == CARD and not state.results
    assert ProposeEnd() not in state.legal_actions()
    with pytest.raises(WrongPhase):
        state.apply(Vote(True))


def test_match_lasts_the_rounds_option() -> None:
    for rounds in (1, 3):
        state = make_game("lost-mines", 3, rounds=rounds).new_state(2)
        while not state.is_terminal:
            state.apply(ProposeEnd() if state.phase == CARD else Vote(True))
        assert len(state.results) == rounds


# ---------------------------------------------------------------- scoring
def test_selfish_dwarf_keeps_its_own_treasures() -> None:
    points = round_points(["blue-selfish", "blue-loyal", "yellow-loyal"],
                          [["gold-5"], ["gems-2"], []], None)
    assert points == [5, 2, 0]


def test_clan_shares_rounded_down_remainder_to_the_most_valuable_treasure() -> None:
    points = round_points(["blue-loyal", "blue-loyal", "yellow-loyal"],
                          [["gold-4"], ["gems-1"], ["silver-2"]], None)
    assert points == [3, 2, 2]  # 5 = 2 + 2, remainder 1 to the holder of the 4


def test_remainder_split_among_ties_and_the_rest_lost() -> None:
    dwarves = ["blue-loyal", "blue-loyal", "blue-loyal"]
    assert round_points(dwarves, [["gold-5"], ["gems-5"], ["gems-1"]], None) == [4, 4, 3]
    # 13 = 3 x 4 + 1: the 1 cannot be split between the two 5s: lost
    assert round_points(dwarves, [["gold-5"], ["gems-5"], ["silver-3"]], None) == [4, 4, 4]


def test_saboteur_counts_with_the_opposing_clan() -> None:
    points = round_points(["blue-loyal", "yellow-saboteur", "yellow-loyal"],
                          [["gold-4"], ["gems-6"], ["silver-3"]], None)
    assert points == [5, 5, 3]


def test_dragon_costs_two_at_most_what_was_earned() -> None:
    dwarves = ["blue-selfish", "yellow-selfish", "blue-loyal"]
    treasures = [["gold-5"], ["gems-1"], []]
    assert round_points(dwarves, treasures, 0) == [3, 1, 0]
    assert round_points(dwarves, treasures, 1) == [5, 0, 0]
    assert round_points(dwarves, treasures, 2) == [5, 1, 0]


def test_returns_share_a_tie() -> None:
    state = make_game("lost-mines", 3, rounds=1).new_state(2)
    state.apply(ProposeEnd())
    state.apply(Vote(True))
    state.apply(Vote(True))
    assert state.is_terminal and state.returns() == [1 / 3] * 3


# ---------------------------------------------------------------- notation
@pytest.mark.parametrize("text", ["trap@3,2:E", "troll@0,4:S", "info-mine-dwarf#2",
                                  "info-mine-dwarf>1", "move 1,2 2,2 2,3", "stay", "take 4",
                                  "propose end", "accept", "decline", "storm@4,4", "axe@2,2",
                                  "NES@3,2r", "orient r", "pass NS trap"])
def test_notation_round_trip(text: str) -> None:
    game = make_game("lost-mines")
    assert str(game.parse_action(text)) == text


def test_joint_has_one_spelling() -> None:
    game = make_game("lost-mines")
    assert game.parse_action("trap@4,2:W") == PlayOnJoint("trap", 3, 2, "E")
    assert game.parse_action("trap@3,3:N") == PlayOnJoint("trap", 3, 2, "S")


def test_census_is_the_whole_box_but_the_starts() -> None:
    state = make_game("lost-mines", 6).new_state(5)
    box = Counter({k.code: k.count for k in CAT.kinds if k.category != "start"})
    box -= Counter({f"{clan}-{C.LOYAL}": C.LOYAL_REMOVED[6] for clan in C.CLANS})
    box.update({f"{clan}-{C.LOYAL}": C.LOYAL_REMOVED[6] for clan in C.CLANS})
    assert state.census() == box
