"""Draw cards, tiles and whole board positions as SVG, from the tile data alone.

Every picture is built from a game's catalogue (segments, features) and, for a
board, from a seat's *view* -- never from a state -- so that what is drawn is
what the seat may know.  The browser client receives these fragments from the
server (``/api/games/{game}/cards``) and composes them; in a notebook::

    >>> from pysaboteur.games.duel.cards import CATALOGUE
    >>> svg = card_svg(CATALOGUE, "door-blue:NESW")
    >>> svg.startswith("<svg") and "#2f6fdb" in svg
    True

A card is ``CARD_W`` x ``CARD_H`` units with its north edge on top; a board is
a grid of such cells, ``x`` growing east and ``y`` growing south.
:func:`card_fragment` returns the card's inner ``<g>`` (no ids, no ``<svg>``
wrapper) so that a client can place many of them in one drawing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, is_dataclass
from html import escape
from typing import Any

from .engine.cards import CardKind, Catalogue
from .engine.tiles import EDGES, E, N, S, Tile, W

CARD_W = 100
CARD_H = 150
_CX, _CY = CARD_W / 2, CARD_H / 2
_EDGE_POINT = {N: (_CX, 0.0), E: (float(CARD_W), _CY), S: (_CX, float(CARD_H)), W: (0.0, _CY)}
_PATH_W = 26

#: colours of doors, ladders, starts and seats by name
COLOURS: dict[str, str] = {
    "blue": "#2f6fdb", "green": "#2e9e44", "yellow": "#e0b400", "red": "#d23c3c",
    "purple": "#8a4fd1", "orange": "#e8821e", "any": "#8a8a8a",
}
ROCK = "#4a3b30"
ROCK_EDGE = "#2b211a"
TUNNEL = "#d9b98a"
TUNNEL_EDGE = "#a7855a"
GOLD = "#f2c230"
SEAT_COLOURS = ("#e0b400", "#2f6fdb", "#d23c3c", "#2e9e44", "#8a4fd1", "#e8821e", "#15a3a3",
                "#c2409a", "#6b8e23", "#7f7f7f", "#1e1e8c", "#8c4a1e")


def colour(name: str | None) -> str:
    return COLOURS.get(name or "", "#8a8a8a")


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


# -- tiles ------------------------------------------------------------------------
def _hub(segment: int, crowded: bool) -> tuple[float, float]:
    """Where a segment's edges meet: the centre, or (when several joined segments share the
    card and this one does not cross it) a point pulled toward its edges."""
    pts = [_EDGE_POINT[e] for e in EDGES if segment & e]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    if not crowded:
        return _CX, _CY
    return _CX + 0.55 * (mx - _CX), _CY + 0.55 * (my - _CY)


def _segment_path(segment: int, crowded: bool) -> str:
    edges = [e for e in EDGES if segment & e]
    hx, hy = _hub(segment, crowded)
    if len(edges) == 1:  # a stub ending in rock: a dead end
        ex, ey = _EDGE_POINT[edges[0]]
        return f"M{_f(ex)},{_f(ey)} L{_f(ex + 0.6 * (_CX - ex))},{_f(ey + 0.6 * (_CY - ey))}"
    parts = []
    for e in edges:
        ex, ey = _EDGE_POINT[e]
        if crowded:
            # curve from the edge through a control point on the edge's axis
            cx_, cy_ = (ex, hy) if e in (N, S) else (hx, ey)
            parts.append(f"M{_f(ex)},{_f(ey)} Q{_f(cx_)},{_f(cy_)} {_f(hx)},{_f(hy)}")
        else:
            parts.append(f"M{_f(ex)},{_f(ey)} L{_f(hx)},{_f(hy)}")
    return " ".join(parts)


def _stroke(d: str, width: float, col: str, extra: str = "") -> str:
    return (f'<path d="{d}" fill="none" stroke="{col}" stroke-width="{_f(width)}" '
            f'stroke-linecap="butt" stroke-linejoin="round"{extra}/>')


def _dead_ends(tile: Tile) -> str:
    out = []
    for seg in tile.segments:
        if seg.bit_count() == 1:
            ex, ey = _EDGE_POINT[seg]
            px, py = ex + 0.6 * (_CX - ex), ey + 0.6 * (_CY - ey)
            out.append(f'<circle cx="{_f(px)}" cy="{_f(py)}" r="{_PATH_W / 2 - 2}" '
                       f'fill="{ROCK_EDGE}" stroke="#000" stroke-width="1"/>')
    return "".join(out)


def tile_paths(tile: Tile) -> str:
    """The tunnels of a tile: one stroke per segment, dead ends capped with rock."""
    joined = [s for s in tile.segments if s.bit_count() > 1]
    crowded = len(joined) > 1 and not _is_bridge(joined)
    out = []
    for i, seg in enumerate(sorted(tile.segments, key=lambda s: -s.bit_count())):
        d = _segment_path(seg, crowded and seg.bit_count() > 1)
        over = i > 0 and _is_bridge(joined) and seg.bit_count() > 1
        if over:  # the upper deck of a bridge gets a dark outline
            out.append(_stroke(d, _PATH_W + 10, ROCK_EDGE))
        out.append(_stroke(d, _PATH_W + 4, TUNNEL_EDGE))
        out.append(_stroke(d, _PATH_W, TUNNEL))
    out.append(_dead_ends(tile))
    return "".join(out)


def _is_bridge(joined: Sequence[int]) -> bool:
    return sorted(joined) == sorted((N | S, E | W))


# -- feature glyphs -------------------------------------------------------------------
def _nugget(x: float, y: float, value: int) -> str:
    label = (f'<text x="{_f(x)}" y="{_f(y + 5)}" text-anchor="middle" font-size="15" '
             f'font-weight="bold" fill="#5a3d00">{value}</text>') if value > 1 else ""
    return (f'<polygon points="{_f(x - 13)},{_f(y + 4)} {_f(x - 7)},{_f(y - 9)} {_f(x + 6)},'
            f'{_f(y - 11)} {_f(x + 14)},{_f(y + 1)} {_f(x + 6)},{_f(y + 11)} {_f(x - 6)},'
            f'{_f(y + 11)}" fill="{GOLD}" stroke="#8a6500" stroke-width="2"/>{label}')


def _door(col: str) -> str:
    return (f'<rect x="{_f(_CX - 17)}" y="{_f(_CY - 20)}" width="34" height="40" rx="12" '
            f'fill="{col}" stroke="#111" stroke-width="2.5"/>'
            f'<circle cx="{_f(_CX)}" cy="{_f(_CY - 3)}" r="4" fill="#111"/>'
            f'<rect x="{_f(_CX - 2)}" y="{_f(_CY - 2)}" width="4" height="12" fill="#111"/>')


def _troll() -> str:
    return (f'<circle cx="{_f(_CX)}" cy="{_f(_CY)}" r="18" fill="#7b5ea7" stroke="#2a1d3d" '
            f'stroke-width="2.5"/>'
            f'<circle cx="{_f(_CX - 7)}" cy="{_f(_CY - 4)}" r="3.5" fill="#fff"/>'
            f'<circle cx="{_f(_CX + 7)}" cy="{_f(_CY - 4)}" r="3.5" fill="#fff"/>'
            f'<path d="M{_f(_CX - 8)},{_f(_CY + 8)} Q{_f(_CX)},{_f(_CY + 3)} {_f(_CX + 8)},'
            f'{_f(_CY + 8)}" stroke="#fff" stroke-width="2.5" fill="none"/>'
            f'<path d="M{_f(_CX - 15)},{_f(_CY - 12)} l-5,-9 l10,5 M{_f(_CX + 15)},'
            f'{_f(_CY - 12)} l5,-9 l-10,5" stroke="#2a1d3d" stroke-width="2.5" fill="none"/>')


def _ladder(col: str) -> str:
    x0, x1, y0, y1 = _CX - 11, _CX + 11, _CY - 24, _CY + 24
    rungs = "".join(f'<line x1="{_f(x0)}" y1="{_f(y)}" x2="{_f(x1)}" y2="{_f(y)}"/>'
                    for y in (y0 + 8, y0 + 20, y0 + 32, y0 + 44))
    return (f'<g stroke="{col}" stroke-width="4" stroke-linecap="round">'
            f'<line x1="{_f(x0)}" y1="{_f(y0)}" x2="{_f(x0)}" y2="{_f(y1)}"/>'
            f'<line x1="{_f(x1)}" y1="{_f(y0)}" x2="{_f(x1)}" y2="{_f(y1)}"/>{rungs}</g>')


def _crystals(count: int) -> str:
    out = []
    for i in range(max(count, 1)):
        x = _CX + (i - (count - 1) / 2) * 18
        out.append(f'<polygon points="{_f(x)},{_f(_CY - 16)} {_f(x + 9)},{_f(_CY - 4)} '
                   f'{_f(x)},{_f(_CY + 14)} {_f(x - 9)},{_f(_CY - 4)}" fill="#7fe3f0" '
                   f'stroke="#137a8a" stroke-width="2"/>')
    return "".join(out)


def _obstacle(kind: str) -> str:
    if kind == "log":
        return (f'<rect x="{_f(_CX - 24)}" y="{_f(_CY - 9)}" width="48" height="18" rx="9" '
                f'fill="#8b5a2b" stroke="#3d2411" stroke-width="2.5"/>'
                f'<ellipse cx="{_f(_CX + 18)}" cy="{_f(_CY)}" rx="5" ry="8" fill="#c49a6c" '
                f'stroke="#3d2411" stroke-width="1.5"/>')
    if kind == "lake":
        return (f'<ellipse cx="{_f(_CX)}" cy="{_f(_CY)}" rx="24" ry="15" fill="#3f8fd8" '
                f'stroke="#1d4f80" stroke-width="2.5"/>'
                f'<path d="M{_f(_CX - 12)},{_f(_CY)} q6,-5 12,0 q6,5 12,0" stroke="#cde6ff" '
                f'stroke-width="2" fill="none"/>')
    if kind == "ditch":
        return (f'<path d="M{_f(_CX - 24)},{_f(_CY - 6)} l8,12 l8,-12 l8,12 l8,-12 l8,12 l8,-12" '
                f'stroke="#1a1a1a" stroke-width="6" fill="none" stroke-linejoin="round"/>')
    return _label(kind[:1].upper(), "#d23c3c")


def _rock() -> str:
    return (f'<polygon points="{_f(_CX - 20)},{_f(_CY + 12)} {_f(_CX - 14)},{_f(_CY - 10)} '
            f'{_f(_CX + 2)},{_f(_CY - 17)} {_f(_CX + 18)},{_f(_CY - 6)} {_f(_CX + 20)},'
            f'{_f(_CY + 12)}" fill="#8d8d8d" stroke="#3a3a3a" stroke-width="2.5"/>')


def _campfire() -> str:
    return (f'<path d="M{_f(_CX - 16)},{_f(_CY + 14)} L{_f(_CX + 16)},{_f(_CY + 6)} '
            f'M{_f(_CX - 16)},{_f(_CY + 6)} L{_f(_CX + 16)},{_f(_CY + 14)}" '
            f'stroke="#6b3e1e" stroke-width="5"/>'
            f'<path d="M{_f(_CX)},{_f(_CY - 20)} C{_f(_CX + 14)},{_f(_CY - 4)} {_f(_CX + 10)},'
            f'{_f(_CY + 10)} {_f(_CX)},{_f(_CY + 10)} C{_f(_CX - 10)},{_f(_CY + 10)} '
            f'{_f(_CX - 14)},{_f(_CY - 4)} {_f(_CX)},{_f(_CY - 20)}Z" fill="#ff8a1e" '
            f'stroke="#b33b00" stroke-width="2"/>')


def _label(text: str, col: str = "#fff", y: float = _CY, size: int = 22) -> str:
    return (f'<text x="{_f(_CX)}" y="{_f(y + size / 3)}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="{size}" font-weight="bold" fill="{col}" '
            f'stroke="#000" stroke-width="0.8">{escape(text)}</text>')


def tile_features(tile: Tile) -> str:
    """The glyphs of a tile's features, drawn over its tunnels."""
    f = tile.features
    out = []
    if f.door:
        out.append(_door(colour(f.door)))
    if f.troll:
        out.append(_troll())
    if f.ladder:
        out.append(_ladder(colour(f.ladder)))
    if f.crystals:
        out.append(_crystals(f.crystals))
    if f.obstacle:
        out.append(_obstacle(f.obstacle))
    if f.rock:
        out.append(_rock())
    if f.campfire:
        out.append(_campfire())
    if f.gold:
        x, y = (_CX, _CY) if not out else (_CX + 28, _CY - 48)
        out.append(_nugget(x, y, f.gold))
    return "".join(out)


