"""Getha's narration: the showdown told step by step (claims, replacements, seats with no
cards, arlas drop-outs, the order of battle, each battle with the cards removed and its
totals, side pots and carry-over), the deal summaries and the prompts."""

from __future__ import annotations

import random
import re

from cardhall.conformance import random_playout
from cardhall.engine import AmountRange, choose_uniform
from cardhall.narration import (
    Context,
    annotate,
    describe,
    hand_summaries,
    labels,
    narrate,
    prompt,
    status,
)
from cardhall.narration.getha import SHOWDOWN_KINDS
from cardhall.registry import make_game

NAMES = ("Ann", "Bob", "Cy")
#: Seeds of 3-seat games (12 chips, 4 deals) between them showing every kind of step.
SEEDS = (0, 1, 3, 8, 91)


def word(card: str) -> str:
    """``alak/S3`` as the narration names it: ``alak of S3``."""
    return card.replace("/", " of ")


def games() -> list[tuple[list[dict], list[str | None]]]:
    out = []
    for seed in SEEDS:
        state = make_game("getha", 3, chips=12, max_deals=4).new_state(seed=seed)
        random_playout(state, random.Random(seed))
        feed = state.events_for(None)
        out.append((feed, narrate(feed, Context("getha", NAMES))))
    return out


def test_each_pot_is_told_step_by_step() -> None:
    seen: set[str] = set()
    for feed, texts in games():
        for event, text in zip(feed, texts, strict=True):
            if event["kind"] != "pot":
                continue
            assert text is not None
            lines = text.split("\n")
            name = "The pot" if event["pot"] == 0 else f"Side pot {event['pot']}"
            assert lines[0].startswith(f"{name}: {event['amount']} chips")
            if event["pot"] > 0:
                seen.add("side")
            if event["returned"]:
                seen.add("returned")
                only = NAMES[event["winner"]]
                assert lines[1] == f"Only {only} can win it: it goes back to {only}."
                continue
            steps = event["steps"]
            assert len(lines) == len(steps) + 2
            for step, line in zip(steps, lines[1:-1], strict=True):
                seen.add(step["step"])
                if step["step"] == "arlas":
                    assert "shows an arlas" in line or "show an arlas" in line
                    for s in step["dropped"]:
                        assert NAMES[s] in line.split(":", 1)[1]
                    assert (
                        "drop out, with no deiskatun" in line
                        or "drops out, with no deiskatun" in line
                    ) == bool(step["dropped"])
                elif step["step"] == "battle":
                    x, y = step["seats"]
                    tx, ty = step["totals"]
                    assert line.startswith(f"Battle, {NAMES[x]} against {NAMES[y]}: ")
                    assert f"{tx} against {ty}: " in line
                    if step["winner"] is None:
                        seen.add("tie")
                        assert line.endswith("a tie: both drop out.")
                    else:
                        assert line.endswith(f"{NAMES[step['winner']]} wins.")
                    for removed in step["removed"]:
                        if removed:
                            seen.add("removed")
                            assert "extra alak remove" in line and word(removed[0]) in line
                    if step["cancelled"]:
                        assert f"{step['cancelled']} alak on each side cancel" in line
                elif step["step"] == "order":
                    assert line.startswith("Order of battle: " + NAMES[step["seats"][0]])
                elif step["step"] == "champion":
                    assert line == f"{NAMES[step['seat']]} goes on without a battle."
                elif step["step"] == "no_cards":
                    assert "no played cards left" in line
            if event["winner"] is None:
                seen.add("carry")
                assert lines[-1] == (
                    f"Nobody wins {name[0].lower() + name[1:]}: the {event['amount']} chips "
                    "are carried over to the next deal."
                )
            else:
                pot = name[0].lower() + name[1:]
                winner = NAMES[event["winner"]]
                assert lines[-1] == f"{winner} wins {pot}: {event['amount']} chips."
    assert {"arlas", "order", "battle", "champion", "tie", "removed", "carry", "side"} <= seen


