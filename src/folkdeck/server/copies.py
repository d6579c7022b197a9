"""Tables rebuilt from the store, for their actors: after a restart (:func:`reopen`), on a
process that keeps a copy of another process's table (:func:`load`, and :func:`refresh`
as the copy follows its owner: :mod:`folkdeck.server.cluster`), and a closed table for its
records (:func:`archive`).

A live table's copy is brought up to date by the table's actor only (:mod:`folkdeck.server.actor`:
the :class:`~folkdeck.server.messages.Follow`, :class:`~folkdeck.server.messages.CatchUp`
and :class:`~folkdeck.server.messages.Adopt` messages), between two of its messages, as
every change of the table is made.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.store import Store
from folkdeck.server.tables import ACKS_KEPT, Table, TableConfig

log = logging.getLogger("folkdeck.server")

KEPT = ("conns", "remote", "now", "acked", "reviews", "deadline", "calls")
"""What a rebuilt copy keeps of itself: its connections and what the store does not hold."""


def reopen(table_id: str, config: TableConfig, lines: dict[int, list[str]],
           acks: list[tuple[str, int, str]], now: Callable[[], float]) -> Table:
    """A stored open table after a restart, for its actor: as stored
    (:meth:`~folkdeck.server.tables.Table.restore`), its seats given back to their people
    from the bots their timers gave them to, with its last acknowledged ``ref``s
    (``(scope, ref, line)``, oldest first)."""
    table = Table.restore(table_id, config, lines)
    for seat in table.seats:
        seat.pop("auto", None)
    for scope, ref, line in acks:
        table.remember_ack(scope, ref, line)
    table.now = now
    table.last_active = now()
    return table


def archive(table_id: str, config: TableConfig, lines: dict[int, list[str]]) -> TableSnapshot:
    """A closed table as stored, as its snapshot (for its records: nothing changes a closed
    table, and no actor keeps it)."""
    return Table.restore(table_id, config, lines).snapshot()


def refresh(table: Table, store: Store, deal: int, *, rebuild: bool = False) -> bool:
    """Bring a copy up to date with the store, and deal on up to ``deal`` (a deal its owner
    has dealt, with no action yet); ``rebuild``: exactly as stored, nothing of the copy's
    own play kept (an adopted table, or a copy gone astray). False if the table is gone
    (closed, or no longer stored)."""
    if rebuild:
        config, closed, rows = store.load_since(table.id, 0, 0)
    else:
        config, closed, rows = store.load_since(table.id, table.deal, len(table.state.history))
    if config is None or closed:
        return False
    if rebuild:
        fresh = Table.new(table.id, config, table.now)
        fresh.catch_up(rows, deal)
        for name in (f.name for f in dataclasses.fields(Table)):
            if name not in KEPT:
                setattr(table, name, getattr(fresh, name))
    else:
        table.config = config
        try:
            table.catch_up(rows, deal)
        except RuntimeError:
            log.exception("table %s: the copy went astray; rebuilt", table.id)
            return refresh(table, store, deal, rebuild=True)
    table.last_active = table.now()
    return True


def load(table_id: str, store: Store, now: Callable[[], float], *, adopting: bool = False) -> Table | None:
    """A table as stored, for a process that did not keep it yet (a copy, or, ``adopting``,
    its new owner's, with its last ``ref``s); None if it is closed or unknown."""
    config, closed, rows = store.load_since(table_id, 0, 0)
    if config is None or closed:
        return None
    table = Table.new(table_id, config, now)
    table.catch_up(rows, 0)
    for scope, ref, line in store.refs(table_id, ACKS_KEPT) if adopting else ():
        table.remember_ack(scope, ref, line)
    return table


__all__ = ["KEPT", "archive", "load", "refresh", "reopen"]