def _frame(fill: str = ROCK, stroke: str = ROCK_EDGE) -> str:
    return (f'<rect x="1" y="1" width="{CARD_W - 2}" height="{CARD_H - 2}" rx="8" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="2"/>')


def tile_fragment(tile: Tile, kind: CardKind | None = None) -> str:
    """A path-like card (path, start, goal, mine) as a ``<g>`` of CARD_W x CARD_H units."""
    category = kind.category if kind is not None else "path"
    code = kind.code if kind is not None else ""
    out = [_frame()]
    if category == "goal":
        out[0] = _frame("#5c4a2e", "#2b211a")
    out.append(tile_paths(tile))
    if category == "start":
        col = colour(code.rsplit("-", 1)[-1]) if "-" in code else "#e0e0e0"
        out.append(f'<rect x="{_f(_CX - 20)}" y="{_f(_CY - 20)}" width="40" height="40" '
                   f'rx="6" fill="{col}" stroke="#111" stroke-width="3"/>')
        out.append(_ladder("#111"))
    elif category == "mine":
        out.append(f'<circle cx="{_f(_CX)}" cy="{_f(_CY)}" r="22" fill="#2b211a" '
                   f'stroke="{GOLD}" stroke-width="3"/>')
        out.append(_label(code.removeprefix("mine-")[:1].upper(), GOLD))
    out.append(tile_features(tile))
    if category == "goal" and not tile.features.gold:
        out.append(_stone())
    return f'<g class="card tile">{"".join(out)}</g>'


