"""cardhall.shuffle gives exactly random.Random.shuffle's order (seeded games depend on it)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardhall.shuffle as shuffle_module
from cardhall.build import NATIVE_MODULES, compiled_modules
from cardhall.cards import FRENCH_DECK, RAILOG_DECK
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


# ------------------------------------------------------------ the C extension (compiled build)
#
# seeded_shuffle runs in cardhall._native_shuffle where the build has it (the compiled
# build: `make test` runs this file on it) and in Python otherwise. Every check below is
# made on each of the two this build has: the extension, and the Python code, reached by
# taking the extension away for the call.

#: The extension's function in this build (None on the pure-Python package).
NATIVE = shuffle_module._NATIVE_SHUFFLE


@contextmanager
def _without_native() -> Iterator[None]:
    shuffle_module._NATIVE_SHUFFLE = None
    try:
        yield
    finally:
        shuffle_module._NATIVE_SHUFFLE = NATIVE


def _python_seeded_shuffle(seed: str, items: list[Any]) -> None:
    with _without_native():
        seeded_shuffle(seed, items)


def _seeded_shuffles() -> dict[str, Callable[[str, list[Any]], None]]:
    """The seeded shuffles this build has: the public function (through the extension
    where it is there), the extension called directly, and the Python code."""
    found: dict[str, Callable[[str, list[Any]], None]] = {
        "seeded_shuffle": seeded_shuffle,
        "python": _python_seeded_shuffle,
    }
    if NATIVE is not None:
        found["native"] = NATIVE
    return found


def test_seeded_shuffle_goes_where_the_module_attribute_says() -> None:
    """seeded_shuffle reads ``_NATIVE_SHUFFLE`` at each call (so ``_without_native``
    reaches the Python code in either build)."""
    calls: list[tuple[str, list[Any]]] = []
    items = list(range(5))
    shuffle_module._NATIVE_SHUFFLE = lambda seed, got: calls.append((seed, got))
    try:
        seeded_shuffle("9:9", items)
    finally:
        shuffle_module._NATIVE_SHUFFLE = NATIVE
    assert calls == [("9:9", items)] and calls[0][1] is items and items == list(range(5))
    _python_seeded_shuffle("9:9", items)
    assert items != list(range(5)) and len(calls) == 1


def test_the_extension_is_used_wherever_it_loads() -> None:
    """The compiled build (`make test` checks that it is "compiled", which counts the
    extension) shuffles in C; the pure-Python package has no extension."""
    assert NATIVE_MODULES == ("cardhall._native_shuffle",)
    loads = "cardhall._native_shuffle" in compiled_modules()
    assert (NATIVE is not None) == loads
    if loads:
        from cardhall._native_shuffle import seeded_shuffle as native

        assert NATIVE is native


#: Seeds of every kind: ASCII, non-ASCII (two-, three- and four-byte UTF-8), starting with
#: "\0" (the key's leading zero bytes count no words), empty, and long ones whose key
#: (the UTF-8 bytes and their SHA-512) has more words than the Twister's 624 (over 2,432
#: bytes), with lengths round the SHA-512's block (112 and 128 bytes) and the key's
#: stack buffer (192 bytes).
SEEDS = (
    [f"{game}:{deal}" for game in range(40) for deal in range(3)]
    + ["", "a", "é:12", "日本:3", "🂡🂢:0", "\0", "\0x:1", "\0" * 7, "\0" * 300, "\0é"]
    + ["x" * n for n in (3, 4, 5, 111, 112, 113, 127, 128, 129, 191, 192, 193, 255, 256)]
    + ["x" * 2432, "x" * 2433, "é" * 1300, "🂡" * 700, "z" * 5000, "\0" * 2500 + "q"]
)


def test_seeded_shuffle_gives_random_shuffles_order_for_every_kind_of_seed() -> None:
    for name, shuffled in _seeded_shuffles().items():
        for seed in SEEDS:
            for n in (0, 1, 2, 3, 95, 96, 97, 1000):
                ours, theirs = list(range(n)), list(range(n))
                shuffled(seed, ours)
                random.Random(seed).shuffle(theirs)
                assert ours == theirs, (name, seed[:20], len(seed), n)


def test_seeded_shuffle_moves_cards_and_other_objects_themselves() -> None:
    """Cards (ints of their own class) stay cards, and any object stays itself: the
    shuffle moves the list's items, it makes none."""
    objects: list[Any] = [object(), None, "x", 3.5, (1, 2), [3], RAILOG_DECK[0], 7]
    for name, shuffled in _seeded_shuffles().items():
        for seed in ("1:0", "é:5", "x" * 3000):
            for given in (list(RAILOG_DECK), list(FRENCH_DECK), objects * 13):
                ours, theirs = list(given), list(given)
                shuffled(seed, ours)
                random.Random(seed).shuffle(theirs)
                assert all(a is b for a, b in zip(ours, theirs, strict=True)), (name, seed)
                assert [type(c) for c in ours] == [type(c) for c in theirs]


