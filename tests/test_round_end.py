"""Every game's view keeps the last ended round as it ended (``view.last_round``, a
``RoundEnd``): the board with the card that ended it, why it ended, and nothing the rules
keep secret."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import duel, end_round, put, put_all, reveal, solo
from pysaboteur.engine.actions import Action, Bribe, Move, Pass, PlacePath, ProposeEnd, Vote
from pysaboteur.engine.maze import cell, xy
from pysaboteur.engine.rng import Rng
from pysaboteur.engine.views import PlacedCard, RoundEnd, plain
from pysaboteur.games.classic.state import ClassicGame
from pysaboteur.games.duel import cards as DC
from pysaboteur.games.expansion.state import ExpansionGame
from pysaboteur.games.lost_mines import LostMinesGame
from pysaboteur.games.lost_mines import cards as LC
from pysaboteur.games.lost_mines.state import MOVE
from pysaboteur.registry import make_game
from saboteur_helpers import corridor, fixed_deal, put_in_front

GAMES = [("duel", 2), ("solo", 1), ("classic", 4), ("classic", 7), ("expansion", 5),
         ("lost-mines", 4)]
REASONS = {
    "duel": {"goals", "markers", "exhausted"},
    "solo": {"goals", "markers", "exhausted"},
    "classic": {"gold", "exhausted"},
    "expansion": {"gold", "exhausted"},
    "lost-mines": {"treasures", "vote", "exhausted"},
}


def pending_cell(view: Any) -> set[tuple[int, int]]:
    """The goal (mine) being turned over in ``view``: no longer face down, not yet placed."""
    pending = getattr(view, "pending_goal", None)
    if pending is None and getattr(view, "phase", "") == "orient":
        pending = view.pending
    return {(pending[0], pending[1])} if pending else set()


def check_end(before: Any, action: Action, end: RoundEnd) -> None:
    """``end.board`` is ``before``'s board (less a card a rockfall, storm or solo draw took)
    with the move's card, then the goals the move turned over."""
    placed = ([PlacedCard(action.x, action.y, action.card, action.rotated)]
              if type(action) is PlacePath else [])
    kept = [c for c in before.board if c in end.board]
    assert len(before.board) - len(kept) <= 1  # at most one card taken away
    k = len(kept) + len(placed)
    assert end.board[:k] == tuple(kept + placed)
    was_down = set(before.face_down) | pending_cell(before)
    assert set(end.face_down) <= was_down
    assert {(c.x, c.y) for c in end.board[k:]} == was_down - set(end.face_down)


