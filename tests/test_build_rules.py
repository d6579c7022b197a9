"""What the sources of compiled modules keep to, checked in every build (engine/build.py).

The compiled build reads a module-level name annotated ``Final`` from a C static (an int or
string literal becomes a C constant); any other module-level name is looked up in the
module's dict on every use, and an int is unboxed each time. Constants on the hot path were
a tenth of a compiled deal's time before they were ``Final`` (``folkdeck bench``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from folkdeck.engine.build import is_compiled_module

SRC = Path(__file__).resolve().parents[1] / "src"
CONSTANT = re.compile(r"_?[A-Z][A-Z0-9_]*")


def _module_constants(tree: ast.Module) -> list[tuple[int, str, bool]]:
    """``(line, name, is_final)`` for each module-level assignment to an upper-case name."""
    out = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and _is_type_variable(node.value):
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                out += [(node.lineno, n.id, False) for n in names if isinstance(n, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            ann = ast.unparse(node.annotation)
            out.append((node.lineno, node.target.id, ann == "Final" or ann.startswith("Final[")))
    return [(line, name, final) for line, name, final in out if CONSTANT.fullmatch(name) and name != "__all__"]


def _is_type_variable(value: ast.expr | None) -> bool:
    """``TypeVar("T")`` and its kin: names for the type checker, not values."""
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in ("TypeVar", "ParamSpec", "TypeVarTuple", "NewType"))


def test_module_constants_of_compiled_modules_are_final() -> None:
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if not is_compiled_module(rel):
            continue
        for line, name, final in _module_constants(ast.parse(path.read_text(encoding="utf-8"))):
            if not final:
                wrong.append(f"{rel}:{line}: {name} (write `{name}: Final = ...`, one name a line)")
    assert not wrong, "module constants that the compiled build looks up in a dict:\n" + "\n".join(wrong)


def test_the_check_sees_what_it_should() -> None:
    tree = ast.parse("A = 1\nB: int = 2\nC: Final = 3\nD, _E = 4, 5\nlower = 6\n_F: Final[int] = 7\nT = TypeVar('T')\n")
    assert [(n, f) for _, n, f in _module_constants(tree)] == [
        ("A", False), ("B", False), ("C", True), ("D", False), ("_E", False), ("_F", True)]
