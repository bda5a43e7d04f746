"""Every bot of every game: legal choices, reproducible for a seed, and honest.

Honest means a bot's decision does not change when the cards hidden from its seat are
redealt (``state.determinize``): it cannot be reading them. ISMCTS has its own, larger
version of this check in ``test_bots_ismcts.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall.bots import bot_levels, make_bot, strongest_level
from cardhall.conformance import configs
from cardhall.engine import State, choose_uniform
from cardhall.errors import OptionError
from cardhall.registry import game_class, game_names, make_game

CASES: list[tuple[str, int, dict[str, Any], str]] = [
    (name, players, options, level)
    for name in game_names()
    for players, options in list(configs(game_class(name)))[:2]
    for level in bot_levels(name)
    if level != "ismcts"
]


def sample_states(name: str, players: int, options: dict[str, Any], n: int) -> list[State]:
    """States met along a few seeded random games (every few actions)."""
    game = make_game(name, players, **options)
    rng = random.Random(7)
    states: list[State] = []
    seed = 0
    while len(states) < n:
        state = game.new_state(seed=seed)
        seed += 1
        step = 0
        while not state.is_over and len(states) < n:
            if step % 5 == 0:
                states.append(state.clone())
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
            step += 1
    return states


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c[0]}-{c[1]}p-{c[3]}-{i}" for i, c in enumerate(CASES)]
)
def test_bot_is_legal_reproducible_and_honest(case: tuple[str, int, dict[str, Any], str]) -> None:
    name, players, options, level = case
    game = make_game(name, players, **options)
    info = random.Random(1)
    for i, state in enumerate(sample_states(name, players, options, 12)):
        for seat in sorted(state.actors()):
            choice = make_bot(game, level, seed=i).choose(state, seat)
            assert state.is_legal(seat, choice)
            assert make_bot(game, level, seed=i).choose(state.clone(), seat) == choice
            if not game.perfect_information:
                world = state.determinize(seat, info)
                assert make_bot(game, level, seed=i).choose(world, seat) == choice, (
                    f"{level} bot for {name} changed its mind when hidden cards were redealt"
                )


def test_levels_and_errors() -> None:
    for name in game_names():
        levels = bot_levels(name)
        assert levels[0] == "random"
        assert strongest_level(name) == levels[-1]
    game = make_game("abstrac")
    with pytest.raises(OptionError, match="no 'psychic' bot for abstrac"):
        make_bot(game, "psychic")
    assert make_bot(game, "strongest").level == strongest_level(game)
