"""Somachi rules, one test (mostly a game record: stacked deck + actions) per ruling.

Seats deal clockwise from the dealer's left with the dealer last; the first dealer is the
last seat, so in the first hand the cards go to seats 0, 1, ..., n-1, four times round,
and the deck continues with ``then``. ``moves`` are written ``"SEAT ACTION"``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardhall.bots import make_bot
from cardhall.cards import RAILOG_DECK, RailogCard
from cardhall.conformance import check_cards_conserved, random_playout
from cardhall.engine import HIDDEN_EVENT, SPECTATOR, Action, AmountRange, choose_uniform
from cardhall.errors import IllegalActionError, NotationError, OptionError, RecordError
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


def new(*hands: Sequence[str], then: Sequence[str] = (), **options: Any) -> SomachiState:
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
    state = new(["alak/S1", "arl/S2", "deiskatun/S3", "arlas/S4"], LOW1, then=["5/S5", "6/S5"])
    assert legal(state, 0) == ["open alak/S1", "open arl/S2", "stand"]
    play(state, "0 open alak/S1")
    assert len(state.hands[0]) == 4 and "5/S5" in hand(state, 0)  # drew the next card
    assert state.piles(0) == [cards("alak/S1")]
    # no adds, discards or attacks in the opening round
    assert legal(state, 1) == ["stand"]


def test_s27_any_face_opens_allows_every_face_as_a_pile() -> None:
    state = new(["alak/S1", "arl/S2", "deiskatun/S3", "arlas/S4"], LOW1, any_face_opens=True)
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
    state = new(["alak/S1", "5/S6", "1/S8", "2/S8"], ["2/S1", "3/S1", "4/S1", "6/S1"])
    play(state, "0 open alak/S1", "1 stand", "0 draw", "0 discard 5/S6", "1 take")
    play(state, "1 add 2/S1 alak/S1", "1 add 3/S1 alak/S1", "1 add 4/S1 alak/S1")
    # adding 6/S1 would leave only the taken 5/S6, which nothing could get rid of
    moves = legal(state, 1)
    assert "add 6/S1 alak/S1" not in moves
    assert "discard 5/S6" not in moves and "discard 6/S1" in moves


# ------------------------------------------------------------------ S-8, S-31, S-35: the sweep


SWEEP_HANDS = (["alak/S2", "5/S2", "8/S2", "1/S8"], ["arl/S2", "3/S2", "1/S7", "2/S7"])
SWEEP_THEN = ["6/S5", "7/S5", "8/S5", "1/S4", "2/S4"]
SWEEP_MOVES = (
    "0 open alak/S2",
    "1 stand",
    "0 draw",
    "0 discard 6/S5",
    "1 draw",
    "1 discard 3/S2",
    "0 draw",
    "0 add 5/S2 alak/S2",
    "0 discard 8/S2",
    "1 draw",
    "1 play arl/S2",
)


def test_s8_s35_an_arl_sweeps_other_tableaus_and_the_discard_run_into_the_hand() -> None:
    state = new(*SWEEP_HANDS, then=SWEEP_THEN)
    play(state, *SWEEP_MOVES)
    # seat 0's whole S2 pile, then the S2 run on the discard pile (its own 3/S2 included),
    # stopping at the 6/S5
    assert state.tab[0] == []
    assert hand(state, 1) == sorted(
        ["1/S7", "2/S7", "8/S5", "2/S4", "alak/S2", "5/S2", "8/S2", "3/S2"]
    )
    assert [str(c) for c in state.discard] == ["6/S5"]
    assert state.piles(1) == [cards("arl/S2")]
    assert state.scores_now() == [0, 0]


def test_hands_are_kept_in_card_order_as_cards_arrive() -> None:
    """Dealt, drawn, taken, swept, claimed and collected cards go into a hand in card
    order (the legal lists and the views read it as it is); the invariants check it."""
    state = new(*SWEEP_HANDS, then=SWEEP_THEN)
    play(state, *SWEEP_MOVES)  # the sweep took cards of all ranks into seat 1's hand
    assert state.hands[1] == sorted(state.hands[1]) and len(state.hands[1]) == 8
    state.check_invariants()
    for players, options in ((2, {}), (3, {"seed_discard": True}), (4, {"gambling": True})):
        game = make_game("somachi", players, hands_per_game=2, **options)
        for seed in range(3):
            st = game.new_state(seed=seed)
            assert isinstance(st, SomachiState)
            rng = random.Random(seed)
            while not st.is_over:
                assert all(h == sorted(h) for h in st.hands)
                seat = min(st.actors())
                st.apply(seat, choose_uniform(rng, st.legal_actions(seat)))
    state.hands[1].reverse()  # white-box: out of order
    with pytest.raises(AssertionError, match="out of order"):
        state.check_invariants()


def test_s31_collect_to_pile_puts_the_takings_on_the_arl_pile() -> None:
    state = new(*SWEEP_HANDS, then=SWEEP_THEN, collect_to="pile")
    play(state, *SWEEP_MOVES)
    assert state.piles(1) == [cards("arl/S2 5/S2 8/S2 3/S2"), cards("alak/S2")]
    assert state.scores_now()[1] == 8 + 5 + 8 + 3
    state.check_invariants()


# ------------------------------------------------------------------ S-9, S-10, S-11, S-32: windows

CLAIM_HANDS = (
    ["5/S3", "6/S3", "1/S8", "2/S8"],
    ["alak/S6", "1/S7", "2/S7", "3/S7"],
    ["arl/S3", "1/S6", "2/S6", "3/S6"],
)
CLAIM_THEN = ["4/S5", "5/S5", "6/S5", "7/S5", "8/S5", "1/S4"]


def test_s10_s11_a_claim_out_of_turn_comes_before_the_next_player_can_draw_it() -> None:
    state = new(*CLAIM_HANDS, then=CLAIM_THEN)
    play(state, "0 stand", "1 stand", "2 open arl/S3", "0 draw", "0 discard 5/S3")
    # seat 1 is next, but seat 2's arl may claim first: only seat 2 may act
    assert state.actors() == {2}
    assert legal(state, 2) == ["claim", "pass"]
    assert legal(state, 1) == []
    assert state.pending() == {"kind": "claim window", "seat": 2, "card": "5/S3"}
    with pytest.raises(IllegalActionError):
        state.apply(1, "take")
    play(state, "2 claim")
    assert "5/S3" in hand(state, 2) and state.discard == []
    assert state.actors() == {1} and legal(state, 1) == ["draw"]


def test_s10_s35_after_passing_the_owner_claims_in_turn_while_on_top_with_the_run() -> None:
    state = new(*CLAIM_HANDS, then=CLAIM_THEN)
    play(state, "0 stand", "1 stand", "2 open arl/S3", "0 draw", "0 discard 5/S3", "2 pass")
    play(state, "1 draw", "1 play alak/S6")  # the 5/S3 stays on top
    play(state, "2 draw")
    assert "claim" in legal(state, 2)
    play(state, "2 discard 1/S6")  # covered: the claim is gone
    assert state.actors() == {0}
    play(state, "0 draw", "0 discard 6/S3")  # a new S3 on top: the window opens again
    assert state.actors() == {2} and legal(state, 2) == ["claim", "pass"]
    play(state, "2 claim")
    # only the run of S3 at the top is taken; the 1/S6 underneath stops it
    assert "6/S3" in hand(state, 2) and "5/S3" not in hand(state, 2)
    assert [str(c) for c in state.discard] == ["5/S3", "1/S6"]


def test_a_passed_claim_window_names_its_card_in_both_builds() -> None:
    """The ``pass`` event of a claim window tells the card in notation (the window's card
    once came out of the compiled build as its plain index; CI runs this file on both)."""
    state = new(*CLAIM_HANDS, then=CLAIM_THEN)
    play(state, "0 stand", "1 stand", "2 open arl/S3", "0 draw", "0 discard 5/S3", "2 pass")
    passed = [e for e in state.events_for(None) if e["kind"] == "pass"]
    assert passed == [
        {"seq": passed[0]["seq"], "kind": "pass", "seat": 2, "window": "claim", "card": "5/S3"}
    ]


def test_s10_the_owner_cannot_claim_his_own_discard() -> None:
    state = new(*CLAIM_HANDS, then=CLAIM_THEN)
    play(state, "0 stand", "1 stand", "2 open arl/S3")
    play(state, "0 draw", "0 discard 1/S8", "1 draw", "1 discard 1/S7", "2 draw")
    state.hands[2].append(state.hands[0].pop(0))  # hand seat 2 a 5/S3 (white-box)
    state.hands[2].sort()  # hands are kept in card order
    state._cache_seat = -1
    play(state, "2 discard 5/S3")
    assert state.actors() == {0}  # no window for its own discard
    play(state, "0 draw", "0 discard 2/S8", "1 draw", "1 discard 2/S7")
    play(state, "2 draw")
    assert "claim" not in legal(state, 2)


def test_s9_w2_an_arl_collects_a_card_played_into_another_tableau() -> None:
    hands = (["arl/S4", "1/S8", "2/S8", "3/S8"], ["alak/S4", "1/S7", "2/S7", "3/S7"], LOW2)
    state = new(*hands)
    play(state, "0 open arl/S4", "1 open alak/S4")
    assert state.actors() == {0}
    assert legal(state, 0) == ["collect arl/S4", "pass"]
    play(state, "0 collect arl/S4")
    assert "alak/S4" in hand(state, 0) and state.tab[1] == []
    assert state.actors() == {2}
    # the option turns the window off
    state = new(*hands, arl_tableau_collect=False)
    play(state, "0 open arl/S4", "1 open alak/S4")
    assert state.actors() == {2}


def test_s32_the_seat_whose_turn_it_is_gets_no_window_but_may_collect_in_turn() -> None:
    state = new(["arl/S4", "5/S4", "1/S8", "2/S8"], ["alak/S4", "1/S7", "2/S7", "3/S7"])
    play(state, "0 open arl/S4", "1 stand")
    play(state, "0 draw", "0 discard 1/S8", "1 draw", "1 play alak/S4")
    assert state.actors() == {0} and legal(state, 0) == ["collect arl/S4", "pass"]
    play(state, "0 pass", "0 draw")
    # seat 0 adds its 5/S4 to seat 1's alak: in its own turn there is no window...
    play(state, "0 add 5/S4 alak/S4")
    assert state.actors() == {0} and state.pending()["kind"] == "turn"  # type: ignore[index]
    # ...but the in-turn collect is there
    assert "collect arl/S4" in legal(state, 0)
    play(state, "0 collect arl/S4")
    assert {"alak/S4", "5/S4"} <= set(hand(state, 0))


# ------------------------------------------------------------------ S-12, S-13, S-14, S-30: arlas

ATTACK_THEN = ["1/S4", "2/S4", "3/S4", "4/S4", "3/S5", "5/S4"]


def attack_setup(p1: list[str], p1_play: str = "alak/S6") -> SomachiState:
    state = new(["arlas/S5", "1/S8", "2/S8", "3/S8"], p1, LOW2, then=ATTACK_THEN)
    play(state, "0 stand", "1 open alak/S5", "2 stand")
    play(state, "0 draw", "0 discard 1/S8")
    play(state, "1 draw", "1 add 2/S5 alak/S5", f"1 play {p1_play}")
    play(state, "2 draw", "2 discard 1/S6")
    play(state, "0 draw", "0 add 3/S5 alak/S5")  # seat 0 adds to seat 1's pile
    return state


def test_s12_s14_s30_an_arlas_removes_the_targets_suit_in_placement_order() -> None:
    state = attack_setup(["alak/S5", "2/S5", "alak/S6", "1/S7"])
    moves = legal(state, 0)
    assert "attack arlas/S5 1" in moves
    assert "attack arlas/S5 0" not in moves and "attack arlas/S5 2" not in moves
    assert "play arlas/S5" not in moves  # only under any_face_opens
    play(state, "0 attack arlas/S5 1")
    # every target is asked (so the window does not reveal its hand); without the
    # deiskatun it can only pass
    assert state.actors() == {1} and legal(state, 1) == ["pass"]
    play(state, "1 pass")
    assert state.piles(1) == [cards("alak/S6")]
    # removed in the order they entered seat 1's tableau, then the arlas
    assert deck_bottom(state, 4) == ["alak/S5", "2/S5", "3/S5", "arlas/S5"]
    assert state.actors() == {1}


def test_s13_a_deiskatun_in_hand_defends_out_of_turn() -> None:
    state = attack_setup(["alak/S5", "2/S5", "alak/S6", "deiskatun/S5"])
    play(state, "0 attack arlas/S5 1")
    assert legal(state, 1) == ["defend", "pass"]
    play(state, "1 defend")
    assert state.piles(1) == [cards("alak/S5 2/S5 3/S5"), cards("alak/S6"), cards("deiskatun/S5")]
    assert deck_bottom(state, 1) == ["arlas/S5"]  # only the arlas goes under the deck
    assert state.actors() == {1}


def test_s13_a_deiskatun_on_the_table_negates_without_a_window() -> None:
    state = attack_setup(["alak/S5", "2/S5", "deiskatun/S5", "1/S7"], p1_play="deiskatun/S5")
    play(state, "0 attack arlas/S5 1")
    assert state.actors() == {1} and state.pending()["kind"] == "draw"  # type: ignore[index]
    assert deck_bottom(state, 1) == ["arlas/S5"]
    assert [str(c) for c in state.piles(1)[0]] == ["alak/S5", "2/S5", "3/S5"]


def test_s39_an_arlas_and_a_deiskatun_empty_two_hands_at_once() -> None:
    state = new(
        ["alak/S1", "1/S1", "2/S1", "arlas/S2"],
        ["alak/S2", "deiskatun/S2", "4/S2", "5/S2"],
        then=["3/S1", "6/S2", "4/S1", "7/S2", "5/S1"],
        hands_per_game=1,
    )
    play(state, "0 open alak/S1", "1 open alak/S2")
    play(state, "0 draw", "0 add 1/S1 alak/S1", "0 add 2/S1 alak/S1", "0 add 3/S1 alak/S1")
    play(state, "0 discard 4/S1")
    play(state, "1 draw", "1 add 4/S2 alak/S2", "1 add 5/S2 alak/S2", "1 add 6/S2 alak/S2")
    play(state, "1 discard 7/S2")
    play(state, "0 draw", "0 add 5/S1 alak/S1")
    assert hand(state, 0) == ["arlas/S2"] and hand(state, 1) == ["deiskatun/S2"]
    play(state, "0 attack arlas/S2 1")
    assert not state.is_over  # the defence window comes before the end check
    play(state, "1 defend")
    assert state.is_over
    entry = state.hand_log[0]
    assert entry["scores"] == [8 + 1 + 2 + 3 + 5, 8 + 4 + 5 + 6]
    assert entry["winners"] == [1] and entry["reason"] == "out"


# ------------------------------------------------------------------ S-15: when the hand ends


def test_s15_a_sweep_refills_a_hand_that_was_about_to_end() -> None:
    state = new(
        ["alak/S1", "1/S1", "2/S1", "arl/S3"],
        ["alak/S3", "5/S3", "1/S7", "2/S7"],
        then=["3/S1", "1/S6", "4/S1"],
        hands_per_game=1,
    )
    play(state, "0 open alak/S1", "1 open alak/S3", "0 draw")
    for c in ("1/S1", "2/S1", "3/S1", "4/S1"):
        play(state, f"0 add {c} alak/S1")
    assert hand(state, 0) == ["arl/S3"]
    play(state, "0 play arl/S3")  # the last card... but the sweep brings the alak back
    assert not state.is_over
    assert hand(state, 0) == ["alak/S3"] and state.actors() == {1}


def test_s15_an_add_that_empties_the_hand_ends_it_at_once() -> None:
    state = new(["alak/S1", "1/S1", "2/S1", "3/S1"], LOW1, then=["4/S1", "5/S1"], hands_per_game=1)
    play(state, "0 open alak/S1", "1 stand", "0 draw")
    for c in ("1/S1", "2/S1", "3/S1", "4/S1"):
        play(state, f"0 add {c} alak/S1")
    assert not state.is_over
    play(state, "0 add 5/S1 alak/S1")
    assert state.is_over
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (8 + 15, 0) and outcome.winners == (0,)


# ------------------------------------------------------------------ S-16, S-17: scoring


def test_s16_tableau_scores() -> None:
    table = cards("alak/S1 5/S1 arl/S2 3/S2 deiskatun/S4")
    assert tableau_score(table) == 8 + 5 + 3
    assert tableau_score(table, all_cards_count=True) == 8 + 5 + 8 + 3 + 8
    assert tableau_score([]) == 0


def test_s16_all_cards_count_scores_every_face_on_the_table() -> None:
    def run(**opts: Any) -> tuple[float, ...]:
        state = new(
            ["arl/S1", "deiskatun/S2", "1/S8", "2/S8"],
            LOW1,
            hands_per_game=1,
            max_turns_per_hand=1,
            **opts,
        )
        play(state, "0 open arl/S1", "1 stand", "0 draw", "0 play deiskatun/S2")
        outcome = state.outcome()
        assert outcome is not None
        return outcome.scores

    assert run() == (0, 0)
    assert run(all_cards_count=True) == (16, 0)


def test_s17_s20_tied_seats_share_the_win_and_the_turn_limit_ends_the_hand() -> None:
    state = new(LOW0, LOW1, hands_per_game=1, max_turns_per_hand=2)
    play(state, "0 stand", "1 stand", "0 draw", "0 discard 1/S8", "1 draw", "1 discard 1/S7")
    assert state.is_over
    assert state.hand_log[0]["reason"] == "turn limit"
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.scores == (0, 0)


# ------------------------------------------------------------------ S-18: length of a game


def random_game(players: int, seed: int, **options: Any) -> SomachiState:
    state = make_game("somachi", players, **options).new_state(seed=seed)

    def check(s: Any) -> None:
        check_cards_conserved(s)
        s.check_invariants()

    random_playout(state, random.Random(seed), check)
    assert isinstance(state, SomachiState)
    return state


def test_s18_a_game_is_one_hand_per_seat_by_default() -> None:
    state = random_game(3, 1, max_turns_per_hand=30)
    assert len(state.hand_log) == 3
    assert [h["dealer"] for h in state.hand_log] == [2, 0, 1]


def test_s18_thousand_points_plays_until_a_tally_reaches_584() -> None:
    assert TARGET_POINTS == 8 * 64 + 8 * 8 + 8
    state = random_game(2, 4, thousand_points=True, all_cards_count=True, max_turns_per_hand=40)
    assert max(state.tallies) >= TARGET_POINTS
    before = [sum(h["scores"][s] for h in state.hand_log[:-1]) for s in range(2)]
    assert max(before) < TARGET_POINTS  # it ended after the first hand that reached it
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (state.tallies.index(max(state.tallies)),)


# ------------------------------------------------------------------ S-19, S-2: deck and discards


@pytest.mark.parametrize("seed_discard", [False, True])
def test_s19_the_reshuffle_uses_removed_cards_and_the_discards_under_the_top(
    seed_discard: bool,
) -> None:
    game = make_game("somachi", 2, seed_discard=seed_discard, hands_per_game=8)
    state = game.new_state(seed=2)
    assert isinstance(state, SomachiState)
    rng = random.Random(2)
    seen = 0
    while not state.is_over and seen < 2:
        seat = min(state.actors())
        action = choose_uniform(rng, state.legal_actions(seat))
        if action.kind == "draw" and not state.deck:
            top = state.discard[-1] if state.discard else None
            pool = sorted(
                state.removed_pub
                + [c for r in state.removed_priv for c in r]
                + (state.discard if seed_discard else state.discard[:-1])
            )
            held = list(state.hands[seat])
            state.apply(seat, action)
            seen += 1
            assert state.events[-1].kind == "draw" or any(
                e.kind == "reshuffle" for e in state.events[-4:]
            )
            drawn = [c for c in state.hands[seat] if c not in held]  # hands are in card order
            now = sorted(state.zones()["deck"] + drawn)
            if seed_discard:
                # the whole pile went in, and the new deck's top card was turned up
                assert len(state.discard) == 1 and state.disc_by == [-1]
                now = sorted(now + state.discard)
                assert now == pool
            else:
                assert state.discard == [top] and now == pool
            assert not state.removed_pub and not any(state.removed_priv)
        else:
            state.apply(seat, action)
    assert seen == 2


@pytest.mark.parametrize("clear", [True, False])
def test_s2_the_discard_pile_is_removed_between_hands(clear: bool) -> None:
    game = make_game("somachi", 2, clear_discard_between_hands=clear, max_turns_per_hand=6)
    state = game.new_state(seed=5)
    assert isinstance(state, SomachiState)
    rng = random.Random(5)
    while not state.hand_log:
        seat = min(state.actors())
        before = list(state.discard)
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert before, "the first hand left discards"
    if clear:
        assert state.discard == []
    else:
        assert state.discard  # kept (possibly changed by the last action)
    assert state.dealer == 0 and state.actors() == {1}  # the deal moved left


def test_s36_the_opening_draw_falls_back_to_the_discard_pile() -> None:
    state = new(["alak/S1", "1/S8", "2/S8", "3/S8"], LOW1)
    # white-box: empty the deck into seat 1's hand, leaving one card on the discard pile
    state.hands[1].extend(state.deck[1:])
    state.hands[1].sort()  # hands are kept in card order
    state.discard = [state.deck[0]]
    state.disc_by = [-1]
    state.deck = []
    top = str(state.discard[0])
    play(state, "0 open alak/S1")
    assert top in hand(state, 0) and state.discard == []
    check_cards_conserved(state)


# ------------------------------------------------------------------ S-26 and the views


def test_views_show_own_hand_tableaus_discard_top_and_sizes_only() -> None:
    state = new(*CLAIM_HANDS, then=CLAIM_THEN)
    play(state, "0 stand", "1 stand", "2 open arl/S3", "0 draw", "0 discard 1/S8", "1 draw")
    play(state, "1 discard 1/S7", "2 draw", "2 discard 1/S6")
    view = state.view(0)
    assert sorted(view["hand"]) == hand(state, 0)
    assert view["hand_sizes"] == [4, 4, 4]
    assert view["tableaus"] == [[], [], [["arl/S3"]]]
    assert view["discard_top"] == "1/S6" and view["discard_size"] == 3
    assert view["deck_size"] == len(state.deck)
    text = json.dumps(view)
    for seat in (1, 2):
        for c in state.hands[seat]:
            assert f'"{c}"' not in text, f"seat 0 sees {c} in seat {seat}'s hand"
    for c in state.discard[:-1]:
        assert f'"{c}"' not in text, "a card under the top of the discard pile is shown"
    assert all(f'"{c}"' not in json.dumps(state.view(None)) for h in state.hands for c in h)
    # seat 1's private draw is hidden from seat 0's events
    drawn = [e for e in state.events_for(0) if e["kind"] == "draw" and e["seat"] == 1]
    assert drawn and all("card" not in e for e in drawn)


def test_determinize_keeps_what_a_seat_knows() -> None:
    state = new(*CLAIM_HANDS, then=CLAIM_THEN)
    play(state, "0 stand", "1 stand", "2 open arl/S3", "0 draw", "0 discard 5/S3", "2 claim")
    for k in range(5):
        world = state.determinize(0, random.Random(k))
        assert isinstance(world, SomachiState)
        assert world.hands[0] == state.hands[0]
        assert RailogCard.parse("5/S3") in world.hands[2]  # everyone saw it claimed
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert world.discard == state.discard
        check_cards_conserved(world)


def test_a_world_sampled_for_a_seat_holds_no_other_seats_private_deal() -> None:
    """Issue 15's leak: worlds kept the other seats' private deal events with their real
    cards. Now every event hidden from the seat is masked, its place kept."""
    state = make_game("somachi", 3).new_state(seed=4)
    hidden = [i for i, e in enumerate(state.events) if not e.visible_to(0)]
    assert any(state.events[i].kind == "deal" and state.events[i].data for i in hidden)
    world = state.determinize(0, random.Random(1))
    assert len(world.events) == len(state.events)
    for i, (real, sampled) in enumerate(zip(state.events, world.events, strict=True)):
        if i in hidden:
            assert sampled == HIDDEN_EVENT and not sampled.visible_to(0)
        else:
            assert sampled == real
    assert world.events_for(0) == state.events_for(0)


def test_notation_and_ids_round_trip() -> None:
    game = make_game("somachi", 3, gambling=True, chips=5)
    for i in range(game.num_distinct_actions):
        try:
            action = game.action_from_id(i)
        except KeyError:
            continue
        assert game.action_id(action) == i
        assert game.parse_action(str(action)) == action
    with pytest.raises(NotationError):
        game.parse_action("attack arlas/S3")
    assert game.parse_action("add 5/S3 alak/S3") == Action("add", tuple(cards("5/S3 alak/S3")))


def test_full_games_replay_from_their_records() -> None:
    for players, opts in (
        (2, {}),
        (4, {"gambling": True, "chips": 20}),
        (8, {"seed_discard": True}),
    ):
        state = random_game(players, 11, **opts)
        rec = Record.from_json(Record.from_state(state).to_json())
        assert replay(rec).digest() == state.digest()


# ------------------------------------------------------------------ 2.3, S-21..S-25, S-34..S-38

BRING_HANDS = (LOW0, ["alak/S1", "1/S7", "2/S7", "3/S7"], ["alak/S2", "1/S6", "2/S6", "3/S6"])


def test_s21_bring_in_later_seats_pay_or_fold_openers_raise_and_a_catch_up_follows() -> None:
    state = new(*BRING_HANDS, gambling=True, chips=10)
    play(state, "0 stand", "1 open alak/S1")
    assert legal(state, 1) == ["bet 1..10", "check"]  # S-37
    assert state.view(1)["legal"] == [{"kind": "bet", "min": 1, "max": 10, "step": 1}, "check"]
    play(state, "1 bet 2", "2 pay")
    assert legal(state, 2) == ["open alak/S2", "stand"]
    play(state, "2 open alak/S2")
    assert legal(state, 2) == ["raise 1..8", "check"]
    assert state.is_legal(2, Action("raise", 8))
    assert not state.is_legal(2, Action("raise", 9))  # declared amounts must be payable in full
    with pytest.raises(IllegalActionError, match=r"raise 1\.\.8"):
        state.apply(2, "raise 9")
    play(state, "2 raise 3")
    # the catch-up, clockwise from the dealer's left: seat 0 (who stood before) and seat 1
    assert state.pending() == {"kind": "owe", "seat": 0, "amount": 5, "for": "bring-in"}
    play(state, "0 pay", "1 pay")
    assert state.money is not None
    assert state.money.stacks == [5, 5, 5] and state.money.totals == [5, 5, 5]
    assert state.actors() == {0} and legal(state, 0) == ["draw"]


def test_s21_bring_in_binds_earlier_false_exempts_seats_that_stood_before() -> None:
    state = new(*BRING_HANDS, gambling=True, chips=10, bring_in_binds_earlier=False)
    play(state, "0 stand", "1 open alak/S1", "1 bet 2", "2 pay", "2 open alak/S2", "2 raise 3")
    assert state.pending() == {"kind": "owe", "seat": 1, "amount": 3, "for": "bring-in"}
    play(state, "1 pay")
    assert state.money is not None and state.money.stacks == [10, 5, 5]


def test_s21_no_bring_in_when_the_first_opener_declines() -> None:
    state = new(*BRING_HANDS, gambling=True, chips=10)
    play(state, "0 stand", "1 open alak/S1", "1 check", "2 open alak/S2")
    assert state.actors() == {0} and legal(state, 0) == ["draw"]  # no raise, no bring-in
    assert state.money is not None and state.money.stacks == [10, 10, 10]


def test_s22_stay_in_bets_on_an_arlas_and_its_deiskatun_are_both_owed() -> None:
    state = new(
        ["arlas/S5", "1/S8", "2/S8", "3/S8"],
        ["alak/S5", "2/S5", "alak/S6", "deiskatun/S5"],
        LOW2,
        then=ATTACK_THEN,
        gambling=True,
        chips=10,
    )
    play(state, "0 stand", "1 open alak/S5", "1 check", "2 stand")
    play(state, "0 draw", "0 discard 1/S8")
    play(state, "1 draw", "1 add 2/S5 alak/S5", "1 play alak/S6", "1 check")
    play(state, "2 draw", "2 discard 1/S6")
    play(state, "0 draw", "0 add 3/S5 alak/S5", "0 attack arlas/S5 1", "0 bet 2")
    play(state, "1 defend")
    assert state.pending() == {"kind": "stay-in bet", "seat": 1}
    play(state, "1 bet 3")
    # S-40: clockwise from the attacker's left, the attacker last; each pays every bet it
    # did not make itself
    assert state.pending() == {"kind": "owe", "seat": 1, "amount": 2, "for": "stay-in bets"}
    play(state, "1 pay")
    assert state.pending() == {"kind": "owe", "seat": 2, "amount": 5, "for": "stay-in bets"}
    play(state, "2 pay")
    assert state.pending() == {"kind": "owe", "seat": 0, "amount": 3, "for": "stay-in bets"}
    play(state, "0 pay")
    assert state.money is not None and state.money.stacks == [5, 5, 5]
    assert state.actors() == {1}


def ruling_record(actions: list[str], version: int = 2) -> Record:
    """The record of a two-seat gambling hand: seat 0 attacks seat 1's alak with an arlas
    and bets 2, seat 1 defends with its deiskatun and bets 3; then ``actions``."""
    deck = stacked(
        ["arlas/S5", "1/S8", "2/S8", "3/S8"],
        ["alak/S5", "2/S5", "alak/S6", "deiskatun/S5"],
        then=ATTACK_THEN,
    )
    moves = ["0 stand", "1 open alak/S5", "1 check", "0 draw", "0 attack arlas/S5 1"]
    moves += ["0 bet 2", "1 defend", "1 bet 3", *actions]
    return Record.from_dict(
        {
            "format": "cardhall-record",
            "version": version,
            "game": "somachi",
            "players": 2,
            "options": {"gambling": True, "chips": 10, "hands_per_game": 1},
            "deck": [str(c) for c in deck],
            "actions": [[int(m[0]), m[2:]] for m in moves],
        }
    )


def test_s40_stay_in_bets_are_matched_from_the_left_of_the_player_who_is_asked_last() -> None:
    state = replay(ruling_record([]))
    # seat 0's turn: seat 1 (its left) is asked first for seat 0's bet; seat 0 last
    assert state.pending() == {"kind": "owe", "seat": 1, "amount": 2, "for": "stay-in bets"}
    # seat 1 folds: one seat is left, the hand ends and seat 0 never pays seat 1's bet
    state = replay(ruling_record(["1 fold"]))
    assert state.is_over and state.hand_log[0]["reason"] == "fold"
    assert not [e for e in state.events if e.kind == "pay" and e.seat == 0]
    assert state.money is not None and state.money.stacks == [13, 7]
    # in the old order seat 0 was asked first: that record is refused now ...
    with pytest.raises(RecordError, match=r"action 8 \[0, 'pay'\].*not this seat's turn"):
        replay(ruling_record(["0 pay", "1 fold"]))


def test_s40_s41_a_record_from_before_the_rulings_still_replays_as_played() -> None:
    """A version 1 record (before S-40 and S-41) replays with the rules it was played
    with: seat 0 asked first, and the most chips winning."""
    old = ruling_record(["0 pay", "1 fold"], version=1)
    state = replay(old)
    assert state.game.options["stay_in_order"] == "turn"
    assert [e.seat for e in state.events if e.kind == "pay"] == [0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (13, 7)
    assert Record.from_json(old.to_json()).version == 1
    with pytest.raises(RecordError, match="unsupported record version 3"):
        Record.from_dict({**old.to_dict(), "version": 3})


def test_s41_with_gambling_the_highest_tally_wins_and_chips_are_the_payoffs() -> None:
    state = replay(ruling_record(["1 fold"]))
    outcome = state.outcome()
    assert outcome is not None
    # nobody scored (tallies 0 and 0): both share the win, though seat 0 won the chips
    assert state.tallies == [0, 0] and outcome.scores == (0, 0) and outcome.winners == (0, 1)
    assert outcome.payoffs == (3.0, -3.0) and outcome.details["chips"] == [13, 7]
    record = Record.from_state(state)
    assert record.result == {"scores": [0, 0], "winners": [0, 1]}
    assert replay(Record.from_json(record.to_json())).digest() == state.digest()


def challenge_state(**opts: Any) -> SomachiState:
    state = new(
        ["alak/S3", "1/S8", "2/S8", "3/S8"],
        LOW1,
        LOW2,
        gambling=True,
        chips=10,
        hands_per_game=1,
        **opts,
    )
    play(state, "0 stand", "1 stand", "2 stand", "0 draw")
    return state


def test_s23_a_declined_challenge_moves_no_chips_and_doubles_the_points() -> None:
    state = challenge_state(max_turns_per_hand=1)
    play(state, "0 challenge 2", "1 meet", "2 decline")
    assert state.money is not None and state.money.stacks == [10, 10, 10]
    assert state.view(0)["multiplier"] == 2
    assert not any(a.startswith("challenge") for a in legal(state, 0))  # once per turn
    play(state, "0 play alak/S3", "0 check")
    assert state.is_over
    assert state.hand_log[0]["scores"] == [16, 0, 0]
    assert state.tallies == [16, 0, 0]


def test_s34_a_challenge_ends_at_the_first_decline_and_if_all_meet_everyone_pays() -> None:
    state = challenge_state()
    play(state, "0 challenge 2", "1 decline")
    assert state.actors() == {0}  # seat 2 was not asked
    state = challenge_state()
    play(state, "0 challenge 2", "1 meet", "2 meet")
    assert state.money is not None and state.money.stacks == [8, 8, 8]
    assert state.view(0)["multiplier"] == 1


@pytest.mark.parametrize(("stack", "mult"), [(True, 4), (False, 2)])
def test_s23_declined_challenges_stack(stack: bool, mult: int) -> None:
    state = challenge_state(challenge_stack=stack)
    play(state, "0 challenge 1", "1 decline", "0 discard 1/S8")
    play(state, "1 draw", "1 challenge 1", "2 decline")
    assert state.view(0)["multiplier"] == mult


def test_s24_s25_s38_all_in_side_pots_and_folding() -> None:
    state = new(
        ["alak/S3", "1/S8", "2/S8", "3/S8"],
        ["arl/S1", "1/S7", "2/S7", "3/S7"],
        LOW2,
        gambling=True,
        chips=4,
        bring_in_binds_earlier=False,
        hands_per_game=1,
        max_turns_per_hand=2,
    )
    play(state, "0 stand", "1 open arl/S1", "1 bet 3", "2 pay", "2 stand")
    play(state, "0 draw", "0 play alak/S3", "0 bet 2")
    assert state.money is not None
    assert state.pending() == {"kind": "owe", "seat": 1, "amount": 2, "for": "stay-in bets"}
    play(state, "1 pay")  # only 1 chip left: all-in, and still in
    assert state.money.stacks[1] == 0 and state.active[1]
    folded_hand = list(state.hands[2])
    assert legal(state, 2) == ["pay", "fold"]
    play(state, "2 fold")
    assert not state.active[2] and state.hands[2] == []
    assert set(folded_hand) <= set(state.zones()["removed"])  # S-25
    assert [(p.amount, p.eligible) for p in state.money.pots()] == [(6, (0, 1)), (3, (1,))]
    assert state.actors() == {1}  # S-38: the next active seat after seat 0
    play(state, "1 draw", "1 discard 1/S7")
    assert state.is_over
    # seat 0 (alak, 8) beats seat 1 (arl, 0) for the main pot; the side pot goes back
    assert state.money.stacks == [2 + 6, 0 + 3, 1]
    outcome = state.outcome()
    # S-41: the tallies decide the game; the chips are the payoffs beside them
    assert outcome is not None and outcome.scores == (8, 0, 0) and outcome.winners == (0,)
    assert outcome.payoffs == (4.0, -1.0, -3.0) and outcome.details["chips"] == [8, 3, 1]


def test_whole_pot_mode_makes_one_pot_for_everyone_still_in() -> None:
    state = new(
        ["alak/S3", "1/S8", "2/S8", "3/S8"],
        ["arl/S1", "1/S7", "2/S7", "3/S7"],
        LOW2,
        gambling=True,
        chips=4,
        bring_in_binds_earlier=False,
        allin_mode="whole_pot",
    )
    play(state, "0 stand", "1 open arl/S1", "1 bet 3", "2 pay", "2 stand")
    play(state, "0 draw", "0 play alak/S3", "0 bet 2", "1 pay", "2 fold")
    assert state.money is not None
    assert [(p.amount, p.eligible) for p in state.money.pots()] == [(9, (0, 1))]


def test_a_fold_that_leaves_one_seat_ends_the_hand_and_it_takes_the_pot() -> None:
    state = new(["alak/S3", "1/S8", "2/S8", "3/S8"], LOW1, gambling=True, chips=5, hands_per_game=1)
    play(state, "0 stand", "1 stand", "0 draw")
    assert "fold" not in legal(state, 0)  # S-37: folding only when owing
    play(state, "0 play alak/S3", "0 bet 2", "1 fold")
    assert state.is_over
    assert state.money is not None and state.money.stacks == [5, 5]
    assert state.hand_log[0]["reason"] == "fold" and state.hand_log[0]["winners"] == [0]


# ------------------------------------------------------------------ variants and invariants


def test_seed_discard_turns_a_card_up_after_the_opening_round_and_may_open_a_claim() -> None:
    state = new(["arl/S4", "1/S8", "2/S8", "3/S8"], LOW1, then=["1/S5", "6/S4"], seed_discard=True)
    play(state, "0 open arl/S4", "1 stand")
    # the next card of the deck (6/S4) is turned up; seat 0's arl may claim it at once
    assert [str(c) for c in state.discard] == ["6/S4"] and state.disc_by == [-1]
    assert state.actors() == {0} and legal(state, 0) == ["claim", "pass"]
    play(state, "0 claim")
    assert "6/S4" in hand(state, 0)
    assert state.actors() == {0} and legal(state, 0) == ["draw"]


def test_any_face_opens_lets_a_deiskatun_pile_take_adds() -> None:
    state = new(["deiskatun/S3", "4/S3", "1/S8", "2/S8"], LOW1, any_face_opens=True)
    play(state, "0 open deiskatun/S3", "1 stand", "0 draw", "0 add 4/S3 deiskatun/S3")
    assert state.piles(0) == [cards("deiskatun/S3 4/S3")]
    state.check_invariants()


def test_a_seat_without_chips_sits_the_next_hand_out() -> None:
    state = new(["alak/S3", "1/S8", "2/S8", "3/S8"], LOW1, LOW2, gambling=True, chips=3)
    play(state, "0 stand", "1 stand", "2 stand", "0 draw", "0 play alak/S3", "0 bet 3")
    play(state, "1 pay", "2 fold")
    assert state.money is not None and state.money.stacks == [0, 0, 3]
    # the hand goes on until someone goes out or the limit; play it out at random
    rng = random.Random(0)
    while len(state.hand_log) < 1:
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    if not state.is_over:
        broke = [s for s in range(3) if state.money.stacks[s] == 0]
        assert broke
        for s in broke:
            assert not state.dealt[s] and state.hands[s] == []
        assert all(s not in broke for s in state.actors())


def test_invariant_4_hand_sizes_over_turns() -> None:
    """Over a regular turn the hand changes by +1 (draw) - adds + takings - 1 (finish)."""
    for seed in range(6):
        game = make_game("somachi", 3, hands_per_game=1, max_turns_per_hand=80)
        state = game.new_state(seed=seed)
        assert isinstance(state, SomachiState)
        rng = random.Random(seed)
        while not state.is_over:
            seat = min(state.actors())
            action = choose_uniform(rng, state.legal_actions(seat))
            size = len(state.hands[seat])
            n_events = len(state.events)
            state.apply(seat, action)
            if state.is_over or state.hand_log:
                break
            taken = sum(
                len(e.data["cards"])
                for e in state.events[n_events:]
                if e.kind in ("sweep", "claim", "collect") and e.seat == seat and e.to is None
            )
            delta = len(state.hands[seat]) - size
            if action.kind in ("draw", "take"):
                assert delta in (1, 1 + taken)
            elif action.kind == "add":
                assert delta == -1
            elif action.kind in ("claim", "collect"):
                assert delta == taken
            elif action.kind == "discard":
                assert delta == -1
            elif action.kind == "play":
                assert delta == -1 + taken
            elif action.kind == "open":
                assert delta == taken or delta == taken - 1  # drew 1 unless nothing was left


def test_options_are_validated() -> None:
    with pytest.raises(OptionError):
        make_game("somachi", 2, collect_to="table")
    with pytest.raises(OptionError):
        make_game("somachi", 2, allin_mode="split")
    with pytest.raises(OptionError):
        make_game("somachi", 2, max_turns_per_hand=0)
    assert make_game("somachi", 5).n_hands == 5


def test_s11_a_claim_that_uncovers_another_suit_offers_that_window_before_the_next_turn() -> None:
    state = new(
        ["4/S4", "5/S3", "1/S8", "2/S8"],
        ["alak/S7", "1/S7", "2/S7", "3/S7"],
        ["arl/S3", "alak/S6", "2/S6", "3/S6"],
        ["arl/S4", "alak/S5", "2/S5", "3/S5"],
    )
    play(state, "0 stand", "1 stand", "2 open arl/S3", "3 open arl/S4")
    play(state, "0 draw", "0 discard 4/S4", "3 pass")
    play(state, "1 draw", "1 play alak/S7", "2 draw", "2 play alak/S6", "3 draw")
    play(state, "3 play alak/S5", "0 draw", "0 discard 5/S3")
    assert state.actors() == {2}
    play(state, "2 claim")
    # the claim uncovered seat 0's 4/S4: seat 3's window is settled before seat 1 plays
    assert state.actors() == {3} and legal(state, 3) == ["claim", "pass"]
    play(state, "3 claim")
    assert "4/S4" in hand(state, 3) and "5/S3" in hand(state, 2)
    assert state.actors() == {1} and state.pending()["kind"] == "draw"  # type: ignore[index]


def test_s13_an_arl_sweeps_a_played_deiskatun() -> None:
    state = new(["arl/S2", "1/S8", "2/S8", "3/S8"], ["deiskatun/S2", "1/S7", "2/S7", "3/S7"])
    play(state, "0 stand", "1 stand", "0 draw", "0 discard 1/S8", "1 draw")
    play(state, "1 play deiskatun/S2", "0 draw", "0 play arl/S2")
    assert "deiskatun/S2" in hand(state, 0) and state.tab[1] == []


def test_s19_when_the_deck_cannot_be_rebuilt_the_draw_comes_from_the_discard_pile() -> None:
    state = new(LOW0, LOW1)
    play(state, "0 stand", "1 stand", "0 draw", "0 discard 1/S8")
    assert state.actors() == {1} and legal(state, 1) == ["draw", "take"]
    # white-box: the rest of the deck goes into seat 0's hand; nothing to rebuild from
    state.hands[0].extend(state.deck)
    state.hands[0].sort()  # hands are kept in card order
    state.deck = []
    state._cache_seat = -1
    assert legal(state, 1) == ["take"]


def test_s28_cards_added_to_another_seats_arl_score_for_its_owner() -> None:
    state = new(["arl/S2", "1/S8", "2/S8", "3/S8"], ["6/S2", "1/S7", "2/S7", "3/S7"])
    play(state, "0 open arl/S2", "1 stand", "0 draw", "0 discard 1/S8")
    play(state, "1 draw", "1 add 6/S2 arl/S2", "1 discard 1/S7")
    assert state.scores_now() == [6, 0]


def test_s31_claims_go_to_the_arl_pile_under_collect_to_pile() -> None:
    state = new(*CLAIM_HANDS, then=CLAIM_THEN, collect_to="pile")
    play(state, "0 stand", "1 stand", "2 open arl/S3", "0 draw", "0 discard 5/S3", "2 claim")
    assert state.piles(2) == [cards("arl/S3 5/S3")]
    assert state.scores_now()[2] == 5


def test_a_billion_chips_give_short_legal_lists_and_small_views() -> None:
    """Amounts are ranges: with 10^9 chips a seat's legal list stays a handful of entries
    (it used to be one action per amount: a billion), bots and random play still work,
    and each amount is validated against its range."""
    game = make_game("somachi", 3, gambling=True, chips=10**9, hands_per_game=2)
    for level in ("random", "heuristic"):
        state = game.new_state(seed=5)
        bots = [make_bot(game, level, seed=s) for s in range(3)]
        rng = random.Random(5)
        ranges = 0
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            assert len(legal) < 60
            for entry in legal:
                if isinstance(entry, AmountRange):
                    ranges += 1
                    assert entry.min == 1 and entry.max == state.money.stacks[seat]  # type: ignore[union-attr]
                    assert not state.is_legal(seat, Action(entry.kind, entry.max + 1))
                    assert not state.is_legal(seat, Action(entry.kind, 0))
            assert len(json.dumps(state.view(seat))) < 20_000
            action = bots[seat].choose(state, seat) if len(state.history) % 2 else None
            state.apply(seat, action or choose_uniform(rng, legal))
        assert ranges > 0
        assert sum(state.money.stacks) == 3 * 10**9  # type: ignore[union-attr]


def test_legal_lists_handed_out_are_copies_that_a_caller_may_change() -> None:
    """The small decisions' answers and the amount ranges are built once and shared; a
    caller that changes the list it was given (adversarial, or careless) changes nothing
    for the state, for the next call, or for another game."""
    for players, options in [
        (2, {"gambling": True, "chips": 4}),
        (4, {"gambling": True, "chips": 300, "hands_per_game": 1}),
        (3, {"seed_discard": True, "hands_per_game": 1}),
    ]:
        game = make_game("somachi", players, **options)
        for seed in range(3):
            state = game.new_state(seed=seed)
            twin = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_over:
                seat = min(state.actors())
                legal = state.legal_actions(seat)
                kept = list(legal)
                for entry in legal:
                    if isinstance(entry, AmountRange):
                        stack = state.money.stacks[seat]  # type: ignore[union-attr]
                        assert (entry.min, entry.max, entry.step) == (1, stack, 1)
                legal.clear()
                legal.append(Action("junk"))
                assert state.legal_actions(seat) == kept
                assert twin.legal_actions(seat) == kept
                assert not state.is_legal(seat, Action("junk"))
                action = choose_uniform(rng, kept)
                state.apply(seat, action)
                twin.apply(seat, action)
            assert state.digest() == twin.digest()


# --------------------------------------------------------------------------- the package


def test_the_package_keeps_the_old_import_path_and_pickles_resume() -> None:
    """Somachi is a package: ``cardhall.games.somachi.SomachiState`` is still the state
    class, a pickle naming that old path loads, and a state pickled with tasks pending
    (a challenge waiting for answers) goes on exactly like the original."""
    import pickle

    import cardhall.games.somachi as package
    from cardhall.games.somachi import state as state_module
    from cardhall.games.somachi.tasks import ChallengeStep

    assert package.SomachiState is state_module.SomachiState
    game = make_game("somachi", 3, gambling=True, chips=20)
    state = game.new_state(seed=11)
    rng = random.Random(4)
    while not any(isinstance(t, ChallengeStep) for t in state.tasks):
        seat = min(state.actors())
        legal = state.legal_actions(seat)
        challenge = [a for a in legal if isinstance(a, AmountRange) and a.kind == "challenge"]
        state.apply(seat, Action("challenge", 1) if challenge else choose_uniform(rng, legal))
    data = pickle.dumps(state, protocol=2)
    old_path = data.replace(b"cardhall.games.somachi.state\n", b"cardhall.games.somachi\n")
    assert old_path != data
    for copy in (pickle.loads(data), pickle.loads(old_path)):
        assert copy.digest() == state.digest()
        a, b = random.Random(9), random.Random(9)
        original = state.clone()
        while not original.is_over:
            seat = min(original.actors())
            original.apply(seat, choose_uniform(a, original.legal_actions(seat)))
            copy.apply(seat, choose_uniform(b, copy.legal_actions(seat)))
            assert copy.digest() == original.digest()


def test_chip_events_and_stands_keep_their_data() -> None:
    """Stands, folds, payments, bring-ins, raises, challenges and their answers are told
    as short entries and made events when read: their kinds, seats, data (with its keys
    in order) and audiences are those of the events they always were (pinned from main
    before the short entries)."""
    kinds = {"stand", "fold", "pay", "meet", "decline", "bring_in", "no_bring_in", "stay_in"}
    kinds |= {"challenge", "no_draw", "raise"}
    out: list[list[Any]] = []
    for seed in range(6):
        state = make_game("somachi", 4, gambling=True, chips=3, max_turns_per_hand=4).new_state(
            seed=seed
        )
        rng = random.Random(seed)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
        for i, e in enumerate(state.events):
            if e.kind in kinds:
                out.append([i, e.kind, e.seat, e.data, sorted(e.to) if e.to is not None else None])
    assert out[8] == [34, "pay", 3, {"amount": 2, "owed": 2, "all_in": False}, None]
    assert out[0] == [10, "stand", 0, {}, None]
    assert out[2] == [15, "bring_in", 2, {"amount": 3}, None]
    text = json.dumps(out)  # key order included
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert digest == "7477f777edc13b430a39c80d2c4276b3591564a29b5f6b99cd49e6a7bc76fe2e"


def test_an_amount_is_legal_exactly_inside_its_range() -> None:
    """``is_legal`` finds an amount in the legal list's range (and nothing else with an
    amount), as :func:`legal_contains` does."""
    from cardhall.engine import legal_contains

    state = make_game("somachi", 3, gambling=True, chips=5).new_state(seed=2)
    rng = random.Random(3)
    checked = 0
    while not state.is_over and checked < 40:
        seat = min(state.actors())
        legal_now = state.legal_actions(seat)
        for kind in ("bet", "raise", "challenge", "pay"):
            for amount in (-1, 0, 1, 2, 5, 6, True):
                action = Action(kind, amount)
                assert state.is_legal(seat, action) == legal_contains(legal_now, action)
                assert not state.is_legal(1 - seat if seat < 2 else 0, action)
                checked += any(isinstance(e, AmountRange) for e in legal_now)
        state.apply(seat, choose_uniform(rng, legal_now))
    assert checked >= 40


def test_pile_faces_come_in_seat_then_placement_order() -> None:
    """With ``any_face_opens`` several piles of a suit take adds: their faces are offered
    seat by seat, each seat's in the order its piles were opened."""
    from cardhall.games.somachi.legal import pile_faces

    state = new(LOW0, LOW1, LOW2, any_face_opens=True)
    x = cards("alak/S1")[0].suit - 1  # the suit's index
    for seat, face in ((2, "arl/S1"), (1, "deiskatun/S1"), (2, "alak/S1"), (1, "arlas/S1")):
        state._place_pile(seat, cards(face)[0])
    assert [str(RAILOG_DECK[f]) for f in pile_faces(state, x)] == [
        "deiskatun/S1",
        "arlas/S1",
        "arl/S1",
        "alak/S1",
    ]
    state.afo = False  # the option as the state reads it
    assert [str(RAILOG_DECK[f]) for f in pile_faces(state, x)] == ["arl/S1", "alak/S1"]


