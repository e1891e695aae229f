"""Tiles: path cards as sets of segments, each segment a set of joined edges.

A tile is written as its segments, comma-separated, edges in N E S W order
(``"NESW"`` is a cross, ``"NS,EW"`` a bridge, ``"N,S"`` a dead end with two
stubs).  Edges are bits, so a segment is a 4-bit mask and fit and
connectivity are a few integer operations.

>>> t = Tile.parse("NES,W")
>>> t.notation, t.open_mask == N | E | S | W
('NES,W', True)
>>> t.rotated().notation
'NSW,E'
"""

from __future__ import annotations

from dataclasses import dataclass, field

N, E, S, W = 1, 2, 4, 8
EDGES: tuple[int, int, int, int] = (N, E, S, W)
EDGE_NAMES = {N: "N", E: "E", S: "S", W: "W"}
OPPOSITE = {N: S, E: W, S: N, W: E}
ALL_EDGES = N | E | S | W


def rotate_mask(mask: int) -> int:
    """Turn an edge mask by 180 degrees (N<->S, E<->W)."""
    return ((mask & (N | E)) << 2) | ((mask >> 2) & (N | E))


def mask_to_str(mask: int) -> str:
    return "".join(EDGE_NAMES[e] for e in EDGES if mask & e)


def str_to_mask(text: str) -> int:
    mask = 0
    for ch in text:
        edge = {"N": N, "E": E, "S": S, "W": W}.get(ch)
        if edge is None:
            raise ValueError(f"unknown edge {ch!r} in {text!r}")
        mask |= edge
    return mask


def _order(mask: int) -> int:
    """Sort key putting segments in N E S W order of their first edge."""
    return (mask & -mask).bit_length()


@dataclass(frozen=True, slots=True)
class Features:
    """What rides on a tile besides its edges.  Features never change the edges."""

    gold: int = 0
    door: str | None = None  # colour of a door
    troll: bool = False
    ladder: str | None = None  # colour of the start it joins, or "any"
    crystals: int = 0
    obstacle: str | None = None  # "log", "lake", "ditch" (The Lost Mines)
    rock: bool = False
    campfire: bool = False


NO_FEATURES = Features()


@dataclass(frozen=True, slots=True)
class Tile:
    """Segments (edge masks) plus features.  Immutable; rotation gives a twin."""

    segments: tuple[int, ...]
    features: Features = field(default=NO_FEATURES)

    @staticmethod
    def parse(notation: str, features: Features = NO_FEATURES) -> Tile:
        segments = tuple(sorted((str_to_mask(part) for part in notation.split(",")), key=_order))
        masks = 0
        for seg in segments:
            if not seg or seg & masks:
                raise ValueError(f"bad tile notation {notation!r}")
            masks |= seg
        return Tile(segments, features)

    @property
    def open_mask(self) -> int:
        mask = 0
        for seg in self.segments:
            mask |= seg
        return mask

    @property
    def notation(self) -> str:
        return ",".join(mask_to_str(seg) for seg in self.segments)

    def rotated(self) -> Tile:
        segments = tuple(sorted((rotate_mask(s) for s in self.segments), key=_order))
        return Tile(segments, self.features)

    @property
    def symmetric(self) -> bool:
        """True when turning the tile by 180 degrees gives the same tile."""
        return self.rotated().segments == self.segments

    def segment_of_edge(self, edge: int) -> int:
        """Index of the segment holding ``edge``, or -1 when the edge is closed."""
        for i, seg in enumerate(self.segments):
            if seg & edge:
                return i
        return -1
