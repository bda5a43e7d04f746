"""Benchmarks run by ``make bench`` (``cardhall bench``).

Each module listed in :data:`MODULES` defines ``NAME`` (a short title) and
``run(console, quick: bool) -> dict`` that prints a Rich table and returns its figures
as JSON-serialisable data. Figures that compare two things are measured in the same run
and reported as ratios: these machines are noisy.
"""

from __future__ import annotations

MODULES: tuple[str, ...] = (
    "cardhall.benchmarks.playouts",
    "cardhall.benchmarks.abstrac_solver",
    "cardhall.benchmarks.getha_odds",
    "cardhall.benchmarks.interop",
    "cardhall.benchmarks.search",
    "cardhall.benchmarks.bot_answer",
    "cardhall.benchmarks.web_load",
    "cardhall.benchmarks.web_abuse",
)
