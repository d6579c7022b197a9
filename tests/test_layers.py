"""Imports point down only: errors, i18n ← cards ← engine ← games ← agents ← sim ← server, cli, train.

``folkdeck.errors`` (the one error hierarchy, raised by the card notation too; the engine
re-exports it as ``folkdeck.engine.errors``) and ``folkdeck.i18n`` (the catalogs and the
renderer, which know no game) sit below everything.

A game's bots (``games/<g>/agents.py``, ``search.py``, ``rollout.py``, ``policy.py``,
``determinize.py``) sit at the agents layer although they live in the game's folder (the
same small module set in every game); a game's ``__init__`` reaches them (and the shared
bots of ``agents`` and ``rl``) only inside its lazy bot table, so ``import folkdeck`` loads
no bot and no search code. The learned bots' NumPy and the trainer's JAX are loaded only
when such a bot is made or a training runs.

No circles either: the package's import graph (every import, at module level, inside a
function or for type checking only: each is a dependency a reader must follow) has no cycle
among modules.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "folkdeck"
LAYERS = {"errors": 0, "json_types": 0, "i18n": 0, "cards": 1, "engine": 2, "games": 3, "agents": 4, "rl": 5, "sim": 5,
          "server": 6, "cli": 6, "web": 6, "train": 6}
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


@pytest.mark.parametrize("forbidden", ["folkdeck.agents.search", "folkdeck.agents.learned", "folkdeck.sim",
                                       "folkdeck.server", "folkdeck.cli", "folkdeck.train"])
def test_import_folkdeck_loads_no_bot_search_or_edge_code(forbidden: str) -> None:
    code = ("import sys, folkdeck; folkdeck.load('kaphai').new_state(seed=1); "
            "print(sorted(m for m in sys.modules if m.startswith('folkdeck.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    modules = eval(loaded)  # noqa: S307 - our own printed list
    assert not [m for m in modules if m == forbidden or m.startswith(forbidden + ".")]
    assert not [m for m in modules if m.rsplit(".", 1)[-1] in BOT_MODULES and ".games." in m]


def test_import_folkdeck_loads_no_numpy_and_a_learned_bot_no_training_library() -> None:
    code = ("import sys, folkdeck; print('numpy' in sys.modules); from folkdeck.agents import make_agent; "
            "spec = folkdeck.load('kaphai').spec; make_agent(spec, 'learned' if 'learned' in spec.bots else None); "
            "print(sorted(m for m in ('jax', 'optax', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["False", "[]"]


# --- no import circles ------------------------------------------------------------------------

def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``from a import b``: ``a.b`` when that is
    a module, else ``a``)."""
    paths = {_module_name(path): path for path in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, up level - 1
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                targets.add(base)
                targets.update(f"{base}.{a.name}" for a in node.names)
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm), as
    the path ``[a, b, ..., a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(_cycle_in(graph, group) for group in groups)


def _cycle_in(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """The shortest way from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for other in sorted(graph[node] & group):
                if other == start:
                    return [*paths[node], start]
                if other not in paths:
                    paths[other] = [*paths[node], other]
                    nxt.append(other)
        frontier = nxt
    raise AssertionError(f"no cycle in {group}")  # pragma: no cover - a group is strongly connected


def test_the_circle_check_finds_a_circle_and_lists_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles() -> None:
    """Issue 23, "No import circles": none, type-only imports (``if TYPE_CHECKING:``) included.
    Each game's state takes its game as a protocol declared below both (``KapHaiGameLike``...);
    the engine's types that name one another (``Game``, ``GameSpec``, its ``Determinizer``)
    share ``engine/protocol.py``, with what names no game object below it (``values.py``, ``bots.py``)."""
    assert [" -> ".join(c) for c in circles(import_graph())] == []
