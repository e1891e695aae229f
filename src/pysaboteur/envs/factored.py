"""Factored actions: every key of an encoding as a few small integers.

The flat action index of :class:`~pysaboteur.envs.encoding.Encoding` (up to about
100,000 integers) is one head of tens of thousands of logits.  The factored form
writes the same key as nine integers, one per :data:`FACTORS`, so a policy can
have one small head per factor, and a spatial (convolutional) head for the cell:

* ``family`` - the kind of move (:attr:`FactoredActions.families`: ``PlacePath``,
  ``PlayOnCell``, ``PlayOnPlayer``, ``Pass``... in the game's key order);
* ``card`` - the card kind played, 1 + its index in the catalogue (``cat.kinds``),
  0 for none; for a pass or a discard the first card of its (sorted) multiset;
* ``card2``, ``card3`` - the second and third card of a pass or discard (same
  numbering, 0 for none);
* ``cell`` - ``(y - window.y0) * window.width + (x - window.x0)``, the cell of a
  placement, a cell-aimed card, a bribe or a joint's west / north cell; 0 for none
  (``obs["mask_cell"].reshape(height, width)`` is the board's shape);
* ``rotated`` - 1 for a path card turned 180 degrees or ``orient r``;
* ``target`` - the aimed-at seat, relative to the acting seat (0 = itself);
* ``tool`` - 1 + the index in :attr:`FactoredActions.tools` of the tool a two-tool
  repair names, 0 for none;
* ``extra`` - what is left, numbered per family in key order
  (:meth:`FactoredActions.extra_values`): the card a discard removes from in front of
  the seat, the side of a joint, a treasure slot, a pawn's route, a vote.

A factor that does not apply to a family is 0.  Every key has a distinct row
(checked when built), so :meth:`FactoredActions.index` and :attr:`FactoredActions.rows`
map both ways exactly and both forms reach every engine action the flat one does.

>>> from pysaboteur.registry import make_game
>>> from pysaboteur.envs import make_encoding
>>> fa = FactoredActions(make_encoding(make_game("duel")))
>>> fa.families[:3], fa.nvec[4], fa.index(fa.rows[123]) == 123
(('PlacePath', 'PlayOnCell', 'PlayOnPlayer'), 750, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .encoding import Encoding

#: the factors, in the order of a factored action's integers
FACTORS = ("family", "card", "card2", "card3", "cell", "rotated", "target", "tool", "extra")
#: key fields that have a factor of their own (the rest make ``extra``)
_OWN = frozenset(("card", "cards", "x", "y", "rotated", "target", "tool"))


_MADE: dict[tuple[Any, ...], FactoredActions] = {}


class FactoredActions:
    """The factored form of an encoding's keys: ``rows[i]`` is flat index ``i``'s factors."""

    @classmethod
    def of(cls, encoding: Encoding) -> FactoredActions:
        """The factored actions of ``encoding``, made once per distinct encoding (building
        them for Saboteur 2's 101,000 keys takes a second; environments are made often)."""
        key = (type(encoding), encoding.window, encoding.players,
               tuple(k.code for k in encoding.cat.kinds), encoding.keys)
        made = _MADE.get(key)
        if made is None:
            if len(_MADE) > 64:
                _MADE.clear()
            made = _MADE[key] = cls(encoding)
        return made

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        win = encoding.window
        self.width, self.height = win.width, win.height
        codes = [k.code for k in encoding.cat.kinds]
        self.card_codes = tuple(codes)
        card_index = {c: i + 1 for i, c in enumerate(codes)}
        tools = sorted({k.tool for k in encoding.keys if getattr(k, "tool", None)})
        self.tools = tuple(tools)
        tool_index = {t: i + 1 for i, t in enumerate(tools)}
        families: dict[str, int] = {}
        extras: dict[int, dict[Any, int]] = {}
        rows = np.zeros((encoding.num_actions, len(FACTORS)), dtype=np.int64)
        for i, key in enumerate(encoding.keys):
            t = type(key)
            fam = families.setdefault(t.__name__, len(families))
            fields = key._fields
            cards = tuple(getattr(key, "cards", ())) or (getattr(key, "card", None),)
            if len(cards) > 3:
                raise ValueError(f"{key}: more than three cards")
            c1, c2, c3 = (card_index[c] if c is not None else 0
                          for c in (*cards, None, None)[:3])
            cell = 0
            if "x" in fields:
                cell = (key.y - win.y0) * win.width + (key.x - win.x0)
            rest = tuple((f, getattr(key, f)) for f in fields if f not in _OWN)
            numbered = extras.setdefault(fam, {})
            extra = numbered.setdefault(rest, len(numbered))
            rows[i] = (fam, c1, c2, c3, cell,
                       int(bool(getattr(key, "rotated", False))), getattr(key, "target", 0),
                       tool_index[key.tool] if getattr(key, "tool", None) else 0, extra)
        self.families = tuple(families)
        self._extras = {fam: tuple(dict(r) for r in numbered) for fam, numbered in extras.items()}
        self.rows = rows
        nvec = rows.max(axis=0) + 1
        for name in ("card", "card2", "card3"):
            nvec[FACTORS.index(name)] = len(codes) + 1
        nvec[FACTORS.index("cell")] = win.width * win.height
        nvec[FACTORS.index("target")] = encoding.players
        nvec[FACTORS.index("rotated")] = 2
        self.nvec = tuple(int(v) for v in nvec)
        codes_: np.ndarray = np.asarray(np.ravel_multi_index(tuple(rows.T), self.nvec))
        if len(np.unique(codes_)) != len(codes_):
            raise ValueError("two keys share a factored action")
        self._flat = {int(c): i for i, c in enumerate(codes_.tolist())}
        #: (factor name, start, size) of each factor's mask in a concatenated mask
        at = 0
        self.slices: dict[str, slice] = {}
        for name, size in zip(FACTORS, self.nvec, strict=True):
            self.slices[name] = slice(at, at + size)
            at += size
        self.mask_size = at
        self._offsets = np.array([self.slices[f].start for f in FACTORS], dtype=np.int64)

    def extra_values(self, family: str) -> tuple[dict[str, Any], ...]:
        """What each ``extra`` value of ``family`` stands for (field -> value)."""
        return self._extras[self.families.index(family)]

    def index(self, factors: Sequence[int] | np.ndarray) -> int | None:
        """The flat index of a factored action, or None when no key has these factors."""
        values = [int(v) for v in factors]
        if len(values) != len(FACTORS) or not all(
                0 <= v < n for v, n in zip(values, self.nvec, strict=True)):
            return None
        code = 0
        for v, n in zip(values, self.nvec, strict=True):
            code = code * n + v
        return self._flat.get(code)

    def masks(self, ids: Sequence[int]) -> dict[str, np.ndarray]:
        """Per factor, the values some legal action (flat ``ids``) takes: ``mask_<factor>``
        (views into one array, :attr:`slices`)."""
        flat = np.zeros(self.mask_size, dtype=np.int8)
        if len(ids):
            flat[(self.rows[np.asarray(ids, dtype=np.int64)] + self._offsets).ravel()] = 1
        return {f"mask_{name}": flat[self.slices[name]] for name in FACTORS}

    def conditional_mask(self, ids: Sequence[int], prefix: Sequence[int]) -> np.ndarray:
        """The mask of factor ``len(prefix)`` over the legal actions whose first factors are
        ``prefix`` (choose the factors in order, each masked by this, and the result is
        always legal)."""
        j = len(prefix)
        legal = self.rows[np.asarray(ids, dtype=np.int64)] if len(ids) else self.rows[:0]
        if j:
            legal = legal[np.all(legal[:, :j] == np.asarray(prefix), axis=1)]
        m = np.zeros(self.nvec[j], dtype=np.int8)
        m[legal[:, j]] = 1
        return m