def _stone() -> str:
    return (f'<ellipse cx="{_f(_CX)}" cy="{_f(_CY)}" rx="15" ry="11" fill="#9b9b9b" '
            f'stroke="#3a3a3a" stroke-width="2"/>')


# -- action and other cards ---------------------------------------------------------------
def _tool(tool: str, x: float, y: float, s: float = 1.0) -> str:
    """A small glyph of a tool or a target: pickaxe, lantern, cart, mine, dwarf..."""
    t = f'transform="translate({_f(x)},{_f(y)}) scale({_f(s)})"'
    if tool == "pickaxe":
        body = ('<line x1="-10" y1="14" x2="8" y2="-10" stroke="#8b5a2b" stroke-width="4"/>'
                '<path d="M-6,-14 Q8,-18 16,-2" stroke="#cfcfcf" stroke-width="5" fill="none"/>')
    elif tool == "lantern":
        body = ('<circle cx="0" cy="-15" r="4" fill="none" stroke="#333" stroke-width="2"/>'
                '<rect x="-9" y="-11" width="18" height="24" rx="3" fill="#ffe37a" '
                'stroke="#333" stroke-width="2.5"/>')
    elif tool == "cart":
        body = ('<path d="M-16,-8 L16,-8 L11,8 L-11,8 Z" fill="#8a8a8a" stroke="#333" '
                'stroke-width="2.5"/><circle cx="-7" cy="12" r="4" fill="#333"/>'
                '<circle cx="7" cy="12" r="4" fill="#333"/>')
    elif tool in ("log", "lake", "ditch"):
        body = f'<g transform="translate({-_CX},{-_CY}) scale(0.7) translate(21,32)">' \
               f'{_obstacle(tool)}</g>'
    elif tool == "dwarf":
        body = ('<circle cx="0" cy="-8" r="8" fill="#f1c9a5" stroke="#333" stroke-width="2"/>'
                '<path d="M-8,-12 L0,-24 L8,-12 Z" fill="#d23c3c"/>'
                '<path d="M-12,16 Q0,-6 12,16 Z" fill="#6b8e23" stroke="#333" stroke-width="2"/>')
    elif tool == "treasure":
        body = ('<rect x="-14" y="-8" width="28" height="20" rx="3" fill="#8b5a2b" stroke="#333" '
                'stroke-width="2"/><rect x="-14" y="-8" width="28" height="6" fill="#f2c230"/>')
    elif tool == "mine":
        body = ('<path d="M-16,14 L-16,-2 Q0,-20 16,-2 L16,14 Z" fill="#2b211a" stroke="#f2c230" '
                'stroke-width="2.5"/>')
    else:
        body = (f'<text x="0" y="7" text-anchor="middle" font-family="sans-serif" '
                f'font-size="18" font-weight="bold" fill="#fff">{escape(tool[:2].upper())}</text>')
    return f"<g {t}>{body}</g>"


