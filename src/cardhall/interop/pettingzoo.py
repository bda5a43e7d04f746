"""PettingZoo adapter: every registered cardhall game as an AEC environment.

>>> from cardhall.interop.pettingzoo import env
>>> e = env("abstrac")
>>> e.reset(seed=42)
>>> e.agent_selection
'player_0'
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["action_mask"].tolist()            # first, second, take 1, take 2, take 3
[1, 1, 0, 0, 0]
>>> e.step(1)                               # "second"
>>> e.agent_selection
'player_1'

Conventions (those of PettingZoo's classic card environments):

* agents ``player_0`` .. ``player_{n-1}`` are the seats; ``Discrete`` actions are the ids
  of :class:`cardhall.interop.ActionSpace`: the game's stable action ids
  (:meth:`Game.action_id`), then a few sizes of each kind of amount (minimum, half the pot,
  the pot, maximum), so the space stays small however many chips there are;
* observations are ``{"observation": Box(float32), "action_mask": Box(int8)}``: the
  observation is the game's tensor of the agent's own view (or, with
  ``observation="information_state"``, of everything it has seen; see
  :mod:`cardhall.interop.tensor`), the mask its legal actions (all zero when it is not the
  agent's turn); space objects are built once, so each call returns the same object;
* ``reset(seed=...)`` reseeds the env's own generator (``self.np_random``); each game's
  engine seed is drawn from it, so every shuffle, including mid-game reshuffles, follows
  from the env's generator and nothing else;
* the turn goes to the lowest seat in ``state.actors()`` (simultaneous choices and
  out-of-turn windows are asked one seat at a time, lowest seat first);
* rewards are the engine's payoffs, given when the game ends (so each agent's rewards sum
  to its payoff), scaled into [-1, 1] with ``normalize=True``;
* a game stopped before its natural end -- by the decision cap ``max_decisions``, or by a
  limit of its options such as Getha's ``max_deals`` (10 unless given) -- sets
  ``truncations`` instead of ``terminations`` (see :mod:`cardhall.interop.spec`);
* render modes ``"ansi"`` (returns the text) and ``"human"`` (prints it): the view of the
  seat on turn, through the game's terminal renderer when it has one;
* ``env()`` wraps ``raw_env`` in the classic stack: an illegal move ends the game with
  ``illegal_reward`` (default -1) for the mover, out-of-bounds actions are asserted, and
  the API order is enforced. The unwrapped ``raw_env`` instead raises
  :class:`~cardhall.errors.IllegalActionError` and leaves the game unchanged.

Importing this module registers every game with PettingZoo's registry as
``cardhall/<Title>-v0`` (e.g. ``pettingzoo.make("aec", "cardhall/Abstrac-v0", players=2)``).
The engine state is ``env.unwrapped.engine_state`` (``AECEnv.state()`` is PettingZoo's
optional global-state method, which these environments do not provide).
"""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from cardhall.engine import Action, Game, State
from cardhall.errors import IllegalActionError
from cardhall.interop import ActionSpace, acting_seat
from cardhall.interop.spec import research, research_game
from cardhall.interop.tensor import Encoder
from cardhall.registry import game_class, game_names

__all__ = ["env", "env_id", "parallel_env", "parallel_raw_env", "raw_env", "register_all"]

VERSION = 0


#: What an action id may be (a tuple: ``int | np.integer`` is made again at each test).
_INTEGERS = (int, np.integer)
#: At most this many action masks kept by an env (then they start again).
_KEPT_MASKS = 512
_INT64 = np.dtype(np.int64)


class _Discrete(spaces.Discrete):
    """Gymnasium's ``Discrete`` space, whose ``contains`` answers a plain ``int`` without
    numpy when its values are ``int64`` (the default): whether it lies in ``start ..
    start + n - 1``, the answer Gymnasium's own gives (it makes a numpy integer of it, and
    of its bounds, and asks numpy whether it casts). ``AssertOutOfBoundsWrapper`` asks at
    every step; any other value (a ``bool``, a numpy integer...) gets Gymnasium's answer."""

    def contains(self, x: Any) -> bool:
        if type(x) is int and self.dtype == _INT64:
            start = int(self.start)
            return start <= x < start + int(self.n)
        return super().contains(x)


