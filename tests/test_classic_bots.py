"""Bots for Saboteur and Saboteur 2: determinizers, role beliefs, heuristic and ISMCTS."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysaboteur.bots import make_bot
from pysaboteur.bots.beliefs import accuracy, prior_of, role_beliefs
from pysaboteur.bots.ismcts import IsmctsBot
from pysaboteur.engine.rng import Rng
from pysaboteur.games.classic.determinize import Determinizer as ClassicDeterminizer
from pysaboteur.games.classic.state import ClassicState
from pysaboteur.games.expansion.determinize import Determinizer as ExpansionDeterminizer
from pysaboteur.registry import make_game

GAMES = [("classic", 5, ClassicDeterminizer), ("expansion", 7, ExpansionDeterminizer)]


def _played(name: str, players: int, seed: int, steps: int) -> ClassicState:
    state = make_game(name, players).new_state(seed)
    pick = Rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    assert isinstance(state, ClassicState)
    return state


def _without_log(view: Any) -> Any:
    return dataclasses.replace(view, log=())


@pytest.mark.parametrize(("name", "players", "det"), GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), other=st.integers(0, 2**32))
def test_samples_agree_with_the_view(name: str, players: int, det: Any, seed: int, steps: int,
                                     other: int) -> None:
    state = _played(name, players, seed, steps)
    if state.is_terminal:
        return
    box = state.census()
    for seat in range(players):
        view = state.view(seat)
        sample = det(view).sample(Rng(other))
        assert _without_log(sample.view(seat)) == _without_log(view)
        assert sample.census() == box
        if seat == state.current_player:
            assert sample.legal_actions() == state.legal_actions()
    # a sample plays on to the end like any state
    sample = det(state.view(state.current_player)).sample(Rng(other))
    pick = Rng(other)
    while not sample.is_terminal:
        sample.apply(sample.random_action(pick))
    assert sample.census() == box


@pytest.mark.parametrize(("name", "players", "det"), GAMES)
def test_samples_cover_hands_goals_and_roles_uniformly(name: str, players: int,
                                                       det: Any) -> None:
    state = _played(name, players, 3, 12)
    seat = state.current_player
    other = (seat + 1) % players
    d = det(state.view(seat))
    rng = Rng(1)
    cards: Counter[str] = Counter()
    goals: Counter[str] = Counter()
    roles: Counter[str] = Counter()
    n = 1500
    for _ in range(n):
        sample = d.sample(rng)
        cards.update(sample.hands[other])
        roles[sample.roles[other]] += 1
        goals[sample.maze.hidden[d.unseen_cells[0]]] += 1
    size, total = len(state.hands[other]), len(d.unknown_cards)
    for code, copies in Counter(d.unknown_cards).items():
        expected = n * size * copies / total
        assert abs(cards[code] - expected) < 5 * expected**0.5 + 5, code
    for code, copies in Counter(d.unknown_goals).items():
        expected = n * copies / len(d.unknown_goals)
        assert abs(goals[code] - expected) < 5 * expected**0.5 + 5, code
    for role, copies in Counter(d.role_pool).items():
        expected = n * copies / len(d.role_pool)
        assert abs(roles[role] - expected) < 5 * expected**0.5 + 5, role


def test_spectators_and_finished_matches_cannot_be_determinized() -> None:
    with pytest.raises(ValueError):
        ClassicDeterminizer(make_game("classic", 4).new_state(0).view(None))


@pytest.mark.parametrize(("name", "players"), [("classic", 5), ("expansion", 7)])
@pytest.mark.parametrize("bot", ["heuristic", "ismcts"])
def test_bots_play_legal_moves_and_read_no_hidden_state(name: str, players: int,
                                                        bot: str) -> None:
    """Same choice when everything the seat cannot know is dealt anew; always legal."""
    rng = Rng(11)
    for k in range(4 if bot == "heuristic" else 2):
        state = _played(name, players, 100 + k, rng.below(120))
        if state.is_terminal:
            continue
        seat = state.current_player
        legal = state.legal_actions()

        def fresh() -> Any:
            if bot == "ismcts":
                return IsmctsBot(5, iterations=24, seconds=5.0)
            return make_bot(bot, 5)

        action = fresh().choose(state.view(seat), legal)
        assert action in legal
        shuffled = state.shuffle_hidden(seat, Rng(k))
        assert shuffled.view(seat) == state.view(seat)
        assert fresh().choose(shuffled.view(seat), shuffled.legal_actions()) == action


def test_heuristic_games_end() -> None:
    state = make_game("expansion", 4).new_state(2)
    bots = [make_bot("heuristic", s) for s in range(4)]
    while not state.is_terminal:
        p = state.current_player
        state.apply(bots[p].choose(state.view(p), state.legal_actions()))
    assert len(state.results) == 3


@pytest.mark.parametrize(("name", "players", "matches"), [("classic", 5, 4), ("expansion", 7, 2)])
def test_role_beliefs_beat_the_base_rate(name: str, players: int, matches: int) -> None:
    """At each round's end, heuristic players' moves tell their roles apart."""
    got = base = 0.0
    count = 0
    for m in range(matches):
        state = make_game(name, players).new_state(m)
        bots = [make_bot("heuristic", 7 * m + s) for s in range(players)]
        while not state.is_terminal:
            p = state.current_player
            before = state.round_no
            views = [state.view(s) for s in range(players)]
            state.apply(bots[p].choose(views[p], state.legal_actions()))
            if state.round_no != before or state.is_terminal:
                roles = state.results[-1].details["roles"]
                for s in range(players):
                    a, b = accuracy(role_beliefs(views[s]), roles, s, prior_of(views[s]))
                    got, base, count = got + a, base + b, count + 1
    assert got / count > base / count


def test_search_leaves_value_a_tunnel_near_the_gold() -> None:
    """The leaf model: the gold's side gains and the saboteurs lose as the tunnel nears it."""
    from pysaboteur.bots import card_leaf
    from saboteur_helpers import corridor, fixed_deal

    game = make_game("classic", 5)
    roles = ("digger", "saboteur", "digger", "digger", "saboteur")
    chances = []
    for upto in (0, 3, 6):
        state = game.new_state(0, fixed_deal(game, roles=roles))  # type: ignore[arg-type]
        corridor(state, upto)  # type: ignore[arg-type]
        chances.append(card_leaf.gold_chance(state))
    assert chances[0] < chances[1] < chances[2]
    values = card_leaf.leaf_values(state)
    assert values[0] == values[2] == values[3] > values[1] == values[4]
    assert values[0] + values[1] == pytest.approx(card_leaf.WIN_GOLD)
    # averaged over the goals the seat cannot rule out: lower than with the gold known
    assert card_leaf.leaf_values(state, [(8, -2), (8, 0), (8, 2)])[0] < values[0]


