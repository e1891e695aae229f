"""Fixed-size integer actions and numeric observations, built from one seat's view.

An :class:`Encoding` is made once per game instance (it depends on the player
count) and gives:

* ``num_actions`` and an exact two-way map between the legal actions of any
  position and integers in ``range(num_actions)``: :meth:`Encoding.encode`,
  :meth:`Encoding.decode`, :meth:`Encoding.legal` (indices and mask);
* ``obs_size`` and :meth:`Encoding.observe`, a flat ``float32`` vector made
  ONLY from ``state.view(seat)``: grid planes over the game's window, then a
  vector of counts and flags; :attr:`Encoding.layout` names every slice.

The action space is a fixed list of *keys*: canonical actions in which every
seat is written relative to the acting seat (``(target - seat) % players``) and
a pawn's route (Lost Mines) as its steps (N, E, S, W) from the pawn.  A key's
index is its position in the list, so encoding is one dict look-up (keyed by
type and value: NamedTuples of different types compare equal as tuples).

Each game plugs in with a small module in :mod:`pysaboteur.envs.games` that
subclasses :class:`Encoding`: its window, which action families exist, and
the view fields beyond the common ones.  See ``docs/envs.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ..engine.actions import Action, Move, PlacePath, PlayOnCell, PlayOnPlayer, Steal
from ..engine.cards import Catalogue
from ..engine.game import Game
from ..engine.tiles import EDGES, E, N, S, W

#: the largest magnitude any observation entry may take (the Box bounds of the envs)
OBS_BOUND = 10_000.0


class Unencodable(KeyError):
    """A legal action outside the encoding (a placement beyond the window)."""


class Route(NamedTuple):
    """The key of a ``Move``: its steps as edge bits (N=1, E=2, S=4, W=8) from the pawn."""

    steps: tuple[int, ...]


_RELATIVE = frozenset((PlayOnPlayer, Steal, Move))  # actions whose key depends on the seat
_NONE: dict[Any, int] = {}
_STEP_XY = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
_XY_STEP = {v: k for k, v in _STEP_XY.items()}
_PAIRS = tuple((a, b) for i, a in enumerate(EDGES) for b in EDGES[i + 1:])
_EDGE_NAME = {N: "N", E: "E", S: "S", W: "W"}

Key = Any  # an action in canonical form (or a Route)


@dataclass(frozen=True)
class Window:
    """The cells ``x0 <= x < x0 + width``, ``y0 <= y < y0 + height`` (placements, planes)."""

    x0: int
    y0: int
    width: int
    height: int

    @property
    def x1(self) -> int:
        return self.x0 + self.width - 1

    @property
    def y1(self) -> int:
        return self.y0 + self.height - 1

    def cells(self) -> Iterator[tuple[int, int]]:
        for y in range(self.y0, self.y0 + self.height):
            for x in range(self.x0, self.x0 + self.width):
                yield x, y

    def __contains__(self, xy: object) -> bool:
        x, y = xy  # type: ignore[misc]
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


class Layout:
    """Named slices of the flat observation: grid planes first, then vector fields."""

    def __init__(self, window: Window, planes: Sequence[str],
                 fields: Sequence[tuple[str, int]]) -> None:
        self.window = window
        self.planes = tuple(planes)
        self.plane_index = {name: i for i, name in enumerate(self.planes)}
        if len(self.plane_index) != len(self.planes):
            raise ValueError("duplicate plane name")
        self.grid_size = len(self.planes) * window.height * window.width
        self.fields: dict[str, slice] = {}
        at = self.grid_size
        for name, size in fields:
            if name in self.fields:
                raise ValueError(f"duplicate field {name!r}")
            self.fields[name] = slice(at, at + size)
            at += size
        self.size = at

    @property
    def grid_shape(self) -> tuple[int, int, int]:
        """(planes, height, width): ``obs[:grid_size].reshape(grid_shape)``."""
        return len(self.planes), self.window.height, self.window.width

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, start, size) of every plane and field, for documentation."""
        hw = self.window.height * self.window.width
        out = [(f"plane:{p}", i * hw, hw) for i, p in enumerate(self.planes)]
        out += [(name, s.start, s.stop - s.start) for name, s in self.fields.items()]
        return out


