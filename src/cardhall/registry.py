"""The game registry: games join cardhall by registering here.

>>> from cardhall.registry import game_names, make_game
>>> "abstrac" in game_names()
True
>>> make_game("abstrac").players
2
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from cardhall.engine import Game
from cardhall.errors import UnknownGameError

__all__ = ["game_class", "game_names", "import_modules", "make_game", "register"]

_GAMES: dict[str, type[Game]] = {}

#: Modules that register the built-in games when imported.
BUILTIN_MODULES: tuple[str, ...] = (
    "cardhall.games.abstrac",
    "cardhall.games.yamiro",
    "cardhall.games.getha",
    "cardhall.games.somachi",
)
_loaded = False


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game available by its ``name``."""
    if cls.name in _GAMES and _GAMES[cls.name] is not cls:
        raise ValueError(f"a different game is already registered as {cls.name!r}")
    _GAMES[cls.name] = cls
    return cls


def import_modules(modules: tuple[str, ...]) -> list[ModuleType]:
    """Import each module that exists and return them (a listed plug-in module that is not
    written yet is skipped; any error inside a module that exists is raised)."""
    found = []
    for module in modules:
        try:
            found.append(importlib.import_module(module))
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    return found


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import_modules(BUILTIN_MODULES)


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    _load_builtins()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    _load_builtins()
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; registered: {', '.join(sorted(_GAMES))}"
        ) from None


def make_game(name: str, players: int | None = None, **options: Any) -> Game:
    """Build a game by name with validated options (raises ``OptionError``)."""
    return game_class(name)(players, **options)
