"""The chip component: conservation, side pots by levels, settling, odd chips.

The property tests drive :class:`Money` with arbitrary sequences of payments, all-ins and
folds (valid or not) and compare its pots with an independent chip-by-chip oracle.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.errors import ChipError
from cardhall.money import MODES, Money, Pot, PotResult, Settlement, build_pots, results_json, split

# --------------------------------------------------------------------------- oracle


def oracle_pots(
    totals: list[int], unfolded: list[bool], carry: int, mode: str
) -> list[tuple[int, tuple[int, ...]]]:
    """Pots built one chip layer at a time: layer k holds the k-th chip of every seat that
    put in at least k; its eligible seats are the unfolded seats that reached k. Layers
    with the same eligible seats merge; layers nobody unfolded reached join the top one;
    the carry-over is a layer every unfolded seat may win."""
    live = tuple(p for p, u in enumerate(unfolded) if u)
    if mode == "whole_pot":
        amount = sum(totals) + carry
        return [(amount, live)] if amount else []
    layers: list[list[Any]] = [[carry, live]]
    for k in range(1, max(totals, default=0) + 1):
        chips = sum(1 for t in totals if t >= k)
        elig = tuple(p for p in live if totals[p] >= k)
        if not elig or elig == layers[-1][1]:
            layers[-1][0] += chips
        else:
            layers.append([chips, elig])
    return [(a, e) for a, e in layers if a]


def snapshot(m: Money) -> tuple[Any, ...]:
    return (m.stacks[:], m.totals[:], m.put[:], m.dealt[:], m.folded[:], m.carry)


# --------------------------------------------------------------------------- strategies

OPS = st.lists(
    st.tuples(
        st.sampled_from(["pay", "pay_up_to", "all_in", "fold", "round", "pay_pot"]),
        st.integers(-1, 8),
        st.integers(-2, 40),
    ),
    max_size=40,
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Money, list[tuple[str, int, int]]]:
    n = draw(st.integers(2, 8))
    stacks = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    if sum(1 for s in stacks if s > 0) < 2:
        stacks[0] = stacks[1] = 7
    carry = draw(st.integers(0, 15))
    mode = draw(st.sampled_from(["side_pots", "whole_pot"]))
    m = Money(stacks, carry=carry, mode=mode)
    m.start_deal()
    return m, draw(OPS)


def run_ops(m: Money, ops: list[tuple[str, int, int]]) -> int:
    """Apply ``ops``; each rejected one must leave the chips untouched. Returns how many
    were accepted."""
    accepted = 0
    for kind, seat, amount in ops:
        before = snapshot(m)
        try:
            if kind == "pay":
                m.pay(seat, amount)
            elif kind == "pay_up_to":
                m.pay_up_to(seat, amount)
            elif kind == "all_in":
                m.all_in(seat)
            elif kind == "fold":
                m.fold(seat)
            elif kind == "pay_pot":  # call the highest put of the round
                m.pay_up_to(seat, m.owe(seat) if 0 <= seat < m.seats else amount)
            else:
                m.new_round()
        except ChipError:
            assert snapshot(m) == before, f"rejected {kind} changed the chips"
        else:
            accepted += 1
        m.check()
    return accepted


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(tables())
def test_chips_conserved_and_side_pots_match_the_layer_oracle(
    table: tuple[Money, list[tuple[str, int, int]]],
) -> None:
    m, ops = table
    chips = sum(m.stacks) + m.carry
    run_ops(m, ops)
    assert sum(m.stacks) + sum(m.totals) + m.carry == chips
    assert all(s >= 0 for s in m.stacks)
    unfolded = [d and not f for d, f in zip(m.dealt, m.folded, strict=True)]
    got = [(p.amount, p.eligible) for p in m.pots()]
    assert got == oracle_pots(m.totals, unfolded, m.carry, m.mode)
    # Money.pots is build_pots over the table's own lists (its one-pot shortcut included)
    assert m.pots() == build_pots(m.totals, unfolded, m.carry, m.mode)
    assert all(type(p) is Pot and type(p.eligible) is tuple for p in m.pots())
    assert sum(a for a, _ in got) == sum(m.totals) + m.carry
    for pot in m.pots():
        assert pot.amount > 0
        assert all(unfolded[p] for p in pot.eligible), "a folded seat is eligible"
    if m.mode == "side_pots":
        # eligible sets shrink strictly from the main pot to the top pot
        sets = [set(p.eligible) for p in m.pots()]
        assert all(b < a for a, b in itertools.pairwise(sets))


@settings(max_examples=300, deadline=None)
@given(tables(), st.lists(st.integers(0, 4), min_size=8, max_size=8), st.integers(0, 7))
def test_each_pot_is_decided_among_its_eligible_seats_only(
    table: tuple[Money, list[tuple[str, int, int]]], strength: list[int], odd_from: int
) -> None:
    m, ops = table
    run_ops(m, ops)
    odd_from %= m.seats
    chips = m.chips
    totals = m.totals[:]
    unfolded = [m.is_live(p) for p in range(m.seats)]
    pots = m.pots()
    folded_excess = 0
    if pots:
        top = max(totals[p] for p in range(m.seats) if unfolded[p])
        folded_excess = sum(t - top for p, t in enumerate(totals) if not unfolded[p] and t > top)
    asked: list[tuple[int, ...]] = []

    def decide(eligible: tuple[int, ...]) -> list[int]:
        asked.append(eligible)
        best = max(strength[p] for p in eligible)
        return [] if best == 0 else [p for p in eligible if strength[p] == best]

    carry = m.carry
    stacks = m.stacks[:]
    twin = m.clone()
    result = m.settle_by(decide, odd_from)
    assert asked == [p.eligible for p in pots if p.contested]
    # settle_by hands settle the pots it built: the same as settle building them itself
    assert twin.settle([r.winners for r in result.results], odd_from) == result
    assert (twin.stacks, twin.carry) == (m.stacks, m.carry)
    assert sum(m.stacks) + m.carry == chips
    assert m.totals == [0] * m.seats
    for r, pot in zip(result.results, pots, strict=True):
        assert r.pot == pot
        assert set(r.winners) <= set(pot.eligible)
        assert sum(r.shares.values()) == (0 if r.carried else pot.amount)
        if r.shares:
            assert max(r.shares.values()) - min(r.shares.values()) <= 1
    assert m.carry == sum(r.pot.amount for r in result.results if r.carried)
    for p in range(m.seats):
        got = m.stacks[p] - stacks[p]
        assert got == result.received[p]
        if not unfolded[p]:
            assert got == 0, "a folded seat received chips"
        elif m.mode == "side_pots":
            # a seat never wins more from any other seat than it put in itself
            cap = sum(min(t, totals[p]) for t in totals) + carry + folded_excess
            assert got <= cap


@settings(max_examples=150, deadline=None)
@given(tables())
def test_strongest_hand_takes_every_pot_it_is_eligible_for(
    table: tuple[Money, list[tuple[str, int, int]]],
) -> None:
    m, ops = table
    run_ops(m, ops)
    live = m.live_seats()
    best = max(live, key=lambda p: (m.totals[p], -p))  # in every pot (top level reached)
    result = m.settle_by(lambda e: [best] if best in e else [min(e)], odd_from=0)
    for r in result.results:
        if best in r.pot.eligible:
            assert r.winners == (best,)


def settle_best_as_settle_by(m: Money, scores: list[int], odd_from: int) -> Settlement:
    """Settle ``m`` by :meth:`Money.settle_best` and check it gives the very settlement (and
    table) that the checked :meth:`Money.settle_by` gives on a clone when each pot is decided
    by the best scores among its seats: results, shares in the same order, received,
    carry-over, stacks, and the end of the deal."""
    twin = m.clone()

    def best(eligible: tuple[int, ...]) -> list[int]:
        top = max(scores[p] for p in eligible)
        return [p for p in eligible if scores[p] == top]

    expected = twin.settle_by(best, odd_from)
    got = m.settle_best(scores, odd_from)
    assert got == expected
    assert type(got) is Settlement and type(got.results) is tuple
    assert type(got.received) is tuple and len(got.received) == m.seats
    for r, e in zip(got.results, expected.results, strict=True):
        assert type(r) is PotResult and type(r.pot) is Pot and type(r.winners) is tuple
        assert list(r.shares.items()) == list(e.shares.items())
    assert results_json(got.results) == results_json(expected.results)
    assert got.to_json() == expected.to_json()
    assert snapshot(m) == snapshot(twin)
    assert m.totals == [0] * m.seats and m.put == [0] * m.seats
    assert m.dealt == [False] * m.seats and m.folded == [False] * m.seats
    assert got.carry == 0 and m.carry == 0  # every pot has a winner
    m.check()
    return got


@settings(max_examples=300, deadline=None)
@given(tables(), st.lists(st.integers(0, 4), min_size=8, max_size=8), st.integers(0, 7))
def test_settle_best_is_settle_by_with_the_best_scores(
    table: tuple[Money, list[tuple[str, int, int]]], strength: list[int], odd_from: int
) -> None:
    """The unchecked settlement by scores gives the very settlement (and table) that the
    checked one gives when each pot is decided by the best scores among its seats."""
    m, ops = table
    run_ops(m, ops)
    settle_best_as_settle_by(m, strength[: m.seats], odd_from % m.seats)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Money, list[int], int]:
    """A hand's end as the betting games reach it: every seat with chips puts in a level
    (all-in if short), some seats fold; scores with many ties. Mostly the shortcuts of
    settle_best (one pot, one seat left, a single best seat, a shared pot, nothing in the
    pot), sometimes side pots."""
    n = draw(st.integers(2, 8))
    stacks = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    if sum(1 for s in stacks if s > 0) < 1:
        stacks[draw(st.integers(0, n - 1))] = 3
    m = Money(stacks, carry=draw(st.integers(0, 5)), mode=draw(st.sampled_from(MODES)))
    m.start_deal()
    level = draw(st.integers(0, 4))
    for p in range(n):
        if m.dealt[p]:
            m.pay_up_to(p, level)
    for p in draw(st.lists(st.integers(0, n - 1), max_size=n)):
        if m.is_live(p) and len(m.live_seats()) > 1:
            m.fold(p)
    scores = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return m, scores, draw(st.integers(0, n - 1))


@settings(max_examples=400, deadline=None)
@given(hands())
def test_settle_best_shortcuts_are_settle_by_at_a_hands_end(
    hand: tuple[Money, list[int], int],
) -> None:
    m, scores, odd_from = hand
    settle_best_as_settle_by(m, scores, odd_from)


def test_settle_best_shortcuts_by_example() -> None:
    """Each shortcut of settle_best, by hand: the settlement settle_by gives."""

    def table(folds: list[int], short: bool = False, carry: int = 0) -> Money:
        m = Money([1 if short else 3, 3, 3, 3], carry=carry)
        m.start_deal()
        for p in range(4):
            m.pay_up_to(p, 2)
        for p in folds:
            m.fold(p)
        return m

    # one pot, a single best seat: all of it
    r = settle_best_as_settle_by(table([1]), [1, 0, 5, 2], odd_from=0)
    assert [(x.pot, x.winners, x.shares) for x in r.results] == [(Pot(8, (0, 2, 3)), (2,), {2: 8})]
    # one pot shared by some of its seats: odd chip clockwise from seat 3 (seat 0 first)
    r = settle_best_as_settle_by(table([1], carry=1), [4, 0, 1, 4], odd_from=3)
    assert [(x.winners, list(x.shares.items())) for x in r.results] == [((0, 3), [(3, 5), (0, 4)])]
    # one pot shared by all its seats, odd chips from seat 1: seats 2, 3 then 0
    r = settle_best_as_settle_by(table([1], carry=2), [0, 0, 0, 0], odd_from=1)
    assert [list(x.shares.items()) for x in r.results] == [[(2, 4), (3, 3), (0, 3)]]
    # one seat left: every chip back to it
    r = settle_best_as_settle_by(table([0, 1, 3], carry=1), [9, 9, 0, 9], odd_from=0)
    assert r.received == (0, 0, 9, 0) and r.results[0].pot == Pot(9, (2,))
    # nothing in the pot: no pot at all
    m = Money([3, 3])
    m.start_deal()
    r = settle_best_as_settle_by(m, [1, 2], odd_from=0)
    assert r.results == () and r.received == (0, 0) and m.stacks == [3, 3]
    # a side pot: seat 0 all-in short takes the main pot, seat 3 the side pot
    r = settle_best_as_settle_by(table([], short=True), [5, 1, 2, 3], odd_from=0)
    assert [(x.pot.amount, x.winners) for x in r.results] == [(4, (0,)), (3, (3,))]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=10, unique=True),
    st.integers(0, 60),
    st.integers(-12, 24),
)
def test_split_hands_odd_chips_clockwise_in_that_order(
    winners: list[int], amount: int, odd_from: int
) -> None:
    """:func:`split` (two loops over the sorted seats) is the clockwise order from
    ``odd_from`` (any integer, taken modulo the seats), shares in that order."""
    seats = 10
    order = sorted(winners, key=lambda w: (w - odd_from) % seats)
    share, odd = divmod(amount, len(order))
    expected = [(w, share + (1 if i < odd else 0)) for i, w in enumerate(order)]
    assert list(split(amount, winners, odd_from, seats).items()) == expected


def test_a_new_deal_starts_the_table_again_and_a_clone_keeps_its_own() -> None:
    m = Money([3, 3, 3])
    m.start_deal()
    m.fold(0)  # before any chip: no settlement needed
    twin = m.clone()
    m.start_deal([1, 2])
    assert m.dealt == [False, True, True] and m.folded == [False] * 3
    assert twin.dealt == [True] * 3 and twin.folded == [True, False, False]
    m.pay(1, 2)
    m.pay(2, 2)
    keep = m.clone()
    m.settle_best([0, 1, 0], odd_from=0)
    assert (m.stacks, m.totals, m.put, m.dealt) == ([3, 5, 1], [0] * 3, [0] * 3, [False] * 3)
    assert (keep.stacks, keep.totals, keep.put, keep.dealt) == (
        [3, 1, 1],
        [0, 2, 2],
        [0, 2, 2],
        [False, True, True],
    )
    m.start_deal()
    assert m.dealt == [True] * 3 and m.folded == [False] * 3 and m.put == [0] * 3


def test_settle_best_checks_its_arguments_and_changes_nothing() -> None:
    m = Money([5, 5, 5])
    m.start_deal()
    m.pay(0, 2)
    m.pay(1, 3)
    m.pay(2, 3)
    before = snapshot(m)
    for bad in (
        lambda: m.settle_best([1, 2], odd_from=0),  # a score short
        lambda: m.settle_best([1, 2, 3, 4], odd_from=0),
        lambda: m.settle_best([1, 2, 3], odd_from=3),  # no such seat
    ):
        with pytest.raises(ChipError):
            bad()
        assert snapshot(m) == before
    # seat 0 (all of 2 in) has the best score: it takes the main pot (6), the side pot
    # (2) is shared by seats 1 and 2, tied
    result = m.settle_best([9, 4, 4], odd_from=2)
    assert [(r.pot.amount, r.winners) for r in result.results] == [(6, (0,)), (2, (1, 2))]
    assert result.received == (6, 1, 1) and m.stacks == [9, 3, 3]


def test_a_settlement_as_json() -> None:
    m = Money([5, 5, 5], carry=1)
    m.start_deal()
    m.pay(0, 2)
    m.pay(1, 3)
    m.pay(2, 3)
    result = m.settle_best([4, 9, 9], odd_from=2)
    pots = [
        {"amount": 7, "eligible": [0, 1, 2], "winners": [1, 2], "shares": {"1": 3, "2": 4}},
        {"amount": 2, "eligible": [1, 2], "winners": [1, 2], "shares": {"1": 1, "2": 1}},
    ]
    assert results_json(result.results) == pots == [r.to_json() for r in result.results]
    assert result.to_json() == {"pots": pots, "received": [0, 4, 5], "carry": 0}


def test_start_deal_deals_in_every_seat_with_chips_unless_told() -> None:
    m = Money([3, 0, 4])
    m.start_deal()
    assert m.dealt == [True, False, True] and m.folded == [False] * 3
    m.pay(0, 1)
    with pytest.raises(ChipError, match="settle it first"):
        m.start_deal()
    m.settle([(0,)], odd_from=0)  # its own chip back
    m.start_deal([2])
    assert m.dealt == [False, False, True]
    for bad in ([1], [3], [2, 2]):
        with pytest.raises(ChipError):
            m.start_deal(bad)


# --------------------------------------------------------------------------- examples


def test_side_pots_by_levels_example() -> None:
    # seat 0 all-in for 5, seat 1 all-in for 20, seat 2 and 3 put 50, seat 3 then folds
    m = Money([5, 20, 80, 80], carry=3)
    m.start_deal()
    m.all_in(0)
    m.all_in(1)
    m.pay(2, 50)
    m.pay(3, 50)
    m.fold(3)
    pots = m.pots()
    # levels 5, 20, 50 (the unfolded seats' totals); carry joins the main pot
    assert pots == [
        Pot(5 * 4 + 3, (0, 1, 2)),
        Pot(15 * 3, (1, 2)),
        Pot(30 * 2, (2,)),
    ]
    # pot 2 has one eligible seat: it goes back to seat 2 whatever happens
    result = m.settle([(0,), (1,), (2,)], odd_from=1)
    assert m.stacks == [23, 45, 30 + 60, 30]
    assert result.carry == 0


def test_folded_chips_above_the_top_level_join_the_top_pot() -> None:
    m = Money([10, 10, 30])
    m.start_deal()
    m.all_in(0)
    m.all_in(1)
    m.pay(2, 25)
    m.fold(2)
    assert m.pots() == [Pot(10 + 10 + 10 + 15, (0, 1))]


def test_all_fold_but_one_returns_everything() -> None:
    m = Money([10, 10, 10], carry=4)
    m.start_deal()
    for p in range(3):
        m.pay(p, 3)
    m.pay(2, 5)
    m.fold(2)
    m.fold(0)
    assert m.pots() == [Pot(3 + 3 + 8 + 4, (1,))]
    with pytest.raises(ChipError, match="last seat"):
        m.fold(1)
    m.settle([(1,)], odd_from=0)
    assert m.stacks == [7, 25, 2] and m.carry == 0


def test_pot_without_winner_carries_over_to_the_next_main_pot() -> None:
    m = Money([10, 10, 10])
    m.start_deal()
    for p in range(3):
        m.pay(p, 4)
    result = m.settle([()], odd_from=0)
    assert result.carry == 12 and m.carry == 12 and m.stacks == [6, 6, 6]
    m.start_deal()
    m.all_in(0)  # 6
    m.pay(1, 6)
    m.pay(2, 6)
    assert m.pots()[0] == Pot(18 + 12, (0, 1, 2))
    m.settle([(1, 2)], odd_from=2)  # 30 split: 15 each
    assert m.stacks == [0, 15, 15] and m.carry == 0


def test_odd_chips_go_clockwise_from_the_given_seat() -> None:
    assert split(11, [1, 3, 4], odd_from=4, seats=5) == {4: 4, 1: 4, 3: 3}
    assert split(11, [1, 3, 4], odd_from=2, seats=5) == {3: 4, 4: 4, 1: 3}
    assert split(3, [0, 1], odd_from=1, seats=2) == {1: 2, 0: 1}
    with pytest.raises(ChipError):
        split(3, [], 0, 2)
    with pytest.raises(ChipError):
        split(3, [0, 0], 0, 2)
    assert split(7, [1], odd_from=0, seats=2) == {1: 7}  # one winner: the shortcut
    for bad in ([2], [-1], [0, 2]):  # one winner or several: a seat outside the table
        with pytest.raises(ChipError, match="no such seat among winners"):
            split(3, bad, 0, 2)


def test_whole_pot_mode_makes_an_all_in_seat_eligible_for_everything() -> None:
    m = Money([2, 50, 50], mode="whole_pot")
    m.start_deal()
    m.all_in(0)
    m.pay(1, 40)
    m.pay(2, 40)
    assert m.pots() == [Pot(82, (0, 1, 2))]
    m.settle([(0,)], odd_from=0)
    assert m.stacks == [82, 10, 10]
    side = build_pots([2, 40, 40], [True, True, True])
    assert side == [Pot(6, (0, 1, 2)), Pot(76, (1, 2))]


def test_bad_requests_raise_and_change_nothing() -> None:
    m = Money([5, 5, 0])
    m.start_deal()
    assert m.dealt == [True, True, False]
    before = snapshot(m)
    for bad in (
        lambda: m.pay(0, 6),
        lambda: m.pay(0, -1),
        lambda: m.pay(2, 1),  # not dealt in
        lambda: m.pay(3, 1),  # no such seat
        lambda: m.fold(2),
        lambda: m.start_deal([2]),  # no chips
        lambda: m.settle([(0,)], odd_from=0),  # nothing in the pot: no pots
    ):
        with pytest.raises(ChipError):
            bad()
        assert snapshot(m) == before
    m.pay(0, 2)
    m.pay(1, 2)
    before = snapshot(m)
    with pytest.raises(ChipError, match="not eligible"):
        m.settle([(2,)], odd_from=0)
    with pytest.raises(ChipError, match="1 pots but winners given for 2"):
        m.settle([(0,), (1,)], odd_from=0)
    m.fold(1)
    with pytest.raises(ChipError):
        m.pay(1, 1)
    with pytest.raises(ChipError, match="goes back"):
        m.settle([()], odd_from=0)
    assert snapshot(m) != before  # only the fold changed it
    m.settle([(0,)], odd_from=0)
    assert m.stacks == [7, 3, 0]


def test_a_table_refuses_bad_stacks_and_modes() -> None:
    for stacks in ([], [3, -1], [3, True], [3, 2.5], [3, "4"]):
        with pytest.raises(ChipError):
            Money(stacks)  # type: ignore[arg-type]
    with pytest.raises(ChipError):
        Money([3, 3], carry=-1)
    with pytest.raises(ChipError):
        Money([3, 3], mode="split")
    m = Money([3, 0], carry=2)
    assert (m.chips, m.stacks, m.dealt) == (5, [3, 0], [False, False])


def fields(m: Money) -> tuple[Any, ...]:
    return (*snapshot(m), m.mode, m.chips)


def test_a_uniform_table_is_the_general_one_and_refuses_what_it_refuses() -> None:
    """``Money.uniform(seats, stack, carry, mode)`` is ``Money([stack] * seats, carry,
    mode)`` field for field, with lists of its own; bad input raises the general
    constructor's error, message and all."""
    for seats, stack, carry, mode in itertools.product(
        (1, 2, 8), (0, 1, 12, 10**12), (0, 5), MODES
    ):
        m = Money.uniform(seats, stack, carry, mode)
        assert fields(m) == fields(Money([stack] * seats, carry, mode))
        assert repr(m) == repr(Money([stack] * seats, carry, mode))
        lists = (m.stacks, m.totals, m.put, m.dealt, m.folded)
        assert len({id(x) for x in lists}) == 5
        assert Money.uniform(seats, stack, carry, mode).stacks is not m.stacks
        m.start_deal()
        if stack:
            m.pay_up_to(0, 3)
        m.check()
    assert fields(Money.uniform(3, 7)) == fields(Money([7, 7, 7]))
    for seats, stack, carry, mode in (
        (0, 5, 0, "side_pots"),
        (-2, 5, 0, "side_pots"),
        (3, -1, 0, "side_pots"),
        (3, 5, -1, "side_pots"),
        (3, 5, 0, "split"),
        (0, -1, -1, "split"),  # several faults: the general constructor's first
        (2, -1, 0, "split"),
    ):
        with pytest.raises(ChipError) as general:
            Money([stack] * seats, carry, mode)
        with pytest.raises(ChipError) as fast:
            Money.uniform(seats, stack, carry, mode)
        assert str(fast.value) == str(general.value)


