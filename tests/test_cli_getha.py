"""``cardhall getha odds`` (the Monte Carlo odds of a hand at the showdown) and terminal
play of Getha with the showdown explained."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardhall.cards import RailogCard, SuitNames
from cardhall.cli import app
from cardhall.conformance import random_playout
from cardhall.narration import Context, narrate
from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.terminal import TerminalGame

runner = CliRunner()
STRONG = "alak/S1 alak/S2 8/S1 8/S2 7/S1 deiskatun/S1 7/S2 6/S2"
WEAK = "1/S1 2/S2 1/S3 2/S4 1/S5 2/S6 1/S7 2/S8"


def odds(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["getha", "odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_odds_json_reports_sample_size_interval_and_suits() -> None:
    data = odds(STRONG, "-n", "1", "--samples", "400", "--seed", "3")
    assert data["samples"] == 400 and data["opponents"] == 1
    assert data["suits"] == [1, 2]
    lo, hi = data["interval95"]  # type: ignore[misc]
    assert 0 <= lo <= data["chance"] <= hi <= 1  # type: ignore[operator]
    assert data["wins"] == round(data["chance"] * 400)  # type: ignore[operator]
    weak = odds(WEAK, "-n", "1", "--samples", "400", "--seed", "3")
    assert weak["chance"] < data["chance"]  # type: ignore[operator]
    # same seed, same answer; chosen suits are used
    assert odds(STRONG, "-n", "1", "--samples", "400", "--seed", "3")["wins"] == data["wins"]
    assert odds(STRONG, "--suits", "S1 S2", "--samples", "50")["suits"] == [1, 2]


def test_odds_table_with_progress_bar() -> None:
    result = runner.invoke(app, ["getha", "odds", STRONG, "-n", "2", "--samples", "300"])
    assert result.exit_code == 0, result.output
    assert "95% interval" in result.output and "300" in result.output


# An arl of S7 beside two alak suits: the arl claims a whole suit at the showdown, so
# playing it beats the two "strongest" suits by far (S1+S2 wins about 5%, S1+S7 about 21%).
ARL_HAND = "alak/S1 8/S1 7/S1 alak/S2 6/S2 5/S2 3/S5 arl/S7"


def test_odds_default_is_the_best_choice_and_every_choice_is_listed() -> None:
    data = odds(ARL_HAND, "-n", "3", "--samples", "600", "--seed", "1")
    choices = data["choices"]
    assert isinstance(choices, list)
    # Every pair of the hand's four suits, best first.
    assert sorted(tuple(c["suits"]) for c in choices) == [
        (1, 2),
        (1, 5),
        (1, 7),
        (2, 5),
        (2, 7),
        (5, 7),
    ]
    assert [c["chance"] for c in choices] == sorted((c["chance"] for c in choices), reverse=True)
    assert data["suits"] == data["best"] == choices[0]["suits"]
    assert data["chance"] == max(c["chance"] for c in choices)
    assert 7 in data["suits"]  # the arl's suit, not the two alak suits
    by_suits = {tuple(c["suits"]): c["chance"] for c in choices}
    assert by_suits[tuple(data["suits"])] > 2 * by_suits[(1, 2)]
    # --suits still picks a choice: its figures at top level, the best named beside them.
    chosen = odds(ARL_HAND, "-n", "3", "--samples", "600", "--seed", "1", "--suits", "S1 S2")
    assert chosen["suits"] == [1, 2] and chosen["best"] == data["best"]
    assert chosen["chance"] == by_suits[(1, 2)]  # the same seeded deals for every choice


def test_every_choice_advances_the_bar_to_its_total() -> None:
    from cardhall.cli.getha import every_choice, suit_choices

    hand = [int(c) for c in RailogCard.parse_many(ARL_HAND)]
    choices = suit_choices([1, 2, 5, 7])
    steps: list[int] = []
    estimates = every_choice(hand, 2, choices, 250, 0, [], {}, steps.append)
    assert sum(steps) == len(choices) * 250 == 1500 and all(k > 0 for k in steps)
    assert [e.samples for e in estimates] == [250] * 6


def test_odds_table_lists_every_choice() -> None:
    result = runner.invoke(app, ["getha", "odds", ARL_HAND, "--samples", "200"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "every choice" in out and "(the best)" in out
    for pair in ("S1+S2", "S1+S5", "S1+S7", "S2+S5", "S2+S7", "S5+S7"):
        assert pair in out
    assert "200 per choice, 1,200 in all" in out


def test_odds_errors_name_option_value_and_what_is_allowed() -> None:
    cases = [
        (["7/S9"], "not a Railog card: '7/S9'"),
        ([STRONG, "--suits", "3 4"], "--suits must name 2 suits of the hand (S1, S2); got '3 4'"),
        ([STRONG, "--suits", "x"], "--suits must name 2 suits of the hand (S1, S2), such as"),
        ([STRONG, "-n", "9"], "--opponents must be 1 to 7; got 9"),
        ([STRONG, "--samples", "0"], "--samples must be at least 1; got 0"),
        ([STRONG, "--matchup-order", "x"], "--matchup-order must be ranked or seat; got 'x'"),
        (["1/S1 1/S1"], "the hand holds a card twice"),
        (["1/S1 2/S1", "--suits", "1 2"], "--suits must name 1 suit of the hand (S1); got '1 2'"),
    ]
    for args, message in cases:
        result = runner.invoke(app, ["getha", "odds", *args])
        assert result.exit_code == 1, (args, result.output)
        assert message in " ".join(result.output.split()), (message, result.output)
        assert "invalid literal" not in result.output and "[" not in result.output


def test_terminal_play_explains_the_showdown(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = iter(["h", "bringin 1"] + ["1"] * 14 + ["q"])
    tg = TerminalGame(
        make_game("getha", 3),
        bot_level="random",
        seed=3,
        console=Console(file=out, width=120),
        ask=lambda prompt: next(answers),
        save=tmp_path / "getha.json",
    )
    tg.play()
    text = out.getvalue()
    assert "to win the showdown" in text  # the hint
    assert "your hand: 1:" in text
    assert "Showdown: the played cards are turned up." in text
    assert "Order of battle: " in text or "shows an arlas" in text or "show an arlas" in text
    assert " wins the pot: " in text or "win the pot: " in text or "Nobody wins the pot" in text
    assert replay(load_record(tmp_path / "getha.json")).digest() == tg.state.digest()


def test_event_descriptions_cover_a_whole_game() -> None:
    state = make_game("getha", 4, chips=10, max_deals=3).new_state(seed=8)
    random_playout(state, random.Random(8))
    names = SuitNames.default()
    for seat in (None, 0):
        ctx = Context("getha", ("Ann", "Bob", "Cy", "Dee"), suits=names, viewer=seat)
        feed = state.events_for(seat)
        for event, line in zip(feed, narrate(feed, ctx), strict=True):
            assert line, event
            if event["kind"] == "pot":
                name = "The pot" if event["pot"] == 0 else f"Side pot {event['pot']}"
                assert line.startswith(f"{name}: {event['amount']} chips")
    kinds = {e["kind"] for e in state.events_for(0)}
    assert {"deal", "bringin", "pot", "game_over"} <= kinds
