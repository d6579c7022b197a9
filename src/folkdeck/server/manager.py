"""The table manager: every live table by id, its owner, its connections and expiry.

FastAPI's ``ConnectionManager`` idea, grown up: it binds websockets to seats, hands every
change of a table to the table's one owner (:class:`~folkdeck.server.actor.TableActor`,
which applies actions, commits each one before acknowledging it, with the other tables'
actions of the moment (:mod:`folkdeck.server.commits`), and drives the bots, timers and
deals), and sends **each connection its own ``observe(seat)``** after every
event (spectators ``observe(None)``). Bots think in worker processes
(:mod:`folkdeck.server.bots`).

Tables nobody has used for ``table_idle_seconds`` are closed: dropped from memory and
marked closed in the store, whose rows (and so the records) stay; a closed table's
records are still given (:meth:`TableManager.archived`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, Unpack, cast

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.protocol import Event, Seat
from folkdeck.json_types import JSONObject, JSONValue
from folkdeck.server import social
from folkdeck.server.actor import Call, PersonAction, Resume, TableActor
from folkdeck.server.bots import BotJob, BotPool, ReviewJob
from folkdeck.server.clock import Clock, LoopClock
from folkdeck.server.cluster import Cluster
from folkdeck.server.commits import GroupCommit
from folkdeck.server.config import Settings
from folkdeck.server.create import deal_count, load_game, new_seats, table_config
from folkdeck.server.errors import ServerError
from folkdeck.server.limits import RateLimiter
from folkdeck.server.relay import Played, RequestArgs
from folkdeck.server.schemas import TableCreate
from folkdeck.server.store import Store
from folkdeck.server.tables import ACKS_KEPT, Connection, SendHook, Table, token_hash
from folkdeck.server.turns import refuse_unless_to_act

log = logging.getLogger("folkdeck.server")
T = TypeVar("T")

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
        self.actions = RateLimiter(settings.actions_per_second, settings.actions_burst)
        self.chats = RateLimiter(settings.chat_per_second, settings.chat_burst)
        self.client_connections: Counter[str] = Counter()
        self._archive: OrderedDict[str, Table] = OrderedDict()
        self._reaper: asyncio.Task[None] | None = None
        self.on_send: SendHook | None = None
        """Test hook: called with every message just before it is queued."""
        self.cluster: Cluster | None = None
        """With several processes on one PostgreSQL database: this process among them
        (:mod:`folkdeck.server.cluster`); only the tables it owns have an actor here."""

    # --- life cycle ---------------------------------------------------------------------
    def load(self) -> int:
        """Rebuild every stored open table; the count."""
        for table_id, config, lines in self.store.load_tables():
            try:
                table = Table.restore(table_id, config, lines)
            except (CardGameError, RuntimeError) as exc:
                log.error("table %s cannot be restored: %s", table_id, exc)
                continue
            for seat in table.seats:
                seat.pop("auto", None)  # a restarted table gives the seats back to their people
            for scope, ref, line in self.store.refs(table_id, ACKS_KEPT):
                table.remember_ack(scope, ref, line)
            table.now = self.clock.now
            table.last_active = self.clock.now()
            self.tables[table_id] = table
        return len(self.tables)

    def start(self, reap: bool = True) -> None:
        """After a (re)start: every table's owner starts (its bots play on); idle tables are
        looked for."""
        if self.cluster is not None:
            self.cluster.start()  # adopts the tables nobody owns
        else:
            for table in self.tables.values():
                self.actor(table)
        if reap:
            self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    async def stop(self) -> None:
        """Drain: each table's owner finishes the messages in hand, then stops; the bot
        workers are shut down."""
        if self._reaper is not None:
            self._reaper.cancel()
        if self.cluster is not None:
            self.cluster.draining = True  # requests of other processes: ask the next owner
        await asyncio.gather(*(actor.stop() for actor in self.actors.values()))
        self.actors.clear()
        if self.cluster is not None:
            await self.cluster.release()
            self.cluster.close()
        for table in self.tables.values():
            for conns in table.conns.values():
                for conn in conns:
                    conn.close()
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
        table = Table.new(table_id, config)
        table.now = self.clock.now
        table.last_active = self.clock.now()
        self.store.create_table(table_id, config)
        self.tables[table_id] = table
        if self.cluster is not None:
            self.cluster.claim(table)
        else:
            self.actor(table)
        return table

    def get(self, table_id: str) -> Table | None:
        if self.cluster is not None:
            return self.cluster.lookup(table_id)
        return self.tables.get(table_id)

    def archived(self, table_id: str) -> Table | None:
        """A live table, or a closed one rebuilt from the store (for its records); None if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self._archive:
            self._archive.move_to_end(table_id)
            return self._archive[table_id]
        stored = self.store.load_table(table_id)
        if stored is None:
            return None
        try:
            table = Table.restore(table_id, *stored)
        except (CardGameError, RuntimeError) as exc:
            log.error("closed table %s cannot be restored: %s", table_id, exc)
            return None
        self._archive[table_id] = table
        while len(self._archive) > ARCHIVE_CACHE:
            self._archive.popitem(last=False)
        return table

    def seat_of(self, table: Table, token: str) -> int:
        """The seat a token opens (``-1`` for the spectator token).

        :raises ServerError: ``bad_token`` (403) for any other token.
        """
        digest = token_hash(token)
        for i, seat in enumerate(table.seats):
            if seat["token"] is not None and secrets.compare_digest(seat["token"], digest):
                return i
        if secrets.compare_digest(table.config["watch"], digest):
            return -1
        raise ServerError(403, "bad_token", "server.bad_token")

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
        for table_id, table in list(self.tables.items()):
            if any(table.conns.values()) or table.remote or now - table.last_active < self.settings.table_idle_seconds:
                continue
            if self.cluster is None or self.cluster.owns(table_id):  # another owner closes its own
                self.store.close_table(table_id)
            if self.cluster is not None:
                self.cluster.owned.discard(table_id)
            actor = self.actors.pop(table_id, None)
            if actor is not None:
                actor.abandon()
            del self.tables[table_id]
            closed.append(table_id)
        if closed:
            log.info("closed %d idle tables", len(closed))
        return closed

    # --- connections ------------------------------------------------------------------------
    def join(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        """Add a connection; it is sent its view. The others hear of it only when a seat
        becomes connected (a spectator, or a second tab, changes nothing they see).

        :raises ServerError: a limit of connections is reached.
        """
        here = table.conns.get(seat, [])
        if seat is None and len(here) >= self.settings.max_spectators:
            raise ServerError(429, "full", "server.too_many_spectators", limit=self.settings.max_spectators)
        if seat is not None and len(here) >= self.settings.max_seat_connections:
            raise ServerError(429, "full", "server.too_many_seat_connections",
                              limit=self.settings.max_seat_connections)
        if conn.client and self.client_connections[conn.client] >= self.settings.max_client_connections:
            raise ServerError(429, "full", "server.too_many_connections",
                              limit=self.settings.max_client_connections)
        if conn.client:
            self.client_connections[conn.client] += 1
        newly = seat is not None and not here
        table.conns.setdefault(seat, []).append(conn)
        table.last_active = self.clock.now()
        if self.cluster is not None:
            self.cluster.register(conn)
            if newly:
                self.cluster.presence(table)
        if newly:
            self.broadcast(table)
            self.kick(table)  # a connected person may change what the bots wait for
        else:
            self.send(table, seat, conn, table.view(seat, table.public()))

    def leave(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        conns = table.conns.get(seat, [])
        if conn in conns:
            conns.remove(conn)
            if conn.client:
                self.client_connections[conn.client] -= 1
                if self.client_connections[conn.client] <= 0:
                    del self.client_connections[conn.client]
        conn.close()
        table.last_active = self.clock.now()
        if self.cluster is not None:
            self.cluster.unregister(conn)
            if seat is not None and not conns:
                self.cluster.presence(table)
        if seat is not None and not conns:
            self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of the current position (and, on
        the table's owner, tell the other processes, whose clients get theirs)."""
        if self.cluster is not None and self.cluster.owns(table.id):
            self.cluster.changed(table)
        if not any(table.conns.values()):
            return  # nobody listens (a table of bots): build nothing
        public = table.public()
        for seat, conns in table.conns.items():
            if not conns:
                continue
            message = table.view(seat, public)
            if self.on_send is not None:
                self.on_send(table, seat, message)
            for conn in conns:
                conn.push(message)

    def send(self, table: Table, seat: Seat | None, conn: Connection, message: JSONObject) -> None:
        if self.on_send is not None:
            self.on_send(table, seat, message)
        conn.push(message)

    # --- the tables' owners -------------------------------------------------------------------
    def actor(self, table: Table) -> TableActor:
        """The table's owner, started with it (:mod:`folkdeck.server.actor`)."""
        actor = self.actors.get(table.id)
        if actor is None:
            if self.cluster is not None and not self.cluster.owns(table.id):
                raise RuntimeError(f"table {table.id} is owned by another process")
            actor = self.actors[table.id] = TableActor(table, self)
            actor.start()
        return actor

    def think(self, job: BotJob) -> Awaitable[int | None]:
        """A bot's decision, from the workers (tests put their own bots here)."""
        return self.bots.think(job)

    def kick(self, table: Table) -> None:
        """Ask the table's owner to look again at what must happen next (a seat was given to
        a bot, a person connected): a message like any other."""
        if self.cluster is None or self.cluster.owns(table.id):
            self.actor(table).post(Call(lambda: None))

    async def call(self, table: Table, fn: Callable[[], T]) -> T:
        """Run ``fn`` inside the table's owner (a change between two of its messages)."""
        result: T = await self.actor(table).ask(Call(fn))
        return result

    # --- actions ---------------------------------------------------------------------------------
    async def act(self, table: Table, seat: Seat, text: str, client: str = "", *, ref: int | None = None,
                  resend: bool = False, scope: str | None = None,
                  conn: Connection | None = None) -> Event | Played | str:
        """Apply a person's action; it is committed (with its ``ref``) before this returns.
        Returns the event, or the stored line when ``resend`` repeats a ``ref`` already played.

        :raises CardGameError: the engine's refusal (nothing changed), or ``rate_limited``.
        """
        if client:
            self.actions.check(client)
        args: RequestArgs = {"seat": seat, "text": text, "ref": ref, "resend": resend, "scope": scope}
        if self.cluster is not None and not self.cluster.owns(table.id):
            return await self.cluster.forward_action(table, args, conn)
        return await self.perform_action(table, args, conn)

    async def operate(self, table: Table, op: str, client: str = "", **args: Unpack[RequestArgs]) -> Any:
        """A change that the table's owner makes (here, or in another process): ``chat``
        (seat, text), ``rename`` (seat, text), ``take_seat`` (name: the seat and its token),
        ``rematch`` (the next match's id), ``resume`` (seat).

        Its answer is JSON (what crossed from another process, :meth:`perform`), typed
        left untyped for the routes, which unpack it as the operation's own result."""
        if self.cluster is None or self.cluster.owns(table.id):
            return await self.perform(table, op, args, client)
        limiter = {"chat": self.chats, "take_seat": self.creations}.get(op)
        if limiter is not None and client:
            limiter.check(client)
        return await self.cluster.forward(table, op, args)

    async def perform_action(self, table: Table, args: RequestArgs, conn: Connection | None = None) -> Event | str:
        """On the table's owner: a person's action (see :meth:`act`)."""
        played: Event | str = await self.actor(table).ask(
            PersonAction(args["seat"], args["text"], ref=args.get("ref"), resend=bool(args.get("resend")),
                         scope=args.get("scope"), conn=conn))
        return played

    async def perform(self, table: Table, op: str, args: RequestArgs, client: str = "") -> JSONValue:
        """On the table's owner: do ``op`` (see :meth:`operate`) for ``client`` (its rate
        limits; a request of another process was checked there)."""
        if op == "resume":
            await self.actor(table).ask(Resume(args["seat"]))
            return None
        if op == "chat":
            await self.call(table, lambda: social.chat(self, table, args["seat"], args["text"], client=client))
        elif op == "rename":
            await self.call(table, lambda: social.rename(self, table, args["seat"], args["text"]))
        elif op == "take_seat":
            seat, token = await self.call(table, lambda: social.take_open_seat(self, table, args["name"], client=client))
            return [seat, token]
        elif op == "rematch":
            return (await self.call(table, lambda: social.rematch(self, table))).id
        else:
            raise ValueError(f"unknown operation {op!r}")
        return None

    def check(self, table: Table, seat: Seat, text: str, client: str = "") -> JSONObject:
        """Whether ``seat`` could play ``text`` now, without playing it: ``{"ok": True}``, or
        ``{"ok": False}`` with the refusal's code, reason and parameters (the same as playing
        it would give). Rate-limited as actions are; the state is never changed.

        :raises CardGameError: ``rate_limited`` only.
        """
        if client:
            self.actions.check(client)
        state = table.state
        try:
            refuse_unless_to_act(state, seat)
            state.verify(state.parse_action(text, seat), seat)
        except CardGameError as exc:
            return {"ok": False, **{k: v for k, v in exc.to_dict().items() if k in ("error", "reason", "params")}}
        return {"ok": True}

    async def hint(self, table: Table, seat: Seat, client: str = "") -> JSONObject:
        """What the ``pimc`` search bot would play for ``seat`` now, and the values it found
        (:func:`folkdeck.agents.advice.advise`), computed in the search workers from the
        seat's own view: ``{"type": "hint", "position": [deal, actions], "action", "by",
        "values"}``. Rate-limited as actions are.

        :raises ServerError: ``no_hint`` (409) when the seat has nothing to decide, or the
            search took too long.
        """
        if client:
            self.actions.check(client)
        state = table.state
        legal = state.legal_actions(seat) if seat in state.to_act and not state.is_over() else []
        if not legal:
            raise ServerError(409, "no_hint", "server.no_hint")
        deal, actions = table.position()
        job = BotJob(game=table.game.spec.name, options=table.config["options"], bot="pimc",
                     view=state.observe(seat), legal=tuple(legal), seed=f"hint/{table.id}/{deal}/{actions}/{seat}",
                     searches=True)
        advice = await self.bots.advise(job)
        if advice is None:
            raise ServerError(409, "no_hint", "server.hint_slow")
        # the search's advice is JSON made by folkdeck.agents.advice (typed there as plain dicts)
        return {"type": "hint", "position": [deal + 1, actions], **cast("JSONObject", advice)}

    async def review(self, table: Table, seat: Seat, deal: int, client: str = "") -> JSONObject:
        """The search bot's review of ``seat``'s decisions in finished deal ``deal`` (1-based):
        ``{"type": "review", "deal", "verdicts": [...]}`` (:func:`folkdeck.agents.advice.review`),
        computed once per seat and deal in the search workers.

        :raises ServerError: ``no_deal`` (404) for a deal that is not finished here.
        """
        if client:
            self.actions.check(client)
        if not 1 <= deal <= len(table.finished):
            raise ServerError(404, "no_deal", "server.no_deal", deal=deal)
        key = (deal, seat)
        verdicts = table.reviews.get(key)
        if verdicts is None:
            job = ReviewJob(game=table.game.spec.name, options=table.config["options"],
                            record=table.record(deal - 1), seat=seat, seed=f"review/{table.id}/{deal}/{seat}")
            verdicts = await self.bots.review(job)
            if verdicts is None:
                raise ServerError(409, "no_hint", "server.hint_slow")
            table.reviews[key] = verdicts
        return {"type": "review", "deal": deal, "verdicts": cast("list[JSONValue]", [*verdicts])}

    async def resume(self, table: Table, seat: Seat) -> None:
        """A person takes their seat back from the bot that the timer gave it to."""
        await self.operate(table, "resume", seat=seat)


__all__ = ["TableManager"]
