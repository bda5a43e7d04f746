"""A million seeded shuffles through the C extension, watching the process's memory: a leak
(a reference or an allocation not given back) would grow it steadily. Run on the compiled
build, whose ``cardhall.shuffle.seeded_shuffle`` uses ``cardhall._native_shuffle``:

    PYTHONPATH=build/compiled .venv/bin/python scripts/native_shuffle_memory.py

The seeds are short (the key on the stack), long and non-ASCII (the key allocated, the
seed's UTF-8 cached in the str) and, every hundredth call, bad input that raises; the items
are the 96 cards of a deck and fresh objects. Prints the resident memory every 100,000
shuffles and exits with 1 if it grew by more than 1 MiB after the first 100,000, or if a
card's or an object's reference count changed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from cardhall.cards import RAILOG_DECK
from cardhall.shuffle import _NATIVE_SHUFFLE


def rss() -> int:
    """The process's resident memory in bytes (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shuffles", type=int, default=1_000_000)
    args = parser.parse_args()
    native = _NATIVE_SHUFFLE
    if native is None:
        print("no C extension in this build (run with PYTHONPATH=build/compiled)")
        return 1
    cards = list(RAILOG_DECK)
    objects = [object() for _ in range(97)]
    counts = [sys.getrefcount(c) for c in cards], [sys.getrefcount(o) for o in objects]
    long_seed = "é" * 1500  # 3,000 bytes of UTF-8: more than 624 key words
    start = grown = 0
    for k in range(args.shuffles):
        if k % 10 == 0:
            native(long_seed + str(k), objects)
        elif k % 100 == 1:
            for bad_seed, bad_items in ((k, cards), ("1:0", tuple(cards)), ("\ud800", cards)):
                with contextlib.suppress(TypeError, UnicodeEncodeError):
                    native(bad_seed, bad_items)  # type: ignore[arg-type]
        else:
            native(f"{k}:{k % 7}", cards)
        if (k + 1) % 100_000 == 0:
            now = rss()
            if k + 1 == 100_000:
                start = now
            grown = now - start
            print(f"{k + 1:>9} shuffles: resident {now / 2**20:.2f} MiB ({grown / 2**10:+.0f} KiB)")
    # The shuffle moves the items: compare the counts as multisets.
    same = sorted(counts[0]) == sorted(sys.getrefcount(c) for c in cards)
    same = same and sorted(counts[1]) == sorted(sys.getrefcount(o) for o in objects)
    print(f"reference counts unchanged: {same}; grown after the first 100,000: {grown} bytes")
    return 0 if same and grown <= 2**20 else 1


if __name__ == "__main__":
    sys.exit(main())
