"""Positions as data (engine/position.py): build a start from what matters, play moves
from it, and carry both in records, for every game."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pysaboteur.cli.main import app
from pysaboteur.engine.errors import RecordError
from pysaboteur.engine.game import State
from pysaboteur.engine.maze import cell
from pysaboteur.engine.position import IllegalPositionMove, Position, PositionError
from pysaboteur.engine.rng import Rng
from pysaboteur.records import Record, replay

#: one position per game, each fixing what that game lets a position fix
SPECS: dict[str, dict[str, Any]] = {
    "duel": dict(game="duel", players=2, seed=5,
                 hands={0: ["NESW", "map"], 1: ["key", "EW", "EW"]},
                 goals=["goal3:NESW", None, "goal0:NS"], top=["rockfall", "troll:NS"]),
    "solo": dict(game="solo", players=1, seed=6, hands={0: ["NESW", "NES"]},
                 aside=["key"], goals=[None, "goal2:SW"], top=["break-cart", "EW"]),
    "classic": dict(game="classic", players=4, seed=7,
                    hands={0: ["NESW", "map"], 2: ["rockfall"]},
                    roles={0: "saboteur", 3: "digger"},
                    goals=["goal-gold:NESW", None, "goal-stone:SW"], top=["EW", "NS"]),
    "expansion": dict(game="expansion", players=5, seed=8,
                      hands={0: ["ladder:W", "NESW"], 4: ["theft"]},
                      roles={0: "boss", 1: "saboteur", 2: "geologist"},
                      goals=[None, "goal-gold:NESW"], top=["map"], aside=["trapped"]),
    "lost-mines": dict(game="lost-mines", players=5, seed=9,
                       hands={0: ["NESW", "axe"], 3: ["troll"]},
                       roles={0: "blue-saboteur", 1: "yellow-loyal", 4: "yellow-selfish"},
                       goals=["mine-dragon", None, "mine-gold"], top=["storm"],
                       treasures=["gems-6", None, "gold-5"]),
}


def fingerprint(state: State) -> Any:
    """Everything a seat or a spectator can see, and every legal move."""
    seats = state.game.players
    views = [json.dumps(state.view(s).to_json(), sort_keys=True) for s in (*range(seats), None)]
    return views, [str(a) for a in state.legal_actions()], state.round_no


def with_moves(spec: dict[str, Any], count: int = 3) -> Position:
    """``spec`` plus the first ``count`` moves of a fixed choice (every one legal)."""
    state = Position(**spec).state()
    moves: list[str] = []
    for i in range(count):
        legal = state.legal_actions()
        action = legal[(7 * i + 3) % len(legal)]
        moves.append(str(action))
        state.apply(action)
    return Position(**spec, moves=moves)


@pytest.mark.parametrize("name", SPECS)
def test_the_start_has_what_was_given(name: str) -> None:
    spec = SPECS[name]
    state: Any = Position(**spec).start()
    game = state.game
    for seat, hand in spec["hands"].items():
        assert state.hands[seat][:len(hand)] == hand
        assert len(state.hands[seat]) == game.start_layout().hand
    for seat, role in spec.get("roles", {}).items():
        assert (state.dwarves if name == "lost-mines" else state.roles)[seat] == role
    cells = game.start_layout().goal_cells
    for (x, y), goal in zip(cells, spec["goals"], strict=False):
        if goal is not None:
            assert state.maze.hidden[cell(x, y)] == goal
    top = spec["top"]
    assert state.deck[::-1][:len(top)] == top  # the end of the list is the top
    assert state.aside[:len(spec.get("aside", []))] == spec.get("aside", [])
    for slot, treasure in enumerate(spec.get("treasures", [])):
        if treasure is not None:
            assert state.layout[slot] == treasure


@pytest.mark.parametrize("name", SPECS)
def test_the_same_cards_in_total(name: str) -> None:
    spec = SPECS[name]
    state = Position(**spec).start()
    plain = Position(game=spec["game"], players=spec["players"]).start()
    fresh = state.game.new_state(spec["seed"])
    assert state.census() == plain.census() == fresh.census()


@pytest.mark.parametrize("name", SPECS)
def test_round_trip_through_a_record(name: str, tmp_path: Path) -> None:
    position = with_moves(SPECS[name])
    state = position.state()
    record = position.record()
    assert record.actions == [] and record.deal is None
    path = tmp_path / "position.json"
    record.save(path)
    loaded = Record.load(path)
    assert loaded.position == position
    assert fingerprint(replay(loaded)) == fingerprint(state)
    # a position file round-trips too
    again = Position.from_json(json.loads(json.dumps(position.to_json())))
    assert again == position and fingerprint(again.state()) == fingerprint(state)


@pytest.mark.parametrize("name", SPECS)
def test_record_of_a_game_played_on_from_a_position(name: str) -> None:
    position = with_moves(SPECS[name], 2)
    state = position.state()
    for i in range(5):
        legal = state.legal_actions()
        state.apply(legal[i % len(legal)])
    record = Record.of(state)
    assert record.position == position and len(record.actions) == 5
    loaded = Record.loads(record.dumps())
    assert fingerprint(replay(loaded)) == fingerprint(state)
    assert [str(a) for a in replay(loaded).history] == [str(a) for a in state.history]


@pytest.mark.parametrize("name", SPECS)
def test_the_rest_comes_from_the_seed(name: str) -> None:
    spec = SPECS[name]
    a, b = Position(**spec).start(), Position(**spec).start()
    assert fingerprint(a) == fingerprint(b) and a.deal == b.deal  # type: ignore[attr-defined]
    other = Position(**{**spec, "seed": spec["seed"] + 1}).start()
    assert other.deal != a.deal  # type: ignore[attr-defined]
    for seat, hand in spec["hands"].items():  # what is given stays given
        assert other.hands[seat][:len(hand)] == hand


def test_a_match_from_a_position_plays_on_into_later_rounds() -> None:
    state = Position(**SPECS["classic"]).state()
    state.play_out(Rng(3))
    assert state.round_no == 2
    record = Record.loads(Record.of(state).dumps())
    assert fingerprint(replay(record)) == fingerprint(state)


@pytest.mark.parametrize(("spec", "message"), [
    (dict(game="classic", hands={0: ["NESW"] * 3}, top=["NESW"] * 3),
     "the position puts 6 x NESW in the draw pile; Saboteur has 5"),
    (dict(game="classic", hands={0: ["NESW"] * 7}),
     "hands[0] holds 7 cards; Saboteur deals 6 to each of 4 players"),
    (dict(game="classic", hands={4: ["NESW"]}), "there is no seat 4 in a game of 4"),
    (dict(game="classic", hands={0: ["ladder:W"]}),
     "'ladder:W' is not one of Saboteur's draw-pile cards"),
    (dict(game="classic", players=3, roles={0: "saboteur", 1: "saboteur"}),
     "the position puts 2 x saboteur in the dwarf cards; Saboteur has 1"),
    (dict(game="classic", roles={0: "boss"}), "'boss' is not one of Saboteur's dwarf cards"),
    (dict(game="classic", goals=["goal-gold:NESW", "goal-gold:NESW"]),
     "the position puts 2 x goal-gold:NESW in the goals; Saboteur has 1"),
    (dict(game="duel", goals=["goal0:NESW", "NESW"]),
     "'NESW' is not one of Saboteur: The Duel's goal cards"),
    (dict(game="lost-mines", treasures=["gold-9"]),
     "'gold-9' is not one of Saboteur: The Lost Mines's treasures"),
    (dict(game="classic", goals=[None, None, None, None]),
     "'goals' names 4 cards; Saboteur has 3 goal cells"),
    (dict(game="classic", aside=["EW"]), "'aside' holds 1 card(s); Saboteur sets 0 aside"),
    (dict(game="duel", roles={0: "saboteur"}), "Saboteur: The Duel has no dwarf cards"),
    (dict(game="classic", treasures=["gold-5"]), "Saboteur has no treasures"),
    (dict(game="lost-mines", players=3, treasures=["gold-5", None, None, None]),
     "'treasures' names 4 cards; Saboteur: The Lost Mines lays out 3 for 3 players"),
    (dict(game="lost-mines", treasures=["gold-5", "gold-5"]),
     "the position puts 2 x gold-5 in the treasures"),
    (dict(game="solo", hands={0: ["break-cart"]}),
     "hands[0]: break-cart acts when drawn in Saboteur: The Duel, solo mode"),
    (dict(game="expansion", players=13), "cannot set up the game"),
    (dict(game="chess"), "'game' is one of"),
])
def test_an_impossible_position_says_why(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError) as err:
        Position(**spec).state()
    assert message in str(err.value)


def test_an_illegal_move_is_named_with_the_reason() -> None:
    good = with_moves(SPECS["classic"], 2)
    bad = Position(**{**SPECS["classic"], "moves": [*good.moves, "NESW@5,5"]})
    with pytest.raises(IllegalPositionMove) as err:
        bad.state()
    assert err.value.index == 2 and err.value.move == "NESW@5,5"
    assert str(err.value).startswith("move 3 ('NESW@5,5') of the position: ")
    assert err.value.reason
    with pytest.raises(IllegalPositionMove, match="move 1 \\('fly away'\\)"):
        Position(game="duel", moves=["fly away"]).state()


def test_records_check_the_position_field() -> None:
    data = Position(**SPECS["duel"]).record().to_json()
    for bad, message in [
        ({"hands": {"x": []}}, "keyed by seat numbers"),
        ({"hands": {"0": "NESW"}}, "'position.hands.0' is a list of texts"),
        ({"tops": []}, "unknown field 'tops'"),
        ({"moves": [3]}, "'position.moves[0]' is a text"),
        ([], "'position' is an object"),
    ]:
        with pytest.raises(PositionError) as err:
            Record.from_json({**data, "position": bad})
        assert message in str(err.value)


def test_a_record_may_carry_the_deal_beside_its_position() -> None:
    position = with_moves(SPECS["lost-mines"], 1)
    record = position.record()
    record.deal = position.deal()
    assert fingerprint(replay(Record.loads(record.dumps()))) == fingerprint(position.state())
    record.deal = Position(**{**SPECS["lost-mines"], "seed": 1}).deal()
    with pytest.raises(RecordError, match="not its position's"):
        replay(Record.loads(record.dumps()))


def test_the_lost_mines_dwarf_cards_and_treasures_are_fixed_by_a_deal() -> None:
    position = Position(**SPECS["lost-mines"])
    state: Any = position.start()
    deal = position.deal()
    assert state.dwarves == list(deal.roles[0][:5])
    assert Counter(state.dwarves + state.dwarf_aside) == Counter(deal.roles[0])
    assert state.layout == list(deal.treasures[0][:5])
    assert state.treasures_out == list(deal.treasures[0][5:])


def test_saboteur_check_and_replay_take_a_position_record(tmp_path: Path) -> None:
    position = with_moves(SPECS["expansion"], 2)
    state = position.state()
    legal = state.legal_actions()
    state.apply(legal[0])
    path = tmp_path / "puzzle.json"
    Record.of(state).save(path)
    runner = CliRunner()
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["ok"] and out["actions"] == 1 and out["scores"] == state.scores()
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    data["position"]["moves"][1] = "NESW@30,30"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 1
    assert "move 2 ('NESW@30,30') of the position" in json.loads(result.output)["reason"]
