"""The Abstrac solver against plain minimax references, on many random positions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.cards import FRENCH_DECK, FrenchCard
from cardhall.errors import NotationError
from cardhall.games.abstrac import AbstracState, combos, deal_scores
from cardhall.registry import make_game
from cardhall.solvers.abstrac import (
    combos_of_mask,
    exhaustive_takes,
    exhaustive_value,
    mask_of,
    parse_layout,
    position_value,
    solve_layout,
    solve_position,
    state_position,
)

P = FrenchCard.parse_many


def naive(row: Sequence[int], mine: Sequence[int], theirs: Sequence[int]) -> int:
    """The most literal minimax: lists of cards, the game's combos and deal_scores."""
    if not row:
        a, b = deal_scores(combos(mine), len(mine), combos(theirs), len(theirs))
        return a - b
    return max(-naive(row[k:], theirs, [*mine, *row[:k]]) for k in range(1, min(3, len(row)) + 1))


def random_position(
    rng: random.Random, n: int
) -> tuple[list[FrenchCard], list[FrenchCard], list[FrenchCard]]:
    """A row of ``n`` cards and arbitrary sets already taken by each side."""
    cards = list(FRENCH_DECK)
    rng.shuffle(cards)
    row = cards[:n]
    rest = cards[n:]
    a = rng.randint(0, len(rest))
    b = rng.randint(0, len(rest) - a)
    return row, rest[:a], rest[a : a + b]


def final_difference(
    row: Sequence[int], mine: Sequence[int], theirs: Sequence[int], pv: Sequence[int]
) -> int:
    """Play the takes of ``pv`` and score: the first taker's score minus the other's."""
    hands = [list(mine), list(theirs)]
    pos = 0
    for turn, k in enumerate(pv):
        assert 1 <= k <= 3
        hands[turn % 2] += row[pos : pos + k]
        pos += k
    assert pos == len(row)
    a, b = deal_scores(combos(hands[0]), len(hands[0]), combos(hands[1]), len(hands[1]))
    return a - b


def test_mask_combos_match_the_game() -> None:
    rng = random.Random(1)
    for _ in range(3000):
        cards = rng.sample(range(24), rng.randint(0, 24))
        assert combos_of_mask(mask_of(cards)) == combos(cards)


def test_short_positions_against_the_literal_minimax() -> None:
    rng = random.Random(2)
    for _ in range(600):
        row, mine, theirs = random_position(rng, rng.randint(0, 9))
        analysis = solve_position(row, mine, theirs)
        assert analysis.value == naive(row, mine, theirs)
        for k, v in analysis.takes.items():
            assert v == -naive(row[k:], theirs, [*mine, *row[:k]])
        assert sorted(analysis.takes) == list(range(1, min(3, len(row)) + 1))
        assert analysis.value == (max(analysis.takes.values()) if row else analysis.value)
        assert final_difference(row, mine, theirs, analysis.pv) == analysis.value


def test_mid_game_positions_against_the_exhaustive_minimax() -> None:
    rng = random.Random(3)
    for _ in range(60):
        row, mine, theirs = random_position(rng, rng.randint(10, 15))
        analysis = solve_position(row, mine, theirs)
        assert analysis.takes == exhaustive_takes(row, mine, theirs)
        assert analysis.value == position_value(row, mine, theirs)
        assert final_difference(row, mine, theirs, analysis.pv) == analysis.value


def test_short_fresh_layouts_against_the_exhaustive_minimax() -> None:
    rng = random.Random(4)
    for n in range(1, 17):
        for _ in range(4):
            row = rng.sample(list(FRENCH_DECK), n)
            solution = solve_layout(row)
            assert solution.value == exhaustive_value(row)
            assert solution.takes == exhaustive_takes(row)
            assert final_difference(row, [], [], solution.pv) == solution.value


def test_a_full_deal_against_the_exhaustive_minimax() -> None:
    rng = random.Random(5)
    row = list(FRENCH_DECK)
    rng.shuffle(row)
    solution = solve_layout(row)
    assert solution.value == exhaustive_value(row)
    assert final_difference(row, [], [], solution.pv) == solution.value


