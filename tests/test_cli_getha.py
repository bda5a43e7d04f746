"""``cardhall getha odds`` (the Monte Carlo odds of a hand at the showdown) and terminal
play of Getha with the showdown explained."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardhall.cards import SuitNames
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


def test_odds_errors_name_the_problem() -> None:
    result = runner.invoke(app, ["getha", "odds", "7/S9"])
    assert result.exit_code == 1 and "not a Railog card" in result.output
    result = runner.invoke(app, ["getha", "odds", STRONG, "--suits", "3 4"])
    assert result.exit_code == 1 and "suit" in result.output
    result = runner.invoke(app, ["getha", "odds", STRONG, "-n", "9"])
    assert result.exit_code == 1 and "opponents" in result.output


def test_terminal_play_explains_the_showdown(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = iter(["h"] + ["1"] * 14 + ["q"])
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
