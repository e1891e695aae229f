"""The compact observation (``observation="planes"``): the board as ``uint8`` planes
(channels x height x width over the game's window) and a small ``float32`` vector.

It is the flat observation rearranged, so it holds the same facts, taken from the same
view (``Encoding.observe``), in about a seventh of the bytes:

* the flat form has two copies of every tile feature plane, one for face-up cards
  (``up:*``) and one for face-down cards the seat knows (``known:*``); a cell holds one
  or the other, never both, so here they are one channel each, and the ``face_up`` /
  ``known`` channels tell which;
* the board is ``uint8`` (every plane holds small whole numbers), the vector
  ``float32``.

``Planes(encoding).channels`` names the channels in order (``docs/envs.md`` lists them
one by one); the vector is the flat observation's fields in the flat order
(``encoding.layout.fields``, offsets shifted by ``layout.grid_size``).

>>> from pysaboteur.registry import make_game
>>> from pysaboteur.envs import make_encoding
>>> enc = make_encoding(make_game("duel"))
>>> p = Planes(enc)
>>> board, vector = p.observe(enc.game.new_state(1).view(0))
>>> board.shape, board.dtype.name, vector.shape
((31, 25, 30), 'uint8', (71,))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import Encoding, Layout

#: the largest value a board channel holds (``uint8``)
BOARD_MAX = 255


class Planes:
    """Channels and vector of the compact observation of one encoding."""

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        lay = encoding.layout
        tile = list(encoding._tile_planes)
        pi = lay.plane_index
        base = ["face_up", "face_down", "known", "pending"]
        extra = [p for p in lay.planes if p not in base and not p.startswith(("up:", "known:"))]
        self.channels: tuple[str, ...] = (*base, *tile, *extra)
        self._base = [pi[p] for p in base]
        self._up = [pi["up:" + p] for p in tile]
        self._known = [pi["known:" + p] for p in tile]
        self._extra = [pi[p] for p in extra]
        table = encoding._tile_table
        if table.min() < 0 or table.max() > BOARD_MAX or not np.array_equal(table,
                                                                             table.round()):
            raise ValueError("a tile feature is not a whole number in 0..255")
        _, h, w = lay.grid_shape
        self.board_shape = (len(self.channels), h, w)
        self.vector_fields = {name: slice(s.start - lay.grid_size, s.stop - lay.grid_size)
                              for name, s in lay.fields.items()}
        self.vector_size = lay.size - lay.grid_size
        # the same observation written straight into the channels: "up:x" and "known:x"
        # share channel x (their cells never meet)
        fields = [(name, s.stop - s.start) for name, s in lay.fields.items()]
        self.layout = Layout(lay.window, self.channels, fields)
        for i, p in enumerate(tile):
            self.layout.plane_index["up:" + p] = len(base) + i
            self.layout.plane_index["known:" + p] = len(base) + i
        self._slices: tuple[slice, slice, slice, slice] | None = None
        runs = [self._run(ix) for ix in (self._base, self._up, self._known, self._extra)]
        if all(r is not None for r in runs):
            self._slices = tuple(runs)  # type: ignore[assignment]

    @staticmethod
    def _run(index: list[int]) -> slice | None:
        """``index`` as a slice when it is a run of consecutive planes."""
        if not index:
            return slice(0, 0)
        if index == list(range(index[0], index[0] + len(index))):
            return slice(index[0], index[0] + len(index))
        return None

    def from_flat(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(board, vector) of a flat observation."""
        lay = self.encoding.layout
        grid = obs[:lay.grid_size].reshape(lay.grid_shape)
        nb, nt = len(self._base), len(self._up)
        board = np.empty(self.board_shape, dtype=np.uint8)
        if self._slices is not None:  # the flat planes lie in runs: copy them whole
            base, up, known, extra = self._slices
            np.copyto(board[:nb], grid[base], casting="unsafe")
            np.add(grid[up], grid[known], out=board[nb:nb + nt], casting="unsafe")
            np.copyto(board[nb + nt:], grid[extra], casting="unsafe")
        else:
            board[:nb] = grid[self._base]
            board[nb:nb + nt] = grid[self._up] + grid[self._known]
            board[nb + nt:] = grid[self._extra]
        return board, obs[lay.grid_size:].copy()

    def observe(self, view: Any, seat: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(board, vector) of ``view``, seen from ``seat`` (default: the view's seat)."""
        obs = self.encoding.observe(view, seat, self.layout)
        g = self.layout.grid_size
        return obs[:g].reshape(self.board_shape).astype(np.uint8), obs[g:]