def test_the_usual_draw_and_discard_go_on_without_the_task_stack() -> None:
    """A draw from a non-empty deck with no window waiting, and a discard that opens no
    window, are done at once (what the task stack's steps would do): the stack is left as
    it was, and the next decision is the one the stack would ask. A discard that opens a
    claim window still goes through the stack: the window comes before the next turn."""
    low3 = ["1/S5", "2/S5", "3/S5", "4/S5"]
    state = new(["4/S4", "1/S8", "2/S8", "3/S8"], LOW1, ["arl/S4", "1/S6", "2/S6", "3/S6"], low3)
    play(state, "0 stand", "1 stand", "2 open arl/S4", "3 stand")
    tasks = list(state.tasks)
    deck = len(state.deck)
    play(state, "0 draw")
    assert state.tasks == tasks and len(state.deck) == deck - 1 and len(state.hands[0]) == 5
    assert state.actors() == {0} and state.pending() == {"kind": "turn", "seat": 0}
    play(state, "0 discard 1/S8")  # no window: the next seat's turn at once
    assert state.tasks == tasks and state.turns == 2
    assert state.actors() == {1} and state.pending() == {"kind": "draw", "seat": 1}
    play(state, "1 draw", "1 discard 4/S7")
    play(state, "2 draw", "2 discard 1/S6", "3 draw", "3 discard 4/S5")
    play(state, "0 draw", "0 discard 4/S4")  # seat 2's arl may claim it: the stack's window
    assert state.actors() == {2} and legal(state, 2) == ["claim", "pass"]
    play(state, "2 pass")
    assert state.actors() == {1} and state.pending() == {"kind": "draw", "seat": 1}


