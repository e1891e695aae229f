"""Saboteur, the base game: one test per rule of classic.md."""

from __future__ import annotations

from collections import Counter

import pytest

from pysaboteur.engine.actions import Discard, Orient, Pass, PlacePath, PlayOnCell, PlayOnPlayer
from pysaboteur.engine.errors import Blocked, IllegalAction, IllegalPlacement, InvalidTarget
from pysaboteur.engine.maze import cell
from pysaboteur.games.classic import cards as C
from pysaboteur.games.classic.state import ORIENT, ClassicGame, ClassicState
from pysaboteur.registry import make_game
from saboteur_helpers import corridor, fixed_deal, lay, put_in_front

pytestmark = pytest.mark.usefixtures("both_paths")  # the core's and the pure engine's

CAT = C.CATALOGUE
D, S = C.DIGGER, C.SABOTEUR


def new(players: int = 4, hands: dict[int, list[str]] | None = None,
        roles: tuple[str, ...] = (), seed: int = 1, **options: object) -> ClassicState:
    game = ClassicGame(players, **options)
    return game.new_state(seed, fixed_deal(game, hands, roles))


def count(category: str) -> Counter[str]:
    return Counter(CAT.box([category]))


# ------------------------------------------------------------------ components
def test_components() -> None:
    assert len(CAT.box(["path"])) == 40
    through = sum(k.count for k in C.TUNNELS if len(k.tile.segments) == 1  # type: ignore[union-attr]
                  and k.tile.segments[0].bit_count() >= 2)  # type: ignore[union-attr]
    assert through == 31
    assert len(CAT.box(["action"])) == 27
    assert count("gold") == {"nugget1": 16, "nugget2": 8, "nugget3": 4}
    assert count("role") == {D: 7, S: 4}
    assert len(CAT.box(["goal"])) == 3 and len(CAT.box(["start"])) == 1
    assert CAT["goal-gold:NESW"].tile.notation == "NESW"  # type: ignore[union-attr]


def test_registry() -> None:
    assert make_game("classic").players == 4
    with pytest.raises(ValueError):
        make_game("classic", 2)
    with pytest.raises(ValueError):
        make_game("classic", 11)


@pytest.mark.parametrize(("players", "saboteurs", "diggers", "hand"), [
    (3, 1, 3, 6), (4, 1, 4, 6), (5, 2, 4, 6), (6, 2, 5, 5), (7, 3, 5, 5), (8, 3, 6, 4),
    (9, 3, 7, 4), (10, 4, 7, 4)])
def test_setup_table(players: int, saboteurs: int, diggers: int, hand: int) -> None:
    state = ClassicGame(players).new_state(players)
    dwarves = Counter(state.roles + state.spare_roles)
    assert dwarves == {S: saboteurs, D: diggers}
    assert len(state.spare_roles) == 1  # one stays face down
    assert all(len(h) == hand for h in state.hands)
    assert len(state.deck) == 67 - players * hand
    # max_saboteurs: one gold-digger less, nothing set aside
    state = ClassicGame(players, max_saboteurs=True).new_state(players)
    assert Counter(state.roles) == {S: saboteurs, D: diggers - 1} and state.spare_roles == []


def test_layout_and_random_gold() -> None:
    where = set()
    for seed in range(30):
        state = ClassicGame(4).new_state(seed)
        assert CAT.codes[state.maze.cells[cell(0, 0)]] == "start"
        assert sorted(state.maze.hidden) == sorted(cell(x, y) for x, y in C.GOAL_CELLS)
        where |= {c for c, code in state.maze.hidden.items() if code == "goal-gold:NESW"}
    assert len(where) == 3


def test_first_player_option() -> None:
    assert ClassicGame(5, first_player=3).new_state(0).current_player == 3
    with pytest.raises(ValueError):
        ClassicGame(5, first_player=5)


# ------------------------------------------------------------------ a turn
def test_path_must_fit_and_connect() -> None:
    state = new(hands={0: ["EW", "NS", "ES"]})
    lay(state, "EW", 1, 0)
    legal = state.legal_actions()
    assert PlacePath("EW", 2, 0) in legal
    # (1, 1) touches the maze but the EW above it has no S edge: not connected
    assert not any(isinstance(a, PlacePath) and (a.x, a.y) == (1, 1) for a in legal)
    with pytest.raises(IllegalPlacement):
        state.apply(PlacePath("EW", 1, 1))
    with pytest.raises(IllegalPlacement):
        state.apply(PlacePath("NS", 2, 0))  # does not fit
    state.apply(PlacePath("EW", 2, 0))
    assert state.hands[0].count("EW") == 0 and len(state.hands[0]) == 6  # drew one


