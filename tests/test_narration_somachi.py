"""Somachi's narration: the reaction windows (why the seat is asked out of turn and what
passing costs, a defence window with only "pass" included), and the hand summaries."""

from __future__ import annotations

import random

from cardhall.conformance import random_playout
from cardhall.engine import State, choose_uniform
from cardhall.narration import Context, hand_summaries, labels, narrate, prompt, status
from cardhall.registry import make_game

NAMES = ("Ann", "Bob", "Cy")


def window(kind: str, seed: int, legal: set[str]) -> tuple[State, dict]:
    """The first state of a seeded random 3-seat hand waiting on ``kind`` with ``legal``."""
    state = make_game("somachi", 3, hands_per_game=1).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        pending = state.view(None)["pending"]
        if pending and pending["kind"] == kind:
            kinds = {str(a).split()[0] for a in state.legal_actions(pending["seat"])}
            if kinds == legal:
                return state, pending
        seat = min(state.actors())
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    raise AssertionError(f"no {kind} with {legal} in seed {seed}")


def asked(state: State, seat: int) -> str:
    text = prompt(state.view(seat), Context("somachi", NAMES, viewer=seat))
    assert text is not None
    assert not text.startswith("Your turn")
    return text


def test_a_defence_window_with_only_pass_says_what_is_at_stake() -> None:
    state, pending = window("defence window", 0, {"pass"})
    seat, suit = pending["seat"], pending["suit"]
    text = asked(state, seat)
    attacker = NAMES[pending["attacker"]]
    assert text.startswith(f"Not your turn: {attacker} plays an arlas of S{suit} against you.")
    at_stake = [
        c for pile in state.view(seat)["tableaus"][seat] for c in pile if c.endswith(f"/S{suit}")
    ]
    assert at_stake and all(c.replace("/", " of ") in text for c in at_stake)
    assert "goes under the deck" in text
    assert text.endswith(f"You hold no deiskatun of S{suit}: you can only let it happen (pass).")
    # the others are not asked, and learn nothing from the window
    for other in set(range(3)) - {seat}:
        assert prompt(state.view(other), Context("somachi", NAMES, viewer=other)) is None


def test_a_defence_window_with_the_deiskatun_offers_it() -> None:
    state, pending = window("defence window", 43, {"defend", "pass"})
    text = asked(state, pending["seat"])
    assert text.endswith(f"You may defend with your deiskatun of S{pending['suit']}.")


def test_claim_and_collect_windows_say_what_passing_costs() -> None:
    state, pending = window("claim window", 0, {"claim", "pass"})
    card = pending["card"]
    suit = card.split("/")[1]
    text = asked(state, pending["seat"])
    assert text.startswith(
        f"Not your turn, but your arl of {suit} may claim the {card.replace('/', ' of ')} on the "
        "discard pile"
    )
    assert "If you pass, the next player may take it" in text
    state, pending = window("collect window", 0, {"collect", "pass"})
    text = asked(state, pending["seat"])
    assert f"your arl of S{pending['suit']} may collect every S{pending['suit']} card" in text
    assert "If you pass they stay where they are and score for their owners." in text


def test_windows_and_passes_in_the_feed() -> None:
    state = random_playout(
        make_game("somachi", 3, hands_per_game=2).new_state(seed=0), random.Random(0)
    )
    feed = state.events_for(1)
    texts = narrate(feed, Context("somachi", NAMES, viewer=1))
    for event, text in zip(feed, texts, strict=True):
        assert text
        if event["kind"] == "pass" and event["window"] == "defence":
            assert text.endswith(f"not defend against the arlas of S{event['suit']}.")
        if event["kind"] == "hand_end":
            assert "wins the hand" in text or "win the hand" in text
    summaries = hand_summaries(feed, Context("somachi", NAMES, viewer=1))
    ends = [e for e in feed if e["kind"] == "hand_end"]
    assert len(summaries) == len(ends) == 2
    for summary, end in zip(summaries, ends, strict=True):
        tallies = ", ".join(
            f"{'you' if s == 1 else NAMES[s]} {t}" for s, t in enumerate(end["tallies"])
        )
        assert summary.lines[-1] == f"Tallies: {tallies}."


def test_the_status_of_a_window_is_never_your_turn() -> None:
    """The seat asked out of turn reads why; the others read whom the table waits for and
    why; nobody reads "Your turn"."""
    cases = [
        ("claim window", 0, {"claim", "pass"}),
        ("collect window", 0, {"collect", "pass"}),
        ("defence window", 0, {"pass"}),
    ]
    for kind, seed, legal in cases:
        state, pending = window(kind, seed, legal)
        seat = pending["seat"]
        mine = status(state.view(seat), Context("somachi", NAMES, viewer=seat))
        assert mine.startswith("Not your turn: "), mine
        for other in [*(set(range(3)) - {seat}), None]:
            theirs = status(state.view(other), Context("somachi", NAMES, viewer=other))
            assert theirs.startswith(f"Waiting for {NAMES[seat]} (out of turn: "), theirs
        if kind == "claim window":
            card = pending["card"].replace("/", " of ")
            suit = pending["card"].split("/")[1]
            assert mine == (
                f"Not your turn: your arl of {suit} may claim the {card} on the discard pile"
            )
        if kind == "defence window":
            attacker = NAMES[pending["attacker"]]
            assert mine == (
                f"Not your turn: {attacker} attacks you with the arlas of S{pending['suit']}"
            )
            words = labels(state.view(seat), Context("somachi", NAMES, viewer=seat))
            assert words == [f"Pass (lose your S{pending['suit']} cards)"]


def test_the_buttons_name_seats_and_cards_in_words() -> None:
    """Every legal entry has its words: an attack names its target (never a seat counted
    from 0), a pass what it lets go; two entries never read the same."""
    state = make_game("somachi", 3, hands_per_game=2).new_state(seed=4)
    rng = random.Random(4)
    seen: set[str] = set()
    while not state.is_over:
        seat = min(state.actors())
        view = state.view(seat)
        words = labels(view, Context("somachi", NAMES, viewer=seat))
        assert len(words) == len(view["legal"]) == len(set(words))
        for entry, text in zip(view["legal"], words, strict=True):
            kind = str(entry).split(" ")[0]
            seen.add(kind)
            if kind == "attack":
                _, card, target = str(entry).split(" ")
                assert text == f"Attack {NAMES[int(target)]} with the {card.replace('/', ' of ')}"
            assert "/" not in text and text[0].isupper(), text
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert {"attack", "add", "play", "discard", "draw"} <= seen
