# cardhall: `make run` plays/serves, `make test` sets everything up and runs every test.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

.PHONY: install run test lint bench docs clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## run: the main job (see README).
run: $(STAMP)
	$(VENV)/bin/cardhall serve --host 127.0.0.1 --port 8000 --database-url sqlite:///cardhall.db

## test: install everything (first time), then run the whole suite, ruff and mypy.
test: $(STAMP)
	@if [ -x scripts/ensure-test-deps ]; then scripts/ensure-test-deps; fi
	$(PY) -m pytest -n 2 $(PYTEST_ARGS)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

## bench: speed figures for every game (see docs/benchmarks.md).
bench: $(STAMP)
	$(VENV)/bin/cardhall bench

docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