def test_a_hands_pots_are_made_json_when_read() -> None:
    """A hand's end keeps its pots' results as the settlement gave them; the hand log,
    the hand's end event and the views show them as JSON, made once on the first read."""
    from cardhall.money import results_json

    state = new(["alak/S3", "1/S8", "2/S8", "3/S8"], LOW1, gambling=True, chips=5, hands_per_game=2)
    play(state, "0 stand", "1 stand", "0 draw", "0 play alak/S3", "0 bet 2", "1 fold")
    raw = state._hand_log[0]["pots"]
    assert type(raw) is tuple  # nobody read it yet
    json_pots = results_json(raw)
    assert json_pots == [{"amount": 2, "eligible": [0], "winners": [0], "shares": {"0": 2}}]
    (event,) = [e for e in state.events if e.kind == "hand_end"]
    assert event.data["pots"] == json_pots
    assert list(event.data)[:8] == [
        "dealer",
        "scores",
        "winners",
        "multiplier",
        "reason",
        "pots",
        "received",
        "chips",
    ]
    assert state._hand_log[0]["pots"] == json_pots  # made JSON in place, once
    assert state.hand_log[0]["pots"] is state._hand_log[0]["pots"]
    assert state.view(0)["hands"][0]["pots"] == json_pots


# The digests of seeded games as main played them before the eleventh session's changes
# (the usual draw and discard without the task stack, a hand's pots made JSON when read,
# fewer and shorter told entries): views after every action in three games of each, only
# at the end in three more.
PINNED_GAMES = (
    (2, {"hands_per_game": 2, "max_turns_per_hand": 12}, "5e72706ee078f9588186d57d"),
    (3, {"seed_discard": True, "max_turns_per_hand": 10}, "11bca7a84c5e758f1395e235"),
    (
        4,
        {"gambling": True, "chips": 3, "allin_mode": "whole_pot", "max_turns_per_hand": 6},
        "1d41bb41cc24b388423d6370",
    ),
    (
        6,
        {"gambling": True, "chips": 3, "any_face_opens": True, "max_turns_per_hand": 4},
        "ee7831ea446202a75276f6cd",
    ),
)


