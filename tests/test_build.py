"""Which build runs (``cardhall.build``): the list of compiled modules and how the
command names the build."""

from __future__ import annotations

import importlib

from typer.testing import CliRunner

from cardhall import __version__
from cardhall.build import COMPILED_MODULES, build_name, compiled_modules
from cardhall.cli import app


def test_every_listed_module_exists() -> None:
    for module in COMPILED_MODULES:
        assert importlib.import_module(module).__name__ == module


def test_build_name_matches_the_modules_that_load_compiled() -> None:
    k = len(compiled_modules())
    expected = {0: "pure", len(COMPILED_MODULES): "compiled"}.get(k, f"mixed ({k} of")
    assert build_name().startswith(expected)


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"cardhall {__version__} ({build_name()} build)"
