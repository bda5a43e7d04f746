"""cardhall.shuffle gives exactly random.Random.shuffle's order (seeded games depend on it)."""

from __future__ import annotations

import random

from cardhall.shuffle import randbelow, seeded_shuffle, shuffle


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


def test_same_as_random_shuffle_where_rejections_are_most_frequent() -> None:
    """Sizes just above a power of two reject about half the draws, so the long first
    draw runs out and the shuffle goes on one draw at a time."""
    for seed in range(60):
        for n in (4, 9, 17, 33, 65, 129, 1025):
            ours, theirs = list(range(n)), list(range(n))
            a, b = random.Random(f"x:{seed}"), random.Random(f"x:{seed}")
            shuffle(a, ours)
            b.shuffle(theirs)
            assert ours == theirs, (seed, n)
            assert a.getstate() == b.getstate()


class _Counting(random.Random):
    """A generator of its own: the shuffle must call its getrandbits, one draw at a time."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        return super().getrandbits(k)


def test_a_generator_subclass_is_drawn_from_as_random_shuffle_draws() -> None:
    ours, theirs = list(range(50)), list(range(50))
    a, b = _Counting(3), _Counting(3)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs
    assert a.calls == b.calls >= 49


def test_randbelow_draws_as_randrange_and_randint() -> None:
    for seed in range(100):
        for n in (1, 2, 3, 5, 8, 9, 28, 96, 1000, 2**40 + 1):
            a, b = random.Random(seed), random.Random(seed)
            assert randbelow(a, n) == b.randrange(n), (seed, n)
            assert a.getstate() == b.getstate()
            assert 3 + randbelow(a, n) == b.randint(3, n + 2), (seed, n)
            assert a.getstate() == b.getstate()


def test_randbelow_asks_a_generator_of_its_own_kind_its_own_numbers() -> None:
    """A ``random.Random`` subclass with its own ``getrandbits`` is drawn from through it
    (as ``randrange`` does); only a plain ``random.Random`` is read through the method
    of the class."""

    class Loaded(random.Random):
        def getrandbits(self, k: int) -> int:
            return 0

    class Counting(random.Random):
        calls = 0

        def getrandbits(self, k: int) -> int:
            self.calls += 1
            return super().getrandbits(k)

    assert [randbelow(Loaded(s), 7) for s in range(20)] == [0] * 20
    a, b = Counting(3), random.Random(3)
    assert [randbelow(a, 9) for _ in range(50)] == [b.randrange(9) for _ in range(50)]
    assert a.calls >= 50


def test_seeded_shuffle_gives_the_order_of_a_generator_seeded_from_the_same_text() -> None:
    """Chance's automatic shuffles (every seeded game) go through seeded_shuffle: its
    batched draws must give random.Random(seed).shuffle's order at every size, including
    sizes whose draws need more than a byte (over 256) and runs of rejections that use a
    batch up (sizes just above a power of two)."""
    for seed in range(150):
        for n in (0, 1, 2, 3, 5, 17, 24, 33, 52, 65, 96, 129, 257, 300, 1025, 4097):
            ours, theirs = list(range(n)), list(range(n))
            seeded_shuffle(f"{seed}:{n}", ours)
            random.Random(f"{seed}:{n}").shuffle(theirs)
            assert ours == theirs, (seed, n)


def test_seeded_shuffle_keeps_the_objects_given() -> None:
    items = [("card", k) for k in range(40)]
    expected = list(items)
    random.Random("3:0").shuffle(expected)
    seeded_shuffle("3:0", items)
    assert all(a is b for a, b in zip(items, expected, strict=True))
