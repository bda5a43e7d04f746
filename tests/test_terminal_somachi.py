"""Somachi in the terminal: rendering, events, and the reasons for out-of-turn prompts."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from cardhall.cards import RAILOG_DECK, RailogCard, SuitNames
from cardhall.games.somachi import SomachiState
from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.terminal import TerminalGame
from cardhall.terminal.somachi import describe_event, render, why

OMYR = SuitNames.get("omyr")


def claim_window_state() -> SomachiState:
    hands = (
        ["5/S2", "6/S2", "1/S8", "2/S8"],
        ["alak/S6", "1/S7", "2/S7", "3/S7"],
        ["arl/S2", "1/S6", "2/S6", "3/S6"],
    )
    prefix = [RailogCard.parse(h[i]) for i in range(4) for h in hands]
    deck = prefix + [c for c in RAILOG_DECK if c not in prefix]
    state = make_game("somachi", 3).new_state(deck=deck)
    for seat, move in ((0, "stand"), (1, "stand"), (2, "open arl/S2"), (0, "draw")):
        state.apply(seat, move)
    state.apply(0, "discard 5/S2")
    assert isinstance(state, SomachiState)
    return state


def test_why_explains_a_claim_with_the_chosen_suit_names() -> None:
    state = claim_window_state()
    assert why(state, 2, names=OMYR) == (
        "your arl of sitar may claim the 5 of sitar on the discard pile "
        "(and any cards of its suit under it)"
    )
    assert "arl of S2" in (why(state, 2) or "")  # default names
    assert why(state, 1) is None


def test_render_shows_the_table_and_only_your_hand() -> None:
    state = claim_window_state()
    out = io.StringIO()
    console = Console(file=out, width=140)
    console.print(render(state.view(1), OMYR))
    text = out.getvalue()
    assert "your hand" in text and "alak of omyr-6" in text
    assert "arl of sitar" in text  # seat 2's tableau
    assert "5 of sitar" in text  # the top of the discard pile
    assert "1 of omyr-6" not in text  # seat 2's hand stays hidden
    assert "waiting for seat 2: claim window" in text


def test_every_event_is_described() -> None:
    game = make_game("somachi", 4, gambling=True, chips=6)
    state = game.new_state(seed=3)
    import random

    rng = random.Random(3)
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    kinds = set()
    for event in state.events_for(0):
        if event["kind"] == "game":
            continue
        line = describe_event(event, OMYR)
        assert line, f"no text for {event['kind']}"
        kinds.add(event["kind"])
    assert {"deal", "draw", "hand_end"} <= kinds


def test_a_human_is_prompted_out_of_turn_and_told_why(tmp_path: Path) -> None:
    out = io.StringIO()
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "1" if len(prompts) < 400 else "q"

    tg = TerminalGame(
        make_game("somachi", 3, hands_per_game=1),
        humans=(1,),
        bot_level="heuristic",
        seed=4,
        console=Console(file=out, width=140),
        ask=ask,
        names=OMYR,
        save=tmp_path / "rec.json",
    )
    tg.play()
    text = out.getvalue()
    assert prompts
    record = load_record(tmp_path / "rec.json")
    assert replay(record).digest() == tg.state.digest()
    # whenever seat 1 was asked out of turn, the reason was printed
    asked_out_of_turn = any(
        e.kind in ("pass", "claim", "collect", "defend") and e.seat == 1 for e in tg.state.events
    )
    if asked_out_of_turn:
        assert "your arl of" in text or "against you" in text
