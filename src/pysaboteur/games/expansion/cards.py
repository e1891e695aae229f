"""Saboteur 2 (base game + expansion) -- every card, count, shape and table (expansion.md).

The base game's path and action cards are all used (``classic.cards``); its
dwarf and nugget cards are not.  This is the one place to correct an
[estimate]: each one is marked below.
"""

from __future__ import annotations

from dataclasses import replace

from ...engine.cards import CardKind, Catalogue, action, path
from ..classic import cards as base
from ..classic.cards import GOAL_CELLS, START_CELL, TOOLS, role

__all__ = ["GOAL_CELLS", "START_CELL", "TOOLS"]

BLUE, GREEN = "blue", "green"
BOSS, GEOLOGIST, PROFITEER, SABOTEUR = "boss", "geologist", "profiteer", "saboteur"
TEAM_OF = {f"digger-{BLUE}": BLUE, f"digger-{GREEN}": GREEN}
ANY = "any"  # a ladder joined to the start and to every other ladder

# -- New path cards, 30 ---------------------------------------------------------
# Unidentified path cards, 6 [estimate: shapes; no feature]: physically like base cards, so
# they add to the counts of the base kinds of the same shape.
UNIDENTIFIED: dict[str, int] = {"NESW": 1, "NS": 1, "EW": 1, "ES": 1, "NEW": 1, "NES": 1}

NEW_PATHS: tuple[CardKind, ...] = (
    path("NS,EW", "NS,EW", 2, name="bridge"),  # [rule]
    path("NW,ES", "NW,ES", 2, name="double curve"),  # [rule]
    # Ladders, 4 [rule: count; shapes: estimate]
    path("ladder:N", "N", ladder=ANY),
    path("ladder:W", "W", ladder=ANY),
    path("ladder:NW", "NW", ladder=ANY),
    path("ladder:SW", "SW", ladder=ANY),
    # Doors, 3 per colour [rule: count; shapes: estimate]
    path("door-blue:NS", "NS", door=BLUE),
    path("door-blue:EW", "EW", door=BLUE),
    path("door-blue:SW", "SW", door=BLUE),
    path("door-green:NS,E", "NS,E", door=GREEN),
    path("door-green:EW", "EW", door=GREEN),
    path("door-green:NW", "NW", door=GREEN),
    # Crystals, 1 each, 10 cards [rule: count; shapes: estimate]
    path("crystal:N", "N", crystals=1),
    path("crystal:W", "W", crystals=1),
    path("crystal:NESW", "NESW", crystals=1),
    path("crystal:NEW", "NEW", 3, crystals=1),
    path("crystal:NES", "NES", crystals=1),
    path("crystal:NES,W", "NES,W", crystals=1),
    path("crystal:NEW,S", "NEW,S", crystals=1),
    path("crystal:N,EW", "N,EW", crystals=1),
)

# -- New action cards, 21 [rule: kinds and counts; the rockfall: estimate] ----------
NEW_ACTIONS: tuple[CardKind, ...] = (
    action("theft", "theft", 4),
    action("hands-off", "hands-off", 3),
    action("swap-hand", "swap-hand", 2),
    action("inspection", "inspection", 2),
    action("swap-hats", "swap-hats", 2),
    action("trapped", "trapped", 3),
    action("free", "free", 4, name="free at last"),
)
EXTRA_ROCKFALLS = 1

# -- Dwarf cards, 15 [rule] ----------------------------------------------------------
ROLES: tuple[CardKind, ...] = (
    role(f"digger-{BLUE}", 4, "blue gold-digger"),
    role(f"digger-{GREEN}", 4, "green gold-digger"),
    role(BOSS, 1),
    role(GEOLOGIST, 2),
    role(PROFITEER, 1),
    role(SABOTEUR, 3),
)


def _base_kind(kind: CardKind) -> CardKind:
    extra = UNIDENTIFIED.get(kind.code, 0) if kind.category == "path" else 0
    if kind.code == "rockfall":
        extra = EXTRA_ROCKFALLS
    return replace(kind, count=kind.count + extra) if extra else kind


KINDS: tuple[CardKind, ...] = (
    base.START, *base.GOALS, *(_base_kind(k) for k in (*base.TUNNELS, *base.ACTIONS)),
    *NEW_PATHS, *NEW_ACTIONS, *ROLES,
)
CATALOGUE = Catalogue(KINDS)

# -- Tables ----------------------------------------------------------------------
ROUNDS = 3
HAND_SIZE = 6  # whatever the player count [rule]
SET_ASIDE = 10  # path and action cards set aside unseen each round [rule]
PASS_MAX = 3  # pass: discard 1-3 cards, draw as many [rule]
DISCARD_TO_REMOVE = 2  # discard 2 to remove a card in front of oneself, draw 1 [rule]
#: number of winners -> gold each; 5 or more -> the last entry [rule]
PAYOUT: tuple[int, ...] = (0, 5, 4, 3, 2, 1)
#: gold taken off a winner's share (never below 0) [rule; floor: decision]
DEDUCTION: dict[str, int] = {BOSS: 1, PROFITEER: 2}
THEFT_AMOUNT = 1
