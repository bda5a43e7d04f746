"""Yamiro at the terminal: the renderer, the event lines, hints, and whole games in every
form through ``cardhall play``."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardhall.cards import RAILOG_DECK, RailogCard, SuitNames
from cardhall.cli import app
from cardhall.games.yamiro import YamiroState
from cardhall.narration import Context, narrate, score_table
from cardhall.narration.common import Words
from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.terminal import TerminalGame
from cardhall.terminal.yamiro import hint, render

runner = CliRunner()
PLAIN = SuitNames.default()


def text_of(renderable: object) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def stacked(p0: list[str], p1: list[str]) -> YamiroState:
    prefix: list[str] = []
    for a, b in zip(p0, p1, strict=True):
        prefix += [a, b]
    used = {RailogCard.parse(c) for c in prefix}
    deck = prefix + [str(c) for c in RAILOG_DECK if c not in used]
    state = make_game("yamiro").new_state(deck=deck)
    assert isinstance(state, YamiroState)
    return state


def test_render_shows_hand_cards_played_running_values_and_captures() -> None:
    state = stacked(
        ["8/S1", "alak/S1", "3/S1", "1/S1"], ["2/S2", "arlas/S2", "deiskatun/S2", "4/S2"]
    )
    state.apply(0, "play 8/S1")
    state.apply(1, "play arlas/S2")
    state.apply(0, "play alak/S1")
    text = text_of(render(state.view(0), PLAIN))
    assert "Yamiro · Hand 1 of 8 · you start" in text and "two-player" not in text
    assert "#1 8 of S1" in text and "#3 alak of S1" in text and "#2 arlas of S2" in text
    assert "16 (8 ×2)" in text  # seat 1's running value
    assert (
        "Standing: Seat 2's arlas of S2 (play 2) stands: it wins unless your side cancels it "
        "with a deiskatun."
    ) in text
    assert "Your hand:" in text
    for card in state.view(0)["hand"]:
        assert card.replace("/", " of ") in text
    # seat 1's hand is not shown to seat 0
    for c in state.hands[1]:
        assert RAILOG_DECK[c].display() not in text
    state.apply(1, "play 2/S2")
    for _ in range(4):
        seat = state.to_move
        state.apply(seat, state.legal_actions(seat)[0])
    text = text_of(render(state.view(1), PLAIN))
    assert "Hand 1: you win, capturing 19 points (4 cards)." in text


def test_event_lines_explain_each_hand() -> None:
    state = stacked(
        ["arlas/S1", "1/S1", "1/S2", "1/S3"], ["deiskatun/S1", "arlas/S2", "2/S4", "1/S5"]
    )
    for a, b in (
        ("arlas/S1", "deiskatun/S1"),
        ("1/S1", "arlas/S2"),
        ("1/S2", "2/S4"),
        ("1/S3", "1/S5"),
    ):
        state.apply(0, f"play {a}")
        state.apply(1, f"play {b}")
    lines = narrate(state.events_for(0), Context("yamiro", ("Ann", "Bob"), viewer=0))
    assert any(line and line.startswith("You are dealt") for line in lines)
    assert "Hand 1 of 8: you play first." in lines
    assert any(
        line
        and line.startswith("You play the arlas of S1 and draw the ")
        and line.endswith(": it stands, and you win the hand unless it is cancelled.")
        for line in lines
    )
    # seat 1 (Bob) does not show seat 0 what he drew
    assert (
        "Bob plays the deiskatun of S1 and draws a card: it cancels your arlas of S1 (play 1)."
        in lines
    )
    assert (
        "Hand 1: Bob wins; your arlas of S1 (play 1) was cancelled by Bob's deiskatun of S1 "
        "(play 2); Bob's arlas of S2 (play 4) stands.\n"
        "Bob captures 4 cards worth 11 points: arlas of S1, 1 of S1, 1 of S2 and 1 of S3."
    ) in lines


def test_solitaire_and_partner_lines() -> None:
    state = make_game("yamiro", 1).new_state(seed=2)
    state.apply(0, state.legal_actions(0)[0])
    lines = narrate(state.events_for(0), Context("yamiro", ("Ann",), viewer=0))
    assert any(line and line.startswith("The deck turns up") for line in lines)
    assert any(line and line.startswith("You play") for line in lines)
    assert any(line and line.startswith("You draw") for line in lines)
    text = text_of(render(state.view(0), PLAIN))
    assert "The deck" in text and "You" in text
    partner = make_game("yamiro", 4).new_state(seed=2)
    text = text_of(render(partner.view(2), PLAIN))
    assert "You and Seat 1" in text and "Seat 2 and Seat 4" in text
    assert "Seat 2 starts" in text
    partner.apply(1, partner.legal_actions(1)[0])
    text = text_of(render(partner.view(2), PLAIN))
    assert "(Seat 2)" in text  # who of the team played the card


def test_suit_names_are_shown() -> None:
    omyr = SuitNames.get("omyr")
    assert Words(Context("yamiro", ("Ann", "Bob"), suits=omyr)).card("alak/S2") == "alak of sitar"
    state = make_game("yamiro").new_state(seed=4)
    text = text_of(render(state.view(0), omyr))
    # (omyr names suits 1-3; its suits 4-8 keep their plain names)
    hand = text.split("Your hand:")[1].splitlines()[0]
    for suit in (1, 2, 3):
        assert f" of S{suit}" not in hand
    assert any(f" of {omyr.name(s)}" in hand for s in range(1, 9))


def test_hint_names_a_legal_card() -> None:
    state = make_game("yamiro").new_state(seed=6)
    advice = hint(state, 0)
    assert advice is not None and advice.startswith("the heuristic would play the ")
    best = advice.split("would play the ")[1].split(" (")[0]  # "5 of S3", never "5/S3"
    assert "/" not in advice
    legal = [str(a).removeprefix("play ").replace("/", " of ") for a in state.legal_actions(0)]
    assert best in legal
    assert hint(state, 1) is None  # not seat 1's turn


def test_terminal_games_in_every_form(tmp_path: Path) -> None:
    for players in (2, 4, 1):
        out = io.StringIO()
        save = tmp_path / f"y{players}.json"
        tg = TerminalGame(
            make_game("yamiro", players),
            bot_level="heuristic" if players == 2 else "random",
            seed=9,
            console=Console(file=out, width=120),
            ask=lambda prompt: "1",
            save=save,
        )
        state = tg.play()
        assert state.is_over
        text = out.getvalue()
        assert "Game over." in text and "Game over. Captures" in text
        assert replay(load_record(save)).digest() == state.digest()


def test_cardhall_play_yamiro_partner_and_solitaire(tmp_path: Path) -> None:
    for flag, players in (("--partner", 4), ("--solitaire", 1)):
        save = tmp_path / f"cli{players}.json"
        args = ["play", "yamiro", flag, "--bot", "random", "--seed", "3", "--save", str(save)]
        result = runner.invoke(app, args, input="1\n" * 80)
        assert result.exit_code == 0, result.output
        assert "Game over." in result.output
        record = load_record(save)
        assert record.players == players and record.result is not None


def test_the_score_table_names_the_deck_when_solitaire_is_lost() -> None:
    for seed in range(40):
        state = make_game("yamiro", 1).new_state(seed=seed)
        while not state.is_over:
            state.apply(0, state.legal_actions(0)[0])
        outcome = state.outcome()
        assert outcome is not None
        if outcome.scores[0] < 0:
            break
    player, deck = outcome.details["captures"]
    table = score_table(state.events_for(0), Context("yamiro", ("Ann",), viewer=0))
    assert table is not None
    assert table.columns == ("Hand", "Won by", "You", "The deck")
    assert table.rows[-1] == ("Captures", "", str(player), str(deck))
    assert table.result == (
        f"Captures: you {player}, the deck {deck}. The deck wins by {deck - player}."
    )
    two = make_game("yamiro").new_state(seed=1)
    while not two.is_over:
        seat = min(two.actors())
        two.apply(seat, two.legal_actions(seat)[0])
    a, b = two.outcome().details["captures"]  # type: ignore[union-attr]
    table = score_table(two.events_for(None), Context("yamiro", ("Ann", "Bob")))
    assert table is not None and len(table.rows) == 9
    winner = "Ann" if a > b else "Bob"
    assert table.result == f"Captures: Ann {a}, Bob {b}. {winner} wins by {abs(a - b)}."
