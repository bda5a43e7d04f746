"""``cardhall getha odds``: the Monte Carlo odds of a hand at the showdown."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardhall.cli import app

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
