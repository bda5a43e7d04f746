"""The one progress bar of every long command: a total, the count done and the time left.

>>> with progress_bar("games", 3, enabled=False) as bar:
...     bar.advance(3)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["Bar", "progress_bar"]


@dataclass
class Bar:
    """A running bar: ``advance(k)`` counts ``k`` more units done."""

    progress: Progress
    task: TaskID

    def advance(self, k: int = 1) -> None:
        self.progress.advance(self.task, k)


def columns() -> tuple[ProgressColumn, ...]:
    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )


@contextmanager
def progress_bar(
    description: str, total: int, enabled: bool = True, console: Console | None = None
) -> Iterator[Bar]:
    """A bar on stderr counting to ``total`` with the elapsed time and an estimate of the
    time left; it disappears when done. ``enabled=False`` (``--json``) shows nothing."""
    with Progress(
        *columns(),
        console=console or Console(stderr=True),
        disable=not enabled,
        transient=True,
    ) as progress:
        yield Bar(progress, progress.add_task(description, total=total))
