"""Every registered game through RLCard (``cardhall.interop.rlcard``): ``rlcard.make``,
whole games with RLCard's own agents and ``tournament``, seeding, step_back, illegal and
raw actions, payoffs against the engine's."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import rlcard
from rlcard.agents import RandomAgent
from rlcard.utils import tournament

from cardhall.errors import IllegalActionError, NotationError, OptionError
from cardhall.interop.rlcard import env_id, register_all
from cardhall.registry import game_names

#: A short configuration per game (the tests play whole games).
SHORT: dict[str, dict[str, Any]] = {
    "abstrac": {},
    "getha": {"game_options": {"chips": 6, "max_deals": 2}},
    "somachi": {"game_options": {"hands_per_game": 1, "max_turns_per_hand": 6}},
    "yamiro": {},
}


def _make(name: str, seed: int = 1, **config: Any) -> Any:
    return rlcard.make(env_id(name), config={"seed": seed, **SHORT[name], **config})


class FirstLegal:
    """A raw agent (as RLCard's rule agents are): answers with the notation of the first
    legal action."""

    use_raw = True

    def step(self, state: dict[str, Any]) -> str:
        return str(state["raw_legal_actions"][0])

    def eval_step(self, state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return self.step(state), {}


def test_every_game_is_registered() -> None:
    assert register_all() == [env_id(n) for n in game_names()]
    assert sorted(SHORT) == sorted(game_names())


@pytest.mark.parametrize("name", sorted(SHORT))
def test_whole_games_with_rlcard_agents(name: str) -> None:
    env = _make(name, game_normalize=True)
    np.random.seed(0)  # RLCard's RandomAgent draws from the global generator
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    for _ in range(2):
        trajectories, payoffs = env.run(is_training=False)
        assert len(trajectories) == env.num_players
        assert all(-1.0 <= p <= 1.0 for p in payoffs)
        assert abs(sum(payoffs)) < 1e-9  # every short configuration here is zero-sum
        state = trajectories[0][0]
        assert state["obs"].shape == tuple(env.state_shape[0]) and state["obs"].dtype == np.float32
        assert set(state["legal_actions"]) <= set(range(env.num_actions))
    # rule-style agents that answer with notation (raw actions) play too
    env.set_agents([FirstLegal() for _ in range(env.num_players)])
    _, payoffs = env.run(is_training=False)
    assert len(payoffs) == env.num_players
    assert len(tournament(env, 2)) == env.num_players


def _play(env: Any, seed: int) -> list[Any]:
    rng = random.Random(seed)
    state, player = env.reset()
    seen = []
    while not env.is_over():
        action = rng.choice(list(state["legal_actions"]))
        seen.append((player, action, state["obs"].tobytes()))
        state, player = env.step(action)
    seen.append(tuple(env.get_payoffs()))
    return seen


@pytest.mark.parametrize("name", ["getha", "yamiro"])
def test_seeded_games_replay_whatever_the_global_generators_do(name: str) -> None:
    first = _play(_make(name, seed=5), 1)
    random.seed(99)
    np.random.seed(99)
    np.random.random(10)
    assert _play(_make(name, seed=5), 1) == first
    assert _play(_make(name, seed=6), 1) != first


def test_payoffs_and_players_follow_the_engine() -> None:
    env = _make("yamiro", game_num_players=4)
    state, player = env.reset()
    engine = env.game.state
    assert env.num_players == 4 and player == min(engine.actors())
    assert state["raw_obs"] == engine.view(player)
    assert state["raw_legal_actions"] == [str(a) for a in engine.legal_actions(player)]
    rng = random.Random(2)
    while not env.is_over():
        state, player = env.step(rng.choice(list(state["legal_actions"])))
    outcome = engine.outcome()
    assert list(env.get_payoffs()) == list(outcome.payoffs)
    views = env.get_perfect_information()["views"]
    assert views == [engine.view(s) for s in range(4)]


def test_step_back_restores_the_previous_state() -> None:
    env = _make("getha", allow_step_back=True)
    state, player = env.reset()
    before = (player, state["obs"].tobytes(), sorted(state["legal_actions"]))
    env.step(list(state["legal_actions"])[-1])
    back, again = env.step_back()
    assert (again, back["obs"].tobytes(), sorted(back["legal_actions"])) == before
    assert env.step_back() is False  # nothing before the first decision
    with pytest.raises(Exception, match="Step back is off"):
        _make("getha").step_back()


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = _make("yamiro")
    state, player = env.reset()
    history = list(env.game.state.history)
    illegal = next(i for i in range(env.num_actions) if i not in state["legal_actions"])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        env.step(env.num_actions + 3)
    with pytest.raises(NotationError, match="not a Railog card"):
        env.step("play nonsense", raw_action=True)
    with pytest.raises(IllegalActionError):
        env.step(True)
    assert env.game.state.history == history and env.get_player_id() == player
    with pytest.raises(RuntimeError, match="not over"):
        env.get_payoffs()


def test_bad_config_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown RLCard config key 'game_chips'"):
        rlcard.make(env_id("getha"), config={"game_chips": 5})
    with pytest.raises(OptionError):
        rlcard.make(env_id("getha"), config={"game_options": {"chips": -1}})
