"""Somachi in the terminal: rendering, events, and the reasons for out-of-turn prompts."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from rich.console import Console

from cardhall.cards import RAILOG_DECK, RailogCard, SuitNames
from cardhall.conformance import random_playout
from cardhall.games.somachi import SomachiState
from cardhall.narration import Context, narrate, prompt
from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.terminal import TerminalGame
from cardhall.terminal.somachi import render

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


def ctx(seat: int | None, suits: SuitNames = OMYR, players: int = 3) -> Context:
    return Context("somachi", ("Ann", "Bob", "Cy", "Dee")[:players], suits=suits, viewer=seat)


def test_the_prompt_explains_a_claim_with_the_chosen_suit_names() -> None:
    state = claim_window_state()
    text = prompt(state.view(2), ctx(2))
    assert text is not None
    assert text.startswith(
        "Not your turn, but your arl of sitar may claim the 5 of sitar on the discard pile "
        "(with the sitar cards under it) into your hand. If you pass, the next player may "
        "take it"
    )
    assert "Your turn" not in text
    assert "arl of S2 may claim the 5 of S2" in (
        prompt(state.view(2), ctx(2, SuitNames.default())) or ""
    )
    assert prompt(state.view(1), ctx(1)) is None


def test_render_shows_the_table_and_only_your_hand() -> None:
    state = claim_window_state()
    out = io.StringIO()
    console = Console(file=out, width=140)
    console.print(render(state.view(1), OMYR))
    text = out.getvalue()
    assert "your hand" in text and "alak of S6" in text
    assert "arl of sitar" in text  # seat 3's tableau
    assert "5 of sitar" in text  # the top of the discard pile
    assert "1 of S6" not in text  # seat 3's hand stays hidden
    # whose decision it is, in the status line's words (the browser's status line)
    said = "Waiting for Seat 3 (out of turn: an arl may claim the 5 of sitar on the discard pile)"
    assert said in text
    assert "Seat 3 · arl of sitar" in text  # the seat's badge, as at the browser's table
    assert "Discards · 1: 5 of sitar" in text


def test_every_event_is_described() -> None:
    game = make_game("somachi", 4, gambling=True, chips=6)
    state = random_playout(game.new_state(seed=3), random.Random(3))
    kinds = set()
    feed = state.events_for(0)
    for event, line in zip(feed, narrate(feed, ctx(0, players=4)), strict=True):
        assert line, f"no text for {event['kind']}"
        kinds.add(event["kind"])
    assert {"game", "deal", "draw", "hand_end"} <= kinds


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
        seed=20,
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
    assert asked_out_of_turn
    assert "Not your turn" in text and "your arl of " in text
    # each choice is offered in words (as the browser's buttons), never in notation
    choices = re.findall(r"^ +\d+  (.+)$", text, flags=re.MULTILINE)
    assert len(choices) > 20
    for choice in choices:
        assert "/" not in choice and choice[0].isupper(), choice
    assert any(c.startswith(("Pass (", "Claim the ", "Collect the ")) for c in choices)
