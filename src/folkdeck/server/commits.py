"""Group commit: the actions of one turn of the event loop are stored in one transaction.

Each table's owner (:mod:`folkdeck.server.actor`) stores every action before anyone hears
of it. One transaction per action made the commit (SQLite writing its pages to the WAL
file again for each row; PostgreSQL a round trip and a flush to disk) a large part of the
server's work per action. Here the owners hand their rows in (:meth:`GroupCommit.append`)
and wait; once the event loop has run what was ready, the rows gathered meanwhile are
committed together (:meth:`~folkdeck.server.store.Store.append_actions`), and each owner
goes on only once its row is committed (or refused), so an action is still acknowledged
only when it is durable, its ``ref`` with it. A row refused fails its own owner alone.
"""

from __future__ import annotations

import asyncio

from folkdeck.server.store import ActionRow, Store


class GroupCommit:
    """Rows waiting for the next commit, with the owners waiting for them.

    >>> import asyncio
    >>> from folkdeck.server.store import open_store
    >>> store = open_store(":memory:")
    >>> store.create_table("t", {})
    >>> async def two_rows() -> None:
    ...     commits = GroupCommit(store)
    ...     await asyncio.gather(commits.append(("t", 0, 0, "0: 4C", None, None)),
    ...                          commits.append(("t", 0, 1, "1: 5C", "1/ab", 7)))
    >>> asyncio.run(two_rows())
    >>> store.load_tables()
    [('t', {}, {0: ['0: 4C', '1: 5C']})]
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rows: list[ActionRow] = []
        self._waiting: list[asyncio.Future[None]] = []

    def append(self, row: ActionRow) -> asyncio.Future[None]:
        """Store ``row`` with the others of this turn of the loop; the future is done once it
        is committed (its exception: the :class:`~folkdeck.server.store.StoreError` that
        refused it)."""
        loop = asyncio.get_running_loop()
        if not self._rows:
            loop.call_soon(self.flush)
        future: asyncio.Future[None] = loop.create_future()
        self._rows.append(row)
        self._waiting.append(future)
        return future

    def abandon(self) -> None:
        """Forget the rows not committed yet (what a crash loses: none was acknowledged)."""
        for future in self._waiting:
            future.cancel()
        self._rows, self._waiting = [], []

    def flush(self) -> None:
        """Commit the rows gathered so far (the event loop calls it once per batch)."""
        rows, waiting = self._rows, self._waiting
        self._rows, self._waiting = [], []
        if not rows:
            return
        try:
            outcomes: list[BaseException | None] = [*self.store.append_actions(rows)]
        except Exception as exc:  # the store closed, or a bug: every owner hears of it
            outcomes = [exc] * len(rows)
        for future, outcome in zip(waiting, outcomes, strict=True):
            if future.done():  # its owner was stopped meanwhile
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)


__all__ = ["GroupCommit"]
