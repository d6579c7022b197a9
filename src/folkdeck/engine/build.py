"""Which build of folkdeck runs: the pure-Python reference, or the optional compiled one.

``FOLKDECK_MYPYC=1 pip install .`` compiles the rules, bots and runner with mypyc into C
extension modules that sit beside the unchanged sources (README "Fast build", done by
``hatch_build.py``, which reads :data:`INTERPRETED` from this file). Figures should say
which build they came from: :func:`build`.

What a compiled module's source keeps to (each one a difference mypyc makes; the pure
build is the same code, and ``tests/test_compiled.py`` checks both play the same games):

- A class compiles into a native class: single inheritance among compiled classes; no
  class keywords (``class X(Base, key=...)``: mypyc drops them, python/mypy#21938); in
  the class body only definitions (no ``if``, no ``a = b = c``, no name of the class's
  own method); a subclass does not narrow an attribute's type (``_phase: KapHaiPhase``
  over ``_phase: str``); :func:`python_class` keeps one a Python class (a ``tuple``
  subclass). An interpreted class cannot subclass a compiled one, hence :data:`INTERPRETED`.
- A native instance has no ``__dict__`` and its class no ``__slots__``: a ``clone`` copies
  a module-level tuple of attribute names. A blank instance is ``cls.__new__(cls)``
  (:class:`~folkdeck.engine.state_base.BlankMade` defines it), never ``object.__new__(cls)``:
  a native class's constructor would run ``__init__``.
- Pickle's default makes a blank instance and sets its attributes one by one: a native
  class's constructor runs ``__init__`` and a frozen one refuses the attributes, so a
  value that crosses processes pickles as its constructor call (``Card.__reduce__``) or
  as what it is made from (:mod:`folkdeck.engine.pickling`: a game, a state), and a match
  is made blank by ``BlankMade``/``Blank``.
- A module constant is ``NAME: Final = value``, one name a line: compiled code reads a
  ``Final`` name from a C static (an int or a string literal becomes a C constant), and any
  other module-level name from the module's dict on every use (``tests/test_build_rules.py``).
- A property that returns a callable is not called through in one expression
  (``spec.make(options)``): compiled, that calls the getter with the arguments
  (mypyc/mypyc#1212); call the attribute it reads (``spec.hooks.make(options)``).
- Annotations are checked when a compiled function is called: an entry point that checks
  its input itself (a record's ``seed``) takes ``Any``, or a wrong type raises ``TypeError``
  before the coded error.

>>> build() in ("python", "mypyc"), compiled() == (build() == "mypyc")
(True, True)
>>> is_compiled_module("folkdeck/engine/protocol.py"), is_compiled_module("folkdeck/engine/facts.py")
(True, False)
"""

from __future__ import annotations

import fnmatch
import sys
from typing import Final, TypeVar

T = TypeVar("T")

INTERPRETED: Final = {
    "folkdeck/__init__.py": "re-exports; `folkdeck.games` is bound in an `else:` of `if TYPE_CHECKING`",
    "folkdeck/__main__.py": "`python -m folkdeck` only",
    "folkdeck/errors.py": "UnknownGameError subclasses KeyError, and server/cli subclass CardGameError",
    "folkdeck/engine/facts.py": "`class X(Fact, type=...)`: mypyc drops class keywords (python/mypy#21938)",
    "folkdeck/games/*/events.py": "the games' facts (`class X(Fact, type=...)`), as engine/facts.py",
    "folkdeck/engine/view.py": "each game's view narrows `View.phase` to its own phase enum",
    "folkdeck/games/*/observation.py": "the games' views, subclasses of engine/view.py's View",
    "folkdeck/games/*/options.py": "options are read from their annotations, which mypyc's dataclasses lose",
    "folkdeck/games/__init__.py": "the package is made callable (`folkdeck.games()`) by its module class",
    "folkdeck/i18n/*": "the terminal's renderer subclasses `Renderer`; rendering is not a hot path",
    "folkdeck/cli/*": "the terminal: not a hot path",
    "folkdeck/server/*": "the web server: not a hot path",
    "folkdeck/rl/*": "the RL adapters: numpy, gymnasium and pettingzoo classes",
    "folkdeck/agents/encoding.py": "NumPy arrays: the observation vectors of the RL adapters and learned bots",
    "folkdeck/agents/learned.py": "NumPy inference: its time is in NumPy's matrix products",
    "folkdeck/train/*": "the trainer: JAX and NumPy (the deals it plays run in the compiled rules)",
}
"""The modules (``fnmatch`` patterns of paths under ``src/``) that the compiled build leaves
to the interpreter, and why; compiled code calls them as it calls any Python module."""


def is_compiled_module(path: str) -> bool:
    """Whether the compiled build compiles the module at ``path`` (under ``src/``, with
    ``/``: ``folkdeck/engine/protocol.py``)."""
    return not any(fnmatch.fnmatch(path, pattern) for pattern in INTERPRETED)


def compiled() -> bool:
    """Whether this folkdeck runs compiled: a module compiled by mypyc is an extension
    module, whose ``__file__`` is not a ``.py`` file."""
    file = sys.modules[__name__].__file__
    return file is not None and not file.endswith(".py")


def build() -> str:
    """``"mypyc"`` in the compiled build, else ``"python"`` (the reference build)."""
    return "mypyc" if compiled() else "python"


def python_class(cls: type[T]) -> type[T]:
    """Keep ``cls`` a regular Python class in the compiled build, its methods compiled.

    mypyc compiles a class into a native class, which cannot subclass most built-in
    types (a ``tuple`` subclass, say); a class with a decorator mypyc does not know it
    compiles into a regular Python class instead ("Class decorators" in mypyc's
    "Native classes"). This one does nothing else, in either build.
    """
    return cls


__all__ = ["INTERPRETED", "build", "compiled", "is_compiled_module", "python_class"]
