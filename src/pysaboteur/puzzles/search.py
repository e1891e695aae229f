"""The searches that prove each puzzle's answer, over the engine's public State API only
(``legal_actions``, ``apply``, ``clone``, ``view``).

* :func:`reach_lines`: every line of the solver's own turns (the other seats discarding
  their first card in between) that reaches the gold (Saboteur, Saboteur 2) or turns a
  goal face up (the Duel) within ``n`` turns, using only cards the solver holds now.
* :func:`stop_moves`: every turn of the solver after which the next seat, whose hand is
  shown, cannot reach the gold on its own next turn.
* :func:`gold_cells`: every goal card order that gives the solver exactly the view it
  has; the cells where the gold lies in those worlds.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import permutations
from typing import Any

from ..engine.actions import Action, Pass
from ..engine.errors import SaboteurError
from ..engine.game import State
from ..engine.position import Position, PositionError

#: a line: the solver's actions (a turn may be more than one, e.g. a goal's orientation)
Line = tuple[str, ...]


def _cards_of(action: Action) -> list[str]:
    cards = getattr(action, "cards", None)
    if cards is not None:
        return list(cards)
    card = getattr(action, "card", None)
    return [card] if isinstance(card, str) else []


def turns(state: State, me: int, allowed: Counter[str] | None = None
          ) -> Iterator[tuple[Line, State, Counter[str]]]:
    """Every complete turn of ``me`` from ``state`` (``me`` to play): its actions, the
    state after it and the cards of ``allowed`` it leaves (cards outside ``allowed``,
    such as a card just drawn, are not played)."""
    def go(st: State, line: Line, left: Counter[str]) -> Iterator[tuple[Line, State,
                                                                         Counter[str]]]:
        for action in st.legal_actions():
            used = Counter(_cards_of(action))
            if allowed is not None and used - left:
                continue
            nxt = st.clone()
            nxt.apply(action)
            rest = left - used
            more = nxt.current_player == me and not nxt.is_terminal and not nxt.results \
                and len(line) < 4
            if more and solo and getattr(nxt, "phase", None) == main \
                    and not str(action).startswith("bribe"):
                more = False  # solo: back to a main option after anything but a bribe
            if more:
                yield from go(nxt, (*line, str(action)), rest)
            else:
                yield (*line, str(action)), nxt, rest
    solo = state.game.players == 1  # solo: one seat, whose turn ends with its main option
    main = getattr(state, "phase", None)  # the phase a turn starts in
    start = Counter(state.hands[me]) if allowed is None else allowed
    yield from go(state, (), start)


def reached(before: State, after: State, me: int) -> bool:
    """Did ``me``'s turn reach the goal of the puzzle: the gold found by ``me`` (Saboteur,
    Saboteur 2), a goal turned face up (the Duel), a mine turned over or a treasure taken
    by ``me``'s pawn (The Lost Mines)?"""
    if len(after.results) > len(before.results):
        details = after.results[-1].details
        return details.get("finder") == me
    if before.game.name in ("duel", "solo"):
        return len(after.view(me).face_down) < len(before.view(me).face_down)
    if before.game.name == "lost-mines":  # a mine turned over, or a treasure taken
        old, new = before.view(me), after.view(me)
        return (len(new.face_down) < len(old.face_down)
                or len(new.own_treasures) > len(old.own_treasures))
    return False


def reply(state: State) -> None:
    """The other seats' fixed reply: discard their first card (or the first legal move)."""
    legal = state.legal_actions()
    passes = [a for a in legal if isinstance(a, Pass) and len(a.cards) == 1]
    state.apply(passes[0] if passes else legal[0])


def reach_lines(state: State, me: int, n: int) -> list[Line]:
    """Every line of at most ``n`` turns of ``me`` that reaches the goal, the shortest
    only (none shorter reaches it), sorted."""
    for depth in range(1, n + 1):
        found = sorted(_lines(state, me, depth, Counter(state.hands[me])))
        if found:
            return found
    return []


def _lines(state: State, me: int, depth: int, left: Counter[str]) -> list[Line]:
    out: list[Line] = []
    for line, after, rest in turns(state, me, left):
        if reached(state, after, me):
            if depth == 1:
                out.append(line)
            continue
        if depth == 1 or after.results or after.is_terminal:
            continue
        st = after
        while st.current_player != me and not st.results:
            reply(st)
        if st.results:
            continue
        out += [(*line, *more) for more in _lines(st, me, depth - 1, rest)]
    return out


def wins_now(state: State) -> bool:
    """Can the seat to play reach the goal with one turn?"""
    me = state.current_player
    return any(reached(state, after, me) for _, after, _ in turns(state, me))