def test_reached_positions_of_real_deals_keep_their_value() -> None:
    # Along perfect play, each position's value is minus the value after the best take.
    game = make_game("abstrac")
    for seed in range(3):
        state = game.new_state(seed=seed)
        assert isinstance(state, AbstracState)
        assert state_position(state) is None  # before the choice
        state.apply(0, "first")
        previous: int | None = None
        while not state.is_over:
            position = state_position(state)
            assert position is not None
            analysis = solve_position(*position)
            if previous is not None:
                assert analysis.value == -previous
            previous = analysis.value
            k = analysis.best_takes[-1]
            state.apply(state.to_move, f"take {k}")
        assert state_position(state) is None
        outcome = state.outcome()
        assert outcome is not None
        last_mover = state.history[-1][0]
        assert previous == outcome.scores[last_mover] - outcome.scores[1 - last_mover]


def test_layout_solution_and_json() -> None:
    rng = random.Random(6)
    row = rng.sample(list(FRENCH_DECK), 24)
    solution = solve_layout(row)
    data = solution.to_json()
    assert set(data) == {"value", "takes", "nondealer", "pv"}
    assert set(data["takes"]) == {"1", "2", "3"}
    assert data["value"] == max(data["takes"].values())
    assert sum(data["pv"]) == 24
    expected = "first" if solution.value > 0 else "second" if solution.value < 0 else "either"
    assert data["nondealer"] == expected
    # The nondealer's choice: going second hands the first move (and its value) over.
    assert solve_layout(" ".join(str(c) for c in row)).value == solution.value


@pytest.mark.parametrize(
    ("layout", "choice"),
    [
        ("AC KC QD AH KH QH", "either"),
        ("AD KS KH QD AH AS AC QC", "second"),
        ("KC QH QC QS AC KH AD AH AS", "first"),
    ],
)
def test_nondealer_choice(layout: str, choice: str) -> None:
    row = P(layout)
    solution = solve_layout(row)
    assert solution.nondealer == choice
    value = exhaustive_value(row)
    assert solution.value == value
    assert (value > 0, value < 0, value == 0) == (
        choice == "first",
        choice == "second",
        choice == "either",
    )


def test_terminal_and_tiny_positions() -> None:
    mine, theirs = P("AS AH AD"), P("KS QS JS 9H")
    assert solve_position([], mine, theirs).value == 2 * 4 - 3 * 3
    assert solve_position([], mine, theirs).pv == ()
    one = solve_position(P("AC"), mine, theirs)
    assert one.takes == {1: 8 * 4 - 3 * 4}
    assert one.pv == (1,)


def test_bad_positions_are_rejected() -> None:
    with pytest.raises(NotationError, match="twice"):
        solve_position(P("AS KS"), P("AS"))
    with pytest.raises(NotationError, match="not an Abstrac card"):
        solve_position([24])
    with pytest.raises(NotationError, match="24 cards"):
        parse_layout("AS KS")
    with pytest.raises(NotationError, match="twice"):
        parse_layout("AS KS AS")
    with pytest.raises(NotationError, match="card 2"):
        parse_layout("AS ZZ")
    assert len(parse_layout(" ".join(str(c) for c in FRENCH_DECK))) == 24


@settings(max_examples=150, deadline=None)
@given(
    cards=st.permutations(list(range(24))),
    n=st.integers(min_value=0, max_value=8),
    split=st.tuples(st.integers(0, 24), st.integers(0, 24)),
)
def test_property_solver_equals_the_literal_minimax(
    cards: list[int], n: int, split: tuple[int, int]
) -> None:
    row = cards[:n]
    rest = cards[n:]
    a = min(split[0], len(rest))
    b = min(split[1], len(rest) - a)
    mine, theirs = rest[:a], rest[a : a + b]
    analysis = solve_position(row, mine, theirs)
    assert analysis.value == naive(row, mine, theirs)
    assert final_difference(row, mine, theirs, analysis.pv) == analysis.value
