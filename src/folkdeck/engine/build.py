"""Which build of folkdeck runs (the pure-Python reference, or the optional compiled one),
and what the compiled one needs of the sources.

``FOLKDECK_MYPYC=1 pip install .`` compiles the rules, bots and runner with mypyc into C
extension modules that sit beside the unchanged sources (README "Fast build", done by
``hatch_build.py``, which reads :data:`INTERPRETED` from this file). Figures should say
which build they came from: :func:`build`.

This module is the one place that knows the compiler. The sources are plain Python, the
same in both builds (``tests/test_compiled.py`` checks that both play the same games);
where mypyc compiles something differently from CPython, the code that copes with it is
written once, and its why is an entry below, naming the places it applies.

**Classes.** A class compiles into a native class:

- single inheritance among compiled classes, and no class keywords
  (``class X(Fact, type=...)``: mypyc drops them, python/mypy#21938): the facts
  (``engine/facts.py``, ``games/*/events.py``) stay interpreted (:data:`INTERPRETED`), and
  so do their subclasses' modules, since an interpreted class cannot subclass a compiled one;
- in the class body only definitions: no ``if``, no ``a = b = c``, no name of the class's
  own method (``__lt__`` and its kin are a method each in ``games/gouji/rules.py``'s ``Play``);
- a subclass does not narrow an attribute's type (``_phase: KapHaiPhase`` over
  ``_phase: str``): ``engine/view.py`` and the games' ``observation.py`` stay interpreted;
- a native class cannot subclass most built-in types: :func:`python_class` keeps a
  ``tuple`` subclass a Python class (``Play`` in ``games/gouji/rules.py``);
- a generic dataclass does not compile: ``Determinization`` (``engine/determinize.py``) is
  a plain class with ``__slots__``;
- the options modules stay interpreted (mypyc's dataclasses lose the annotations that
  options are read from), so what the engine reads on every action lives in a rules
  module (Cangkul's ``Ruleset`` in ``games/cangkul/rules.py``).

**Deal data.** A dataclass's generated ``__init__`` is made by :mod:`dataclasses` when the
module is imported, so compiled it runs interpreted (mypyc/mypyc#671), and a deal's data
is made for every new state and every clone. Each deal class (``games/*/deal.py``) is
declared once, as a plain dataclass marked :func:`deal_data`; the build hook compiles a
copy of its module in which the class has an ``__init__`` and a ``copy`` written out
(:func:`compiled_source`), so both run native. In the pure build :func:`deal_data` makes
the same ``copy`` when the class is defined, and the dataclass keeps its own ``__init__``.

**Clones.** An attribute read or set by its name (``getattr``/``setattr``) on a native
instance takes the generic look-up, about ten times a native read: a compiled Cangkul
state's ``clone``, sharing its six parts by name, took three times its deal's copy. A
state names the slots it shares with its clones in a tuple, ``_shared``
(``games/*/state.py``), which ``StateBase.clone`` (``engine/state_base.py``) reads by name;
the build hook writes into each class that declares ``_shared`` a ``clone`` that assigns
them one by one (:func:`clone_source`, :func:`compiled_source`).

**Blank instances.** A native class's constructor runs ``__init__`` (also from
``__new__``), and a native instance has no ``__dict__`` and its class no ``__slots__``. A
blank instance is ``cls.__new__(cls)`` of a class that defines ``__new__``
(``engine/state_base.py``: ``BlankMade`` for the classes with ``Generic`` among their
bases, the states and matches; ``Blank`` for any other, a match's ``CarryOver``), never
``object.__new__(cls)``, which mypyc compiles only in a class without ``Generic`` among
its bases.

**Python 3.11's method look-up.** mypyc gives a ``__dict__`` slot to every class with
``Generic`` among its bases (``StateBase``), and CPython 3.11 never specializes a method
look-up (``LOAD_METHOD``) on an instance whose type has that slot while the dict is not
made yet, so every call of a state's method from interpreted code (a user's loop, the RL
environments, the server, ``benchmarks/compare_trees.py``) walked the class hierarchy:
about 3 % of a compiled Cangkul playout. ``_FILL_DICT_SLOT`` (``engine/state_base.py``) gives
each new state an empty dict (``BlankMade.__new__``), which lets the look-up specialize
(``LOAD_METHOD_WITH_DICT``); the pure classes have no such slot, and Python 3.12
specializes the empty slot itself (``tests/test_compiled.py`` checks the specialization).

**Pickling.** Pickle's default makes a blank instance and sets its attributes one by one: a
native class's constructor runs ``__init__`` and a frozen one refuses the attributes. So a
value that crosses processes (the server's and the arena's workers, Ray) pickles as its
constructor call: ``Card.__reduce__`` (``cards/card.py``), ``Result`` (``engine/protocol.py``),
the actions ``Combo`` (``games/kaphai/rules.py``), ``Draw`` (``games/cangkul/actions.py``),
``Word`` (``games/gouji/actions.py``) and ``PASS`` as its name (``engine/word_actions.py``),
the arena's ``_Task`` (``sim/arena.py``); a frozen dataclass as its fields by name
(``frozen_reduction`` in ``engine/pickling.py``: ``Standings``, ``ArenaConfig``); a game,
a state and a match as what they are made from (``engine/pickling.py``).

**Calls.** A call through a Protocol-typed object, or of a bound method held in a local,
is a Python call; a call of a method of a compiled class, or of a module function, is a
C call, and an attribute of a compiled class is read at a fixed place in its C struct. So:
``DealCore`` is a base class, not a protocol (``StateBase`` reads ``deal.phase``: a third of
a Cangkul deal's slowdown when the deal data was first declared once, counted with
``benchmarks/compare_trees.py --instructions``); ``StateBase`` declares every method a
game overrides; ``_playout`` (``engine/playout.py``) types its state as ``StateBase``;
Cambio's ``seating`` (``games/cambio/rules.py``) is a module function that a new deal calls.

**Protocols.** A compiled class gets its decorators before it is a Protocol class, so the
protocols are made runtime-checkable by a call after the class (``engine/protocol.py``,
``engine/gameinfo.py``), which works in both builds.

**Module constants.** A module constant is ``NAME: Final = value``, one name a line:
compiled code reads a ``Final`` name from a C static (an int or a string literal becomes a
C constant), and any other module-level name from the module's dict on every use
(``tests/test_build_rules.py``).

**Ints.** mypyc keeps an int below ``2**62`` in a machine word and its operations native;
a larger one is a Python int. A Cangkul card is its bit index below 53 (a 16-bit stride
per suit put the joker at bit 64), so a hand's mask stays native (``games/cangkul/rules.py``).

**Properties.** A property that returns a callable is not called through in one expression
(``spec.make(options)``): compiled, that calls the getter with the arguments
(mypyc/mypyc#1212); ``engine/registry.py`` calls the attribute it reads
(``spec.hooks.make(options)``).

**Annotations.** Annotations are checked when a compiled function is called: an entry point
that checks its input itself (a record's ``seed``) takes ``Any``, or a wrong type raises
``TypeError`` before the coded error.

>>> build() in ("python", "mypyc"), compiled() == (build() == "mypyc")
(True, True)
>>> is_compiled_module("folkdeck/engine/protocol.py"), is_compiled_module("folkdeck/engine/facts.py")
(True, False)
"""

