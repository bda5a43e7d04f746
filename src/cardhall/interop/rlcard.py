"""RLCard: every cardhall game as an RLCard environment (``rlcard.make("cardhall-<game>")``).

RLCard splits a game (``init_game``, ``step``, ``step_back``, ``get_state``...) from its
environment (the encoding: ``_extract_state``, ``_decode_action``, ``get_payoffs``). Here
the game is the engine's :class:`~cardhall.engine.State` behind :class:`RLCardGame`, and
the environment uses the research encodings, so an RLCard agent sees what a PettingZoo
agent sees:

* ``state["obs"]``: the observation tensor of the seat's view (``float32``, in [0, 1]);
* ``state["legal_actions"]``: an ``OrderedDict`` of the legal action ids of
  :class:`cardhall.interop.ActionSpace` (the game's action ids, then a few sizes of each
  kind of amount);
* ``state["raw_obs"]``: the seat's JSON view, ``state["raw_legal_actions"]`` the notation
  of each legal action (what rule-based and human agents, ``use_raw = True``, answer with);
* ``get_payoffs()``: the engine's payoffs (``game_normalize``: scaled into [-1, 1]).

>>> import rlcard
>>> import cardhall.interop.rlcard  # registers cardhall-abstrac, cardhall-getha, ...
>>> env = rlcard.make("cardhall-yamiro", config={"seed": 3, "game_num_players": 2})
>>> state, player = env.reset()
>>> player, len(state["legal_actions"]), env.num_actions
(0, 4, 96)

Configuration (RLCard's ``config`` of ``rlcard.make``): ``seed``, ``allow_step_back``,
``game_num_players``, ``game_options`` (a dict of the game's options: the research
defaults for those not given, as in the other adapters), ``game_max_decisions`` (the
decision cap; default the game's) and ``game_normalize``. Unlike RLCard's own games, an
illegal action is never replaced by another: it raises
:class:`~cardhall.errors.IllegalActionError` and changes nothing. Every shuffle follows
from ``seed`` (RLCard's ``env.np_random``), never from the global generators.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, ClassVar

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import registry

from cardhall.engine import Action, Game, State
from cardhall.errors import IllegalActionError, OptionError
from cardhall.interop import ActionSpace, acting_seat
from cardhall.interop.spec import Research, research, research_game
from cardhall.registry import game_class, game_names

__all__ = ["RLCardEnv", "RLCardGame", "env_id", "register_all"]


class RLCardGame:
    """RLCard's game protocol over one engine game at a time."""

    def __init__(self, game: Game, max_decisions: int | None) -> None:
        self.engine = game
        self.research: Research = research(game, max_decisions)
        self.space = ActionSpace(game)
        self.allow_step_back = False
        #: RLCard's ``Env.seed`` sets it (a ``numpy.random.RandomState``)
        self.np_random: np.random.RandomState = np.random.RandomState()
        self.state: State | None = None
        self._past: list[State] = []

    # RLCard's game API
    def init_game(self) -> tuple[dict[str, Any], int]:
        seed = int(self.np_random.randint(0, 2**62, dtype=np.int64))
        self.state = self.engine.new_state(seed=seed)
        self._past = []
        player = self.get_player_id()
        return self.get_state(player), player

    def step(self, action: Action | str) -> tuple[dict[str, Any], int]:
        st = self._require()
        seat = acting_seat(st)
        if seat is None or self.research.finished(st):
            raise IllegalActionError(seat, action, "the game is over: reset()")
        before = st.clone() if self.allow_step_back else None
        st.apply(seat, action)  # raises before any change
        if before is not None:
            self._past.append(before)
        player = self.get_player_id()
        return self.get_state(player), player

    def step_back(self) -> bool:
        if not self._past:
            return False
        self.state = self._past.pop()
        return True

    def get_num_players(self) -> int:
        return self.engine.players

    def get_num_actions(self) -> int:
        return self.space.size

    def get_player_id(self) -> int:
        """The seat to act (the lowest acting seat); the last to act once it is over."""
        st = self._require()
        seat = None if self.research.finished(st) else acting_seat(st)
        if seat is None:
            return st.history[-1][0] if st.history else 0
        return seat

    def is_over(self) -> bool:
        return self.research.finished(self._require())

    def get_state(self, player: int) -> dict[str, Any]:
        st = self._require()
        legal = (
            {}
            if self.research.finished(st) or player not in st.actors()
            else self.space.legal(st, player)
        )
        return {"seat": player, "view": st.view(player), "legal": legal}

    def _require(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state


class RLCardEnv(Env):
    """One cardhall game as an RLCard environment (a subclass per game is registered as
    ``cardhall-<game>``; see the module docstring)."""

    game_name: ClassVar[str] = "abstrac"

    def __init__(self, config: dict[str, Any]) -> None:
        known = {"seed", "allow_step_back"} | {
            "game_num_players",
            "game_options",
            "game_max_decisions",
            "game_normalize",
        }
        unknown = sorted(k for k in config if k not in known)
        if unknown:
            raise OptionError(f"unknown RLCard config key {unknown[0]!r}; known: {sorted(known)}")
        self.name = env_id(self.game_name)
        options = dict(config.get("game_options") or {})
        game = research_game(self.game_name, config.get("game_num_players"), **options)
        self.game = RLCardGame(game, config.get("game_max_decisions"))
        self.normalize = bool(config.get("game_normalize", False))
        self.encoder = self.game.research.encoder
        super().__init__(config)
        self.state_shape = [[self.encoder.observation_size] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def _extract_state(self, state: dict[str, Any]) -> dict[str, Any]:
        st = self.game._require()
        seat, legal = state["seat"], state["legal"]
        return {
            "obs": self.encoder.observation(st, seat),
            "legal_actions": OrderedDict((i, None) for i in legal),
            "raw_obs": state["view"],
            "raw_legal_actions": [str(a) for a in legal.values()],
            "action_record": self.action_recorder,
        }

    def _decode_action(self, action_id: int) -> Action:
        st = self.game._require()
        seat = self.game.get_player_id()
        if isinstance(action_id, bool) or not isinstance(action_id, int | np.integer):
            raise IllegalActionError(seat, action_id, "an action must be an integer id")
        return self.game.space.action(st, seat, int(action_id))

    def _get_legal_actions(self) -> OrderedDict[int, None]:
        state = self.game.get_state(self.game.get_player_id())
        return OrderedDict((i, None) for i in state["legal"])

    def get_payoffs(self) -> np.ndarray:
        payoffs = self.game.research.payoffs(self.game._require(), self.normalize)
        if payoffs is None:
            raise RuntimeError("the game is not over: no payoffs yet")
        return np.array(payoffs, dtype=np.float64)

    def get_perfect_information(self) -> dict[str, Any]:
        """Every seat's view (together they are everything any seat may see)."""
        st = self.game._require()
        return {"views": [st.view(s) for s in range(self.num_players)], "table": st.view(None)}


def env_id(game: str) -> str:
    """The RLCard registry id of a game, e.g. ``cardhall-yamiro``."""
    return f"cardhall-{game}"


def register_all() -> list[str]:
    """Register every game with ``rlcard.make`` (a subclass of :class:`RLCardEnv` each)."""
    ids = []
    for name in game_names():
        cls_name = f"{game_class(name).title.replace(' ', '')}RLCardEnv"
        if cls_name not in globals():
            globals()[cls_name] = type(cls_name, (RLCardEnv,), {"game_name": name})
        eid = env_id(name)
        if eid not in registry.env_specs:
            registry.register(eid, f"{__name__}:{cls_name}")
        ids.append(eid)
    return ids


register_all()