@given(
    st.integers(-2, 9),
    st.integers(-3, 10**6),
    st.integers(-2, 50),
    st.sampled_from([*MODES, "split"]),
)
@settings(max_examples=200, deadline=None)
def test_a_uniform_table_equals_the_general_one_property(
    seats: int, stack: int, carry: int, mode: str
) -> None:
    try:
        general = fields(Money([stack] * seats, carry, mode))
    except ChipError as error:
        with pytest.raises(ChipError) as fast:
            Money.uniform(seats, stack, carry, mode)
        assert str(fast.value) == str(error)
    else:
        assert fields(Money.uniform(seats, stack, carry, mode)) == general


def test_rounds_and_owe() -> None:
    m = Money([10, 10])
    m.start_deal()
    m.pay(0, 1)
    m.pay(1, 1)
    m.new_round()
    assert m.cur == 0 and m.totals == [1, 1]
    m.pay(0, 4)
    assert m.owe(1) == 4 and m.cur == 4
    assert m.pay_up_to(1, 20) == 9 and m.is_all_in(1)


def test_split_carry_at_the_end_of_a_game() -> None:
    m = Money([4, 0, 6], carry=5)
    shares = m.split_carry([0, 2], odd_from=2)
    assert shares == {2: 3, 0: 2} and m.stacks == [6, 0, 9] and m.carry == 0


def test_clone_is_independent() -> None:
    m = Money([10, 10])
    m.start_deal()
    c = m.clone()
    c.pay(0, 3)
    assert m.stacks == [10, 10] and c.stacks == [7, 10]
