"""How a frozen dataclass pickles: as its constructor called with its fields by name
(:func:`frozen_reduction`), not as pickle's default, a blank instance whose fields are set
one by one (why: :mod:`folkdeck.engine.build`, "Pickling"). The standings
of a match and an arena's configuration pickle so; :mod:`folkdeck.engine.pickling` says how
the rest of the engine's objects do.

>>> import pickle
>>> from folkdeck.engine.values import Standings
>>> standings = Standings(deals_played=1, deals_limit=2, over=False, unit="points", scores=(1.0, 0.0))
>>> pickle.loads(pickle.dumps(standings)) == standings
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")


def frozen_reduction(value: DataclassInstance) -> tuple[object, tuple[type, dict[str, object]]]:
    """``value.__reduce__()`` for a frozen dataclass: its constructor called with its fields
    by name (why: :mod:`folkdeck.engine.build`, "Pickling")."""
    return (constructed, (type(value), {f.name: getattr(value, f.name) for f in fields(value) if f.init}))


def constructed(cls: Callable[..., T], fields_: Mapping[str, object]) -> T:
    """``cls(**fields_)``: what a frozen dataclass pickled by :func:`frozen_reduction` loads as."""
    return cls(**fields_)


__all__ = ["constructed", "frozen_reduction"]