def _cross(x: float, y: float, r: float = 22) -> str:
    return (f'<path d="M{_f(x - r)},{_f(y - r)} L{_f(x + r)},{_f(y + r)} M{_f(x + r)},'
            f'{_f(y - r)} L{_f(x - r)},{_f(y + r)}" stroke="#d23c3c" stroke-width="6" '
            f'stroke-linecap="round"/>')


def _check(x: float, y: float) -> str:
    return (f'<path d="M{_f(x - 10)},{_f(y)} l7,8 l14,-18" stroke="#2e9e44" stroke-width="6" '
            f'fill="none" stroke-linecap="round"/>')


def _map() -> str:
    return ('<path d="M22,45 L42,38 L58,45 L78,38 L78,108 L58,115 L42,108 L22,115 Z" '
            'fill="#f1e2b8" stroke="#6b4e1e" stroke-width="2.5"/>'
            '<path d="M30,100 Q45,80 52,88 T70,60" stroke="#6b4e1e" stroke-width="2" '
            'stroke-dasharray="4 3" fill="none"/>' + _cross(68, 56, 6))


def _key() -> str:
    return ('<g stroke="#8a6500" stroke-width="3" fill="#f2c230">'
            '<circle cx="50" cy="52" r="14"/><rect x="46" y="64" width="8" height="40"/>'
            '<rect x="54" y="86" width="10" height="6"/><rect x="54" y="96" width="8" height="6"/>'
            '</g><circle cx="50" cy="52" r="5" fill="#5c4a2e"/>')


