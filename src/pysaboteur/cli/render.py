"""Draw a seat's view in the terminal with rich: the maze as 5x3 character cards.

Works from a view only (never a state), so what is drawn is what the seat may
know.  Views share the field names of :class:`pysaboteur.games.duel.view.DuelView`
(``board``, ``face_down``, ``hand``, ``in_front`` ...); fields a game lacks are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..engine.cards import Catalogue
from ..engine.tiles import E, N, S, Tile, W

# the joined part of a tile drawn in its middle character
_JOIN = {
    N | S: "│", E | W: "─", N | E: "└", N | W: "┘", E | S: "┌", S | W: "┐",
    N | E | S: "├", N | S | W: "┤", N | E | W: "┴", E | S | W: "┬", N | E | S | W: "┼",
}
_COLOURS = {"blue": "bright_blue", "green": "bright_green", "yellow": "yellow"}


def tile_art(tile: Tile) -> list[str]:
    """Three 5-character rows picturing a tile's edges and how they join."""
    joined = [s for s in tile.segments if s.bit_count() > 1]
    if len(joined) == 2:
        middle = "╋" if set(joined) == {N | S, E | W} else "╳"  # noqa: RUF001
    elif joined:
        middle = _JOIN[joined[0]]
    else:
        middle = "■"  # only stubs: a dead end
    om = tile.open_mask
    top = "  │  " if om & N else "     "
    bottom = "  │  " if om & S else "     "
    west = "──" if om & W else "  "
    east = "──" if om & E else "  "
    return [top, west + middle + east, bottom]


def _badge(card: str, tile: Tile) -> tuple[str, str]:
    f = tile.features
    if card.startswith("start"):
        return "S", _COLOURS.get(card.split("-")[-1], "white")
    if f.door:
        return "D", _COLOURS.get(f.door, "white")
    if f.ladder:
        return "H", _COLOURS.get(f.ladder, "cyan")
    if f.troll:
        return "T", "magenta"
    if f.gold:
        return str(f.gold), "yellow"
    if f.crystals:
        return "*", "cyan"
    if f.obstacle:
        return f.obstacle[0].upper(), "red"
    if f.rock:
        return "R", "white"
    if f.campfire:
        return "F", "red"
    return "", "white"


def board_text(view: Any, catalogue: Catalogue, highlight: Sequence[tuple[int, int]] = ()) -> Text:
    placed = {(p.x, p.y): p for p in view.board}
    down = set(view.face_down)
    pending = getattr(view, "pending_goal", None)
    if pending:
        down.add((pending[0], pending[1]))
    marks: dict[tuple[int, int], str] = {}
    for x, y, seat in getattr(view, "markers", ()):
        marks[x, y] = view.colours[seat] if hasattr(view, "colours") else "yellow"
    for x, y, seat in getattr(view, "bribes", ()):
        marks[x, y] = view.colours[seat] if hasattr(view, "colours") else "yellow"
    keys = set(getattr(view, "keys", ()))
    known = {(x, y): code for x, y, code in getattr(view, "known_goals", ())}
    cells = set(placed) | down | set(highlight)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    out = Text()
    out.append("      " + "".join(f"{x:^5}" for x in range(x0, x1 + 1)) + "\n", style="dim")
    for y in range(y0, y1 + 1):
        for row in range(3):
            out.append(f"{y:>4}  " if row == 1 else "      ", style="dim")
            for x in range(x0, x1 + 1):
                p = placed.get((x, y))
                if p is not None:
                    tile = catalogue.tiles[catalogue.otile[p.card, p.rotated]]
                    art = tile_art(tile)[row]
                    badge, colour = _badge(p.card, tile)
                    style = colour if badge else "white"
                    if row == 0 and badge:
                        art = badge + art[1:]
                    if row == 0 and (x, y) in marks:
                        art = art[:4] + "●"
                        out.append(art[:4], style=style)
                        out.append("●", style=_COLOURS.get(marks[x, y], "yellow"))
                        continue
                    if row == 2 and (x, y) in keys:
                        art = art[:4] + "k"
                    out.append(art, style=style)
                elif (x, y) in down:
                    label = "?" if (x, y) not in known else "!"
                    out.append(["┌───┐", f"│ {label} │", "└───┘"][row], style="yellow")
                elif (x, y) in highlight:
                    out.append(["     ", "  +  ", "     "][row], style="bold cyan")
                else:
                    out.append("  ·  " if row == 1 else "     ", style="grey23")
            out.append("\n")
    return out


def status_table(view: Any) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("seat")
    cols = ["cards", "in front", "gold"]
    if hasattr(view, "markers_left"):
        cols.append("markers")
    for c in cols:
        table.add_column(c)
    for seat in range(view.players):
        name = f"{seat}" + (f" {view.colours[seat]}" if hasattr(view, "colours") else "")
        if seat == view.seat:
            name += " (you)"
        if seat == view.current_player:
            name = "▶ " + name
        row = [name, str(view.hand_sizes[seat]), " ".join(view.in_front[seat]) or "-",
               str(view.scores[seat]) if hasattr(view, "scores") else "?"]
        if hasattr(view, "markers_left"):
            row.append(str(view.markers_left[seat]))
        table.add_row(*row)
    return table


def view_panel(view: Any, catalogue: Catalogue) -> Group:
    parts: list[Any] = [board_text(view, catalogue), status_table(view)]
    info = f"round {view.round}/{view.rounds}   pile {view.deck_size}"
    if hasattr(view, "keys_left"):
        info += f"   keys {view.keys_left}"
    if getattr(view, "set_aside", 0):
        info += f"   set aside {view.set_aside}"
    parts.append(Text(info, style="dim"))
    if getattr(view, "known_goals", ()):
        parts.append(Text("you know: " + ", ".join(f"({x},{y}) {c}" for x, y, c in
                                                   view.known_goals), style="yellow"))
    if view.hand is not None:
        hand = Text("your hand: ")
        for i, code in enumerate(view.hand, 1):
            hand.append(f"{i}:", style="dim")
            hand.append(f"{code}  ", style="bold")
        parts.append(hand)
    return Group(*parts)