class raw_env(AECEnv[str, dict[str, np.ndarray], int]):
    """The unwrapped AEC environment of one cardhall game configuration.

    ``game`` is a registered game name or a :class:`~cardhall.engine.Game`; ``players`` and
    the other keyword arguments are the game's options (with the research defaults, e.g.
    Getha's ``max_deals=10``, for those not given). ``max_decisions`` is the decision cap
    (``None``: the game's default), ``normalize`` scales rewards into [-1, 1], and
    ``observation`` picks the tensor each agent gets: ``"observation"`` (its current view)
    or ``"information_state"`` (its view and everything it has seen, perfect recall).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "cardhall_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game = "abstrac",
        players: int | None = None,
        render_mode: str | None = None,
        max_decisions: int | None = None,
        normalize: bool = False,
        observation: str = "observation",
        **options: Any,
    ) -> None:
        super().__init__()
        if isinstance(game, Game):
            if players is not None or options:
                raise ValueError("pass options to make_game, not with a Game object")
            self.game = game
        else:
            self.game = research_game(game, players, **options)
        if observation not in ("observation", "information_state"):
            raise ValueError(
                f"observation must be 'observation' or 'information_state', not {observation!r}"
            )
        self.research = research(self.game, max_decisions)
        self.normalize = bool(normalize)
        self.observation_kind = observation
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"render_mode must be one of {modes}, or None; got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"cardhall_{self.game.name}_v{VERSION}"}
        self.encoder: Encoder = self.research.encoder
        size = (
            self.encoder.observation_size
            if observation == "observation"
            else self.encoder.information_state_size
        )
        self.space = ActionSpace(self.game)
        n = self.space.size
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: _Discrete(n) for a in self.possible_agents}
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self.engine_state: State | None = None
        #: The legal ids of the last seat asked (its state, seat and move number first):
        #: ``observe`` lists them for the mask and ``step`` takes its action from them.
        self._legal_now: tuple[State, int, int, tuple[list[int], list[Action]]] | None = None
        #: The masks made lately, by the id of their list of legal ids (kept alive with
        #: them, so that the id names that list; see _mask).
        self._masks: dict[int, tuple[list[int], np.ndarray]] = {}

    # -- spaces ----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- AEC API ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        engine_seed = int(self.np_random.integers(0, 2**62))
        self.engine_state = self.game.new_state(seed=engine_seed)
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.engine_state is not None
        seat = acting_seat(self.engine_state)
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self._require_state()
        seat = self._seat[agent]
        if self.observation_kind == "observation":
            obs = self.encoder.observation(st, seat)
        else:
            obs = self.encoder.information_state(st, seat)
        if agent == self.agent_selection and not self.research.finished(st):
            mask = self._mask(self._legal(st, seat)[0])
        else:
            mask = np.zeros(self.space.size, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def _mask(self, ids: list[int]) -> np.ndarray:
        """The action mask of these legal ids: a copy of the one made for the same list
        (:meth:`ActionSpace.legal_ids` gives the same list object for the same actions),
        since numpy reads a list of indexes slowly (Getha lists up to 255 discards). Kept
        per list, not per length: Getha's selections of different suits, its answers and
        its bring-ins often list as many ids as one another."""
        masks = self._masks
        made = masks.get(id(ids))
        if made is None or made[0] is not ids:
            if len(masks) >= _KEPT_MASKS:
                masks.clear()
            mask = np.zeros(self.space.size, dtype=np.int8)
            if len(ids) > 16:
                mask[ids] = 1
            else:  # a few: one by one costs less than numpy reading the list
                for i in ids:
                    mask[i] = 1
            made = masks[id(ids)] = (ids, mask)
        return made[1].copy()

    def _legal(self, st: State, seat: int) -> tuple[list[int], list[Action]]:
        """``seat``'s legal ids and actions now (listed once per state and seat)."""
        now = self._legal_now
        if now is None or now[0] is not st or now[1] != seat or now[2] != len(st.history):
            now = self._legal_now = (st, seat, len(st.history), self.space.legal_ids(st, seat))
        return now[3]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._require_state()
        seat = self._seat[agent]
        if action is None or isinstance(action, bool) or not isinstance(action, _INTEGERS):
            raise IllegalActionError(seat, action, "an action must be an integer id")
        ids, actions = self._legal(st, seat)
        try:
            at = ids.index(int(action))  # one of the legal actions listed now (one scan)
        except ValueError:
            at = -1
        if at >= 0:
            st.apply_unchecked(seat, actions[at])
        else:  # both raise before any change, naming what is wrong
            st.apply(seat, self.space.action(st, seat, int(action)))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        payoffs = self.research.payoffs(st, self.normalize)
        if payoffs is not None:
            truncated = self.research.truncated(st)
            for a in self.agents:
                self.rewards[a] = payoffs[self._seat[a]]
                if truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _require_state(self) -> State:
        if self.engine_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.engine_state

    # -- rendering -------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _text(self) -> str:
        st = self._require_state()
        seat = acting_seat(st)
        view = st.view(seat)
        title = f"{self.game.title}: " + (
            "game over" if seat is None else f"{self.possible_agents[seat]} to act"
        )
        from cardhall.terminal import renderer_for

        renderer = renderer_for(self.game)
        body = None
        if renderer is not None and hasattr(renderer, "render"):
            from rich.console import Console

            from cardhall.cards import SuitNames

            buffer = io.StringIO()
            console = Console(file=buffer, width=100, color_system=None, force_terminal=False)
            try:
                console.print(renderer.render(view, SuitNames.default()))
                body = buffer.getvalue().rstrip()
            except Exception:  # a renderer bug must not break an RL run; fall back to JSON
                body = None
        if body is None:
            shown = {k: v for k, v in view.items() if k not in ("options", "game")}
            body = json.dumps(shown, indent=1, default=str)
        return f"{title}\n{body}"

    def close(self) -> None:
        pass


