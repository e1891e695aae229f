"""The games by name: what ``--game`` accepts and what records store."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .engine.game import Game


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    players: tuple[int, int]  # min, max
    default_players: int
    factory: Callable[..., Game]

    def make(self, players: int | None = None, **options: Any) -> Game:
        n = self.default_players if players is None else players
        lo, hi = self.players
        if not lo <= n <= hi:
            raise ValueError(f"{self.title} is for {lo}-{hi} players, not {n}")
        return self.factory(n, **options)


def _duel(players: int, **options: Any) -> Game:
    from .games.duel import DuelGame

    return DuelGame(players, **options)


def _classic(players: int, **options: Any) -> Game:
    from .games.classic import ClassicGame

    return ClassicGame(players, **options)


def _expansion(players: int, **options: Any) -> Game:
    from .games.expansion import ExpansionGame

    return ExpansionGame(players, **options)


def _lost_mines(players: int, **options: Any) -> Game:
    from .games.lost_mines import LostMinesGame

    return LostMinesGame(players, **options)


GAMES: dict[str, GameEntry] = {
    "duel": GameEntry("duel", "Saboteur: The Duel", (2, 2), 2, _duel),
    "solo": GameEntry("solo", "Saboteur: The Duel, solo mode", (1, 1), 1, _duel),
    "classic": GameEntry("classic", "Saboteur", (3, 10), 4, _classic),
    "expansion": GameEntry("expansion", "Saboteur 2", (2, 12), 5, _expansion),
    "lost-mines": GameEntry("lost-mines", "Saboteur: The Lost Mines", (3, 9), 5, _lost_mines),
}


def make_game(name: str, players: int | None = None, **options: Any) -> Game:
    """``make_game("duel")``, ``make_game("classic", players=5, max_saboteurs=True)``."""
    try:
        entry = GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(GAMES)}") from None
    return entry.make(players, **options)


_SHARED: dict[tuple[Any, ...], Game] = {}
_MOST_SHARED = 256


def shared_game(name: str, players: int | None = None, **options: Any) -> Game:
    """``make_game``, made once per configuration and shared: what bots and determinizers
    use, which need a game for every decision (making one takes about 50 us).  A game is
    read-only once made (its tables only fill caches), so sharing it changes nothing."""
    key = (name, players, tuple(sorted(options.items())))
    game = _SHARED.get(key)
    if game is None:
        if len(_SHARED) >= _MOST_SHARED:
            _SHARED.clear()
        game = _SHARED[key] = make_game(name, players, **options)
    return game


def game_key(game: Game) -> str:
    """The registry name of a game instance (what a record stores)."""
    return getattr(game, "mode", game.name)
