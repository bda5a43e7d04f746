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
from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.terminal import TerminalGame
from cardhall.terminal.yamiro import card_text, describe_event, hint, render

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
    assert "hand 1 of 8" in text and "seat 0 starts" in text
    assert "#1 8/S1" in text and "#3 alak/S1" in text and "#2 arlas/S2" in text
    assert "16 (8 x2)" in text  # seat 0's running value
    assert "Standing: arlas at play 2 wins: not cancelled" in text
    assert "Your hand:" in text
    for card in state.view(0)["hand"]:
        assert card in text
    # seat 1's hand is not shown to seat 0
    for c in state.hands[1]:
        assert str(RAILOG_DECK[c]) not in text
    state.apply(1, "play 2/S2")
    for _ in range(4):
        seat = state.to_move
        state.apply(seat, state.legal_actions(seat)[0])
    text = text_of(render(state.view(1), PLAIN))
    assert "Hand 1: seat 1 (you) won" in text
    assert "arlas at play 2 wins" in text
    assert "captured" in text and "(4 cards)" in text


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
    lines = [describe_event(e, PLAIN) for e in state.events_for(0)]
    assert any(line and line.startswith("you are dealt") for line in lines)
    assert "hand 1 begins; seat 0 plays first" in lines
    assert any(line and line.startswith("seat 0 played arlas/S1 and drew") for line in lines)
    assert "seat 1 played deiskatun/S1" in lines  # seat 0 does not see what seat 1 drew
    assert (
        "hand 1 won by seat 1: arlas at play 4 wins: the arlas at play 1 was cancelled "
        "(captures 11 points)"
    ) in lines


def test_solitaire_and_partner_lines() -> None:
    state = make_game("yamiro", 1).new_state(seed=2)
    state.apply(0, state.legal_actions(0)[0])
    lines = [describe_event(e, PLAIN) for e in state.events_for(0)]
    assert any(line and line.startswith("the deck turns up") for line in lines)
    assert any(line and line.startswith("you played") for line in lines)
    assert any(line and line.startswith("you drew") for line in lines)
    text = text_of(render(state.view(0), PLAIN))
    assert "the deck" in text and "you" in text
    partner = make_game("yamiro", 4).new_state(seed=2)
    text = text_of(render(partner.view(2), PLAIN))
    assert "team seats 0+2" in text and "seat 1 starts" in text


def test_suit_names_are_shown() -> None:
    omyr = SuitNames.get("omyr")
    assert card_text("alak/S2", omyr) == "alak/sitar"
    state = make_game("yamiro").new_state(seed=4)
    text = text_of(render(state.view(0), omyr))
    assert "/S" not in text.split("Your hand:")[1].splitlines()[0]


def test_hint_names_a_legal_card() -> None:
    state = make_game("yamiro").new_state(seed=6)
    advice = hint(state, 0)
    assert advice is not None and advice.startswith("the heuristic would play ")
    best = advice.split("would play ")[1].split(" ")[0]
    assert f"play {best}" in [str(a) for a in state.legal_actions(0)]
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
        assert "Game over." in text and "game over: captures" in text
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


def test_summary_names_the_deck_when_solitaire_is_lost() -> None:
    from cardhall.engine import Outcome
    from cardhall.terminal.yamiro import summary

    lost = Outcome((-12.0,), (), (-12.0,), {"form": "solitaire", "captures": [40, 52]})
    assert summary(lost, ["you (seat 0)"]) == (
        "Captures 40 against 52. The deck wins by 12 (margin -12)."
    )
    won = Outcome((30.0,), (0,), (30.0,), {"form": "solitaire", "captures": [50, 20]})
    assert "You win by 30" in summary(won, ["you (seat 0)"])
    two = Outcome((60.0, 20.0), (0,), (), {"form": "two-player", "captures": [60, 20]})
    assert summary(two, ["ann", "bot"]) == "Captures 60 against 20. ann wins by 40."
    draw = Outcome((20.0, 20.0), (), (), {"form": "two-player", "captures": [20, 20]})
    assert summary(draw, ["ann", "bot"]) == "Captures 20 against 20: a draw."
