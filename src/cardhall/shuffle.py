"""A shuffle that gives exactly ``random.Random.shuffle``'s order, faster when compiled.

``shuffle(rng, items)`` draws the same numbers from ``rng`` and leaves ``items`` in the same
order as ``rng.shuffle(items)`` (Fisher-Yates from the end, each index by rejection
sampling on ``getrandbits``, as CPython's ``random`` does), so seeded games, records and
search worlds are unchanged; compiled by mypyc (see :mod:`cardhall.build`) it runs in C
instead of ``random.py``'s Python. ``tests/test_shuffle.py`` checks the equality against
the running Python's own ``random``.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(4).shuffle(a)
>>> shuffle(random.Random(4), b)
>>> a == b
True
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["shuffle"]


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1