def _rockfall() -> str:
    return ('<g fill="#8d8d8d" stroke="#3a3a3a" stroke-width="2.5">'
            '<polygon points="24,100 32,78 48,74 54,96 44,108"/>'
            '<polygon points="52,106 58,82 74,80 80,100 70,110"/>'
            '<polygon points="38,72 44,52 60,48 66,70 52,78"/></g>'
            '<path d="M50,20 L50,42 M40,26 L46,40 M60,26 L54,40" stroke="#d9b98a" '
            'stroke-width="3"/>')


def _generic(code: str) -> str:
    words = [w for w in code.replace(":", "-").split("-") if w]
    initials = "".join(w[0] for w in words[:3]).upper() or "?"
    return (f'<circle cx="{_f(_CX)}" cy="{_f(_CY)}" r="30" fill="#5c4a2e" stroke="#d9b98a" '
            f'stroke-width="3"/>' + _label(initials, "#f1e2b8", size=24))


def action_fragment(kind: CardKind) -> str:
    """An action card: the glyph of its effect and of the tools or targets it names."""
    out = [_frame("#1f3b57", "#0d1c2a")]
    effect = kind.effect or ""
    tools = kind.tools
    if effect in ("break", "repair") and tools:
        n = len(tools)
        for i, tool in enumerate(tools):
            y = _CY + (i - (n - 1) / 2) * 44
            out.append(_tool(tool, _CX, y, 1.5))
            out.append(_cross(_CX, y) if effect == "break" else _check(_CX + 22, y + 14))
    elif effect == "map":
        out.append(_map())
    elif effect == "key":
        out.append(_key())
    elif effect == "rockfall":
        out.append(_rockfall())
    elif tools:  # tools of The Lost Mines (axe, boat, rope) and information cards
        n = len(tools)
        for i, tool in enumerate(tools):
            y = _CY + (i - (n - 1) / 2) * 44
            out.append(_tool(tool, _CX, y, 1.4))
        if effect == "tool":
            out.append(_check(_CX + 24, _CY + 16))
    else:
        out.append(_generic(kind.code))
    return f'<g class="card action">{"".join(out)}</g>'


