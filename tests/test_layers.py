"""Imports point down only: errors, i18n ← cards ← engine ← games ← agents ← sim ← server, cli.

``folkdeck.errors`` (the one error hierarchy, raised by the card notation too; the engine
re-exports it as ``folkdeck.engine.errors``) and ``folkdeck.i18n`` (the catalogs and the
renderer, which know no game) sit below everything.

A game's bots (``games/<g>/agents.py``, ``search.py``, ``rollout.py``, ``policy.py``,
``determinize.py``) sit at the agents layer although they live in the game's folder (the
same small module set in every game); a game's ``__init__`` reaches them (and the shared
bots of ``agents`` and ``rl``) only inside its lazy bot table, so ``import folkdeck`` loads
no bot and no search code.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "folkdeck"
LAYERS = {"errors": 0, "i18n": 0, "cards": 1, "engine": 2, "games": 3, "agents": 4, "rl": 5, "sim": 5,
          "server": 6, "cli": 6, "web": 6}
BOT_MODULES = {"agents", "search", "rollout", "policy", "determinize"}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "folkdeck" or len(parts) < 2:
        return None  # the package root re-exports; it is not a layer
    if parts[1] == "games" and len(parts) >= 4 and parts[3] in BOT_MODULES:
        return LAYERS["agents"]
    return LAYERS.get(parts[1])


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST) -> list[tuple[str, bool]]:
    """(module, inside a function) for every import of the tree."""
    out: list[tuple[str, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                out.extend((a.name, inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                out.append((child.module, inner))
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue  # annotations only
            visit(child, inner)

    visit(tree, False)
    return out


def _violations() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        name = _module_name(path)
        own = _layer(name)
        if own is None:
            continue
        for target, nested in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            theirs = _layer(target)
            if theirs is None or theirs <= own:
                continue
            game_bots = (nested and name.startswith("folkdeck.games.") and path.name == "__init__.py"
                         and (target.startswith(name + ".") or target.startswith("folkdeck.agents")
                              or target.startswith("folkdeck.rl")))
            if not game_bots:
                found.append(f"{name} imports {target}" + (" (in a function)" if nested else ""))
    return found


def test_imports_point_down_only() -> None:
    assert _violations() == []


@pytest.mark.parametrize("forbidden", ["folkdeck.agents.search", "folkdeck.sim", "folkdeck.server",
                                       "folkdeck.cli"])
def test_import_folkdeck_loads_no_bot_search_or_edge_code(forbidden: str) -> None:
    code = ("import sys, folkdeck; folkdeck.load('kaphai').new_state(seed=1); "
            "print(sorted(m for m in sys.modules if m.startswith('folkdeck.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    modules = eval(loaded)  # noqa: S307 - our own printed list
    assert not [m for m in modules if m == forbidden or m.startswith(forbidden + ".")]
    assert not [m for m in modules if m.rsplit(".", 1)[-1] in BOT_MODULES and ".games." in m]
