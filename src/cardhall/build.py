"""Which build of cardhall runs: the pure-Python package, or the compiled one.

The same source serves both. Where a C compiler and mypyc are present, building the wheel
(or ``make install``'s compiled tree, see docs/speed.md) compiles the hot modules listed in
:data:`COMPILED_MODULES` with mypyc; everything else, and every module on a machine without
a compiler, runs as plain Python with the same behaviour. ``cardhall --version`` and
``cardhall bench`` name the build that runs.

This list is the one place that says what compiles: ``setup.py`` reads it (without
importing cardhall), and :func:`build_name` checks it.

>>> build_name() in ("pure", "compiled") or build_name().startswith("mixed")
True
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

__all__ = ["COMPILED_MODULES", "build_name", "compiled_modules"]

#: The modules mypyc compiles, hottest first (the engine, money, the games, the bots).
#: Keep it to plain literals: setup.py parses it.
COMPILED_MODULES: tuple[str, ...] = (
    "cardhall.engine",
    "cardhall.money",
    "cardhall.games.abstrac",
    "cardhall.games.yamiro",
    "cardhall.games.somachi",
    "cardhall.games.getha",
    "cardhall.bots.ismcts",
    "cardhall.bots.abstrac",
    "cardhall.bots.yamiro",
    "cardhall.bots.somachi",
    "cardhall.bots.getha",
)


def _is_extension(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that load as compiled extensions here."""
    return [m for m in COMPILED_MODULES if _is_extension(m)]


def build_name() -> str:
    """``"compiled"`` when every module of :data:`COMPILED_MODULES` is compiled,
    ``"pure"`` when none is, else ``"mixed (k of n compiled)"``."""
    k = len(compiled_modules())
    if k == len(COMPILED_MODULES):
        return "compiled"
    if k == 0:
        return "pure"
    return f"mixed ({k} of {len(COMPILED_MODULES)} compiled)"
