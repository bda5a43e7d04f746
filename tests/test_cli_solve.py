"""``cardhall solve abstrac``: the pinned JSON interface, the table, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardhall.cards import FRENCH_DECK
from cardhall.cli import app
from cardhall.registry import make_game
from cardhall.solvers.abstrac import exhaustive_value, parse_layout, solve_layout

runner = CliRunner()

ORDERED = " ".join(str(c) for c in FRENCH_DECK)
SHEET = "AH QH QS KH AC AD 9H KS 9C 9D KC 9S JD JS 10H QC AS 10C JC 10S QD KD 10D JH"


def test_json_for_one_layout() -> None:
    result = runner.invoke(app, ["solve", "abstrac", "--layout", SHEET, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"value", "takes", "nondealer", "pv"}
    solution = solve_layout(_cards(SHEET))
    assert data == solution.to_json()
    assert data["value"] == max(data["takes"].values())
    assert sorted(data["takes"]) == ["1", "2", "3"]
    assert sum(data["pv"]) == 24 and all(k in (1, 2, 3) for k in data["pv"])
    assert data["nondealer"] in ("first", "second", "either")


def _cards(text: str) -> list[int]:
    return list(parse_layout(text, exact=None))


def test_ordered_layout_is_even() -> None:
    # Both always taking 3 gives each 36 combos and 12 cards; nobody can do better.
    result = runner.invoke(app, ["solve", "abstrac", "--layout", ORDERED, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["value"] == 0
    assert data["nondealer"] == "either"
    assert data["takes"]["3"] == 0


def test_many_layouts_one_line_each(tmp_path: Path) -> None:
    reversed_layout = " ".join(reversed(SHEET.split()))
    path = tmp_path / "layouts.txt"
    path.write_text(f"{SHEET}\n\n{ORDERED}\n{reversed_layout}\n")
    result = runner.invoke(app, ["solve", "abstrac", "--layouts", str(path), "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    values = [json.loads(line)["value"] for line in lines]
    assert values[1] == 0
    assert values[2] == solve_layout(_cards(reversed_layout)).value


def test_table_output() -> None:
    result = runner.invoke(app, ["solve", "abstrac", "--layout", SHEET])
    assert result.exit_code == 0
    assert "take 3" in result.stdout
    assert "principal variation" in result.stdout
    assert "nondealer should" in result.stdout


def test_value_is_the_exhaustive_value_on_a_short_row() -> None:
    # Short rows are not accepted by the command (a deal has 24 cards) ...
    result = runner.invoke(app, ["solve", "abstrac", "--layout", "AS KS QS AH AD AC", "--json"])
    assert result.exit_code != 0
    # ... but the function behind it solves them: cross-check with the plain minimax.
    assert solve_layout("AS KS QS AH AD AC").value == exhaustive_value(_cards("AS KS QS AH AD AC"))


def test_malformed_layouts_fail_clearly(tmp_path: Path) -> None:
    cases = {
        "AS KS": "24 cards, got 2",
        SHEET.replace("AH", "AS", 1): "twice",
        SHEET.replace("QH", "1H", 1): "card 2",
        SHEET.replace("QH", "QX", 1): "not an Abstrac card",
    }
    for layout, message in cases.items():
        result = runner.invoke(app, ["solve", "abstrac", "--layout", layout, "--json"])
        assert result.exit_code != 0
        assert message in " ".join(result.output.split())
        assert not result.stdout.strip().startswith("{")
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{SHEET}\n{ORDERED} AS\n")
    result = runner.invoke(app, ["solve", "abstrac", "--layouts", str(bad), "--json"])
    assert result.exit_code != 0
    assert "line 2" in result.output


def test_no_layout_deals_one_by_seed() -> None:
    result = runner.invoke(app, ["solve", "abstrac", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # The layout `cardhall play abstrac --seed 3` deals, and its exact solution.
    row = make_game("abstrac").new_state(seed=3).view(None)["row"]
    assert data["layout"] == " ".join(row) and data["seed"] == 3
    assert data["value"] == solve_layout(" ".join(row)).value
    again = runner.invoke(app, ["solve", "abstrac", "--seed", "3", "--json"])
    assert json.loads(again.output) == data
    other = json.loads(runner.invoke(app, ["solve", "abstrac", "--seed", "4", "--json"]).output)
    assert other["layout"] != data["layout"]
    # Without a seed a random one is used, and printed so the deal can be repeated.
    shown = runner.invoke(app, ["solve", "abstrac"])
    assert shown.exit_code == 0, shown.output
    seed = int(shown.output.split("dealt with seed ", 1)[1].split()[0])
    layout = make_game("abstrac").new_state(seed=seed).view(None)["row"]
    assert f"Abstrac: {' '.join(layout[:5])}" in shown.output
    assert "principal variation" in shown.output


def test_conflicting_or_bad_layout_sources(tmp_path: Path) -> None:
    both = runner.invoke(app, ["solve", "abstrac", "--layout", "AS", "--layouts", "x.txt"])
    assert both.exit_code == 1 and "--layout TEXT or --layouts FILE, not both" in both.output
    seeded = runner.invoke(app, ["solve", "abstrac", "--layout", "AS", "--seed", "2"])
    assert seeded.exit_code == 1 and "--seed deals a layout" in seeded.output
    empty = tmp_path / "empty.txt"
    empty.write_text("\n# nothing\n")
    result = runner.invoke(app, ["solve", "abstrac", "--layouts", str(empty)])
    assert result.exit_code != 0
    result = runner.invoke(app, ["solve", "abstrac", "--layouts", str(tmp_path / "none.txt")])
    assert result.exit_code != 0
    assert "cannot read" in result.output