def other_fragment(kind: CardKind) -> str:
    """Roles, gold nuggets, treasures: a plain card with a glyph."""
    out = [_frame("#3b2f4d", "#1c1526")]
    if kind.category == "gold" or kind.value:
        for i in range(max(1, min(kind.value, 3))):
            out.append(_nugget(_CX, _CY - 30 + 30 * i, 1))
        if kind.value > 3:
            out.append(_label(str(kind.value), GOLD, _CY + 50))
    elif kind.category == "role":
        out.append(_tool("dwarf", _CX, _CY, 2.2))
        if "saboteur" in kind.code:
            out.append(_cross(_CX, _CY + 40, 10))
        for name, hexcol in COLOURS.items():
            if name in kind.code:
                out.append(f'<rect x="10" y="10" width="80" height="10" fill="{hexcol}"/>')
    else:
        out.append(_generic(kind.code))
    return f'<g class="card other">{"".join(out)}</g>'


def back_fragment(kind: str = "goal") -> str:
    """The back of a card: ``goal`` (face-down goal or mine), ``deck``."""
    fill = "#5c4a2e" if kind == "goal" else "#1f3b57"
    return (f'<g class="card back">{_frame(fill, ROCK_EDGE)}'
            f'<rect x="10" y="10" width="80" height="130" rx="6" fill="none" stroke="{GOLD}" '
            f'stroke-width="2" stroke-dasharray="6 4"/>{_label("?", GOLD, size=48)}</g>')


def card_fragment(catalogue: Catalogue, code: str, rotated: bool = False) -> str:
    """One card of a catalogue as a ``<g>`` of CARD_W x CARD_H units (no ids, no wrapper)."""
    kind = catalogue[code]
    if kind.tile is not None:
        return tile_fragment(catalogue.tiles[catalogue.otile[code, rotated]], kind)
    if kind.category == "action":
        return action_fragment(kind)
    return other_fragment(kind)


def wrap(fragment: str, width: float = CARD_W, height: float = CARD_H,
         title: str | None = None) -> str:
    """A standalone ``<svg>`` document around fragments drawn in ``width`` x ``height`` units."""
    t = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
            f'width="{_f(width)}" height="{_f(height)}">{t}{fragment}</svg>')


def card_svg(catalogue: Catalogue, code: str, rotated: bool = False) -> str:
    """One card as a standalone SVG document."""
    return wrap(card_fragment(catalogue, code, rotated), title=code)


def tile_svg(tile: Tile) -> str:
    """A bare tile (no card kind) as a standalone SVG document."""
    return wrap(tile_fragment(tile))