def test_claims_replacements_and_the_carry_over_split() -> None:
    kinds = set()
    for feed, texts in games():
        for event, text in zip(feed, texts, strict=True):
            assert text
            kinds.add(event["kind"])
            if event["kind"] == "claim":
                arl = f"arl of S{event['suit']}"
                assert text.startswith(f"{NAMES[event['seat']]}'s {arl} claims ")
                for taken in event["taken"]:
                    assert word(taken["cards"][0]) in text
            elif event["kind"] == "replace":
                assert text.startswith(
                    f"{NAMES[event['seat']]} has lost a played suit to an arl and brings in "
                    f"S{event['suit']} from the reserve"
                )
            elif event["kind"] == "carry_split":
                assert text.startswith("The game ends with chips carried over; they are shared:")
            elif event["kind"] == "reveal":
                assert text.split("\n")[0] == "Showdown: the played cards are turned up."
                assert len(text.split("\n")) == 1 + len(event["played"])
    assert {"claim", "replace", "carry_split", "reveal", "win"} <= kinds


def test_a_claim_from_the_viewers_cards_and_an_extra_hand() -> None:
    claim = {
        "seq": 5,
        "kind": "claim",
        "seat": 0,
        "suit": 7,
        "taken": [
            {"from": "reserve:1", "cards": ["8/S7", "deiskatun/S7"]},
            {"from": "folded:2", "cards": ["1/S7"]},
            {"from": "extra:1", "cards": ["alak/S7"]},
        ],
    }
    assert describe(claim, Context("getha", NAMES, viewer=1)) == (
        "Ann's arl of S7 claims 8 of S7 and deiskatun of S7 from your reserve; 1 of S7 from "
        "Cy's folded hand; alak of S7 from extra hand 1."
    )


def test_deal_summaries_say_who_won_what_and_why() -> None:
    for feed, _ in games():
        ctx = Context("getha", NAMES)
        summaries = hand_summaries(feed, ctx)
        overs = [e for e in feed if e["kind"] == "deal_over"]
        assert [s.number for s in summaries] == [e["deal"] for e in overs]
        for summary, over in zip(summaries, overs, strict=True):
            stacks = ", ".join(f"{n} {s}" for n, s in zip(NAMES, over["stacks"], strict=True))
            assert f"Stacks: {stacks}." in summary.lines
            assert any(
                "won the pot" in line
                or "unseen" in line
                or "Nobody won" in line
                or "went back" in line
                for line in summary.lines
            )


def test_prompts_in_every_phase() -> None:
    state = make_game("getha", 3, chips=12).new_state(seed=5)
    rng = random.Random(5)
    phases: dict[str, str] = {}
    while not state.is_over and len(phases) < 6:
        seat = min(state.actors())
        view = state.view(seat)
        text = prompt(view, Context("getha", NAMES, viewer=seat))
        assert text
        phases.setdefault(view["phase"], text)
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert phases["bringin"].startswith("You deal: set the bring-in between 1 and 11 chips.")
    assert "pay " in phases["answer"] and "or decline" in phases["answer"]
    assert phases["select"].startswith("Choose the two suits you play")
    assert phases["bet"].startswith("Betting: ")


def test_the_showdown_steps_one_per_line_with_their_seats_and_cards() -> None:
    """``annotate`` gives each showdown event its steps (what the web steps through): one
    per line of its text, each with the seats and the cards it is about."""
    kinds: set[str] = set()
    for seed in SEEDS:
        state = make_game("getha", 3, chips=12, max_deals=4).new_state(seed=seed)
        random_playout(state, random.Random(seed))
        for viewer in (0, None):
            feed = annotate(state.events_for(viewer), Context("getha", NAMES, viewer=viewer))
            shown = False
            for event in feed:
                if event["kind"] not in SHOWDOWN_KINDS:
                    assert "text_steps" not in event
                    continue
                kinds.add(event["kind"])
                steps = event["text_steps"]
                assert [s["text"] for s in steps] == event["text"].split("\n")
                for step in steps:
                    assert all(0 <= s < 3 for s in step["seats"])
                    for card in step["cards"]:
                        assert card.replace("/", " of ") in step["text"]
                head = event.get("steps_head")
                if event["kind"] in ("reveal", "win"):
                    # the narration heads the run of steps (the page writes no word of it)
                    deal = next(
                        e["deal"]
                        for e in feed
                        if e["seq"] > event["seq"] and e["kind"] == "deal_over"
                    )
                    title = (
                        f"Showdown, deal {deal}"
                        if event["kind"] == "reveal"
                        else f"Deal {deal}, won unseen"
                    )
                    assert head == {
                        "title": title,
                        "at": "Step {step} of {steps}",
                        "all": "{steps} steps",
                    }
                else:
                    assert head is None
                if event["kind"] == "reveal":
                    shown = True
                    played = {int(s): c for s, c in event["played"].items()}
                    assert [s["seats"] for s in steps[1:]] == [[s] for s in played]
                    assert [s["cards"] for s in steps[1:]] == list(played.values())
                if event["kind"] == "claim":
                    assert steps[0]["seats"][0] == event["seat"]
                    assert steps[0]["cards"][0] == f"arl/S{event['suit']}"
                if event["kind"] == "pot" and not event["returned"]:
                    battles = [s for s in event["steps"] if s["step"] == "battle"]
                    told = [s for s in steps if s["text"].startswith("Battle, ")]
                    assert [s["seats"] for s in told] == [b["seats"] for b in battles]
                    assert steps[0]["seats"] == event["eligible"]
                    winner = event["winner"]
                    assert steps[-1]["seats"] == ([] if winner is None else [winner])
                if event["kind"] == "deal_over":
                    assert steps[0]["text"] == f"End of deal {event['deal']}."
                    shown = False
            assert not shown
    assert kinds == SHOWDOWN_KINDS


