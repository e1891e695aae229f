"""Draw a seat's view in the terminal with rich: the maze as 5x3 character cards.

Works from a view only (never a state), so what is drawn is what the seat may
know.  Views share the field names of :class:`pysaboteur.games.duel.view.DuelView`
(``board``, ``face_down``, ``hand``, ``in_front`` ...); fields a game lacks are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
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
    if pending is None and getattr(view, "phase", "") == "orient":
        pending = getattr(view, "pending", None)  # The Lost Mines: a mine being turned over
    if pending:
        down.add((pending[0], pending[1]))
    pawns: dict[tuple[int, int], list[int]] = {}
    for s, (x, y) in enumerate(getattr(view, "pawns", ())):
        pawns.setdefault((x, y), []).append(s)
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
    m = 0 if pawns else 1  # The Lost Mines' board is fixed (its corners hold cards)
    x0, x1, y0, y1 = min(xs) - m, max(xs) + m, min(ys) - m, max(ys) + m
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
                    if row == 2 and (x, y) in pawns:
                        _pawns_row(out, art, style, pawns[x, y], view)
                        continue
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


#: where a cell's bottom row shows pawns (the middle character is the path's)
_PAWN_SLOTS = (0, 1, 3, 4)


def _pawns_row(out: Text, art: str, style: str, seats: list[int], view: Any) -> None:
    """The bottom row of a card with pawns on it: each a seat number in its clan's colour
    (yours underlined); more than four: three and a ``+``."""
    shown: list[str | int] = list(seats) if len(seats) <= 4 else [*seats[:3], "+"]
    at = dict(zip(_PAWN_SLOTS, shown, strict=False))
    clans = getattr(view, "clans", ())
    for i, ch in enumerate(art):
        who = at.get(i)
        if who is None:
            out.append(ch, style=style)
        elif who == "+":
            out.append("+", style="bold")
        else:
            colour = _COLOURS.get(clans[who], "white") if clans else "white"
            mine = " underline" if who == view.seat else ""
            out.append(str(who), style=f"bold reverse {colour}{mine}")


def pawn_legend(view: Any) -> Text | None:
    """The Lost Mines: whose pawn is where, and the tokens on the board."""
    pawns = getattr(view, "pawns", None)
    if not pawns:
        return None
    clans = getattr(view, "clans", ())
    line = Text("pawns: ", style="dim")
    for s, (x, y) in enumerate(pawns):
        colour = _COLOURS.get(clans[s], "white") if clans else "white"
        line.append(str(s), style=f"bold reverse {colour}")
        who = " you" if s == view.seat else ""
        line.append(f"{who} ({clans[s] if clans else '?'}) at {x},{y}   ")
    tokens = []
    if getattr(view, "forest", ()):
        tokens.append("forest on " + " ".join(f"{x},{y}" for x, y in view.forest))
    if getattr(view, "traps", ()):
        tokens.append("traps " + " ".join(f"{x},{y}:{side}" for x, y, side in view.traps))
    if getattr(view, "trolls", ()):
        tokens.append("trolls " + " ".join(f"{x},{y}:{side} (seat {s})"
                                           for x, y, side, s in view.trolls))
    if getattr(view, "treasures", ()):
        tokens.append("treasures " + " ".join(
            f"#{slot} {kind}" + (f" (seat {holder})" if holder >= 0 else "")
            for slot, kind, holder in view.treasures))
    if tokens:
        line.append("\n" + "; ".join(tokens), style="dim")
    return line


def role_name(catalogue: Catalogue, code: str) -> str:
    """A dwarf card's name (``digger`` is a "gold-digger"), Lost Mines' "blue loyal"."""
    if code in catalogue and catalogue[code].name:
        return catalogue[code].name
    return code.replace("-", " ")


def who_am_i(view: Any, catalogue: Catalogue) -> str | None:
    """The seat's own secret (its dwarf card) and side, as the status line shows them."""
    if view.seat is None:
        return None
    me = f"you are seat {view.seat}"
    if getattr(view, "identity", None) is not None:  # The Lost Mines
        return f"{me}: {view.clans[view.seat]} clan, {view.identity} dwarf (secret)"
    if getattr(view, "role", None) is not None:
        return f"{me}: {role_name(catalogue, view.role)} (secret)"
    if hasattr(view, "colours"):
        return f"{me}: {view.colours[view.seat]}"
    return me


def _gold_cell(view: Any, seat: int) -> str:
    """What the seat may know of ``seat``'s gold (points)."""
    if getattr(view, "scores", None) is not None:
        return str(view.scores[seat])
    if getattr(view, "final_scores", None) is not None:
        return str(view.final_scores[seat])
    if seat == view.seat and getattr(view, "gold", None) is not None:
        return str(view.gold)
    if hasattr(view, "has_gold"):
        return "some" if view.has_gold[seat] else "none"
    return "?"


