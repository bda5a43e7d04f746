"""Getha: the sheet's examples as game records, the showdown, pots, views, and one test (at
least) for each ruling G-1..G-37 of the project's reading of the sheet.

Games are built from a stacked deck: seat 0 deals the first deal, so the hands are dealt
to seats 1, 2, ..., n-1, 0 (then the extra hands), one card at a time.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardhall.bots import make_bot
from cardhall.cards import RailogCard
from cardhall.conformance import check_cards_conserved, random_playout
from cardhall.engine import Action, AmountRange, expand_legal, legal_at
from cardhall.errors import ChanceError, IllegalActionError, NotationError, OptionError
from cardhall.games.getha import GethaState, battle, hand_key, parse, resolve_pot
from cardhall.record import Record, load_record, replay
from cardhall.registry import make_game

# --------------------------------------------------------------------------- helpers


def deck_for(
    n: int,
    hands: dict[int, str],
    extras: Sequence[str] = (),
    draws: str = "",
    avoid: str = "",
) -> list[RailogCard]:
    """A deck that deals ``hands[seat]`` (completed to 8 cards with low number cards of
    other suits, never of a suit in ``avoid``) with the dealer at seat 0, then ``extras``,
    then ``draws`` on top of what is left."""
    h = max(4, n)
    order = [*range(1, n), 0]
    given = {p: RailogCard.parse_many(hands.get(p, "")) for p in order}
    xs = [RailogCard.parse_many(x) for x in extras] + [[] for _ in range(h - n - len(extras))]
    used = {c for cards in [*given.values(), *xs] for c in cards}
    used |= set(RailogCard.parse_many(draws)) if draws else set()
    bad_suits = {int(s) for s in avoid.replace("S", " ").split()}
    filler = [
        RailogCard.of(rank, suit)
        for rank in range(1, 9)
        for suit in range(8, 0, -1)
        if suit not in bad_suits
    ]
    full: list[list[RailogCard]] = [given[p] for p in order] + xs
    for cards in full:
        mine = {c.suit for c in cards}
        for c in filler:
            if len(cards) >= 8:
                break
            if c not in used and c.suit not in mine:
                cards.append(c)
                used.add(c)
        assert len(cards) == 8, cards
    deck: list[RailogCard] = []
    for r in range(8):
        for j in range(h):
            deck.append(full[j][r])
    deck += RailogCard.parse_many(draws) if draws else []
    deck += [
        c
        for c in (RailogCard.of(r, s) for s in range(1, 9) for r in range(1, 13))
        if c not in set(deck)
    ]
    return deck


def new(n: int, hands: dict[int, str], **kw: Any) -> GethaState:
    extras = kw.pop("extras", ())
    draws = kw.pop("draws", "")
    avoid = kw.pop("avoid", "")
    game = make_game("getha", n, **kw)
    state = game.new_state(deck=deck_for(n, hands, extras, draws, avoid), seed=1)
    assert isinstance(state, GethaState)
    return state


def order(state: GethaState) -> list[int]:
    return list(state.order)


def to_select(state: GethaState, bring_in: int = 1) -> None:
    """Bring-in ``bring_in``, everyone pays and keeps its cards."""
    state.apply(state.dealer, f"bringin {bring_in}")
    for p in order(state)[:-1]:
        if state.turn == p:
            state.apply(p, "pay")
    for p in order(state):
        if state.turn == p:
            state.apply(p, "discard")


def to_showdown(state: GethaState, selects: dict[int, str], bring_in: int = 1) -> None:
    to_select(state, bring_in)
    for p, suits in selects.items():
        state.apply(p, f"select {suits}")
    while state.phase == "bet":
        state.apply(state.turn, "check")


def events(state: GethaState, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [e for e in state.events_for(seat) if e["kind"] == kind]


def record_roundtrip(state: GethaState) -> None:
    rec = Record.from_json(json.loads(json.dumps(Record.from_state(state).to_json())))
    assert replay(rec).digest() == state.digest()


# --------------------------------------------------------------------------- the sheet's example

SHEET = {
    # A: two alak, a 5 and a 6
    1: "alak/S1 5/S1 alak/S2 6/S2 1/S3 2/S3 3/S3 4/S3",
    # B: one alak, two sixes and a five
    2: "alak/S3 6/S3 5/S3 6/S4 1/S5 2/S5 3/S5 5/S5",
    # C: one alak, an eight, a seven, a four, a two and a one
    3: "alak/S5 8/S5 7/S5 4/S5 2/S6 1/S6 1/S7 2/S7",
    # D: two eights, two sevens, two sixes and a five
    0: "8/S7 7/S7 6/S7 5/S7 8/S8 7/S8 6/S8 1/S1",
}


def test_sheet_battle_example_a_c_b_d_as_a_game_record() -> None:
    state = new(4, SHEET)
    to_showdown(state, {1: "1 2", 2: "3 4", 3: "5 6", 0: "7 8"})
    (pot,) = [e for e in events(state, "pot") if e["amount"] == 8]
    steps = pot["steps"]
    assert steps[0] == {
        "step": "order",
        "seats": [1, 3, 2, 0],
        "keys": [[2, 2, 11], [1, 5, 22], [1, 3, 17], [0, 7, 47]],
    }
    battles = [s for s in steps if s["step"] == "battle"]
    assert [b["seats"] for b in battles] == [[1, 3], [3, 2], [3, 0]]
    # A's alak remove C's alak and its 8: A 5 + 6 = 11 against C 7 + 4 + 2 + 1 = 14
    assert battles[0]["removed"] == [[], ["8/S5"]] and battles[0]["cancelled"] == 1
    assert battles[0]["totals"] == [11, 14] and battles[0]["winner"] == 3
    # the alak cancel: B 17 against C 22
    assert battles[1]["totals"] == [22, 17] and battles[1]["winner"] == 3
    # C's alak removes one of D's eights: C 22 against D 39
    assert battles[2]["removed"] == [[], ["8/S7"]]
    assert battles[2]["totals"] == [22, 39] and battles[2]["winner"] == 0
    assert pot["winner"] == 0
    # D (seat 0) took the 8 chips: 4 antes and 4 bring-ins
    assert state.results[0]["stacks"] == [56, 48, 48, 48]
    record_roundtrip(state)


def test_sheet_example_pure_battles() -> None:
    a, b, c, d = (parse(SHEET[s]) for s in (1, 2, 3, 0))
    a, b, c, d = a[:4], b[:4], c[:6], d[:7]
    assert battle(a, c)[0] == -1
    assert battle(c, b)[1]["totals"] == [22, 17]
    assert battle(c, d)[1]["totals"] == [22, 39]
    winner, _ = resolve_pot([0, 1, 2, 3], [d, a, b, c], first=1, seats=4)
    assert winner == 0


# --------------------------------------------------------------------------- circular wins

# X beats Y, Y beats Z, Z beats X
CYCLE = {
    1: "alak/S1 8/S1 alak/S2",  # X: 2 alak and an 8
    2: "alak/S3 8/S3 7/S4",  # Y: 1 alak, 8 + 7
    0: "alak/S5 5/S5 4/S5 5/S6",  # Z: 1 alak, 5 + 5 + 4
}


def test_circular_wins_depend_on_matchup_order() -> None:
    x, y, z = (parse(CYCLE[s]) for s in (1, 2, 0))
    assert battle(x, y)[0] == 1 and battle(y, z)[0] == 1 and battle(z, x)[0] == 1
    for matchup, winner in (("ranked", 2), ("seat", 0)):
        state = new(3, CYCLE, matchup_order=matchup)
        to_showdown(state, {1: "1 2", 2: "3 4", 0: "5 6"})
        (pot,) = events(state, "pot")
        assert pot["winner"] == winner, matchup
        seats = [s["seats"] for s in pot["steps"] if s["step"] == "battle"]
        # ranked: X, Z (3 numbers), Y; seat order from the dealer's left: X, Y, Z
        assert seats == ([[1, 0], [0, 2]] if matchup == "ranked" else [[1, 2], [1, 0]])


# --------------------------------------------------------------------------- claims


def test_arl_cascade_with_a_replacement_choice() -> None:
    hands = {
        # seat 1 plays arl/S1 with S2
        1: "arl/S1 2/S1 3/S2 4/S2",
        # seat 2 plays S1 and S3; its reserve is all S4, with the arl of S4
        2: "7/S1 8/S1 5/S3 6/S3 arl/S4 1/S4 2/S4 3/S4",
        # seat 0 plays S4 and S5, and keeps S6 and S7 in reserve
        0: "8/S4 7/S4 5/S5 6/S5 1/S6 2/S6 1/S7 2/S7",
    }
    state = new(3, hands, avoid="1 4")
    to_showdown(state, {1: "1 2", 2: "1 3", 0: "4 5"})
    # seat 1 took S1 from seat 2, who played its only reserve suit S4 without being asked;
    # that arl took S4 from seat 0, who now has a choice between S6 and S7
    claims = events(state, "claim")
    assert [(c["seat"], c["suit"]) for c in claims] == [(1, 1), (2, 4)]
    assert claims[0]["taken"] == [{"from": "played:2", "cards": ["7/S1", "8/S1"]}]
    (auto,) = events(state, "replace")
    assert auto["seat"] == 2 and auto["auto"] is True and auto["suit"] == 4
    assert state.phase == "replace" and state.actors() == frozenset({0})
    assert [str(a) for a in state.legal_actions(0)] == ["replace 6", "replace 7"]
    with pytest.raises(IllegalActionError):
        state.apply(0, "replace 4")
    state.check_invariants()
    view = state.view(1)
    assert view["seats"][2]["played"] == [
        "5/S3",
        "6/S3",
        "arl/S4",
        "1/S4",
        "2/S4",
        "3/S4",
        "7/S4",
        "8/S4",
    ] or sorted(view["seats"][2]["played"]) == sorted(
        ["5/S3", "6/S3", "arl/S4", "1/S4", "2/S4", "3/S4", "7/S4", "8/S4"]
    )
    state.apply(0, "replace 7")
    replaced = events(state, "replace")[-1]
    assert replaced["seat"] == 0 and replaced["cards"] == ["1/S7", "2/S7"]
    record_roundtrip(state)


def test_arl_steals_an_arlas() -> None:
    hands = {
        1: "arl/S1 1/S1 2/S2 3/S2",
        2: "arlas/S1 8/S1 8/S3 7/S3",
        0: "6/S4 5/S4 6/S5 5/S5",
    }
    state = new(3, hands, avoid="1")
    to_showdown(state, {1: "1 2", 2: "1 3", 0: "4 5"})
    (claim,) = events(state, "claim")
    assert claim["taken"][0] == {"from": "played:2", "cards": ["8/S1", "arlas/S1"]}
    assert state.actors() == frozenset({2})  # seat 2 lost S1 and picks a reserve suit
    state.apply(2, "replace 7")
    (pot,) = events(state, "pot")
    arlas = next(s for s in pot["steps"] if s["step"] == "arlas")
    # seat 1 now shows the arlas: seats 2 and 0 have no deiskatun and drop out
    assert arlas["holders"] == [1] and sorted(arlas["dropped"]) == [0, 2]
    assert pot["winner"] == 1


def test_two_arlas_holders_eliminate_each_other_and_the_pot_carries() -> None:
    hands = {1: "arlas/S1 1/S1 2/S2", 2: "arlas/S3 1/S3 2/S4", 0: "8/S5 8/S6"}
    state = new(3, hands)
    to_showdown(state, {1: "1 2", 2: "3 4", 0: "5 6"})
    (pot,) = events(state, "pot")
    assert sorted(next(s for s in pot["steps"] if s["step"] == "arlas")["dropped"]) == [0, 1, 2]
    assert pot["winner"] is None
    # no winner: the 6 chips wait in the carry-over, and join the next main pot
    assert state.money.carry == 6 and state.results[0]["stacks"] == [48, 48, 48]
    assert state.view(0)["carry"] == 6
    assert state.view(0)["pots"][0]["amount"] == 6 + 3
    state.check_invariants()


def test_arlas_holders_immune_option() -> None:
    hands = {1: "arlas/S1 1/S1 2/S2", 2: "arlas/S3 8/S3 2/S4", 0: "8/S5 8/S6"}
    state = new(3, hands, arlas_holders_immune=True)
    to_showdown(state, {1: "1 2", 2: "3 4", 0: "5 6"})
    (pot,) = events(state, "pot")
    assert next(s for s in pot["steps"] if s["step"] == "arlas")["dropped"] == [0]
    assert pot["winner"] == 2  # 8 + 2 against 1 + 2


# --------------------------------------------------------------------------- pots


def shift_chips(state: GethaState, stacks: list[int]) -> None:
    """Test fixture: set the starting stacks (before the first action; total unchanged)."""
    money = state.money
    assert sum(stacks) == sum(money.stacks)
    money.stacks[:] = stacks
    state.check_invariants()


def test_side_pots_won_by_different_players() -> None:
    hands = {
        1: "alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 6/S1",  # best hand, short stack
        2: "alak/S3 8/S3 7/S3 8/S4 7/S4",  # second best
        0: "6/S5 5/S5 6/S6 5/S6",
    }
    state = new(3, hands, chips=20)
    shift_chips(state, [29, 4, 24])  # after the antes: seat 1 has 4 left
    to_select(state, bring_in=2)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    state.apply(1, "allin")  # 2 more: total 1 + 2 + 2 = 5
    state.apply(2, "raise 10")
    state.apply(0, "call")
    pots = events(state, "pot")
    assert [(p["amount"], p["eligible"], p["winner"]) for p in pots] == [
        (15, [0, 1, 2], 1),
        (16, [0, 2], 2),
    ]
    assert state.results[0]["stacks"] == [29 - 12, 15, 24 - 12 + 16]
    # (stacks were set by a fixture, so this game has no record to replay)


def test_ineligible_arlas_does_not_decide_a_side_pot() -> None:
    # G-18: seat 1 is all-in with an arlas; it wins the main pot, but the side pot
    # between seats 2 and 0 is decided by their own battle
    hands = {1: "arlas/S1 1/S1 1/S2", 2: "alak/S3 8/S3 8/S4", 0: "3/S5 4/S6"}
    state = new(3, hands, chips=20)
    shift_chips(state, [29, 4, 24])
    to_select(state, bring_in=2)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    state.apply(1, "allin")
    state.apply(2, "raise 10")
    state.apply(0, "call")
    pots = events(state, "pot")
    assert [(p["amount"], p["winner"]) for p in pots] == [(15, 1), (16, 2)]
    assert not any(s["step"] == "arlas" for s in pots[1]["steps"])


def test_whole_pot_mode() -> None:
    hands = {
        1: "alak/S1 alak/S2 8/S1 8/S2 7/S1 7/S2 6/S1",
        2: "alak/S3 8/S3 7/S3 8/S4 7/S4",
        0: "6/S5 5/S5 6/S6 5/S6",
    }
    state = new(3, hands, chips=20, allin_mode="whole_pot")
    shift_chips(state, [29, 4, 24])
    to_select(state, bring_in=2)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    state.apply(1, "allin")
    state.apply(2, "raise 10")
    state.apply(0, "call")
    (pot,) = events(state, "pot")
    assert pot["amount"] == 31 and pot["winner"] == 1
    assert state.results[0]["stacks"] == [17, 31, 12]


def test_pot_returned_to_its_single_eligible_seat() -> None:
    hands = {1: "alak/S1 alak/S2 8/S1 8/S2", 2: "1/S3 1/S4", 0: "1/S5 1/S6"}
    state = new(3, hands, chips=20)
    to_select(state, bring_in=1)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    state.apply(1, "check")
    state.apply(2, "bet 10")
    state.apply(0, "fold")
    state.apply(1, "allin")  # to 18: seat 2 may call only 8 more
    state.apply(2, "call")  # all-in for 18 too
    pots = events(state, "pot")
    assert [(p["amount"], p["winner"], p["returned"]) for p in pots] == [(42, 1, False)]
    # uneven all-in: seat 2 short, seat 1's excess comes back
    state2 = new(3, hands, chips=20)
    shift_chips(state2, [19, 24, 14])
    to_select(state2, bring_in=1)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state2.apply(p, f"select {s}")
    state2.apply(1, "allin")  # 23
    state2.apply(2, "call")  # all-in for 13
    state2.apply(0, "fold")
    pots = events(state2, "pot")
    assert [(p["amount"], p["returned"]) for p in pots] == [(2 + 15 + 15, False), (10, True)]
    assert pots[1]["winner"] == 1


TIED = {1: "8/S1 7/S2", 2: "8/S3 7/S4", 3: "8/S5 7/S6", 0: "8/S7 7/S8"}


def test_pot_carry_over_on_a_tie_joins_the_next_main_pot() -> None:
    state = new(4, TIED)
    # everybody's played total is 15 with no alak: seats 1 and 2 tie, seat 3 becomes
    # champion without a battle, then ties with seat 0
    to_showdown(state, {1: "1 2", 2: "3 4", 3: "5 6", 0: "7 8"})
    (pot,) = events(state, "pot")
    assert pot["winner"] is None
    steps = pot["steps"]
    assert [s["step"] for s in steps] == ["order", "battle", "champion", "battle"]
    assert state.money.carry == 8
    assert state.dealer == 1
    assert state.view(None)["pots"][0] == {"amount": 12, "eligible": [0, 1, 2, 3]}


# --------------------------------------------------------------------------- views


def test_views_show_only_what_each_seat_may_see() -> None:
    hands = {
        1: "arl/S1 2/S1 3/S2 4/S2 5/S8",
        2: "7/S1 8/S1 5/S3 6/S3 alak/S4 2/S4 3/S4 4/S4",
        0: "8/S5 7/S5 5/S6 6/S6 arlas/S7 4/S7",
    }
    state = new(3, hands, extras=["1/S1 4/S1 1/S2 1/S3 1/S4 1/S5 1/S6 1/S7"], avoid="1")
    v = state.view(1)
    assert sorted(v["hand"]) == sorted(str(c) for c in RailogCard.parse_many(deck_hand(state, 1)))
    assert all("played" not in s for s in v["seats"])
    assert v["seats"][2]["cards"] == 8 and v["extra_hands"] == [8]
    # nothing of seat 2 or the extra hand leaks into seat 1's view or events
    secret = {str(RailogCard(c)) for c in state.hand[2] + state.extra[0]}
    blob = json.dumps(v) + json.dumps(state.events_for(1))
    assert not any(f'"{c}"' in blob for c in secret)
    to_select(state)
    state.apply(1, "select 1 2")
    assert state.view(2)["seats"][1]["chosen"] is True
    assert state.view(2)["seats"][1]["played_count"] is None
    state.apply(2, "select 1 3")
    state.apply(0, "select 5 6")
    v = state.view(2)
    assert v["seats"][1]["played_count"] == 4 and v["seats"][1]["reserve_count"] == 4
    assert v["seats"][0]["played_count"] == 4 and v["seats"][0]["reserve_count"] == 4
    assert "played" not in v["seats"][1]
    state.apply(1, "check")
    state.apply(2, "check")
    state.apply(0, "check")
    # after the showdown: the played and claimed cards, never reserves or the rest of
    # the extra hand
    last = state.view(None)["last_deal"]
    reveal = last["steps"][0]["played"]
    assert sorted(reveal["0"]) == sorted(["8/S5", "7/S5", "5/S6", "6/S6"])
    claim = next(s for s in last["steps"] if s["step"] == "claim")
    assert claim["taken"] == [
        {"from": "played:2", "cards": ["7/S1", "8/S1"]},
        {"from": "extra:1", "cards": ["1/S1", "4/S1"]},
    ]
    public = json.dumps(state.view(None)) + json.dumps(state.events_for(None))
    for hidden in ("arlas/S7", "4/S7", "1/S2", "1/S7", "5/S8"):
        assert f'"{hidden}"' not in public, hidden


def deck_hand(state: GethaState, seat: int) -> str:
    return " ".join(str(RailogCard(c)) for c in state.hand[seat])


def test_determinize_keeps_what_a_seat_knows() -> None:
    state = new(4, SHEET)
    to_select(state)
    for p, s in ((1, "1 2"), (2, "3 4"), (3, "5 6"), (0, "7 8")):
        state.apply(p, f"select {s}")
    rng = random.Random(3)
    for _ in range(20):
        world = state.determinize(1, rng)
        check_cards_conserved(world)
        world.check_invariants()
        assert world.played[1] == state.played[1]
        for p in (0, 2, 3):
            assert len(world.played[p]) == len(state.played[p])
            assert len(world.reserve[p]) == len(state.reserve[p])


@pytest.mark.parametrize("players", [2, 3, 8])
def test_a_silenced_world_deals_its_next_deal_when_looked_at_with_the_same_cards(
    players: int,
) -> None:
    """A search's world (silenced) holds its next deal's shuffle until a method reads the
    table; the stacks, antes and deal count are set at once (the search's evaluator reads
    them), and the deal, once looked at, is the one the heard game deals."""
    loud = make_game("getha", players, chips=20).new_state(seed=11)
    quiet = loud.clone()
    quiet.silence()
    rng = random.Random(2)
    deals = first = quiet.deals
    while not loud.is_over and deals < first + 4:
        seat = min(loud.actors())
        action = legal_at(loud.legal_actions(seat), 0)  # the smallest bring-in, pay, ...
        if loud.phase == "answer" and rng.random() < 0.5:
            action = Action("decline")
        loud.apply(seat, action)
        quiet.apply_unchecked(seat, action)
        if quiet.deals == deals:
            continue
        deals = quiet.deals
        if quiet.is_over:
            break
        shuffles = len(loud.chance.used)
        assert len(quiet.chance.used) == shuffles - 1  # not shuffled yet
        # the one waiting shuffle of the engine, but not one that waits for an order
        assert quiet.pending_shuffle() is None
        with pytest.raises(ChanceError, match="no shuffle is pending"):
            quiet.apply_shuffle(list(range(96)))
        assert len(quiet.chance.used) == shuffles - 1
        assert quiet.money.stacks == loud.money.stacks and quiet.deals == loud.deals
        assert quiet.outcome() == loud.outcome()
        twin = quiet.clone() if rng.random() < 0.5 else pickle.loads(pickle.dumps(quiet))
        # (a copy of the waiting world deals the same cards)
        seat = loud.order[0]
        if rng.random() < 0.5:  # a view reads the table too (it draws the waiting shuffle)
            assert quiet.view(seat)["hand"] == loud.view(seat)["hand"]
        assert quiet.actors() == loud.actors()
        assert len(quiet.chance.used) == shuffles
        assert quiet.zones() == loud.zones() == twin.zones()
        assert quiet.chance.used == loud.chance.used == twin.chance.used
        quiet.check_invariants()
    assert deals >= first + 2


# --------------------------------------------------------------------------- rulings


def test_g1_two_to_eight_players() -> None:
    for n in range(2, 9):
        assert make_game("getha", n).players == n
    for n in (1, 9):
        with pytest.raises(OptionError):
            make_game("getha", n)


def test_g2_ante() -> None:
    assert new(3, {}).money.totals == [1, 1, 1]
    assert new(3, {}, ante=0).money.totals == [0, 0, 0]
    assert new(3, {}, ante=3).money.stacks == [47, 47, 47]


def test_g3_seats_without_chips_are_not_dealt_in() -> None:
    # seat 2 goes all-in with a weak hand and loses everything
    hands = {1: "alak/S1 alak/S2 8/S1 8/S2", 2: "1/S3 1/S4", 0: "2/S5 2/S6"}
    state = new(3, hands, chips=5)
    to_select(state)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    state.apply(1, "check")
    state.apply(2, "allin")
    state.apply(0, "fold")
    state.apply(1, "call")
    assert state.money.stacks[2] == 0
    # deal 2: two seats dealt in, so two extra hands; seat 1 deals
    assert state.deals == 2 and state.dealer == 1
    assert state.order == [0, 1] and len(state.extra) == 2
    assert state.hand[2] == [] and state.view(2)["seats"][2]["dealt"] is False
    check_cards_conserved(state)


def test_g4_bring_in_limits_and_the_dealer_cannot_decline() -> None:
    state = new(3, {}, chips=10, min_bring_in=2)
    assert state.legal_actions(0) == [AmountRange("bringin", 2, 9)]
    assert state.view(0)["legal"] == [{"kind": "bringin", "min": 2, "max": 9, "step": 1}]
    for bad in ("bringin 1", "bringin 10", "decline"):
        with pytest.raises(IllegalActionError):
            state.apply(0, bad)
    assert new(3, {}, min_bring_in=0).legal_actions(0) == [AmountRange("bringin", 0, 49)]
    # a dealer short of the minimum puts in everything, without being asked
    state = new(3, {}, chips=3, min_bring_in=5)
    assert state.phase == "answer" and state.bring_in == 2 and state.money.stacks[0] == 0


def test_g5_answers_clockwise_and_short_stacks_go_all_in() -> None:
    state = new(4, {}, chips=10)
    shift_chips(state, [12, 9, 2, 13])
    state.apply(0, "bringin 5")
    assert state.actors() == frozenset({1})
    state.apply(1, "pay")
    assert state.actors() == frozenset({2})
    state.apply(2, "pay")  # only 2 left: all-in for less
    assert state.money.is_all_in(2) and state.money.totals[2] == 3
    state.apply(3, "decline")
    assert state.phase == "draw" and state.actors() == frozenset({1})


def test_g6_declined_hand_is_a_claimable_folded_hand() -> None:
    hands = {1: "arl/S1 1/S1 2/S2", 2: "7/S1 8/S1 3/S3", 0: "5/S5 6/S6"}
    state = new(3, hands, avoid="1")
    state.apply(0, "bringin 1")
    state.apply(1, "pay")
    state.apply(2, "decline")
    assert len(state.folded[2]) == 8 and state.view(0)["seats"][2]["folded_count"] == 8
    state.apply(1, "discard")
    state.apply(0, "discard")
    state.apply(1, "select 1 2")
    state.apply(0, "select 5 6")
    state.apply(1, "check")
    state.apply(0, "check")
    (claim,) = events(state, "claim")
    assert claim["taken"] == [{"from": "folded:2", "cards": ["7/S1", "8/S1"]}]


def test_g7_everyone_declines_dealer_takes_pot_and_carry() -> None:
    state = new(3, {})
    state.money.carry = 4
    state.money.stacks[1] -= 4
    state.money.chips = 150
    state.apply(0, "bringin 3")
    state.apply(1, "decline")
    state.apply(2, "decline")
    (win,) = events(state, "win")
    assert win["seat"] == 0 and win["amount"] == 3 + 3 + 4
    assert state.money.carry == 0 and state.deals == 2


def test_g8_one_atomic_discard_in_turn_from_the_dealers_left() -> None:
    state = new(3, {1: "1/S1 2/S1 3/S1 4/S1 5/S1 6/S1 7/S1 8/S1"}, draws="1/S8 2/S8")
    state.apply(0, "bringin 1")
    state.apply(1, "pay")
    state.apply(2, "pay")
    assert state.actors() == frozenset({1})
    legal = state.legal_actions(1)
    assert max(len(a.arg) for a in legal) == 6 and len(legal) == 256 - 1 - 8
    with pytest.raises(IllegalActionError):
        state.apply(1, "discard 1 2 3 4 5 6 7")
    state.apply(1, "discard 1 2")
    assert [str(RailogCard(c)) for c in state.dead[1]] == ["1/S1", "2/S1"]
    assert {str(RailogCard(c)) for c in state.hand[1]} >= {"1/S8", "2/S8"}
    assert state.actors() == frozenset({2})  # no second discard for seat 1
    state.apply(2, "discard")
    assert state.drawn[2] == 0
    with pytest.raises(NotationError):
        make_game("getha", 3).parse_action("discard 0 9")


def test_g9_seven_or_more_seats_declare_together_and_reshuffle() -> None:
    state = new(7, {})
    assert state.game.options["simultaneous_discard_above"] == 6
    state.apply(0, "bringin 1")
    for p in range(1, 7):
        state.apply(p, "pay")
    assert state.phase == "declare"
    deck_before = len(state.deck)
    for p in [*range(1, 7), 0]:
        state.apply(p, "discard 1 2 3 4 5 6")
        if p != 0:
            assert len(state.hand[p]) == 2 and len(state.pool[p]) == 6
    assert state.phase == "select"
    assert all(len(state.hand[p]) == 8 for p in range(7))
    assert len(state.deck) == deck_before  # 42 in, 42 drawn
    assert sum(len(d) for d in state.dead) == 0  # the discards went back into the deck
    # the threshold is an option: 7 players discarding in turn
    assert new(7, {}, simultaneous_discard_above=7).game.options["simultaneous_discard_above"] == 7
    state = new(3, {}, simultaneous_discard_above=2)
    state.apply(0, "bringin 1")
    state.apply(1, "pay")
    state.apply(2, "pay")
    assert state.phase == "declare"


def test_g10_discards_are_never_claimed() -> None:
    hands = {1: "arl/S1 2/S2", 2: "7/S1 8/S1 3/S3 4/S4", 0: "5/S5 6/S6"}
    state = new(3, hands, avoid="1", draws="1/S8 2/S8")
    state.apply(0, "bringin 1")
    state.apply(1, "pay")
    state.apply(2, "pay")
    state.apply(1, "discard")
    hand2 = [str(RailogCard(c)) for c in state.hand[2]]
    state.apply(2, "discard " + " ".join(str(hand2.index(c) + 1) for c in ("7/S1", "8/S1")))
    state.apply(0, "discard")
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    for p in (1, 2, 0):
        state.apply(p, "check")
    assert not events(state, "claim")


def test_g11_one_suit_plays_alone_otherwise_exactly_two_whole_suits() -> None:
    state = new(3, {1: "1/S1 2/S1 3/S1 4/S1 5/S1 6/S1 7/S1 8/S1", 2: "1/S2 2/S3 3/S4"})
    to_select(state)
    assert [str(a) for a in state.legal_actions(1)] == ["select 1"]
    legal2 = [str(a) for a in state.legal_actions(2)]
    assert "select 2" not in legal2 and "select 2 3" in legal2
    with pytest.raises(IllegalActionError):
        state.apply(2, "select 1 2")  # seat 2 holds no S1
    state.apply(1, "select 1")
    state.apply(2, "select 2 3")
    state.apply(0, str(legal_at(state.legal_actions(0), 0)))
    assert len(state.played[1]) == 8 and state.reserve[1] == []
    assert {RailogCard(c).suit for c in state.played[2]} == {2, 3}
    assert all(RailogCard(c).suit not in (2, 3) for c in state.reserve[2])


def test_g12_selection_is_secret_until_everyone_has_chosen() -> None:
    state = new(3, {})
    to_select(state)
    assert state.actors() == frozenset({0, 1, 2})
    state.apply(2, str(state.legal_actions(2)[-1]))
    assert state.actors() == frozenset({0, 1})
    v = state.view(0)
    assert v["seats"][2]["played_count"] is None and v["choice"] is None
    assert state.view(2)["choice"] is not None
    assert [e for e in state.events_for(0) if e["kind"] == "choose"][-1].keys() == {
        "seq",
        "kind",
        "seat",
    }


def test_g13_g16_betting_order_checks_and_reopening() -> None:
    state = new(3, {}, chips=30)
    to_select(state)
    for p in (1, 2, 0):
        state.apply(p, str(legal_at(state.legal_actions(p), 0)))
    assert state.phase == "bet" and state.actors() == frozenset({1})
    assert "check" in [str(a) for a in state.legal_actions(1)]
    state.apply(1, "check")
    state.apply(2, "bet 4")
    state.apply(0, "call")
    assert state.actors() == frozenset({1})  # seat 1 checked, still owes 4
    state.apply(1, "raise 9")
    # G-14: seeing means matching the highest put: seat 2 pays 5, seat 0 pays 5
    state.apply(2, "call")
    assert state.money.put[2] == 9
    assert "raise 10..27" in [str(a) for a in state.legal_actions(0)]
    assert state.is_legal(0, Action("raise", 10)) and not state.is_legal(0, Action("raise", 9))
    state.apply(0, "call")
    # G-16: nobody may bet again: the round is over
    assert state.phase != "bet"


def test_g15_min_raise_and_max_bet() -> None:
    state = new(3, {}, chips=30, min_raise=3, max_bet=5)
    to_select(state)
    for p in (1, 2, 0):
        state.apply(p, str(legal_at(state.legal_actions(p), 0)))
    (bets,) = [a for a in state.legal_actions(1) if isinstance(a, AmountRange)]
    assert bets == AmountRange("bet", 3, 5)
    assert "allin" not in [str(a) for a in state.legal_actions(1)]
    with pytest.raises(OptionError):
        make_game("getha", 3, min_raise=4, max_bet=3)


def test_g17_all_in_stays_in_however_high_the_bet() -> None:
    state = new(3, {}, chips=10)
    shift_chips(state, [12, 3, 12])
    to_select(state)
    for p in (1, 2, 0):
        state.apply(p, str(legal_at(state.legal_actions(p), 0)))
    state.apply(1, "allin")  # 2 more chips: seat 1 is all-in for 4 in all
    state.apply(2, "raise 8")
    state.apply(0, "call")
    # seat 1 could not match the raise, yet it is shown and eligible for the main pot
    (reveal,) = events(state, "reveal")
    assert "1" in reveal["played"]
    pots = events(state, "pot")
    assert pots[0]["eligible"] == [0, 1, 2] and pots[0]["amount"] == 12
    assert all(1 not in p["eligible"] for p in pots[1:])


def test_g19_g20_claims_take_every_card_of_the_suit_into_played() -> None:
    hands = {
        1: "arl/S1 2/S2",
        2: "7/S1 3/S3 4/S4 8/S1",
        0: "5/S5 6/S6 1/S1 deiskatun/S1",
    }
    state = new(3, hands, avoid="1", extras=["alak/S1 3/S1 4/S7 5/S7 6/S7 7/S7 8/S7 1/S8"])
    to_showdown(state, {1: "1 2", 2: "3 4", 0: "5 6"})
    (claim,) = events(state, "claim")
    took = {t["from"]: t["cards"] for t in claim["taken"]}
    assert took == {
        "reserve:2": ["7/S1", "8/S1"],
        "reserve:0": ["1/S1", "deiskatun/S1"],
        "extra:1": ["3/S1", "alak/S1"],
    }
    # the claimed cards count in seat 1's played hand (alak and deiskatun included)
    last = state.view(None)["last_deal"]
    order_step = next(
        s for p in last["steps"] if p["step"] == "pot" for s in p["steps"] if s["step"] == "order"
    )
    assert order_step["seats"][0] == 1 and order_step["keys"][0][0] == 1


def test_g21_arls_outside_played_cards_are_inert() -> None:
    hands = {1: "2/S1 3/S2", 2: "arl/S3 4/S1 5/S4", 0: "6/S5 7/S6"}
    # seat 2's arl of S3 is in its reserve; the extra hand holds arl/S5
    state = new(3, hands, extras=["arl/S5 1/S7 2/S7 3/S7 4/S7 5/S7 6/S7 7/S7"])
    to_showdown(state, {1: "1 2", 2: "1 4", 0: "5 6"})
    assert not events(state, "claim")


def test_g22_replacement_is_repeated_until_two_suits() -> None:
    hands = {
        1: "arl/S1 arl/S2 1/S1 1/S2",
        2: "2/S1 2/S2 3/S3 3/S4 4/S5 5/S6 6/S7 7/S8",
        0: "5/S1 5/S2",
    }
    state = new(3, hands, avoid="1 2")
    to_showdown(state, {1: "1 2", 2: "1 2", 0: "1 2"})
    # seat 2 lost both suits: it chooses twice
    assert state.actors() == frozenset({2})
    state.apply(2, "replace 8")
    assert state.actors() == frozenset({2})
    state.apply(2, "replace 3")
    rep = [e for e in events(state, "replace") if e["seat"] == 2]
    assert [r["suit"] for r in rep] == [8, 3]


def test_g24_only_played_arlas_and_deiskatun_count() -> None:
    hands = {1: "arlas/S1 1/S1 2/S2", 2: "8/S3 8/S4 deiskatun/S5", 0: "7/S6 7/S7 arlas/S8"}
    state = new(3, hands)
    to_showdown(state, {1: "1 2", 2: "3 4", 0: "6 7"})
    (pot,) = events(state, "pot")
    arlas = next(s for s in pot["steps"] if s["step"] == "arlas")
    # seat 0's arlas is in reserve (ignored); seat 2's deiskatun too: both drop
    assert arlas["holders"] == [1] and sorted(arlas["dropped"]) == [0, 2]


def test_g25_g26_arlas_filter_options() -> None:
    played = [
        parse("arlas/S1 1/S1"),
        parse("arlas/S2 deiskatun/S3 8/S2"),
        parse("deiskatun/S4 7/S4"),
    ]
    winner, steps = resolve_pot([0, 1, 2], played, first=1, seats=3)
    assert steps[0] == {"step": "arlas", "holders": [1, 0], "dropped": [0]}
    assert winner == 1  # 8 against 7
    # same-suit deiskatun: seat 1 needs deiskatun/S1, seat 2 needs both S1 and S2
    winner, steps = resolve_pot([0, 1, 2], played, first=1, seats=3, deiskatun_same_suit=True)
    assert sorted(steps[0]["dropped"]) == [0, 1, 2] and winner is None
    _, steps = resolve_pot([0, 1, 2], played, first=1, seats=3, arlas_holders_immune=True)
    assert steps[0]["dropped"] == []


def test_g27_g31_ties_and_everyone_out_mean_no_winner() -> None:
    a, b, c = parse("8/S1 7/S1"), parse("8/S2 7/S2"), parse("5/S3")
    winner, steps = resolve_pot([0, 1, 2], [a, b, c], first=0, seats=3)
    # a and b tie and both drop out; c becomes champion without a battle
    assert [s["step"] for s in steps] == ["order", "battle", "champion"] and winner == 2
    winner, _ = resolve_pot([0, 1], [a, b], first=0, seats=2)
    assert winner is None
    winner, steps = resolve_pot([0, 1], [[], []], first=0, seats=2)
    assert winner is None and steps[0] == {"step": "no_cards", "seats": [0, 1]}


def test_a_battle_has_the_same_result_explained_or_not() -> None:
    """Unexplained (a search's worlds), a battle sums what is left without listing it."""
    rng = random.Random(5)
    for _ in range(4000):
        x = rng.sample(range(96), rng.randrange(0, 13))
        y = rng.sample(range(96), rng.randrange(0, 13))
        assert battle(x, y)[0] == battle(x, y, explain=False)[0], (x, y)


def test_a_pot_has_the_same_winner_explained_or_not() -> None:
    """Unexplained (a deal nobody reads yet, a search's worlds), a pot between two seats
    is decided by one battle in either order; with more, in the order explained."""
    rng = random.Random(11)
    for k in range(3000):
        seats = rng.randrange(2, 6)
        cards = rng.sample(range(96), 40)
        played = [sorted(cards[8 * p : 8 * p + rng.randrange(0, 9)]) for p in range(seats)]
        eligible = sorted(rng.sample(range(seats), rng.randrange(1, seats + 1)))
        for rules in (
            {},
            {"arlas_holders_immune": True, "deiskatun_same_suit": True, "matchup_order": "seat"},
        ):
            first = k % seats
            explained = resolve_pot(eligible, played, first, seats, **rules)[0]
            unexplained = resolve_pot(eligible, played, first, seats, **rules, explain=False)
            assert unexplained == (explained, []), (eligible, played, first, rules)
            swapped = resolve_pot(eligible[::-1], played, first, seats, **rules, explain=False)
            assert swapped[0] == explained, (eligible, played, first, rules)


def test_g28_g29_alak_cancel_first_then_take_the_highest_numbers_at_once() -> None:
    r, d = battle(parse("alak/S1 alak/S2 5/S1 6/S2"), parse("alak/S5 8/S5 7/S5 4/S5 2/S6 1/S6"))
    assert d["cancelled"] == 1 and d["totals"] == [11, 14] and r == -1
    assert [[str(c) for c in side] for side in d["removed"]] == [[], ["8/S5"]]
    r, d = battle(parse("alak/S1 8/S1"), parse("alak/S2 alak/S3 8/S2 8/S3"))
    assert [[str(c) for c in side] for side in d["removed"]] == [["8/S1"], []]
    assert d["totals"] == [0, 16] and r == -1


def test_g30_alak_only_hands() -> None:
    alak2 = parse("alak/S1 alak/S2")
    assert battle(alak2, parse("8/S3 1/S3"))[0] == 1  # removes everything, keeps an alak
    assert battle(alak2, parse("8/S3 1/S3 1/S4"))[0] == -1
    assert battle(parse("alak/S1"), parse("alak/S2"))[0] == 0
    assert battle(parse("arl/S1"), parse("deiskatun/S2"))[0] == 0  # nothing left on either side
    assert battle(parse("alak/S1"), parse("arlas/S2"))[0] == 1


def test_g32_full_ties_use_seat_order_from_the_dealers_left() -> None:
    hands = [parse("8/S1"), parse("8/S2"), parse("alak/S3 alak/S4 1/S3 1/S4")]
    _, steps = resolve_pot([0, 1, 2], hands, first=1, seats=3)
    assert steps[0]["seats"] == [2, 1, 0]
    _, steps = resolve_pot([0, 1, 2], hands, first=0, seats=3)
    assert steps[0]["seats"] == [2, 0, 1]


def test_g33_at_most_two_alak_and_two_suits_in_random_games() -> None:
    game = make_game("getha", 4, chips=8, max_deals=3)
    seen = 0

    def check(state: Any) -> None:
        nonlocal seen
        for cards in state.played:
            assert hand_key(cards)[0] <= 2
            assert len({c // 12 for c in cards}) <= 2
            seen += bool(cards)

    for seed in range(15):
        random_playout(game.new_state(seed=seed), random.Random(seed), check)
    assert seen > 0


def test_g34_matchup_order_option_values() -> None:
    with pytest.raises(OptionError):
        make_game("getha", 3, matchup_order="random")
    assert make_game("getha", 3, matchup_order="seat").options["matchup_order"] == "seat"


def test_g35_g36_carry_and_dealer_rotation_skip_empty_seats() -> None:
    test_g3_seats_without_chips_are_not_dealt_in()  # seat 2 busts in deal 1
    hands = {1: "alak/S1 alak/S2 8/S1 8/S2", 2: "1/S3 1/S4", 0: "2/S5 2/S6"}
    state = new(3, hands, chips=5)
    to_select(state)
    for p, s in ((1, "1 2"), (2, "3 4"), (0, "5 6")):
        state.apply(p, f"select {s}")
    state.apply(1, "check")
    state.apply(2, "allin")
    state.apply(0, "fold")
    state.apply(1, "call")
    # deal 2 dealt by seat 1; deal 3 must skip seat 2 (no chips) and go to seat 0
    assert state.dealer == 1
    state.apply(1, "bringin 1")
    state.apply(0, "decline")
    assert state.dealer == 0 and state.order == [1, 0]


def test_g37_the_winner_of_a_battle_fights_the_next_hand() -> None:
    a, b, c, d = (parse(SHEET[s]) for s in (1, 2, 3, 0))
    _, steps = resolve_pot([1, 2, 3, 0], [d[:7], a[:4], b[:4], c[:6]], first=1, seats=4)
    fights = [s["seats"] for s in steps if s["step"] == "battle"]
    assert fights == [[1, 3], [3, 2], [3, 0]]


def test_game_ends_after_max_deals_and_shares_the_carry() -> None:
    state = new(4, TIED, max_deals=1)
    to_showdown(state, {1: "1 2", 2: "3 4", 3: "5 6", 0: "7 8"})
    assert state.is_over
    # 8 chips carried: shared 2 each
    assert state.money.stacks == [50, 50, 50, 50] and state.money.carry == 0
    out = state.outcome()
    assert out is not None and out.winners == (0, 1, 2, 3)


def test_game_ends_when_one_seat_has_every_chip() -> None:
    game = make_game("getha", 3, chips=6)
    state = game.new_state(seed=5)
    random_playout(state, random.Random(5))
    out = state.outcome()
    assert out is not None and sorted(out.scores)[-1] == 18 and len(out.winners) == 1
    assert sum(out.payoffs) == 0


def test_action_ids_round_trip() -> None:
    game = make_game("getha", 4, chips=10)
    for i in range(game.num_distinct_actions):
        action = game.action_from_id(i)
        assert game.action_id(action) == i
        assert game.parse_action(str(action)) == action
    assert game.action_id(game.parse_action("discard 1 3")) == 6 + 0b101
    assert game.parse_action("select S3 S1") == game.parse_action("select 1 3")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_sequence_of_bets_and_folds_keeps_chips_and_pots_right(data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 8))
    mode = data.draw(st.sampled_from(["side_pots", "whole_pot"]))
    game = make_game("getha", players, chips=8, max_deals=2, allin_mode=mode)
    state = game.new_state(seed=data.draw(st.integers(0, 10_000)))
    assert isinstance(state, GethaState)
    steps = 0
    while not state.is_over and steps < 400:
        seat = min(state.actors())
        state.apply(seat, data.draw(st.sampled_from(expand_legal(state.legal_actions(seat)))))
        state.check_invariants()
        assert sum(state.money.stacks) + state.money.in_play == 8 * players
        steps += 1
    for pot in events(state, "pot"):
        assert pot["winner"] is None or pot["winner"] in pot["eligible"]
        if mode == "whole_pot":
            assert pot["pot"] == 0
    for deal in state.results:
        assert sum(deal["stacks"]) + deal["carry"] == 8 * players


def test_determinize_during_a_replacement_keeps_the_public_showdown() -> None:
    hands = {
        1: "arl/S1 2/S1 3/S2 4/S2",
        2: "7/S1 8/S1 5/S3 6/S3 arl/S4 1/S4 2/S4 3/S4",
        0: "8/S4 7/S4 5/S5 6/S5 1/S6 2/S6 1/S7 2/S7",
    }
    state = new(3, hands, avoid="1 4")
    to_showdown(state, {1: "1 2", 2: "1 3", 0: "4 5"})
    assert state.actors() == frozenset({0})
    rng = random.Random(9)
    for _ in range(30):
        world = state.determinize(1, rng)
        world.check_invariants()
        assert world.played == state.played  # face up: public
        assert world.reserve[1] == state.reserve[1]  # seat 1's own
        reserve0 = {c // 12 for c in world.reserve[0]}
        assert len(reserve0) >= 2 and not reserve0 & {c // 12 for c in world.played[0]}
        # no hidden card of an active arl's suit outside the deck and the discards
        for zone in (world.reserve[0], world.reserve[2], *world.extra):
            assert all(c // 12 not in (0, 3) for c in zone)
        assert world.actors() == state.actors()


def test_a_million_chips_give_short_legal_lists_and_small_views() -> None:
    """Bring-ins, bets and raises are ranges: with a million chips at each of 8 seats a
    legal list is a handful of entries, the bots name amounts inside them, and an amount
    one chip outside is refused."""
    game = make_game("getha", 8, chips=1_000_000, max_deals=1)
    for level, params in (("random", {}), ("heuristic", {"samples": 8})):
        state = game.new_state(seed=2)
        assert isinstance(state, GethaState)
        bots = [make_bot(game, level, seed=s, **params) for s in range(8)]
        kinds = set()
        while not state.is_over:
            seat = min(state.actors())
            legal = state.legal_actions(seat)
            assert len(legal) <= 256
            for entry in legal:
                if isinstance(entry, AmountRange):
                    kinds.add(entry.kind)
                    assert entry.max <= state.money.stacks[seat] + state.money.put[seat]
                    assert not state.is_legal(seat, Action(entry.kind, entry.max + 1))
                    assert not state.is_legal(seat, Action(entry.kind, entry.min - 1))
            assert len(json.dumps(state.view(seat))) < 60_000
            state.apply(seat, bots[seat].choose(state, seat))
        assert "bringin" in kinds
        assert sum(state.money.stacks) == 8_000_000


RULINGS = Path(__file__).parent / "data" / "rulings"


def test_g38_g39_a_seat_all_in_at_the_ante_stays_in_and_an_orphaned_carry_is_split() -> None:
    """A record (two seats of one chip, ante 1; seed 92, random play): both pay their last
    chip at the ante. G-38: neither is asked about the bring-in (the deal goes straight to
    the discards, no bring-in is set) and both are eligible for the pot. The battle has no
    winner, the pot is carried over and no seat holds a chip. G-39: the carry-over is split
    evenly among the seats of the last deal, from the dealer's left."""
    record = load_record(RULINGS / "getha-G38-G39.json")
    assert record.options["chips"] == 1 and record.options["ante"] == 1
    assert [a.split()[0] for _, a in record.actions] == ["discard", "discard", "select", "select"]
    start = replay(record, upto=0)
    assert start.view(None)["phase"] == "draw" and start.actors() == {1}
    state = replay(record)
    public = [(e.kind, dict(e.data)) for e in state.events if e.to is None]
    ante = next(d for k, d in public if k == "ante")
    assert ante["paid"] == {"1": 1, "0": 1}
    assert next(d for k, d in public if k == "bringin")["amount"] == 0
    (pot,) = [d for k, d in public if k == "pot"]
    assert pot["eligible"] == [0, 1] and pot["winner"] is None and pot["amount"] == 2
    over = next(d for k, d in public if k == "deal_over")
    assert over["dealer"] == 0 and over["stacks"] == [0, 0] and over["carry"] == 2
    split = next(d for k, d in public if k == "carry_split")
    assert list(split["shares"].items()) == [("1", 1), ("0", 1)]
    outcome = state.outcome()
    assert state.is_over and outcome is not None and outcome.winners == (0, 1)
    assert record.result == {"scores": [1.0, 1.0], "winners": [0, 1]}


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {"chips": 12, "max_deals": 6}), (8, {"chips": 8, "simultaneous_discard_above": 2})],
)
def test_events_told_in_short_form_read_the_same_whenever_they_are_read(
    players: int, options: dict[str, Any]
) -> None:
    """A deal's hot paths tell their events by short entries (card indexes, counts), made
    into events only when read: a game whose events are read after every action and the
    same game read once at its end hold the very same events (nothing an entry refers to
    changed in between), with the data the events always had."""
    game = make_game("getha", players, **options)
    kinds: set[str] = set()
    for seed in range(6):
        watched, unread = game.new_state(seed=seed), game.new_state(seed=seed)
        rng = random.Random(seed)
        while not watched.is_over:
            seat = min(watched.actors())
            legal = expand_legal(watched.legal_actions(seat), limit=10**6)
            action = legal[rng.randrange(len(legal))]
            watched.apply(seat, action)
            unread.apply(seat, action)
            kinds |= {e.kind for e in watched.events}
        seen = [[e.to_json(i), sorted(e.to or ())] for i, e in enumerate(watched.events)]
        late = [[e.to_json(i), sorted(e.to or ())] for i, e in enumerate(unread.events)]
        assert seen == late
    told = {"deal", "ante", "cards", "choose", "selected", "pot", "deal_over"}
    assert told | ({"declare", "draw"} if players == 8 else {"discard"}) <= kinds
    first = next(e for e in watched.events if e.kind == "cards" and e.to == frozenset({0}))
    assert list(first.data) == ["cards"] and all(type(c) is RailogCard for c in first.data["cards"])
    assert first.data["cards"] == sorted(first.data["cards"])


def test_a_new_state_starts_with_a_uniform_table_of_its_own() -> None:
    """A new state's chips are ``Money([chips] * players, mode=...)`` (made by
    ``Money.uniform``), and each state's are its own."""
    from cardhall.money import Money

    game = make_game("getha", 4, chips=9, allin_mode="whole_pot", ante=0)  # no chip moved
    one, two = game.new_state(seed=1), game.new_state(seed=1)
    fresh = Money([9] * 4, mode="whole_pot")
    for state in (one, two):
        money = state.money
        assert (money.stacks, money.totals, money.carry) == ([9] * 4, [0] * 4, 0)
        assert (money.mode, money.chips, money.seats) == (fresh.mode, fresh.chips, 4)
    assert one.money is not two.money and one.money.stacks is not two.money.stacks
    random_playout(one, random.Random(3))
    assert two.money.stacks == [9] * 4 and one.money.chips == 36


def test_amount_ranges_are_shared_values_equal_to_new_ones() -> None:
    """Legal ranges come from a small cache (a frozen dataclass is costly to make): the
    same bring-in range twice is one value, equal to a range made afresh."""
    game = make_game("getha", 3)
    one, two = game.new_state(seed=4), game.new_state(seed=4)
    (a,), (b,) = one.legal_actions(0), two.legal_actions(0)
    assert a is b and a == AmountRange("bringin", 1, 49)
