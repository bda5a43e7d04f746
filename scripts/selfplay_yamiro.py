#!/usr/bin/env python
"""Self-play PPO on two-player Yamiro with sb3-contrib's MaskablePPO, measured against the
random and heuristic bots: the training example of docs/interop.md.

    .venv/bin/python scripts/selfplay_yamiro.py --timesteps 200000 --out docs/interop

The learner is sb3-contrib's ``MaskablePPO`` (PPO that samples only legal actions, from
the action mask) with a small MLP, on ``cardhall.interop.gym.BotEnv``: half the training
games in each seat, against a :class:`~cardhall.interop.gym.PolicyBot` that plays a frozen
copy of the learner itself, refreshed after every rollout (self-play). An action is a rank
(in Yamiro a card's suit never matters: the wrapper plays a legal card of it). The reward
is the learner's payoff, normalised into [-1, 1], paid sooner by potential-based shaping
(the change of the capture margin each step; ``--no-shaping``: the payoff at the end).
Every ``--eval-every`` rollouts the greedy policy plays ``--eval-games`` games against
each bot (half in each seat, the same deals every time) through ``BotVectorEnv``.

Writes ``selfplay-yamiro.json`` (the curve and the settings) and ``selfplay-yamiro.png`` to
``--out``; a progress bar counts the training steps on stderr.

Needs the ``train`` extra (``pip install 'cardhall[train]'``): sb3-contrib and PyTorch; on
a machine without a GPU, install PyTorch's CPU build (a few hundred MB) rather than the
default CUDA build of several GB.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from cardhall.cli.progress import progress_bar
from cardhall.engine import Game
from cardhall.interop.gym import BotEnv, BotVectorEnv, PolicyBot
from cardhall.interop.spec import research, research_game
from cardhall.interop.tensor import card_labels

GAME = "yamiro"
LEVELS = ("random", "heuristic")
#: The rank of each card id (a card's index: its suit's twelve ranks, suit after suit).
RANK = np.arange(96) % 12


def rank_mask(mask: np.ndarray) -> np.ndarray:
    """Which ranks the legal cards hold (one action mask, or a batch of them)."""
    return np.asarray((mask.reshape(*mask.shape[:-1], 8, 12) > 0).any(axis=-2))


def by_rank_matrix(game: Game) -> np.ndarray:
    """The observation tensor by rank, as a matrix to multiply it with: each card plane
    (a block of 96 values, one per card, named in the encoder's layout) becomes 12 values,
    the mean over the eight suits; every other value stays as it is. What the learner
    sees then says all the card planes say about a game whose suits never matter, in a
    quarter of the size (1,236 values become 312)."""
    encoder = research(game).encoder
    cards = tuple(card_labels())
    columns: list[list[tuple[int, float]]] = []
    offset = 0
    for layout in (encoder.public, encoder.private):
        for block in layout.blocks:
            start = offset + block.start
            if block.labels == cards:
                columns.extend([(start + s * 12 + r, 1 / 8) for s in range(8)] for r in range(12))
            else:
                columns.extend([(start + i, 1.0)] for i in range(len(block)))
        offset += layout.size
    matrix = np.zeros((encoder.observation_size, len(columns)), dtype=np.float32)
    for j, column in enumerate(columns):
        for i, weight in column:
            matrix[i, j] = weight
    return matrix


def card_of(mask: np.ndarray, rank: int) -> int:
    """The action id of a legal card of ``rank`` (in Yamiro a suit never matters)."""
    return int(np.flatnonzero((mask > 0) & (rank == RANK))[0])


class Snapshot:
    """A frozen copy of the learner's policy, as a :class:`PolicyBot` policy: it samples
    an action from the masked distribution (self-play opponents explore too)."""

    def __init__(self, by_rank: np.ndarray) -> None:
        self.by_rank = by_rank
        self.policy: MaskableActorCriticPolicy | None = None

    def refresh(self, policy: MaskableActorCriticPolicy) -> None:
        if self.policy is None:
            self.policy = copy.deepcopy(policy)
            self.policy.set_training_mode(False)
        else:
            self.policy.load_state_dict(policy.state_dict())

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        if self.policy is None:
            raise RuntimeError("the snapshot has no policy yet: refresh() it first")
        rank, _ = self.policy.predict(
            obs @ self.by_rank, action_masks=rank_mask(mask), deterministic=False
        )
        return card_of(mask, int(rank))


class RankPlay(gymnasium.Wrapper[Any, Any, Any, Any]):
    """``BotEnv`` for MaskablePPO, by rank, since in Yamiro a card's suit never matters:
    the observation tensor with each card plane summed over the suits
    (:func:`by_rank_matrix`), and an action is a rank (``Discrete(12)``: the wrapper plays a
    legal card of it), masked by ``action_masks()``. Twelve actions instead of 96 card ids
    and a quarter of the inputs make the same game much quicker to learn."""

    def __init__(self, env: BotEnv) -> None:
        super().__init__(env)
        self.by_rank = by_rank_matrix(env.game)
        self.observation_space = gymnasium.spaces.Box(
            0.0, 1.0, shape=(self.by_rank.shape[1],), dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(12)
        self.mask: np.ndarray = np.zeros(96, dtype=np.int8)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.mask = obs["action_mask"]
        return obs["observation"] @ self.by_rank, info

    def step(self, action: int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(card_of(self.mask, int(action)))
        self.mask = obs["action_mask"]
        return obs["observation"] @ self.by_rank, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return rank_mask(self.mask)


class CaptureShaping(gymnasium.Wrapper[np.ndarray, int, np.ndarray, int]):
    """Potential-based reward shaping: each step pays the change in the learner's capture
    margin (in payoff units, public information), and the last step the rest of the game's
    payoff, so a game's rewards still add up to its payoff and the best policy is the
    same; the signal just comes sooner (the payoff alone arrives after 32 decisions)."""

    def __init__(self, env: gymnasium.Env[np.ndarray, int]) -> None:
        super().__init__(env)
        self.before = 0.0

    def potential(self) -> float:
        bot_env = self.env.unwrapped
        assert isinstance(bot_env, BotEnv)
        state, seat = bot_env.engine_state, bot_env.table.seat
        assert state is not None
        totals = state.capture_totals()
        return (totals[seat] - totals[1 - seat]) / 256  # a margin's range, as the payoff's

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.before = self.potential()
        return obs, info

    def step(self, action: int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            shaped = float(reward) - self.before
        else:
            now = self.potential()
            shaped, self.before = now - self.before, now
        return obs, shaped, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()


def evaluate(model: MaskablePPO, game: Game, level: str, games: int, seed: int) -> dict[str, float]:
    by_rank = by_rank_matrix(game)
    """The greedy policy against ``level`` bots, half the games in each seat: its score
    rate (wins plus half the draws) and mean normalised payoff."""
    payoffs: list[float] = []
    for seat in (0, 1):
        n = games // 2
        vec = BotVectorEnv(game, num_envs=n, seat=seat, opponents=level, normalize=True)
        obs, _ = vec.reset(seed=seed + seat)
        done = np.zeros(n, dtype=bool)
        pay = np.zeros(n)
        while not done.all():
            masks = obs["action_mask"]
            live = masks.any(axis=1) & ~done
            actions = np.zeros(n, dtype=np.int64)
            if live.any():
                ranks, _ = model.predict(
                    obs["observation"][live] @ by_rank,
                    action_masks=rank_mask(masks[live]),
                    deterministic=True,
                )
                for i, rank in zip(np.flatnonzero(live), ranks, strict=True):
                    actions[i] = card_of(masks[i], int(rank))
            obs, rewards, terminated, truncated, _ = vec.step(actions)
            ended = (terminated | truncated) & ~done
            pay[ended] = rewards[ended]
            done |= ended
        payoffs.extend(pay)
    arr = np.array(payoffs)
    return {
        "score": float((arr > 0).mean() + 0.5 * (arr == 0).mean()),
        "payoff": float(arr.mean()),
    }


class SelfPlay(BaseCallback):
    """After every rollout: refresh the opponents' snapshot, and every ``eval_every``
    rollouts measure the policy against the bots; counts the steps on a progress bar."""

    def __init__(
        self,
        snapshot: Snapshot,
        game: Game,
        eval_every: int,
        eval_games: int,
        advance: Callable[[int], None],
        log: Callable[[str], None],
    ) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.game = game
        self.eval_every = eval_every
        self.eval_games = eval_games
        self.advance = advance
        self.log = log
        self.rollouts = 0
        self.curve: list[dict[str, Any]] = []
        self.games = 0
        self.start = time.process_time()

    def measure(self) -> None:
        point: dict[str, Any] = {
            "rollout": self.rollouts,
            "timesteps": self.num_timesteps,
            "games": self.games,
            "cpu_seconds": round(time.process_time() - self.start, 1),
        }
        for k, level in enumerate(LEVELS):
            assert isinstance(self.model, MaskablePPO)
            point[level] = evaluate(self.model, self.game, level, self.eval_games, 1000 * (k + 1))
        self.curve.append(point)
        self.log(json.dumps(point))

    def _on_training_start(self) -> None:
        self.measure()

    def _on_step(self) -> bool:
        self.advance(self.training_env.num_envs)
        self.games += int(np.sum(self.locals["dones"]))
        return True

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        assert isinstance(self.model.policy, MaskableActorCriticPolicy)
        self.snapshot.refresh(self.model.policy)
        if self.rollouts % self.eval_every == 0:
            self.measure()

    def _on_training_end(self) -> None:
        if not self.curve or self.curve[-1]["rollout"] != self.rollouts:
            self.measure()


def train(
    timesteps: int = 200_000,
    envs: int = 8,
    n_steps: int = 256,
    eval_every: int = 5,
    eval_games: int = 200,
    seed: int = 0,
    lr: float = 1e-3,
    epochs: int = 10,
    shaping: bool = True,
    progress: bool = True,
    log: Callable[[str], None] = print,
) -> tuple[MaskablePPO, list[dict[str, Any]]]:
    """Train; return the model and the curve (one point per evaluation, the first before
    training, the last after it)."""
    torch.set_num_threads(1)
    game = research_game(GAME, 2)
    snapshot = Snapshot(by_rank_matrix(game))

    def make(i: int) -> Callable[[], gymnasium.Env[np.ndarray, int]]:
        def build() -> gymnasium.Env[np.ndarray, int]:
            opponent = PolicyBot(game, snapshot)
            env = RankPlay(BotEnv(game, seat=i % 2, opponents=opponent, normalize=True))
            return CaptureShaping(env) if shaping else env

        return build

    vec = DummyVecEnv([make(i) for i in range(envs)])
    vec.seed(seed)
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        learning_rate=lr,
        n_steps=n_steps,
        batch_size=128,
        n_epochs=epochs,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
    )
    snapshot.refresh(model.policy)
    with progress_bar("training steps", timesteps, enabled=progress) as bar:
        callback = SelfPlay(snapshot, game, eval_every, eval_games, bar.advance, log)
        model.learn(total_timesteps=timesteps, callback=callback)
    return model, callback.curve


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [p["games"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    for level, colour in zip(LEVELS, ("#1b7837", "#762a83"), strict=True):
        ax.plot(
            x,
            [p[level]["score"] for p in curve],
            marker="o",
            color=colour,
            label=f"against the {level} bot",
        )
    ax.axhline(0.5, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlabel("self-play training games")
    ax.set_ylabel("score rate (wins + half the draws)")
    ax.set_ylim(0, 1)
    ax.set_title("Yamiro, two players: MaskablePPO trained by self-play")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def table(curve: list[dict[str, Any]], columns: int = 8) -> str:
    """The curve as a Markdown table (docs/interop.md quotes it): about ``columns``
    evaluations, evenly spread, the first and the last included."""
    step = max(1, round((len(curve) - 1) / (columns - 1)))
    points = curve[::step] if (len(curve) - 1) % step == 0 else [*curve[::step], curve[-1]]
    rows = [
        ["self-play training games", *(f"{p['games']:,}" for p in points)],
        *(
            [f"score rate against the {level} bot", *(f"{p[level]['score']:.2f}" for p in points)]
            for level in LEVELS
        ),
        [
            "mean payoff against the heuristic bot (normalised)",
            *(f"{p['heuristic']['payoff']:.2f}" for p in points),
        ],
    ]
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(1, "|---" * len(rows[0]) + "|")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--timesteps", type=int, default=200_000, help="learner decisions to train on")
    p.add_argument("--envs", type=int, default=8, help="games played at once (half per seat)")
    p.add_argument("--n-steps", type=int, default=256, help="steps per game per rollout")
    p.add_argument("--eval-every", type=int, default=5, help="rollouts between evaluations")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    p.add_argument("--epochs", type=int, default=10, help="passes over each rollout")
    p.add_argument(
        "--no-shaping", dest="shaping", action="store_false", help="the payoff alone as reward"
    )
    p.add_argument("--out", type=Path, default=Path("docs/interop"))
    args = p.parse_args()
    start = time.process_time()
    _, curve = train(
        args.timesteps,
        args.envs,
        args.n_steps,
        args.eval_every,
        args.eval_games,
        args.seed,
        args.lr,
        args.epochs,
        args.shaping,
    )
    settings = {k: v for k, v in vars(args).items() if k != "out"}
    settings["cpu_seconds"] = round(time.process_time() - start, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"settings": settings, "curve": curve}
    (args.out / "selfplay-yamiro.json").write_text(json.dumps(report, indent=1) + "\n")
    plot(curve, args.out / "selfplay-yamiro.png")
    print(table(curve))


if __name__ == "__main__":
    main()
