"""A state's clone shares the parts it names in ``_shared``; the compiled build writes that
``clone`` out for each state class (``folkdeck.engine.build``, "Clones"). Here, in either
build, the written-out ``clone`` is run as Python against the base's: the same parts
shared, the same deal copied."""

from __future__ import annotations

import inspect
import random
import sys
from typing import Self

import pytest

import folkdeck
from folkdeck.engine.build import clone_source, compiled_source
from folkdeck.engine.state_base import StateBase


@pytest.mark.parametrize("name", folkdeck.games())
def test_the_written_out_clone_is_the_bases(name: str) -> None:
    state = folkdeck.load(name).new_state(seed=2)
    rng = random.Random(2)
    for _ in range(6):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, StateBase)
    cls = type(state)
    assert cls._shared
    source = clone_source(cls._shared)
    module_text = inspect.getsource(sys.modules[cls.__module__])
    assert source.replace("\n", "\n    ").rstrip() in compiled_source(module_text)
    namespace: dict[str, object] = {"Self": Self}
    exec(source, namespace)  # noqa: S102 - the build's own generated text
    written = namespace["clone"](state)  # type: ignore[operator]
    based = StateBase.clone(state)
    for clone in (written, based):
        assert type(clone) is cls and clone.deal is not state.deal
        assert all(getattr(clone, part) is getattr(state, part) for part in cls._shared)
    for clone in (written, based):
        assert clone.observe(0) == state.observe(0)
        while not clone.is_over():
            clone.apply(clone.legal_actions()[0])
    assert written.history == based.history
