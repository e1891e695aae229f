"""Every game as an OpenSpiel Python game: ``pyspiel.load_game("python_saboteur_duel")``.

Importing this module registers ``python_saboteur_<game>`` (``-`` becomes ``_``) for
each game with an encoding (:func:`pysaboteur.envs.supported_games`)::

    import pyspiel
    import pysaboteur.envs.openspiel  # registers the games
    game = pyspiel.load_game("python_saboteur_classic", {"players": 5})

Parameters: ``players`` and ``seed`` (the first match's seed; each further
``new_initial_state()`` deals the next seed, so that episodes differ).

* Chance is *sampled* (``ChanceMode.SAMPLED_STOCHASTIC``): the engine shuffles
  with the state's own seeded generator, so there are no chance nodes.
* Actions are the game's encoding (``docs/envs.md``); observation tensors are
  the encoding's observation of the seat's view; observation strings are the
  seat's view (``repr``) without the log; information-state strings add the log
  (all public moves and the seat's own passes: with the hand, the seat's whole
  private history).  The information-state tensor is the observation tensor:
  a summary of the view, not the full history.
* ``resample_from_infostate(player, sampler)`` deals everything ``player``
  cannot know anew (the game's ``shuffle_hidden``) and reseeds the state's
  generator, so that later shuffles are not the true ones either.
* ``serialize()`` / ``game.deserialize_state()`` and pickling carry the whole
  engine state (pickled, base64), so a resampled state survives them too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel

from ..engine.game import State
from ..engine.rng import Rng
from ..registry import GAMES, make_game
from . import make_encoding, supported_games
from .encoding import Encoding

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

    def new_initial_state(self) -> SaboteurSpielState:
        return SaboteurSpielState(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (pyspiel.load_game, (self.get_type().short_name, self.get_parameters()))

    def deal(self) -> State:
        """The engine state of the next match (``seed``, ``seed + 1``, ...)."""
        seed = self.first_seed + self._deals
        self._deals += 1
        return self.engine_game.new_state(seed)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SaboteurObserver:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SaboteurObserver(self.encoding, perfect_recall=recall)


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


class SaboteurSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine state (a root is dealt when first used: see
    :class:`_Engine`)."""

    def __init__(self, game: SaboteurSpielGame, engine: State | None = None) -> None:
        super().__init__(game)
        self._engine = _Engine(engine, game)
        self._legal: dict[int, Any] | None = None

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
            self._legal = dict(zip(ids, acts, strict=True))
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
    """OpenSpiel's py-observer: ``tensor`` and ``dict`` from the seat's view."""

    def __init__(self, encoding: Encoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SaboteurSpielState, player: int) -> None:
        if not state._engine.dealt:
            # a root not dealt yet: OpenSpiel only asks for the tensor's shape
            self.tensor[:] = 0
            return
        self.tensor[:] = self.encoding.observe(state.engine.view(player))

    def string_from(self, state: SaboteurSpielState, player: int) -> str:
        view = state.engine.view(player)
        if not self.perfect_recall:
            view = replace(view, log=())
        return repr(view)


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
