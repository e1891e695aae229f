"""Research interfaces: encodings, PettingZoo, Gymnasium and OpenSpiel (``docs/envs.md``).

Install the extras first: ``pip install -e ".[envs]"`` (numpy, gymnasium,
pettingzoo) and ``pip install -e ".[openspiel]"``.  The submodules import
their heavy dependencies; this package itself only names them.

>>> from pysaboteur.envs import supported_games
>>> "duel" in supported_games()
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.game import Game
    from .encoding import Encoding

#: registry key -> the module (under ``pysaboteur.envs.games``) that encodes it
ENCODINGS: dict[str, str] = {
    "duel": "duel",
    "solo": "duel",
    "classic": "classic",
    "expansion": "expansion",
    "lost-mines": "lost_mines",
}


def supported_games() -> list[str]:
    """Registry keys that have an encoding module and whose game can be made here."""
    from ..registry import GAMES, make_game

    out = []
    for name in GAMES:
        if name not in ENCODINGS:
            continue
        try:
            make_game(name)
            import_module(f"{__name__}.games.{ENCODINGS[name]}")
        except (ImportError, NotImplementedError):
            continue
        out.append(name)
    return out


def make_encoding(game: Game) -> Encoding:
    """The encoding of a game instance: ``make_encoding(make_game("duel"))``."""
    from ..registry import game_key

    key = game_key(game)
    if key not in ENCODINGS:
        raise ValueError(f"no encoding for game {key!r}")
    module = import_module(f"{__name__}.games.{ENCODINGS[key]}")
    return module.encoding(game)  # type: ignore[no-any-return]


__all__ = ["ENCODINGS", "make_encoding", "supported_games"]