def status_table(view: Any) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    table.add_column("seat")
    cols = ["cards", "in front", "points" if hasattr(view, "clans") else "gold"]
    if hasattr(view, "markers_left"):
        cols.append("markers")
    if hasattr(view, "clans"):
        cols += ["clan", "treasures"]
    for c in cols:
        table.add_column(c)
    for seat in range(view.players):
        name = f"{seat}" + (f" {view.colours[seat]}" if hasattr(view, "colours") else "")
        if seat == view.seat:
            name += " (you)"
        if seat == view.current_player:
            name = "▶ " + name
        row = [name, str(view.hand_sizes[seat]), " ".join(view.in_front[seat]) or "-",
               _gold_cell(view, seat)]
        if hasattr(view, "markers_left"):
            row.append(str(view.markers_left[seat]))
        if hasattr(view, "clans"):
            row += [view.clans[seat], " ".join(view.collected[seat]) or "-"]
        table.add_row(*row)
    return table


def view_panel(view: Any, catalogue: Catalogue) -> Group:
    parts: list[Any] = [board_text(view, catalogue)]
    legend = pawn_legend(view)
    if legend is not None:
        parts.append(legend)
    parts.append(status_table(view))
    me = who_am_i(view, catalogue)
    if me is not None:
        parts.append(Text(me, style="bold magenta"))
    info = f"round {view.round}/{view.rounds}   pile {view.deck_size}"
    if hasattr(view, "keys_left"):
        info += f"   keys {view.keys_left}"
    if getattr(view, "set_aside", 0):
        info += f"   set aside {view.set_aside}"
    parts.append(Text(info, style="dim"))
    # what this seat has seen that the others have not: goals or mines (maps, information
    # cards), dwarf cards (Saboteur 2's inspections, The Lost Mines' information cards)
    known = [f"({x},{y}) {c}" for x, y, c in dict.fromkeys(  # The Lost Mines has both
        (*getattr(view, "known_goals", ()), *getattr(view, "known_mines", ())))]
    known += [f"seat {s} {role_name(catalogue, c)}" for s, c in
              (*getattr(view, "inspected", ()), *getattr(view, "known_dwarves", ()))]
    if known:
        parts.append(Text("you know: " + ", ".join(known), style="yellow"))
    if view.hand is not None:
        hand = Text("your hand: ")
        for i, code in enumerate(view.hand, 1):
            hand.append(f"{i}:", style="dim")
            hand.append(f"{code}  ", style="bold")
        parts.append(hand)
    return Group(*parts)


# ------------------------------------------------------------------ a round's end
#: why a round ended (``RoundEnd.reason``), as a sentence's end
REASONS = {
    "gold": "the gold was reached",
    "exhausted": "the draw pile and every hand ran out",
    "goals": "every goal card is face up",
    "markers": "every marker is on the table",
    "treasures": "every laid-out treasure was collected",
    "vote": "all players agreed to end it",
}


def _seat(view: Any, seat: int) -> str:
    colours = getattr(view, "colours", None)
    name = f"{seat} {colours[seat]}" if colours else str(seat)
    return f"{name} (you)" if seat == view.seat else name


def _seats(view: Any, seats: Sequence[int]) -> str:
    if not seats:
        return "nobody"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(_seat(view, s) for s in seats)


def round_end_panel(view: Any, catalogue: Catalogue) -> Group:
    """The last ended round (``view.last_round``) as it ended, with its result as far as
    ``view`` may know it: the board, why it ended, who won, the roles revealed, what each
    seat receives (in Saboteur and Saboteur 2 only one's own gold until the match ends)."""
    end = view.last_round
    result = next((r for r in view.results if r["round"] == end.round), {})
    extra = end.extra
    # The Lost Mines: the clans of the ended round (dwarf cards are dealt again each round)
    clans = tuple(d.split("-", 1)[0] for d in result.get("dwarves", ()))
    ended = SimpleNamespace(board=end.board, face_down=end.face_down, seat=view.seat,
                            markers=extra.get("markers", ()), bribes=extra.get("bribes", ()),
                            keys=extra.get("keys", ()), pawns=extra.get("pawns", ()),
                            clans=clans, forest=extra.get("forest", ()),
                            traps=extra.get("traps", ()), trolls=extra.get("trolls", ()))
    if hasattr(view, "colours"):
        ended.colours = view.colours
    parts: list[Any] = [Text(f"round {end.round} over: {REASONS.get(end.reason, end.reason)}",
                             style="bold"), board_text(ended, catalogue)]
    legend = pawn_legend(ended)
    if legend is not None:
        parts.append(legend)
    over = view.current_player < 0
    lines: list[str] = []
    if "finder" in result:  # Saboteur, Saboteur 2
        lines += _saboteur_lines(view, catalogue, result, extra, over)
    elif "dwarves" in result:  # The Lost Mines
        lines += _lost_mines_lines(view, result)
    elif "bribes" in result:  # the Duel, solo
        lines += _duel_lines(view, result)
    fronts = extra.get("in_front", ())
    if any(fronts):
        lines.append("in front: " + "; ".join(f"{_seat(view, s)} {' '.join(f)}"
                                              for s, f in enumerate(fronts) if f))
    parts += [Text(line) for line in lines]
    return Group(*parts)


