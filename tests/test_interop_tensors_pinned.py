"""The research tensors of seeded games stay what they were: every observation (every
seat's, each turn), the acting seat's information state and its action mask, hashed per
game and compared with the hashes below.

The encoders and the PettingZoo environment are written for speed (issue 18); this test
pins their output, so a faster encoder that changes a single value fails here. When a
change of the tensors is *meant* (a new field, a documented layout change), regenerate
the hashes with ``python tests/test_interop_tensors_pinned.py`` and say so in the
CHANGELOG (the layout is an interface: ``docs/interop.md``).
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

import numpy as np
import pytest

from cardhall.interop.pettingzoo import raw_env

Config = tuple[str, int, dict[str, Any]]
#: Two-seat games, the largest tables, and options that change the layouts.
CONFIGS: list[Config] = [
    ("abstrac", 2, {}),
    ("abstrac", 2, {"match": True, "target": 150}),
    ("getha", 2, {"chips": 12, "max_deals": 6}),
    ("getha", 8, {"chips": 8, "max_deals": 2, "simultaneous_discard_above": 6, "ante": 0}),
    ("somachi", 2, {"hands_per_game": 2, "max_turns_per_hand": 5}),
    ("somachi", 3, {"gambling": True, "chips": 6, "seed_discard": True}),
    ("yamiro", 2, {}),
    ("yamiro", 4, {}),
    ("yamiro", 1, {}),
]
SEEDS = (0, 1, 2)
#: A decision cap that keeps each game short (the tensors of a capped game are the same).
CAP = 300

PINNED: dict[str, str] = {
    "abstrac-2p": ("667ee07de446274a2ce30814e05bcbd8daf1bcd8dad08b0b83c731ef43560caa"),
    "abstrac-2p-match=True-target=150": (
        "cd11c88ccaccc47e0e32500a7999a381f5fd672d1977a751f6fe59ca55bf3792"
    ),
    "getha-2p-chips=12-max_deals=6": (
        "9de982fcd30e5b94b99f641973c53f2ef01804f978e0fee334009a5d6d3001ef"
    ),
    "getha-8p-chips=8-max_deals=2-simultaneous_discard_above=6-ante=0": (
        "d0a4601bb0cf45470c56dd1461b32a45830559e4cb76ebdcf9952190bd7bb00e"
    ),
    "somachi-2p-hands_per_game=2-max_turns_per_hand=5": (
        "0a7a3917d129ce8998c5c8cdc286896ffc6d0cb3a47b2a316a3f6736832789f1"
    ),
    "somachi-3p-gambling=True-chips=6-seed_discard=True": (
        "bce4fe3f54d9960cd0c89f63ad3e20e3cfa604e0326c2a688329d7edff668bd7"
    ),
    "yamiro-2p": ("c0d155d1dd5717a15cdfe364847c394cb15f038ada8949a3e2f119acd7fc9073"),
    "yamiro-4p": ("a808cf1b22791f0febd7df5a1930f070d8246c1f60b98369209d6fcb1e5bb8ef"),
    "yamiro-1p": ("841ae3b5f4ad5cca6dd3b3f9d6f2916ca5d7b30a2ec495ff732b8fd785fa19e8"),
}


def _id(config: Config) -> str:
    name, players, options = config
    return f"{name}-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())


def tensor_digest(config: Config) -> str:
    """The hash of every tensor of the seeded games of one configuration."""
    name, players, options = config
    digest = hashlib.sha256()
    for seed in SEEDS:
        envs = {
            kind: raw_env(name, players=players, max_decisions=CAP, observation=kind, **options)
            for kind in ("observation", "information_state")
        }
        for e in envs.values():
            e.reset(seed=seed)
        play, info = envs["observation"], envs["information_state"]
        rng = random.Random(seed)
        while not (all(play.terminations.values()) or all(play.truncations.values())):
            for agent in play.possible_agents:
                observed = play.observe(agent)
                digest.update(agent.encode())
                digest.update(observed["observation"].tobytes())
                digest.update(observed["action_mask"].tobytes())
            agent = play.agent_selection
            digest.update(info.observe(agent)["observation"].tobytes())
            mask = play.observe(agent)["action_mask"]
            action = rng.choice(np.flatnonzero(mask).tolist())
            play.step(action)
            info.step(action)
        for agent in play.possible_agents:
            digest.update(play.observe(agent)["observation"].tobytes())
            digest.update(str(play.rewards[agent]).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("config", CONFIGS, ids=[_id(c) for c in CONFIGS])
def test_tensors_of_seeded_games_are_unchanged(config: Config) -> None:
    assert tensor_digest(config) == PINNED[_id(config)]


if __name__ == "__main__":  # print the hashes to pin (after a meant change of the tensors)
    for config in CONFIGS:
        print(f'    "{_id(config)}": (\n        "{tensor_digest(config)}"\n    ),', file=sys.stdout)
