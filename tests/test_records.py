"""Records and fixed deals: the JSON format, replay, and exact set-ups."""

from __future__ import annotations

import pytest

from pysaboteur.engine.errors import RecordError
from pysaboteur.engine.game import Deal
from pysaboteur.engine.maze import cell
from pysaboteur.engine.rng import Rng
from pysaboteur.games.duel import cards as C
from pysaboteur.games.duel.state import DuelGame
from pysaboteur.records import Record, ReplayError, replay

GOALS = tuple(k.code for k in C.KINDS if k.category == "goal")


def _deck() -> list[str]:
    return [k.code for k in C.KINDS if k.category in ("path", "action") for _ in range(k.count)]


def test_fixed_deal_sets_hands_pile_and_goals() -> None:
    deck = _deck()
    deal = Deal(goals=GOALS, decks=(tuple(deck),))
    state = DuelGame().new_state(0, deal)
    # green (seat 0) begins round 1 and is dealt first, one card at a time
    assert sorted(state.hands[0]) == sorted(deck[0:12:2])
    assert sorted(state.hands[1]) == sorted(deck[1:12:2])
    assert state.deck[-1] == deck[12]  # the top of the pile is the next card of the deal
    laid = {c: state.maze.hidden[cell(x, y)] for c, (x, y) in zip(GOALS, C.GOAL_CELLS,
                                                                   strict=False)}
    assert all(code == goal for goal, code in laid.items())


def test_fixed_deal_must_hold_the_right_cards() -> None:
    with pytest.raises(RecordError, match="goal order"):
        DuelGame().new_state(0, Deal(goals=GOALS[:-1]))
    deck = _deck()
    deck[0] = "map"
    with pytest.raises(RecordError, match="deck of round 1"):
        DuelGame().new_state(0, Deal(decks=(tuple(deck),)))


def test_record_with_a_fixed_deal_round_trips() -> None:
    deal = Deal(goals=tuple(reversed(GOALS)), decks=(tuple(reversed(_deck())),))
    state = DuelGame().new_state(9, deal)
    pick = Rng(2)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    record = Record.loads(Record.of(state).dumps())
    assert record.deal == deal
    again = replay(record)
    assert again.hands == state.hands and again.maze.cells == state.maze.cells


def test_replay_reports_the_first_illegal_action() -> None:
    state = DuelGame().new_state(1)
    record = Record.of(state)
    record.actions = ["pass " + state.hands[0][0], "orient"]
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert info.value.index == 1 and "orient" in str(info.value)


def test_replay_checks_the_stored_scores() -> None:
    state = DuelGame().new_state(5)
    pick = Rng(5)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    record = Record.of(state)
    assert record.final is not None
    record.final["scores"] = [s + 1 for s in record.final["scores"]]
    with pytest.raises(RecordError, match="scores"):
        replay(record)


@pytest.mark.parametrize("text", ['{"format": "other"}', "[]", "1",
                                  '{"format": "pysaboteur-record", "version": 99}',
                                  '{"format": "pysaboteur-record", "version": 1}'])
def test_malformed_records_are_refused(text: str) -> None:
    with pytest.raises(RecordError):
        Record.loads(text)


def test_unknown_game_in_a_record() -> None:
    record = Record(game="chess", players=2, seed=1)
    with pytest.raises(RecordError, match="unknown game"):
        replay(record)
