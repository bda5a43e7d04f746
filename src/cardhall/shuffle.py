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

__all__ = ["randbelow", "shuffle"]


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


def randbelow(rng: random.Random, n: int) -> int:
    """A number in ``0..n-1`` drawn exactly as ``rng.randrange(n)`` draws it from a
    ``random.Random`` (and ``rng.randint(a, b)`` is ``a + randbelow(rng, b - a + 1)``):
    the same numbers taken from ``rng``, without ``random.py``'s Python frames. ``n``
    must be positive.

    >>> all(randbelow(random.Random(s), 7) == random.Random(s).randrange(7) for s in range(50))
    True
    """
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
