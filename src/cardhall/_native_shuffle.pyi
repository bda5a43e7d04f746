"""The C extension of the compiled build (``src/cardhall/_native_shuffle.c``), used by
:func:`cardhall.shuffle.seeded_shuffle`."""

from typing import Any

def seeded_shuffle(seed: str, items: list[Any], /) -> None:
    """Shuffle ``items`` in place exactly as ``random.Random(seed).shuffle(items)`` would."""
