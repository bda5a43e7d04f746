"""scripts/speed_ab.py: the fixed-work A/B between source trees (issue 18's measuring tool).

The workers run in their own processes on the pure build of this checkout (``src/``); the
instruction count goes through a stand-in ``valgrind`` on ``PATH`` that runs the worker and
reports a count made from the games played, so the plumbing is checked exactly without
Valgrind (the real one is only needed by people measuring).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import speed_ab  # noqa: E402

from cardhall.conformance import configs  # noqa: E402
from cardhall.registry import game_class  # noqa: E402


def test_play_is_the_same_games_every_time() -> None:
    first = speed_ab.play("somachi", [0, 5], 3)
    again = speed_ab.play("somachi", [0, 5], 3)
    assert [row["actions"] for row in first] == [row["actions"] for row in again]
    assert [row["index"] for row in first] == [0, 5]
    assert first[1]["players"] == 6 and first[1]["options"]["gambling"] is True
    assert all(row["actions"] > 3 for row in first)  # every game has actions
    assert speed_ab.play("somachi", [5], 0)[0]["actions"] == 0
    # more games, more actions: the seeds are 0, 1, 2, ...
    assert speed_ab.play("somachi", [5], 6)[0]["actions"] > first[1]["actions"]


def test_config_count_is_the_conformance_configurations() -> None:
    for name in ("somachi", "getha"):
        assert speed_ab.config_count(name) == len(list(configs(game_class(name))))


def test_time_ab_of_a_tree_against_itself() -> None:
    table = speed_ab.measure([str(ROOT), str(ROOT)], "abstrac", [0], 2, 2, "pure", False)
    assert len(table) == 2
    base, other = table
    assert base["ratio"] == 1.0 and base["per_action"] > 0
    assert other["actions"] == base["actions"] > 0
    assert other["ratio"] == pytest.approx(other["per_action"] / base["per_action"])
    text = speed_ab.render(table, instructions=False)
    assert "µs/action" in text and str(ROOT) in text


def _fake_valgrind(tmp_path: Path) -> dict[str, str]:
    """A ``valgrind`` that runs the command after its options and reports, as cachegrind
    does, 1,000 instructions per game played plus 500,000 for the start."""
    fake = tmp_path / "valgrind"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import subprocess, sys\n"
        "args = [a for a in sys.argv[1:] if not a.startswith('--')]\n"
        "games = int(sys.argv[sys.argv.index('--games') + 1])\n"
        "done = subprocess.run(sys.argv[sys.argv.index(args[0]):])\n"
        "sys.stderr.write(f'==7== I   refs:      {500_000 + 1_000 * games:,}\\n')\n"
        "sys.exit(done.returncode)\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return {"PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}


def test_instruction_ab_takes_away_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in _fake_valgrind(tmp_path).items():
        monkeypatch.setenv(key, value)
    table = speed_ab.measure([str(ROOT), str(ROOT)], "somachi", [5], 4, 1, "pure", True)
    base, other = table
    assert base["per_action"] == pytest.approx(4_000 / base["actions"])  # 500,000 taken away
    assert other["per_action"] == base["per_action"] and other["ratio"] == 1.0
    assert "instructions/action" in speed_ab.render(table, instructions=True)


def test_instruction_ab_without_valgrind_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to run there
    with pytest.raises(speed_ab.ABError, match="needs Valgrind"):
        speed_ab.measure([str(ROOT)], "somachi", [5], 1, 1, "pure", True)


def test_parse_instructions() -> None:
    assert speed_ab.parse_instructions("==1== I   refs:      540,706,230\n") == 540_706_230
    assert speed_ab.parse_instructions("I refs: 12\n") == 12
    with pytest.raises(speed_ab.ABError, match="no instruction count"):
        speed_ab.parse_instructions("valgrind: command not found")


def test_different_games_are_not_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []

    def worker(path: Path, command: list[str], count: bool) -> tuple[list[dict[str, Any]], int]:
        calls.append(path)
        row = {"index": 0, "players": 2, "options": {}, "actions": 10 + len(calls), "cpu_s": 1.0}
        return [row], 0

    monkeypatch.setattr(speed_ab, "run_worker", worker)
    with pytest.raises(speed_ab.ABError, match="not the same games"):
        speed_ab.measure([str(ROOT), str(ROOT)], "abstrac", [0], 1, 1, "pure", False)


def test_trees_and_builds_are_checked(tmp_path: Path) -> None:
    assert speed_ab.tree_path(str(ROOT), "pure") == ROOT / "src"
    with pytest.raises(speed_ab.ABError, match=r"no compiled build .*make install"):
        speed_ab.tree_path(str(tmp_path), "compiled")
    with pytest.raises(speed_ab.ABError, match="unknown build 'fast'"):
        speed_ab.tree_path(str(ROOT), "fast")


def test_only_names_configurations() -> None:
    assert speed_ab.parse_only(None, 3) == [0, 1, 2]
    assert speed_ab.parse_only("2,0", 3) == [2, 0]
    with pytest.raises(speed_ab.ABError, match="numbered 0 to 2"):
        speed_ab.parse_only("3", 3)
    with pytest.raises(speed_ab.ABError, match="not 'x'"):
        speed_ab.parse_only("x", 3)


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ab.json"
    small = ["--only", "0", "--games", "1", "--rounds", "1", "--json", str(out)]
    code = speed_ab.main([str(ROOT), "--build", "pure", "--game", "yamiro", *small])
    assert code == 0
    assert "µs/action" in capsys.readouterr().out
    assert '"tree"' in out.read_text()
    assert speed_ab.main([str(ROOT), "--build", "pure", "--only", "99"]) == 2
    assert "configurations are numbered 0 to" in capsys.readouterr().err
    assert speed_ab.main(["--games", "-1", str(ROOT)]) == 2
    assert speed_ab.main([]) == 2
    assert "name at least one tree" in capsys.readouterr().err
