"""Which build runs (``cardhall.build``): the list of compiled modules and how the
command names the build."""

from __future__ import annotations

import fnmatch
import importlib
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

import cardhall
import cardhall.build
from cardhall import __version__
from cardhall.build import (
    COMPILED_MODULES,
    NATIVE_MODULES,
    build_name,
    compiled_modules,
    seeded_digests,
)
from cardhall.cli import app


def test_every_listed_module_exists() -> None:
    for module in COMPILED_MODULES:
        assert importlib.import_module(module).__name__ == module
    package = os.path.dirname(cardhall.__file__)
    for module in NATIVE_MODULES:  # its C source, in either tree; setup.py builds it
        assert module.startswith("cardhall.") and "." not in module[len("cardhall.") :]
        assert os.path.isfile(os.path.join(package, module.split(".")[1] + ".c")), module


def test_a_source_distribution_carries_every_native_modules_c_source() -> None:
    """MANIFEST.in includes each NATIVE_MODULES extension's C file and stub (setup.py
    lists no extension for an sdist, so nothing else would put them there)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "MANIFEST.in"), encoding="utf-8") as f:
        patterns = [p for line in f if line.startswith("include ") for p in line.split()[1:]]
    for module in NATIVE_MODULES:
        for ext in (".c", ".pyi"):
            path = "src/" + module.replace(".", "/") + ext
            assert os.path.isfile(os.path.join(root, path)), path
            assert any(fnmatch.fnmatchcase(path, p) for p in patterns), (path, patterns)


def test_build_name_matches_the_modules_that_load_compiled() -> None:
    k = len(compiled_modules())
    n = len(COMPILED_MODULES) + len(NATIVE_MODULES)
    expected = {0: "pure", n: "compiled"}.get(k, f"mixed ({k} of {n} compiled)")
    assert build_name() == expected


def test_a_build_without_its_c_extension_is_not_called_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every mypyc module compiled but the C extension missing: "mixed", not "compiled";
    only the extension: "mixed" too."""
    n = len(COMPILED_MODULES) + len(NATIVE_MODULES)
    monkeypatch.setattr(cardhall.build, "_is_extension", lambda m: m in COMPILED_MODULES)
    assert build_name() == f"mixed ({len(COMPILED_MODULES)} of {n} compiled)"
    monkeypatch.setattr(cardhall.build, "_is_extension", lambda m: m in NATIVE_MODULES)
    assert build_name() == f"mixed ({len(NATIVE_MODULES)} of {n} compiled)"
    monkeypatch.setattr(cardhall.build, "_is_extension", lambda m: True)
    assert build_name() == "compiled"


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"cardhall {__version__} ({build_name()} build)"


# --------------------------------------------------------------------------- the two builds
#
# `make test` builds the compiled tree (scripts/build-compiled) and runs the whole suite on
# the pure package with CARDHALL_COMPILED_TREE naming that tree, then the conformance suite
# and this file on the compiled tree with CARDHALL_EXPECT_BUILD=compiled.

COMPILED_TREE = os.environ.get("CARDHALL_COMPILED_TREE")
EXPECTED = os.environ.get("CARDHALL_EXPECT_BUILD")


@pytest.mark.skipif(EXPECTED is None, reason="run by make test on each build it names")
def test_the_build_make_test_asked_for_is_the_one_that_runs() -> None:
    assert build_name() == EXPECTED
    if EXPECTED == "compiled":
        # A compiled module really is one (not the .py beside it).
        import cardhall.engine

        assert cardhall.engine.__file__.endswith(".so")


