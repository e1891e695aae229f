"""Set-up helpers for the Saboteur (classic) and Saboteur 2 (expansion) tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pysaboteur.engine.game import Deal
from pysaboteur.engine.maze import cell
from pysaboteur.games.classic.state import ClassicGame, ClassicState

GOLD_MIDDLE = ("goal-stone:NW", "goal-gold:NESW", "goal-stone:SW")


def fixed_deal(game: ClassicGame, hands: dict[int, Sequence[str]] | None = None,
               roles: Sequence[str] = (), goals: Sequence[str] = GOLD_MIDDLE,
               rounds: int = 3) -> Deal:
    """A deal giving ``hands[seat]`` first in those seats' hands and ``roles`` to seats 0.."""
    hands = hands or {}
    n, size = game.players, game.hand_size
    rest = Counter(game.deck_cards)
    for h in hands.values():
        rest -= Counter(h)
    filler = iter(sorted(rest.elements()))
    top = [next(filler) for _ in range(game.data.SET_ASIDE)]
    full = {s: list(hands.get(s, ())) for s in range(n)}
    for s in range(n):
        full[s] += [next(filler) for _ in range(size - len(full[s]))]
    for k in range(size):
        for i in range(n):
            top.append(full[(game.first_player + i) % n][k])
    top += list(filler)
    role_deck: tuple[str, ...] = ()
    if roles:
        spare = Counter(game.role_deck()) - Counter(roles)
        role_deck = (*roles, *sorted(spare.elements()))
    return Deal(goals=tuple(goals), decks=(tuple(top),) * rounds,
                roles=(role_deck,) * rounds if role_deck else ())


def lay(state: ClassicState, code: str, x: int, y: int, rotated: bool = False) -> None:
    """Put a face-up path card on the table directly (setting up a position)."""
    state._place(cell(x, y), state.game.catalogue.otile[code, rotated])


def corridor(state: ClassicState, upto: int = 6, code: str = "EW") -> None:
    """A straight tunnel from the start to (upto, 0)."""
    for x in range(1, upto + 1):
        lay(state, code, x, 0)


def put_in_front(state: ClassicState, seat: int, *codes: str) -> None:
    """Lay ``codes`` in front of ``seat`` as a set-up (the state's cards in front are
    immutable: replaced, never changed in place)."""
    for code in codes:
        state._put_in_front(seat, code)
