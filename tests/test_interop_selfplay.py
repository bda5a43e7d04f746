"""The training example (``scripts/selfplay_yamiro.py``: sb3-contrib's MaskablePPO by
self-play), smoke-tested: a tiny run trains end to end against its own snapshot and is
measured against the bots; the snapshot opponent follows the learner; a policy seated as a
bot plays only legal actions, and a wrong one is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import selfplay_yamiro as sp

from cardhall.errors import IllegalActionError, OptionError
from cardhall.interop.gym import BotEnv, PolicyBot
from cardhall.interop.spec import research_game
from cardhall.registry import make_game


def test_a_tiny_run_trains_and_evaluates(tmp_path: Path) -> None:
    lines: list[str] = []
    model, curve = sp.train(
        timesteps=256, envs=2, n_steps=64, eval_every=1, eval_games=4, progress=False,
        log=lines.append,
    )  # fmt: skip
    assert [p["rollout"] for p in curve] == [0, 1, 2] and len(lines) == 3
    assert [p["timesteps"] for p in curve] == [0, 128, 256]
    assert curve[-1]["games"] >= 2  # a two-player Yamiro game is 32 learner decisions
    for point in curve:
        for level in sp.LEVELS:
            assert 0.0 <= point[level]["score"] <= 1.0
            assert -1.0 <= point[level]["payoff"] <= 1.0
    text = sp.table(curve).splitlines()
    assert len(text) == 5 and text[0].startswith("| self-play training games | 0 | ")
    assert text[2].count("|") == len(curve) + 2  # every point of a short curve
    sp.plot(curve, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the trained model plays legal moves through BotEnv, from either seat
    env = sp.RankPlay(BotEnv(research_game(sp.GAME, 2), seat=1, opponents="heuristic"))
    obs, _ = env.reset(seed=5)
    for _ in range(10):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        obs, _, terminated, truncated, _ = env.step(int(action))
        assert not (terminated or truncated)


def test_the_snapshot_opponent_follows_the_learner() -> None:
    from sb3_contrib import MaskablePPO

    game = research_game(sp.GAME, 2)
    env = sp.RankPlay(BotEnv(game, normalize=True))
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=1, device="cpu")
    snapshot = sp.Snapshot(sp.by_rank_matrix(game))
    with pytest.raises(RuntimeError, match="refresh"):
        snapshot(np.zeros(1236, dtype=np.float32), np.ones(96))
    snapshot.refresh(model.policy)
    assert snapshot.policy is not model.policy  # a frozen copy, not the learner itself
    with torch.no_grad():
        for p in model.policy.parameters():
            p.add_(1.0)
    before = [p.clone() for p in snapshot.policy.parameters()]
    assert not all(
        torch.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True)
    )
    snapshot.refresh(model.policy)
    assert all(
        torch.equal(a, b)
        for a, b in zip(snapshot.policy.parameters(), model.policy.parameters(), strict=True)
    )


def test_a_policy_bot_plays_the_legal_action_its_policy_names() -> None:
    game = make_game("yamiro", 2)
    seen: list[tuple[int, int]] = []

    def highest(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append((obs.size, int(mask.sum())))
        return int(np.flatnonzero(mask)[-1])

    bot = PolicyBot(game, highest)
    state = game.new_state(seed=2)
    action = bot.choose(state, 0)
    assert str(action) == str(max(state.legal_actions(0), key=game.action_id))
    size = BotEnv(game).observation_space["observation"].shape[0]
    assert seen == [(size, len(state.legal_actions(0)))]
    with pytest.raises(IllegalActionError, match="not legal"):
        PolicyBot(game, lambda obs, mask: int(np.flatnonzero(mask == 0)[0])).choose(state, 0)
    with pytest.raises(OptionError, match="observation must be"):
        PolicyBot(game, highest, observation="everything")


def test_a_policy_bot_as_an_opponent_plays_whole_games() -> None:
    game = research_game(sp.GAME, 2)
    rng = np.random.default_rng(0)
    calls = [0]

    def random_policy(obs: np.ndarray, mask: np.ndarray) -> int:
        calls[0] += 1
        return int(rng.choice(np.flatnonzero(mask)))

    env = BotEnv(game, seat=0, opponents=PolicyBot(game, random_policy), normalize=True)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
        done = terminated or truncated
    assert calls[0] == 32 and info["payoffs"][0] == reward  # the bot played every turn of its seat
    with pytest.raises(OptionError, match="another game"):
        BotEnv(game, opponents=PolicyBot(make_game("yamiro", 4), random_policy))


def test_capture_shaping_pays_the_game_payoff_sooner() -> None:
    game = research_game(sp.GAME, 2)
    for seat in (0, 1):
        env = sp.CaptureShaping(sp.RankPlay(BotEnv(game, seat=seat, normalize=True)))
        env.reset(seed=seat)
        rewards: list[float] = []
        done = False
        while not done:
            _, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))
            rewards.append(float(reward))
            done = terminated or truncated
        assert len(rewards) == 32 and sum(1 for r in rewards[:-1] if r) > 0  # paid on the way
        assert sum(rewards) == pytest.approx(info["payoffs"][seat])
        assert env.action_masks().sum() == 0  # the game is over: nothing is legal


def test_a_rank_action_plays_a_legal_card_of_that_rank() -> None:
    game = research_game(sp.GAME, 2)
    env = sp.RankPlay(BotEnv(game, seat=0, opponents="random"))
    obs, _ = env.reset(seed=4)
    assert obs.shape == env.observation_space.shape == (312,)
    for _ in range(8):
        bot_env = env.unwrapped
        assert isinstance(bot_env, BotEnv)
        state = bot_env.engine_state
        assert state is not None
        hand = list(state.legal_actions(0))
        ranks = env.action_masks()
        assert ranks.shape == (12,)
        assert set(np.flatnonzero(ranks)) == {game.action_id(a) % 12 for a in hand}
        # the observation by rank: the hand's plane (the last block) counts each rank
        counts = np.bincount([game.action_id(a) % 12 for a in hand], minlength=12)
        assert np.allclose(obs[-12:] * 8, counts)
        rank = int(np.flatnonzero(ranks)[-1])
        before = len(state.history)
        obs, *_ = env.step(rank)
        mine = state.history[before]
        assert mine[0] == 0 and game.action_id(mine[1]) % 12 == rank
