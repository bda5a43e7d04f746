"""The test suite's own safety net: a hang is a named failure, not a stuck run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def test_the_suite_bounds_every_test(pytestconfig: pytest.Config) -> None:
    """pyproject.toml gives every test a time limit (pytest-timeout), far above any test's
    own time: a hang fails by name and the rest of the suite still runs."""
    assert pytestconfig.pluginmanager.hasplugin("timeout")
    assert 60 <= float(pytestconfig.getini("timeout")) <= 1800


def test_a_hanging_test_fails_by_name_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(
        "import threading\n\n"
        "def test_hangs():\n"
        "    threading.Event().wait()  # never set\n\n"
        "def test_after():\n"
        "    assert True\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--timeout", "1", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Timeout" in run.stdout
    assert "FAILED test_hang.py::test_hangs" in run.stdout
    assert "1 failed, 1 passed" in run.stdout
