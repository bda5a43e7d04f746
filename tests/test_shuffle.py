"""cardhall.shuffle gives exactly random.Random.shuffle's order (seeded games depend on it)."""

from __future__ import annotations

import random

from cardhall.shuffle import shuffle


def test_same_order_and_same_numbers_drawn_as_random_shuffle() -> None:
    for seed in range(200):
        for n in (0, 1, 2, 3, 5, 24, 96, 257):
            ours, theirs = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            shuffle(a, ours)
            b.shuffle(theirs)
            assert ours == theirs, (seed, n)
            assert a.getstate() == b.getstate()  # the generator is left where shuffle leaves it


def test_shuffles_any_objects_in_place() -> None:
    items = ["x", "y", "z", "w"]
    shuffle(random.Random(1), items)
    assert sorted(items) == ["w", "x", "y", "z"]