def strings(value: Any) -> set[str]:
    """Every text leaf of ``value`` (keys of dicts left out)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(strings, value)) if value else set()
    return set()


def check_public(state: Any, end: RoundEnd, hidden: dict[tuple[int, int], str]) -> None:
    """Every seat and a spectator see the same ``last_round``, JSON-ready, and it shows
    only cards face up on the board or in front of players (no face-down goal, no dwarf
    card, no treasure value)."""
    seats = range(state.game.players)
    for seat in (None, *seats):
        assert state.view(seat).last_round == end
    data = plain(end)
    json.dumps(data)
    assert state.view(0).plain()["last_round"] == data
    board_cells = {(c.x, c.y) for c in end.board}
    assert not board_cells & set(end.face_down)
    assert set(end.face_down) <= set(hidden)
    public = {c.card for c in end.board} | {end.reason, "E", "S"}
    public |= {code for front in end.extra.get("in_front", ()) for code in front}
    assert strings(data) <= public
    for c in end.face_down:  # a goal still face down: its code is nowhere
        assert not any(card.card == hidden[c] and (card.x, card.y) == c for card in end.board)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_random_rounds_end_as_shown(name: str, players: int) -> None:
    game = make_game(name, players)
    ends = 0
    for seed in range(3):
        state = game.new_state(seed)
        rng = Rng(100 + seed)
        assert state.view(None).last_round is None
        while not state.is_terminal:
            before = state.view(None)
            hidden = {xy(c): code for c, code in state.maze.hidden.items()}
            last = state.last_round
            action = state.random_action(rng)
            state.apply(action)
            end = state.last_round
            if end is last:
                continue
            ends += 1
            assert end is not None and end.round == before.round
            assert end.reason in REASONS[name]
            check_end(before, action, end)
            check_public(state, end, hidden)
            if not state.is_terminal and state.view(0).phase != "steal":  # thefts come first
                assert state.view(0).round == end.round + 1
        final = state.view(None)
        assert final.last_round is not None and final.last_round.round == final.rounds
        assert final.board == final.last_round.board  # the last board stays as it ended
    assert ends == 3 * game.new_state(0).view(None).rounds


# ------------------------------------------------------------------ forced reasons
def test_classic_gold() -> None:
    game = ClassicGame(4)
    state = game.new_state(1, fixed_deal(game, hands={1: ["EW"]}))
    state.apply(state.legal_actions()[-1])  # seat 0 passes
    corridor(state, 6)
    before = state.view(None)
    hidden = {xy(c): code for c, code in state.maze.hidden.items()}
    state.apply(PlacePath("EW", 7, 0))
    end = state.view(2).last_round
    assert end is not None and end.reason == "gold" and end.round == 1
    assert end.board[-2:] == (PlacedCard(7, 0, "EW", False),
                              PlacedCard(8, 0, "goal-gold:NESW", False))
    assert end.face_down == ((8, -2), (8, 2))
    check_end(before, PlacePath("EW", 7, 0), end)
    check_public(state, end, hidden)
    assert not strings(plain(end)) & {"goal-stone:NW", "goal-stone:SW"}
    result = state.view(2).results[0]
    assert result["finder"] == 1 and result["side"] == "gold-diggers"
    assert [g is None for g in result["gold"]] == [True, True, False, True]  # own gold only


def test_classic_exhausted() -> None:
    state = ClassicGame(3).new_state(4)
    state.deck.clear()
    for h in state.hands:
        h[1:] = []
    for _ in range(3):
        state.apply(state.legal_actions()[-1])
    end = state.view(0).last_round
    assert end is not None and end.reason == "exhausted" and len(end.face_down) == 3
    assert end.board == (PlacedCard(0, 0, "start", False),)
    assert state.view(0).board == end.board  # the next round's fresh board, the same start


def test_expansion_trapped_and_hidden_dwarf_cards() -> None:
    game = ExpansionGame(5)
    state = game.new_state(2)
    put_in_front(state, 3, "trapped")
    state.deck.clear()
    for h in state.hands:
        h[1:] = []
    while state.round_no == 1:
        state.apply(state.legal_actions()[-1])
    end = state.last_round
    assert end is not None and end.reason == "exhausted"
    assert end.extra["trapped"] == (3,) and "trapped" in end.extra["in_front"][3]
    kept = state.results[0].details
    assert "spare_roles" in kept and "set_aside_roles" in kept  # the records keep them
    for seat in (None, 0, 3):
        shown = state.view(seat).results[0]
        assert "spare_roles" not in shown and "set_aside_roles" not in shown
        assert "roles" in shown  # the players' dwarf cards are revealed


def test_duel_markers() -> None:
    state = duel()
    put(state, "troll:EW", 1, 1)
    state.pools = [1]
    state.apply(Bribe(1, 1))
    end = state.view(1).last_round
    assert end is not None and end.reason == "markers"
    assert end.extra["bribes"] == ((1, 1, 0),)
    assert PlacedCard(1, 1, "troll:EW", False) in end.board


def test_duel_goals() -> None:
    state = duel(hands=(["NES"], []), goals={(5, 0): "goal0:NESW"})
    put_all(state, [("EW", x, 1) for x in range(1, 4)])
    put(state, "NEW", 4, 1)
    for x, y in DC.GOAL_CELLS:
        if (x, y) != (5, 0):
            reveal(state, x, y)
    before = state.view(None)
    state.apply(PlacePath("NES", 4, 0))
    end = state.view(0).last_round
    assert end is not None and end.reason == "goals" and end.face_down == ()
    check_end(before, PlacePath("NES", 4, 0), end)
    assert (end.board[-1].x, end.board[-1].y, end.board[-1].card) == (5, 0, "goal0:NESW")


@pytest.mark.parametrize("make", [duel, solo])
def test_duel_and_solo_exhausted(make: Any) -> None:
    state = make()
    end_round(state)
    end = state.view(0).last_round
    assert end is not None and end.reason == "exhausted" and len(end.face_down) == 6


def test_solo_markers() -> None:
    state = solo(draws=["gold:NESW"])
    state.pools = [1]
    state.apply(PlacePath("gold:NESW", 1, 0))
    end = state.view(0).last_round
    assert end is not None and end.reason == "markers"
    assert end.extra["markers"] == ((1, 0, 0),)


def lost_mines() -> Any:
    state = LostMinesGame(3).new_state(7)
    for seat in range(3):
        state.hands[seat] = ["NS", "NS", "NS"]
        state.pawn[seat], state.pawn_seg[seat] = cell(0, 2), 0
    return state


def test_lost_mines_treasures_and_pawns() -> None:
    state = lost_mines()
    state.maze.hidden[cell(10, 2)] = "mine-gems"
    for x in range(1, 10):
        state.maze.place(cell(x, 2), LC.CATALOGUE.otile["EW", False])
    state.pawn[0], state.pawn_seg[0] = cell(9, 2), 0
    state.pawn[1], state.pawn_seg[1] = cell(4, 2), 0
    state.turn = state.current = 0
    state.phase, state.pending_draw = MOVE, 1  # seat 0 has played its card: it moves
    state.layout = ["gems-1", "silver-2", "gems-6"]
    state.owner = [-1, 1, 2]
    before = state.view(None)
    state.apply(Move(((10, 2),)))
    end = state.view(2).last_round
    assert end is not None and end.reason == "treasures" and state.round_no == 2
    assert end.extra["pawns"] == ((10, 2), (4, 2), (0, 2))
    assert (end.board[-1].x, end.board[-1].y, end.board[-1].card) == (10, 2, "mine-gems")
    check_end(before, Move(((10, 2),)), end)
    assert "gems-1" not in strings(plain(end))


def test_lost_mines_vote() -> None:
    state = lost_mines()
    state.turn = state.current = 1
    state.apply(ProposeEnd())
    state.apply(Vote(True))
    state.apply(Vote(True))
    end = state.view(None).last_round
    assert end is not None and end.reason == "vote" and end.round == 1


def test_lost_mines_exhausted() -> None:
    state = lost_mines()
    state.deck = []
    state.hands = [["NS"], [], []]
    state.turn = state.current = 0
    state.apply(Pass(("NS",)))
    end = state.view(1).last_round
    assert end is not None and end.reason == "exhausted" and len(end.face_down) == 4


def test_clones_share_the_round_end() -> None:
    state = ClassicGame(3).new_state(4)
    rng = Rng(5)
    while state.round_no == 1:
        state.apply(state.random_action(rng))
    copy = state.clone()
    assert copy.last_round is state.last_round
    sample = state.shuffle_hidden(0, Rng(1))
    assert sample.view(0).last_round == state.view(0).last_round
