"""``cardhall simulate`` and ``cardhall tournament`` from the command line."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

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
