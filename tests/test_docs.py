"""The documentation site builds without warnings (every nav entry exists, links resolve)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_builds_strict(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "protocol" / "index.html").exists()


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    head = readme[:1200]
    assert "make run" in head and "make test" in head
    makefile = (ROOT / "Makefile").read_text()
    assert "\nrun:" in makefile and "\ntest:" in makefile and "\nbench:" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()
