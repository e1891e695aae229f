"""The arena on a local Ray instance gives the same results as local workers."""

from __future__ import annotations

import pytest

from pysaboteur import arena

ray = pytest.importorskip("ray")


def test_arena_on_a_local_ray_instance() -> None:
    specs = arena.specs("duel", 2, ["heuristic", "random"], 4, seed=5)
    try:
        on_ray = arena.run_ray(specs, "local")
    finally:
        ray.shutdown()
    local = arena.run_local(specs, workers=1)
    assert [(r.index, r.scores, r.bots) for r in on_ray] == [(r.index, r.scores, r.bots)
                                                             for r in local]