def _json_from(tree: str | None, code: str) -> dict[str, Any]:
    """What ``code`` prints as JSON, run by a fresh interpreter whose path starts with
    ``tree`` (None: this process's own package)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = tree + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def _digests_in(tree: str | None) -> dict[str, Any]:
    """seeded_digests() (every conformance configuration, one seed each) and the build's
    name, computed in ``tree`` (see :func:`_json_from`)."""
    return _json_from(
        tree,
        "import json; from cardhall.build import build_name, seeded_digests; "
        "print(json.dumps({'build': build_name(), 'digests': seeded_digests()}))",
    )


@pytest.mark.skipif(
    COMPILED_TREE is None, reason="needs the compiled tree: make test names it (make compiled)"
)
def test_compiled_and_pure_builds_play_identical_games() -> None:
    """Every view, event, zone and bot decision of seeded games, step by step, is the same
    in both builds (a card silently turned into an int would show in views and reprs),
    in every conformance configuration of every game (each with a seed of its own)."""
    from cardhall.conformance import configs
    from cardhall.registry import game_class, game_names

    assert COMPILED_TREE is not None
    compiled = _digests_in(COMPILED_TREE)
    assert compiled["build"] == "compiled"
    pure = seeded_digests()
    assert build_name() == "pure"
    assert compiled["digests"].keys() == pure.keys()
    every = [
        f"{name}/{players}p/{json.dumps(options, sort_keys=True)}"
        for name in game_names()
        for players, options in configs(game_class(name))
    ]
    assert [key.rsplit("/seed", 1)[0] for key in pure] == every
    assert [int(key.rsplit("/seed", 1)[1]) for key in pure] == list(range(len(every)))
    for key, steps in pure.items():
        other = compiled["digests"][key]
        diverged = next(
            (i for i, (a, b) in enumerate(zip(steps, other, strict=False)) if a != b), None
        )
        assert diverged is None and len(steps) == len(other), (
            f"{key}: the builds diverge at step {diverged} "
            f"(pure {len(steps)} steps, compiled {len(other)})"
        )


def test_a_tree_whose_c_extension_does_not_load_shuffles_in_python_alike() -> None:
    """The compiled tree (``make test`` names it, or runs this on it) with
    cardhall._native_shuffle made unimportable: named "mixed", seeded_shuffle runs its
    Python code and gives random.Random(seed).shuffle's order. (Without a compiled tree at
    hand: the pure package, "pure", alike.)"""
    code = (
        "import sys; sys.modules['cardhall._native_shuffle'] = None\n"
        "import json, random\n"
        "from cardhall import shuffle\n"
        "from cardhall.build import build_name, compiled_modules\n"
        "same = True\n"
        "for seed in ('0:0', 'é:3', '\\0x', 'x' * 3000):\n"
        "    for n in (0, 2, 96, 97):\n"
        "        a, b = list(range(n)), list(range(n))\n"
        "        shuffle.seeded_shuffle(seed, a); random.Random(seed).shuffle(b)\n"
        "        same = same and a == b\n"
        "print(json.dumps({'build': build_name(), 'modules': compiled_modules(),\n"
        "    'native': shuffle._NATIVE_SHUFFLE is not None, 'same': same}))\n"
    )
    result = _json_from(COMPILED_TREE, code)
    n = len(COMPILED_MODULES) + len(NATIVE_MODULES)
    if EXPECTED is not None:  # make test: the compiled tree, in either of its runs
        assert result["modules"] == list(COMPILED_MODULES)
    k = len(result["modules"])
    assert result["build"] == ("pure" if k == 0 else f"mixed ({k} of {n} compiled)")
    assert result["native"] is False and result["same"] is True


def test_digests_see_a_card_turned_into_an_int() -> None:
    """The digest catches what the cross-build test is for: the same game with one card
    replaced by its plain int index digests differently."""
    from cardhall.registry import make_game

    state = make_game("somachi").new_state(seed=1)
    before = state.digest() + repr(state.zones())
    hand = state.hands[0]
    hand[0] = int(hand[0])
    assert state.digest() + repr(state.zones()) != before


def test_python_subclasses_of_the_engine_classes_work_in_either_build() -> None:
    """Games, adapters and tests extend Game, State and Chance from plain Python (a new game
    registered by a plug-in, a counting chance): the compiled build keeps those classes
    open to them, and an explicit chance waits for its order in either build."""
    from cardhall.engine import Chance
    from cardhall.registry import make_game

    class CountingChance(Chance):
        shuffles = 0

        def next_order(self, cards: Any) -> list[Any] | None:
            CountingChance.shuffles += 1
            return super().next_order(cards)

    game = make_game("abstrac")
    state = game._initial_state(CountingChance(3))
    assert CountingChance.shuffles == 1
    assert state.view(0)["row"] == game.new_state(seed=3).view(0)["row"]
    order = list(range(23, -1, -1))
    explicit = game.new_state(explicit=True)
    assert explicit.pending_shuffle() == tuple(range(24))
    explicit.apply_shuffle(order)
    assert explicit.pending_shuffle() is None
    assert [int(c) for c in explicit.chance.used[0]] == order


def test_states_pickle_and_copy_mid_game_in_either_build() -> None:
    """Vector envs and search copy states: pickling (which makes an instance without
    arguments, then fills it in) and clone() give the same game in both builds."""
    import copy
    import pickle
    import random

    from cardhall.conformance import random_playout
    from cardhall.registry import game_class, game_names, make_game

    for name in game_names():
        players = game_class(name).player_counts[0]
        state = make_game(name, players).new_state(seed=4)
        random_playout(state, random.Random(4), steps=6)  # six moves in
        for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
            assert twin.digest() == state.digest(), name


def test_bad_actions_get_the_engines_error_in_either_build() -> None:
    """Anything that is not an action or its notation is refused with IllegalActionError
    (never a TypeError from the compiled build's argument checks), the state unchanged."""
    from cardhall.errors import IllegalActionError
    from cardhall.registry import game_class, game_names, make_game

    for name in game_names():
        state = make_game(name, game_class(name).player_counts[0]).new_state(seed=2)
        seat = min(state.actors())
        before = state.digest()
        for bad in (42, None, 3.5, ("take", 1), object(), [state.legal_actions(seat)[0]]):
            with pytest.raises(IllegalActionError, match="not an action"):
                state.apply(seat, bad)
            assert state.digest() == before, (name, bad)
