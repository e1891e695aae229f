"""Saboteur 2's play-out on the compiled core: Saboteur's core (``core/classic.py``, the same
C) with the expansion's catalogue and the rules it adds besides its cards, all read from the
expansion's own modules: passes of 1-3 cards, discarding two cards to remove one lying in
front, building with a Theft in front, the cells no ladder may take.

The core lays ladders (sources of the maze), counts and decodes every new card's targets
and changes the hands of "swap your hands" itself; the cards that change only what Python
keeps (theft, trapped, hands-off, free at last, inspection, swap your hats, and the card a
discard removes) are carried out by the state's own methods, the cards in front read back
after.  The pay-out (the door rule, the routes, the crystals) and the thieves' Steal
decisions after a round stay in Python: the core calls the state's ``_end_round`` and, while
a theft is pending, its ``_choice_menu`` and ``_apply``.
"""

from __future__ import annotations

from typing import Any

from ..engine.rng import Rng
from ..games.classic.menu import tables
from ..games.expansion import cards as C
from ..games.expansion.state import NEAR_GOALS, ExpansionState
from . import classic


def _rules() -> classic.Rules:
    T = tables(C.CATALOGUE)
    return (C.PASS_MAX, C.DISCARD_TO_REMOVE, T.lies_bit["theft"], tuple(sorted(NEAR_GOALS)))


def _fresh_round(state: Any) -> None:
    """The fields ``ExpansionState._setup_round`` sets before the base game's set-up."""
    players = state.game.players
    state.theft_order = []
    state.hats_aside = []
    state.thieves = []
    state.inspected = [{} for _ in range(players)]


def play_out_for(cls: type) -> Any:
    """The compiled play-out for states of exactly ``cls`` (Saboteur 2's), else None."""
    return _expansion_play_out if cls is ExpansionState else None


def setup_for(cls: type) -> Any:
    """The compiled first-round set-up for states of exactly ``cls`` (Saboteur 2's), else
    None."""
    return _expansion_first_round if cls is ExpansionState else None


def _expansion_first_round(state: ExpansionState) -> None:
    game = state.game
    if game.contexts != 1 or game.data is not C:
        state._setup_round()
        return
    classic.first_round(state, classic.core_tables(ExpansionState, game.catalogue, _rules),
                        _fresh_round)


def _expansion_play_out(state: ExpansionState, rng: Rng, until_round_end: bool,
                        policy: str) -> int:
    game = state.game
    if game.contexts != 1 or game.data is not C:
        return state._pure_play_out(rng, until_round_end, policy)  # type: ignore[arg-type]
    core = classic.core_tables(ExpansionState, game.catalogue, _rules)
    return classic.play_out(state, rng, until_round_end, policy, core, _fresh_round)
