"""No game raises an engine error worded in English: every error the games make carries a
reason key of the message catalogs (``error.<reason>`` in ``en.json`` and ``ja.json``),
so that ``render("ja")`` answers in Japanese (issue 36, item 6).

The games' sources are read, not run: every call of a :class:`~folkdeck.errors.CardGameError`
class whose reason is written in the source (a string, not a variable) must name a
catalog key. A reason built from text (an f-string, a concatenation) is refused outright.
Reasons passed on in variables come from such literals or from the engine's shared
refusals (:mod:`folkdeck.engine.errors`), which the same rule holds for.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
from pathlib import Path

import pytest

import folkdeck.errors
from folkdeck.i18n import catalog

_SPEC = importlib.util.find_spec("folkdeck.games")
assert _SPEC is not None and _SPEC.submodule_search_locations
GAMES = Path(next(iter(_SPEC.submodule_search_locations)))
ERRORS = frozenset(name for name, cls in vars(folkdeck.errors).items()
                   if inspect.isclass(cls) and issubclass(cls, folkdeck.errors.CardGameError))


def _error_calls(path: Path) -> list[tuple[int, ast.expr]]:
    """``(line, reason)`` of every call of an error class in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ERRORS:
            out.append((node.lineno, node.args[0]))
    return out


def _sources() -> list[Path]:
    return sorted(GAMES.rglob("*.py"))


def test_the_scan_finds_the_games_errors() -> None:
    """The scan sees the errors it must judge (a scan that finds nothing proves nothing)."""
    per_game: dict[str, int] = {}
    for p in _sources():
        per_game[p.parent.name] = per_game.get(p.parent.name, 0) + len(_error_calls(p))
    for game in ("kaphai", "gouji", "cambio", "cangkul"):
        assert per_game.get(game, 0) > 5, per_game


@pytest.mark.parametrize("path", _sources(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_error_reason_is_a_catalog_key(path: Path) -> None:
    en, ja = catalog("en"), catalog("ja")
    problems = []
    for line, reason in _error_calls(path):
        where = f"{path.parent.name}/{path.name}:{line}"
        if isinstance(reason, ast.JoinedStr | ast.BinOp):
            problems.append(f"{where}: a reason made of text: {ast.unparse(reason)[:80]}")
        elif isinstance(reason, ast.Constant) and isinstance(reason.value, str):
            key = f"error.{reason.value}"
            if key not in en or key not in ja:
                problems.append(f"{where}: {reason.value!r} is no catalog key")
    assert not problems, "\n".join(problems)
