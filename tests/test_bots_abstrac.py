"""Abstrac bots: the perfect bot never does worse than the solved value; the heuristic
beats random play; both are deterministic for a seed."""

from __future__ import annotations

import pytest

from cardhall.bots import Bot, bot_levels, make_bot, strongest_level
from cardhall.bots.abstrac import HeuristicBot, PerfectBot
from cardhall.games.abstrac import AbstracState
from cardhall.registry import make_game
from cardhall.solvers.abstrac import solve_layout, solve_position, state_position

GAME = make_game("abstrac")


def new_state(seed: int) -> AbstracState:
    state = GAME.new_state(seed=seed)
    assert isinstance(state, AbstracState)
    return state


def play(bots: list[Bot], seed: int) -> AbstracState:
    state = new_state(seed)
    while not state.is_over:
        seat = min(state.actors())
        action = bots[seat].choose(state, seat)
        assert state.is_legal(seat, action)
        state.apply(seat, action)
    return state


def difference(state: AbstracState, seat: int) -> int:
    outcome = state.outcome()
    assert outcome is not None
    return int(outcome.scores[seat] - outcome.scores[1 - seat])


def test_levels() -> None:
    levels = bot_levels("abstrac")
    assert {"random", "heuristic", "perfect"} <= set(levels)
    assert strongest_level("abstrac") == "perfect"
    assert isinstance(make_bot(GAME, "strongest"), PerfectBot)
    assert isinstance(make_bot(GAME, "heuristic"), HeuristicBot)


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_perfect_nondealer_gets_at_least_the_value(opponent: str) -> None:
    # Seat 0 chooses; with perfect play it secures |value| whatever the dealer does.
    for seed in range(6):
        state = new_state(seed)
        value = solve_layout(state.row).value
        final = play(
            [make_bot(GAME, "perfect", seed=seed), make_bot(GAME, opponent, seed=seed)], seed
        )
        assert difference(final, 0) >= abs(value)


def test_perfect_dealer_gets_at_least_the_value_left_to_it() -> None:
    for seed in range(6):
        state = new_state(seed)
        state.apply(0, make_bot(GAME, "random", seed=seed).choose(state, 0))
        if state.to_move == 0:
            state.apply(0, make_bot(GAME, "random", seed=seed).choose(state, 0))
        position = state_position(state)
        assert position is not None and state.to_move == 1
        value = solve_position(*position).value
        perfect = make_bot(GAME, "perfect", seed=seed)
        rand = make_bot(GAME, "random", seed=seed + 100)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, (perfect if seat == 1 else rand).choose(state, seat))
        assert difference(state, 1) >= value


def test_perfect_beats_heuristic_and_heuristic_beats_random() -> None:
    def margin(strong: str, weak: str, deals: int) -> int:
        total = 0
        for seed in range(deals):
            seat = seed % 2  # alternate who chooses
            bots = [make_bot(GAME, weak, seed=seed), make_bot(GAME, weak, seed=seed)]
            bots[seat] = make_bot(GAME, strong, seed=seed)
            total += difference(play(bots, seed), seat)
        return total

    assert margin("heuristic", "random", 16) > 0
    assert margin("perfect", "heuristic", 8) > 0


def test_perfect_choice_follows_the_solver() -> None:
    for seed in range(4):
        state = new_state(seed)
        nondealer = solve_layout(state.row).nondealer
        choice = str(make_bot(GAME, "perfect", seed=seed).choose(state, 0))
        assert choice == nondealer or nondealer == "either"


def test_perfect_takes_are_best_takes_and_cached() -> None:
    state = new_state(3)
    state.apply(0, "second")
    bot = make_bot(GAME, "perfect", seed=1)
    assert isinstance(bot, PerfectBot)
    position = state_position(state)
    assert position is not None
    best = solve_position(*position).best_takes
    action = bot.choose(state, 1)
    assert action.arg in best
    cached = len(bot._cache)
    assert bot.choose(state, 1).arg in best
    assert len(bot._cache) == cached


def test_bots_are_deterministic_for_a_seed() -> None:
    for level in ("heuristic", "perfect"):
        a = play([make_bot(GAME, level, seed=7), make_bot(GAME, "random", seed=8)], 11)
        b = play([make_bot(GAME, level, seed=7), make_bot(GAME, "random", seed=8)], 11)
        assert a.history == b.history


def test_heuristic_choice_and_takes_are_legal_at_the_end() -> None:
    state = new_state(5)
    bot = make_bot(GAME, "heuristic", seed=2)
    state.apply(0, bot.choose(state, 0))
    while not state.is_over:
        seat = min(state.actors())
        action = bot.choose(state, seat)
        assert state.is_legal(seat, action)
        state.apply(seat, action)
    assert sorted(state.taken[0] + state.taken[1]) == list(range(24))
