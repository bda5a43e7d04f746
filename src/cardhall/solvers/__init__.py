"""Exact solvers for the games where exact play is within reach.

* :mod:`cardhall.solvers.abstrac` — Abstrac (perfect information, two players): the value
  of any position, of each take, the principal variation and the nondealer's choice.
"""

from __future__ import annotations

__all__: list[str] = []
