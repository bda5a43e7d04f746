# cardhall: `make run` plays/serves, `make test` sets everything up and runs every test.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
# PyTorch for the training example (extra `train`), installed before the rest so that no
# package pulls PyPI's default CUDA build (several GB): 2.13.0 is the CPU build this
# machine's pip finds on disk (docs/interop.md). `make TORCH=torch` takes any other.
TORCH ?= torch==2.13.0
# The compiled build (docs/builds.md): the package with the modules of
# cardhall.build.COMPILED_MODULES compiled by mypyc, used through PYTHONPATH; $(VENV) keeps
# the pure-Python editable install.
COMPILED ?= build/compiled
COMPILED_STAMP := $(COMPILED)/.built
SOURCES := setup.py $(shell find src/cardhall -type f -not -path '*/__pycache__/*')

.PHONY: install compiled run test lint bench bench-pure docs clean

$(STAMP): pyproject.toml setup.py
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip 'setuptools>=77'
	$(PY) -m pip install -q $(TORCH)
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

$(COMPILED_STAMP): $(STAMP) $(SOURCES)
	scripts/build-compiled $(PY) $(COMPILED)

## install: the pure editable install in $(VENV), and the compiled build beside it.
install: $(STAMP) $(COMPILED_STAMP)

compiled: $(COMPILED_STAMP)

## run: the main job (see README).
run: $(STAMP)
	$(VENV)/bin/cardhall serve --host 127.0.0.1 --port 8000 --database-url sqlite:///cardhall.db

## test: install everything (first time), then run the whole suite on the pure package (with
## the cross-build digest test), the conformance, money and adapter suites on the compiled
## build, ruff and mypy.
test: $(STAMP) $(COMPILED_STAMP)
	@if [ -x scripts/ensure-test-deps ]; then scripts/ensure-test-deps; fi
	CARDHALL_EXPECT_BUILD=pure CARDHALL_COMPILED_TREE=$(COMPILED) $(PY) -m pytest -n 2 $(PYTEST_ARGS)
	CARDHALL_EXPECT_BUILD=compiled PYTHONPATH=$(COMPILED) $(PY) -m pytest -n 2 -p no:cacheprovider \
		tests/test_conformance.py tests/test_build.py tests/test_shuffle.py tests/test_money.py \
		tests/test_interop_openspiel.py tests/test_interop_pettingzoo.py \
		tests/test_interop_tensors.py tests/test_interop_tensors_pinned.py tests/test_engine.py tests/test_somachi.py -k "not identical_games"
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

## bench: speed figures for every game, on the compiled build (see docs/benchmarks.md);
## bench-pure: the same on the pure-Python package.
bench: $(STAMP) $(COMPILED_STAMP)
	PYTHONPATH=$(COMPILED) $(VENV)/bin/cardhall bench

bench-pure: $(STAMP)
	$(VENV)/bin/cardhall bench

docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

clean:
	rm -rf $(VENV) build site .pytest_cache .mypy_cache .ruff_cache
