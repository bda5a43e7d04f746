"""Every bot of every game: legal choices, reproducible for a seed, and honest.

Honest means a bot decides from ``(observation, legal, sampler)`` only: given the sampler
of another state that its seat cannot tell apart (the hidden cards dealt otherwise), it
decides the same. ISMCTS has a larger version of this check (root statistics) in
``test_bots_ismcts.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardhall.bots import Bot, bot_levels, make_bot, strongest_level
from cardhall.conformance import configs
from cardhall.engine import (
    Action,
    AmountRange,
    Legal,
    Observation,
    Sampler,
    State,
    choose_uniform,
    legal_at,
    legal_count,
)
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
def test_bot_is_legal_and_reproducible(case: tuple[str, int, dict[str, Any], str]) -> None:
    name, players, options, level = case
    game = make_game(name, players, **options)
    for i, state in enumerate(sample_states(name, players, options, 12)):
        for seat in sorted(state.actors()):
            choice = make_bot(game, level, seed=i).choose(state, seat)
            assert state.is_legal(seat, choice)
            assert make_bot(game, level, seed=i).choose(state.clone(), seat) == choice


def test_levels_and_errors() -> None:
    for name in game_names():
        levels = bot_levels(name)
        assert levels[0] == "random"
        assert strongest_level(name) == levels[-1]
    game = make_game("abstrac")
    with pytest.raises(OptionError, match="no 'psychic' bot for abstrac"):
        make_bot(game, "psychic")
    assert make_bot(game, "strongest").level == strongest_level(game)


def _hidden(state: State) -> dict[str, list[str]]:
    """Where every card is, as text (to see that the twin really differs)."""
    return {zone: sorted(map(str, cards)) for zone, cards in state.zones().items()}


HIDDEN_CASES = [
    (name, players, options, level)
    for name in game_names()
    if not game_class(name).perfect_information
    for players, options in list(configs(game_class(name)))[:2]
    for level in bot_levels(name)
]


@pytest.mark.parametrize(
    "case", HIDDEN_CASES, ids=[f"{c[0]}-{c[1]}p-{c[3]}-{i}" for i, c in enumerate(HIDDEN_CASES)]
)
def test_a_bot_decides_the_same_whatever_the_hidden_cards(
    case: tuple[str, int, dict[str, Any], str],
) -> None:
    """Honesty by construction: a second state the seat cannot tell from the first (the
    cards hidden from it dealt otherwise) gives it the same observation, legal actions and
    worlds, and a bot handed the seat's observation and legal actions with the *other*
    state's sampler decides exactly as with its own (every level, ISMCTS included)."""
    name, players, options, level = case
    game = make_game(name, players, **options)
    params: dict[str, Any] = {"iterations": 12} if level == "ismcts" else {}
    redeal = random.Random(5)
    differed = 0
    for i, state in enumerate(sample_states(name, players, options, 8)):
        for seat in sorted(state.actors()):
            twin = state.determinize(seat, redeal)  # another deal of the cards hidden from seat
            differed += _hidden(twin) != _hidden(state)
            observation, legal = state.observe(seat), state.legal_actions(seat)
            assert twin.observe(seat) == observation and twin.legal_actions(seat) == legal
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
    for i, state in enumerate(sample_states("yamiro", 2, {}, 10)):
        seat = min(state.actors())
        twin = state.determinize(seat, random.Random(i))
        observation, legal = state.observe(seat), state.legal_actions(seat)
        mine = _Peeker(game).decide(observation, legal, state.sampler(seat))
        other = _Peeker(game).decide(observation, legal, twin.sampler(seat))
        caught += mine != other
    assert caught


class _Spy(Bot):
    """A random bot that checks what it is handed: the acting seat's observation, its legal
    actions and its sampler (never a state), through :meth:`Bot.decide` itself (each
    surface asks it with :meth:`Bot.choose`, which no bot overrides)."""

    level = "random"
    seats: list[int] = []

    def decide(self, observation: Any, legal: Sequence[Legal], sampler: Sampler) -> Action:
        assert isinstance(observation, Observation), type(observation)
        assert isinstance(sampler, Sampler), type(sampler)
        assert observation.seat == sampler.seat and sampler.seat in observation.actors
        assert legal and all(isinstance(a, Action | AmountRange) for a in legal)
        _Spy.seats.append(sampler.seat)
        return choose_uniform(self.rng, legal)


def _spy(game: Any, level: str = "random", seed: int | str = 0, **params: Any) -> Bot:
    return _Spy(game, seed)


def _terminal() -> None:
    import io

    from rich.console import Console

    from cardhall.terminal import TerminalGame

    game = make_game("yamiro", 2)
    TerminalGame(game, humans=(), seed=3, console=Console(file=io.StringIO())).play()


def _analysis() -> None:
    from cardhall.analysis.runner import GameTask, play_task

    play_task(GameTask(0, "yamiro", 2, (), ("random", "random"), "3"))


def _web() -> None:
    from cardhall.web.autoplay import bot_choice

    state = make_game("somachi", 3).new_state(seed=3)
    bot_choice(state, min(state.actors()), "random", "3")


def _bench() -> None:
    from cardhall.benchmarks.bot_answer import answer_times

    assert answer_times("getha", 3, "random", 3)


def _gym() -> None:
    np = pytest.importorskip("numpy")
    from cardhall.interop.gym import Table

    game = make_game("yamiro", 2)
    table = Table(game, 1, _Spy(game), None, normalize=False, observation="observation")
    for seed in range(4):
        table.reset(np.random.default_rng(seed))


SURFACES = {
    "terminal": ("cardhall.terminal.make_bot", _terminal),
    "analysis": ("cardhall.bots.make_bot", _analysis),
    "web": ("cardhall.web.autoplay.make_bot", _web),
    "bench": ("cardhall.benchmarks.bot_answer.make_bot", _bench),
    "gym": ("cardhall.bots.make_bot", _gym),
}


@pytest.mark.parametrize("surface", SURFACES)
def test_every_surface_hands_a_bot_the_observation_legal_actions_and_sampler(
    surface: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal's play loop, the analysis runner, the web's bot runner, the answer-time
    benchmark and the Gymnasium tables call ``decide`` with the three, never a state."""
    where, play = SURFACES[surface]
    monkeypatch.setattr(where, _spy)
    monkeypatch.setattr(_Spy, "seats", [])
    play()
    assert _Spy.seats, f"the {surface} asked no bot"


def test_no_bot_overrides_the_one_way_to_ask_it() -> None:
    """Every surface asks a bot with ``Bot.choose(state, seat)``, which hands the bot's
    ``decide`` the seat's observation, legal actions and sampler: no bot of any game and
    level overrides it (so no bot's own code is handed the state)."""
    seen = 0
    for name in game_names():
        game = make_game(name)
        for level in bot_levels(name):
            bot = make_bot(game, level, seed=1)
            assert type(bot).choose is Bot.choose, f"{name} {level} overrides choose"
            seen += 1
    assert seen >= 4 * 3
