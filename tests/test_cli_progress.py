"""The progress bar every long command shows: a total, the count done and the time left."""

from __future__ import annotations

import io

from rich.console import Console

from cardhall.cli.progress import progress_bar


def test_bar_shows_total_done_and_time_left() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    with progress_bar("games", 10, console=console) as bar:
        bar.advance(3)
        bar.progress.refresh()
        shown = out.getvalue()
    assert "games" in shown and "3/10" in shown
    assert "elapsed" in shown and "left" in shown  # the time so far and the estimate


def test_disabled_bar_prints_nothing() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with progress_bar("games", 10, enabled=False, console=console) as bar:
        bar.advance(10)
    assert out.getvalue() == ""
