"""Terminal play of Abstrac: a scripted human against bots, what the screen shows, hints,
and the saved record that replays."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

from rich.console import Console

from cardhall.cards import SuitNames
from cardhall.games.abstrac import AbstracState
from cardhall.narration import Context, describe, narrate
from cardhall.narration.abstrac import combo_parts
from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.solvers.abstrac import solve_layout
from cardhall.terminal import TerminalGame
from cardhall.terminal.abstrac import hint, render


def scripted(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    prompts: list[str] = []
    it: Iterator[str] = iter(answers)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(it, "1")  # then always the first legal action

    return ask, prompts


def console() -> Console:
    return Console(record=True, file=StringIO(), width=110)


def test_a_full_game_against_the_perfect_bot_saves_a_record(tmp_path: Path) -> None:
    game = make_game("abstrac")
    out = console()
    ask, prompts = scripted(["h", "first", "h", "take 3"])
    save = tmp_path / "game.json"
    final = TerminalGame(game, bot_level="perfect", seed=5, console=out, ask=ask, save=save).play()
    text = out.export_text()
    assert isinstance(final, AbstracState)
    assert final.is_over
    # what the screen shows
    assert "row (24 cards, top end first)" in text
    # the row's cards as players (and the narration) write them: "10♥", never "10H"
    row = text.split("top end first):")[1].split("\n")[1]
    assert "♥" in row or "♦" in row or "♠" in row or "♣" in row
    assert not re.search(r"\b(?:A|K|Q|J|10|9)[SHDC]\b", row), row
    assert "Perfect Petra deals; you choose to go first or second" in text
    assert "taken, by suit" in text
    assert "You choose to move first." in text  # the event line
    assert "Game over." in text
    # the hints: the first-or-second advice, then the value of each take
    first_mover_value = solve_layout(final.row).value
    assert f"first {first_mover_value:+d}, second {-first_mover_value:+d}" in text
    assert "take 1:" in text and "take 3:" in text and "(best)" in text
    assert any("h for a hint" in p for p in prompts)
    # the record replays to the same final state
    record = load_record(save)
    assert record.game == "abstrac"
    assert record.actions[0] == (0, "first")
    assert record.actions[1] == (0, "take 3")
    replayed = replay(record)
    assert replayed.digest() == final.digest()
    assert record.result is not None
    outcome = final.outcome()
    assert outcome is not None
    assert record.result["scores"] == list(outcome.scores)


def test_quitting_saves_the_game_so_far(tmp_path: Path) -> None:
    game = make_game("abstrac")
    ask, _ = scripted(["second", "q"])
    save = tmp_path / "partial.json"
    out = console()
    state = TerminalGame(
        game, bot_level="heuristic", seed=2, console=out, ask=ask, save=save
    ).play()
    assert not state.is_over
    record = load_record(save)
    assert record.actions[0] == (0, "second")
    assert record.actions[1][0] == 1  # the dealer moved first
    assert replay(record).digest() == state.digest()


def test_bad_answers_are_refused_and_asked_again(tmp_path: Path) -> None:
    game = make_game("abstrac")
    ask, prompts = scripted(["9", "take 2", "nonsense", "first", "take 4", "q"])
    out = console()
    state = TerminalGame(game, bot_level="random", seed=3, console=out, ask=ask).play()
    text = out.export_text()
    assert "choose 1..2" in text
    assert "illegal action 'take 2'" in text
    assert "unknown abstrac action" in text
    assert "illegal action 'take 4'" in text
    assert state.history[0][1].kind == "first"
    assert len(prompts) == 6


def test_render_shows_taken_cards_by_suit_and_combinations() -> None:
    game = make_game("abstrac")
    deck = "AS AH AD KD QD JD AC 9D KS QS JS 10S 9S KH QH JH 10H 9H 10D KC QC JC 10C 9C"
    state = game.new_state(deck=deck.split())
    state.apply(0, "first")
    for k, seat in ((3, 0), (1, 1), (3, 0), (1, 1)):
        state.apply(seat, f"take {k}")
    out = console()
    out.print(render(state.view(0), SuitNames.default()))
    text = out.export_text()
    # seat 0 took AS AH AD, then QD JD AC: four Aces; seat 1 took KD and 9D
    assert "♠ A  ♥ A  ♦ A Q J  ♣ A" in text
    assert "four aces (8 points)" in text
    assert "♦ K 9" in text
    assert "You " in text and "Seat 2" in text
    assert "row (16 cards, top end first)" in text


def test_combination_parts() -> None:
    assert combo_parts(["KH", "JH", "10H", "9H"]) == ["J♥ 10♥ 9♥ in hearts (3 points)"]
    assert combo_parts(["AS", "KS", "QS", "JS", "10S", "9S"]) == [
        "A♠ K♠ Q♠ J♠ 10♠ 9♠ in spades (12 points)"
    ]
    assert combo_parts(["10S", "10H", "10D", "10C", "9S"]) == ["four tens (8 points)"]
    assert combo_parts([]) == []


def test_event_lines() -> None:
    ctx = Context("abstrac", ("Ann", "Bob"))
    take = {"seq": 3, "kind": "take", "seat": 1, "cards": ["AS", "KS"]}
    assert describe(take, ctx) == "Bob takes 2 cards: A♠ and K♠."
    score = {
        "seq": 9,
        "kind": "score",
        "seat": None,
        "combos": [12, 25],
        "scores": [168, 250],
        "totals": [168, 250],
    }
    line = describe(score, ctx)
    assert line is not None and "Ann scores 168" in line and "Bob scores 250" in line
    assert describe({"seq": 0, "kind": "other", "seat": None}, ctx) is None


def test_the_score_says_why() -> None:
    """Each deal score is the combinations times the cards the other took, or misère."""
    game = make_game("abstrac")
    deck = "AS AH AD KD QD JD AC 9D KS QS JS 10S 9S KH QH JH 10H 9H 10D KC QC JC 10C 9C"
    state = game.new_state(deck=deck.split())
    state.apply(0, "first")
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, "take 3" if seat == 0 else "take 1")
    score = narrate(state.events_for(1), Context("abstrac", ("Ann", "Bob"), viewer=1))[-1]
    assert score is not None
    lines = score.split("\n")
    assert lines[0] == "Deal 1 is scored."
    assert lines[1].startswith("Ann has four aces (8 points), four queens (8 points)")
    assert lines[1].endswith("Q♣ J♣ 10♣ in clubs (3 points): 33 combination points.")
    assert lines[2] == "You have no combination: 0 combination points."
    assert lines[3] == (
        "Ann scores 0 (misère: you have no combination, so this deal score goes to you)."
    )
    assert lines[4] == "You score 198 (misère: no combination, so you take Ann's deal score)."
    assert lines[5] == "You win the game, 198 to 0."
    both = {"seq": 9, "kind": "score", "seat": None, "combos": [2, 3], "scores": [24, 36]}
    earlier = [
        {"seq": 0, "kind": "layout", "seat": None, "dealer": 1, "row": deck.split()},
        {"seq": 1, "kind": "take", "seat": 0, "cards": deck.split()[:12]},
        {"seq": 2, "kind": "take", "seat": 1, "cards": deck.split()[12:]},
    ]
    told = describe({**both, "totals": [24, 36]}, Context("abstrac", ("Ann", "Bob")), earlier)
    assert told is not None
    assert "Ann scores 24 (2 × the 12 cards Bob took)." in told
    assert "Bob scores 36 (3 × the 12 cards Ann took)." in told


def test_hint_only_for_the_seat_to_move() -> None:
    state = make_game("abstrac").new_state(seed=4)
    assert hint(state, 1) is None
    text = hint(state, 0)
    assert text is not None and ("go first" in text or "go second" in text or "either" in text)
    state.apply(0, "second")
    text = hint(state, 1)
    assert text is not None and text.count("take ") == 3