@pytest.mark.parametrize(("players", "options", "digest"), PINNED_GAMES)
def test_seeded_games_are_played_and_told_as_before(
    players: int, options: dict[str, Any], digest: str
) -> None:
    h = hashlib.sha256()
    for seed in range(6):
        state = make_game("somachi", players, **options).new_state(seed=seed)
        # the first three games read at every step; the others only at the end
        step = (lambda s: h.update(s.digest().encode())) if seed < 3 else None
        random_playout(state, random.Random(seed), step)
        h.update(state.digest().encode())
        h.update(repr(state.outcome()).encode())
    assert h.hexdigest()[:24] == digest


def test_hands_deals_turn_limits_game_ends_and_challenges_are_told_as_before() -> None:
    """A hand's start, its deal (one short entry for every hand), the turn limit, the
    game's end, a declined challenge and a met one are told as short entries and made
    events when read: their kinds, seats, data (keys in order) and audiences are those of
    the events they always were (pinned from main before the short entries)."""
    kinds = {"hand", "deal", "turn_limit", "game_end", "decline", "challenge_met", "hand_end"}
    out: list[list[Any]] = []
    for players, options in (
        (3, {"max_turns_per_hand": 2, "hands_per_game": 2}),
        (2, {"gambling": True, "chips": 6, "max_turns_per_hand": 3}),
    ):
        for seed in range(4):
            state = make_game("somachi", players, **options).new_state(seed=seed)
            random_playout(state, random.Random(seed))
            for i, e in enumerate(state.events):
                if e.kind in kinds:
                    out.append(
                        [i, e.kind, e.seat, e.data, sorted(e.to) if e.to is not None else None]
                    )
    counts = {k: sum(1 for x in out if x[1] == k) for k in sorted(kinds)}
    assert counts == {
        "challenge_met": 3,
        "deal": 76,
        "decline": 1,
        "game_end": 8,
        "hand": 15,
        "hand_end": 15,
        "turn_limit": 13,
    }
    assert out[0] == [1, "hand", None, {"number": 1, "dealer": 2, "seats": [0, 1, 2]}, None]
    assert out[1][1:] == ["deal", 0, {"cards": cards("5/S2 1/S3 6/S5 alak/S5")}, [0]]
    assert out[2][1:] == ["deal", 0, {"count": 4}, [SPECTATOR, 1, 2]]
    text = json.dumps(out, default=str)  # key order included
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert digest == "6e7e65a4548f248c4f790510890592793b2f06dbd7ddae3811565192696bd67b"


