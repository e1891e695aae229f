"""Parse the move notation (see :mod:`pysaboteur.engine.actions`) back into actions.

A card may be named by its code or, for people at a terminal, by its
1-based slot in the hand: ``2@3,0r`` is "the second card of my hand at
(3, 0), turned".

>>> from pysaboteur.games.duel.cards import CATALOGUE
>>> parse_action("NES@3,-1r", CATALOGUE)
PlacePath(card='NES', x=3, y=-1, rotated=True)
>>> parse_action("map@5,0", CATALOGUE)
PlayOnCell(card='map', x=5, y=0)
>>> parse_action("pass 1 2", CATALOGUE, hand=["NES", "map"])
Pass(cards=('NES', 'map'))
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .actions import (
    Action,
    Bribe,
    Discard,
    EndTurn,
    Move,
    NoMove,
    Orient,
    Pass,
    PlacePath,
    PlayOnCell,
    PlayOnJoint,
    PlayOnPlayer,
    PlayOnTreasure,
    ProposeEnd,
    Steal,
    Take,
    Vote,
)
from .cards import Catalogue
from .errors import NotationError

_CELL = r"(-?\d+)\s*,\s*(-?\d+)"
_AT = re.compile(rf"^(\S+?)\s*@\s*{_CELL}\s*(r?)$")
_TO = re.compile(r"^(\S+?)\s*>\s*(\d+)(?::(\S+))?$")
_BRIBE = re.compile(rf"^bribe\s*@\s*{_CELL}$")
_JOINT = re.compile(rf"^(\S+?)\s*@\s*{_CELL}\s*:\s*([NESWnesw])$")
_TREASURE = re.compile(r"^(\S+?)\s*#\s*(\d+)$")
_XY = re.compile(r"^(-?\d+),(-?\d+)$")
_WORDS: dict[str, Action] = {"stay": NoMove(), "propose end": ProposeEnd(),
                             "accept": Vote(True), "decline": Vote(False)}
_STEAL = re.compile(r"^steal\s*>\s*(\d+)$")


def _card(token: str, catalogue: Catalogue, hand: Sequence[str] | None) -> str:
    if token.isdigit() and hand is not None:
        slot = int(token)
        if not 1 <= slot <= len(hand):
            raise NotationError(f"there is no card {slot} in your hand (1-{len(hand)})")
        return hand[slot - 1]
    if token not in catalogue:
        raise NotationError(f"unknown card {token!r}")
    return token


def _cards(tokens: Sequence[str], catalogue: Catalogue,
           hand: Sequence[str] | None) -> tuple[str, ...]:
    slots = [t for t in tokens if t.isdigit()]
    if len(set(slots)) != len(slots):
        raise NotationError("the same hand slot is named twice")
    return tuple(sorted(_card(t, catalogue, hand) for t in tokens))


def _joint(card: str, x: int, y: int, side: str) -> PlayOnJoint:
    """One spelling per joint: a W or N side is the neighbour's E or S side."""
    if side == "W":
        return PlayOnJoint(card, x - 1, y, "E")
    if side == "N":
        return PlayOnJoint(card, x, y - 1, "S")
    return PlayOnJoint(card, x, y, side)


def _move(tokens: Sequence[str]) -> Move:
    if not tokens:
        raise NotationError("move needs the cells of the route: move X,Y [X,Y...]")
    route = []
    for token in tokens:
        m = _XY.match(token)
        if m is None:
            raise NotationError(f"cannot read the cell {token!r}; write X,Y")
        route.append((int(m[1]), int(m[2])))
    return Move(tuple(route))


def parse_action(text: str, catalogue: Catalogue, hand: Sequence[str] | None = None) -> Action:
    """Turn notation into an action; raises :class:`NotationError` on nonsense.

    Parsing checks only the shape; whether the action is legal is the state's job.
    """
    text = " ".join(text.strip().split())
    if not text:
        raise NotationError("empty move")
    if text == "end":
        return EndTurn()
    if text in ("orient", "orient r"):
        return Orient(text.endswith("r"))
    if m := _BRIBE.match(text):
        return Bribe(int(m[1]), int(m[2]))
    if m := _STEAL.match(text):
        return Steal(int(m[1]))
    if text in _WORDS:
        return _WORDS[text]
    if m := _JOINT.match(text):
        return _joint(_card(m[1], catalogue, hand), int(m[2]), int(m[3]), m[4].upper())
    if m := _TREASURE.match(text):
        return PlayOnTreasure(_card(m[1], catalogue, hand), int(m[2]))
    words = text.split(" ")
    if words[0] == "take" and len(words) == 2 and words[1].isdigit():
        return Take(int(words[1]))
    if words[0] == "move":
        return _move(words[1:])
    if words[0] == "pass":
        if len(words) < 2:
            raise NotationError("pass needs the cards to discard: pass CARD [CARD...]")
        return Pass(_cards(words[1:], catalogue, hand))
    if words[0] == "discard":
        if len(words) < 3 or not words[-1].startswith("-"):
            raise NotationError("discard needs cards and what to remove: discard CARD CARD -CARD")
        return Discard(_cards(words[1:-1], catalogue, hand), words[-1][1:])
    if m := _AT.match(text):
        card = _card(m[1], catalogue, hand)
        x, y = int(m[2]), int(m[3])
        if catalogue[card].is_tile:
            # a tile that looks the same both ways has one spelling: unturned
            turned = m[4] == "r" and len(catalogue.orientations[card]) > 1
            return PlacePath(card, x, y, turned)
        if m[4]:
            raise NotationError("only path cards can be turned (r)")
        return PlayOnCell(card, x, y)
    if m := _TO.match(text):
        return PlayOnPlayer(_card(m[1], catalogue, hand), int(m[2]), m[3])
    raise NotationError(f"cannot read {text!r}; type ? for the legal moves")
