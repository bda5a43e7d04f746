"""Which build of cardhall runs: the pure-Python package, or the compiled one.

The same source serves both. Where a C compiler and mypyc are present, building the wheel
(or ``make install``'s compiled tree, see docs/speed.md) compiles the hot modules listed in
:data:`COMPILED_MODULES` with mypyc and the C extensions of :data:`NATIVE_MODULES`;
everything else, and every module on a machine without a compiler, runs as plain Python
with the same behaviour. ``cardhall --version`` and ``cardhall bench`` name the build that
runs.

These lists are the one place that says what compiles: ``setup.py`` reads them (without
importing cardhall), and :func:`build_name` checks them.

>>> build_name() in ("pure", "compiled") or build_name().startswith("mixed")
True
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

__all__ = ["COMPILED_MODULES", "NATIVE_MODULES", "build_name", "compiled_modules", "seeded_digests"]

#: The modules mypyc compiles, hottest first (the engine, money, the games, the bots).
#: Keep it to plain literals: setup.py parses it.
COMPILED_MODULES: tuple[str, ...] = (
    "cardhall.shuffle",
    "cardhall.engine",
    "cardhall.money",
    "cardhall.games.abstrac",
    "cardhall.games.yamiro",
    "cardhall.games.somachi.actions",
    "cardhall.games.somachi.tasks",
    "cardhall.games.somachi.scoring",
    "cardhall.games.somachi.windows",
    "cardhall.games.somachi.gambling",
    "cardhall.games.somachi.turns",
    "cardhall.games.somachi.legal",
    "cardhall.games.somachi.state",
    "cardhall.games.somachi.game",
    "cardhall.games.getha",
    "cardhall.bots.ismcts",
    "cardhall.bots.abstrac",
    "cardhall.bots.yamiro",
    "cardhall.bots.somachi",
    "cardhall.bots.getha",
    "cardhall.interop.actions",
    "cardhall.interop.tensor",
    "cardhall.interop.abstrac",
    "cardhall.interop.getha",
    "cardhall.interop.somachi",
    "cardhall.interop.yamiro",
)

#: The C extensions written in C (``src/cardhall/<name>.c``, no Python source: the module
#: that uses one falls back to Python code without it), built wherever the modules above
#: are. Keep it to plain literals: setup.py parses it.
NATIVE_MODULES: tuple[str, ...] = ("cardhall._native_shuffle",)


def _is_extension(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` and :data:`NATIVE_MODULES` that load as
    compiled extensions here."""
    return [m for m in COMPILED_MODULES + NATIVE_MODULES if _is_extension(m)]


def build_name() -> str:
    """``"compiled"`` when every module of :data:`COMPILED_MODULES` and
    :data:`NATIVE_MODULES` is compiled, ``"pure"`` when none is, else
    ``"mixed (k of n compiled)"`` (a tree whose C extension is missing is not compiled)."""
    k = len(compiled_modules())
    n = len(COMPILED_MODULES) + len(NATIVE_MODULES)
    if k == n:
        return "compiled"
    if k == 0:
        return "pure"
    return f"mixed ({k} of {n} compiled)"


def seeded_digests(
    games: tuple[str, ...] | None = None, seeds: int = 1, ismcts_iterations: int = 20
) -> dict[str, list[str]]:
    """Per seeded game, one hash per step of everything observable, for comparing builds.

    Every registered game (or ``games``) is played in each of its conformance
    configurations (:func:`cardhall.conformance.configs`: every player count and the
    options that change its rules), ``seeds`` games each, by bots (heuristic, ISMCTS with
    ``ismcts_iterations``, random, in turn round the table, where the game has them). The
    configurations are counted from 0 across the games, and the ``k``-th one plays seeds
    ``k`` to ``k + seeds - 1``: no two configurations deal the same way. After
    each step the hash covers the bot's decision (its ``repr``, so a card that turned into
    an ``int`` shows), every seat's and a spectator's view, the events each may see, the
    zones (``repr`` again) and the history: :meth:`State.digest` plus those reprs. The
    compiled and the pure build must give the same lists.
    """
    import hashlib
    import json

    from cardhall.bots import bot_levels, make_bot
    from cardhall.conformance import configs
    from cardhall.registry import game_class, game_names, make_game

    out: dict[str, list[str]] = {}
    k = 0  # configurations so far, across the games
    for name in games or tuple(game_names()):
        levels = [lv for lv in ("heuristic", "ismcts", "random") if lv in bot_levels(name)]
        for players, options in configs(game_class(name)):
            game = make_game(name, players, **options)
            k += 1
            for seed in range(k - 1, k - 1 + seeds):
                bots = []
                for s in range(players):
                    level = levels[s % len(levels)]
                    params = {"iterations": ismcts_iterations} if level == "ismcts" else {}
                    bots.append(make_bot(game, level, seed=f"{seed}/{s}", **params))
                state = game.new_state(seed=seed)
                steps: list[str] = []
                while True:
                    text = state.digest() + repr(state.zones())
                    if state.is_over:
                        text += json.dumps(state.outcome().to_json(), default=str)  # type: ignore[union-attr]
                        steps.append(hashlib.sha256(text.encode()).hexdigest())
                        break
                    seat = min(state.actors())
                    action = bots[seat].choose(state, seat)
                    text += repr(action)
                    steps.append(hashlib.sha256(text.encode()).hexdigest())
                    state.apply(seat, action)
                key = f"{name}/{players}p/{json.dumps(options, sort_keys=True)}/seed{seed}"
                out[key] = steps
    return out
