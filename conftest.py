"""Collection rules for the whole tree (tests/, src/ doctests, README.md).

``src/folkdeck/train/network.py`` needs the ``train`` extra (JAX, Optax) and is left out
without it, as the RL modules are without theirs (below).

The RL adapters (``src/folkdeck/rl``, ``tests/rl``) need the ``rl`` extra (numpy,
Gymnasium, PettingZoo, OpenSpiel), which ``make test`` does not install: without it their
modules are left out instead of failing to import. They carry the ``rl`` marker, which the
default run leaves out and ``make test-all`` runs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
_RL_EXTRA = ("numpy", "gymnasium", "pettingzoo", "pyspiel")
_RL_DIRS = (ROOT / "src" / "folkdeck" / "rl", ROOT / "tests" / "rl")

collect_ignore_glob = [] if all(importlib.util.find_spec(m) for m in _RL_EXTRA) else [
    "src/folkdeck/rl/*.py", "tests/rl/*.py"]
# The trainer's network needs the train extra (JAX, Optax), which `make test` does not
# install either: its doctests are collected only where it is (make test-all).
if not all(importlib.util.find_spec(m) for m in ("jax", "optax")):
    collect_ignore_glob.append("src/folkdeck/train/network.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path)).resolve()
        if any(d == path.parent or d in path.parents for d in _RL_DIRS):
            item.add_marker(pytest.mark.rl)
