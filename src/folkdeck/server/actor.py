"""Each live table is one sequential actor: one task owns it and works through its inbox.

Everything that changes a table, and every look at it, is a typed message in its inbox
(:mod:`folkdeck.server.messages`), handled one at a time, to the end, by the handler of its
type (:attr:`TableActor.handlers`), inside the table's own task (:meth:`TableActor.run`).
Nothing else reads or changes the table (``tests/server/test_table_state.py``): after each
message the actor publishes a frozen :class:`~folkdeck.server.snapshot.TableSnapshot`
(:attr:`TableActor.snapshot`), which the read-only pages, the token check, the closing of
idle tables and the cluster read instead. The messages:

- the connections: :class:`~folkdeck.server.messages.Join` (limits of connections, the
  first view, the kept chat), :class:`~folkdeck.server.messages.Leave`,
  :class:`~folkdeck.server.messages.Resync`, and from the other server processes
  :class:`~folkdeck.server.messages.Presence` (their connected seats) and
  :class:`~folkdeck.server.messages.Broadcast` (their chat);
- a copy of another process's table (:mod:`folkdeck.server.copies`):
  :class:`~folkdeck.server.messages.Follow` (the owner's news: the copy is behind until it
  reads the store, at once if anyone here watches), :class:`~folkdeck.server.messages.CatchUp`
  (a page or a connection looks: read the store first), :class:`~folkdeck.server.messages.Adopt`
  (this process owns the table now: rebuilt as stored) and
  :class:`~folkdeck.server.messages.Show` (the relay was down: read the store again);
- the looks: :class:`~folkdeck.server.messages.Check`, and the searches a
  :class:`~folkdeck.server.messages.Hint` or :class:`~folkdeck.server.messages.Review` needs
  (built here from the seat's view; they run in the workers, outside the table);
- the owner's changes: :class:`~folkdeck.server.messages.Act` (a person's action or its
  resend, answered with an ``ack`` or a refusal; a resend whose ``ref`` was stored with an
  action is answered as already done, after any restart; the action is applied to a copy of
  the state, which becomes the table's once it is committed, :mod:`folkdeck.server.commits`,
  and the actor handles nothing else of its table meanwhile),
  :class:`~folkdeck.server.messages.Chat`, :class:`~folkdeck.server.messages.Rename`,
  :class:`~folkdeck.server.messages.TakeSeat`, :class:`~folkdeck.server.messages.Rematch`
  (:mod:`folkdeck.server.social`), :class:`~folkdeck.server.messages.Resume` and
  :class:`~folkdeck.server.messages.Kick`;
- its own: :class:`~folkdeck.server.messages.BotAnswer` (a bot's decision, thought out in the
  workers), :class:`~folkdeck.server.messages.Wake` (a timer) and
  :class:`~folkdeck.server.messages.Stop`.

With several server processes (:mod:`folkdeck.server.cluster`) every process has an actor
for each table it keeps, but only the table's owner *leads* (:attr:`TableActor.leading`):
it alone takes the owner's changes (elsewhere they are refused with :class:`NotOwner`, and
the table manager sends them to the owner), plans (:mod:`folkdeck.server.plans`) and tells
the others of each change. After each message a leading actor plans, then everyone here is
sent their own view if the table changed (:meth:`TableActor.tell`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.protocol import Event, Seat, State
from folkdeck.json_types import JSONObject
from folkdeck.server import copies, social
from folkdeck.server.bots import BotJob, ReviewJob
from folkdeck.server.commits import GroupCommit
from folkdeck.server.errors import ServerError, error_message
from folkdeck.server.messages import (
    Act,
    Adopt,
    BotAnswer,
    Broadcast,
    CatchUp,
    Chat,
    Check,
    Follow,
    Hint,
    Join,
    Kick,
    Leave,
    Message,
    Presence,
    Rematch,
    Rename,
    Request,
    Resume,
    Resync,
    Review,
    Reviewed,
    Show,
    Stop,
    TakeSeat,
    Verdicts,
    Wake,
)
from folkdeck.server.plans import PlanHost, Planner
from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.tables import ACKS_KEPT, Connection, Table
from folkdeck.server.turns import refuse_unless_to_act

log = logging.getLogger("folkdeck.server")

DRAIN_SECONDS = 10.0
"""How long a stopping server waits for a table to finish the message in hand."""
LOOKS = (Join, Resync, Check, Hint, Review)
"""The messages that read the table for a client: a copy behind its owner reads the store first."""
R = TypeVar("R")
Handler = Callable[[Any], Awaitable[object]]  # each takes the one message type it is filed under


class NotOwner(Exception):
    """A change for the table's owner reached an actor that does not lead (another process
    owns the table now): the asker sends it to the owner instead."""


class Host(PlanHost, social.SocialHost, Protocol):
    """What an actor needs from the server around it (the table manager)."""

    commits: GroupCommit

    def owns(self, table_id: str) -> bool: ...
    def forget(self, table_id: str) -> None: ...
    def changed(self, snapshot: TableSnapshot) -> None: ...
    def connected(self, table_id: str, conn: Connection, seats: frozenset[Seat] | None) -> None: ...
    def disconnected(self, table_id: str, conn: Connection, seats: frozenset[Seat] | None) -> None: ...


def ref_scope(seat: Seat, token_digest: str) -> str:
    """The scope of a client's ``ref``: its seat and (a prefix of) its token's hash.

    >>> ref_scope(2, "ab" * 32)
    '2/abababababababab'
    """
    return f"{seat}/{token_digest[:16]}"


class TableActor:
    """The one owner of a live table in this process (see the module docstring)."""

    def __init__(self, table: Table, host: Host) -> None:
        self.table = table
        self.host = host
        self.inbox: asyncio.Queue[tuple[Message, asyncio.Future[Any] | None]] = asyncio.Queue()
        self.plans = Planner(table, host, self.post)
        self.task: asyncio.Task[None] | None = None
        self.changed = False
        """Whether the message in hand changed what the table's views show."""
        table.now = host.clock.now
        self.snapshot: TableSnapshot = table.snapshot()
        """The table as the readers outside the actor see it, made after each message
        (:mod:`folkdeck.server.snapshot`): they never read the table itself."""
        self.behind: int | None = None
        """A copy of another process's table: the owner's deal, while the copy has not read the
        store since the owner's last change (:class:`~folkdeck.server.messages.Follow`)."""
        self.handlers: dict[type, Handler] = {
            Join: self._join, Leave: self._leave, Resync: self._resync, Presence: self._presence,
            Show: self._show, Broadcast: self._broadcast, Follow: self._follow, CatchUp: self._catch_up,
            Adopt: self._adopt, Check: self._check, Hint: self._hint, Review: self._review, Reviewed: self._reviewed,
            Act: self._act, Chat: self._chat, Rename: self._rename, TakeSeat: self._take_seat,
            Rematch: self._rematch, Resume: self._resume, Kick: self._kick, BotAnswer: self._bot_answer,
            Wake: self._wake}
        """The handler of each message type (every type of :data:`~folkdeck.server.messages.Message` but Stop)."""

    @property
    def leading(self) -> bool:
        """Whether this process owns the table (always, with one process)."""
        return self.host.owns(self.table.id)

    # --- life ------------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.table.id}")

    def post(self, message: Message) -> None:
        self.inbox.put_nowait((message, None))

    async def ask(self, message: Request[R]) -> R:
        """Post ``message`` and wait for its handler's answer (its refusal is raised here)."""
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait((message, future))  # type: ignore[arg-type]  # every Request is a Message
        return await future

    async def stop(self) -> None:
        """Drain: the messages already in the inbox are handled, then the actor stops."""
        if self.task is not None and not self.task.done():
            self.post(Stop())
            try:
                await asyncio.wait_for(asyncio.shield(self.task), DRAIN_SECONDS)
            except TimeoutError:
                log.error("table %s did not finish its message in %.0f s", self.table.id, DRAIN_SECONDS)
        self.abandon()

    def abandon(self) -> None:
        """Stop at once (a crash, or after draining): nothing more is handled or thought."""
        if self.task is not None:
            self.task.cancel()
        self.plans.forget()

    def follow(self) -> None:
        """Another process owns the table now: no timer or bot of this one runs on."""
        self.plans.forget()

    def hang_up(self) -> None:
        """Close every connection here (the server stops; the actor has stopped)."""
        for conns in self.table.conns.values():
            for conn in conns:
                conn.close()

    async def run(self) -> None:
        self._plan_and_tell()
        while True:
            message, reply = await self.inbox.get()
            if isinstance(message, Stop):
                return
            self.changed = False
            try:
                if self.behind is not None and isinstance(message, LOOKS):  # a copy: as stored first
                    await self._catch_up(CatchUp())
                result = await self.handlers[type(message)](message)
            except Exception as exc:
                if reply is None or not isinstance(exc, CardGameError | NotOwner):
                    log.exception("table %s: %s not handled", self.table.id, type(message).__name__)
                if reply is not None and not reply.done():
                    reply.set_exception(exc)
            else:
                if reply is not None and not reply.done():
                    reply.set_result(result)
            self._plan_and_tell()
            self.snapshot = self.snapshot.with_presence(*self.table.presence())

    def _plan_and_tell(self) -> None:
        changed = self.changed
        if self.leading:
            try:
                changed = self.plans.advance() or changed
            except Exception:
                log.exception("table %s: planning failed; trying again", self.table.id)
                self.plans.retry()
        if changed:
            self.tell()

    def tell(self) -> None:
        """Send every connection here its own view of the table (and, leading, tell the other
        processes, whose connections get theirs)."""
        table = self.table
        self.snapshot = table.snapshot()
        if self.leading:
            self.host.changed(self.snapshot)
        public = self.snapshot.public
        for seat, conns in table.conns.items():
            if conns:
                self.host.deliver(table, seat, conns, table.view(seat, public))

    def _send(self, seat: Seat | None, conn: Connection, message: JSONObject) -> None:
        self.host.deliver(self.table, seat, [conn], message)

    def _lead(self) -> None:
        if not self.leading:
            raise NotOwner(self.table.id)

    # --- connections -------------------------------------------------------------------------
    async def _join(self, msg: Join) -> None:
        """The others hear of a connection only when a seat becomes connected (a spectator, or
        a second tab, changes nothing they see)."""
        table, settings, seat = self.table, self.host.settings, msg.seat
        here = table.conns.get(seat, [])
        if seat is None and len(here) >= settings.max_spectators:
            raise ServerError(429, "full", "server.too_many_spectators", limit=settings.max_spectators)
        if seat is not None and len(here) >= settings.max_seat_connections:
            raise ServerError(429, "full", "server.too_many_seat_connections", limit=settings.max_seat_connections)
        taken = seat is not None and not here
        table.conns.setdefault(seat, []).append(msg.conn)
        table.last_active = self.host.clock.now()
        self.host.connected(table.id, msg.conn, table.presence()[0] if taken else None)
        if taken:
            self.tell()  # a connected person may change what the bots wait for: planned next
        else:
            self._send(seat, msg.conn, table.view(seat, table.public()))
        if table.config.get("chat"):  # what was said before this connection
            self._send(seat, msg.conn, social.chat_log(table))

    async def _leave(self, msg: Leave) -> None:
        table = self.table
        conns = table.conns.get(msg.seat, [])
        if msg.conn in conns:
            conns.remove(msg.conn)
        msg.conn.close()
        table.last_active = self.host.clock.now()
        left = msg.seat is not None and not conns
        self.host.disconnected(table.id, msg.conn, table.presence()[0] if left else None)
        self.changed = left

    async def _resync(self, msg: Resync) -> None:
        msg.conn.resync()
        self._send(msg.seat, msg.conn, self.table.view(msg.seat, self.table.public()))

    async def _presence(self, msg: Presence) -> None:
        remote = self.table.remote
        if remote.get(msg.process, frozenset()) == msg.seats:
            return
        if msg.seats:
            remote[msg.process] = msg.seats
        else:
            remote.pop(msg.process, None)
        self.changed = True  # connected seats are public, and the bots may wait for them

    async def _show(self, msg: Show) -> None:
        if not self.leading:  # a copy may have missed news: it reads the store
            self.behind = max(self.behind or 0, self.table.deal)
            await self._catch_up(CatchUp())
        self.changed = True

    async def _broadcast(self, msg: Broadcast) -> None:
        for seat, conns in self.table.conns.items():
            if conns:
                self.host.deliver(self.table, seat, conns, msg.message)

    # --- a copy of another process's table ----------------------------------------------------
    async def _follow(self, msg: Follow) -> None:
        table = self.table
        if self.leading:
            return  # news of a former owner, late
        now = table.last_active = self.host.clock.now()
        table.deadline = None if msg.deadline is None else now + msg.deadline
        table.calls = None if msg.calls is None else ((msg.calls[0], msg.calls[1]), now + msg.calls[2])
        self.behind = max(msg.deal, self.behind if self.behind is not None else 0)
        if any(table.conns.values()):
            await self._catch_up(CatchUp())
        self.changed = True  # the timers, at least

    async def _catch_up(self, msg: CatchUp) -> None:
        if self.behind is None or self.leading:
            return
        behind, self.behind = self.behind, None
        if copies.refresh(self.table, self.host.store, max(behind, self.table.deal)):
            self.changed = True
        elif not any(self.table.conns.values()):
            self.host.forget(self.table.id)  # closed: its records are the archive's now

    async def _adopt(self, msg: Adopt) -> bool:
        table, store = self.table, self.host.store
        if not copies.refresh(table, store, max(self.behind or 0, table.deal), rebuild=True):
            if not any(table.conns.values()):
                self.host.forget(table.id)  # closed
            return False
        self.behind = None
        for scope, ref, line in store.refs(table.id, ACKS_KEPT):
            table.remember_ack(scope, ref, line)
        table.deadline = table.calls = None
        table.last_active = self.host.clock.now()
        self.changed = True
        return True

    # --- looks -------------------------------------------------------------------------------
    async def _check(self, msg: Check) -> JSONObject:
        state = self.table.state
        try:
            refuse_unless_to_act(state, msg.seat)
            state.verify(state.parse_action(msg.text, msg.seat), msg.seat)
        except CardGameError as exc:
            return {"ok": False, **{k: v for k, v in exc.to_dict().items() if k in ("error", "reason", "params")}}
        return {"ok": True}

    async def _hint(self, msg: Hint) -> tuple[tuple[int, int], BotJob]:
        table, seat = self.table, msg.seat
        state = table.state
        legal = state.legal_actions(seat) if seat in state.to_act and not state.is_over() else []
        if not legal:
            raise ServerError(409, "no_hint", "server.no_hint")
        deal, actions = table.position()
        return (deal, actions), BotJob(
            game=table.game.spec.name, options=table.config["options"], bot="pimc", view=state.observe(seat),
            legal=tuple(legal), seed=f"hint/{table.id}/{deal}/{actions}/{seat}", searches=True)

    async def _review(self, msg: Review) -> tuple[int, Verdicts | ReviewJob]:
        table = self.table
        deal = msg.deal or len(table.finished)
        if not 1 <= deal <= len(table.finished):
            raise ServerError(404, "no_deal", "server.no_deal", deal=deal)
        kept = table.reviews.get((deal, msg.seat))
        if kept is not None:
            return deal, kept
        return deal, ReviewJob(game=table.game.spec.name, options=table.config["options"],
                               record=table.record(deal - 1), seat=msg.seat, seed=f"review/{table.id}/{deal}/{msg.seat}")

    async def _reviewed(self, msg: Reviewed) -> None:
        self.table.reviews[msg.deal, msg.seat] = msg.verdicts

    # --- the owner's changes --------------------------------------------------------------------
    async def _act(self, msg: Act) -> Event | str:
        self._lead()
        table = self.table
        try:
            if msg.resend and msg.ref is not None and msg.scope is not None:
                line = table.acked.get((msg.scope, msg.ref)) or self.host.store.find_ref(table.id, msg.scope, msg.ref)
                if line is not None:  # already played: the same answer again, nothing played
                    self._answer(msg, {"type": "ack", "ref": msg.ref, "line": line, "repeated": True})
                    return line
            state = table.state
            refuse_unless_to_act(state, msg.seat)
            action = state.parse_action(msg.text, msg.seat)
            after = state.clone()
            event = after.apply(action, msg.seat)
            await self._commit(after, event, msg.scope, msg.ref)
        except CardGameError as exc:
            self._answer(msg, error_message(exc, msg.ref))
            raise
        if msg.ref is not None and msg.scope is not None:
            table.remember_ack(msg.scope, msg.ref, event.line)
        self.plans.set_auto(msg.seat, False)
        self._answer(msg, {"type": "ack", "ref": msg.ref, "line": event.line})
        self.changed = True
        return event

    def _answer(self, msg: Act, message: JSONObject) -> None:
        if msg.conn is not None:
            self._send(msg.seat, msg.conn, message)

    async def _chat(self, msg: Chat) -> None:
        self._lead()
        social.chat(self.host, self.table, msg.seat, msg.text)

    async def _rename(self, msg: Rename) -> None:
        self._lead()
        social.rename(self.host, self.table, msg.seat, msg.text)
        self.changed = True

    async def _take_seat(self, msg: TakeSeat) -> tuple[Seat, str]:
        self._lead()
        taken = social.take_open_seat(self.host, self.table, msg.name)
        self.changed = True
        return taken

    async def _rematch(self, msg: Rematch) -> str:
        self._lead()
        before = self.table.config.get("rematch")
        new_id = social.rematch(self.host, self.table)
        self.changed = before != new_id
        return new_id

    async def _resume(self, msg: Resume) -> None:
        self._lead()
        self.plans.set_auto(msg.seat, False)
        self.changed = True

    async def _kick(self, msg: Kick) -> None:
        """Nothing to do but plan, as after every message."""

    # --- the actor's own ---------------------------------------------------------------------------
    async def _bot_answer(self, msg: BotAnswer) -> None:
        if not self.leading or not self.plans.bot_answered(msg):
            return
        assert msg.seat is not None and msg.action is not None  # bot_answered: a move to play
        after = self.table.state.clone()
        try:
            event = after.apply(msg.action, msg.seat)
            await self._commit(after, event, None, None)
        except CardGameError:
            log.exception("table %s: a bot's move was not played; trying again", self.table.id)
            self.plans.retry()
            return
        self.changed = True

    async def _wake(self, msg: Wake) -> None:
        if self.leading:
            self.changed = self.plans.wake(msg)

    async def _commit(self, after: State, event: Event, scope: str | None, ref: int | None) -> None:
        """Store the action just applied to ``after`` (a copy of the table's state), with the
        client's ``ref``, in the next group commit (:mod:`folkdeck.server.commits`); only then
        is ``after`` the table's state. Meanwhile the table is as it was for everyone who
        looks (a view sent, a check), so memory never runs ahead of the store."""
        table = self.table
        index = len(after.history) - 1
        try:
            await self.host.commits.append((table.id, table.deal, index, event.line, scope, ref))
        except Exception:
            log.exception("table %s: action %r not stored; not played", table.id, event.line)
            raise
        table.state = after
        table.recorder.follow(after)
        table.last_active = self.host.clock.now()
        table.finish_deal_if_over()


__all__ = ["Host", "NotOwner", "TableActor", "ref_scope"]