def catalogue_fragments(catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    """Every card of a catalogue: its data and its drawing (and the turned drawing of a tile).

    This is what the server sends the browser, once per game.
    """
    out: dict[str, dict[str, Any]] = {}
    for kind in catalogue.kinds:
        entry: dict[str, Any] = {
            "code": kind.code, "category": kind.category, "effect": kind.effect,
            "tools": list(kind.tools), "value": kind.value, "name": kind.name or kind.code,
            "svg": card_fragment(catalogue, kind.code),
            "svg_r": None,
        }
        if kind.tile is not None:
            f = kind.tile.features
            entry["tile"] = kind.tile.notation
            entry["features"] = {k: v for k, v in asdict(f).items() if v}
            if not kind.tile.symmetric:
                entry["svg_r"] = card_fragment(catalogue, kind.code, True)
        out[kind.code] = entry
    return out


# -- a whole board ------------------------------------------------------------------------
def _get(view: Any, name: str, default: Any = ()) -> Any:
    if isinstance(view, Mapping):
        return view.get(name, default)
    return getattr(view, name, default)


def _as_mapping(view: Any) -> Mapping[str, Any]:
    if isinstance(view, Mapping):
        return view
    if hasattr(view, "to_json"):
        return dict(view.to_json())
    if is_dataclass(view) and not isinstance(view, type):
        return asdict(view)
    raise TypeError("a view is a dataclass, has to_json(), or is a mapping")


def board_bounds(cells: Iterable[tuple[int, int]], margin: int = 1) -> tuple[int, int, int, int]:
    cs = list(cells) or [(0, 0)]
    xs = [c[0] for c in cs]
    ys = [c[1] for c in cs]
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def _placed(p: Any) -> tuple[int, int, str, bool]:
    if isinstance(p, Mapping):
        return int(p["x"]), int(p["y"]), str(p["card"]), bool(p.get("rotated", False))
    if isinstance(p, Sequence) and not isinstance(p, str):
        return int(p[0]), int(p[1]), str(p[2]), bool(p[3])
    return int(p.x), int(p.y), str(p.card), bool(p.rotated)


def board_svg(view: Any, catalogue: Catalogue, highlight: Iterable[tuple[int, int]] = (),
              margin: int = 1) -> str:
    """A whole board position as the seat of ``view`` sees it.

    ``view`` is a view dataclass, its ``to_json()`` dict, or any mapping with the shared field
    names (``board``, ``face_down``, ``known_goals``, ``markers``, ``bribes``, ``keys``,
    ``pawns``, ``pending_goal``); fields a game lacks are skipped.  ``highlight``: cells to mark.
    """
    v = _as_mapping(view)
    placed = [_placed(p) for p in _get(v, "board")]
    down = [tuple(c) for c in _get(v, "face_down")]
    known = {(int(k[0]), int(k[1])): str(k[2]) for k in _get(v, "known_goals") or ()}
    pending = _get(v, "pending_goal", None)
    marks = list(highlight)
    cells = [(x, y) for x, y, _, _ in placed] + [(int(c[0]), int(c[1])) for c in down] + marks
    x0, y0, x1, y1 = board_bounds(cells, margin)
    parts = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            parts.append(f'<rect x="{(x - x0) * CARD_W + 3}" y="{(y - y0) * CARD_H + 3}" '
                         f'width="{CARD_W - 6}" height="{CARD_H - 6}" rx="8" fill="none" '
                         f'stroke="#ffffff18" stroke-width="2"/>')

    def at(x: int, y: int, inner: str) -> str:
        return f'<g transform="translate({(x - x0) * CARD_W},{(y - y0) * CARD_H})">{inner}</g>'

    for x, y, code, rotated in placed:
        if code in catalogue:
            parts.append(at(x, y, card_fragment(catalogue, code, rotated)))
    for c in down:
        x, y = int(c[0]), int(c[1])
        inner = back_fragment("goal")
        if (x, y) in known and known[x, y] in catalogue:
            inner += (f'<g transform="translate(55,5) scale(0.4)" opacity="0.95">'
                      f'{card_fragment(catalogue, known[x, y])}</g>')
        parts.append(at(x, y, inner))
    if pending and len(pending) >= 3 and isinstance(pending[2], str) and pending[2] in catalogue:
        parts.append(at(int(pending[0]), int(pending[1]),
                        card_fragment(catalogue, pending[2]) +
                        f'<rect x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="8" '
                        f'fill="none" stroke="{GOLD}" stroke-width="5" stroke-dasharray="8 5"/>'))
    seat_col = SEAT_COLOURS
    colours = list(_get(v, "colours") or ())
    for i, m in enumerate(list(_get(v, "markers")) + list(_get(v, "bribes"))):
        x, y, seat = int(m[0]), int(m[1]), int(m[2])
        col = colour(colours[seat]) if seat < len(colours) else seat_col[seat % len(seat_col)]
        dx = 80 if i < len(list(_get(v, "markers"))) else 20
        parts.append(at(x, y, f'<circle cx="{dx}" cy="20" r="11" fill="{col}" stroke="#fff" '
                              f'stroke-width="3"/>'))
    for k in _get(v, "keys") or ():
        parts.append(at(int(k[0]), int(k[1]), f'<g transform="translate(60,95) scale(0.45)">'
                                              f'{_key()}</g>'))
    for seat, p in enumerate(_get(v, "pawns") or ()):
        if p is None:
            continue
        col = seat_col[seat % len(seat_col)]
        parts.append(at(int(p[0]), int(p[1]),
                        f'<circle cx="{20 + 12 * (seat % 6)}" cy="{120 - 12 * (seat // 6)}" '
                        f'r="9" fill="{col}" stroke="#000" stroke-width="2"/>'))
    for c in marks:
        parts.append(at(int(c[0]), int(c[1]),
                        f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="8" '
                        f'fill="#3fd0ff33" stroke="#3fd0ff" stroke-width="4"/>'))
    width, height = (x1 - x0 + 1) * CARD_W, (y1 - y0 + 1) * CARD_H
    bg = f'<rect width="{width}" height="{height}" fill="#1d1712"/>'
    return wrap(bg + "".join(parts), width, height)