from __future__ import annotations

import ast
import dataclasses
import fnmatch
import random
import sys
import textwrap
from typing import Any, Final, NamedTuple, TypeVar

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


class DealField(NamedTuple):
    """One field of a deal data class, as :func:`copy_source` and :func:`init_source` read it."""

    name: str
    annotation: str
    """The annotation's source text (``list[int]``)."""
    kw_only: bool = False
    default: str | None = None
    """The source text of the default value, if any."""
    factory: str | None = None
    """The source text of the default factory (``field(default_factory=list)``), if any."""


_DEAL_CLASSES: Final[set[type]] = set()


def deal_data(cls: type[T]) -> type[T]:
    """Give the dataclass ``cls`` a ``copy()`` made from its fields (:func:`copy_source`):
    a deal's data, declared once as a plain dataclass whose annotations say what each
    field holds, and so how it is copied.

    The build hook writes the same ``copy`` (and an ``__init__``: :func:`compiled_source`)
    into the class's source before compiling it; in the pure build it is made here, when
    the class is defined.
    """
    fields = [DealField(f.name, _annotation_text(f.type), f.kw_only) for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    copied = {c.__name__ for c in _DEAL_CLASSES if c.__module__ == cls.__module__}
    namespace: dict[str, Any] = {cls.__name__: cls, "copied_random": copied_random}
    exec(copy_source(cls.__name__, fields, copied), namespace)  # noqa: S102 - our own generated text
    method = namespace["copy"]
    method.__module__ = cls.__module__
    method.__qualname__ = f"{cls.__qualname__}.copy"
    setattr(cls, "copy", method)  # noqa: B010
    _DEAL_CLASSES.add(cls)
    return cls


def _annotation_text(annotation: object) -> str:
    if not isinstance(annotation, str):
        raise TypeError(f"deal_data reads annotations as text (`from __future__ import annotations`): {annotation!r}")
    return annotation


def copied_random(rng: random.Random) -> random.Random:
    """A generator in the state of ``rng``, independent of it."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def copy_source(class_name: str, fields: list[DealField], copied: set[str]) -> str:
    """The source text of the ``copy`` method of the deal class ``class_name``: a new
    instance that shares no container with this one. What a field holds says how it is
    copied: a ``list``, ``dict`` or ``set`` is copied, and so are the containers it holds
    (``list[list[int]]``); a ``random.Random`` is copied in its state; a class named in
    ``copied`` (another :func:`deal_data` class of the module) by its ``copy()``; a value
    typed ``Any`` is copied if it is a list; anything else is immutable (an ``int``, a
    ``tuple``, a frozen dataclass) and is shared. ``X | None`` is copied as ``X``."""
    args = []
    for f in fields:
        value = _copied(ast.parse(f.annotation, mode="eval").body, f"self.{f.name}", copied, 0) or f"self.{f.name}"
        args.append(f"{f.name}={value}" if f.kw_only else value)
    body = ",\n            ".join(args)
    return (f"def copy(self) -> {class_name}:\n"
            f"    \"\"\"A copy sharing no container with this one.\"\"\"\n"
            f"    return {class_name}(\n            {body})\n")


def _copied(annotation: ast.expr, value: str, copied: set[str], depth: int) -> str | None:
    """The expression that copies ``value`` of type ``annotation``, ``None`` to share it."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        members = _union_members(annotation)
        kept = [m for m in members if not (isinstance(m, ast.Constant) and m.value is None)]
        copies = [_copied(m, value, copied, depth) for m in kept]
        if all(c is None for c in copies):
            return None
        if len(kept) != 1 or len(members) != 2:
            raise ValueError(f"deal_data copies a union only as `X | None`: {ast.unparse(annotation)}")
        return f"None if {value} is None else {copies[0]}"
    if isinstance(annotation, ast.Subscript):
        base = ast.unparse(annotation.value)
        args = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        item, key = f"x{depth}", f"k{depth}"
        if base in ("list", "set"):
            inner = _copied(args[0], item, copied, depth + 1)
            if inner is None:
                return f"{base}({value})"
            return f"[{inner} for {item} in {value}]" if base == "list" else f"{{{inner} for {item} in {value}}}"
        if base == "dict":
            inner = _copied(args[1], item, copied, depth + 1)
            return f"dict({value})" if inner is None else f"{{{key}: {inner} for {key}, {item} in {value}.items()}}"
        if any(_copied(a, item, copied, depth + 1) is not None for a in args):
            raise ValueError(f"deal_data copies no container inside a {base}: {ast.unparse(annotation)}")
        return None
    name = ast.unparse(annotation)
    if name in ("list", "dict", "set"):
        return f"{name}({value})"
    if name == "Any":
        return f"(list({value}) if isinstance({value}, list) else {value})"
    if name in ("random.Random", "Random"):
        return f"copied_random({value})"
    if name in copied:
        return f"{value}.copy()"
    return None


def _union_members(annotation: ast.expr) -> list[ast.expr]:
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _union_members(annotation.left) + _union_members(annotation.right)
    return [annotation]


def init_source(fields: list[DealField]) -> str:
    """The source text of an ``__init__`` that stores each field as given, as the one that
    :mod:`dataclasses` makes would; a field with a default factory takes ``None`` for
    "make the default"."""
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.factory is not None:
            parameter = f"{f.name}: {f.annotation} | None = None"
            factory = "[]" if f.factory == "list" else f"{f.factory}()"
            body.append(f"    self.{f.name} = {factory} if {f.name} is None else {f.name}")
        else:
            default = "" if f.default is None else f" = {f.default}"
            parameter = f"{f.name}: {f.annotation}{default}"
            body.append(f"    self.{f.name} = {f.name}")
        (keyword if f.kw_only else positional).append(parameter)
    parameters = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    return f"def __init__({parameters}) -> None:\n" + "\n".join(body) + "\n"


def clone_source(shared: tuple[str, ...]) -> str:
    """The source text of the compiled ``clone`` of a state class whose ``_shared`` is
    ``shared``: ``StateBase.clone`` with the shared parts assigned one by one.

    >>> print(clone_source(("_game", "_flow")), end="")
    def clone(self) -> Self:
        # StateBase.clone, the parts it shares written out (engine/build.py, "Clones")
        new = self._copy_deal()
        new._game = self._game
        new._flow = self._flow
        return new
    """
    body = "".join(f"    new.{name} = self.{name}\n" for name in shared)
    return ("def clone(self) -> Self:\n"
            "    # StateBase.clone, the parts it shares written out (engine/build.py, \"Clones\")\n"
            "    new = self._copy_deal()\n" + body + "    return new\n")


def _shared_names(node: ast.ClassDef) -> tuple[str, ...] | None:
    """The names a class body's ``_shared = ("_game", ...)`` gives, ``None`` without it."""
    for statement in node.body:
        target, value = ((statement.targets[0], statement.value) if isinstance(statement, ast.Assign)
                         else (statement.target, statement.value) if isinstance(statement, ast.AnnAssign)
                         else (None, None))
        if isinstance(target, ast.Name) and target.id == "_shared":
            if not (isinstance(value, ast.Tuple)
                    and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts)):
                raise ValueError(f"{node.name}._shared must be a tuple of names written out")
            return tuple(str(e.value) for e in value.elts if isinstance(e, ast.Constant))
    return None


