"""What one seat of Saboteur 2 may know (expansion.md), built in this one place.

As in the base game (``classic.view``), plus: whether each player has gold is
public, the amounts are private; the seat's inspections are private; how many
dwarf cards are in the spare pile and set aside by "swap your hats" is public.

Which dwarf cards those are stays hidden when the round ends too (the rules reveal the
players' dwarf cards only): the round results the state keeps (and records) name them
(``spare_roles``, ``set_aside_roles``), the view's ``results`` leave them out.  In the base
game the one spare card follows from the known dwarf deck and the revealed roles, so its
results keep it; here the spare pile and the hats set aside are not told apart by anything
public (a hat swapped away is a role the player had).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..classic.view import ClassicView, common_fields

if TYPE_CHECKING:
    from .state import ExpansionState


@dataclass(frozen=True)
class ExpansionView(ClassicView):
    has_gold: tuple[bool, ...]
    spare_roles: int  # dwarf cards left in the spare pile
    hats_aside: int  # dwarf cards set aside by "swap your hats"
    thieves: tuple[int, ...]  # round end: thieves still to steal, in order
    # private to ``seat``
    inspected: tuple[tuple[int, str], ...]  # (seat, dwarf card) seen with an inspection


#: round-result details the rules keep hidden (see the module's docstring)
HIDDEN_DETAILS = frozenset({"spare_roles", "set_aside_roles"})


def public_details(result: dict[str, Any]) -> dict[str, Any]:
    """A round's result without the dwarf cards nobody saw."""
    return {k: v for k, v in result.items() if k not in HIDDEN_DETAILS}


def expansion_view(state: ExpansionState, seat: int | None) -> ExpansionView:
    fields = common_fields(state, seat)
    me = fields["seat"]
    if fields["results"]:
        fields["results"] = tuple(map(public_details, fields["results"]))
    return ExpansionView(
        **fields,
        gold=state.purse[me] if me is not None else None,
        has_gold=tuple(state.has_gold()),
        spare_roles=len(state.spare_roles),
        hats_aside=len(state.hats_aside),
        thieves=tuple(state.thieves),
        inspected=tuple(sorted(state.inspected[me].items())) if me is not None else (),
    )
