#!/usr/bin/env python
"""Self-play policy gradient on two-player Yamiro, measured against the random and
heuristic bots: the training example of docs/interop.md.

    .venv/bin/python scripts/selfplay_yamiro.py --iterations 300 --out docs/interop

NumPy only (no deep-learning library): a linear softmax policy over the twelve ranks
(in Yamiro a card's suit never matters, so the policy picks a rank and plays any card of
it), fed 38 features read off the observation tensor by block name (the seat's hand,
what each side played this hand, by rank; how far the hand has gone). REINFORCE with the
reward to go: each decision is credited with the capture margin the seat gained from that
point to the end of the game (read off the captures planes), in units of the payoff
range (``normalize=True``). Both seats share the policy (self-play) through the
PettingZoo AEC environment; every ``--eval-every`` iterations the greedy policy plays
``--eval-games`` games against each bot in both seats through ``BotVectorEnv``.

Writes ``selfplay-yamiro.json`` (the curve) and ``selfplay-yamiro.png`` to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cardhall.games.yamiro import COUNT_VALUE
from cardhall.interop.gym import BotVectorEnv
from cardhall.interop.pettingzoo import raw_env
from cardhall.interop.tensor import Encoder

RANK = np.arange(96) % 12
VALUE = np.array(COUNT_VALUE, dtype=np.float64)
Features = Callable[[np.ndarray], np.ndarray]


def features(enc: Encoder) -> tuple[Features, Callable[[np.ndarray], np.ndarray]]:
    """The policy's features, and each seat's capture margin, read off observation
    tensors (a batch of rows) by the names of their blocks."""
    pub, prv = enc.public, enc.private
    cut = pub.size

    def block(name: str, private: bool = False) -> slice:
        b = (prv if private else pub)[name]
        base = cut if private else 0
        return slice(base + b.start, base + b.stop)

    hand, seat = block("hand", True), block("seat", True)
    by0, by1, on = block("played.by_0"), block("played.by_1"), block("played.on_table")
    cap0, cap1 = block("captures.side_0"), block("captures.side_1")
    ranks = np.stack([r == RANK for r in range(12)], axis=1).astype(np.float64)  # (96, 12)

    def feats(obs: np.ndarray) -> np.ndarray:
        me = obs[:, seat].argmax(axis=1)[:, None] == 0
        mine = np.where(me, obs[:, by0], obs[:, by1])
        theirs = np.where(me, obs[:, by1], obs[:, by0])
        plays = obs[:, on].sum(axis=1, keepdims=True) / 8
        return np.concatenate(
            [obs[:, hand] @ ranks, mine @ ranks, theirs @ ranks, plays, np.ones_like(plays)],
            axis=1,
        )

    def margin(obs: np.ndarray) -> np.ndarray:
        me = obs[:, seat].argmax(axis=1) == 0
        diff = (obs[:, cap0] - obs[:, cap1]) @ VALUE
        return np.where(me, diff, -diff) / 256  # the payoff range of a margin: 2 x 128

    return feats, margin


def rank_mask(mask: np.ndarray) -> np.ndarray:
    """Which ranks the legal cards hold (a batch of action masks)."""
    return np.stack([mask[:, r == RANK].max(axis=1) for r in range(12)], axis=1)


def card_of(mask: np.ndarray, rank: int) -> int:
    return int(np.flatnonzero((mask > 0) & (rank == RANK))[0])


class Policy:
    """Linear softmax over the legal ranks, trained by Adam."""

    def __init__(self, n_features: int) -> None:
        self.w = np.zeros((12, n_features))
        self._m = np.zeros_like(self.w)
        self._v = np.zeros_like(self.w)
        self._t = 0

    def probs(self, f: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = np.where(legal > 0, f @ self.w.T, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def update(
        self, f: np.ndarray, legal: np.ndarray, a: np.ndarray, adv: np.ndarray, lr: float
    ) -> None:
        g = -self.probs(f, legal)
        g[np.arange(len(a)), a] += 1.0
        grad = (g * adv[:, None]).T @ f / len(a)  # gradient of mean(adv * log p(a))
        self._t += 1
        self._m = 0.9 * self._m + 0.1 * grad
        self._v = 0.999 * self._v + 0.001 * grad * grad
        m = self._m / (1 - 0.9**self._t)
        v = self._v / (1 - 0.999**self._t)
        self.w += lr * m / (np.sqrt(v) + 1e-8)


def self_play(
    env: Any, policy: Policy, feats: Features, margin: Any, rng: np.random.Generator, games: int
) -> tuple[np.ndarray, ...]:
    """Play ``games`` games against itself; every decision with its reward to go."""
    rows: list[tuple[np.ndarray, np.ndarray, int, float]] = []
    for _ in range(games):
        env.reset(seed=int(rng.integers(1 << 30)))
        steps: dict[str, list[tuple[np.ndarray, np.ndarray, int, float]]] = {
            a: [] for a in env.possible_agents
        }
        final: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                final[agent] = reward  # the seat's payoff, a share of the margin
                env.step(None)
                continue
            row = obs["observation"][None]
            f = feats(row)
            legal = rank_mask(obs["action_mask"][None])
            rank = int(rng.choice(12, p=policy.probs(f, legal)[0]))
            steps[agent].append((f[0], legal[0], rank, float(margin(row)[0])))
            env.step(card_of(obs["action_mask"], rank))
        for agent, taken in steps.items():
            rows.extend((f, legal, rank, final[agent] - before) for f, legal, rank, before in taken)
    f, legal, ranks, togo = zip(*rows, strict=True)
    return np.array(f), np.array(legal), np.array(ranks), np.array(togo)


def evaluate(
    policy: Policy, feats: Features, level: str, games: int, seed: int
) -> dict[str, float]:
    """The greedy policy against ``level`` bots, half the games in each seat: its score
    rate (wins plus half the draws) and mean normalised payoff."""
    payoffs: list[float] = []
    for seat in (0, 1):
        n = games // 2
        vec = BotVectorEnv(
            "yamiro", num_envs=n, players=2, seat=seat, opponents=level, normalize=True
        )
        obs, _ = vec.reset(seed=seed + seat)
        done = np.zeros(n, dtype=bool)
        pay = np.zeros(n)
        while not done.all():
            masks = obs["action_mask"]
            live = masks.any(axis=1)
            actions = np.zeros(n, dtype=np.int64)
            if live.any():
                p = policy.probs(feats(obs["observation"][live]), rank_mask(masks[live]))
                for j, i in enumerate(np.flatnonzero(live)):
                    actions[i] = card_of(masks[i], int(p[j].argmax()))
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


def train(
    iterations: int = 300,
    games: int = 32,
    lr: float = 0.03,
    eval_every: int = 25,
    eval_games: int = 400,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Train; return the curve (one point per evaluation, the first before training)."""
    rng = np.random.default_rng(seed)
    env = raw_env("yamiro", players=2, normalize=True)
    feats, margin = features(env.research.encoder)
    policy = Policy(38)
    curve: list[dict[str, Any]] = []
    start = time.process_time()
    for it in range(iterations + 1):
        if it % eval_every == 0 or it == iterations:
            point = {
                "iteration": it,
                "games": it * games,
                "cpu_seconds": round(time.process_time() - start, 1),
                "random": evaluate(policy, feats, "random", eval_games, 1000),
                "heuristic": evaluate(policy, feats, "heuristic", eval_games, 2000),
            }
            curve.append(point)
            log(json.dumps(point))
        if it < iterations:
            f, legal, ranks, togo = self_play(env, policy, feats, margin, rng, games)
            policy.update(f, legal, ranks, togo, lr)
    return curve


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [p["games"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    for level, colour in (("random", "#1b7837"), ("heuristic", "#762a83")):
        ax.plot(
            x,
            [p[level]["score"] for p in curve],
            marker="o",
            color=colour,
            label=f"against the {level} bot",
        )
    ax.axhline(0.5, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlabel("self-play games")
    ax.set_ylabel("score rate (wins + half the draws)")
    ax.set_ylim(0, 1)
    ax.set_title("Yamiro, two players: linear policy trained by self-play")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=300)
    p.add_argument("--games", type=int, default=32, help="self-play games per iteration")
    p.add_argument("--lr", type=float, default=0.03)
    p.add_argument("--eval-every", type=int, default=25)
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("docs/interop"))
    args = p.parse_args()
    curve = train(args.iterations, args.games, args.lr, args.eval_every, args.eval_games, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "selfplay-yamiro.json").write_text(json.dumps(curve, indent=1) + "\n")
    plot(curve, args.out / "selfplay-yamiro.png")


if __name__ == "__main__":
    main()