def stop_moves(state: State, me: int) -> list[Line]:
    """Every turn of ``me`` after which the next seat cannot reach the gold on its turn."""
    out = []
    for line, after, _ in turns(state, me):
        if after.results or not wins_now(after):
            out.append(line)
    return sorted(out)


def _view_text(state: State, me: int) -> str:
    return json.dumps(state.view(me).to_json(), sort_keys=True, default=str)


def worlds(position: Position, me: int) -> list[tuple[str | None, ...]]:
    """Every order of the goal cards on round 1's goal cells that gives ``me`` exactly the
    view it has in ``position``: the worlds consistent with what ``me`` saw."""
    game = position.make_game()
    layout = game.start_layout()
    seen = _view_text(position.state(), me)
    out: list[tuple[str | None, ...]] = []
    cells = len(layout.goal_cells)
    for order in sorted(set(permutations(layout.goal_box, cells))):
        world = Position(**{**_fields(position), "goals": list(order)})
        try:
            if _view_text(world.state(), me) == seen:
                out.append(tuple(order))
        except PositionError:  # a world where the moves are illegal is not one
            continue
    return out


def _fields(position: Position) -> dict[str, Any]:
    return {name: getattr(position, name) for name in (
        "game", "players", "seed", "options", "hands", "roles", "goals", "top", "aside",
        "treasures", "moves")}


def gold_cells(position: Position, me: int) -> list[tuple[int, int]]:
    """The cells where the gold lies in some world consistent with ``me``'s view."""
    layout = position.make_game().start_layout()
    cells = set()
    for order in worlds(position, me):
        for xy, code in zip(layout.goal_cells, order, strict=True):
            if code is not None and "gold" in code:
                cells.add(xy)
    return sorted(cells)


def suspect(state: State, text: str) -> bool:
    """A move the puzzle's gold-diggers never make (the premise of ``saboteur`` puzzles): a
    broken tool on anyone, a rockfall, or a dead end."""
    if text.startswith(("pass", "discard", "orient")):
        return False
    card = text.split("@")[0].split(">")[0]
    try:
        kind = state.game.catalogue[card]
    except KeyError:
        return False
    if kind.effect in ("break", "rockfall"):
        return True
    return kind.tile is not None and all(seg.bit_count() < 2 for seg in kind.tile.segments)


def role_worlds(state: State, me: int) -> list[tuple[str, ...]]:
    """Every assignment of the other dwarf cards to the seats (``me``'s own as ``me``'s view
    shows it, and those ``me`` inspected in Saboteur 2) in which no one but a saboteur made
    a :func:`suspect` move this round: the worlds consistent with the public log and the
    premise."""
    view = state.view(me)
    layout = state.game.start_layout()
    n = state.game.players
    rest = list(layout.roles)
    rest.remove(view.role)
    log = list(view.log)[view.round_start:]
    suspects = {seat for seat, text in log if suspect(state, text)}
    inspected = dict(getattr(view, "inspected", ()))  # Saboteur 2: dwarf cards me looked at
    out = []
    for order in sorted(set(permutations(rest, n - 1))):
        roles = (*order[:me], view.role, *order[me:])
        if all(roles[s] == "saboteur" for s in suspects) \
                and all(roles[s] == r for s, r in inspected.items()):
            out.append(roles)
    return out


def saboteur_seats(state: State, me: int) -> list[int]:
    """The seats that are saboteurs in some world of :func:`role_worlds`."""
    return sorted({s for roles in role_worlds(state, me) for s, r in enumerate(roles)
                   if r == "saboteur"})


# -- what the seats said (hard deduction puzzles) -------------------------------
#: a seat's word at the table: (seat, goal cell it looked at with a map, "gold" or "stone")
Claim = tuple[int, tuple[int, int], str]


def looked_this_round(state: State, me: int, seat: int, cell: tuple[int, int]) -> bool:
    """Did ``seat`` play a map on ``cell`` this round, as ``me``'s view's log shows?"""
    view = state.view(me)
    return any(s == seat and text == f"map@{cell[0]},{cell[1]}"
               for s, text in list(view.log)[view.round_start:])


