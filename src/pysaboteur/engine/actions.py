"""Typed actions: small frozen values, printable in the move notation and parsable back.

Cards are named by their kind code (``"NES"``, ``"door-blue:EW"``, ``"map"``),
never by hand slot, so the same move is the same value whichever copy is used.

Notation (``str(action)``), with ``r`` marking a card turned by 180 degrees:

============================  ==================================================
``NES@3,0`` ``NES@3,0r``      path card on cell (3, 0)
``map@8,0``                   action card aimed at a cell (map, key, rockfall...)
``break-cart>1``              action card aimed at a seat
``repair-pickaxe-lantern>0:lantern``  ...naming which tool it mends
``discard A B -break-cart``   discard two cards to remove a card in front of you
``pass A B``                  discard one or more cards face down
``bribe@4,0``                 put a marker on a troll
``end``                       end the turn (when a bribe would still be possible)
``orient`` ``orient r``       choose how a revealed goal lies
``steal>2``                   a thief takes 1 gold from seat 2 (round end)
============================  ==================================================

>>> str(PlacePath("NES", 3, -1, True))
'NES@3,-1r'
"""

from __future__ import annotations

from typing import NamedTuple


class PlacePath(NamedTuple):
    card: str
    x: int
    y: int
    rotated: bool = False

    def __str__(self) -> str:
        return f"{self.card}@{self.x},{self.y}{'r' if self.rotated else ''}"


class PlayOnCell(NamedTuple):
    card: str
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.card}@{self.x},{self.y}"


class PlayOnPlayer(NamedTuple):
    card: str
    target: int
    tool: str | None = None

    def __str__(self) -> str:
        return f"{self.card}>{self.target}{':' + self.tool if self.tool else ''}"


class Discard(NamedTuple):
    """Discard cards (two, in the games that allow it) to remove a card lying in front of you."""

    cards: tuple[str, ...]
    remove: str

    def __str__(self) -> str:
        return f"discard {' '.join(self.cards)} -{self.remove}"


class Pass(NamedTuple):
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"pass {' '.join(self.cards)}"


class Bribe(NamedTuple):
    x: int
    y: int

    def __str__(self) -> str:
        return f"bribe@{self.x},{self.y}"


class EndTurn(NamedTuple):
    def __str__(self) -> str:
        return "end"


class Orient(NamedTuple):
    rotated: bool = False

    def __str__(self) -> str:
        return "orient r" if self.rotated else "orient"


class Steal(NamedTuple):
    """A thief's choice of victim when thefts are settled at the end of a round."""

    target: int

    def __str__(self) -> str:
        return f"steal>{self.target}"


Action = (PlacePath | PlayOnCell | PlayOnPlayer | Discard | Pass | Bribe | EndTurn | Orient
          | Steal)