class Encoding:
    """The fixed action space and observation of one game (subclassed per game).

    Subclasses set :attr:`window` and implement :meth:`action_keys`, and may add
    planes and vector fields through :meth:`extra_planes`, :meth:`extra_fields`,
    :meth:`fill_extra`.
    """

    #: the registry key(s) this encoding serves
    games: ClassVar[tuple[str, ...]] = ()
    #: placements and cell targets are encoded over this window of the grid
    window: ClassVar[Window]
    #: card categories that can be in a hand
    hand_categories: ClassVar[tuple[str, ...]] = ("path", "action")
    #: the phases of the game's views (one-hot)
    phases: ClassVar[tuple[str, ...]] = ("main",)
    #: the most rounds a match can have (round number one-hot)
    max_rounds: ClassVar[int] = 3

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.cat: Catalogue = game.catalogue
        cat = self.cat
        self.hand_codes = tuple(k.code for k in cat.kinds if k.category in self.hand_categories)
        self.front_codes = self.front_card_codes()
        self._front_index = {c: i for i, c in enumerate(self.front_codes)}
        self._hand_index = {c: i for i, c in enumerate(self.hand_codes)}
        keys = list(self.action_keys())
        self.keys: tuple[Key, ...] = tuple(keys)
        #: key -> its index, by the key's type: NamedTuples of different types compare equal
        #: as plain tuples (``Orient(False) == Steal(0)``)
        self.index: dict[type, dict[Key, int]] = {}
        for i, k in enumerate(keys):
            self.index.setdefault(type(k), {})[k] = i
        if sum(map(len, self.index.values())) != len(keys):
            raise ValueError("duplicate action key")
        self.num_actions = len(keys)
        #: whether encoding needs the acting seat's view (pawn routes start at the pawn)
        self.needs_view = any(type(k) is Route for k in keys)
        self._tile_planes, self._tile_table = self._tile_features()
        if np.abs(self._tile_table).max() > OBS_BOUND:  # observe clips the fields only
            raise ValueError("a tile feature runs past OBS_BOUND")
        planes = ["face_up", "face_down", "known", "pending"]
        planes += [f"up:{p}" for p in self._tile_planes]
        planes += [f"known:{p}" for p in self._tile_planes]
        planes += list(self.extra_planes())
        fields = [
            ("seat_is_current", 1),
            ("current_player", self.players + 1),  # relative seat; last = match over
            ("phase", len(self.phases)),
            ("round", self.max_rounds),
            ("hand", len(self.hand_codes)),
            ("in_front", self.players * len(self.front_codes)),
            ("hand_sizes", self.players),
            ("piles", 3),  # deck, discards, set aside
            ("pending_ways", 2),
            *self.extra_fields(),
        ]
        self.layout = Layout(self.window, planes, fields)
        self.obs_size = self.layout.size

    # ------------------------------------------------------------------ per game
    def action_keys(self) -> Iterable[Key]:
        raise NotImplementedError

    def front_card_codes(self) -> tuple[str, ...]:
        """Card kinds that can lie in front of a player (default: break cards)."""
        return tuple(k.code for k in self.cat.kinds if k.effect == "break")

    def extra_planes(self) -> Sequence[str]:
        return ()

    def extra_fields(self) -> Sequence[tuple[str, int]]:
        return ()

    def fill_extra(self, view: Any, seat: int, grid: np.ndarray,
                   put: Callable[[str, Any], None]) -> None:
        """Write the game's own planes and fields (``put(name, values)``)."""

    # ------------------------------------------------------------------ key families
    def placements(self, categories: Sequence[str] = ("path",)) -> Iterator[PlacePath]:
        """Every (path card kind, distinct orientation, window cell)."""
        for kind in self.cat.kinds:
            if kind.category in categories and kind.tile is not None:
                for rotated, _ in self.cat.orientations[kind.code]:
                    for x, y in self.window.cells():
                        yield PlacePath(kind.code, x, y, rotated)

    def on_cells(self, effects: Sequence[str]) -> Iterator[PlayOnCell]:
        for kind in self.cat.kinds:
            if kind.category == "action" and kind.effect in effects:
                for x, y in self.window.cells():
                    yield PlayOnCell(kind.code, x, y)

    def on_players(self, effects: Sequence[str], targets: Iterable[int] | None = None,
                   name_tool: bool = True) -> Iterator[PlayOnPlayer]:
        """Action cards aimed at a seat (relative), naming a tool when the card has two
        (unless ``name_tool`` is false)."""
        rel = list(range(self.players)) if targets is None else list(targets)
        for kind in self.cat.kinds:
            if kind.category == "action" and kind.effect in effects:
                tools: list[str | None] = (list(kind.tools) if name_tool and len(kind.tools) > 1
                                           else [None])
                for r in rel:
                    for tool in tools:
                        yield PlayOnPlayer(kind.code, r, tool)

    def multisets(self, n: int) -> Iterator[tuple[str, ...]]:
        """Distinct multisets of ``n`` hand card kinds, as sorted tuples (the engine's form)."""
        yield from combinations_with_replacement(sorted(self.hand_codes), n)

    def routes(self, most: int) -> Iterator[Route]:
        for n in range(1, most + 1):
            for steps in product(EDGES, repeat=n):
                yield Route(steps)

    # ------------------------------------------------------------------ actions <-> ints
    def key(self, action: Action, seat: int, view: Any = None) -> Key:
        """The canonical form of ``action`` played by ``seat`` (the action itself, but for the
        ``_RELATIVE`` kinds)."""
        t = type(action)
        if t not in _RELATIVE:
            return action
        if t is PlayOnPlayer:
            return action._replace(target=(action.target - seat) % self.players)  # type: ignore
        if t is Steal:
            return Steal((action.target - seat) % self.players)  # type: ignore[union-attr]
        x, y = view.pawns[seat]  # a Move: its route as steps from the pawn
        steps = []
        for nx, ny in action.route:  # type: ignore[union-attr]
            steps.append(_XY_STEP[nx - x, ny - y])
            x, y = nx, ny
        return Route(tuple(steps))

    def action(self, key: Key, seat: int, view: Any = None) -> Action:
        """The action of ``key`` played by ``seat`` (the inverse of :meth:`key`)."""
        t = type(key)
        if t is PlayOnPlayer:
            return key._replace(target=(key.target + seat) % self.players)  # type: ignore
        if t is Steal:
            return Steal((key.target + seat) % self.players)
        if t is Route:
            x, y = view.pawns[seat]
            route = []
            for step in key.steps:
                dx, dy = _STEP_XY[step]
                x, y = x + dx, y + dy
                route.append((x, y))
            return Move(tuple(route))
        return key  # type: ignore[no-any-return]

    def encode(self, action: Action, seat: int, view: Any = None) -> int:
        """The integer of ``action`` played by ``seat`` (``view``: the seat's, for pawn routes).

        Raises :class:`Unencodable` for an action outside the encoding.
        """
        try:
            key = self.key(action, seat, view)
            return self.index[type(key)][key]
        except KeyError:
            raise Unencodable(f"{action} is outside the {type(self).__name__}") from None

    def decode(self, index: int, seat: int, view: Any = None) -> Action:
        return self.action(self.keys[index], seat, view)

    def legal(self, legal: Sequence[Action], seat: int,
              view: Any = None) -> tuple[list[int], list[Action], int]:
        """Indices of the encodable legal actions, those actions, and how many were not."""
        by_type = self.index
        ids: list[int] = []
        acts: list[Action] = []
        missed = 0
        for a in legal:
            key = self.key(a, seat, view) if type(a) in _RELATIVE else a  # (``key``, inlined)
            i = by_type.get(type(key), _NONE).get(key)
            if i is None:
                missed += 1
            else:
                ids.append(i)
                acts.append(a)
        return ids, acts, missed

    def mask(self, ids: Iterable[int]) -> np.ndarray:
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[list(ids)] = 1
        return m

    # ------------------------------------------------------------------ observations
    def _tile_features(self) -> tuple[list[str], np.ndarray]:
        """Per oriented tile: edges, joined edge pairs, category, features (one row each)."""
        cat = self.cat
        cats = sorted({cat[c].category for c in cat.codes})
        doors = sorted({f.door for f in cat.features if f.door})
        ladders = sorted({f.ladder for f in cat.features if f.ladder})
        obstacles = sorted({f.obstacle for f in cat.features if f.obstacle})
        names = [f"edge_{_EDGE_NAME[e]}" for e in EDGES]
        names += [f"joined_{_EDGE_NAME[a]}{_EDGE_NAME[b]}" for a, b in _PAIRS]
        names += [f"cat_{c}" for c in cats]
        names += ["gold", "crystals", "troll", "rock", "campfire"]
        names += [f"door_{d}" for d in doors] + [f"ladder_{d}" for d in ladders]
        names += [f"obstacle_{o}" for o in obstacles]
        table = np.zeros((len(cat.tiles), len(names)), dtype=np.float32)
        col = {n: i for i, n in enumerate(names)}
        for t, tile in enumerate(cat.tiles):
            row = table[t]
            for e in EDGES:
                if tile.open_mask & e:
                    row[col[f"edge_{_EDGE_NAME[e]}"]] = 1
            for a, b in _PAIRS:
                if any(seg & a and seg & b for seg in tile.segments):
                    row[col[f"joined_{_EDGE_NAME[a]}{_EDGE_NAME[b]}"]] = 1
            row[col[f"cat_{cat[cat.codes[t]].category}"]] = 1
            f = tile.features
            row[col["gold"]] = f.gold
            row[col["crystals"]] = f.crystals
            row[col["troll"]] = float(f.troll)
            row[col["rock"]] = float(f.rock)
            row[col["campfire"]] = float(f.campfire)
            if f.door:
                row[col[f"door_{f.door}"]] = 1
            if f.ladder:
                row[col[f"ladder_{f.ladder}"]] = 1
            if f.obstacle:
                row[col[f"obstacle_{f.obstacle}"]] = 1
        return names, table

    def rel(self, seat: int, other: int) -> int:
        return (other - seat) % self.players

    def observe(self, view: Any, seat: int | None = None,
                layout: Layout | None = None) -> np.ndarray:
        """The flat observation of ``view``, seats relative to ``seat`` (default: the view's
        seat; a spectator's view is seen from seat 0 unless ``seat`` is given: so
        ``observe(state.view(None), seat)`` is what every seat may know, laid out as
        ``seat`` sees it).  ``layout``: another arrangement of the same planes and fields
        (the compact planes: :mod:`pysaboteur.envs.planes`)."""
        lay = self.layout if layout is None else layout
        win = self.window
        if seat is None:
            seat = view.seat if view.seat is not None else 0
        obs = np.zeros(lay.size, dtype=np.float32)
        grid = obs[:lay.grid_size].reshape(lay.grid_shape)
        pi = lay.plane_index
        self._pi = pi  # for put_cells, during this call
        cat = self.cat
        ntp = len(self._tile_planes)
        up0, known0 = pi["up:" + self._tile_planes[0]], pi["known:" + self._tile_planes[0]]
        for placed in view.board:
            x, y = placed.x - win.x0, placed.y - win.y0
            if 0 <= x < win.width and 0 <= y < win.height:
                grid[pi["face_up"], y, x] = 1
                grid[up0:up0 + ntp, y, x] = self._tile_table[cat.otile[placed.card,
                                                                       placed.rotated]]
        for fx, fy in view.face_down:
            x, y = fx - win.x0, fy - win.y0
            if 0 <= x < win.width and 0 <= y < win.height:
                grid[pi["face_down"], y, x] = 1
        known = list(view.known_goals)
        pending = self.pending_card(view)
        if pending is not None:
            px, py, code, ways = pending
            known.append((px, py, code))
            self._put_cell(grid, pi["pending"], px, py, 1)
            put_ways = ways
        else:
            put_ways = ()
        for kx, ky, code in known:
            x, y = kx - win.x0, ky - win.y0
            if 0 <= x < win.width and 0 <= y < win.height:
                grid[pi["known"], y, x] = 1
                grid[known0:known0 + ntp, y, x] = self._tile_table[cat.otile[code, False]]

        fields = lay.fields

        def put(name: str, values: Any) -> None:
            obs[fields[name]] = values

        def one_hot(name: str, i: int) -> None:
            s = fields[name]
            if 0 <= i < s.stop - s.start:
                obs[s.start + i] = 1

        n = self.players
        current = view.current_player
        one_hot("seat_is_current", 0 if current == seat else -1)
        one_hot("current_player", n if current < 0 else self.rel(seat, current))
        if view.phase in self.phases:
            one_hot("phase", self.phases.index(view.phase))
        one_hot("round", view.round - 1)
        hand = np.zeros(len(self.hand_codes), dtype=np.float32)
        for code in view.hand or ():
            hand[self._hand_index[code]] += 1
        put("hand", hand)
        front = np.zeros((n, len(self.front_codes)), dtype=np.float32)
        for s, cards in enumerate(view.in_front):
            for code in cards:
                j = self._front_index.get(code)
                if j is not None:
                    front[self.rel(seat, s), j] += 1
        put("in_front", front.ravel())
        put("hand_sizes", self.by_rel(seat, view.hand_sizes))
        put("piles", (view.deck_size, view.discard_size, view.set_aside))
        if put_ways:
            put("pending_ways", [float(False in put_ways), float(True in put_ways)])
        self.fill_extra(view, seat, grid, put)
        # the grid holds 0/1 and the tile table's small features: only the fields may
        # run past the bound (gold, counts)
        fields_part = obs[lay.grid_size:]
        np.clip(fields_part, -OBS_BOUND, OBS_BOUND, out=fields_part)
        return obs

    def pending_card(self, view: Any) -> tuple[int, int, str, tuple[bool, ...]] | None:
        """A card being turned over (x, y, code, orientations offered), if any."""
        return view.pending_goal  # type: ignore[no-any-return]

    def by_rel(self, seat: int, values: Sequence[Any]) -> list[Any]:
        """Per-seat ``values`` reordered so that index 0 is ``seat``, 1 the next seat..."""
        n = self.players
        return [values[(seat + r) % n] for r in range(n)]

    def _put_cell(self, grid: np.ndarray, plane: int, x: int, y: int, value: float) -> None:
        win = self.window
        x, y = x - win.x0, y - win.y0
        if 0 <= x < win.width and 0 <= y < win.height:
            grid[plane, y, x] = value

    def put_cells(self, grid: np.ndarray, plane: str, cells: Iterable[Sequence[int]],
                  value: float = 1.0) -> None:
        p = getattr(self, "_pi", self.layout.plane_index)[plane]
        for c in cells:
            self._put_cell(grid, p, c[0], c[1], value)