def test_prompts_and_buttons_speak_of_amounts_in_words() -> None:
    state = make_game("getha", 3, chips=100_000).new_state(seed=2)
    rng = random.Random(2)
    texts: dict[str, tuple[str, list[str]]] = {}
    while not state.is_over and len(texts) < 4:
        seat = min(state.actors())
        view = state.view(seat)
        ctx = Context("getha", NAMES, viewer=seat)
        said = prompt(view, ctx)
        assert said is not None
        if view["phase"] in ("bringin", "bet"):
            texts.setdefault(view["phase"], (said, labels(view, ctx)))
        words = labels(view, ctx)
        assert len(words) == len(view["legal"]) == len(set(words))
        legal = state.legal_actions(seat)
        # often the largest amount, so that the numbers are big
        ranges = [a for a in legal if isinstance(a, AmountRange)]
        big = ranges[-1].last if ranges and rng.random() < 0.3 else None
        state.apply(seat, big or choose_uniform(rng, legal))
    said, _ = texts["bringin"]
    assert said.startswith("You deal: set the bring-in between 1 and 99,999 chips.")
    said, words = texts["bet"]
    assert "," in said and "Your stack" not in said
    assert re.search(r"\b(bet|raise to) between [\d,]+ and [\d,]+ chips\b", said), said
    for word in words:
        assert not re.search(r"\d{4}", word), word


def test_the_status_names_whom_the_table_waits_for() -> None:
    state = make_game("getha", 3, chips=12).new_state(seed=5)
    rng = random.Random(5)
    seen = set()
    while not state.is_over:
        actors = state.actors()
        for viewer in (0, 1, 2, None):
            view = state.view(viewer)
            text = status(view, Context("getha", NAMES, viewer=viewer))
            if viewer in actors:
                assert text.startswith("Your "), text
            else:
                waited = [NAMES[s] for s in actors]
                assert text.startswith("Waiting for ") and all(n in text for n in waited), text
            seen.add(view["phase"])
        seat = min(actors)
        state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    view = state.view(0)
    assert status(view, Context("getha", NAMES, viewer=0)) == "Game over"
    assert {"select", "bet", "bringin"} <= seen


def test_the_board_shows_a_side_pot_only_behind_an_all_in_seat() -> None:
    """While seats still owe the bring-in or a bet, the view's pots (one per level of
    what the seats put in) read as one pot on the table; a side pot shows behind a seat
    that is all in, and the pots always hold every chip of the view's."""
    from cardhall.narration import board

    side_pots = joined = 0
    for seed in range(12):
        state = make_game("getha", 4, chips=12, max_deals=3).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = state.view(None)
            pots = board(view, Context("getha", (*NAMES, "Di")))["pots"]
            assert sum(p["amount"] for p in pots) == sum(p["amount"] for p in view["pots"])
            for after in pots[1:]:
                assert after["label"].startswith("Side pot"), after
                assert any(seat["all_in"] for seat in view["seats"]), (seed, view["pots"])
                side_pots += 1
            if len(view["pots"]) > 1 and not any(s["all_in"] for s in view["seats"]):
                assert len(pots) == 1, (seed, view["pots"])
                joined += 1
            seat = min(state.actors())
            state.apply(seat, choose_uniform(rng, state.legal_actions(seat)))
    assert side_pots and joined