def told_worlds(position: Position, me: int, said: tuple[Claim, ...] = ()
                ) -> list[tuple[tuple[str | None, ...], tuple[str, ...]]]:
    """Every world (an order of the goal cards, an assignment of the dwarf cards) that
    gives ``me`` exactly its view (:func:`worlds`), in which no gold-digger made a
    :func:`suspect` move (:func:`role_worlds`) and every seat that is not a saboteur told
    the truth about the goal it looked at (``said``): the premise of the hard deduction
    puzzles (a saboteur may lie, or not)."""
    state = position.state()
    cells = position.make_game().start_layout().goal_cells
    out = []
    roles_all = role_worlds(state, me)
    for order in worlds(position, me):
        goal_at = dict(zip(cells, order, strict=True))
        for roles in roles_all:
            if all(roles[seat] == "saboteur"
                   or (("gold" in (goal_at[cell] or "")) == (word == "gold"))
                   for seat, cell, word in said):
                out.append((order, roles))
    return out


def told_gold_cells(position: Position, me: int, said: tuple[Claim, ...]
                    ) -> list[tuple[int, int]]:
    """The cells where the gold lies in some world of :func:`told_worlds`."""
    cells = position.make_game().start_layout().goal_cells
    return sorted({xy for order, _ in told_worlds(position, me, said)
                   for xy, code in zip(cells, order, strict=True)
                   if code is not None and "gold" in code})


def told_saboteur_seats(position: Position, me: int, said: tuple[Claim, ...]) -> list[int]:
    """The seats that are saboteurs in some world of :func:`told_worlds`."""
    return sorted({s for _, roles in told_worlds(position, me, said)
                   for s, r in enumerate(roles) if r == "saboteur"})


# -- the Duel: which face-down goal holds the most gold? ---------------------------
def _gold(state: State, code: str) -> int:
    tile = state.game.catalogue[code].tile
    return tile.features.gold if tile is not None else 0


def goal_pool(state: State, me: int) -> list[str]:
    """The Duel: the goal cards that may lie under a face-down goal ``me`` has not looked
    at. Each of the 18 goal cards lies once in a match: none of those turned face up so far
    in the match (``goals_seen``) nor of those ``me`` looked at this round."""
    view = state.view(me)
    known = Counter(view.goals_seen) + Counter(code for *_, code in view.known_goals)
    if view.pending_goal is not None:
        known[view.pending_goal[2]] += 1
    return sorted((Counter(state.game.start_layout().goal_box) - known).elements())


def richest_cells(state: State, me: int) -> list[tuple[int, int]]:
    """The Duel: the face-down goals that hold at least as much gold as every other
    face-down goal of the round in every world ``me`` cannot tell from its own (a looked-at
    goal's gold is known, one not looked at may hide any card of :func:`goal_pool`)."""
    view = state.view(me)
    known = {(x, y): _gold(state, code) for x, y, code in view.known_goals}
    cells = [tuple(c) for c in view.face_down]
    unseen = [c for c in cells if c not in known]
    pool = [_gold(state, c) for c in goal_pool(state, me)]
    if unseen and not pool:
        return []
    top = max(pool) if unseen else -1
    out = []
    for c in cells:
        if c in known:
            if all(v <= known[c] for v in known.values()) and top <= known[c]:
                out.append(c)
        elif len(unseen) == 1 and all(v <= min(pool) for v in known.values()):
            out.append(c)
    return sorted(out)


def duel_world(position: Position, cell: tuple[int, int], code: str) -> State | None:
    """The Duel: the position dealt again with goal card ``code`` swapped onto ``cell`` of
    the current round (from wherever the deal put it), the same moves replayed; None when
    they are not all legal there."""
    game = position.make_game()
    deal = position.deal(game)
    goals = list(deal.goals)
    state = position.state()
    cells = list(game.start_layout().goal_cells)
    i = (state.view(0).round - 1) * len(cells) + cells.index(cell)
    j = goals.index(code)
    goals[i], goals[j] = goals[j], goals[i]
    try:
        world = game.new_state(position.seed, replace(deal, goals=tuple(goals)))
        for text in position.moves:
            world.apply(game.parse_action(text))
    except (SaboteurError, ValueError, KeyError, IndexError, TypeError):
        return None
    return world


def richest_witnesses(position: Position, me: int) -> dict[tuple[int, int], str]:
    """The Duel: for every face-down goal ``me`` has not looked at, a card of the pool
    that holds less gold than the richest known goal and that the engine confirms may lie
    there: the same moves are legal and ``me``'s view is the same (:func:`duel_world`)."""
    state = position.state()
    view = state.view(me)
    seen = _view_text(state, me)
    known = [_gold(state, code) for *_, code in view.known_goals]
    best = max(known, default=0)
    out = {}
    for c in (tuple(c) for c in view.face_down):
        if c in {(x, y) for x, y, _ in view.known_goals}:
            continue
        for code in goal_pool(state, me):
            if _gold(state, code) >= best:
                continue
            world = duel_world(position, c, code)
            if world is not None and _view_text(world, me) == seen:
                out[c] = code
                break
    return out
