"""Saboteur: The Lost Mines -- every card, count, shape, board position and split (lost-mines.md).

This is the one place to correct an [estimate]: each one is marked below.
"""

from __future__ import annotations

from ...engine.cards import CardKind, Catalogue, action, path

BLUE, YELLOW = "blue", "yellow"
CLANS = (BLUE, YELLOW)
LOYAL, SELFISH, SABOTEUR = "loyal", "selfish", "saboteur"
OBSTACLES = ("log", "lake", "ditch")
TREASURE_TYPES = ("gold", "silver", "gems")
DRAGON = "dragon"


def _treasure(kind: str, value: int, count: int = 1) -> CardKind:
    return CardKind(code=f"{kind}-{value}", category="treasure", count=count, value=value,
                    name=f"{kind} treasure worth {value}")


def _dwarf(clan: str, identity: str, count: int) -> CardKind:
    return CardKind(code=f"{clan}-{identity}", category="dwarf", count=count,
                    name=f"{identity} dwarf of the {clan} clan")


KINDS: tuple[CardKind, ...] = (
    # Start cards [estimate: shape]
    path("start-blue", "NESW", category="start"),
    path("start-yellow", "NESW", category="start"),
    # Mines [kinds: rule; shapes: estimate]
    path("mine-gold", "NEW", category="mine"),
    path("mine-silver", "NES", category="mine"),
    path("mine-gems", "NESW", category="mine"),
    path("mine-dragon", "NEW", category="mine"),
    # Obstacles, 3 per kind [kinds: rule; counts and shapes: estimate]
    path("log:EW", "EW", obstacle="log"),
    path("log:NS", "NS", obstacle="log"),
    path("log:NESW", "NESW", obstacle="log"),
    path("lake:EW", "EW", obstacle="lake"),
    path("lake:NS", "NS", obstacle="lake"),
    path("lake:NESW", "NESW", obstacle="lake"),
    path("ditch:EW", "EW", obstacle="ditch"),
    path("ditch:NS", "NS", obstacle="ditch"),
    path("ditch:NESW", "NESW", obstacle="ditch"),
    # Rocks: room for one dwarf [kind: rule; count and shapes: estimate]
    path("rock:EW", "EW", rock=True),
    path("rock:NEW", "NEW", rock=True),
    path("rock:NESW", "NESW", rock=True),
    # Campfires: move up to 5 from here [kind: rule; count and shapes: estimate]
    path("campfire:NESW", "NESW", campfire=True),
    path("campfire:NES", "NES", campfire=True),
    path("campfire:EW", "EW", campfire=True),
    # Plain path cards, 25 [estimate: shapes and split]
    path("NESW", "NESW", 4),
    path("NEW", "NEW", 3),
    path("NES", "NES", 3),
    path("EW", "EW", 3),
    path("NS", "NS", 3),
    path("ES", "ES", 2),
    path("SW", "SW", 2),
    path("N", "N"),
    path("W", "W"),
    path("E,W", "E,W"),
    path("N,S", "N,S"),
    path("N,E,S,W", "N,E,S,W"),
    # Action cards, 23 [kinds: rule; counts: estimate]
    action("axe", "tool", 2, ("log",)),
    action("boat", "tool", 2, ("lake",)),
    action("rope", "tool", 2, ("ditch",)),
    # information: the two options printed on the card are its ``tools`` [estimate: the pairs]
    action("info-mine-treasure", "info", 2, ("mine", "treasure")),
    action("info-mine-dwarf", "info", 2, ("mine", "dwarf")),
    action("info-treasure-dwarf", "info", 1, ("treasure", "dwarf")),
    action("trap", "trap", 4),
    action("troll", "troll", 4),
    action("storm", "storm", 4),
    # Treasures, 12; the back shows the type [estimate: count and values]
    _treasure("gold", 3), _treasure("gold", 4, 2), _treasure("gold", 5),
    _treasure("silver", 2, 2), _treasure("silver", 3, 2),
    _treasure("gems", 1), _treasure("gems", 2), _treasure("gems", 5), _treasure("gems", 6),
    # Dwarf cards, 10: per clan 3 loyal, 1 selfish, 1 saboteur [rule: 10, 5 per clan;
    # estimate, derived from the removal counts: the split]
    _dwarf(BLUE, LOYAL, 3), _dwarf(BLUE, SELFISH, 1), _dwarf(BLUE, SABOTEUR, 1),
    _dwarf(YELLOW, LOYAL, 3), _dwarf(YELLOW, SELFISH, 1), _dwarf(YELLOW, SABOTEUR, 1),
)

CATALOGUE = Catalogue(KINDS)

#: what each mine holds (the treasure type taken there, or the dragon)
MINE_TYPE = {"mine-gold": "gold", "mine-silver": "silver", "mine-gems": "gems",
             "mine-dragon": DRAGON}


def treasure_type(code: str) -> str:
    return code.split("-", 1)[0]


def clan_of(dwarf: str) -> str:
    return dwarf.split("-", 1)[0]


def identity_of(dwarf: str) -> str:
    return dwarf.split("-", 1)[1]


def other_clan(clan: str) -> str:
    return YELLOW if clan == BLUE else BLUE


# -- Board ------------------------------------------------------------------------
WIDTH, HEIGHT = 11, 7  # [rule]
#: [estimate: no source gives coordinates]
STARTS = {BLUE: (0, 2), YELLOW: (0, 4)}
MINE_CELLS = ((8, 0), (10, 2), (10, 4), (8, 6))

# -- Counts -------------------------------------------------------------------------
ROUNDS = 2  # [rule: two rounds; option ``rounds`` for more]
MAX_ROUNDS = 10  # the most the option ``rounds`` may ask for
SET_ASIDE = 10  # path and action cards set aside unseen [rule]
#: cards dealt to each player, by player count [rule]
HAND_SIZE = {3: 5, 4: 5, 5: 5, 6: 5, 7: 4, 8: 4, 9: 4}
#: loyal dwarf cards removed from each clan, by player count [rule]
LOYAL_REMOVED = {3: 2, 4: 2, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0}
PASS_MAX = 2  # pass: discard 1 or 2 [rule]
STEPS = 3  # a move is 1 to 3 steps [rule]
CAMPFIRE_STEPS = 5  # ... up to 5 when it starts on a campfire [rule]
DRAGON_PENALTY = 2  # [rule]
