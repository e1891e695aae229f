"""Card catalogues: one data table per game, compiled into flat lookup tables.

A :class:`CardKind` is one line of a game's card table (code, count, tile or
effect).  Identical physical cards share a kind; hands, piles and actions hold
kind codes (short strings), so "legal moves per distinct card" falls out of
``set(hand)``.

A :class:`Catalogue` compiles the path-like kinds (path, start, goal, mine)
into *oriented tiles*: small integers indexing flat tuples of segment masks,
so that the maze never touches a dataclass in its hot loops.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .tiles import EDGES, NO_FEATURES, Features, Tile


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card and how many copies a box holds."""

    code: str
    category: str  # "path", "action", "goal", "start", "mine", "role", "gold"
    count: int = 1
    tile: Tile | None = None
    effect: str | None = None  # action cards: "break", "repair", "rockfall", "map", "key", ...
    tools: tuple[str, ...] = ()  # tools a break / repair card names
    value: int = 0  # gold value of nugget / treasure cards
    name: str = ""

    @property
    def features(self) -> Features:
        return self.tile.features if self.tile is not None else NO_FEATURES

    @property
    def is_tile(self) -> bool:
        return self.tile is not None


def path(code: str, notation: str, count: int = 1, name: str = "", **features: object) -> CardKind:
    """A tile card kind: ``path("troll:EW", "EW", troll=True)``."""
    return CardKind(
        code=code,
        category=str(features.pop("category", "path")),
        count=count,
        tile=Tile.parse(notation, Features(**features)),  # type: ignore[arg-type]
        name=name or code,
    )


def action(code: str, effect: str, count: int, tools: Sequence[str] = (),
           name: str = "") -> CardKind:
    return CardKind(code=code, category="action", count=count, effect=effect, tools=tuple(tools),
                    name=name or code)


@dataclass(slots=True)
class Catalogue:
    """All card kinds of one game plus compiled oriented-tile tables."""

    kinds: tuple[CardKind, ...]
    by_code: dict[str, CardKind] = field(init=False)
    #: oriented tile id of (code, rotated)
    otile: dict[tuple[str, bool], int] = field(init=False)
    #: distinct orientations of each tile kind: ((rotated, otile), ...)
    orientations: dict[str, tuple[tuple[bool, int], ...]] = field(init=False)
    # flat per-oriented-tile tables (index = otile id)
    tiles: list[Tile] = field(init=False)
    codes: list[str] = field(init=False)
    open_mask: list[int] = field(init=False)
    segments: list[tuple[int, ...]] = field(init=False)
    #: segment index holding each edge, indexed by the edge bit (1, 2, 4, 8); -1 = closed
    seg_of_edge: list[tuple[int, ...]] = field(init=False)
    features: list[Features] = field(init=False)
    #: the segments entered through each set of edges (a 4-bit mask; one per open edge
    #: of the mask, in N E S W order): where reachability spreads from on a placement
    entered: list[tuple[tuple[int, ...], ...]] = field(init=False)

    def __post_init__(self) -> None:
        self.by_code = {}
        for kind in self.kinds:
            if kind.code in self.by_code:
                raise ValueError(f"duplicate card code {kind.code!r}")
            self.by_code[kind.code] = kind
        self.otile, self.orientations = {}, {}
        self.tiles, self.codes, self.open_mask, self.segments = [], [], [], []
        self.seg_of_edge, self.features, self.entered = [], [], []
        for kind in self.kinds:
            if kind.tile is None:
                continue
            variants = []
            for rotated in (False, True):
                tile = kind.tile.rotated() if rotated else kind.tile
                otile = len(self.tiles)
                self.otile[kind.code, rotated] = otile
                self.tiles.append(tile)
                self.codes.append(kind.code)
                self.open_mask.append(tile.open_mask)
                self.segments.append(tile.segments)
                by_edge = [-1] * 9
                for edge in EDGES:
                    by_edge[edge] = tile.segment_of_edge(edge)
                self.seg_of_edge.append(tuple(by_edge))
                self.entered.append(tuple(
                    tuple(by_edge[e] for e in EDGES if mask & e and by_edge[e] >= 0)
                    for mask in range(16)))
                self.features.append(tile.features)
                if not rotated or not kind.tile.symmetric:
                    variants.append((rotated, otile))
            self.orientations[kind.code] = tuple(variants)

    def __getitem__(self, code: str) -> CardKind:
        return self.by_code[code]

    def __contains__(self, code: object) -> bool:
        return code in self.by_code

    def of_category(self, *categories: str) -> list[CardKind]:
        return [k for k in self.kinds if k.category in categories]

    def box(self, categories: Iterable[str]) -> list[str]:
        """Every physical card of the given categories, as codes, in table order."""
        cats = set(categories)
        return [k.code for k in self.kinds if k.category in cats for _ in range(k.count)]


T = TypeVar("T")
_DERIVED: dict[tuple[int, object], tuple[Catalogue, object]] = {}


def derived(cat: Catalogue, build: Callable[[Catalogue], T]) -> T:
    """``build(cat)``, made once per catalogue and shared (tables derived from the cards)."""
    key = (id(cat), build)
    entry = _DERIVED.get(key)
    if entry is None or entry[0] is not cat:
        entry = _DERIVED[key] = (cat, build(cat))
    return entry[1]  # type: ignore[return-value]