class parallel_raw_env(ParallelEnv[str, dict[str, np.ndarray], int]):
    """A cardhall game as a PettingZoo **parallel** environment: every seat that may act
    submits its action in the same step (Getha's secret, simultaneous choice of suits is
    one step for all live seats). Where one seat acts at a time (every other decision of
    every game), a step carries that seat's action and the others' are ignored (their
    action masks are all zero). Same arguments and conventions as :class:`raw_env`; an
    action missing for a seat that may act, or illegal, raises
    :class:`~cardhall.errors.IllegalActionError` before any action is applied, unless
    ``illegal_reward`` is set (as :func:`parallel_env` does): then the game ends there, the
    first seat that gave an illegal action gets ``illegal_reward`` and the others 0 (what
    PettingZoo's ``TerminateIllegalWrapper`` does for AEC environments).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "cardhall_v0",
        "is_parallelizable": True,
        "render_fps": 1,
    }

    def __init__(
        self, game: str | Game = "abstrac", illegal_reward: float | None = None, **kwargs: Any
    ) -> None:
        self.aec = raw_env(game, **kwargs)
        self.illegal_reward = illegal_reward
        self.game = self.aec.game
        self.research = self.aec.research
        self.render_mode = self.aec.render_mode
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces

    @property
    def engine_state(self) -> State | None:
        return self.aec.engine_state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        aec = self.aec
        st = aec._require_state()
        seat = aec._seat[agent]
        obs = (
            aec.encoder.observation(st, seat)
            if aec.observation_kind == "observation"
            else aec.encoder.information_state(st, seat)
        )
        if not self.research.finished(st) and seat in st.actors():
            mask = aec._mask(aec.space.legal_ids(st, seat)[0])
        else:
            mask = np.zeros(aec.space.size, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents.copy()
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        st = self.aec._require_state()
        if not self.agents:
            raise IllegalActionError(None, actions, "the game is finished: reset()")
        chosen: list[tuple[int, Action]] = []
        try:
            for seat in sorted(st.actors()):
                chosen.append((seat, self._legal_choice(st, seat, actions)))
        except IllegalActionError as error:
            if self.illegal_reward is None:
                raise
            return self._end_illegal(error)
        for seat, action in chosen:  # simultaneous choices do not depend on each other
            st.apply(seat, action)
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        done = dict.fromkeys(agents, False)
        truncations = dict.fromkeys(agents, False)
        payoffs = self.research.payoffs(st, self.aec.normalize)
        observations = {a: self._observe(a) for a in agents}
        if payoffs is not None:
            truncated = self.research.truncated(st)
            for a in agents:
                rewards[a] = payoffs[self.aec._seat[a]]
                (truncations if truncated else done)[a] = True
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, done, truncations, {a: {} for a in agents}

    def _legal_choice(self, st: State, seat: int, actions: dict[str, Any]) -> Action:
        agent = self.possible_agents[seat]
        action = actions.get(agent)
        if isinstance(action, bool) or not isinstance(action, _INTEGERS):
            raise IllegalActionError(seat, action, f"{agent} may act: give it an action id")
        legal = self.aec.space.legal(st, seat)
        if int(action) not in legal:
            raise IllegalActionError(seat, action, f"not legal now; legal: {sorted(legal)}")
        return legal[int(action)]

    def _end_illegal(self, error: IllegalActionError) -> tuple[Any, ...]:
        agents = self.agents
        offender = self.possible_agents[error.seat] if isinstance(error.seat, int) else None
        observations = {a: self._observe(a) for a in agents}
        for obs in observations.values():
            obs["action_mask"][:] = 0
        rewards = {a: float(self.illegal_reward or 0.0) if a == offender else 0.0 for a in agents}
        self.agents = []
        infos = {a: {"illegal_action": str(error)} if a == offender else {} for a in agents}
        return (
            observations,
            rewards,
            dict.fromkeys(agents, True),
            dict.fromkeys(agents, False),
            infos,
        )

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(
    game: str | Game = "abstrac", illegal_reward: float = -1.0, **kwargs: Any
) -> ParallelEnv:
    """:class:`parallel_raw_env` where an illegal action ends the game with
    ``illegal_reward`` for the seat that gave it (see its docstring)."""
    return parallel_raw_env(game, illegal_reward=illegal_reward, **kwargs)


class _Forwarded:
    """An attribute a wrapper reads from the environment it wraps, as PettingZoo's
    ``BaseWrapper.__getattr__`` does, but found by the normal look-up: ``__getattr__`` runs
    only after that look-up has failed, and each failure makes an ``AttributeError`` and
    its message, at each of the three wrappers of :func:`env` (PettingZoo's loop reads
    ``agent_selection``, ``terminations``, ``rewards`` ... through them some twenty times a
    turn: about half the turn's time). A non-data descriptor: an attribute set on the
    wrapper itself still comes first, as before; and a failure still ends in the wrapper's
    own ``__getattr__``, with its error."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, wrapper: Any, owner: type | None = None) -> Any:
        if wrapper is None:
            return self
        return getattr(wrapper.env, self.name)


class _ForwardedAfterReset(_Forwarded):
    """:class:`_Forwarded` for ``OrderEnforcingWrapper``: before ``reset()`` its look-up
    fails, and the wrapper's ``__getattr__`` raises its own error ("cannot be accessed
    before reset")."""

    __slots__ = ()

    def __get__(self, wrapper: Any, owner: type | None = None) -> Any:
        if wrapper is None:
            return self
        if not wrapper._has_reset:
            raise AttributeError(self.name)
        return getattr(wrapper.env, self.name)


#: What PettingZoo's AEC loop and wrappers read through the wrappers at every turn.
_FORWARDED = (
    "agent_selection",
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "_cumulative_rewards",
)


class _TerminateIllegal(wrappers.TerminateIllegalWrapper[str, dict[str, np.ndarray], int]):
    """PettingZoo's ``TerminateIllegalWrapper``, reading the wrapped env's attributes
    through :class:`_Forwarded` (the same behaviour)."""


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper[str, dict[str, np.ndarray], int]):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading through :class:`_Forwarded`."""


class _OrderEnforcing(wrappers.OrderEnforcingWrapper[str, dict[str, np.ndarray], int]):
    """PettingZoo's ``OrderEnforcingWrapper``, reading through
    :class:`_ForwardedAfterReset` (the same errors before ``reset()``)."""

    def __str__(self) -> str:
        return str(self.env)  # as the base class names itself (it tests its exact class)


for _name in _FORWARDED:
    setattr(_TerminateIllegal, _name, _Forwarded(_name))
    setattr(_AssertOutOfBounds, _name, _Forwarded(_name))
    setattr(_OrderEnforcing, _name, _ForwardedAfterReset(_name))


def env(game: str | Game = "abstrac", illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """``raw_env`` in PettingZoo's classic wrapper stack (see the module docstring): its
    three wrappers, each reading the attributes of the env it wraps without failing a
    look-up first (:class:`_Forwarded`)."""
    e: AECEnv = raw_env(game, **kwargs)
    e = _TerminateIllegal(e, illegal_reward=illegal_reward)
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


def env_id(game: str) -> str:
    """The PettingZoo registry id of a game, e.g. ``cardhall/Abstrac-v0``."""
    title = game_class(game).title.replace(" ", "")
    return f"cardhall/{title}-v{VERSION}"


def register_all() -> list[str]:
    """Register every cardhall game with ``pettingzoo.make`` (idempotent)."""
    import pettingzoo

    ids = []
    for name in game_names():
        eid = env_id(name)
        if eid not in pettingzoo.aec_registry:
            pettingzoo.register("aec", eid, entry_point=f"{__name__}:env", kwargs={"game": name})
        if eid not in pettingzoo.parallel_registry:
            pettingzoo.register(
                "parallel", eid, entry_point=f"{__name__}:parallel_env", kwargs={"game": name}
            )
        ids.append(eid)
    return ids


register_all()
