"""Bots: players the engine can seat. One registry, levels by name.

A bot is built for one game with a seed and decides with
:meth:`Bot.decide(observation, legal, sampler) <Bot.decide>`: what its seat may know
(``state.observe(seat)``, a typed :class:`~cardhall.engine.Observation`), the seat's
legal actions, and a
:class:`~cardhall.engine.Sampler` of the worlds consistent with what the seat has seen
(``state.sampler(seat)``, whose only door is ``sample(rng)``). A bot never holds the
real state, so it cannot read the cards hidden from its seat; the bot tests check that a
decision does not change when those cards are redealt. Whoever holds the state (the
terminal, the web's bot runner, the analysis runner, the benchmarks, the Gymnasium
tables, tests and scripts) asks a bot about a seat with :meth:`Bot.choose(state, seat)
<Bot.choose>`, the one way: it builds the three and calls :meth:`Bot.decide`. It is
final (no bot overrides it), so a bot's own code is never handed the state.

>>> from cardhall.registry import make_game
>>> state = make_game("somachi", 3).new_state(seed=1)
>>> bot = make_bot(state.game, "heuristic")
>>> action = bot.decide(state.observe(0), state.legal_actions(0), state.sampler(0))
>>> action == bot.choose(state, 0) and state.is_legal(0, action)
True

Levels, weakest to strongest: ``random``, ``heuristic``, ``ismcts``, ``perfect`` (exact
solver, Abstrac only). :func:`bot_levels` lists what a game offers.

>>> game = make_game("abstrac")
>>> bot = make_bot(game, "random", seed=1)
>>> state = game.new_state(seed=1)
>>> str(bot.choose(state, 0)) in ("first", "second")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, final

from cardhall.engine import Action, Game, Legal, Observation, Sampler, State, choose_uniform
from cardhall.errors import OptionError
from cardhall.registry import import_modules

__all__ = [
    "LEVELS",
    "Bot",
    "RandomBot",
    "bot_levels",
    "make_bot",
    "register_bot",
    "strongest_level",
    "table_world",
]

#: Known levels, weakest first.
LEVELS: tuple[str, ...] = ("random", "heuristic", "ismcts", "perfect")

BotFactory = Callable[..., "Bot"]
_BOTS: dict[tuple[str, str], BotFactory] = {}  # (game name or "*", level) -> factory
#: Modules that register bots when imported.
BUILTIN_MODULES: tuple[str, ...] = (
    "cardhall.bots.abstrac",
    "cardhall.bots.yamiro",
    "cardhall.bots.getha",
    "cardhall.bots.somachi",
    "cardhall.bots.ismcts",
)
_loaded = False


class Bot:
    """Base class: a seeded player for one game."""

    level: str = "bot"

    def __init__(self, game: Game, seed: int | str = 0, **params: Any) -> None:
        if params:
            raise OptionError(f"{self.level} bot takes no parameter {sorted(params)[0]!r}")
        self.game = game
        self.rng = random.Random(seed)

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        """The action this bot takes for ``sampler.seat``, which may play ``legal`` (not
        empty), knowing ``observation`` and imagining the worlds of ``sampler``."""
        raise NotImplementedError

    @final
    def choose(self, state: State, seat: int) -> Action:
        """The action this bot takes for ``seat`` (which must be an actor) in ``state``:
        :meth:`decide` with the seat's observation, legal actions and sampler. The one way
        to ask a bot about a seat; final, so the state never reaches a bot's own code."""
        return self.decide(state.observe(seat), state.legal_actions(seat), state.sampler(seat))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} for {self.game.name}>"


class RandomBot(Bot):
    """Uniformly random among the legal actions, each amount of a range counting once
    (games register their own random bots where that is not sensible)."""

    level = "random"

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        if not legal:
            raise ValueError(f"seat {sampler.seat} has no legal action")
        return choose_uniform(self.rng, legal)


def table_world(sampler: Sampler) -> State:
    """One world of ``sampler``, to read what all its worlds share (the public table and
    the seat's own cards), drawn with a generator of its own so that the bot's own draws
    stay what they were."""
    return sampler.sample(random.Random(0))


def register_bot(game: str, level: str) -> Callable[[BotFactory], BotFactory]:
    """Decorator registering a bot class (or factory) for ``game`` (``"*"``: every game)."""

    def deco(factory: BotFactory) -> BotFactory:
        _BOTS[(game, level)] = factory
        return factory

    return deco


register_bot("*", "random")(RandomBot)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import_modules(BUILTIN_MODULES)


def bot_levels(game: Game | str) -> list[str]:
    """Levels available for a game, weakest first."""
    _load()
    name = game if isinstance(game, str) else game.name
    return [lv for lv in LEVELS if (name, lv) in _BOTS or ("*", lv) in _BOTS]


def strongest_level(game: Game | str) -> str:
    return bot_levels(game)[-1]


def make_bot(game: Game, level: str = "random", seed: int | str = 0, **params: Any) -> Bot:
    """Build a bot of ``level`` for ``game`` (``"strongest"`` picks the best available)."""
    _load()
    if level == "strongest":
        level = strongest_level(game)
    factory = _BOTS.get((game.name, level)) or _BOTS.get(("*", level))
    if factory is None:
        raise OptionError(
            f"no {level!r} bot for {game.name}; levels: {', '.join(bot_levels(game))}"
        )
    return factory(game, seed=seed, **params)
