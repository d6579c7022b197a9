"""The table manager: every table in memory by id, its life, and the one way to its actor.

It rebuilds the stored tables, finds a table (:meth:`TableManager.get`), makes one
(:meth:`TableManager.create`), closes the idle ones, and routes each message for a table to
the table's actor (:mod:`folkdeck.server.actor`): this process's, or, for a change that only
the table's owner makes, the owning process's, through the cluster
(:mod:`folkdeck.server.cluster`; :meth:`TableManager.ask_owner`). What the clients ask of a
table (an action, a chat, a join, a hint...) is :mod:`folkdeck.server.requests`'s
(:attr:`TableManager.requests`), which hands it here as a typed message
(:mod:`folkdeck.server.messages`). It reads and writes no table's play itself: the actors
call back its hooks (a message for some connections, news for the other processes). Bots
think in worker processes (:mod:`folkdeck.server.bots`).

Tables nobody has used for ``table_idle_seconds`` are closed: dropped from memory and
marked closed in the store, whose rows (and so the records) stay; a closed table's
records are still given (:meth:`TableManager.archived`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable
from typing import TypeVar, cast

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.protocol import Seat
from folkdeck.json_types import JSONObject
from folkdeck.server import copies
from folkdeck.server.actor import NotOwner, TableActor
from folkdeck.server.bots import BotJob, BotPool
from folkdeck.server.clock import Clock, LoopClock
from folkdeck.server.cluster import Cluster
from folkdeck.server.commits import GroupCommit
from folkdeck.server.config import Settings
from folkdeck.server.create import deal_count, load_game, new_seats, table_config
from folkdeck.server.errors import ServerError
from folkdeck.server.limits import RateLimiter
from folkdeck.server.messages import (
    CatchUp,
    Kick,
    OwnerMessage,
    Presence,
    Request,
    Show,
)
from folkdeck.server.relay import Remote
from folkdeck.server.requests import TableRequests
from folkdeck.server.schemas import TableCreate
from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.store import Store
from folkdeck.server.tables import ACKS_KEPT, Connection, SendHook, Table

log = logging.getLogger("folkdeck.server")
R = TypeVar("R")

ARCHIVE_CACHE = 16
"""Closed tables kept rebuilt in memory for their record downloads."""


class TableManager:
    """Every live table in memory by id, with its connections, bots and timers."""

    def __init__(self, settings: Settings, store: Store, clock: Clock | None = None) -> None:
        self.settings = settings
        self.store = store
        self.commits = GroupCommit(store)
        """The actions of the tables' owners, committed together (:mod:`folkdeck.server.commits`)."""
        self.clock: Clock = clock or LoopClock()
        self.tables: dict[str, Table] = {}
        self.actors: dict[str, TableActor] = {}
        self.bots = BotPool(settings.bot_workers, settings.bot_move_seconds)
        self.creations = RateLimiter(settings.create_per_minute / 60.0, settings.create_burst)
        """Tables made, and open seats taken, per client."""
        self._archive: OrderedDict[str, TableSnapshot] = OrderedDict()
        self._reaper: asyncio.Task[None] | None = None
        self.on_send: SendHook | None = None
        """Test hook: called with every message just before it is queued."""
        self.cluster: Cluster | None = None
        """With several processes on one PostgreSQL database: this process among them
        (:mod:`folkdeck.server.cluster`); only the tables it owns have an actor here."""
        self.requests = TableRequests(self)
        """What the clients ask of a table (:mod:`folkdeck.server.requests`)."""

    # --- life cycle ---------------------------------------------------------------------
    def load(self) -> int:
        """Rebuild every stored open table; the count."""
        for table_id, config, lines in self.store.load_tables():
            try:  # a restarted table gives the seats back to their people
                table = copies.reopen(table_id, config, lines, self.store.refs(table_id, ACKS_KEPT), self.clock.now)
            except (CardGameError, RuntimeError) as exc:
                log.error("table %s cannot be restored: %s", table_id, exc)
                continue
            self.tables[table_id] = table
        return len(self.tables)

    def start(self, reap: bool = True) -> None:
        """After a (re)start: every table's owner starts (its bots play on); idle tables are
        looked for."""
        for table in self.tables.values():
            self.actor(table)
        if self.cluster is not None:
            self.cluster.start()  # adopts the tables nobody owns
        if reap:
            self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    async def stop(self) -> None:
        """Drain: each table's owner finishes the messages in hand, then stops; the bot
        workers are shut down."""
        if self._reaper is not None:
            self._reaper.cancel()
        if self.cluster is not None:
            self.cluster.draining = True  # requests of other processes: ask the next owner
        stopped = list(self.actors.values())
        await asyncio.gather(*(actor.stop() for actor in stopped))
        self.actors.clear()
        if self.cluster is not None:
            await self.cluster.release()
            self.cluster.close()
        for actor in stopped:
            actor.hang_up()
        await asyncio.to_thread(self.bots.shutdown, True)  # a search in hand may take a while

    def abandon(self) -> None:
        """Stop at once, handling nothing more (what a crash leaves: tests of restarts)."""
        if self._reaper is not None:
            self._reaper.cancel()
        for actor in self.actors.values():
            actor.abandon()
        self.actors.clear()
        self.commits.abandon()
        if self.cluster is not None:
            self.cluster.close()

    # --- tables ---------------------------------------------------------------------------
    def create(self, req: TableCreate, client: str = "") -> tuple[Table, list[str], str]:
        """A new table; returns it with the seat tokens (empty for bots and open seats) and
        the spectator token. An ``"open"`` seat is a person's seat that anyone may take from
        the list of open tables (:mod:`folkdeck.server.social`).

        :raises ServerError: the client creates too fast, or the server is full.
        :raises InvalidConfigError: for a bad game, option, bot, seat list, deal count or seed.
        """
        if client:
            self.creations.check(client)
        if len(self.tables) >= self.settings.max_tables:
            raise ServerError(503, "full", "server.full")
        game = load_game(req)
        deals = deal_count(req, game)
        seats = new_seats(req, game.spec, game.num_players)
        watch = secrets.token_urlsafe(18)
        return self.add(table_config(req, game, deals, seats, watch)), seats.tokens, watch

    def add(self, config: JSONObject) -> Table:
        """A new table from its configuration: stored, then dealt and driven."""
        if len(self.tables) >= self.settings.max_tables:
            raise ServerError(503, "full", "server.full")
        table_id = secrets.token_urlsafe(9)
        table = Table.new(table_id, config, self.clock.now)
        self.store.create_table(table_id, config)
        if self.cluster is not None:
            self.cluster.claim(table)  # before its actor starts: it leads from its first plan
        self.keep(table)
        return table

    def get(self, table_id: str) -> Table | None:
        if self.cluster is not None:
            return self.cluster.lookup(table_id)
        return self.tables.get(table_id)

    def snapshot(self, table: Table) -> TableSnapshot:
        """The table as its actor last published it (:mod:`folkdeck.server.snapshot`)."""
        return self.actor(table).snapshot

    async def look(self, table_id: str, *, closed: bool = False) -> TableSnapshot:
        """A table for a page that shows it: a copy of another process's table brought up to
        date with the store first; ``closed``: a closed table too (for its records).

        :raises ServerError: ``no_table`` (404).
        """
        table = self.get(table_id)
        found = None
        if table is not None:
            actor = self.actor(table)
            if not self.owns(table_id):
                await actor.ask(CatchUp())
            found = actor.snapshot
        elif closed:
            found = self.archived(table_id)
        if found is None:
            raise ServerError(404, "no_table", "server.no_table", table=table_id)
        return found

    async def open_tables(self) -> list[TableSnapshot]:
        """The tables with a seat anyone may take, newest first (a copy brought up to date)."""
        found = []
        for listed in [actor.snapshot for actor in reversed(self.actors.values())]:
            if listed.open_seats and not self.owns(listed.id):
                try:
                    listed = await self.look(listed.id)
                except ServerError:  # closed meanwhile
                    continue
            found.append(listed)
        return found

    def archived(self, table_id: str) -> TableSnapshot | None:
        """A closed table rebuilt from the store, as a snapshot (for its records); None if unknown."""
        if table_id in self._archive:
            self._archive.move_to_end(table_id)
            return self._archive[table_id]
        stored = self.store.load_table(table_id)
        if stored is None:
            return None
        try:
            closed = copies.archive(table_id, *stored)
        except (CardGameError, RuntimeError) as exc:
            log.error("closed table %s cannot be restored: %s", table_id, exc)
            return None
        self._archive[table_id] = closed
        while len(self._archive) > ARCHIVE_CACHE:
            self._archive.popitem(last=False)
        return closed

    # --- expiry -----------------------------------------------------------------------------
    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.reap_seconds)
            try:
                self.reap()
            except Exception:  # the store may be down: try again next time
                log.exception("closing idle tables failed")

    def reap(self, now: float | None = None) -> list[str]:
        """Close the tables idle for ``table_idle_seconds`` with nobody connected; their ids."""
        now = self.clock.now() if now is None else now
        closed = []
        for table_id, actor in list(self.actors.items()):
            idle = actor.snapshot.idle_since()
            if idle is None or now - idle < self.settings.table_idle_seconds:
                continue
            if self.cluster is None or self.cluster.owns(table_id):  # another owner closes its own
                self.store.close_table(table_id)
            if self.cluster is not None:
                self.cluster.owned.discard(table_id)
            self.forget(table_id)
            closed.append(table_id)
        if closed:
            log.info("closed %d idle tables", len(closed))
        return closed

    # --- the tables' actors -------------------------------------------------------------------
    def actor(self, table: Table) -> TableActor:
        """The table's actor in this process, started with it (:mod:`folkdeck.server.actor`)."""
        actor = self.actors.get(table.id)
        if actor is None:
            actor = self.actors[table.id] = TableActor(table, self)
            actor.start()
        return actor

    def keep(self, table: Table) -> None:
        """A table now in memory, with its actor."""
        self.tables[table.id] = table
        self.actor(table)

    def forget(self, table_id: str) -> None:
        """A table no longer in memory: its actor stops at once."""
        self.tables.pop(table_id, None)
        actor = self.actors.pop(table_id, None)
        if actor is not None:
            actor.abandon()

    def owns(self, table_id: str) -> bool:
        """Whether this process owns the table (its actor leads)."""
        return self.cluster is None or self.cluster.owns(table_id)

    def kick(self, table_id: str) -> None:
        """Ask the table's owner to look again at what must happen next (a seat was given to
        a bot from outside, or the table adopted: :class:`~folkdeck.server.messages.Kick`)."""
        actor = self.actors.get(table_id)
        if actor is not None and self.owns(table_id):
            actor.post(Kick())

    def show(self, table_id: str) -> None:
        """A copy may have missed its owner's news: it reads the store and sends everyone here
        their view (:class:`~folkdeck.server.messages.Show`)."""
        actor = self.actors.get(table_id)
        if actor is not None:
            actor.post(Show())

    def presence(self, table_id: str, process: int, seats: frozenset[Seat]) -> None:
        """The seats connected to another process (:class:`~folkdeck.server.messages.Presence`)."""
        actor = self.actors.get(table_id)
        if actor is not None:
            actor.post(Presence(process, seats))

    async def perform(self, table_id: str, message: OwnerMessage) -> object:
        """On the table's owner: handle a message another process sent.

        :raises NotOwner: this process does not own the table (any more)."""
        actor = self.actors.get(table_id)
        if actor is None:
            raise NotOwner(table_id)
        return await actor.ask(message)

    async def ask_owner(self, table: Table, message: Request[R]) -> R | Remote:
        """The owner's answer to ``message``: this process's actor, or the owning process's
        (sent by the cluster: its answer as JSON)."""
        while True:
            if self.owns(table.id):
                try:
                    return await self.actor(table).ask(message)
                except NotOwner:
                    continue  # another process adopted the table meanwhile
            assert self.cluster is not None  # one process owns every table
            answer = await self.cluster.forward(table, cast("OwnerMessage", message))
            if not isinstance(answer, Remote):
                message = cast("Request[R]", answer)  # this process owns it now: handled here, as rewritten
                continue
            return answer

    # --- the hosts' hooks (what actors need of the server) ------------------------------------
    def think(self, job: BotJob) -> Awaitable[int | None]:
        """A bot's decision, from the workers (tests put their own bots here)."""
        return self.bots.think(job)

    def deliver(self, table: Table, seat: Seat | None, conns: list[Connection], message: JSONObject) -> None:
        if self.on_send is not None:
            self.on_send(table, seat, message)
        for conn in conns:
            conn.push(message)

    def changed(self, snapshot: TableSnapshot) -> None:
        if self.cluster is not None:
            self.cluster.changed(snapshot)

    def tell_others(self, table: Table, message: JSONObject) -> None:
        if self.cluster is not None:
            self.cluster.relay.publish({"k": "out", "p": self.cluster.me, "t": table.id, "m": message})

    def connected(self, table_id: str, conn: Connection, seats: frozenset[Seat] | None) -> None:
        if self.cluster is not None:
            self.cluster.register(conn)
            if seats is not None:  # a seat newly connected: the seats connected here now
                self.cluster.presence(table_id, seats)

    def disconnected(self, table_id: str, conn: Connection, seats: frozenset[Seat] | None) -> None:
        if self.cluster is not None:
            self.cluster.unregister(conn)
            if seats is not None:  # a seat no longer connected: the seats connected here now
                self.cluster.presence(table_id, seats)


__all__ = ["TableManager"]
