"""The registry of games: ``folkdeck.games()`` and ``folkdeck.load(name, **options)``."""

from __future__ import annotations

import copyreg
import pickle
from collections.abc import Callable
from typing import Final

from folkdeck.engine.errors import UnknownGameError
from folkdeck.engine.options import options_from_mapping
from folkdeck.engine.protocol import Game, GameSpec

_SPECS: Final[dict[str, GameSpec]] = {}
_ALIASES: Final[dict[str, str]] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game; its name and aliases must be new."""
    for key in (spec.name, *spec.aliases):
        if key in _ALIASES and _ALIASES[key] != spec.name:
            raise ValueError(f"game name {key!r} is taken by {_ALIASES[key]!r}")
        _ALIASES[key] = spec.name
    _SPECS[spec.name] = spec
    return spec


def _by_name(spec: GameSpec) -> tuple[Callable[[str], GameSpec], tuple[str]]:
    """How a spec pickles (:mod:`folkdeck.engine.pickling`): as its registered name, loaded
    as the registered spec itself; its hooks hold functions local to the game's package,
    which pickle cannot name.

    :raises pickle.PicklingError: for a spec that is not the one registered under its name
        (a game made outside the registry).
    """
    if _SPECS.get(spec.name) is not spec:
        raise pickle.PicklingError(f"the game {spec.name!r} is not registered (folkdeck.engine.registry.register): "
                                   "its spec does not pickle")
    return (get_spec, (spec.name,))


copyreg.pickle(GameSpec, _by_name)


def _ensure_loaded() -> None:
    """The games register when ``folkdeck`` is imported (``folkdeck/__init__.py`` imports
    ``folkdeck.games``, the one list of games): the engine imports no game."""


def games() -> tuple[str, ...]:
    """The registered game names, in registration order.

    >>> "kaphai" in games()
    True
    """
    _ensure_loaded()
    return tuple(_SPECS)


def get_spec(name: str) -> GameSpec:
    """The spec of a game by name or alias.

    :raises UnknownGameError: naming the game and the known ones.
    """
    _ensure_loaded()
    key = name.strip().lower()
    if key not in _ALIASES:
        raise UnknownGameError("unknown_game", game=name[:40], games=", ".join(_SPECS))
    return _SPECS[_ALIASES[key]]


def load(name: str, preset: str | None = None, **options: object) -> Game:
    """Make a game from its name, an optional preset, and options.

    >>> game = load("kaphai", players=3)
    >>> game.num_players
    3

    :raises UnknownGameError: for an unknown name.
    :raises InvalidConfigError: for an unknown option or preset, or a bad value.
    """
    spec = get_spec(name)
    values: dict[str, object] = {}
    if preset is not None:
        if preset not in spec.presets:
            from folkdeck.engine.errors import InvalidConfigError

            raise InvalidConfigError("unknown_preset", preset=preset, game=spec.name,
                                     presets=", ".join(spec.presets) or "-")
        values.update(spec.presets[preset])
    values.update(options)
    # The hook itself, not called through the `spec.make` property (why:
    # folkdeck.engine.build, "Properties").
    return spec.hooks.make(options_from_mapping(spec.options_type, values))
