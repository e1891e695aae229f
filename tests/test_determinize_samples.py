"""Determinization samples stay the same from version to version (the bots' arena results
depend on them), and samples that share a dealt maze do not see each other's moves."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.bots.worlds import determinizer
from pysaboteur.cli.bench import _positions
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

# what a sample deals (fields absent from a game are skipped)
DEALT = ("hands", "passed", "deck", "aside", "discards", "roles", "spare_roles", "hats_aside",
         "inspected", "seen", "layout", "treasures_out", "dwarves", "dwarf_aside",
         "seen_mines", "goals_left", "out", "round_goals")


def dealt(state: Any) -> str:
    fields = [(name, getattr(state, name)) for name in DEALT if hasattr(state, name)]
    return repr((fields, sorted(state.maze.hidden.items()), state.rng.state))


# sha-256 of 8 positions x 3 samples, and the chooser's generator after them, as sampled
# before determinization was made faster (permutations looked up, mazes kept per deal...)
GOLDEN = {
    ("classic", 4): ("bc47b2e7f865ebe1", 7174130408255493718),
    ("expansion", 7): ("70089739d4053d13", 11321543952233988819),
    ("lost-mines", 5): ("d3eca4b3e92002b4", 3697463213931980295),
    ("duel", 2): ("81e66de3dfc9eb67", 15698111806650531856),
}


@pytest.mark.parametrize("pure", [True, False])
@pytest.mark.parametrize(("name", "players"), list(GOLDEN))
def test_samples_are_the_ones_of_earlier_versions(name: str, players: int, pure: bool) -> None:
    """On both paths (the compiled core samples in C where it is built)."""
    pick = Rng(1)
    digest = hashlib.sha256()
    with core.use_pure(pure):
        for s in _positions(make_game(name, players), 8, 3):
            worlds = determinizer(s.view(s.current_player))
            for _ in range(3):
                digest.update(dealt(worlds.sample(pick)).encode())
    assert (digest.hexdigest()[:16], pick.state) == GOLDEN[name, players]


@pytest.mark.parametrize(("name", "players"), [("classic", 4), ("lost-mines", 5)])
def test_samples_sharing_a_dealt_maze_play_apart(name: str, players: int) -> None:
    """The determinizer keeps one maze per deal of the face-down cards; a sample played to
    the end of its round leaves the other samples' and the template's maze as they were."""
    for s in _positions(make_game(name, players), 6, 5):
        worlds: Any = determinizer(s.view(s.current_player))
        pick, play = Rng(2), Rng(3)
        samples = [worlds.sample(pick) for _ in range(40)]
        shared = [x for x in samples if any(y.maze is x.maze for y in samples if y is not x)]
        before = [(dealt(x), sorted(x.maze.cells.items())) for x in samples]
        template = sorted(worlds.template.maze.hidden.items())
        for x in shared[:5]:
            start = x.round_no
            while not x.is_terminal and x.round_no == start:
                x.apply(x.random_action(play), check=False)
        for x, seen in zip(samples, before, strict=True):
            if x not in shared[:5]:
                assert (dealt(x), sorted(x.maze.cells.items())) == seen
        assert sorted(worlds.template.maze.hidden.items()) == template
