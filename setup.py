"""Build hook: compile the hot modules with mypyc, and the C extensions, where a C compiler
and mypyc are present.

The modules are listed once, in ``src/cardhall/build.py`` (``COMPILED_MODULES`` for mypyc,
``NATIVE_MODULES`` for the extensions written in C, ``src/cardhall/<name>.c``); this file
reads those lists without importing cardhall. ``CARDHALL_BUILD`` chooses: ``auto``
(default: compile when mypyc and a C compiler are found, else build the pure-Python
package), ``compiled`` (compile or fail) or ``pure`` (never compile). Editable installs
stay pure.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
#: setup.py commands that build extensions (metadata-only commands never run mypyc).
BUILDING = {"build", "build_ext", "bdist_wheel", "install"}


def listed_modules(name: str) -> tuple[str, ...]:
    """The tuple ``name`` (``COMPILED_MODULES``, ``NATIVE_MODULES``) of cardhall.build."""
    tree = ast.parse((HERE / "src/cardhall/build.py").read_text())
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == name
            and node.value is not None
        ):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError(f"src/cardhall/build.py defines no {name}")


#: Warnings for the C extensions, beyond the interpreter's own flags (-Wall among them):
#: they compile without any (GCC and Clang; MSVC takes its defaults).
NATIVE_WARNINGS = ["-Wextra", "-Wconversion", "-Wshadow"]


def have_compiler() -> bool:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0]) is not None


def ext_modules() -> list:
    mode = os.environ.get("CARDHALL_BUILD", "auto")
    if mode not in ("auto", "compiled", "pure"):
        raise SystemExit(f"CARDHALL_BUILD must be auto, compiled or pure, not {mode!r}")
    if mode == "pure" or not BUILDING.intersection(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if mode == "compiled":
            raise
        print("cardhall: mypyc not found, building the pure-Python package", file=sys.stderr)
        return []
    if not have_compiler():
        if mode == "compiled":
            raise SystemExit("cardhall: CARDHALL_BUILD=compiled but no C compiler was found")
        print("cardhall: no C compiler, building the pure-Python package", file=sys.stderr)
        return []
    paths = ["src/" + m.replace(".", "/") + ".py" for m in listed_modules("COMPILED_MODULES")]
    # One C file per module: an edit recompiles only its module, and files build in parallel.
    modules = mypycify(paths, opt_level=os.environ.get("CARDHALL_OPT_LEVEL", "3"), separate=True)
    native = []
    for m in listed_modules("NATIVE_MODULES"):
        source = "src/" + m.replace(".", "/") + ".c"
        if not (HERE / source).is_file():  # e.g. a source distribution without it
            if mode == "compiled":
                raise SystemExit(f"cardhall: CARDHALL_BUILD=compiled but {source} is missing")
            print(f"cardhall: {source} missing, {m} not built", file=sys.stderr)
            continue
        flags = NATIVE_WARNINGS if sys.platform != "win32" else []
        native.append(Extension(m, sources=[source], extra_compile_args=flags))
    return modules + native


setup(ext_modules=ext_modules())
