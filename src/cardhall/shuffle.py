"""A shuffle that gives exactly ``random.Random.shuffle``'s order, faster when compiled.

``shuffle(rng, items)`` draws the same numbers from ``rng`` and leaves ``items`` in the same
order as ``rng.shuffle(items)`` (Fisher-Yates from the end, each index by rejection
sampling on ``getrandbits``, as CPython's ``random`` does), so seeded games, records and
search worlds are unchanged; compiled by mypyc (see :mod:`cardhall.build`) it runs in C
instead of ``random.py``'s Python. ``tests/test_shuffle.py`` checks the equality against
the running Python's own ``random``.

``seeded_shuffle(seed, items)``, the shuffle of every seeded deal, runs in the C extension
``cardhall._native_shuffle`` where the build has it (the compiled build, see
:mod:`cardhall.build`): the same SHA-512 seeding, Mersenne Twister and draws as
``random.Random(seed).shuffle``, about twice as fast as seeding CPython's generator and
drawing from it. Without the extension (the pure-Python package), or if it gave another
order than this Python's ``random`` for the few seeds checked on import, the Python code
below does the same.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(4).shuffle(a)
>>> shuffle(random.Random(4), b)
>>> a == b
True
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable
from hashlib import sha512
from typing import Any, Final

__all__ = ["randbelow", "seeded_shuffle", "shuffle"]


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


def seeded_shuffle(seed: str, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``random.Random(seed).shuffle(items)`` would.

    The generator is made here and thrown away, so nobody draws from it afterwards: its
    numbers are taken in batches (one ``getrandbits`` call for many 32-bit words, each
    word read from the bytes of the result) instead of one call per draw. A draw of
    ``k <= 32`` bits is the next word's top ``k`` bits, so every index is the one
    ``shuffle`` would draw; only the words left over in the last batch are drawn in
    vain.

    With the C extension (:data:`_NATIVE_SHUFFLE`), the whole of it runs there.

    >>> a, b = list(range(52)), list(range(52))
    >>> random.Random("7:0").shuffle(a)
    >>> seeded_shuffle("7:0", b)
    >>> a == b
    True
    """
    native = _NATIVE_SHUFFLE
    if native is not None:
        native(seed, items)
        return
    if not isinstance(seed, str):  # the extension's errors, word for word
        raise TypeError(f"seeded_shuffle() seed must be a str, not {type(seed).__name__}")
    if not isinstance(items, list):
        raise TypeError(f"seeded_shuffle() items must be a list, not {type(items).__name__}")
    size = len(items)
    if size >= 1 << 32:  # pragma: no cover - a draw would need more than one word
        shuffle(random.Random(seed), items)
        return
    rng = _generator(seed)
    getrandbits = rng.getrandbits
    words = size + (size >> 1) + 8  # about what a shuffle of this size draws
    data = getrandbits(32 * words).to_bytes(4 * words, "little")
    end = 4 * words
    at = 0  # the offset of the next word in data
    i = size - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        while True:
            if at >= end:  # a run of rejections used the batch up: draw another
                words = (size >> 2) + 8
                data = getrandbits(32 * words).to_bytes(4 * words, "little")
                end = 4 * words
                at = 0
            if k <= 8:  # the word's top byte holds the k bits
                j = data[at + 3] >> (8 - k)
            else:
                j = (data[at + 3] << 24 | data[at + 2] << 16 | data[at + 1] << 8 | data[at]) >> (
                    32 - k
                )
            at += 4
            if j < n:
                break
        items[i], items[j] = items[j], items[i]
        i -= 1


def _seed_key(seed: str) -> int:
    """The number ``random.Random.seed`` seeds the generator with for the string ``seed``
    (version 2: its UTF-8 bytes followed by their SHA-512, read as one big-endian
    integer)."""
    data = seed.encode()
    return int.from_bytes(data + sha512(data).digest(), "big")


def _same_as_random() -> bool:
    """Whether :func:`_seed_key` is what this Python's ``random`` does (checked once)."""
    for seed in ("0:0", "7:3", "é:12"):
        if _random.Random(_seed_key(seed)).getrandbits(96) != random.Random(seed).getrandbits(96):
            return False  # pragma: no cover - another Python's seeding
    return True


#: Whether :func:`_generator` may seed the C generator directly.
_DIRECT_SEED = _same_as_random()


def _generator(seed: str) -> _random.Random:
    """``random.Random(seed)``'s generator for drawing bits: the C generator seeded with
    the very number ``random.Random`` derives from the string, without ``random.py``'s
    Python ``__init__`` and ``seed`` frames (a few percent of a seeded deal); the same
    words. ``random.Random`` itself if this Python seeds otherwise.

    >>> _generator("5:1").getrandbits(64) == random.Random("5:1").getrandbits(64)
    True
    """
    if _DIRECT_SEED:
        return _random.Random(_seed_key(seed))
    return random.Random(seed)  # pragma: no cover - another Python's seeding


def _load_native() -> Callable[[str, list[Any]], None] | None:
    """``cardhall._native_shuffle.seeded_shuffle`` if the extension loads and shuffles as
    this Python's ``random`` for a few seeds and sizes (checked once), else None."""
    try:
        from cardhall._native_shuffle import seeded_shuffle as native
    except ImportError:
        return None
    for seed in ("0:0", "7:3", "é:12"):
        for size in (2, 52, 96):
            ours, theirs = list(range(size)), list(range(size))
            native(seed, ours)
            random.Random(seed).shuffle(theirs)
            if ours != theirs:  # pragma: no cover - another Python's seeding or shuffle
                return None
    return native


#: The C extension's seeded shuffle where this build has it (None: the Python code runs).
_NATIVE_SHUFFLE = _load_native()


def randbelow(rng: random.Random, n: int) -> int:
    """A number in ``0..n-1`` drawn exactly as ``rng.randrange(n)`` draws it from a
    ``random.Random`` (and ``rng.randint(a, b)`` is ``a + randbelow(rng, b - a + 1)``):
    the same numbers taken from ``rng``, without ``random.py``'s Python frames. ``n``
    must be positive.

    >>> all(randbelow(random.Random(s), 7) == random.Random(s).randrange(7) for s in range(50))
    True
    """
    k = n.bit_length()
    if type(rng) is _RANDOM:  # the method itself: no bound method made per call
        r = _GETRANDBITS(rng, k)
        while r >= n:
            r = _GETRANDBITS(rng, k)
        return r
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


#: ``random.Random`` and its ``getrandbits``, read as constants (compiled, a module's
#: attribute is looked up on every read).
_RANDOM: Final = random.Random
_GETRANDBITS: Final = random.Random.getrandbits