def test_a_deal_from_a_deck_that_runs_out_tells_each_hand_as_it_is() -> None:
    """White-box: a deal that cannot give every seat its four cards (nothing left to
    reshuffle) tells each seat's hand as dealt, one entry each."""
    from cardhall.games.somachi.turns import deal

    state = new(LOW0, LOW1)
    for h in state.hands:
        h.clear()
    state.deck = cards("5/S1 6/S1 7/S1")  # the top is last: 7/S1 first
    state.discard = []
    state.disc_by = []
    state.removed_pub = []
    state.removed_priv = [[], []]
    told = len(state.events)
    deal(state, 0)
    assert [str(c) for c in state.hands[0]] == ["5/S1", "7/S1"]
    assert [str(c) for c in state.hands[1]] == ["6/S1"]
    deals = [(e.seat, e.data, sorted(e.to or ())) for e in state.events[told:]]
    assert deals == [
        (0, {"cards": cards("5/S1 7/S1")}, [0]),
        (0, {"count": 2}, [SPECTATOR, 1]),
        (1, {"cards": cards("6/S1")}, [1]),
        (1, {"count": 1}, [SPECTATOR, 0]),
    ]


def test_the_ranges_of_small_stacks_come_from_tables_and_equal_amount_range() -> None:
    """A bet, raise or challenge range of a stack up to ``SMALL_STACK`` chips is read from
    a table of ``amount_range``'s values; a larger stack makes its range; an empty stack
    has none (as ``amount_range`` says)."""
    from cardhall.engine import amount_range
    from cardhall.games.somachi.legal import BETS, CHALLENGES, RAISES, SMALL_STACK, up_to

    for table, kind in ((BETS, "bet"), (RAISES, "raise"), (CHALLENGES, "challenge")):
        assert len(table) == SMALL_STACK
        for stack in (1, 2, SMALL_STACK - 1, SMALL_STACK, SMALL_STACK + 1, 10**9):
            got = up_to(table, kind, stack)
            assert got == AmountRange(kind, 1, stack) == amount_range(kind, 1, stack)
        with pytest.raises(ValueError):
            up_to(table, kind, 0)
    # in play: a seat's bet and challenge ranges run from 1 to its stack
    state = make_game("somachi", 2, gambling=True, chips=SMALL_STACK + 3).new_state(seed=2)
    rng = random.Random(2)
    seen = set()
    while not state.is_over and len(seen) < 2:
        seat = min(state.actors())
        legal = state.legal_actions(seat)
        for entry in legal:
            if isinstance(entry, AmountRange):
                seen.add(entry.kind)
                assert (entry.min, entry.max) == (1, state.money.stacks[seat])  # type: ignore[union-attr]
        state.apply(seat, choose_uniform(rng, legal))
    assert seen


