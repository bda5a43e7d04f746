"""Somachi rules, one test (mostly a game record: stacked deck + actions) per ruling.

Seats deal clockwise from the dealer's left with the dealer last; the first dealer is the
last seat, so in the first hand the cards go to seats 0, 1, ..., n-1, four times round,
and the deck continues with ``then``. ``moves`` are written ``"SEAT ACTION"``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.conformance import check_cards_conserved, random_playout
from cardhall.engine import Action
from cardhall.errors import IllegalActionError, NotationError, OptionError
from cardhall.games.somachi import TARGET_POINTS, SomachiState, tableau_score
from cardhall.record import Record, replay
from cardhall.registry import make_game


def stacked(*hands: Sequence[str], then: Sequence[str] = ()) -> list[RailogCard]:
    """A full deck: the hands dealt round by round, then ``then``, then every other card
    in index order."""
    prefix: list[str] = []
    for i in range(4):
        for h in hands:
            prefix.append(h[i])
    prefix.extend(then)
    cards = RailogCard.parse_many(prefix)
    assert len(set(cards)) == len(cards), "a card is stacked twice"
    return cards + [c for c in RAILOG_DECK if c not in cards]


def new(
    *hands: Sequence[str], then: Sequence[str] = (), **options: Any
) -> SomachiState:
    state = make_game("somachi", len(hands), **options).new_state(deck=stacked(*hands, then=then))
    assert isinstance(state, SomachiState)
    return state


def play(state: SomachiState, *moves: str) -> None:
    for move in moves:
        seat, _, action = move.partition(" ")
        state.apply(int(seat), action)


def legal(state: SomachiState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def cards(text: str) -> list[RailogCard]:
    return RailogCard.parse_many(text)


def hand(state: SomachiState, seat: int) -> list[str]:
    return sorted(str(c) for c in state.hands[seat])


def deck_top(state: SomachiState, k: int) -> list[str]:
    return [str(c) for c in state.zones()["deck"][:k]]


def deck_bottom(state: SomachiState, k: int) -> list[str]:
    return [str(c) for c in state.zones()["deck"][-k:]]


# Hands used by many tests (no faces unless wanted).
LOW0 = ["1/S8", "2/S8", "3/S8", "4/S8"]
LOW1 = ["1/S7", "2/S7", "3/S7", "4/S7"]
LOW2 = ["1/S6", "2/S6", "3/S6", "4/S6"]


# ------------------------------------------------------------------ S-1, S-29: seats and order


def test_s1_deal_order_first_player_and_dealer_rotation() -> None:
    state = new(LOW0, LOW1, LOW2, hands_per_game=2)
    assert state.dealer == 2 and state.actors() == {0}
    assert hand(state, 1) == sorted(LOW1)
    # nobody has a face: everyone stands; regular play starts at the dealer's left (S-29)
    play(state, "0 stand", "1 stand", "2 stand")
    assert state.actors() == {0} and legal(state, 0) == ["draw"]
    # the player to the left (seat 1) comes next
    play(state, "0 draw", "0 discard 1/S8")
    assert state.actors() == {1}


def test_s1_player_counts() -> None:
    for n in range(2, 9):
        assert make_game("somachi", n).players == n
    for n in (1, 9):
        with pytest.raises(OptionError):
            make_game("somachi", n)


# ------------------------------------------------------------------ S-3: the opening round


def test_s3_opening_round_offers_only_alak_or_arl_and_draws_one() -> None:
    state = new(
        ["alak/S1", "arl/S2", "deiskatun/S3", "arlas/S4"], LOW1, then=["5/S5", "6/S5"]
    )
    assert legal(state, 0) == ["open alak/S1", "open arl/S2", "stand"]
    play(state, "0 open alak/S1")
    assert len(state.hands[0]) == 4 and "5/S5" in hand(state, 0)  # drew the next card
    assert state.piles(0) == [cards("alak/S1")]
    # no adds, discards or attacks in the opening round
    assert legal(state, 1) == ["stand"]


def test_s27_any_face_opens_allows_every_face_as_a_pile() -> None:
    state = new(
        ["alak/S1", "arl/S2", "deiskatun/S3", "arlas/S4"], LOW1, any_face_opens=True
    )
    assert legal(state, 0) == [
        "open alak/S1",
        "open arl/S2",
        "open deiskatun/S3",
        "open arlas/S4",
        "stand",
    ]
    play(state, "0 open arlas/S4", "1 stand")
    # the arlas pile takes adds under AFO, and made no attack
    play(state, "0 draw")
    assert state.zones()["deck"][0] != RailogCard.parse("arlas/S4")
    assert "open arlas/S4" not in legal(state, 0)


# ------------------------------------------------------------------ S-4, S-5, S-6: adds and plays


def test_s4_s5_numbers_are_added_never_played_and_only_onto_alak_or_arl_piles() -> None:
    state = new(
        ["alak/S1", "5/S1", "6/S1", "deiskatun/S2"],
        ["alak/S3", "2/S1", "1/S2", "7/S7"],
        then=["8/S8", "7/S8", "6/S8"],
    )
    play(state, "0 open alak/S1")
    # no adds in the opening round
    assert not any(a.startswith("add") for a in legal(state, 1))
    play(state, "1 open alak/S3", "0 draw")
    moves = legal(state, 0)
    assert "add 5/S1 alak/S1" in moves and "add 6/S1 alak/S1" in moves
    assert not any(m.startswith("play 5/") for m in moves)  # numbers are never played
    play(state, "0 add 5/S1 alak/S1", "0 add 6/S1 alak/S1")  # any number per turn
    assert state.actors() == {0}  # adding never ends the turn (S-6)
    play(state, "0 play deiskatun/S2")
    assert state.actors() == {1}
    # a deiskatun pile takes no adds in the base game; seat 1 adds onto seat 0's alak
    play(state, "1 draw")
    assert "add 1/S2 deiskatun/S2" not in legal(state, 1)
    play(state, "1 add 2/S1 alak/S1", "1 discard 7/S7")
    assert state.piles(0)[0] == cards("alak/S1 5/S1 6/S1 2/S1")
    assert state.scores_now()[0] == 8 + 5 + 6 + 2  # seat 0 scores what seat 1 added


def test_s6_a_turn_ends_with_exactly_one_play_or_discard() -> None:
    state = new(LOW0, LOW1)
    play(state, "0 stand", "1 stand", "0 draw")
    with pytest.raises(IllegalActionError):
        state.apply(0, "draw")
    play(state, "0 discard 1/S8")
    assert state.actors() == {1}
    assert len(state.hands[0]) == 4


# ------------------------------------------------------------------ S-7: the taken card


def test_s7_a_card_taken_from_the_discard_pile_cannot_be_discarded_that_turn() -> None:
    state = new(["alak/S1", "1/S8", "2/S8", "3/S8"], LOW1, then=["4/S1"])
    play(state, "0 open alak/S1", "1 stand", "0 draw", "0 discard 4/S1")
    play(state, "1 draw", "1 discard 1/S7")
    play(state, "0 take")
    moves = legal(state, 0)
    assert "discard 1/S7" not in moves and "discard 1/S8" in moves
    # S-7 allows it to be added or played instead: take the 4/S1 back and add it
    state2 = new(["alak/S1", "1/S8", "2/S8", "3/S8"], LOW1, then=["4/S1"])
    play(state2, "0 open alak/S1", "1 stand", "0 draw", "0 discard 4/S1", "1 take")
    assert "discard 4/S1" not in legal(state2, 1)
    assert "add 4/S1 alak/S1" in legal(state2, 1)
    play(state2, "1 add 4/S1 alak/S1", "1 discard 1/S7")
    assert state2.piles(0)[0] == cards("alak/S1 4/S1")


def test_s33_an_add_that_would_strand_the_taken_card_is_illegal() -> None:
    # seat 1 holds 2/S1 plus the taken 5/S7 (no pile of S7 anywhere): adding 2/S1 would
    # leave only the taken card, which can be neither discarded, played nor added.
    state = new(["alak/S1", "1/S8", "2/S8", "3/S8"], ["2/S1", "1/S7", "2/S7", "3/S7"])
    play(state, "0 open alak/S1", "1 stand", "0 draw", "0 discard 1/S8")
    play(state, "1 draw", "1 discard 1/S7", "0 draw", "0 discard 2/S8")
    play(state, "1 draw", "1 discard 2/S7", "0 draw", "0 discard 3/S8")
    play(state, "1 draw", "1 discard 3/S7", "0 draw")
    play(state, "0 discard " + str(state.hands[0][-1]))
    assert len(state.hands[1]) == 4
    # bring seat 1 down to one card plus the taken one
    while len(state.hands[1]) > 1:
        play(state, "1 draw")
        c = next(c for c in hand(state, 1) if c != "2/S1")
        play(state, f"1 discard {c}")
        play(state, "0 draw", f"0 discard {state.hands[0][-1]}")
    top = state.discard[-1]
    assert hand(state, 1) == ["2/S1"]
    play(state, "1 take")
    assert str(top) in hand(state, 1)
    if top // 12 != 0:  # the taken card has no pile: adding 2/S1 would strand it
        assert "add 2/S1 alak/S1" not in legal(state, 1)
        assert f"discard {top}" not in legal(state, 1)
        assert "discard 2/S1" in legal(state, 1)
