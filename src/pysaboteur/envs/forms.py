"""The observation and action forms the environments offer, and their spaces.

``Forms(encoding, observation="flat" | "planes", actions="flat" | "factored",
history=False)`` builds one seat's observation dict from its view and the legal
actions' flat indices, declares its ``gymnasium.spaces`` exactly, and turns an
action of the chosen form back into the flat index:

=============  ===============================================================
key            content
=============  ===============================================================
observation    ``observation="flat"``: the flat ``float32`` vector (grid planes
               then fields, ``encoding.layout``)
board          ``observation="planes"``: ``uint8`` (channels, height, width),
               :class:`~pysaboteur.envs.planes.Planes`
vector         ``observation="planes"``: the fields, ``float32``
history        ``history=True``: ``float32`` (players + 1, columns),
               :class:`~pysaboteur.envs.history.History`
action_mask    ``actions="flat"``: ``int8`` per flat index
mask_<factor>  ``actions="factored"``: ``int8`` per value of each factor
               (:mod:`pysaboteur.envs.factored`): the values some legal action
               takes; ``info["legal_factored"]`` lists the legal actions' rows
=============  ===============================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from .encoding import OBS_BOUND, Encoding
from .factored import FACTORS, FactoredActions
from .history import History
from .planes import BOARD_MAX, Planes

OBSERVATIONS = ("flat", "planes")
ACTIONS = ("flat", "factored")


class Forms:
    """One environment's choice of observation and action forms."""

    def __init__(self, encoding: Encoding, observation: str = "flat", actions: str = "flat",
                 history: bool = False) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if actions not in ACTIONS:
            raise ValueError(f"actions must be one of {ACTIONS}, not {actions!r}")
        self.encoding = encoding
        self.observation = observation
        self.actions = actions
        self.planes = Planes(encoding) if observation == "planes" else None
        need_factored = actions == "factored" or history
        self.factored = FactoredActions.of(encoding) if need_factored else None
        self.history = History(encoding, self.factored) if history else None
        parts: dict[str, spaces.Space[Any]] = {}
        if self.planes is None:
            parts["observation"] = spaces.Box(-OBS_BOUND, OBS_BOUND, (encoding.obs_size,),
                                              np.float32)
        else:
            parts["board"] = spaces.Box(0, BOARD_MAX, self.planes.board_shape, np.uint8)
            parts["vector"] = spaces.Box(-OBS_BOUND, OBS_BOUND, (self.planes.vector_size,),
                                         np.float32)
        if self.history is not None:
            parts["history"] = spaces.Box(0, OBS_BOUND, self.history.shape, np.float32)
        if actions == "flat":
            parts["action_mask"] = spaces.Box(0, 1, (encoding.num_actions,), np.int8)
            self.action_space: spaces.Space[Any] = spaces.Discrete(encoding.num_actions)
        else:
            assert self.factored is not None
            for name, size in zip(FACTORS, self.factored.nvec, strict=True):
                parts[f"mask_{name}"] = spaces.Box(0, 1, (size,), np.int8)
            self.action_space = spaces.MultiDiscrete(np.array(self.factored.nvec))
        self.observation_space = spaces.Dict(parts)

    def observe(self, view: Any, seat: int, ids: Sequence[int] | None,
                memo: dict[int, Any] | None = None) -> dict[str, np.ndarray]:
        """The observation of ``seat`` (``view``: its view), with the mask of the legal flat
        indices ``ids`` (None or empty: an all-zero mask, not this seat's turn)."""
        enc = self.encoding
        out: dict[str, np.ndarray] = {}
        if self.planes is None:
            out["observation"] = enc.observe(view, seat)
        else:
            out["board"], out["vector"] = self.planes.observe(view, seat)
        if self.history is not None:
            h = self.history.features(view, seat, memo)
            if len(view.log) > OBS_BOUND:  # a count is at most the moves: never, in practice
                np.clip(h, 0, OBS_BOUND, out=h)
            out["history"] = h
        ids = list(ids or ())
        if self.factored is None or self.actions == "flat":
            out["action_mask"] = enc.mask(ids)
        else:
            out.update(self.factored.masks(ids))
        return out

    def to_index(self, action: Any) -> int | None:
        """The flat index of an action of this form (None: not an action of the space)."""
        if self.actions == "flat":
            try:
                i = int(action)
            except (TypeError, ValueError):
                return None
            return i if 0 <= i < self.encoding.num_actions else None
        assert self.factored is not None
        try:
            values = np.asarray(action, dtype=np.int64).reshape(-1)
        except (TypeError, ValueError):
            return None
        return self.factored.index(values)

    def from_index(self, index: int) -> Any:
        """The action of this form for a flat index."""
        if self.actions == "flat":
            return int(index)
        assert self.factored is not None
        return self.factored.rows[index].copy()

    def legal_info(self, ids: Sequence[int]) -> dict[str, Any]:
        """What ``info`` carries about the legal actions (their flat indices; factored rows)."""
        info: dict[str, Any] = {"legal_actions": list(ids)}
        if self.actions == "factored":
            assert self.factored is not None
            info["legal_factored"] = self.factored.rows[np.asarray(list(ids), dtype=np.int64)]
        return info
