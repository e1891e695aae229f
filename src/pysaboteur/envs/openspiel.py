"""Every game as an OpenSpiel Python game: ``pyspiel.load_game("python_saboteur_duel")``.

Importing this module registers ``python_saboteur_<game>`` (``-`` becomes ``_``) for
each game with an encoding (:func:`pysaboteur.envs.supported_games`)::

    import pyspiel
    import pysaboteur.envs.openspiel  # registers the games
    game = pyspiel.load_game("python_saboteur_classic", {"players": 5})

Parameters: ``players`` and ``seed`` (the first match's seed; each further
``new_initial_state()`` deals the next seed, so that episodes differ; a root is dealt
the first time it is used, and a copy or serialization of it is the same match).

* Chance is *sampled* (``ChanceMode.SAMPLED_STOCHASTIC``): the engine shuffles
  with the state's own seeded generator, so there are no chance nodes.
* Actions are the game's encoding (``docs/envs.md``); observation tensors are
  the encoding's observation of the seat's view; observation strings are the
  seat's view (``repr``) without the log; information-state strings add the log
  (all public moves and the seat's own passes: with the hand, the seat's whole
  private history).  The information-state tensor is the observation tensor
  followed by the log, one row per move (:class:`SaboteurObserver`); every
  ``IIGObservationType`` (public / private / perfect recall) is honoured.
* :func:`ismcts_bot` is OpenSpiel's Python ISMCTS with the ``restart_at`` that
  ``evaluate_bots`` needs.  ``random_sim_test(serialize=True)`` cannot pass:
  pyspiel does not let a Python game give its RNG state (``docs/envs.md``).
* ``resample_from_infostate(player, sampler)`` deals everything ``player``
  cannot know anew (the game's ``shuffle_hidden``) and reseeds the state's
  generator, so that later shuffles are not the true ones either.
* ``serialize()`` / ``game.deserialize_state()`` and pickling carry the whole
  engine state (pickled, base64), so a resampled state survives them too.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import numpy as np
import pyspiel

from ..engine.game import State
from ..engine.rng import Rng
from ..registry import GAMES, make_game
from . import make_encoding, supported_games
from .encoding import Encoding
from .history import ROW, History

#: upper bounds on the decisions in one match, per game (measured maxima x2; docs/envs.md)
MAX_GAME_LENGTH = {"duel": 1000, "solo": 600, "classic": 2000, "expansion": 3000,
                   "lost-mines": 3000}


def short_name(game: str) -> str:
    return "python_saboteur_" + game.replace("-", "_")


def _utility(game: str, players: int) -> tuple[float, float, float | None]:
    """(min, max, sum or None) of ``returns()``."""
    if game == "duel":
        return -1.0, 1.0, 0.0
    if game == "solo":
        return 0.0, 60.0, None
    if game == "lost-mines":
        return 0.0, 1.0, 1.0  # 1 shared among the winners
    return 0.0, 1.0, None


def _game_type(game: str) -> pyspiel.GameType:
    entry = GAMES[game]
    lo, hi = entry.players
    utility = {"duel": pyspiel.GameType.Utility.ZERO_SUM,
               "lost-mines": pyspiel.GameType.Utility.CONSTANT_SUM}.get(
                   game, pyspiel.GameType.Utility.GENERAL_SUM)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"pysaboteur {entry.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": entry.default_players, "seed": 0},
    )


class SaboteurSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pysaboteur game seen by OpenSpiel."""

    registry_key = "duel"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        key = self.registry_key
        game_type = _game_type(key)
        spec = game_type.parameter_specification
        players = int(params.get("players", spec["players"]))
        self.first_seed = int(params.get("seed", spec["seed"]))
        self.engine_game = make_game(key, players)
        self.encoding: Encoding = make_encoding(self.engine_game)
        lo, hi, total = _utility(key, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total,
            max_game_length=MAX_GAME_LENGTH[key],
        )
        super().__init__(game_type, info, {"players": players, "seed": self.first_seed})
        self._deals = 0
        self.max_moves = MAX_GAME_LENGTH[key]
        self._history: History | None = None

    def new_initial_state(self) -> SaboteurSpielState:
        return SaboteurSpielState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (pyspiel.load_game, (self.get_type().short_name, self.get_parameters()))

    def deal(self) -> State:
        """The engine state of the next match (``seed``, ``seed + 1``, ...)."""
        seed = self.first_seed + self._deals
        self._deals += 1
        return self.engine_game.new_state(seed)

    @property
    def history(self) -> History:
        """The log's rows (the information-state tensor's history), made once per game."""
        if self._history is None:
            self._history = History(self.encoding)
        return self._history

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SaboteurObserver:
        """The observer of ``iig_obs_type`` (None: the default observation - public and the
        seat's private information, no recall); every type is honoured."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return SaboteurObserver(self, perfect_recall=False, public_info=True,
                                    private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
        return SaboteurObserver(self, perfect_recall=bool(iig_obs_type.perfect_recall),
                                public_info=bool(iig_obs_type.public_info),
                                private_info=iig_obs_type.private_info)


class _Engine:
    """Holds the engine state; copied with the engine's cheap ``clone()`` (OpenSpiel's
    ``Clone`` deep-copies the Python attributes of a state).

    A new root's match is dealt the first time anything uses it - its legal actions, a
    string, a tensor of a seat, a copy (``clone``, ``deepcopy``), ``serialize``, pickling -
    so that a copy of a fresh root and the root are the same match.  Only OpenSpiel's
    tensor-shape queries (which build a root to measure a tensor and throw it away) leave
    it undealt, so they do not use up a seed.
    """

    __slots__ = ("_state", "game")

    def __init__(self, state: State | None, game: SaboteurSpielGame | None = None) -> None:
        self._state = state
        self.game = game

    @property
    def dealt(self) -> bool:
        return self._state is not None

    @property
    def state(self) -> State:
        if self._state is None:
            assert self.game is not None
            self._state = self.game.deal()
        return self._state

    @state.setter
    def state(self, value: State) -> None:
        self._state = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())

    def __getstate__(self) -> dict[str, Any]:
        return {"state": self.state}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._state = data["state"]
        self.game = None


class _Legal(dict[int, Any]):
    """One position's legal actions by index, made once and never changed (applying an
    action drops it), so copies of the state share it: pyspiel's ``Clone`` of a Python
    state deep-copies each attribute, and copying this map was 80% of a clone's time
    (0.39 of 0.49 ms in a Duel position with 23 legal actions; docs/envs.md)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Legal:
        return self


class SaboteurSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine state (a root is dealt when first used: see
    :class:`_Engine`)."""

    def __init__(self, game: SaboteurSpielGame, engine: State | None = None) -> None:
        super().__init__(game)
        self._engine = _Engine(engine, game)
        self._legal: _Legal | None = None

    @property
    def engine(self) -> State:
        return self._engine.state

    def _spiel(self) -> SaboteurSpielGame:
        return self.get_game()  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ turn
    def current_player(self) -> int:
        if self.engine.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.current_player

    def is_terminal(self) -> bool:
        return self.engine.is_terminal

    def returns(self) -> list[float]:
        if not self.engine.is_terminal:
            return [0.0] * self.engine.game.players
        return [float(r) for r in self.engine.returns()]

    def _legal_map(self) -> dict[int, Any]:
        if self._legal is None:
            engine = self.engine
            seat = engine.current_player
            enc = self._spiel().encoding
            view = engine.view(seat) if enc.needs_view else None
            ids, acts, _ = enc.legal(engine.legal_actions(), seat, view)
            self._legal = _Legal(zip(ids, acts, strict=True))
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine.is_terminal or player != self.engine.current_player:
            return []
        return sorted(self._legal_map())

    def _apply_action(self, action: int) -> None:
        chosen = self._legal_map()[action]
        self.engine.apply(chosen, check=False)
        self._legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        seat = player if player >= 0 else 0
        enc = self._spiel().encoding
        view = self.engine.view(seat) if enc.needs_view else None
        return str(enc.decode(action, seat, view))

    # ------------------------------------------------------------------ hidden information
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one, with all else dealt anew."""
        rng = Rng(int(probability_sampler() * 2**53))
        world = self.engine.shuffle_hidden(player_id, rng)  # type: ignore[attr-defined]
        world.rng = Rng(rng.below(2**62))
        twin = self.clone()
        twin._engine = _Engine(world)
        twin._legal = None
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        game = self._spiel()
        return (_load_state, (game.get_type().short_name, game.get_parameters(),
                              self.serialize()))

    def __str__(self) -> str:
        engine = self.engine
        hands = [sorted(engine.hand(s)) for s in range(engine.game.players)]
        return f"{engine.view(None)!r}\nhands={hands}\nrng={engine.rng.state}"



