"""Gymnasium: one seat against bots (``BotEnv``), and N games in one process
(``BotVectorEnv``), for every registered game."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import (
    check_reset_options,
    check_reset_return_type,
    check_reset_seed_determinism,
)

from cardhall.errors import IllegalActionError, OptionError
from cardhall.interop.gym import BotEnv, BotVectorEnv, env_id
from cardhall.registry import game_names

#: A short configuration of every game (Getha and Somachi kept to one deal or hand).
SHORT: dict[str, dict[str, Any]] = {
    "abstrac": {},
    "getha": {"players": 3, "chips": 10, "max_deals": 2},
    "somachi": {"players": 2, "hands_per_game": 1, "max_turns_per_hand": 6},
    "yamiro": {"players": 2},
}


def _play(env: Any, rng: np.random.Generator) -> tuple[float, bool, bool, dict[str, Any]]:
    obs, info = env.reset(seed=int(rng.integers(1 << 30)))
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return total, terminated, truncated, info


def test_every_game_is_registered_and_checks_out() -> None:
    assert set(SHORT) == set(game_names())
    for name, options in SHORT.items():
        env = gymnasium.make(env_id(name), **options)  # with Gymnasium's passive checker
        total, terminated, truncated, info = _play(env, np.random.default_rng(1))
        assert terminated != truncated
        assert total == info["payoffs"][0]
        check_reset_return_type(env.unwrapped)
        check_reset_seed_determinism(env.unwrapped)
        check_reset_options(env.unwrapped)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_rewards_are_the_learners_payoffs_against_every_level(name: str) -> None:
    from cardhall.bots import bot_levels

    for level in [lv for lv in bot_levels(name) if lv in ("random", "heuristic")]:
        env = BotEnv(name, opponents=level, **SHORT[name])
        for seed in range(2):
            total, _, _, info = _play(env, np.random.default_rng(seed))
            assert total == info["payoffs"][env.table.seat]
            assert env.table.research.finished(env.engine_state)


def test_the_learner_may_sit_anywhere_and_only_acts_on_its_turn() -> None:
    env = BotEnv("yamiro", players=4, seat=2, opponents=["random", "heuristic", "random"])
    obs, _ = env.reset(seed=3)
    state = env.engine_state
    assert state is not None and min(state.actors()) == 2
    rng = np.random.default_rng(0)
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
        assert min(env.engine_state.actors()) == 2
    assert obs["action_mask"].sum() == 0  # finished: nothing is legal


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = BotEnv("yamiro", players=2)
    obs, _ = env.reset(seed=5)
    before = env.engine_state.digest()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, -1, 96, 1.5, None, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)  # type: ignore[arg-type]
    assert env.engine_state.digest() == before


def test_seeds_decide_everything_and_global_randomness_nothing() -> None:
    def trajectory() -> list[bytes]:
        env = BotEnv("somachi", opponents="heuristic", **SHORT["somachi"])
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(4)
        seen = [obs["observation"].tobytes()]
        while True:
            random.random()
            np.random.rand()
            obs, _, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            seen.append(obs["observation"].tobytes())
            if terminated or truncated:
                return seen

    assert trajectory() == trajectory()


def test_bad_options_are_rejected() -> None:
    with pytest.raises(OptionError, match="opponents"):
        BotEnv("yamiro", players=4, opponents=["random"])
    with pytest.raises(OptionError, match="seat"):
        BotEnv("yamiro", seat=2)
    with pytest.raises(OptionError, match="no 'grandmaster' bot"):
        BotEnv("yamiro", opponents="grandmaster")
    with pytest.raises(OptionError, match="observation"):
        BotEnv("yamiro", observation="everything")


def test_vector_env_matches_single_envs_with_autoreset() -> None:
    seeds = [3, 4, 5]
    vec = BotVectorEnv("abstrac", num_envs=3, opponents="heuristic")
    singles = [BotEnv("abstrac", opponents="heuristic") for _ in seeds]
    obs, _ = vec.reset(seed=seeds)
    single_obs = [env.reset(seed=s)[0] for env, s in zip(singles, seeds, strict=True)]
    rng = np.random.default_rng(0)
    done = [False] * 3
    episodes = 0
    for _ in range(60):
        for i in range(3):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        actions = np.array(
            [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        )
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        for i, env in enumerate(singles):
            if done[i]:  # next-step autoreset: this step reset the game
                single_obs[i], _ = env.reset()  # its generator goes on, as the vector's does
                done[i] = False
                assert rewards[i] == 0.0 and not terminated[i]
                continue
            single_obs[i], reward, term, trunc, info = env.step(int(actions[i]))
            assert rewards[i] == reward and terminated[i] == term and truncated[i] == trunc
            if term or trunc:
                done[i] = True
                episodes += 1
                assert infos["_payoffs"][i] and list(infos["payoffs"][i]) == list(info["payoffs"])
    assert episodes >= 3


def test_make_vec_builds_the_one_process_vector_env() -> None:
    vec = gymnasium.make_vec(
        env_id("yamiro"), num_envs=4, vectorization_mode="vector_entry_point", players=2
    )
    assert isinstance(vec.unwrapped, BotVectorEnv)
    obs, _ = vec.reset(seed=0)
    assert obs["observation"].shape == (4, vec.unwrapped.tables[0].size)
    assert obs["action_mask"].shape == (4, 96) and (obs["action_mask"].sum(axis=1) == 4).all()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(40):
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]]
        )
        obs, _rewards, terminated, truncated, _infos = vec.step(actions)
        finished += int(terminated.sum() + truncated.sum())
        assert vec.observation_space.contains(obs)
    assert finished == 4  # Yamiro takes 32 turns of a seat: every game ended once
    with pytest.raises(OptionError, match="shape"):
        vec.step(np.zeros(3, dtype=int))
