"""The conformance suite, run for every registered game and each of its option sets.

Sizes can be raised for a long soak: ``CARDHALL_CONFORMANCE_GAMES=20000 make test``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from cardhall.conformance import configs, deep_playout, fast_playouts
from cardhall.registry import game_class, game_names, make_game

FAST_GAMES = int(os.environ.get("CARDHALL_CONFORMANCE_GAMES", "1000"))
DEEP_GAMES = int(os.environ.get("CARDHALL_CONFORMANCE_DEEP", "4"))

CASES: list[tuple[str, int, dict[str, Any]]] = [
    (name, players, options)
    for name in game_names()
    for players, options in configs(game_class(name))
]


def _id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    opts = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}-{players}p" + (f"-{opts}" if opts else "")


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_fast_playouts(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    game = make_game(name, players, **options)
    # Long games (many deals) get fewer playouts, each checked at every step.
    games = max(20, FAST_GAMES // max(1, game_class(name).conformance_weight))
    assert fast_playouts(game, games, seed=len(CASES)) > 0


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_deep_playouts(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    game = make_game(name, players, **options)
    for seed in range(DEEP_GAMES):
        final = deep_playout(game, seed)
        assert final.is_over