def test_a_hands_end_event_keeps_the_tableaus_as_they_lay_until_read() -> None:
    """A hand's end event read only once the game is over is the one read as the hand
    ended: each tableau as it lay then (one empty then stays empty in it, though the seat
    played into a tableau in the next hand); at the game's end every tableau is empty
    and every card is in one place."""
    game = make_game("somachi", 2, hands_per_game=2)
    found = 0
    for seed in range(30):
        early = game.new_state(seed=seed)  # its events read after every action
        late = game.new_state(seed=seed)  # read once, at the end
        rng = random.Random(seed)
        while not early.is_over:
            seat = min(early.actors())
            action = choose_uniform(rng, early.legal_actions(seat))
            early.apply(seat, action)
            late.apply(seat, action)
            assert early.events
        late.check_invariants()
        check_cards_conserved(late)
        assert late.tab == [[], []] and all(o < 0 for o in late.loc)
        ends = [e for e in late.events if e.kind == "hand_end"]
        assert ends == [e for e in early.events if e.kind == "hand_end"] and len(ends) == 2
        first, second = (e.data["tableaus"] for e in ends)
        found += sum(1 for s in range(2) if not first[s] and second[s])
    assert found  # some seat's tableau was empty at the first end, not at the second


def test_each_state_starts_with_its_own_chips() -> None:
    """A new state of a game with chips starts with a ``Money`` equal to a new one of its
    table (stacks, mode, every chip) and its own: chips moved in one state move in no
    other, nor in the next new state."""
    from cardhall.money import Money

    game = make_game("somachi", 4, gambling=True, chips=3, allin_mode="whole_pot")
    a, b = game.new_state(seed=1), game.new_state(seed=1)
    fresh = Money([3] * 4, mode="whole_pot")
    for state in (a, b):
        money = state.money
        assert money is not None and money.to_json() == fresh.to_json()
        assert (money.mode, money.chips) == ("whole_pot", 12)
    assert a.money is not b.money and a.money.stacks is not b.money.stacks  # type: ignore[union-attr]
    random_playout(a, random.Random(3))
    assert a.money.stacks != [3] * 4  # type: ignore[union-attr]
    assert b.money.stacks == [3] * 4  # type: ignore[union-attr]
    assert game.new_state(seed=2).money.stacks == [3] * 4  # type: ignore[union-attr]


