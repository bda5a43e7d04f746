"""Gymnasium: one seat of a cardhall game against registered bots, alone or N at a time.

:class:`BotEnv` is a single-agent ``gymnasium.Env``: the learner holds one seat, and the
other seats are played by bots of any registered level (``"random"``, ``"heuristic"``,
``"ismcts:iterations=50"``, ...) or by any :class:`~cardhall.bots.Bot` object, such as a
:class:`PolicyBot` playing a learned policy (self-play). :class:`BotVectorEnv` steps N such
games in one process with Gymnasium's vector API (batched arrays, next-step autoreset),
without one Python environment object per game.

>>> from cardhall.interop.gym import BotEnv
>>> env = BotEnv("yamiro", players=2, opponents="heuristic")
>>> obs, info = env.reset(seed=7)
>>> sorted(obs), int(obs["action_mask"].sum())      # four cards in hand: four plays
(['action_mask', 'observation'], 4)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
>>> terminated, truncated
(False, False)

Conventions (those of :mod:`cardhall.interop.pettingzoo`): observations are
``{"observation": Box(0, 1, float32), "action_mask": Box(0, 1, int8)}`` (the observation
tensor of the learner's view, or its information state with
``observation="information_state"``); actions are the game's action ids; the reward is the
learner's payoff when the game ends (normalised into [-1, 1] with ``normalize=True``),
0 before; ``terminated`` when the game ends by its rules, ``truncated`` when it was
stopped before its natural end (the decision cap, or a limit such as Getha's deal
limit). ``reset(seed=...)`` seeds the deal and every bot; ``info["action_mask"]`` and
``action_masks()`` give the mask too (the convention of sb3-contrib's MaskablePPO). An
illegal action raises :class:`~cardhall.errors.IllegalActionError` and changes nothing.

Registered with Gymnasium as ``cardhall/<Title>-v0`` after ``import
cardhall.interop.gym``: ``gymnasium.make("cardhall/Yamiro-v0", opponents="heuristic")``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from cardhall.bots import Bot, make_bot, table_world
from cardhall.engine import Action, Game, Legal, Observation, Sampler, State
from cardhall.errors import IllegalActionError, OptionError
from cardhall.interop import ActionSpace, acting_seat
from cardhall.interop.spec import Research, config_key, research, research_game
from cardhall.registry import game_class, game_names

__all__ = ["BotEnv", "BotVectorEnv", "Opponents", "PolicyBot", "Table", "env_id", "register_all"]

VERSION = 0

#: A policy for :class:`PolicyBot`: (observation tensor, action mask) -> an action id.
Policy = Callable[[np.ndarray, np.ndarray], int]
#: The other seats of a :class:`BotEnv`: one bot spec or :class:`Bot` for all, or one each.
Opponents = str | Bot | Sequence[str | Bot]


class PolicyBot(Bot):
    """A learned policy as a bot: it sees what a :class:`BotEnv` learner in its seat would
    see (the observation tensor of its view, or its information state, and the action
    mask) and plays the action id ``policy`` returns. Give it to :class:`BotEnv` as an
    opponent for self-play, or seat it anywhere a bot plays.

    >>> from cardhall.registry import make_game
    >>> game = make_game("yamiro", 2)
    >>> lowest = PolicyBot(game, lambda obs, mask: int(mask.argmax()))
    >>> state = game.new_state(seed=1)
    >>> str(lowest.choose(state, 0)) == str(min(state.legal_actions(0), key=game.action_id))
    True

    A policy that names an action the mask does not allow raises
    :class:`~cardhall.errors.IllegalActionError`.
    """

    level = "policy"

    def __init__(
        self,
        game: Game,
        policy: Policy,
        observation: str = "observation",
        max_decisions: int | None = None,
    ) -> None:
        super().__init__(game)
        if observation not in ("observation", "information_state"):
            raise OptionError(
                f"observation must be 'observation' or 'information_state', not {observation!r}"
            )
        self.policy = policy
        self.kind = observation
        self.max_decisions = max_decisions
        self.space = ActionSpace(game)

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        # The encoders read a state: one world of the sampler, which shares with every
        # other everything the seat may know (so the tensors are those of the real state).
        seat = sampler.seat
        world = table_world(sampler)
        encoder = research(sampler.game, self.max_decisions).encoder
        if self.kind == "observation":
            obs = encoder.observation(world, seat)
        else:
            obs = encoder.information_state(world, seat)
        ids = self.space.legal(world, seat)
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[list(ids)] = 1
        action_id = self.policy(obs, mask)
        if action_id not in ids:
            raise IllegalActionError(
                seat, action_id, f"the policy chose an action that is not legal: {sorted(ids)}"
            )
        return ids[int(action_id)]


class Table:
    """One game of the learner against bots: the engine state, the bots, and the
    learner's observations (the part :class:`BotEnv` and :class:`BotVectorEnv` share)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        opponents: Opponents,
        max_decisions: int | None,
        normalize: bool,
        observation: str,
    ) -> None:
        if not 0 <= seat < game.players:
            raise OptionError(f"seat must be 0..{game.players - 1}, not {seat}")
        if observation not in ("observation", "information_state"):
            raise OptionError(
                f"observation must be 'observation' or 'information_state', not {observation!r}"
            )
        others = [s for s in range(game.players) if s != seat]
        given: list[str | Bot] = (
            [opponents] * len(others) if isinstance(opponents, str | Bot) else list(opponents)
        )
        if len(given) != len(others):
            raise OptionError(f"{len(given)} opponents given for {len(others)} other seats")
        from cardhall.analysis.runner import BotSpec

        self.specs: dict[int, BotSpec | Bot] = {}
        for s, spec in zip(others, given, strict=True):
            if isinstance(spec, Bot):
                if config_key(spec.game) != config_key(game):
                    raise OptionError(f"{spec!r} was built for another game or configuration")
                self.specs[s] = spec
            else:
                parsed = self.specs[s] = BotSpec.parse(spec)
                make_bot(game, parsed.level, seed=0, **dict(parsed.params))  # fail early
        self.game = game
        self.seat = seat
        self.research: Research = research(game, max_decisions)
        self.encoder = self.research.encoder
        self.normalize = normalize
        self.kind = observation
        self.size = (
            self.encoder.observation_size
            if observation == "observation"
            else self.encoder.information_state_size
        )
        self.space = ActionSpace(game)
        self.actions = self.space.size
        self.state: State | None = None
        self.bots: dict[int, Bot] = {}

    def reset(self, rng: np.random.Generator) -> None:
        """A new game, its deal and every bot seeded from ``rng``; the bots play until it
        is the learner's turn (or the game is finished)."""
        seed = int(rng.integers(0, 2**62))
        self.state = self.game.new_state(seed=seed)
        self.bots = {
            s: (
                spec
                if isinstance(spec, Bot)
                else make_bot(self.game, spec.level, seed=f"{seed}/{s}", **dict(spec.params))
            )
            for s, spec in self.specs.items()
        }
        self._bots_play()

    def _bots_play(self) -> None:
        st = self.state
        assert st is not None
        r = self.research
        while not r.finished(st):
            seat = acting_seat(st)
            assert seat is not None
            if seat == self.seat:
                return
            bot = self.bots[seat]
            st.apply(seat, bot.choose(st, seat))

    def legal(self) -> dict[int, Action]:
        """The learner's legal actions by id (none when the game is finished)."""
        st = self.state
        assert st is not None
        if self.research.finished(st):
            return {}
        return self.space.legal(st, self.seat)

    def step(self, action: Any) -> tuple[float, bool, bool]:
        """Play the learner's action, then the bots; (reward, terminated, truncated)."""
        st = self.state
        if st is None:
            raise RuntimeError("call reset() before step()")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(self.seat, action, "an action must be an integer id")
        legal = self.legal()
        if int(action) not in legal:
            if self.research.finished(st):
                raise IllegalActionError(self.seat, action, "the game is finished: reset()")
            raise IllegalActionError(
                self.seat, action, f"not legal now; legal ids: {sorted(legal)[:12]}"
            )
        st.apply(self.seat, legal[int(action)])
        self._bots_play()
        payoffs = self.research.payoffs(st, self.normalize)
        if payoffs is None:
            return 0.0, False, False
        truncated = self.research.truncated(st)
        return payoffs[self.seat], not truncated, truncated

    def observe(self, obs: np.ndarray, mask: np.ndarray) -> None:
        """Write the learner's tensor and action mask into ``obs`` and ``mask``."""
        st = self.state
        assert st is not None
        if self.kind == "observation":
            self.encoder.observation(st, self.seat, out=obs)
        else:
            self.encoder.information_state(st, self.seat, out=obs)
        mask.fill(0)
        for i in self.legal():
            mask[i] = 1

    def payoffs(self) -> tuple[float, ...] | None:
        assert self.state is not None
        return self.research.payoffs(self.state, self.normalize)