def _saboteur_lines(view: Any, catalogue: Catalogue, result: dict[str, Any],
                    extra: dict[str, Any], over: bool) -> list[str]:
    lines = []
    finder = result.get("finder", -1)
    if finder is not None and finder >= 0:
        lines.append(f"the gold was reached by seat {_seat(view, finder)}")
    side = result.get("side", "nobody")
    winners = result.get("winners", [])
    wins = f"{side} win" if side != "nobody" else "nobody wins"
    line = f"{wins}: {_seats(view, winners)}" if winners else wins
    if view.seat is not None:
        line += " - you win" if view.seat in winners else " - you lose"
    lines.append(line)
    if "routes" in result:
        open_ = [c for c, ok in result["routes"].items() if ok]
        lines.append("door-free route to the gold for: " + (", ".join(open_) or "no team"))
    roles = result.get("roles", [])
    if roles:
        lines.append("roles: " + ", ".join(f"{_seat(view, s)} {role_name(catalogue, r)}"
                                            for s, r in enumerate(roles)))
    if result.get("spare_roles"):
        lines.append("the set-aside dwarf card: " + ", ".join(
            role_name(catalogue, r) for r in result["spare_roles"]))
    if extra.get("trapped"):
        lines.append(f"trapped (win nothing): {_seats(view, extra['trapped'])}")
    if "crystals" in result:
        lines.append(f"crystals in the maze: {result['crystals']}")
    for thief, victim in result.get("thefts", []):
        lines.append(f"seat {_seat(view, thief)} stole 1 gold from seat {_seat(view, victim)}")
    gold = result.get("gold", [])
    if over or all(g is not None for g in gold):
        lines.append("gold this round: " + ", ".join(f"{_seat(view, s)}: {g}"
                                                     for s, g in enumerate(gold)))
    elif view.seat is not None:
        lines.append(f"you receive {gold[view.seat]} gold this round; the others' gold stays "
                     "secret until the match ends")
    else:
        lines.append("the players' gold stays secret until the match ends")
    return lines


def _lost_mines_lines(view: Any, result: dict[str, Any]) -> list[str]:
    lines = ["dwarves: " + ", ".join(f"{_seat(view, s)} {d.replace('-', ' ')}"
                                     for s, d in enumerate(result["dwarves"]))]
    lines.append("treasures: " + ", ".join(
        f"{_seat(view, s)} {' '.join(t) or '-'}" for s, t in enumerate(result["treasures"])))
    if result.get("dragon") is not None:
        lines.append(f"the dragon: seat {_seat(view, result['dragon'])} (loses up to 2 points)")
    lines.append("points this round: " + ", ".join(
        f"{_seat(view, s)}: {p}" for s, p in enumerate(result["gold"])))
    lines.append("totals: " + ", ".join(f"{_seat(view, s)}: {p}"
                                        for s, p in enumerate(result["totals"])))
    lines.append(f"most points this round: {_seats(view, result.get('winners', []))}")
    return lines


def _duel_lines(view: Any, result: dict[str, Any]) -> list[str]:
    seats = range(len(result["gold"]))
    lines = ["gold this round: " + ", ".join(f"{_seat(view, s)}: {result['gold'][s]}"
                                             for s in seats)]
    if any(result["bribes"]):
        lines.append("trolls bribed / gold paid: " + ", ".join(
            f"{_seat(view, s)}: {result['bribes'][s]} / {result['paid'][s]}" for s in seats))
    lines.append("totals: " + ", ".join(f"{_seat(view, s)}: {result['totals'][s]}"
                                        for s in seats))
    return lines


def standings(view: Any) -> Text:
    """The final standings: everybody's gold (points), best first; ties share a place."""
    totals = getattr(view, "final_scores", None) or getattr(view, "scores", None) or ()
    out = Text("final standings:\n", style="bold")
    ranked = sorted(range(len(totals)), key=lambda s: -totals[s])
    for s in ranked:
        place = 1 + sum(1 for t in totals if t > totals[s])
        first = " - wins" if place == 1 and len(totals) > 1 else ""
        out.append(f"  {place}. seat {_seat(view, s)}: {totals[s]}{first}\n",
                   style="bold" if place == 1 else "")
    return out
