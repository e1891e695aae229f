"""Saboteur: The Duel -- every card, count, shape and board position (duel.md).

This is the one place to correct an [estimate]: each one is marked below.
"""

from __future__ import annotations

from ...engine.cards import CardKind, Catalogue, action, path

BLUE, GREEN = "blue", "green"
COLOURS = (GREEN, BLUE)  # reach context index = position here
TOOLS = ("pickaxe", "lantern", "cart")


def _goal(code: str, notation: str, gold: int, door: str | None = None) -> CardKind:
    return path(code, notation, category="goal", gold=gold, door=door)


KINDS: tuple[CardKind, ...] = (
    # Start cards [estimate: shape]
    path("start-green", "NESW", category="start"),
    path("start-blue", "NESW", category="start"),
    # Ordinary path cards, 14 [estimate: shapes and split]
    path("NESW", "NESW", 2),
    path("NEW", "NEW", 2),
    path("NES", "NES", 2),
    path("EW", "EW", 2),
    path("NS", "NS"),
    path("ES", "ES"),
    path("SW", "SW"),
    path("N", "N"),
    path("E,W", "E,W"),
    path("N,E,S,W", "N,E,S,W"),
    # Bridges and double curves [rule: counts]
    path("NS,EW", "NS,EW", 2, name="bridge"),
    path("NW,ES", "NW,ES", 2, name="double curve"),
    # Gold path cards, 1 gold each [count: rule; value and shapes: estimate]
    path("gold:NESW", "NESW", gold=1),
    path("gold:EW", "EW", gold=1),
    path("gold:NEW", "NEW", gold=1),
    path("gold:NES", "NES", gold=1),
    path("gold:SW", "SW", gold=1),
    # Ladders, one per colour [count: rule; shapes: estimate]
    path("ladder-blue:EW", "EW", ladder=BLUE),
    path("ladder-green:EW", "EW", ladder=GREEN),
    # Doors, 3 per colour [count: rule; split and shapes: estimate]
    path("door-blue:EW", "EW", door=BLUE),
    path("door-blue:NESW", "NESW", door=BLUE),
    path("door-blue:NEW", "NEW", door=BLUE),
    path("door-green:EW", "EW", door=GREEN),
    path("door-green:NESW", "NESW", door=GREEN),
    path("door-green:NEW", "NEW", door=GREEN),
    # Trolls [count: rule; shapes: estimate]
    path("troll:EW", "EW", troll=True),
    path("troll:NESW", "NESW", troll=True),
    path("troll:NS", "NS", troll=True),
    # Action cards, 18 [kinds: rule; counts: estimate]
    action("break-pickaxe", "break", 2, ("pickaxe",)),
    action("break-lantern", "break", 2, ("lantern",)),
    action("break-cart", "break", 2, ("cart",)),
    action("repair-pickaxe", "repair", 1, ("pickaxe",)),
    action("repair-lantern", "repair", 1, ("lantern",)),
    action("repair-cart", "repair", 1, ("cart",)),
    action("repair-pickaxe-lantern", "repair", 1, ("pickaxe", "lantern")),
    action("repair-lantern-cart", "repair", 1, ("lantern", "cart")),
    action("key", "key", 3),
    action("rockfall", "rockfall", 2),
    action("map", "map", 2),
    # Goal cards, 18 [counts: rule (0-3 gold, 8 doors); the table itself: estimate]
    _goal("goal0:NESW", "NESW", 0),
    _goal("goal0-blue:NESW", "NESW", 0, BLUE),
    _goal("goal0-green:NEW", "NEW", 0, GREEN),
    _goal("goal0:NS", "NS", 0),
    _goal("goal1:NESW", "NESW", 1),
    _goal("goal1-blue:NESW", "NESW", 1, BLUE),
    _goal("goal1:NES", "NES", 1),
    _goal("goal1-green:NES", "NES", 1, GREEN),
    _goal("goal1:EW", "EW", 1),
    _goal("goal1-blue:NEW", "NEW", 1, BLUE),
    _goal("goal2:NESW", "NESW", 2),
    _goal("goal2-green:NESW", "NESW", 2, GREEN),
    _goal("goal2:NEW", "NEW", 2),
    _goal("goal2-blue:ES", "ES", 2, BLUE),
    _goal("goal2:SW", "SW", 2),
    _goal("goal3:NESW", "NESW", 3),
    _goal("goal3-green:NES", "NES", 3, GREEN),
    _goal("goal3:EW", "EW", 3),
)

CATALOGUE = Catalogue(KINDS)

# -- Layout -------------------------------------------------------------------
#: Two players [rule: setup]; which start is blue is this documented constant.
STARTS = {BLUE: (0, -1), GREEN: (0, 1)}
GOAL_CELLS = ((5, -2), (5, 0), (5, 2), (7, -1), (7, 1), (9, 0))
#: Solo [estimate: the diagram did not survive OCR]
SOLO_START = (0, 0)
SOLO_GOAL_CELLS = ((8, -2), (8, 0), (8, 2), (10, -1), (10, 1), (12, 0))

# -- Counts -------------------------------------------------------------------
ROUNDS = 3
HAND_SIZE = 6
GOALS_PER_ROUND = 6
MARKERS = 8  # one shared pool of double-sided markers [rule]
MARKERS_SPLIT = 4  # per colour with option markers_per_player=4
SOLO_MARKERS = 6
KEY_TOKENS = 2
SOLO_SET_ASIDE = 10
PASS_MAX = 2  # pass: discard 1 or 2
DISCARD_TO_REPAIR = 2
#: Solo ratings: lowest gold for each of the rulebook's four ratings
SOLO_RATINGS = ((0, "apprentice"), (15, "miner"), (20, "master miner"), (25, "legend"))