def test_broken_tool_blocks_building() -> None:
    state = new(hands={0: ["break-cart", "EW"]})
    state.apply(PlayOnPlayer("break-cart", 0))  # oneself included
    assert state.in_front[0] == ("break-cart",)
    for _ in range(3):
        state.apply(state.legal_actions()[-1])
    assert state.current_player == 0
    assert not any(isinstance(a, PlacePath) for a in state.legal_actions())
    with pytest.raises(Blocked):
        state.apply(PlacePath("EW", 1, 0))


def test_break_only_without_that_broken_tool() -> None:
    state = new(hands={0: ["break-cart", "break-pickaxe"]})
    put_in_front(state, 2, "break-cart")
    legal = state.legal_actions()
    assert PlayOnPlayer("break-cart", 2) not in legal
    assert PlayOnPlayer("break-pickaxe", 2) in legal
    assert {a.target for a in legal if isinstance(a, PlayOnPlayer) and a.card == "break-cart"} \
        == {0, 1, 3}
    with pytest.raises(InvalidTarget):
        state.apply(PlayOnPlayer("break-cart", 2))


def test_tool_targets_follow_every_change_of_the_cards_in_front(monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """The tool cards' targets are kept per set of cards in front (``FrontsMemo``) and shared
    per pattern of broken tools (``Tables.entries_for``): neither may outlive a change."""
    from pysaboteur.games.classic import menu

    state = new(hands={0: ["break-cart", "repair-cart"]})
    assert PlayOnPlayer("break-cart", 2) in state.legal_actions()
    assert not any(a.card == "repair-cart" for a in state.legal_actions()
                   if isinstance(a, PlayOnPlayer))
    before = state.in_front
    put_in_front(state, 2, "break-cart")
    assert before == ((),) * 4  # replaced, not changed
    legal = state.legal_actions()
    assert PlayOnPlayer("break-cart", 2) not in legal
    assert [a for a in legal if isinstance(a, PlayOnPlayer) and a.card == "repair-cart"] \
        == [PlayOnPlayer("repair-cart", 2)]
    # a clone keeps the memo while nothing changes, and goes its own way after
    copy = state.clone()
    copy.apply(PlayOnPlayer("repair-cart", 2))
    assert PlayOnPlayer("break-cart", 2) not in state.legal_actions()
    # past the bound the shared entries are forgotten, not wrong
    monkeypatch.setattr(menu, "MAX_FRONT_PATTERNS", 1)
    fresh = new(hands={0: ["break-cart", "repair-cart"]})
    put_in_front(fresh, 1, "break-cart")
    assert PlayOnPlayer("repair-cart", 1) in fresh.legal_actions()
    assert PlayOnPlayer("break-cart", 1) not in fresh.legal_actions()
    assert PlayOnPlayer("break-cart", 2) in fresh.legal_actions()


def test_two_tool_repair_mends_one() -> None:
    state = new(hands={0: ["repair-pickaxe-lantern", "repair-cart"]})
    put_in_front(state, 0, "break-pickaxe", "break-lantern")
    legal = state.legal_actions()
    assert PlayOnPlayer("repair-pickaxe-lantern", 0, "pickaxe") in legal
    assert PlayOnPlayer("repair-cart", 0) not in legal  # nothing to mend
    state.apply(PlayOnPlayer("repair-pickaxe-lantern", 0, "lantern"))
    assert state.in_front[0] == ("break-pickaxe",)
    assert Counter(state.discards) == {"repair-pickaxe-lantern": 1, "break-lantern": 1}


def test_repair_on_another_player() -> None:
    state = new(hands={0: ["repair-cart"]})
    put_in_front(state, 3, "break-cart")
    assert state.legal_actions().count(PlayOnPlayer("repair-cart", 3)) == 1
    state.apply(PlayOnPlayer("repair-cart", 3))
    assert state.in_front[3] == ()


def test_rockfall_removes_a_path_card_not_start_or_goal() -> None:
    state = new(hands={0: ["rockfall"]})
    lay(state, "EW", 1, 0)
    targets = {(a.x, a.y) for a in state.legal_actions()
               if isinstance(a, PlayOnCell) and a.card == "rockfall"}
    assert targets == {(1, 0)}
    with pytest.raises(InvalidTarget):
        state.apply(PlayOnCell("rockfall", 0, 0))
    state.apply(PlayOnCell("rockfall", 1, 0))
    assert cell(1, 0) not in state.maze.cells
    assert Counter(state.discards) == {"rockfall": 1, "EW": 1}


def test_map_is_private() -> None:
    state = new(hands={0: ["map"]})
    state.apply(PlayOnCell("map", 8, 0))
    assert state.view(0).known_goals == ((8, 0, "goal-gold:NESW"),)
    assert state.view(1).known_goals == () and state.view(None).known_goals == ()
    assert "map@8,0" in [m for _, m in state.view(1).log]  # that it was played is public


def test_pass_discards_exactly_one_and_draws_one() -> None:
    state = new(hands={0: ["EW", "NS"]})
    passes = [a for a in state.legal_actions() if isinstance(a, Pass)]
    assert passes and all(len(a.cards) == 1 for a in passes)
    with pytest.raises(IllegalAction):
        state.apply(Pass(("EW", "NS")))
    with pytest.raises(IllegalAction):
        state.apply(Discard(("EW", "NS"), "EW"))
    state.apply(Pass(("EW",)))
    assert len(state.hands[0]) == 6 and state.passed == [(0, "EW")] and state.discards == []
    assert state.view(1).log[-1] == (0, "pass 1")  # face down


def test_empty_pile_no_draw_and_empty_hand_skips() -> None:
    state = new(players=3)
    state.deck.clear()
    state.hands[1].clear()
    state.apply(state.legal_actions()[-1])
    assert len(state.hands[0]) == 5
    assert state.current_player == 2  # seat 1 has no cards: skipped


# ------------------------------------------------------------------ goals
def test_gold_reached_ends_round_and_diggers_share() -> None:
    state = new(hands={1: ["EW"]}, roles=(D, D, S, D))
    state.apply(state.legal_actions()[-1])  # seat 0 passes
    corridor(state, 6)
    state.nuggets = ["nugget1", "nugget1", "nugget2", "nugget3"]  # exactly 4 drawn
    state.apply(PlacePath("EW", 7, 0))
    assert state.round_no == 2 and len(state.results) == 1
    res = state.results[0]
    assert res.details["side"] == "gold-diggers" and res.details["finder"] == 1
    # finder 1 takes 3, then counter-clockwise: 0 takes 2, 3 takes 1, (2 saboteur), 1 takes 1
    assert res.gold == [2, 4, 0, 1]
    assert state.current_player == 2  # left neighbour of the last player begins


def test_saboteur_finder_starts_with_next_digger_counter_clockwise() -> None:
    state = new(hands={1: ["EW"]}, roles=(D, S, D, D))
    state.apply(state.legal_actions()[-1])
    corridor(state, 6)
    state.nuggets = ["nugget1", "nugget1", "nugget2", "nugget3"]
    state.apply(PlacePath("EW", 7, 0))
    assert state.results[0].gold == [4, 0, 1, 2]  # 0 (3), then 3 (2), 2 (1), 0 again (1)


def test_sabotaged_diggers_get_nothing_option() -> None:
    for option, expected in ((False, [2, 4, 0, 1]), (True, [0, 4, 0, 3])):
        state = new(hands={1: ["EW"]}, roles=(D, D, S, D), sabotaged_diggers_get_nothing=option)
        state.apply(state.legal_actions()[-1])
        put_in_front(state, 0, "break-lantern")
        corridor(state, 6)
        state.nuggets = ["nugget1", "nugget1", "nugget2", "nugget3"]
        state.apply(PlacePath("EW", 7, 0))
        assert state.results[0].gold == expected


def test_more_players_than_nuggets_left() -> None:
    state = new(players=5, hands={0: ["EW"]}, roles=(D, D, S, D, S))
    corridor(state, 6)
    state.nuggets = ["nugget1", "nugget2"]
    state.apply(PlacePath("EW", 7, 0))
    assert sorted(state.results[0].gold) == [0, 0, 0, 1, 2] and state.nuggets == []


@pytest.mark.parametrize(("players", "drawn"), [
    (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 9)])
def test_diggers_draw_one_nugget_card_per_player_but_nine_at_ten(players: int,
                                                                 drawn: int) -> None:
    # classic.md: "as many nugget cards as there are players (9 in a 10-player game)"
    saboteurs = C.SETUP[players][0]
    roles = (D,) * (players - saboteurs) + (S,) * saboteurs
    state = new(players=players, hands={0: ["EW"]}, roles=roles)
    corridor(state, 6)
    state.apply(PlacePath("EW", 7, 0))
    assert state.results[0].details["side"] == "gold-diggers"
    assert sum(len(g) for g in state.gold) == drawn
    assert len(state.nuggets) == len(CAT.box(["gold"])) - drawn


def test_stone_goal_is_oriented_and_play_goes_on() -> None:
    goals = ("goal-gold:NESW", "goal-stone:SW", "goal-stone:NW")
    game = ClassicGame(4)
    state = game.new_state(1, fixed_deal(game, {0: ["EW"]}, goals=goals))
    corridor(state, 6)
    state.apply(PlacePath("EW", 7, 0))
    # SW (W open) fits the EW pointing at it; turned it would be NE, closed toward W
    assert CAT.codes[state.maze.cells[cell(8, 0)]] == "goal-stone:SW"
    assert state.round_no == 1 and state.current_player == 1


def test_unfitting_goal_prefers_most_open_edges_then_chooser() -> None:
    goals = ("goal-gold:NESW", "goal-stone:NW", "goal-stone:SW")
    game = ClassicGame(4)
    state = game.new_state(1, fixed_deal(game, {0: ["EW"]}, goals=goals))
    # (8, 0) holds NW: W and E neighbours both open toward it -> neither NW nor ES fits,
    # each has one open edge toward a reached side: the revealing player chooses
    for y in (1, 2, 3):
        lay(state, "NESW", 0, y)
    for x in range(1, 9):
        lay(state, "EW", x, 3)
    lay(state, "ES", 9, 3, rotated=True)  # N-W
    lay(state, "NS", 9, 2)
    lay(state, "NS", 9, 1)
    lay(state, "SW", 9, 0)  # its W edge faces the goal from the east
    corridor(state, 6)
    state.apply(PlacePath("EW", 7, 0))
    assert state.phase == ORIENT and state.current_player == 0
    assert set(state.legal_actions()) == {Orient(False), Orient(True)}
    state.apply(Orient(True))
    assert CAT.tiles[state.maze.cells[cell(8, 0)]].notation == "ES"
    assert state.current_player == 1 and len(state.hands[0]) == 6  # the draw came after


def test_gold_revealed_last() -> None:
    game = ClassicGame(4)
    state = game.new_state(1, fixed_deal(game, {0: ["NESW"]}))
    for x in range(1, 8):
        lay(state, "EW", x, -1)
    lay(state, "NS", 0, -1)  # start (0, 0) -> (0, -1) -> row -1
    state.maze.remove(cell(0, -1))
    lay(state, "NESW", 0, -1)
    at_end: list[dict[int, str]] = []
    state._next_round = lambda: at_end.append(dict(state.maze.hidden))  # type: ignore[method-assign]
    state.apply(PlacePath("NESW", 8, -1))  # touches the stone (8, -2) and the gold (8, 0)
    assert state.results[0].details["side"] == "gold-diggers"
    assert at_end == [{cell(8, 2): "goal-stone:SW"}]  # (8, -2) was turned over first


# ------------------------------------------------------------------ round end and scoring
@pytest.mark.parametrize(("saboteurs", "each", "players"), [(1, 4, 4), (2, 3, 5), (3, 3, 7),
                                                            (4, 2, 10), (0, 0, 3)])
def test_saboteurs_paid_by_count(saboteurs: int, each: int, players: int) -> None:
    diggers = players - saboteurs
    state = new(players=players, roles=(S,) * saboteurs + (D,) * diggers)
    state.deck.clear()
    for h in state.hands:
        h.clear()
    state.hands[0].append("map")
    state.apply(PlayOnCell("map", 8, 0))
    res = state.results[0]
    assert res.details["side"] == ("saboteurs" if saboteurs else "nobody")
    assert res.gold == [each] * saboteurs + [0] * diggers
    if each == 4:
        assert Counter(state.gold[0]) == {"nugget3": 1, "nugget1": 1}  # largest first


def test_round_ends_when_pile_and_hands_empty_and_next_starter() -> None:
    state = new(players=3)
    state.deck.clear()
    for h in state.hands:
        h[1:] = []
    for _ in range(3):
        state.apply(state.legal_actions()[-1])
    assert state.round_no == 2
    assert state.current_player == 0  # seat 2 played last: its left neighbour begins


def test_three_rounds_and_ties_share_first_place() -> None:
    state = ClassicGame(3).new_state(5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    assert len(state.results) == 3 and state.legal_actions() == []
    state.gold = [["nugget3"], ["nugget2", "nugget1"], ["nugget1"]]
    assert state.winners() == [0, 1] and state.returns() == [1.0, 1.0, 0.0]


def test_new_round_resets_board_and_redeals() -> None:
    state = new(players=3, hands={0: ["EW"]})
    state.apply(PlacePath("EW", 1, 0))
    state.deck.clear()
    for h in state.hands:
        h[1:] = []
    for _ in range(3):
        state.apply(state.legal_actions()[-1])
    assert state.round_no == 2 and len(state.maze.cells) == 1 and len(state.maze.hidden) == 3
    assert all(len(h) == 6 for h in state.hands) and state.census() == ClassicGame(3) \
        .new_state(0).census()


# ------------------------------------------------------------------ information
def test_view_secrecy_roles_and_gold() -> None:
    state = new(roles=(S, D, D, D))
    v = state.view(1)
    assert v.role == D and v.hand is not None and v.gold == 0
    assert "saboteur" not in repr(v).replace("max_saboteurs", "")  # other roles are hidden
    state.gold[0].append("nugget3")
    assert state.view(1).gold == 0 and state.view(0).gold == 3
    assert state.view(None).role is None and state.view(None).final_scores is None
