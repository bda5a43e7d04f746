"""Honesty by construction: a bot decides from ``(observation, legal, sampler)`` only.

For every bot level of every game, at states met along seeded games: a second state is
made that a seat cannot tell from the first (the cards hidden from it dealt otherwise:
``determinize``), the two give the seat the same observation and legal actions, their
samplers give the same worlds, and a bot handed the seat's observation and legal actions
with the *other* state's sampler decides exactly as with its own. So nothing a bot
decides from depends on the other seats' hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardhall.bots import Bot, bot_levels, make_bot
from cardhall.conformance import configs
from cardhall.engine import Action, Legal, Sampler, State, choose_uniform, legal_at, legal_count
from cardhall.registry import game_class, game_names, make_game

CASES: list[tuple[str, int, dict[str, Any], str]] = [
    (name, players, options, level)
    for name in game_names()
    if not game_class(name).perfect_information
    for players, options in list(configs(game_class(name)))[:2]
    for level in bot_levels(name)
]


def states_met(name: str, players: int, options: dict[str, Any], n: int) -> list[State]:
    """States along seeded random games, every few actions."""
    game = make_game(name, players, **options)
    rng = random.Random(3)
    states: list[State] = []
    seed = 0
    while len(states) < n:
        state = game.new_state(seed=seed)
        seed += 1
        step = 0
        while not state.is_over and len(states) < n:
            if step % 4 == 1:
                states.append(state.clone())
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
            step += 1
    return states


def _hidden(state: State) -> dict[str, list[str]]:
    """Where every card is, as text (to see that the twin really differs)."""
    return {zone: sorted(map(str, cards)) for zone, cards in state.zones().items()}


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c[0]}-{c[1]}p-{c[3]}-{i}" for i, c in enumerate(CASES)]
)
def test_a_bot_decides_the_same_whatever_the_hidden_cards(
    case: tuple[str, int, dict[str, Any], str],
) -> None:
    name, players, options, level = case
    game = make_game(name, players, **options)
    params: dict[str, Any] = {"iterations": 12} if level == "ismcts" else {}
    redeal = random.Random(5)
    differed = 0
    for i, state in enumerate(states_met(name, players, options, 8)):
        for seat in sorted(state.actors()):
            twin = state.determinize(seat, redeal)  # another deal of the cards hidden from seat
            differed += _hidden(twin) != _hidden(state)
            observation, legal = state.view(seat), state.legal_actions(seat)
            assert twin.view(seat) == observation and twin.legal_actions(seat) == legal
            ours, theirs = state.sampler(seat), twin.sampler(seat)
            assert (
                ours.sample(random.Random(i)).digest() == theirs.sample(random.Random(i)).digest()
            )
            mine = make_bot(game, level, seed=i, **params).decide(observation, legal, ours)
            other = make_bot(game, level, seed=i, **params).decide(observation, legal, theirs)
            assert mine == other, (
                f"{level} bot for {name} decided {other} instead of {mine} for seat {seat} "
                "when the cards hidden from it were dealt otherwise"
            )
            assert state.is_legal(seat, mine)
    assert differed, f"{name}: no state where the hidden cards could differ"


class _Peeker(Bot):
    """A cheat, to show the check above catches one: it reads the state behind its
    sampler (a private attribute no bot may touch) and lets the real hidden cards pick."""

    level = "peeker"

    def decide(self, observation: Any, legal: Sequence[Legal], sampler: Sampler) -> Action:
        real = sampler._state
        return legal_at(legal, hash(real.digest()) % legal_count(legal))


def test_the_check_catches_a_bot_that_reads_the_real_state() -> None:
    game = make_game("yamiro", 2)
    caught = 0
    for i, state in enumerate(states_met("yamiro", 2, {}, 10)):
        seat = min(state.actors())
        twin = state.determinize(seat, random.Random(i))
        observation, legal = state.view(seat), state.legal_actions(seat)
        mine = _Peeker(game).decide(observation, legal, state.sampler(seat))
        other = _Peeker(game).decide(observation, legal, twin.sampler(seat))
        caught += mine != other
    assert caught