def test_seeded_shuffle_of_a_list_subclass_moves_its_items() -> None:
    class Hand(list[int]):
        pass

    for shuffled in _seeded_shuffles().values():
        hand, expected = Hand(range(30)), list(range(30))
        shuffled("4:1", hand)
        random.Random("4:1").shuffle(expected)
        assert list(hand) == expected and type(hand) is Hand


def test_the_extension_refuses_what_is_not_a_str_and_a_list_leaving_the_list() -> None:
    """The C function checks its arguments before it touches anything: a clear TypeError
    (a non-str seed, a non-list, the wrong number of arguments), or str.encode's
    UnicodeEncodeError for a lone surrogate as random.Random(seed) raises it, and the list
    as it was."""
    if NATIVE is None:  # the pure-Python package: nothing to call
        assert "cardhall._native_shuffle" not in compiled_modules()
        return
    native: Any = NATIVE
    items = list(range(10))
    for seed in (5, b"1:0", None, 1.5, ["1:0"]):
        with pytest.raises(TypeError, match="seed must be a str, not"):
            native(seed, items)
        assert items == list(range(10))
    for bad in ((1, 2, 3), range(5), "abc", {1: 2}, None, bytearray(b"abc")):
        with pytest.raises(TypeError, match="items must be a list, not"):
            native("1:0", bad)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        native("1:0")
    with pytest.raises(TypeError, match="takes 2 arguments"):
        native("1:0", items, items)
    with pytest.raises(TypeError, match="keyword arguments"):
        native(seed="1:0", items=items)
    with pytest.raises(UnicodeEncodeError):
        random.Random("\ud800")
    with pytest.raises(UnicodeEncodeError):
        native("\ud800", items)
    assert items == list(range(10))


def test_seeded_shuffle_refuses_a_non_str_seed_or_non_list_items_in_every_build() -> None:
    """The public function names what was wrong with a TypeError on every build (the pure
    code's ``seed.encode()`` would otherwise raise AttributeError for an int), and the
    list is as it was."""
    bad_call: Any = seeded_shuffle
    items = list(range(10))
    for seed in (5, b"1:0", None, 1.5, ["1:0"]):
        with pytest.raises(TypeError, match="str"):
            bad_call(seed, items)
        assert items == list(range(10))
    for bad in ((1, 2, 3), range(5), "abc", None):
        kept = bad
        with pytest.raises(TypeError, match="list"):
            bad_call("1:0", bad)
        assert bad == kept


def test_the_extension_keeps_reference_counts() -> None:
    """No reference is taken or dropped by a shuffle: the items' counts are the same after
    as before (scripts/native_shuffle_memory.py runs a million shuffles and watches the
    process's memory)."""
    import sys

    items = [object() for _ in range(97)]
    before = [sys.getrefcount(x) for x in items]
    seed = "é" * 2000  # a long, non-ASCII seed: its key is allocated, its UTF-8 cached
    counts = sys.getrefcount(seed), sys.getrefcount(items)
    for shuffled in _seeded_shuffles().values():
        for k in range(50):
            shuffled(f"{k}", items)
            shuffled(seed, items)
    assert sorted(sys.getrefcount(x) for x in items) == sorted(before)
    assert (sys.getrefcount(seed), sys.getrefcount(items)) == counts