def _spaces(table: Table) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(table.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(table.actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(table.actions)


def _table(
    game: str | Game,
    players: int | None,
    seat: int,
    opponents: Opponents,
    max_decisions: int | None,
    normalize: bool,
    observation: str,
    options: dict[str, Any],
) -> Table:
    if isinstance(game, Game):
        if players is not None or options:
            raise OptionError("pass options to make_game, not with a Game object")
        built = game
    else:
        built = research_game(game, players, **options)
    return Table(built, seat, opponents, max_decisions, normalize, observation)


class BotEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """One seat of a cardhall game against bots, as a Gymnasium environment (see the
    module docstring). ``opponents`` is a bot spec (or a :class:`Bot` object, used as it
    is in every game) for every other seat, or one per other seat in seat order."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str | Game = "abstrac",
        players: int | None = None,
        seat: int = 0,
        opponents: Opponents = "random",
        max_decisions: int | None = None,
        normalize: bool = False,
        observation: str = "observation",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.table = _table(
            game, players, seat, opponents, max_decisions, normalize, observation, options
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        obs_space, action_space = _spaces(self.table)
        self.observation_space = obs_space  # type: ignore[assignment]
        self.action_space = action_space  # type: ignore[assignment]
        self._obs = np.zeros(self.table.size, dtype=np.float32)
        self._mask = np.zeros(self.table.actions, dtype=np.int8)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def engine_state(self) -> State | None:
        return self.table.state

    def _observation(self) -> dict[str, np.ndarray]:
        self.table.observe(self._obs, self._mask)
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.table.reset(self.np_random)
        obs = self._observation()
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated = self.table.step(action)
        obs = self._observation()
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        if terminated or truncated:
            info["payoffs"] = self.table.payoffs()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (sb3-contrib's MaskablePPO asks this)."""
        self.table.observe(self._obs, self._mask)
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        view = self.table.state.view(self.table.seat)
        return f"{self.game.title}, seat {self.table.seat + 1}: {view.get('legal', [])}"


class BotVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` games of :class:`BotEnv` stepped together in one process (Gymnasium's
    vector API, next-step autoreset): observations are ``{"observation": (N, size),
    "action_mask": (N, actions)}`` arrays, actions an ``(N,)`` array of ids. A game that
    finished at the previous step is reset by this one (its action is ignored, its
    reward 0). ``infos`` holds ``payoffs`` (``(N, players)``, NaN until a game finishes)
    with the mask ``_payoffs``."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str | Game = "abstrac",
        num_envs: int = 8,
        players: int | None = None,
        seat: int = 0,
        opponents: Opponents = "random",
        max_decisions: int | None = None,
        normalize: bool = False,
        observation: str = "observation",
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise OptionError(f"num_envs must be >= 1, not {num_envs}")
        self.num_envs = num_envs
        self.tables = [
            _table(game, players, seat, opponents, max_decisions, normalize, observation, options)
            for _ in range(num_envs)
        ]
        first = self.tables[0]
        self.single_observation_space, self.single_action_space = _spaces(first)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(num_envs, first.size), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(num_envs, first.actions), dtype=np.int8),
            }
        )
        self.action_space = spaces.MultiDiscrete([first.actions] * num_envs)
        self._obs = np.zeros((num_envs, first.size), dtype=np.float32)
        self._mask = np.zeros((num_envs, first.actions), dtype=np.int8)
        self._done = np.zeros(num_envs, dtype=bool)
        self._rngs: list[np.random.Generator] = []

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise OptionError(f"{len(seed)} seeds for {self.num_envs} games")
            self._rngs = [seeding.np_random(s)[0] for s in seed]
        elif seed is not None or not self._rngs:
            root, _ = seeding.np_random(seed)
            self._rngs = [
                np.random.default_rng(int(root.integers(0, 2**62))) for _ in range(self.num_envs)
            ]
        for i, table in enumerate(self.tables):
            table.reset(self._rngs[i])
            table.observe(self._obs[i], self._mask[i])
        self._done[:] = False
        return self._batch(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise OptionError(f"actions must have shape ({self.num_envs},), not {actions.shape}")
        if not self._rngs:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        players = self.tables[0].game.players
        payoffs = np.full((n, players), np.nan)
        finished = np.zeros(n, dtype=bool)
        for i, table in enumerate(self.tables):
            if self._done[i]:
                table.reset(self._rngs[i])
                self._done[i] = False
            else:
                rewards[i], terminated[i], truncated[i] = table.step(int(actions[i]))
                if terminated[i] or truncated[i]:
                    self._done[i] = True
                    pay = table.payoffs()
                    assert pay is not None
                    payoffs[i] = pay
                    finished[i] = True
            table.observe(self._obs[i], self._mask[i])
        infos: dict[str, Any] = {}
        if finished.any():
            infos = {"payoffs": payoffs, "_payoffs": finished}
        return self._batch(), rewards, terminated, truncated, infos

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def close_extras(self, **kwargs: Any) -> None:
        self.tables = []


def env_id(game: str) -> str:
    """The Gymnasium registry id of a game, e.g. ``cardhall/Yamiro-v0``."""
    return f"cardhall/{game_class(game).title.replace(' ', '')}-v{VERSION}"


def register_all() -> list[str]:
    """Register every game with ``gymnasium.make`` and ``gymnasium.make_vec``."""
    ids = []
    for name in game_names():
        eid = env_id(name)
        if eid not in gymnasium.registry:
            gymnasium.register(
                eid,
                entry_point=f"{__name__}:BotEnv",
                vector_entry_point=f"{__name__}:BotVectorEnv",
                kwargs={"game": name},
            )
        ids.append(eid)
    return ids


register_all()
