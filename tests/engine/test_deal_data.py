"""Each deal's data is declared once: a state's ``deal`` and its ``copy()``.

The convention (:mod:`folkdeck.engine.state_base`): a state keeps everything that play
changes in one slotted dataclass, its attribute ``deal``, whose ``copy()`` copies every
container; ``clone()`` is built from that copy. Checked for every registered game, after
random steps: no mutable container reachable from the deal data (lists, dicts, sets,
random generators, nested non-frozen dataclasses; a frozen dataclass such as the Result
is an immutable value) is shared between a state and its
clone, and playing on (or emptying every container of) the clone leaves the original's
fingerprint unchanged. A game without ``deal`` is an expected failure that names it.
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.engine.build import DealField, compiled_source, copy_source


def _games() -> list[str]:
    return list(folkdeck.games())


def _containers(value: Any, path: str = "deal") -> Iterator[tuple[str, Any]]:
    """Every mutable container reachable from ``value``, with where it is."""
    if isinstance(value, list | dict | set | bytearray | random.Random):
        yield path, value
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _containers(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _containers(item, f"{path}[{key!r}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A frozen dataclass (a Result, a fact) is a value, shared by contract: not walked.
        if not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            yield path, value
            for f in dataclasses.fields(value):
                yield from _containers(getattr(value, f.name), f"{path}.{f.name}")


def _fingerprint(value: Any) -> Any:
    """A plain, comparable copy of everything reachable from ``value``."""
    if isinstance(value, random.Random):
        return ("Random", value.getstate())
    if isinstance(value, list | tuple):
        return tuple(_fingerprint(v) for v in value)
    if isinstance(value, dict):
        return tuple((repr(k), _fingerprint(v)) for k, v in value.items())
    if isinstance(value, set | frozenset):
        return tuple(sorted(repr(v) for v in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(_fingerprint(getattr(value, f.name)) for f in dataclasses.fields(value)))
    return repr(value)


def _positions(name: str, seeds: range) -> Iterator[Any]:
    """States of random deals after 0, a few and many random steps."""
    for seed in seeds:
        rng = random.Random(seed)
        state = folkdeck.load(name).new_state(seed=seed)
        for step in range(400):
            if step in (0, 3, 17, 60) or state.is_over():
                yield state
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))


def _empty(container: Any) -> None:
    if isinstance(container, random.Random):
        container.seed(12345)
    elif isinstance(container, list | dict | set | bytearray):
        container.clear()


@pytest.mark.parametrize("name", _games())
def test_clone_shares_no_container_of_the_deal(name: str) -> None:
    checked = 0
    for state in _positions(name, range(5)):
        deal = state.deal  # the one documented attribute
        assert dataclasses.is_dataclass(deal) and hasattr(deal, "__slots__"), type(deal)
        clone = state.clone()
        mine = {id(c): where for where, c in _containers(deal)}
        shared = [(where, mine[id(c)]) for where, c in _containers(clone.deal) if id(c) in mine]
        assert not shared, f"{name}: the clone shares {shared}"
        before = _fingerprint(deal)
        assert _fingerprint(clone.deal) == before
        rng = random.Random(checked)
        while not clone.is_over():  # play the clone to its end...
            clone.apply(rng.choice(clone.legal_actions()))
        for _, container in _containers(clone.deal):  # ...then empty all it holds
            _empty(container)
        assert _fingerprint(state.deal) == before
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", _games())
def test_deal_copy_copies_every_field(name: str) -> None:
    """``copy()`` gives an equal deal of the same class, field for field."""
    for state in _positions(name, range(2)):
        deal = state.deal
        copy = deal.copy()
        assert type(copy) is type(deal)
        assert [f.name for f in dataclasses.fields(copy)] == [f.name for f in dataclasses.fields(deal)]
        assert _fingerprint(copy) == _fingerprint(deal)


@pytest.mark.parametrize("name", _games())
def test_the_init_takes_exactly_the_fields(name: str) -> None:
    """A deal's ``__init__`` (the one :mod:`dataclasses` makes, or in the compiled build the
    one ``compiled_source`` writes out) takes the fields, in order, and stores each as given."""
    cls = type(next(_positions(name, range(1))).deal)
    names = [f.name for f in dataclasses.fields(cls)]
    assert list(inspect.signature(cls.__init__).parameters)[1:] == names
    markers = [object() for _ in names]
    made = cls(**dict(zip(names, markers, strict=True)))
    assert [getattr(made, n) for n in names] == markers


def _compiled_module(module: types.ModuleType) -> types.ModuleType:
    """``module`` loaded from the source that the compiled build compiles (``compiled_source``)."""
    assert module.__file__ is not None
    text = compiled_source(Path(module.__file__).read_text(encoding="utf-8"))
    twin = types.ModuleType(f"{module.__name__}_as_compiled")
    sys.modules[twin.__name__] = twin  # dataclasses reads the class's module
    try:
        exec(compile(text, f"{module.__file__} (as compiled)", "exec"), twin.__dict__)
    finally:
        del sys.modules[twin.__name__]
    return twin


@pytest.mark.parametrize("name", _games())
def test_the_compiled_builds_methods_do_what_the_pure_ones_do(name: str) -> None:
    """The compiled build compiles each deal class with an ``__init__`` and a ``copy``
    written into its source; run here as Python, they make the same deals as the pure
    build's, sharing no container."""
    deal_class = type(next(_positions(name, range(1))).deal)
    twin = getattr(_compiled_module(sys.modules[deal_class.__module__]), deal_class.__name__)
    assert "copy" in vars(twin) and "__init__" in vars(twin) and not twin.__dataclass_params__.init
    names = [f.name for f in dataclasses.fields(deal_class)]
    assert [f.name for f in dataclasses.fields(twin)] == names
    assert inspect.signature(twin.__init__).parameters.keys() == inspect.signature(deal_class.__init__).parameters.keys()
    for state in _positions(name, range(2)):
        made = twin(**{n: getattr(state.deal, n) for n in names})
        copy = made.copy()
        assert type(copy) is twin
        assert _fingerprint(copy)[1:] == _fingerprint(state.deal.copy())[1:]
        mine = {id(c) for _, c in _containers(made)}
        assert not [where for where, c in _containers(copy) if id(c) in mine]


def test_the_copy_follows_what_each_field_holds() -> None:
    fields = [DealField("a", "list[list[int]]"), DealField("b", "dict[int, set[int]] | None"),
              DealField("c", "tuple[int, ...]"), DealField("d", "Window | None"), DealField("e", "Any", True)]
    assert copy_source("D", fields, {"Window"}).splitlines()[2:] == [
        "    return D(",
        "            [list(x0) for x0 in self.a],",
        "            None if self.b is None else {k0: set(x0) for k0, x0 in self.b.items()},",
        "            self.c,",
        "            None if self.d is None else self.d.copy(),",
        "            e=(list(self.e) if isinstance(self.e, list) else self.e))"]
    with pytest.raises(ValueError, match="tuple"):
        copy_source("D", [DealField("a", "tuple[list[int], int]")], set())
    with pytest.raises(ValueError, match="union"):
        copy_source("D", [DealField("a", "list[int] | dict[int, int]")], set())
