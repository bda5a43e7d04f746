"""Abstrac's rules, each ruling of RULINGS section 4, and the sheet's worked example, written
as game records (a stacked layout plus the actions, then the expected outcome).

Seats: seat 1 deals the first deal, so seat 0 is the nondealer who chooses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cardhall.cards import FRENCH_DECK, FrenchCard
from cardhall.engine import Action
from cardhall.errors import IllegalActionError, NotationError, OptionError
from cardhall.games.abstrac import AbstracState, combos, deal_scores
from cardhall.record import Record, replay
from cardhall.registry import make_game

P = FrenchCard.parse_many

# A layout consistent with every figure of the sheet's example, found by a small search
# (randomised local search over the orders of the two players' cards in the slots the
# example's takes give them; many such layouts exist). An Ace is on top, as the sheet says.
SHEET_LAYOUT = "AH QH QS KH AC AD 9H KS 9C 9D KC 9S JD JS 10H QC AS 10C JC 10S QD KD 10D JH"
# "22, 23, 11, 23, 13, 22": the nondealer's and the dealer's takes, pair by pair.
SHEET_TAKES = [2, 2, 2, 3, 1, 1, 2, 3, 1, 3, 2, 2]
# What the sheet says each took (dealer's suits in the order S, H, C, D; RULINGS A-9).
SHEET_NONDEALER = "AS 9S AH QH AC AD KD QD JD 9D"
SHEET_DEALER = "KS QS JS 10S KH JH 10H 9H KC QC JC 10C 9C 10D"


def record(
    deck: str | Sequence[str],
    actions: Sequence[tuple[int, str]],
    options: dict[str, Any] | None = None,
    reshuffles: Sequence[str] = (),
    result: dict[str, Any] | None = None,
) -> AbstracState:
    """Replay a record built from a stacked layout and actions (its result is checked)."""
    data: dict[str, Any] = {
        "game": "abstrac",
        "options": options or {},
        "deck": deck.split() if isinstance(deck, str) else list(deck),
        "reshuffles": [r.split() for r in reshuffles],
        "actions": [list(a) for a in actions],
    }
    if result is not None:
        data["result"] = result
    state = replay(Record.from_dict(data))
    assert isinstance(state, AbstracState)
    return state


def takes(first: int, sizes: Sequence[int], choice: str = "first") -> list[tuple[int, str]]:
    """Actions: seat 0 chooses, then alternate takes of the given sizes from ``first``."""
    actions = [(0, choice)]
    seat = first
    for k in sizes:
        actions.append((seat, f"take {k}"))
        seat = 1 - seat
    return actions


def always(k: int) -> list[int]:
    sizes = [k] * (24 // k)
    return sizes


def names(cards: Sequence[int]) -> set[str]:
    return {str(FRENCH_DECK[c]) for c in cards}


def interleave(first: str, second: str, k: int) -> list[str]:
    """A layout giving ``first`` and ``second`` their cards when both always take ``k``."""
    a, b = first.split(), second.split()
    assert len(a) == len(b) == 12
    out: list[str] = []
    for i in range(0, 12, k):
        out += a[i : i + k] + b[i : i + k]
    return out


# --------------------------------------------------------------------------- the sheet


def test_sheet_layout_is_the_example() -> None:
    layout = SHEET_LAYOUT.split()
    assert sorted(P(layout)) == list(FRENCH_DECK)
    assert FrenchCard.parse(layout[0]).rank_name == "A"  # an Ace at the top end
    assert combos(P(SHEET_NONDEALER)) == 12  # four Aces 8 + diamond AKQJ 4
    assert combos(P(SHEET_DEALER)) == 25  # 8 + 2 + 2 + spades 4 + hearts 3 + clubs 6


def test_sheet_example_168_to_250() -> None:
    state = record(
        SHEET_LAYOUT,
        takes(0, SHEET_TAKES),
        result={"scores": [168, 250], "winners": [1]},
    )
    assert names(state.taken[0]) == set(SHEET_NONDEALER.split())
    assert names(state.taken[1]) == set(SHEET_DEALER.split())
    assert (len(state.taken[0]), len(state.taken[1])) == (10, 14)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (168, 250)
    assert outcome.details["deals"][0]["combos"] == [12, 25]


@pytest.mark.parametrize(
    ("k", "scores"),
    [
        (1, (60, 96)),  # (a) one card each time: the dealer wins 96 to 60
        (2, (144, 120)),  # (b) two each time: the nondealer wins 144 to 120
        (3, (96, 84)),  # (c) three each time: the nondealer wins 96 to 84
    ],
)
def test_sheet_always_take_the_same_number(k: int, scores: tuple[int, int]) -> None:
    state = record(SHEET_LAYOUT, takes(0, always(k)))
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == scores
    assert outcome.winners == ((0,) if scores[0] > scores[1] else (1,))


# --------------------------------------------------------------------------- the play


def test_nondealer_chooses_first() -> None:
    state = make_game("abstrac").new_state(deck=SHEET_LAYOUT.split())
    assert state.actors() == frozenset({0})  # seat 1 dealt, seat 0 chooses
    assert [str(a) for a in state.legal_actions(0)] == ["first", "second"]
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalActionError):
        state.apply(1, "take 1")  # nobody takes before the choice
    with pytest.raises(IllegalActionError):
        state.apply(1, "first")  # the dealer does not choose
    state.apply(0, "first")
    assert state.actors() == frozenset({0})


def test_choosing_second_makes_the_dealer_play_first() -> None:
    state = record(SHEET_LAYOUT, [(0, "second")])
    assert state.actors() == frozenset({1})
    state.apply(1, "take 3")
    assert names(state.taken[1]) == {"AH", "QH", "QS"}
    assert state.actors() == frozenset({0})


def test_takes_come_from_the_top_end_and_players_alternate() -> None:
    state = record(SHEET_LAYOUT, [(0, "first"), (0, "take 2"), (1, "take 1")])
    assert [str(FRENCH_DECK[c]) for c in state.taken[0]] == ["AH", "QH"]
    assert [str(FRENCH_DECK[c]) for c in state.taken[1]] == ["QS"]
    assert state.view(None)["row"][0] == "KH"
    with pytest.raises(IllegalActionError):
        state.apply(1, "take 1")  # strictly alternate
    for bad in ("take 0", "take 4"):
        before = state.digest()
        with pytest.raises(IllegalActionError):
            state.apply(0, bad)
        assert state.digest() == before
    with pytest.raises(NotationError):
        state.apply(0, "take two")


def test_last_takes_are_limited_to_what_is_left() -> None:
    # at least 1 card, at most what is left. 22 cards taken, 2 left.
    state = record(SHEET_LAYOUT, takes(0, [3, 3, 3, 3, 3, 3, 2, 2]))
    assert len(state.view(None)["row"]) == 2
    mover = min(state.actors())
    assert [str(a) for a in state.legal_actions(mover)] == ["take 1", "take 2"]
    with pytest.raises(IllegalActionError):
        state.apply(mover, "take 3")
    state.apply(mover, "take 1")
    assert [str(a) for a in state.legal_actions(1 - mover)] == ["take 1"]
    state.apply(1 - mover, "take 1")
    assert state.is_over
    assert state.legal_actions(0) == state.legal_actions(1) == []
    with pytest.raises(IllegalActionError):
        state.apply(mover, "take 1")


def test_every_card_is_taken_once_and_scores_are_never_negative() -> None:
    game = make_game("abstrac")
    for seed in range(30):
        state = game.new_state(seed=seed)
        assert isinstance(state, AbstracState)
        state.apply(0, "first" if seed % 2 else "second")
        k = 1 + seed % 3
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            state.apply(seat, legal[min(k, len(legal)) - 1])
        assert sorted(state.taken[0] + state.taken[1]) == list(range(24))
        outcome = state.outcome()
        assert outcome is not None
        assert min(outcome.scores) >= 0
        assert sum(1 for s in outcome.scores if s > 0) <= 1 or 0 not in (
            combos(state.taken[0]),
            combos(state.taken[1]),
        )


def test_everything_is_public() -> None:
    state = record(SHEET_LAYOUT, [(0, "first"), (0, "take 3")])
    views = [state.view(0), state.view(1), state.view(None)]
    for key in ("row", "taken", "combos", "dealer", "first"):
        assert views[0][key] == views[1][key] == views[2][key]
    assert views[2]["row"] == SHEET_LAYOUT.split()[3:]
    assert state.determinize(1, __import__("random").Random(1)).digest() == state.digest()


def test_action_notation_and_ids() -> None:
    game = make_game("abstrac")
    actions = [Action("first"), Action("second"), *(Action("take", k) for k in (1, 2, 3))]
    assert [game.action_id(a) for a in actions] == [0, 1, 2, 3, 4]
    for a in actions:
        assert game.action_from_id(game.action_id(a)) == a
        assert game.parse_action(str(a)) == a


# --------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("AS AH AD", 2),  # three of a kind
        ("AS AH AD AC", 8),  # four of a kind: 8, never 8 + 2
        ("AS KS", 0),
        ("AS KS QS", 3),
        ("AS KS QS JS", 4),
        ("AS KS QS JS 10S", 6),  # one maximal run, never split
        ("AS KS QS JS 10S 9S", 12),
        ("AD KD QD JD 9D", 4),  # the sheet: A K Q J 9 scores 4, not 6
        ("KH JH 10H 9H", 3),  # the sheet: K J 10 9 scores 3
        ("10C 9C AC", 0),  # no wrap-around: 9 and A are not consecutive
        ("AS KS QS AH AD", 5),  # AS counts once in the set and once in the run
        ("AS KS QS AH KH QH AD KD QD", 9 + 6),  # three runs and three sets
    ],
)
def test_combinations(cards: str, points: int) -> None:
    assert combos(P(cards)) == points


def test_deal_score_is_combos_times_the_opponents_cards() -> None:
    # Seat 0 goes first and always takes 3 (18 cards), seat 1 always takes 1 (6 cards).
    many = ["QS", "JS", "10S", "9S", "QH", "JH", "10H", "9H", "QD", "JD", "10D", "9D"]
    many += ["AC", "KC", "QC", "JC", "10C", "9C"]
    few = ["AS", "AH", "AD", "KS", "KH", "KD"]
    # seat 0: runs Q-9 in three suits (4 each) and all clubs (12); four Q, J, 10, 9 (32)
    # seat 1: three Aces and three Kings (2 + 2); A K pairs are no run
    layout: list[str] = []
    for i in range(6):
        layout += [*many[3 * i : 3 * i + 3], few[i]]
    state = record(layout, takes(0, [3, 1] * 6), result={"scores": [56 * 6, 4 * 18]})
    assert (combos(state.taken[0]), combos(state.taken[1])) == (56, 4)
    assert (len(state.taken[0]), len(state.taken[1])) == (18, 6)


def test_deal_scores_use_the_opponents_card_count() -> None:
    assert deal_scores(12, 10, 25, 14) == (168, 250)
    assert deal_scores(3, 20, 5, 4) == (12, 100)


# A-4's example: N holds A, Q, 10 of spades and clubs and K, J, 9 of hearts and diamonds.
NO_COMBO_N = "AS QS 10S AC QC 10C KH JH 9H KD JD 9D"
NO_COMBO_D = "KS JS 9S KC JC 9C AH QH 10H AD QD 10D"


def test_misere_both_zero() -> None:
    state = record(interleave(NO_COMBO_N, NO_COMBO_D, 3), takes(0, always(3)))
    assert combos(state.taken[0]) == combos(state.taken[1]) == 0
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (0, 0)
    assert outcome.winners == ()


def test_misere_the_zero_player_scores_the_others_deal_score() -> None:
    # Seat 0 ends without a combination (10 cards); seat 1 has 14 (14 cards). A-5: the
    # misère score is the other's combos times the cards the zero-combination player
    # took, 14 x 10, and the player with combinations scores 0.
    zero = "AS QS 10S AC QC 10C JH 9H JD 9D"  # no set, no run
    other = "KS KH KD KC JS 9S AH QH 10H AD QD 10D JC 9C"  # four K 8, AKQ of H and D 3 + 3
    assert combos(P(zero)) == 0 and combos(P(other)) == 14
    # Seat 0 first takes 2 each time (10 cards over 5 turns), seat 1 takes 3, 3, 3, 3, 2.
    z, o = zero.split(), other.split()
    layout = z[0:2] + o[0:3] + z[2:4] + o[3:6] + z[4:6] + o[6:9] + z[6:8] + o[9:12]
    layout += z[8:10] + o[12:14]
    actions = takes(0, [2, 3, 2, 3, 2, 3, 2, 3, 2, 2])
    state = record(layout, actions, result={"scores": [14 * 10, 0], "winners": [0]})
    assert (len(state.taken[0]), len(state.taken[1])) == (10, 14)
    # and the other way round: seat 1 has nothing.
    swapped = record(layout, [(0, "second"), *((1 - s, a) for s, a in actions[1:])])
    outcome = swapped.outcome()
    assert outcome is not None
    assert outcome.scores == (0, 140)
    assert outcome.winners == (1,)


# --------------------------------------------------------------------------- match


def test_single_deal_is_the_default() -> None:
    state = record(SHEET_LAYOUT, takes(0, SHEET_TAKES))
    assert state.is_over
    assert state.game.options == {"match": False, "target": 500}


def test_match_ends_when_a_total_reaches_the_target() -> None:
    state = record(
        SHEET_LAYOUT,
        takes(0, SHEET_TAKES),
        options={"match": True, "target": 250},
        result={"scores": [168, 250], "winners": [1]},
    )
    assert len(state.deals) == 1


def test_match_alternates_the_dealer_and_sums_the_deals() -> None:
    second_layout = " ".join(reversed(SHEET_LAYOUT.split()))
    state = record(
        SHEET_LAYOUT,
        takes(0, SHEET_TAKES),
        options={"match": True, "target": 300},
        reshuffles=[second_layout],
    )
    assert not state.is_over
    assert state.dealer == 0  # deal 2: seat 0 deals, so seat 1 chooses
    assert state.actors() == frozenset({1})
    assert [str(a) for a in state.legal_actions(1)] == ["first", "second"]
    assert state.view(None)["row"] == second_layout.split()
    assert state.totals == [168, 250]
    state.apply(1, "first")
    seat = 1
    while not state.is_over:
        state.apply(seat, "take 3")
        seat = 1 - seat
    outcome = state.outcome()
    assert outcome is not None
    second = state.deals[1]["scores"]
    assert second[0] + second[1] > 0
    assert outcome.scores == (168 + second[0], 250 + second[1])
    assert max(outcome.scores) >= 300


def test_match_tie_at_the_target_plays_another_deal() -> None:
    # Suits in order: both always taking 3 gives each 12 for runs and 24 for sets: 432 each.
    ordered = " ".join(str(c) for c in FRENCH_DECK)
    state = record(ordered, takes(0, always(3)), options={"match": True, "target": 400})
    assert state.totals == [432, 432]
    assert not state.is_over  # an exact tie: another deal
    assert state.dealer == 0
    assert len(state.deals) == 1


def test_match_options_are_validated() -> None:
    with pytest.raises(OptionError, match="target"):
        make_game("abstrac", match=True, target=0)
    with pytest.raises(OptionError, match="no option"):
        make_game("abstrac", rounds=3)
    with pytest.raises(OptionError):
        make_game("abstrac", 3)
