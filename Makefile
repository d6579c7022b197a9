# Two commands do all the set-up on a fresh machine with Python >= 3.11:
#   make play    install into .venv if needed, then play Kap Hai against three bots
#   make test    install into .venv if needed, then lint, type-check and run the tests
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
# Playing needs only the package (and Rich); the tests need every extra.
PLAY_STAMP := $(VENV)/.installed-play
STAMP := $(VENV)/.installed-all

.PHONY: play serve test test-slow bench lint clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e '.[dev,arena,server]'
	touch $(STAMP) $(PLAY_STAMP)

play: $(PLAY_STAMP)
	$(VENV)/bin/folkdeck play $(or $(GAME),kaphai) $(ARGS)

serve: $(STAMP)
	$(VENV)/bin/folkdeck serve $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy src/folkdeck

test: lint
	$(PY) -m pytest -n 2 -q

test-slow: $(STAMP)
	$(PY) -m pytest -n 2 -q -m slow

bench: $(STAMP)
	$(VENV)/bin/folkdeck bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache
