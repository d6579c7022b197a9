"""A mypy plugin: no module but the table's actor's own reads or writes a table's state.

mypy knows the type of every expression, so this check is exact where a grep is not: it
is called for every attribute of a :class:`folkdeck.server.tables.Table` that a module
reads, writes or calls, and refuses each outside :data:`ACTOR_MODULES` (the table's own
module, its actor, and what the actor hands its messages to) and the tests. A table's
:attr:`~folkdeck.server.tables.Table.id`, fixed for its life, is the one attribute anyone
may read: it is how the table manager (and :mod:`folkdeck.server.requests`, the players'
requests) find the table's actor. Used by
``tests/server/test_table_state.py`` (mypy is run with it there, on ``folkdeck.server``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath

from mypy.plugin import AttributeContext, MethodContext, Plugin
from mypy.types import Instance, Type

TABLE = "folkdeck.server.tables.Table."
ACTOR_MODULES = frozenset({"tables.py", "actor.py", "plans.py", "social.py", "turns.py", "copies.py"})
"""The files of ``folkdeck/server`` that make up the table's actor: the table itself, the
actor, and the modules its handlers call (the plans, the social changes, the turns' rules, a
copy's catch-up)."""
OPEN = frozenset({"id"})
"""What anyone may read of a table."""
MESSAGE = "Table.{name} {what} outside the table's actor (read its snapshot, or send its actor a message)"


def _outside(path: str) -> bool:
    parts = PurePath(path).parts
    if "tests" in parts:
        return False
    return not (parts[-2:-1] == ("server",) and parts[-1] in ACTOR_MODULES)


def _attribute(name: str) -> Callable[[AttributeContext], Type]:
    def check(ctx: AttributeContext) -> Type:
        if _outside(ctx.api.path):
            ctx.api.fail(MESSAGE.format(name=name, what="written" if ctx.is_lvalue else "read"), ctx.context)
        return ctx.default_attr_type

    return check


def _method(name: str) -> Callable[[MethodContext], Type]:
    def check(ctx: MethodContext) -> Type:
        # a table's own instance (not the class: Table.new and the others make tables)
        if isinstance(ctx.type, Instance) and _outside(ctx.api.path):
            ctx.api.fail(MESSAGE.format(name=name, what="called"), ctx.context)
        return ctx.default_return_type

    return check


class TableState(Plugin):
    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        name = fullname.removeprefix(TABLE)
        return _attribute(name) if fullname.startswith(TABLE) and name not in OPEN else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return _method(fullname.removeprefix(TABLE)) if fullname.startswith(TABLE) else None


def plugin(version: str) -> type[Plugin]:
    return TableState
