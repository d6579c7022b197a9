"""What ``make lint`` checks (issue 37): the type checker covers the tests and benchmarks as
well as the library, so that a test calling the library wrongly is seen."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_make_lint_type_checks_the_tests_and_benchmarks_strictly() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True and {"src/folkdeck", "tests", "benchmarks"} <= set(mypy["files"])
    recipe = re.search(r"^lint:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert recipe is not None
    commands = [line.split() for line in recipe.group(1).splitlines()]
    assert ["$(VENV)/bin/mypy"] in commands  # no paths: the files above, not src alone
    assert ["$(VENV)/bin/ruff", "check", "src", "tests", "benchmarks"] in commands