def test_empty_hands_tableaus_and_removed_cards_share_one_list_that_stays_empty() -> None:
    """A new state makes no list per seat for its hands, tableaus and removed cards, nor a
    pile table: each is the one shared empty list until its first card (each seat then has
    its own: the deal makes the hands'), and the pile table is made when a number first
    goes onto a pile. Clones and pickles keep sharing it (a pickle would otherwise make one new
    list of all the places that held it), and nothing ever goes into it."""
    import copy
    import pickle

    from cardhall.games.somachi.actions import NO_CARDS

    game = make_game("somachi", 4, gambling=True, chips=6)
    state = game.new_state(seed=5, explicit=True)  # waits for its first shuffle
    assert all(h is NO_CARDS for h in state.hands)
    state = game.new_state(seed=5)
    assert all(t is NO_CARDS for t in state.tab) and all(r is NO_CARDS for r in state.removed_priv)
    assert state.pile_of == [] and all(len(h) == 4 for h in state.hands)
    rng = random.Random(2)
    added = opened = False
    for seed in range(8):
        state = game.new_state(seed=seed)
        while not state.is_over:
            seat = min(state.actors())
            for twin in (pickle.loads(pickle.dumps(state)), state.clone(), copy.deepcopy(state)):
                for mine, theirs in (
                    (state.hands, twin.hands),
                    (state.tab, twin.tab),
                    (state.removed_priv, twin.removed_priv),
                ):
                    assert [t is NO_CARDS for t in theirs] == [t is NO_CARDS for t in mine]
                    assert theirs == mine
            action = choose_uniform(rng, state.legal_actions(seat))
            before = [list(t) for t in state.tab]
            hands = len(state.hand_log)
            state.apply(seat, action)
            state.check_invariants()  # NO_CARDS stays empty
            if action.kind == "add" and len(state.hand_log) == hands:  # the hand goes on
                added = True
                assert len(state.pile_of) == 96
            if action.kind == "open":
                opened = True
                mine = state.tab[seat]
                assert mine is not NO_CARDS and mine[-1] == action.arg
                assert all(state.tab[s] == before[s] for s in range(4) if s != seat)
        assert pickle.loads(pickle.dumps(state)).digest() == state.digest()
        assert not NO_CARDS
    assert added and opened


def test_the_shared_empty_list_refuses_every_change_and_stays_empty() -> None:
    """NO_CARDS is every new state's tableaus, removed cards and hands: each way to change
    a list raises (naming it) in the Python rules, so a rule that forgot to give a seat
    its own list fails where it writes, not as a card appearing in every state."""
    from cardhall.games.somachi.actions import NO_CARDS

    shared: Any = NO_CARDS
    changes = [
        lambda: shared.append(RAILOG_DECK[3]),
        lambda: shared.extend([RAILOG_DECK[3]]),
        lambda: shared.insert(0, RAILOG_DECK[3]),
        lambda: shared.remove(RAILOG_DECK[3]),
        lambda: shared.pop(),
        lambda: shared.clear(),
        lambda: shared.sort(),
        lambda: shared.reverse(),
        lambda: shared.__setitem__(slice(0, 0), [RAILOG_DECK[3]]),
        lambda: shared.__delitem__(slice(0, 1)),
        lambda: shared.__iadd__([RAILOG_DECK[3]]),
        lambda: shared.__imul__(2),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="NO_CARDS is shared by every state"):
            change()
    assert NO_CARDS == [] and len(NO_CARDS) == 0


def test_the_task_stack_keeps_its_bottom_and_a_state_pickled_without_it_plays_on() -> None:
    """Every state's task list starts with BOTTOM_DEPTH BOTTOM tasks that never run (the
    tasks above them never empty the list, so a pop or a push moves no memory): they stay
    under every action's tasks, a hand's end empties the list down to them, clones and
    pickles keep them. A state whose list lacks them (pickled before they were kept) plays
    on exactly like one with them, and its first hand's end gives its list the bottom.
    The per-seat lists of a new state are its own (copied from tables nothing changes);
    its pile table, stay-in bets and finished hands are shared empty lists until their
    first entry, and nothing goes into those."""
    import pickle

    from cardhall.games.somachi import state as state_module
    from cardhall.games.somachi.tasks import BOTTOM, BOTTOM_DEPTH, Bottom

    def kinds(tasks: list[Any]) -> list[type]:  # an empty named tuple equals any other
        return [type(t) for t in tasks]

    bottom = [Bottom] * BOTTOM_DEPTH
    assert type(BOTTOM) is Bottom
    game = make_game("somachi", 3, gambling=True, chips=8, hands_per_game=2)
    rng = random.Random(7)
    ended = bets = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        assert (
            state.pile_of is state_module.NO_PILE_TABLE and state.stay_bets is state_module.NO_BETS
        )
        assert state.hand_log is state_module.NO_HANDS
        assert kinds(state.tasks[:BOTTOM_DEPTH]) == bottom
        legacy = state.clone()
        legacy.tasks = [t for t in legacy.tasks if type(t) is not Bottom]  # as pickled before
        assert legacy.tasks and Bottom not in kinds(legacy.tasks)
        twin = pickle.loads(pickle.dumps(legacy))
        while not state.is_over:
            seat = min(state.actors())
            action = choose_uniform(rng, state.legal_actions(seat))
            hands = len(state.hand_log)
            for s in (state, legacy, twin):
                s.apply(seat, action)
                s.check_invariants()  # the shared empty lists stay empty
            bets += bool(state.stay_bets)
            assert kinds(state.tasks[:BOTTOM_DEPTH]) == bottom
            assert Bottom not in kinds(state.tasks[BOTTOM_DEPTH:])
            assert legacy.digest() == state.digest() and twin.digest() == state.digest()
            for copy in (pickle.loads(pickle.dumps(state)), state.clone()):
                assert kinds(copy.tasks) == kinds(state.tasks) and copy.tasks == state.tasks
            if len(state.hand_log) > hands:  # a hand ended (and the next one is dealt)
                ended += 1
                for s in (state, legacy, twin):
                    assert kinds(s.tasks) == kinds(state.tasks)
                    assert s.tasks == state.tasks
        for s in (state, legacy, twin):
            assert kinds(s.tasks) == bottom
    assert ended >= 6 and bets
    assert not state_module.NO_PILE_TABLE and not state_module.NO_BETS
    assert not state_module.NO_HANDS
    a, b = game.new_state(seed=1), game.new_state(seed=1)
    for name in ("hands", "tab", "removed_priv", "loc", "pub", "arl_owner", "dealt", "active"):
        assert getattr(a, name) is not getattr(b, name), name
    for name in ("tallies", "bi_paid", "bi_exempt"):
        assert getattr(a, name) is not getattr(b, name), name
    assert state_module._NO_CARDS_FOR[3] == [[]] * 3 and state_module._ZEROS_FOR[3] == [0] * 3
    assert state_module._FALSES_FOR[3] == [False] * 3 and state_module._NOWHERE == [-1] * 96
    assert state_module._NO_ARLS == [-1] * 8


def test_the_turn_and_opening_answers_equal_a_plain_reading_of_the_rules() -> None:
    """The turn's adds (its suits read through ``open_suits`` and ``open_face``) and the
    opening's answers (made without appends for two openers or fewer) equal a plain
    reading of the rules at every such decision of random games, with and without
    ``any_face_opens``; ``open_face`` and ``open_suits`` agree with the table suit by
    suit."""
    from cardhall.cards import ALAK, ARL
    from cardhall.games.somachi.actions import (
        CARD_OF,
        K_MAIN,
        K_OPEN,
        OPEN_A,
        OPENERS,
        OPENERS_AFO,
        RANK,
        STAND,
        SUIT_INDEX,
    )
    from cardhall.games.somachi.legal import (
        NO_FACE,
        SEVERAL,
        open_face,
        open_suits,
        pile_faces,
        stranded,
    )

    seen = {"opening": 0, "adds": 0, "several": 0}
    for options in ({}, {"any_face_opens": True}, {"any_face_opens": True, "collect_to": "pile"}):
        for seed in range(12):
            state = make_game("somachi", 4, **options).new_state(seed=seed)
            assert isinstance(state, SomachiState)
            rng = random.Random(seed)
            while not state.is_over:
                seat = min(state.actors())
                need = state.need
                assert need is not None
                got = state.legal_actions(seat)
                afo = state.afo
                hand_now = state.hands[seat]
                if need[0] == K_OPEN:
                    opens = [
                        OPEN_A[c]
                        for c in hand_now
                        if RANK[c] in (ALAK, ARL) or (afo and RANK[c] > 8)
                    ]
                    assert got == [*opens, STAND]
                    seen["opening"] += 1
                elif need[0] == K_MAIN:
                    for x in range(8):
                        faces = [
                            f for f in (OPENERS_AFO if afo else OPENERS)[x] if state.loc[f] >= 0
                        ]
                        want = faces[0] if len(faces) == 1 else SEVERAL if faces else NO_FACE
                        assert open_face(state.loc, CARD_OF[x][ALAK], afo) == want
                        assert open_suits(state.tab, afo) >> x & 1 == (1 if faces else 0)
                        seen["several"] += len(faces) > 1
                    taken = state.taken
                    adds = []
                    for c in hand_now:
                        if RANK[c] > 8 or (
                            len(hand_now) == 2
                            and taken >= 0
                            and c != taken
                            and stranded(state, seat, taken)
                        ):
                            continue
                        for f in pile_faces(state, SUIT_INDEX[c]):
                            adds.append(Action("add", (c, RAILOG_DECK[f])))
                    assert [a for a in got if isinstance(a, Action) and a.kind == "add"] == adds
                    seen["adds"] += len(adds)
                state.apply(seat, rng.choice(got))
    assert all(seen.values()), seen
    # three openers and more: each, in card order, then stand
    state = new(["alak/S1", "arl/S2", "alak/S3", "1/S8"], LOW1)
    assert legal(state, 0) == ["open alak/S1", "open arl/S2", "open alak/S3", "stand"]


def test_the_shared_answer_lists_are_handed_out_as_copies() -> None:
    """The answers kept once for all (stand alone, a bet or raise with check by stack)
    are what the rules give, and a caller changing the list it was handed changes
    neither the state's next answer nor the shared list."""
    from cardhall.games.somachi.legal import (
        BET_CHECK,
        BETS,
        RAISE_CHECK,
        RAISES,
        SMALL_STACK,
        STAND_ONLY,
        up_to,
    )

    assert len(BET_CHECK) == len(RAISE_CHECK) == SMALL_STACK
    for stack in (1, 7, SMALL_STACK):
        assert BET_CHECK[stack - 1] == [up_to(BETS, "bet", stack), Action("check")]
        assert RAISE_CHECK[stack - 1] == [up_to(RAISES, "raise", stack), Action("check")]
    state = new(LOW0, LOW1)  # no face: stand alone
    got = state.legal_actions(0)
    assert got == [Action("stand")] == STAND_ONLY and got is not STAND_ONLY
    got.append(Action("draw"))
    assert state.legal_actions(0) == [Action("stand")] == STAND_ONLY
    state = make_game("somachi", 3, gambling=True, chips=5).new_state(seed=1)
    rng = random.Random(1)
    while not state.is_over:
        seat = min(state.actors())
        got = state.legal_actions(seat)
        if any(isinstance(a, AmountRange) and a.kind in ("bet", "raise") for a in got):
            kept = list(got)
            got.clear()
            assert state.legal_actions(seat) == kept
            got = kept
        state.apply(seat, choose_uniform(rng, got))
    assert all(len(pair) == 2 for pair in BET_CHECK + RAISE_CHECK)


def test_the_decisions_and_opening_orders_built_once_are_what_they_name() -> None:
    """The bring-in, raise, stay-in and owed decisions kept per seat (and amount) and the
    opening orders kept per table size and dealer equal the ones they stand for."""
    from cardhall.games.somachi.actions import (
        K_BRINGIN,
        K_OWE,
        K_RAISE,
        K_STAY,
        NEED_BRINGIN,
        NEED_OWE,
        NEED_RAISE,
        NEED_STAY,
        OWED_KEPT,
    )
    from cardhall.games.somachi.turns import ROUNDS

    for s in range(8):
        assert (NEED_BRINGIN[s], NEED_RAISE[s], NEED_STAY[s]) == (
            (K_BRINGIN, s),
            (K_RAISE, s),
            (K_STAY, s),
        )
        assert [NEED_OWE[s][a] for a in (1, 2, OWED_KEPT - 1)] == [
            (K_OWE, s, a, 0) for a in (1, 2, OWED_KEPT - 1)
        ]
    for n in range(2, 9):
        for dealer in range(n):
            assert ROUNDS[n][dealer] == tuple((dealer + k) % n for k in range(1, n + 1))
    # a hand's opening order: a new list each hand, clockwise from the dealer's left
    state = make_game("somachi", 3, hands_per_game=2, max_turns_per_hand=1).new_state(seed=3)
    first = state.open_order
    assert first == [0, 1, 2]
    rng = random.Random(3)
    while not state.is_over and state.open_order is first:
        seat = min(state.actors())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.open_order == [1, 2, 0] and first == [0, 1, 2]


def test_the_usual_deal_is_told_as_the_hands_one_after_the_other() -> None:
    """The usual deal's event entry lists every hand dealt, in the opening order, as the
    hands are (in card order): what the deal events say seat by seat."""
    from cardhall.games.somachi.actions import T_DEAL

    state = make_game("somachi", 5).new_state(seed=4)
    entries = [e for e in state._told if e[0] == T_DEAL]
    assert len(entries) == 1
    _, order, dealt = entries[0]
    assert order == state.open_order
    assert dealt == [c for s in order for c in state.hands[s]] and len(dealt) == 20
    deals = [e for e in state.events if e.kind == "deal" and e.data.get("cards") is not None]
    assert [e.data["cards"] for e in deals] == [list(state.hands[s]) for s in order]


def test_a_take_and_an_add_go_on_without_the_task_stack() -> None:
    """A take that opens no window and an add go on at once (what the task stack's steps
    would do): the stack is left as it was and the turn goes on; an add of the hand's last
    card ends the hand at once, as the stack's check would."""
    s1 = ["5/S1", "6/S1", "7/S1"]
    state = new(["alak/S1", *s1], LOW1, then=["1/S1", "8/S8", "2/S1"], hands_per_game=1)
    play(state, "0 open alak/S1", "1 stand", "0 draw", "0 discard 8/S8")
    play(state, "1 draw", "1 discard 1/S7")
    tasks = list(state.tasks)
    play(state, "0 take")
    assert state.tasks == tasks and state.pending() == {"kind": "turn", "seat": 0}
    play(state, "0 add 1/S1 alak/S1", "0 add 5/S1 alak/S1", "0 add 6/S1 alak/S1")
    assert state.tasks == tasks and state.pending() == {"kind": "turn", "seat": 0}
    assert hand(state, 0) == ["1/S7", "7/S1"]
    assert legal(state, 0) == ["discard 7/S1"]  # S-33: the taken card may not be left alone
    play(state, "0 discard 7/S1")
    assert state.pending() == {"kind": "draw", "seat": 1}
    state = new(["alak/S1", *s1], LOW1, then=["1/S1", "2/S1"], hands_per_game=1)
    play(state, "0 open alak/S1", "1 stand", "0 draw")
    play(state, *(f"0 add {c} alak/S1" for c in ("1/S1", "2/S1", "5/S1", "6/S1")))
    assert state.pending() == {"kind": "turn", "seat": 0}
    play(state, "0 add 7/S1 alak/S1")  # the last card: the hand ends at once
    assert state.is_over and state.hand_log[0]["reason"] == "out"
