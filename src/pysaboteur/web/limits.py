"""What one server accepts: every limit in one place, each with a safe default.

``saboteur serve`` (and ``python -m pysaboteur.web``) offers each field as an option
(``--max-open-tables 500``, ...; ``saboteur serve --help`` lists them); ``create_app``
takes a :class:`Limits`.  A limit of 0 means "no limit" only where its field says so.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Limits:
    """The server's limits (fields are added by the parts that enforce them)."""

    #: bytes of one WebSocket message from a client
    max_message: int = 4096
    #: bytes of one HTTP request body
    max_body: int = 16384
    #: seconds a new WebSocket has to say hello
    hello_timeout: float = 10.0

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