def _defines(node: ast.ClassDef, method: str) -> bool:
    return any(isinstance(s, ast.FunctionDef) and s.name == method for s in node.body)


def compiled_source(text: str) -> str:
    """The source text of module ``text`` as the compiled build compiles it: each
    :func:`deal_data` class gets the ``copy`` that the decorator makes in the pure build
    and an ``__init__`` written out (:func:`init_source`) in place of the decorator; each
    class that declares ``_shared`` (a state) gets a ``clone`` written out (:func:`clone_source`)."""
    tree = ast.parse(text)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)
               and any(isinstance(d, ast.Name) and d.id == "deal_data" for d in node.decorator_list)]
    states = [(node, shared) for node in tree.body if isinstance(node, ast.ClassDef)
              and (shared := _shared_names(node)) and not _defines(node, "clone")]
    if not classes and not states:
        return text
    copied = {c.name for c in classes}
    lines = text.splitlines(keepends=True)
    inserts = [(node, clone_source(shared)) for node, shared in states]
    for node, methods in sorted(inserts, key=lambda i: -i[0].lineno):
        lines.insert(node.end_lineno or node.lineno, textwrap.indent("\n" + methods, "    "))
    for node in reversed(classes):  # from the end, so that the line numbers above hold
        fields = _dataclass_fields(node)
        methods = init_source(fields) + "\n" + copy_source(node.name, fields, copied)
        lines.insert(node.end_lineno or node.lineno, textwrap.indent("\n" + methods, "    "))
        for decorator in node.decorator_list:
            line = decorator.lineno - 1
            if isinstance(decorator, ast.Name) and decorator.id == "deal_data":
                lines[line] = ""
            elif _is_dataclass_call(decorator):
                assert isinstance(decorator, ast.Call) and decorator.end_lineno == decorator.lineno
                keywords = [k for k in decorator.keywords if k.arg != "init"]
                call = ast.Call(decorator.func, decorator.args, [*keywords, ast.keyword("init", ast.Constant(False))])
                end = decorator.end_col_offset
                lines[line] = lines[line][:decorator.col_offset] + ast.unparse(call) + lines[line][end:]
    if "copied_random(" in "".join(lines):
        lines.append("\nfrom folkdeck.engine.build import copied_random\n")
    if states:
        lines.append("\nfrom typing import Self\n")
    return "".join(lines)


