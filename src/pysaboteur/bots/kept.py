"""What a bot keeps between decisions: a dict per thread (the web tables run bots in a
pool), emptied at once when it grows past its bound."""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any


class Kept(threading.local):
    """``kept.get(key)``, ``kept.put(key, value)``: this thread's entries, at most ``most``.

    >>> kept = Kept(2)
    >>> kept.put("a", 1), kept.put("b", 2), kept.put("c", 3), kept.get("a"), len(kept.entries)
    (1, 2, 3, None, 1)
    """

    def __init__(self, most: int) -> None:
        self.most = most
        self.entries: dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        return self.entries.get(key)

    def put(self, key: Hashable, value: Any) -> Any:
        if len(self.entries) >= self.most:
            self.entries.clear()
        self.entries[key] = value
        return value
