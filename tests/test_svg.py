"""SVG drawing from the tile data: tiles, cards, whole boards from a view."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pysaboteur import svg
from pysaboteur.engine.rng import Rng
from pysaboteur.engine.tiles import Features, Tile
from pysaboteur.registry import GAMES, make_game


def _parse(doc: str) -> ET.Element:
    return ET.fromstring(doc)


def _games() -> list[str]:
    out = []
    for name in GAMES:
        try:
            make_game(name)
        except Exception:  # a game another developer is still writing
            continue
        out.append(name)
    return out


@pytest.mark.parametrize("game", _games())
def test_every_card_of_every_game_is_well_formed_svg(game: str) -> None:
    cat = make_game(game).catalogue
    frags = svg.catalogue_fragments(cat)
    assert set(frags) == {k.code for k in cat.kinds}
    for code, entry in frags.items():
        _parse(svg.wrap(entry["svg"]))
        assert "id=" not in entry["svg"]  # fragments are composed many times in one page
        if entry["svg_r"] is not None:
            _parse(svg.wrap(entry["svg_r"]))
            assert entry["svg_r"] != entry["svg"], code


def test_features_are_drawn_in_colour() -> None:
    door = svg.tile_svg(Tile.parse("EW", Features(door="blue")))
    assert svg.COLOURS["blue"] in door
    assert svg.COLOURS["green"] in svg.tile_svg(Tile.parse("NS", Features(ladder="green")))
    assert svg.GOLD in svg.tile_svg(Tile.parse("NESW", Features(gold=2)))
    assert "#7fe3f0" in svg.tile_svg(Tile.parse("N", Features(crystals=1)))  # crystal
    assert "#3f8fd8" in svg.tile_svg(Tile.parse("EW", Features(obstacle="lake")))
    assert "#7b5ea7" in svg.tile_svg(Tile.parse("EW", Features(troll=True)))


def test_dead_ends_and_bridges_differ_from_crossings() -> None:
    cross = svg.tile_svg(Tile.parse("NESW"))
    dead = svg.tile_svg(Tile.parse("N,E,S,W"))
    bridge = svg.tile_svg(Tile.parse("NS,EW"))
    assert len({cross, dead, bridge}) == 3
    assert dead.count("<circle") == 4  # four rock caps
    assert Tile.parse("NES").rotated().notation == "NSW"
    assert svg.tile_svg(Tile.parse("NES")) != svg.tile_svg(Tile.parse("NSW"))


def test_board_from_a_view_hides_what_the_seat_does_not_know() -> None:
    game = make_game("duel")
    state = game.new_state(seed=5)
    pick = Rng(3)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    view = state.view(0)
    drawing = svg.board_svg(view, game.catalogue, highlight=[(1, 0)])
    root = _parse(drawing)
    assert root.tag.endswith("svg")
    assert svg.board_svg(view.to_json(), game.catalogue) == svg.board_svg(view, game.catalogue)
    spectator = svg.board_svg(state.view(None), game.catalogue)
    hidden = {state.maze.hidden[c] for c in state.maze.hidden}  # the face-down goals
    for code in hidden:
        assert svg.card_fragment(game.catalogue, code) not in spectator
