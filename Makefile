# Two commands do all the set-up on a fresh machine with Python >= 3.11:
#   make play    install into .venv if needed, then play Kap Hai against three bots
#   make test    install into .venv if needed, then lint, type-check and run the fast suite
# CI (.ci/run) also runs `make test-all`: the browser, PostgreSQL, Ray and slow suites.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
JOBS ?= 2
# pytest-xdist: an idle worker takes queued tests from a busy one, so that a long test
# near the end of a run does not leave a core idle meanwhile.
XDIST = -n $(JOBS) --dist worksteal
# Playing needs only the package (and Rich); the fast tests the dev extra; test-all the rest.
PLAY_STAMP := $(VENV)/.installed-play
DEV_STAMP := $(VENV)/.installed-dev
ALL_STAMP := $(VENV)/.installed-all

.PHONY: play serve install-all test test-all test-slow lint bench dist clean fast test-fast-build

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(PLAY_STAMP)

$(DEV_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP) $(PLAY_STAMP)

$(ALL_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev,postgres,e2e,arena,rl,train]'
	touch $(ALL_STAMP) $(DEV_STAMP) $(PLAY_STAMP)

# Every extra (what test-all needs) in one pip run; CI starts with it.
install-all: $(ALL_STAMP)

play: $(PLAY_STAMP)
	$(VENV)/bin/folkdeck play $(or $(GAME),kaphai) $(ARGS)

serve: $(DEV_STAMP)
	$(VENV)/bin/folkdeck serve $(ARGS)

# mypy reads what it checks from pyproject.toml: src/folkdeck, tests and benchmarks, strict
# (the tests without strict_equality; see [tool.mypy]).
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy

# The fast suite: every game's rules, conformance, records, bots, CLI and API (a few minutes).
test: lint
	$(PY) -m pytest $(XDIST) -q

# Everything the fast suite leaves out: thousands of random deals and fuzzing (slow), the
# browser (e2e, needs Debian's chromium), PostgreSQL (needs initdb), Ray and the RL adapters.
# ALL_ARGS: more pytest arguments (CI leaves out here the long conformance runs that it runs
# on the compiled build instead: see .ci/run).
ALL_ARGS ?=
test-all: $(ALL_STAMP)
	$(PY) -m pytest $(XDIST) -q -m "slow or e2e or postgres or ray or rl" $(ALL_ARGS)

test-slow: $(ALL_STAMP)
	$(PY) -m pytest $(XDIST) -q -m slow

bench: $(PLAY_STAMP)
	$(VENV)/bin/folkdeck bench

# The compiled build (README "Fast build") in its own venv, .venv-fast: mypyc compiles the rules,
# bots and runner into C extension modules (needs a C compiler and Python's headers; about two
# minutes on two cores), with the dev extra for the tests. .venv stays pure Python.
FAST_VENV ?= .venv-fast
FAST_PY := $(FAST_VENV)/bin/python
FAST_STAMP := $(FAST_VENV)/.installed-fast

$(FAST_PY):
	$(PYTHON) -m venv $(FAST_VENV)
	$(FAST_PY) -m pip install --quiet --upgrade pip

$(FAST_STAMP): pyproject.toml hatch_build.py $(shell find src/folkdeck -name '*.py') | $(FAST_PY)
	FOLKDECK_MYPYC=1 $(FAST_PY) -m pip install --quiet '.[dev]'
	touch $(FAST_STAMP)

fast: $(FAST_STAMP)
	$(FAST_VENV)/bin/folkdeck bench --seconds 0.2

# The conformance, property, pickling, search legality, hint and learned-bot and game suites
# on the compiled build, and its equivalence with src/ (FAST_ARGS: more pytest arguments, e.g. -m "not e2e" to add
# the slow runs).
FAST_ARGS ?=
FAST_TESTS = tests/test_conformance.py tests/test_properties.py tests/test_pickling.py \
	tests/agents/test_search_legal.py tests/agents/test_advice.py tests/agents/test_learned.py \
	tests/agents/test_features.py tests/agents/test_kaphai_heuristic.py \
	tests/games tests/test_compiled.py
test-fast-build: $(FAST_STAMP)
	$(FAST_PY) -m pytest $(XDIST) -q $(FAST_TESTS) $(FAST_ARGS)

# A wheel and an sdist in dist/, checked as a package index would check them.
dist: $(VENV)/bin/python
	$(PY) -m pip install --quiet build twine
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(PY) -m twine check --strict dist/*

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache dist build
