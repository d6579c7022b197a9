"""GameSpec: a static description (GameInfo) and typed hooks (GameHooks), the hooks that
load code beyond the rules loaded at first use; random playouts outside the test checks."""

from __future__ import annotations

import ast
import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

import folkdeck
from folkdeck.agents import FirstLegalAgent, RandomAgent
from folkdeck.engine.protocol import GameHooks, GameInfo, GameSpec, Lazy, LazyBots
from folkdeck.engine.view import View

SRC = Path(__file__).resolve().parents[2] / "src" / "folkdeck"


def test_the_spec_types_are_offered_at_the_top_and_in_engine_spec() -> None:
    # engine/protocol.py no longer re-exports them: protocol -> spec -> determinize -> protocol
    # was an import circle (tests/test_layers.py)
    assert folkdeck.GameSpec is GameSpec


@pytest.mark.parametrize("name", folkdeck.games())
def test_a_spec_is_its_static_description_plus_its_hooks(name: str) -> None:
    spec = folkdeck.get_spec(name)
    assert isinstance(spec, GameInfo) and isinstance(spec.hooks, GameHooks)
    info_fields = {f.name for f in dataclasses.fields(GameInfo)}
    assert {f.name for f in dataclasses.fields(GameSpec)} == info_fields | {"hooks"}
    assert not info_fields & {f.name for f in dataclasses.fields(GameHooks)}
    # the hooks, read as they always were
    assert spec.make is spec.hooks.make and spec.bots is spec.hooks.bots
    assert spec.describe_action is spec.hooks.describe_action
    assert isinstance(spec.view_type, type) and issubclass(spec.view_type, View)
    assert spec.default_bot in spec.bots
    assert spec.make(spec.options_type()).spec is spec


def test_lazy_loads_once() -> None:
    calls: list[int] = []

    def load() -> int:
        calls.append(1)
        return 7

    hook = Lazy(load)
    assert not hook.loaded and calls == []
    assert hook.get() == 7 and hook.get() == 7 and hook.loaded and calls == [1]


def test_lazy_bots_load_at_first_use_and_take_added_bots() -> None:
    calls: list[int] = []

    def load() -> dict[str, type]:
        calls.append(1)
        return {"first": FirstLegalAgent}

    bots = LazyBots(load)
    bots.add({"random": RandomAgent, "first": RandomAgent})
    assert calls == []
    assert list(bots) == ["first", "random"] and calls == [1]
    assert bots["first"] is FirstLegalAgent  # the game's own name is kept
    bots.add({"late": RandomAgent})
    assert "late" in bots and len(bots) == 3 and calls == [1]
    assert list(LazyBots()) == []


def test_import_folkdeck_loads_no_determinizer() -> None:
    code = ("import sys, folkdeck\n"
            "for name in folkdeck.games(): folkdeck.load(name).new_state(seed=1)\n"
            "print(sorted(m for m in sys.modules if m.startswith('folkdeck.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    modules = eval(out)  # noqa: S307 - our own printed list
    assert not [m for m in modules if m.endswith(".determinize") and ".games." in m]
    assert not [m for m in modules if m.startswith(("folkdeck.agents", "folkdeck.rl"))]


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


def test_the_library_never_imports_the_test_checks() -> None:
    """``engine/conformance.py`` is test code: production code imports none of it."""
    found = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
             if p.name != "conformance.py" and "folkdeck.engine.conformance" in _imports(p)]
    assert found == []


def test_no_game_imports_the_rl_adapters() -> None:
    found = [f"{p.relative_to(SRC)}: {m}" for p in (SRC / "games").rglob("*.py")
             for m in _imports(p) if m == "folkdeck.rl" or m.startswith("folkdeck.rl.")]
    assert found == []


def test_random_playout_lives_in_the_engine_and_is_still_offered_by_conformance() -> None:
    from folkdeck.engine import conformance, playout
    from folkdeck.sim import runner

    assert conformance.random_playout is playout.random_playout is runner.random_playout
    state = folkdeck.load("kaphai").new_state(seed=2)
    steps = playout.random_playout(state, random.Random(2))
    assert state.is_over() and steps == len(state.history)
    with pytest.raises(RuntimeError):
        playout.random_playout(folkdeck.load("kaphai").new_state(seed=2), random.Random(2), max_steps=1)
