"""Saboteur 2's play-out on the compiled core: Saboteur's core (``core/classic.py``, the same
C) with the expansion's catalogue and the rules it adds besides its cards, all read from the
expansion's own modules: passes of 1-3 cards, discarding two cards to remove one lying in
front, building with a Theft in front, the cells no ladder may take.

The core lays ladders (sources of the maze), counts and decodes every new card's targets
and carries out "swap your hands", theft, trapped, hands-off, free at last and the card a
discard removes itself (the cards in front and ``theft_order`` as the state's own methods
change them); inspection and swap your hats, which change only what Python keeps (the
roles), are the state's own ``_play_on_player``.  The pay-out (the door rule, each team's
route through a second reach computation, the crystals, the boss, the profiteer, the
geologists, the trapped) is the core's where it
sets the next round up (``pay_spec``: every table read from ``games/expansion``), and so
are the thieves' Steal decisions after a round in ``play_out`` (``_start_thefts``,
``_victims`` and ``_steal`` as the core plays them).  The rollout API, a decision at a
time, leaves the thefts to Python: the core calls the state's ``_start_thefts``, and a
state handed to ``play_out`` with a theft pending goes on through its ``_choice_menu`` and
``_apply``.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Steal
from ..engine.game import RoundResult
from ..engine.rng import Rng
from ..engine.views import EndedBoard
from ..games.classic.menu import tables
from ..games.expansion import cards as C
from ..games.expansion.state import NEAR_GOALS, ExpansionGame, ExpansionOptions, ExpansionState
from . import classic
from .resident import Steps


def _rules() -> classic.Rules:
    T = tables(C.CATALOGUE)
    return (C.PASS_MAX, C.DISCARD_TO_REMOVE, T.lies_bit["theft"], tuple(sorted(NEAR_GOALS)))


#: the fields ``ExpansionState._setup_round`` sets before the base game's set-up: empty
#: lists, and an empty dict per seat (``classic.FreshRound``)
FRESH_ROUND: classic.FreshRound = (("theft_order", "hats_aside", "thieves"), ("inspected",))
classic._FRESH[ExpansionState] = FRESH_ROUND  # (the rollout API's rounds, as play_out's)


def pay_spec(game: Any) -> tuple[Any, ...] | None:
    """What the core's pay-out of a Saboteur 2 round reads (``ExpansionState._pay_round`` and
    ``_end_round``'s tables, from ``games/expansion/cards.py``), for ``classic._pay_spec``:
    its layout (``RoundResult``, ``LaterRoundEnd``, ``EndedBoard``, the catalogue at 5-8,
    nothing at 0-4), then the expansion's own: ((the blue diggers' role, the green ones'),
    (BLUE, GREEN), BOSS, PROFITEER, SABOTEUR, GEOLOGIST, PAYOUT, DEDUCTION, whether the door
    rule is "literal", and per oriented tile its door (0 none, 1 blue, 2 green), its
    crystals and whether it is the gold, as bytes; for the thefts after the round
    (``ExpansionState._start_thefts`` and ``_steal``): THEFT_AMOUNT and each seat's ``Steal``;
    then the roles by the core's number of them: 1 and 2 the blue and green diggers, 3 BOSS,
    4 PROFITEER, 5 SABOTEUR, 6 GEOLOGIST).  None for any other game."""
    if type(game) is not ExpansionGame:
        return None
    cat = game.catalogue
    team = {colour: role for role, colour in C.TEAM_OF.items()}
    assert len(team) == len(C.TEAM_OF) == 2, "two teams, blue and green"
    feats = [cat.features[t] for t in range(len(cat.codes))]
    doors = bytes((C.BLUE, C.GREEN).index(f.door) + 1 if f.door is not None else 0
                  for f in feats)
    options = game.options
    assert isinstance(options, ExpansionOptions)
    teams = (team[C.BLUE], team[C.GREEN])
    numbered = (*teams, C.BOSS, C.PROFITEER, C.SABOTEUR, C.GEOLOGIST)
    own = (teams, (C.BLUE, C.GREEN), C.BOSS, C.PROFITEER, C.SABOTEUR, C.GEOLOGIST, C.PAYOUT,
           C.DEDUCTION, options.door_rule == "literal", doors,
           bytes(f.crystals for f in feats), bytes(bool(f.gold) for f in feats),
           C.THEFT_AMOUNT, tuple(Steal(seat) for seat in range(game.players)),
           {role: i + 1 for i, role in enumerate(numbered)})
    return (None,) * 5 + (RoundResult, classic.later_end(cat), EndedBoard, cat, own)


def play_out_for(cls: type) -> Any:
    """The compiled play-out for states of exactly ``cls`` (Saboteur 2's), else None."""
    return _expansion_play_out if cls is ExpansionState else None


def setup_for(cls: type) -> Any:
    """The compiled first-round set-up for states of exactly ``cls`` (Saboteur 2's), else
    None."""
    return _expansion_first_round if cls is ExpansionState else None


def _takes(game: ExpansionGame) -> bool:
    """Does the core play this game of Saboteur 2?  (One reach context, its own cards.)"""
    return game.contexts == 1 and game.data is C


def _expansion_first_round(state: ExpansionState) -> None:
    classic.first_round(state, classic.plan_of(ExpansionState, state.game, _takes, _rules,
                                               FRESH_ROUND))


def _expansion_play_out(state: ExpansionState, rng: Rng, until_round_end: bool = True,
                        policy: str = "random") -> int:
    plan = classic.plan_of(ExpansionState, state.game, _takes, _rules, FRESH_ROUND)
    return classic.play_out(state, rng, until_round_end, policy, plan)


def _expansion_ctx(state: ExpansionState) -> tuple[Any, type, Any] | None:
    game = state.game
    if not _takes(game):
        return None
    return classic._ctx_of(ExpansionState, game.catalogue, _rules)


def steps_for(cls: type) -> Steps | None:
    """The rollout API on the core for states of exactly ``cls`` (Saboteur 2's), else None:
    Saboteur's (the same C), a round's thefts left to Python."""
    if cls is not ExpansionState:
        return None
    return Steps(classic._calls(), _expansion_ctx)
