"""The training example (``scripts/selfplay_yamiro.py``), smoke-tested: a couple of
iterations run end to end, the features read the right blocks of the observation, and a
policy-gradient step makes a rewarded choice more likely."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import selfplay_yamiro as sp

from cardhall.interop.pettingzoo import raw_env


def test_a_tiny_run_trains_and_evaluates(tmp_path: Path) -> None:
    curve = sp.train(iterations=2, games=2, eval_every=1, eval_games=4, log=lambda _: None)
    assert [p["iteration"] for p in curve] == [0, 1, 2]
    for point in curve:
        for level in ("random", "heuristic"):
            assert 0.0 <= point[level]["score"] <= 1.0
            assert -1.0 <= point[level]["payoff"] <= 1.0
    sp.plot(curve, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_features_and_margin_read_the_observation_blocks() -> None:
    env = raw_env("yamiro", players=2)
    env.reset(seed=3)
    feats, margin = sp.features(env.research.encoder)
    rng = np.random.default_rng(3)
    for _ in range(30):  # a few hands in, so that there are captures
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    seat = int(env.agent_selection[-1])
    row = env.observe(env.agent_selection)["observation"][None]
    f = feats(row)[0]
    state = env.engine_state
    hand = state.view(seat)["hand"]
    assert f.shape == (38,) and f[:12].sum() == len(hand)
    totals = state.capture_totals()
    assert margin(row)[0] * 256 == totals[seat] - totals[1 - seat]


def test_a_rewarded_choice_becomes_more_likely() -> None:
    policy = sp.Policy(3)
    f = np.array([[1.0, 0.5, 1.0]])
    legal = np.zeros((1, 12))
    legal[0, [2, 5]] = 1
    before = policy.probs(f, legal)[0, 5]
    for _ in range(5):
        policy.update(f, legal, np.array([5]), np.array([1.0]), 0.1)
    assert policy.probs(f, legal)[0, 5] > before == 0.5
