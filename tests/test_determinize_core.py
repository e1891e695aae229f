"""Determinization on the compiled core (issue 24, ``core/determinize.c``): a determinizer's
whole sample in C, the same sampled world, bit for bit, as the pure path's from the same
generator, for every game (the Duel's and its solo mode's samples are Python on both paths:
checked all the same)."""

from __future__ import annotations

from typing import Any

import pytest

from pysaboteur import core
from pysaboteur.bots.worlds import determinizer
from pysaboteur.cli.bench import _positions
from pysaboteur.core.differential import difference
from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

compiled = pytest.mark.skipif(not core.active(), reason="the compiled core is switched off")

GAMES = [("classic", 3), ("classic", 4), ("classic", 10), ("expansion", 2), ("expansion", 7),
         ("expansion", 12), ("lost-mines", 3), ("lost-mines", 5), ("lost-mines", 9),
         ("duel", 2), ("solo", 1)]


def _unweighted(view: Any) -> Any:
    """The view's determinizer without beliefs (uniform dwarf cards and identities)."""
    if view.game == "classic":
        from pysaboteur.games.classic.determinize import Determinizer as Classic

        return Classic(view)
    if view.game == "expansion":
        from pysaboteur.games.expansion.determinize import Determinizer as Expansion

        return Expansion(view)
    if view.game == "lost-mines":
        from pysaboteur.games.lost_mines.determinize import Determinizer as LostMines

        return LostMines(view)
    return determinizer(view)


def _same(a: Any, b: Any) -> str | None:
    """What differs between two samples (None: nothing): every field, the maze's too, the
    fields in the same order, the memo's kept value, the same kind of state."""
    if type(a) is not type(b):
        return "the state's class"
    if list(a.__dict__) != list(b.__dict__):
        return f"the fields: {list(a.__dict__)} != {list(b.__dict__)}"
    memo_a, memo_b = a.__dict__.get("_mt"), b.__dict__.get("_mt")
    if memo_a is not None and ((memo_a.value is None) != (memo_b.value is None)
                               or memo_a.shared != memo_b.shared):
        return "the memo"
    return difference(a, b)


@pytest.fixture(params=["pdep", "broadword"])
def selection(request: pytest.FixtureRequest) -> Any:
    """Both ways the core finds a Lehmer code's items (pdep where the processor has it fast,
    else a broadword select): each must give the same samples."""
    ext = core.extension()
    if ext is None:
        yield None
        return
    before = ext.det_select(request.param == "pdep")
    yield request.param
    ext.det_select(before)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_samples_are_the_same_on_both_paths(name: str, players: int, selection: Any) -> None:
    """Two determinizers of one view, one sampling pure and one on the core: from the same
    generator the same samples, field by field, and the generator left in the same state;
    with and without beliefs; looks, inspections and every phase among the positions."""
    looks = sampled = 0
    for position in _positions(make_game(name, players), 24, players):
        view = position.view(position.current_player)
        for make in (determinizer, _unweighted):
            with core.use_pure():
                pure = make(view)
            fast = make(view)
            looks += bool(getattr(fast, "looked", None) or getattr(fast, "looks", None)
                          or getattr(fast, "looked_mines", None))
            a, b = Rng(sampled), Rng(sampled)
            for _ in range(4):
                with core.use_pure():
                    want = pure.sample(a)
                got = fast.sample(b)
                assert a.state == b.state, (name, players)
                assert _same(want, got) is None, (name, players, _same(want, got))
                sampled += 1
    assert sampled >= 24 * 2 * 4
    if name not in ("duel", "solo"):
        assert looks, "no position with other seats' looks"


def _phases(name: str, players: int, per_phase: int) -> dict[str, list[Any]]:
    """Positions of random matches, up to ``per_phase`` in each phase their views name."""
    game, pick = make_game(name, players), Rng(17)
    out: dict[str, list[Any]] = {}
    for seed in range(12):
        state = game.new_state(seed)
        while not state.is_terminal:
            phase = state.view(state.current_player).phase
            if len(out.setdefault(phase, [])) < per_phase and pick.below(4) == 0:
                out[phase].append(state.clone())
            state.apply(state.random_action(pick), check=False)
    return out


@pytest.mark.parametrize(("name", "players", "phases"), [
    ("classic", 5, {"main"}), ("expansion", 7, {"main", "steal"}),
    ("lost-mines", 5, {"card", "vote", "move"})])
def test_samples_in_every_phase_are_the_same_on_both_paths(name: str, players: int,
                                                          phases: set[str]) -> None:
    """Positions in each phase random play meets (a round's thefts, The Lost Mines' votes and
    moves): the same samples on both paths."""
    found = _phases(name, players, 6)
    assert phases <= found.keys()
    for positions in found.values():
        for position in positions:
            view = position.view(position.current_player)
            with core.use_pure():
                pure = determinizer(view)
            fast = determinizer(view)
            a, b = Rng(3), Rng(3)
            for _ in range(3):
                with core.use_pure():
                    want = pure.sample(a)
                assert _same(want, fast.sample(b)) is None and a.state == b.state


@pytest.mark.parametrize(("name", "players"), [g for g in GAMES if g[0] not in ("duel", "solo")])
def test_the_core_samples_these_games(name: str, players: int) -> None:
    """On the core, these determinizers sample in C (a plan made at the first sample);
    pure, they make none."""
    position = _positions(make_game(name, players), 1, 7)[0]
    world: Any = determinizer(position.view(position.current_player))
    with core.use_pure():
        world.sample(Rng(1))
    assert world._plan is None
    world.sample(Rng(1))
    assert (world._plan not in (None, False)) == core.active()


@compiled
def test_a_determinizer_that_samples_its_own_way_stays_python() -> None:
    """A subclass with its own dealing of the dwarf cards gets no plan: its own method
    runs, on either path."""
    from pysaboteur.games.classic.determinize import Determinizer as Classic

    calls: list[int] = []

    class Mine(Classic):
        def _deal_roles(self, numbers: list[int]) -> tuple[dict[int, str], list[str]]:
            calls.append(1)
            return super()._deal_roles(numbers)

    position = _positions(make_game("classic", 5), 1, 3)[0]
    view = position.view(position.current_player)
    world, plain = Mine(view), Classic(view)
    a, b = Rng(4), Rng(4)
    assert _same(world.sample(a), plain.sample(b)) is None and a.state == b.state
    assert world._plan is False and calls == [1]


@compiled
@pytest.mark.parametrize(("name", "players"), [("classic", 4), ("expansion", 7),
                                               ("lost-mines", 5)])
def test_samples_on_the_core_play_apart_from_the_template(name: str, players: int) -> None:
    """A sample made in C is a state of its own: playing it to its round's end leaves the
    template (its hands, piles, looks, roles, maze) and the other samples as they were."""
    for position in _positions(make_game(name, players), 4, 11):
        world: Any = determinizer(position.view(position.current_player))
        template = world.template
        before = template.clone()
        board = (sorted(template.maze.cells.items()), sorted(template.maze.hidden.items()))
        samples = [world.sample(Rng(k)) for k in range(6)]
        kept = [s.clone() for s in samples]
        play = Rng(9)
        for s in samples[:3]:
            start = s.round_no
            while not s.is_terminal and s.round_no == start:
                s.apply(s.random_action(play), check=False)
        assert difference(before, template) is None
        assert board == (sorted(template.maze.cells.items()),
                         sorted(template.maze.hidden.items()))
        for s, k in zip(samples[3:], kept[3:], strict=True):
            assert difference(k, s) is None