def test_saboteur2_leaves_pay_by_the_games_table() -> None:
    """Saboteur 2's leaf: the pay-out table by who would win, trapped seats unpaid,
    the geologists' crystals on the table, a Theft worth a piece."""
    from pysaboteur.bots import card_leaf
    from pysaboteur.games.expansion import cards as C
    from saboteur_helpers import corridor, fixed_deal, lay, put_in_front

    game = make_game("expansion", 6)
    roles = ("digger-blue", "digger-green", C.SABOTEUR, C.GEOLOGIST, C.BOSS, C.PROFITEER)
    near = game.new_state(0, fixed_deal(game, roles=roles))  # type: ignore[arg-type]
    corridor(near, 6)  # type: ignore[arg-type]
    far = game.new_state(0, fixed_deal(game, roles=roles))  # type: ignore[arg-type]
    v_near, v_far = card_leaf.leaf_values(near), card_leaf.leaf_values(far)
    assert v_near[0] > v_far[0] and v_near[4] > v_far[4]  # the diggers' side nears the gold
    assert v_near[2] < v_far[2]  # and the saboteur's chance fades
    p = card_leaf.gold_chance(near)
    # if reached: one team (either, equally likely), the boss and the profiteer share the gold
    assert v_near[0] == pytest.approx(p * 0.5 * C.PAYOUT[3])
    assert v_near[4] == pytest.approx(p * (C.PAYOUT[3] - C.DEDUCTION[C.BOSS]))
    assert v_near[2] == pytest.approx((1 - p) * C.PAYOUT[2])
    assert v_near[3] == 0.0  # no crystals yet
    lay(near, "crystal:NESW", 0, 1)  # type: ignore[arg-type]
    put_in_front(near, 0, "trapped")
    near.theft_order = [1]
    values = card_leaf.leaf_values(near)
    assert values[3] == pytest.approx(1.0)
    assert values[0] == 0.0
    p = card_leaf.gold_chance(near)  # the trapped digger no longer builds
    # the green team still wins with the boss and the profiteer: three winners
    assert values[1] == pytest.approx(p * 0.5 * C.PAYOUT[3] + card_leaf.THEFT_GOLD)


def test_search_adds_what_the_leaves_cannot_see() -> None:
    """The root bias: cards thrown away cost, a map on an unseen goal earns (a digger)."""
    from pysaboteur.bots import worlds
    from pysaboteur.engine.actions import Pass, PlayOnCell

    for seed in range(40):
        state = _played("classic", 5, seed, 0)
        seat = state.current_player
        view = state.view(seat)
        legal = state.legal_actions()
        maps = [a for a in legal if isinstance(a, PlayOnCell) and a.card == "map"]
        if view.role != "digger" or not maps:
            continue
        bias = worlds.root_bias(view, legal)
        passes = [a for a in legal if isinstance(a, Pass)]
        assert passes and all(bias[a] < 0 for a in passes)
        assert all(bias[a] > 0 for a in maps)
        assert worlds.root_bias(view, legal, 0.0) == {}
        break
    else:
        pytest.fail("no digger with a map in 40 deals")


def test_ismcts_searches_the_heuristics_shortlist() -> None:
    """In Saboteur the root is narrowed to the heuristic's best few moves."""
    from pysaboteur.bots import worlds
    from pysaboteur.bots.heuristic import card_game_ranking

    state = _played("classic", 5, 3, 6)
    seat = state.current_player
    legal = state.legal_actions()
    assert len(legal) > worlds.SHORTLIST["classic"]
    view = state.view(seat)
    short = worlds.shortlist(view, legal, Rng(9))
    assert short == card_game_ranking(view, legal, Rng(9))[:worlds.SHORTLIST["classic"]]
    # the bot draws its shortlist first from its own generator, so the same seed shows it
    bot_short = worlds.shortlist(view, legal, Rng(4))
    assert bot_short is not None
    assert IsmctsBot(4, iterations=60).choose(view, legal) in bot_short
