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
``trap@3,2:E``                token on a joint: (3, 2) and its E (or S) neighbour
``info-mine-dwarf#2``         action card aimed at laid-out treasure number 2
``move 1,2 2,2 2,3``          move a pawn along these cells (after the start)
``stay``                      do not move the pawn
``take 2``                    take laid-out treasure number 2
``propose end``               propose to end the round; ``accept`` / ``decline`` answer
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


class PlayOnJoint(NamedTuple):
    """An action card aimed at the joint between cell (x, y) and its ``side`` neighbour.

    ``side`` is "E" or "S" (the parser turns "W" and "N" into the neighbour's E or S),
    so that each joint has exactly one spelling.
    """

    card: str
    x: int
    y: int
    side: str

    def __str__(self) -> str:
        return f"{self.card}@{self.x},{self.y}:{self.side}"


class PlayOnTreasure(NamedTuple):
    """An action card aimed at a laid-out treasure (by its 0-based slot)."""

    card: str
    slot: int

    def __str__(self) -> str:
        return f"{self.card}#{self.slot}"


class Move(NamedTuple):
    """Move a pawn along ``route``: the cells entered, in order (the start cell excluded)."""

    route: tuple[tuple[int, int], ...]

    def __str__(self) -> str:
        return "move " + " ".join(f"{x},{y}" for x, y in self.route)


class NoMove(NamedTuple):
    def __str__(self) -> str:
        return "stay"


class Take(NamedTuple):
    """Take the laid-out treasure in ``slot``."""

    slot: int

    def __str__(self) -> str:
        return f"take {self.slot}"


class ProposeEnd(NamedTuple):
    def __str__(self) -> str:
        return "propose end"


class Vote(NamedTuple):
    accept: bool

    def __str__(self) -> str:
        return "accept" if self.accept else "decline"


Action = (PlacePath | PlayOnCell | PlayOnPlayer | Discard | Pass | Bribe | EndTurn | Orient
          | Steal | PlayOnJoint | PlayOnTreasure | Move | NoMove | Take | ProposeEnd | Vote)


def cards_of(action: Action) -> tuple[str, ...]:
    """The hand cards an action spends (none for choices such as moves and votes)."""
    cards = getattr(action, "cards", None)
    if cards is not None:
        return tuple(cards)
    card = getattr(action, "card", None)
    return () if card is None else (card,)
