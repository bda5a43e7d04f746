"""``cardhall bench``: the speed figures of every benchmark module."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cardhall.benchmarks import MODULES
from cardhall.registry import import_modules


def register(app: typer.Typer) -> None:
    @app.command()
    def bench(
        only: Annotated[
            list[str] | None, typer.Option(help="run only benchmarks whose module name has this")
        ] = None,
        quick: Annotated[bool, typer.Option(help="short runs (smoke test)")] = False,
        json_out: Annotated[
            Path | None, typer.Option("--json", help="also write JSON here")
        ] = None,
    ) -> None:
        """Run the benchmarks and print their figures (ratios measured in one run)."""
        from cardhall.benchmarks.anchors import machine_line
        from cardhall.cli import fail, version_line
        from cardhall.cli.progress import progress_bar

        # Wide tables stay whole when the output goes to a file or a pipe.
        console = Console(width=None if sys.stdout.isatty() else 160)
        console.print(version_line())
        results: dict[str, Any] = {"build": version_line(), "machine": machine_line()}
        wanted = tuple(m for m in MODULES if not only or any(o in m for o in only))
        if not wanted:
            raise fail(
                f"--only {' '.join(only or [])} matches no benchmark; known: "
                + ", ".join(m.rsplit(".", 1)[-1] for m in MODULES)
            )
        # The bar (on stderr, gone when done) counts benchmarks; the figures go to stdout.
        with progress_bar("benchmarks", len(wanted)) as bar:
            for mod in import_modules(wanted):
                module = mod.__name__
                console.rule(str(getattr(mod, "NAME", module)))
                results[module.rsplit(".", 1)[-1]] = mod.run(console, quick)
                bar.advance()
        if json_out is not None:
            json_out.write_text(json.dumps(results, indent=1, default=str) + "\n")
            console.print(f"figures written to {json_out}")