def _load_state(name: str, params: dict[str, Any], text: str) -> SaboteurSpielState:
    return pyspiel.load_game(name, params).deserialize_state(text)  # type: ignore[no-any-return]


class SaboteurObserver:
    """OpenSpiel's py-observer of one observation type: ``tensor`` and ``dict`` from views.

    The pieces of the tensor, in order (``dict`` names each):

    * ``observation`` - public and this seat's private information (``private_info`` =
      ``SINGLE_PLAYER`` with ``public_info``): the encoding's observation of the seat's view;
    * ``public`` - public information only (``private_info`` = ``NONE`` or ``ALL_PLAYERS``,
      with ``public_info``): the observation of the spectator's view (``view(None)``), laid
      out as the seat sees it;
    * ``private`` (``SINGLE_PLAYER`` without ``public_info``) or ``private_rel<r>``
      (``ALL_PLAYERS``, every seat from this one on): a seat's private information, its
      observation minus the public one (its hand, role, the goals it has looked at...);
    * ``log`` (``perfect_recall``): every move so far as ``(max_game_length, ROW)`` rows
      (:data:`pysaboteur.envs.history.ROW_FIELDS`): as the seat saw them (``SINGLE_PLAYER``),
      as everybody saw them (``NONE``: passes face down), every move in full
      (``ALL_PLAYERS``); without ``public_info``, only the rows of moves others saw face down.
    """

    def __init__(self, game: SaboteurSpielGame, perfect_recall: bool, public_info: bool,
                 private_info: Any) -> None:
        self.game = game
        self.encoding = enc = game.encoding
        self.perfect_recall = perfect_recall
        self.public_info = public_info
        self.private_info = private_info
        kinds = pyspiel.PrivateInfoType
        n = enc.players
        pieces: list[tuple[str, tuple[int, ...]]] = []
        if public_info:
            single = private_info == kinds.SINGLE_PLAYER
            pieces.append(("observation" if single else "public", (enc.obs_size,)))
        if private_info == kinds.SINGLE_PLAYER and not public_info:
            pieces.append(("private", (enc.obs_size,)))
        if private_info == kinds.ALL_PLAYERS:
            pieces += [(f"private_rel{r}", (enc.obs_size,)) for r in range(n)]
        if perfect_recall:
            pieces.append(("log", (game.max_moves, ROW)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + k].reshape(shape)
            at += k

    def _private(self, engine: State, seat: int, relative_to: int) -> np.ndarray:
        enc = self.encoding
        return enc.observe(engine.view(seat), relative_to) - enc.observe(engine.view(None),
                                                                          relative_to)

    def set_from(self, state: SaboteurSpielState, player: int) -> None:
        self.tensor[:] = 0
        if not state._engine.dealt:
            # a root not dealt yet: OpenSpiel only asks for the tensor's shape
            return
        engine = state.engine
        enc = self.encoding
        d = self.dict
        n = enc.players
        if "observation" in d:
            d["observation"][:] = enc.observe(engine.view(player), player)
        if "public" in d:
            d["public"][:] = enc.observe(engine.view(None), player)
        if "private" in d:
            d["private"][:] = self._private(engine, player, player)
        for r in range(n):
            name = f"private_rel{r}"
            if name in d:
                d[name][:] = self._private(engine, (player + r) % n, player)
        if "log" in d:
            d["log"][:] = self.game.history.rows(self._log(engine, player), player,
                                                 self.game.max_moves)

    def _log(self, engine: State, player: int) -> tuple[tuple[int, str], ...]:
        """The log this observer's type sees (see the class's docstring)."""
        kinds = pyspiel.PrivateInfoType
        public = engine.view(None).log
        if self.private_info == kinds.NONE:
            return public if self.public_info else ()
        if self.private_info == kinds.SINGLE_PLAYER:
            mine = engine.view(player).log
        else:  # every move as its actor saw it: in full
            logs = {s: engine.view(s).log for s in range(self.encoding.players)}
            mine = tuple(logs[actor][i] for i, (actor, _) in enumerate(public))
        if self.public_info:
            return mine
        return tuple(m for m, p in zip(mine, public, strict=True) if m != p)

    def string_from(self, state: SaboteurSpielState, player: int) -> str:
        engine = state.engine
        kinds = pyspiel.PrivateInfoType
        seats: list[int] = []
        if self.private_info == kinds.SINGLE_PLAYER and not self.public_info:
            seats = [player]
        elif self.private_info == kinds.ALL_PLAYERS:
            seats = [(player + r) % self.encoding.players for r in range(self.encoding.players)]
        parts = []
        if self.public_info and self.private_info == kinds.SINGLE_PLAYER:
            # the seat's view holds the public one: the information state (ISMCTS's key),
            # without building the spectator's view it would not use
            view = engine.view(player)
            parts.append(repr(view if self.perfect_recall else replace(view, log=())))
        else:
            public = engine.view(None)
            if self.public_info:
                parts.append(repr(public if self.perfect_recall else replace(public, log=())))
        for seat in seats:
            parts.append(f"seat {seat}: {self._private_fields(engine.view(seat), public)}")
        if self.perfect_recall and not self.public_info:
            parts.append(f"log: {self._log(engine, player)}")
        return "\n".join(parts)

    def _private_fields(self, view: Any, public: Any) -> dict[str, Any]:
        """The fields of a seat's view that the spectator's view does not share."""
        return {f.name: getattr(view, f.name) for f in fields(view)
                if f.name not in ("seat", "log") and getattr(view, f.name) != getattr(
                    public, f.name)}


_SERIAL_HEADER = "# pysaboteur serialize_game_and_state 1"


def serialize_game_and_state(game: SaboteurSpielGame, state: SaboteurSpielState) -> str:
    """``pyspiel.serialize_game_and_state`` for these games, with the game's RNG state (how
    many roots it has dealt), which pyspiel cannot ask a Python game for."""
    import json

    params = json.dumps(game.get_parameters(), sort_keys=True)
    return "\n".join((_SERIAL_HEADER, game.get_type().short_name, params,
                      str(game._deals), state.serialize()))


def deserialize_game_and_state(text: str) -> tuple[SaboteurSpielGame, SaboteurSpielState]:
    """The inverse of :func:`serialize_game_and_state`: a new game in the same RNG state (its
    next root is the one the original game would deal next), and the state."""
    import json

    header, name, params, deals, state = text.split("\n", 4)
    if header != _SERIAL_HEADER:
        raise ValueError("not a pysaboteur serialization")
    game = pyspiel.load_game(name, json.loads(params))
    game._deals = int(deals)
    return game, game.deserialize_state(state)


class _RestartableISMCTS:
    """Mixed into OpenSpiel's Python ``ISMCTSBot``: the ``restart_at`` and
    ``inform_action`` that ``evaluate_bots`` calls (the search keeps no state between
    moves but its tree, which ``restart_at`` drops)."""

    def restart_at(self, state: Any) -> None:
        self.reset()  # type: ignore[attr-defined]

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


def ismcts_bot(game: Any, **kwargs: Any) -> Any:
    """OpenSpiel's Python ``ISMCTSBot`` for ``game``, usable with ``evaluate_bots``:
    ``ismcts_bot(game, evaluator=..., uct_c=2.0, max_simulations=100, random_state=rs)``
    (the keywords are ``ISMCTSBot``'s)."""
    from open_spiel.python.algorithms import ismcts

    cls = type("SaboteurISMCTSBot", (_RestartableISMCTS, ismcts.ISMCTSBot), {})
    return cls(game=game, **kwargs)


def _register() -> list[str]:
    names = []
    for key in supported_games():
        cls = type(f"SaboteurSpielGame_{key.replace('-', '_')}", (SaboteurSpielGame,),
                   {"registry_key": key})
        pyspiel.register_game(_game_type(key), cls)
        names.append(short_name(key))
    return names


#: the OpenSpiel short names registered by importing this module
REGISTERED = _register()
