"""Bot specifications: a bot's name with its budget, as the command line and the arena
write them.

``NAME[@BUDGET][+pure]``:

* ``NAME`` is a bot (``random``, ``heuristic``, ``ismcts``) or a difficulty (``easy``,
  ``normal``, ``hard``);
* ``@BUDGET``, for the search bot only, is its budget a move: a time (``@100ms``,
  ``@0.5s``: play then depends on the machine's speed) or a count of iterations
  (``@2000``: the same seed always gives the same move);
* ``+pure`` makes the bot think on the pure-Python engine even where the compiled core is
  built (it switches the process's engine while it chooses), so that the same bot on both
  paths can meet in one arena at the same time budget.

>>> BotSpec.parse("ismcts@100ms")
BotSpec(name='ismcts', iterations=None, seconds=0.1, pure=False)
>>> BotSpec.parse("hard@2000+pure")
BotSpec(name='ismcts', iterations=2000, seconds=None, pure=True)
>>> str(BotSpec.parse("ismcts@0.5s"))
'ismcts@500ms'
>>> BotSpec.parse("heuristic@1s")
Traceback (most recent call last):
...
ValueError: bot 'heuristic' takes no budget (only ismcts does)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: the bots that take a budget a move
BUDGETED = ("ismcts",)
#: the bounds of a budget a move (a spec is user input: no unbounded search)
MAX_SECONDS = 600.0
MAX_ITERATIONS = 10_000_000

_SPEC = re.compile(r"^(?P<name>[a-z-]+)(?:@(?P<budget>[0-9.]+)(?P<unit>ms|s)?)?"
                   r"(?P<pure>\+pure)?$")


@dataclass(frozen=True)
class BotSpec:
    """One bot as written: its name, its budget a move, and the engine it thinks on."""

    name: str
    iterations: int | None = None
    seconds: float | None = None
    pure: bool = False

    @classmethod
    def parse(cls, text: str, names: tuple[str, ...] = (), aliases: dict[str, str] | None = None
              ) -> BotSpec:
        """The spec written ``text``; ``names`` and ``aliases`` (difficulties) are the bots
        known (by default those of :mod:`pysaboteur.bots`)."""
        if not names:
            from . import BOTS, DIFFICULTY

            names, aliases = tuple(BOTS), DIFFICULTY
        aliases = aliases or {}
        found = _SPEC.match(text.strip())
        if found is None:
            raise ValueError(f"bad bot {text!r}: write NAME, NAME@100ms, NAME@0.5s, NAME@2000 "
                             "(iterations), each optionally +pure")
        name = aliases.get(found["name"], found["name"])
        if name not in names:
            raise ValueError(f"unknown bot {found['name']!r}; choose from "
                             f"{', '.join([*names, *aliases])}")
        iterations: int | None = None
        seconds: float | None = None
        if found["budget"] is not None:
            if name not in BUDGETED:
                raise ValueError(f"bot {name!r} takes no budget (only "
                                 f"{', '.join(BUDGETED)} does)")
            iterations, seconds = _budget(found["budget"], found["unit"])
        return cls(name, iterations, seconds, found["pure"] is not None)

    def __str__(self) -> str:
        budget = ""
        if self.seconds is not None:
            budget = f"@{self.seconds * 1000:g}ms"
        elif self.iterations is not None:
            budget = f"@{self.iterations}"
        return f"{self.name}{budget}{'+pure' if self.pure else ''}"


def _budget(number: str, unit: str | None) -> tuple[int | None, float | None]:
    """(iterations, seconds) of a budget as written, bounded."""
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"bad budget {number!r}") from None
    if unit is None:
        if not number.isdigit() or not 1 <= int(number) <= MAX_ITERATIONS:
            raise ValueError(f"iterations a move: a whole number 1..{MAX_ITERATIONS:,}")
        return int(number), None
    seconds = value / 1000 if unit == "ms" else value
    if not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"time a move: more than 0 and at most {MAX_SECONDS:g} s")
    return None, seconds
