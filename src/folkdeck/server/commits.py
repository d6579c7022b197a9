"""Group commit: the actions stored together, off the event loop.

Each table's owner (:mod:`folkdeck.server.actor`) stores every action before anyone hears
of it. One transaction per action made the commit (SQLite writing its pages to the WAL
file again for each row; PostgreSQL a round trip and a flush to disk) a large part of the
server's work per action. Here the owners hand their rows in (:meth:`GroupCommit.append`)
and wait; the rows gathered meanwhile are committed together
(:meth:`~folkdeck.server.store.Store.append_actions`), and each owner goes on only once its
row is committed (or refused), so an action is still acknowledged only when it is durable,
its ``ref`` with it. A row refused fails its own owner alone.

On PostgreSQL the commit runs in a thread of its own (the driver lets go of the
interpreter while it waits), so the event loop routes other tables' messages meanwhile: a
batch there is several round trips, which the loop used to wait through (one process at
300 tables: p50 208 ms before, 17 ms after; docs/web.md). The rows that come while a batch
is being committed make the next batch, once it is done; a table has at most one row on
its way (its owner waits for it), so its rows are stored in order. A SQLite commit is a
write to a local file, cheaper than handing it to a thread and back, so it runs in the loop
as soon as the loop has run what was ready.
"""

from __future__ import annotations

import asyncio
import concurrent.futures

from folkdeck.server.store import ActionRow, Store, StoreError


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

    def __init__(self, store: Store, *, threaded: bool | None = None) -> None:
        self.store = store
        self.threaded = store.backend != "SQLite" if threaded is None else threaded
        """Whether batches are committed in a thread (default: on a database server)."""
        self._rows: list[ActionRow] = []
        self._waiting: list[asyncio.Future[None]] = []
        self._in_flight: list[asyncio.Future[None]] = []
        """The owners of the batch being committed (empty: no commit is running)."""
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None

    def append(self, row: ActionRow) -> asyncio.Future[None]:
        """Store ``row`` with the others of its batch; the future is done once it is
        committed (its exception: the :class:`~folkdeck.server.store.StoreError` that
        refused it)."""
        loop = asyncio.get_running_loop()
        if not self._rows and not self._in_flight:
            loop.call_soon(self._flush)
        future: asyncio.Future[None] = loop.create_future()
        self._rows.append(row)
        self._waiting.append(future)
        return future

    def abandon(self) -> None:
        """Forget the rows not committed yet (what a crash loses: none was acknowledged; a
        batch already handed to the database may still be stored, unacknowledged, which a
        resend of its ``ref`` then finds)."""
        for future in (*self._waiting, *self._in_flight):
            future.cancel()
        self._rows, self._waiting = [], []

    def _flush(self) -> None:
        """Hand the rows gathered so far to the commit thread (one batch at a time)."""
        if self._in_flight or not self._rows:
            return
        rows, self._in_flight = self._rows, self._waiting
        self._rows, self._waiting = [], []
        loop = asyncio.get_running_loop()
        if not self.threaded:
            done: asyncio.Future[list[StoreError | None]] = loop.create_future()
            try:
                done.set_result(self.store.append_actions(rows))
            except Exception as exc:
                done.set_exception(exc)
            self._committed(done)
            return
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="folkdeck-commit")
        loop.run_in_executor(self._thread, self.store.append_actions, rows).add_done_callback(self._committed)

    def _committed(self, done: asyncio.Future[list[StoreError | None]]) -> None:
        waiting, self._in_flight = self._in_flight, []
        try:
            outcomes: list[BaseException | None] = [*done.result()]
        except Exception as exc:  # the store closed, or a bug: every owner hears of it
            outcomes = [exc] * len(waiting)
        for future, outcome in zip(waiting, outcomes, strict=True):
            if future.done():  # its owner was stopped meanwhile
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)
        self._flush()  # the rows that came meanwhile


__all__ = ["GroupCommit"]