def _is_dataclass_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dataclass"


def _dataclass_fields(node: ast.ClassDef) -> list[DealField]:
    """The fields of the ``@dataclass`` class ``node``."""
    call = next((d for d in node.decorator_list if _is_dataclass_call(d)), None)
    if not isinstance(call, ast.Call):
        raise ValueError(f"{node.name}: deal_data is for a class made with @dataclass(...)")
    kw_only = any(k.arg == "kw_only" and isinstance(k.value, ast.Constant) and k.value.value for k in call.keywords)
    fields = []
    for statement in node.body:
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        default = factory = None
        value = statement.value
        if isinstance(value, ast.Call) and ast.unparse(value.func) == "field":
            for k in value.keywords:
                if k.arg == "default_factory":
                    factory = ast.unparse(k.value)
                elif k.arg == "default":
                    default = ast.unparse(k.value)
                else:
                    raise ValueError(f"{node.name}.{statement.target.id}: deal_data reads only a default")
        elif value is not None:
            default = ast.unparse(value)
        fields.append(DealField(statement.target.id, ast.unparse(statement.annotation), kw_only, default, factory))
    return fields


__all__ = ["INTERPRETED", "DealField", "build", "clone_source", "compiled", "compiled_source", "copied_random", "copy_source",
           "deal_data", "init_source", "is_compiled_module", "python_class"]
