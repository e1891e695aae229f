"""Saboteur (base game) -- every card, count, shape, board position and table (classic.md).

This is the one place to correct an [estimate]: each one is marked below.
"""

from __future__ import annotations

from ...engine.cards import CardKind, Catalogue, action, path

TOOLS = ("pickaxe", "lantern", "cart")
DIGGER, SABOTEUR = "digger", "saboteur"


def goal(code: str, notation: str, gold: int = 0) -> CardKind:
    return path(code, notation, category="goal", gold=gold)


def nugget(value: int, count: int) -> CardKind:
    return CardKind(code=f"nugget{value}", category="gold", count=count, value=value,
                    name=f"{value} gold nugget{'s' if value > 1 else ''}")


def role(code: str, count: int, name: str = "") -> CardKind:
    return CardKind(code=code, category="role", count=count, name=name or code)


START = path("start", "NESW", category="start")

# Goals [rule: the gold goal is a cross; the stone goals: estimate, two curves]
GOALS: tuple[CardKind, ...] = (
    goal("goal-gold:NESW", "NESW", gold=1),
    goal("goal-stone:NW", "NW"),
    goal("goal-stone:SW", "SW"),
)

# The 40 tunnel cards [rule: card sheet]
TUNNELS: tuple[CardKind, ...] = (
    path("NESW", "NESW", 5),
    path("NEW", "NEW", 5),
    path("NES", "NES", 5),
    path("EW", "EW", 3),
    path("NS", "NS", 4),
    path("ES", "ES", 4),
    path("SW", "SW", 5),
    # dead ends, one each
    path("N", "N"),
    path("W", "W"),
    path("N,S", "N,S"),
    path("E,W", "E,W"),
    path("N,W", "N,W"),
    path("N,E", "N,E"),
    path("N,E,S", "N,E,S"),
    path("N,E,W", "N,E,W"),
    path("N,E,S,W", "N,E,S,W"),
)

# The 27 action cards [rule]
ACTIONS: tuple[CardKind, ...] = (
    action("break-pickaxe", "break", 3, ("pickaxe",)),
    action("break-lantern", "break", 3, ("lantern",)),
    action("break-cart", "break", 3, ("cart",)),
    action("repair-pickaxe", "repair", 2, ("pickaxe",)),
    action("repair-lantern", "repair", 2, ("lantern",)),
    action("repair-cart", "repair", 2, ("cart",)),
    action("repair-pickaxe-lantern", "repair", 1, ("pickaxe", "lantern")),
    action("repair-pickaxe-cart", "repair", 1, ("pickaxe", "cart")),
    action("repair-lantern-cart", "repair", 1, ("lantern", "cart")),
    action("rockfall", "rockfall", 3),
    action("map", "map", 6),
)

# 28 gold nugget cards [rule]
NUGGETS: tuple[CardKind, ...] = (nugget(1, 16), nugget(2, 8), nugget(3, 4))

# 11 dwarf cards [rule]
ROLES: tuple[CardKind, ...] = (role(DIGGER, 7, "gold-digger"), role(SABOTEUR, 4))

KINDS: tuple[CardKind, ...] = (START, *GOALS, *TUNNELS, *ACTIONS, *NUGGETS, *ROLES)
CATALOGUE = Catalogue(KINDS)

# -- Layout [rule] ---------------------------------------------------------------
START_CELL = (0, 0)
GOAL_CELLS = ((8, -2), (8, 0), (8, 2))

# -- Tables [rule] ---------------------------------------------------------------
ROUNDS = 3
#: players -> (saboteurs in the dwarf deck, gold-diggers in the dwarf deck, hand size)
SETUP: dict[int, tuple[int, int, int]] = {
    3: (1, 3, 6),
    4: (1, 4, 6),
    5: (2, 4, 6),
    6: (2, 5, 5),
    7: (3, 5, 5),
    8: (3, 6, 4),
    9: (3, 7, 4),
    10: (4, 7, 4),
}
#: players -> nugget cards drawn when the gold-diggers win: as many as there are players,
#: except 9 in a 10-player game [rule]
DIGGER_DRAW: dict[int, int] = {n: n for n in SETUP} | {10: 9}
#: number of saboteurs dealt -> gold each gets when the saboteurs win
SABOTEUR_PAY: dict[int, int] = {1: 4, 2: 3, 3: 3, 4: 2}
PASS_MAX = 1  # pass: discard exactly 1 card
SET_ASIDE = 0  # path and action cards set aside unseen each round
