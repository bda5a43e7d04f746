"""``cardhall simulate`` and ``cardhall tournament`` from the command line."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardhall.cli.analysis
from cardhall.cli import app

runner = CliRunner()


def test_simulate_json_has_the_promised_keys() -> None:
    result = runner.invoke(app, ["simulate", "yamiro", "--games", "20", "--seed", "9", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20 and data["seed"] == 9
    assert len(data["mean_scores"]) == 2
    # Yamiro's own figures, at top level too.
    assert data["mean_game_points"] == data["figures"]["mean_game_points"] > 0
    assert 0 < data["mean_hand_points"] <= 32
    again = runner.invoke(app, ["simulate", "yamiro", "--games", "20", "--seed", "9", "--json"])
    assert json.loads(again.stdout)["mean_scores"] == data["mean_scores"]


def test_simulate_with_bots_per_seat_and_a_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = runner.invoke(
        app,
        [
            "simulate",
            "abstrac",
            "-n",
            "6",
            "--bots",
            "random ismcts:iterations=30",
            "--jobs",
            "2",
            "--report",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["bots"] == ["random", "ismcts:iterations=30"]
    assert (out / "report.md").exists()
    assert summary["win_rates"][1] > summary["win_rates"][0]


def test_simulate_errors_exit_1() -> None:
    result = runner.invoke(app, ["simulate", "nosuchgame", "-n", "2"])
    assert result.exit_code == 1
    result = runner.invoke(app, ["simulate", "abstrac", "-n", "2", "--backend", "mpi"])
    assert result.exit_code == 1
    assert "backend" in result.stderr


def test_tournament_table_json_and_files(tmp_path: Path) -> None:
    save = tmp_path / "t" / "abstrac"
    result = runner.invoke(
        app,
        [
            "tournament",
            "abstrac",
            "-b",
            "random",
            "-b",
            "ismcts:iterations=40",
            "-n",
            "3",
            "--save",
            str(save),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "standings" in result.stdout and "Elo" in result.stdout
    rows = list(csv.DictReader((tmp_path / "t" / "abstrac.csv").open()))
    assert [(r["a"], r["b"], r["games"]) for r in rows] == [("random", "ismcts:iterations=40", "6")]
    data = json.loads((tmp_path / "t" / "abstrac.json").read_text())
    assert data["ratings"]["ismcts:iterations=40"] > data["ratings"]["random"]
    printed = runner.invoke(
        app,
        ["tournament", "abstrac", "-b", "random ismcts:iterations=40", "-n", "3", "--json"],
    )
    assert json.loads(printed.stdout)["pairs"] == data["pairs"]


def test_tournament_gauntlet_and_errors() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "yamiro",
            "-b",
            "heuristic random twin=random",
            "--gauntlet",
            "-n",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "gauntlet"
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [
        ("heuristic", "random"),
        ("heuristic", "twin"),
    ]
    bad = runner.invoke(app, ["tournament", "abstrac", "-b", "random", "-n", "1"])
    assert bad.exit_code == 1


class Recorder:
    """Stands in for the progress bar: what total it was given, how far it was advanced."""

    def __init__(self) -> None:
        self.total: int | None = None
        self.done = 0

    @contextmanager
    def bar(self, description: str, total: int, enabled: bool = True) -> Iterator[Recorder]:
        self.total = total
        yield self

    def advance(self, k: int = 1) -> None:
        self.done += k


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_tournament_bar_has_the_total_it_reaches(
    jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = Recorder()
    monkeypatch.setattr(cardhall.cli.analysis, "progress_bar", seen.bar)
    args = ["tournament", "getha", "-p", "3", "-b", "random heuristic twin=random", "-n", "2"]
    result = runner.invoke(app, [*args, "--jobs", jobs, "--json", "-o", "max_deals=1"])
    assert result.exit_code == 0, result.output
    games = sum(p["games"] for p in json.loads(result.stdout)["pairs"])
    # 3 pairings x 2 deals x 6 seatings of two bots at three seats
    assert seen.total == seen.done == games == 36


def test_simulate_bar_has_the_total_it_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = Recorder()
    monkeypatch.setattr(cardhall.cli.analysis, "progress_bar", seen.bar)
    result = runner.invoke(app, ["simulate", "abstrac", "-n", "7", "--json"])
    assert result.exit_code == 0, result.output
    assert seen.total == seen.done == 7


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "abstrac", "-n", "2", "--backend", "mpi"],
         "--backend must be one of local, ray; got 'mpi'"),
        (["simulate", "abstrac", "-n", "0"], "--games must be >= 1; got 0"),
        (["simulate", "abstrac", "-n", "1", "--jobs", "0"], "--jobs must be >= 1; got 0"),
        (["tournament", "abstrac", "-b", "random", "-n", "1"],
         "--bots must name at least two entrants; got random"),
        (["tournament", "abstrac", "-b", "random random", "-n", "1"],
         "--bots must name different entrants; got 'random' twice"),
        (["tournament", "abstrac", "-n", "0"], "--deals must be >= 1; got 0"),
        (["tournament", "abstrac", "-b", "random ismcts:reward=x", "-n", "1"],
         "ismcts reward must be one of win, score, mixed; got 'x'"),
        (["tournament", "abstrac", "-o", "target=0"], "option 'target' must be >= 1, got 0"),
    ],
)  # fmt: skip
def test_analysis_errors_name_option_value_and_what_is_allowed(
    args: list[str], message: str
) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.stderr.split())
    assert "[" not in result.stderr  # no Python list
