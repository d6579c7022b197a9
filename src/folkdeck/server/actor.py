"""Each live table is one sequential actor: one task owns it and works through its inbox.

Everything that changes a table is a message in its inbox, handled one at a time, to the
end, by the table's own task (:meth:`TableActor.run`):

- :class:`PersonAction`: a person's action (or its resend), answered with an ``ack`` or a
  refusal; a resend whose ``ref`` was stored with an action (in the same transaction,
  :meth:`~folkdeck.server.store.Store.append_actions`) is answered as already done, after
  any restart. The action is applied to a copy of the state, which becomes the table's
  once the action is committed (:mod:`folkdeck.server.commits`): the owner waits for
  that, and handles nothing else of its table meanwhile;
- :class:`BotAnswer`: a bot's decision, thought out in the workers by a task that only posts
  this message (an answer for a position that has moved on is dropped);
- :class:`Wake`: a timer that fired (:mod:`folkdeck.server.clock`): the bot's delay, the
  end of the people's moment to act out of turn, the pause between deals, a person's turn
  timer, a retry after a failure;
- :class:`Call`: any other change made inside the owner (chat, renames, joins of open
  seats, the next match, a seat given to a bot), and :class:`Resume`.

After each message the actor *plans* (:meth:`TableActor.advance`): from the table as it
is, it decides what must happen next and arranges for it (a timer, a bot's thinking, the
next deal), so that no state is ever left with nobody to move it: either a person is to
act (with the turn timer if the table has one), or a message is on its way. "Deal over →
next deal" is a transition of its own, after ``deal_pause``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, overload

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.protocol import Action, Event, Seat, State
from folkdeck.json_types import JSONObject
from folkdeck.server.bots import BotJob
from folkdeck.server.clock import Clock, TimerHandle
from folkdeck.server.commits import GroupCommit
from folkdeck.server.config import Settings
from folkdeck.server.errors import error_message
from folkdeck.server.store import Store
from folkdeck.server.tables import Connection, Table
from folkdeck.server.turns import person_holds_public_right, person_may_call, refuse_unless_to_act

log = logging.getLogger("folkdeck.server")

RETRY_SECONDS = 1.0
"""After a bot's move could not be stored or its workers failed: the wait before trying again."""
DRAIN_SECONDS = 10.0
"""How long a stopping server waits for a table to finish the message in hand."""

Key = tuple[int, int, tuple[bool, ...]]
"""Where a table is, for its plans: (deal, actions so far, which seats bots play)."""
TurnKey = tuple[int, int, Seat]
"""Whose turn timer runs: (deal, actions so far, the seat on turn)."""
TimerKey = Key | TurnKey | int
"""What a timer was set for: a position, a turn, or a deal (the pause after it)."""
T = TypeVar("T")


class Host(Protocol):
    """What an actor needs from the server around it (the table manager)."""

    settings: Settings
    store: Store
    commits: GroupCommit
    clock: Clock

    def broadcast(self, table: Table) -> None: ...
    def think(self, job: BotJob) -> Awaitable[int | None]: ...
    def send(self, table: Table, seat: Seat | None, conn: Connection, message: JSONObject) -> None: ...


@dataclass(eq=False)
class PersonAction:
    seat: Seat
    text: str
    ref: int | None = None
    resend: bool = False
    scope: str | None = None
    """Whose ``ref`` it is: the seat and its token (:func:`ref_scope`); None over REST."""
    conn: Connection | None = None
    """Where the ``ack`` or the refusal goes (before the state it leads to)."""
    reply: asyncio.Future[Event | str] | None = None
    """The event played, or the stored line for a repeated ``ref``."""


@dataclass(eq=False)
class BotAnswer:
    key: Key
    seat: Seat | None = None
    action: Action = None
    """The action chosen, or None: every bot asked declined (or ``failed``)."""
    failed: bool = False


@dataclass(eq=False)
class Wake:
    kind: str
    key: TimerKey


@dataclass(eq=False)
class Resume:
    seat: Seat
    reply: asyncio.Future[None] | None = None


@dataclass(eq=False)
class Call(Generic[T]):
    fn: Callable[[], T]
    reply: asyncio.Future[T] | None = None


@dataclass(eq=False)
class Stop:
    pass


Message = PersonAction | BotAnswer | Wake | Resume | Call[Any] | Stop
"""What an inbox holds (a call of any result: its asker has the type)."""


def ref_scope(seat: Seat, token_digest: str) -> str:
    """The scope of a client's ``ref``: its seat and (a prefix of) its token's hash.

    >>> ref_scope(2, "ab" * 32)
    '2/abababababababab'
    """
    return f"{seat}/{token_digest[:16]}"


@dataclass(eq=False)
class _Marks:
    """What the actor already did at a position (a new position forgets it all)."""

    delayed: Key | None = None
    waited: Key | None = None
    asked: Key | None = None
    thinking: Key | None = None
    timers: dict[str, tuple[TimerKey, TimerHandle]] = field(default_factory=dict)


class TableActor:
    """The one owner of a live table (see the module docstring)."""

    def __init__(self, table: Table, host: Host) -> None:
        self.table = table
        self.host = host
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.marks = _Marks()
        self.task: asyncio.Task[None] | None = None
        self.thinkers: set[asyncio.Task[None]] = set()
        table.now = host.clock.now

    # --- life ------------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.table.id}")

    def post(self, message: Message) -> None:
        self.inbox.put_nowait(message)

    @overload
    async def ask(self, message: PersonAction) -> Event | str: ...
    @overload
    async def ask(self, message: Resume) -> None: ...
    @overload
    async def ask(self, message: Call[T]) -> T: ...

    async def ask(self, message: PersonAction | Resume | Call[T]) -> object:
        """Post ``message`` and wait for the owner's answer (its exception is raised here)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()  # the overloads type it
        message.reply = future
        self.post(message)
        return await future

    async def stop(self) -> None:
        """Drain: the messages already in the inbox are handled, then the owner stops."""
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
        for task in list(self.thinkers):
            task.cancel()
        for _, handle in self.marks.timers.values():
            handle.cancel()
        self.marks.timers.clear()

    async def run(self) -> None:
        self._plan_and_tell()
        while True:
            message = await self.inbox.get()
            if isinstance(message, Stop):
                return
            changed = False
            try:
                changed = await self._handle(message)
            except Exception:  # a bug: the table lives on, and the log has the trace
                log.exception("table %s: %s not handled", self.table.id, type(message).__name__)
            self._plan_and_tell(changed)

    def _plan_and_tell(self, changed: bool = False) -> None:
        try:
            changed = self.advance() or changed
        except Exception:
            log.exception("table %s: planning failed; trying again", self.table.id)
            self._at("retry", self.key(), RETRY_SECONDS)
        if changed:
            self.host.broadcast(self.table)

    # --- messages ------------------------------------------------------------------------------
    async def _handle(self, message: Message) -> bool:
        """Handle one message; True if the table changed (everyone is sent their view)."""
        if isinstance(message, PersonAction):
            return await self._person_action(message)
        if isinstance(message, BotAnswer):
            return await self._bot_answer(message)
        if isinstance(message, Wake):
            return self._wake(message)
        if isinstance(message, Resume):
            self._set_auto(message.seat, False)
            _resolve(message.reply, None)
            return True
        if isinstance(message, Call):
            try:
                result = message.fn()
            except Exception as exc:
                _fail(message.reply, exc)
                return False
            _resolve(message.reply, result)
            return False
        return False  # pragma: no cover - Stop is handled by run()

    async def _person_action(self, msg: PersonAction) -> bool:
        table = self.table
        try:
            if msg.resend and msg.ref is not None and msg.scope is not None:
                line = table.acked.get((msg.scope, msg.ref)) or self.host.store.find_ref(table.id, msg.scope, msg.ref)
                if line is not None:  # already played: the same answer again, nothing played
                    self._answer(msg, {"type": "ack", "ref": msg.ref, "line": line, "repeated": True})
                    _resolve(msg.reply, line)
                    return False
            state = table.state
            refuse_unless_to_act(state, msg.seat)
            action = state.parse_action(msg.text, msg.seat)
            after = state.clone()
            event = after.apply(action, msg.seat)
            await self._commit(after, event, msg.scope, msg.ref)
        except CardGameError as exc:
            self._answer(msg, error_message(exc, msg.ref))
            _fail(msg.reply, exc)
            return False
        if msg.ref is not None and msg.scope is not None:
            table.remember_ack(msg.scope, msg.ref, event.line)
        self._set_auto(msg.seat, False)
        self._answer(msg, {"type": "ack", "ref": msg.ref, "line": event.line})
        _resolve(msg.reply, event)
        return True

    def _answer(self, msg: PersonAction, message: JSONObject) -> None:
        if msg.conn is not None:
            self.host.send(self.table, msg.seat, msg.conn, message)

    async def _bot_answer(self, msg: BotAnswer) -> bool:
        key = self.key()
        if msg.key == self.marks.thinking:
            self.marks.thinking = None
        if msg.key != key:
            return False  # the position moved on while the bot thought: plan again
        self.marks.asked = key
        if msg.failed:
            self._at("retry", key, RETRY_SECONDS)
            return False
        if msg.seat is None:
            return False  # every bot declined its offer: the people are to act
        after = self.table.state.clone()
        try:
            event = after.apply(msg.action, msg.seat)
            await self._commit(after, event, None, None)
        except CardGameError:
            log.exception("table %s: a bot's move was not played; trying again", self.table.id)
            self._at("retry", key, RETRY_SECONDS)
            return False
        return True

    def _wake(self, msg: Wake) -> bool:
        marks, table = self.marks, self.table
        entry = marks.timers.get(msg.kind)
        if entry is not None and entry[0] == msg.key:
            del marks.timers[msg.kind]
        if msg.kind == "deal":
            return msg.key == table.deal and self._next_deal()
        if msg.kind == "turn":
            turn = self._turn_key()
            if turn is None or msg.key != turn:
                return False
            table.deadline = None
            return self._set_auto(turn[2], True)
        key = self.key()
        if msg.key != key:
            return False  # a timer of a position already left
        if msg.kind == "delay":
            marks.delayed = key
        elif msg.kind == "calls":
            marks.waited = key
            table.calls = None
        elif msg.kind == "retry":
            marks.asked = None
        return False

    # --- transitions -------------------------------------------------------------------------
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

    def _next_deal(self) -> bool:
        """Deal over → next deal (False if the deal is not over or the match is)."""
        table = self.table
        if not table.finish_deal_if_over():
            return False
        return table.start_next_deal()

    def _set_auto(self, seat: Seat, on: bool) -> bool:
        """Give a person's seat to a bot (their turn timer ran out) or back; True if it changed."""
        entry = self.table.seats[seat]
        if bool(entry.get("auto")) == on:
            return False
        if on:
            entry["auto"] = True
        else:
            entry.pop("auto", None)
        self.host.store.update_config(self.table.id, self.table.config)
        return True

    # --- planning ------------------------------------------------------------------------------
    def key(self) -> Key:
        table = self.table
        return (table.deal, len(table.state.history), tuple(table.is_bot(s) for s in range(table.num_players)))

    def _turn_key(self) -> TurnKey | None:
        table, state = self.table, self.table.state
        if not table.config.get("turn_seconds") or state.is_over() or not state.to_act:
            return None
        seat = state.to_act[0]
        return None if table.is_bot(seat) else (table.deal, len(state.history), seat)

    def advance(self) -> bool:
        """Arrange what happens next; True if the table changed meanwhile (a deal was dealt, a
        wait began that every view shows)."""
        changed = False
        for _ in range(1000):  # each round makes one transition at most
            step = self._step()
            changed = changed or step != "wait"
            if step != "moved":
                return changed
        raise RuntimeError(f"table {self.table.id}: no end to its transitions")  # pragma: no cover

    def _step(self) -> str:
        """One planning round: ``"moved"`` (a transition: plan again), ``"shown"`` (a wait
        every view shows has begun) or ``"wait"`` (a message is on its way, or a person is
        to act)."""
        table, settings, marks = self.table, self.host.settings, self.marks
        self._arm_turn_timer()
        if table.state.is_over():
            table.finish_deal_if_over()
            if table.match_over():
                return "wait"
            if settings.deal_pause <= 0:
                return "moved" if self._next_deal() else "wait"
            self._at("deal", table.deal, settings.deal_pause)
            return "wait"
        key = self.key()
        if marks.thinking == key or marks.asked == key:
            return "wait"
        if not table.bot_seats():
            return "wait"  # the people are to act
        if marks.delayed != key:
            if settings.bot_delay > 0:
                self._at("delay", key, settings.bot_delay)
                return "wait"
            marks.delayed = key
        if marks.waited != key:
            seconds = self._calls_wait()
            if seconds > 0:
                if self._at("calls", key, seconds):
                    table.calls = ((table.deal, key[1]), self.host.clock.now() + seconds)
                    return "shown"
                return "wait"
            marks.waited = key
        self._think(key, table.bot_jobs())
        return "wait"

    def _at(self, kind: str, key: TimerKey, seconds: float) -> bool:
        """A timer of ``kind`` for ``key`` (the one of another key is dropped); True if newly set."""
        timers = self.marks.timers
        entry = timers.get(kind)
        if entry is not None:
            if entry[0] == key:
                return False
            entry[1].cancel()
        timers[kind] = (key, self.host.clock.call_later(seconds, lambda: self.post(Wake(kind, key))))
        return True

    def _arm_turn_timer(self) -> None:
        key = self._turn_key()
        entry = self.marks.timers.get("turn")
        if key is None:
            if entry is not None:
                entry[1].cancel()
                del self.marks.timers["turn"]
            self.table.deadline = None
            return
        seconds = float(self.table.config["turn_seconds"])
        if self._at("turn", key, seconds):
            self.table.deadline = self.host.clock.now() + seconds

    def _calls_wait(self) -> float:
        """Before a bot on turn acts, the people's moment to act out of turn: up to
        ``window_seconds`` while a person holds a public right (Gou Ji's 先让让),
        ``call_seconds`` while a connected person may hold a hidden one for all the public
        facts tell (the OWL's cucco call: the same wait whoever holds it)."""
        if person_holds_public_right(self.table):
            return self.host.settings.window_seconds
        if person_may_call(self.table):
            return self.host.settings.call_seconds
        return 0.0

    def _think(self, key: Key, jobs: list[tuple[Seat, BotJob]]) -> None:
        self.marks.thinking = key
        task = asyncio.get_running_loop().create_task(self._ask_bots(key, jobs))
        self.thinkers.add(task)
        task.add_done_callback(self.thinkers.discard)

    async def _ask_bots(self, key: Key, jobs: list[tuple[Seat, BotJob]]) -> None:
        """Ask the bots in turn (out-of-turn offers first); post the first move, or that none came."""
        try:
            for seat, job in jobs:
                choice = await self.host.think(job)
                if choice is not None:
                    self.post(BotAnswer(key, seat, job.legal[choice]))
                    return
            self.post(BotAnswer(key))
        except Exception:
            log.exception("table %s: the bots failed; trying again", self.table.id)
            self.post(BotAnswer(key, failed=True))


def _resolve(future: asyncio.Future[T] | None, value: T) -> None:
    if future is not None and not future.done():
        future.set_result(value)


def _fail(future: asyncio.Future[T] | None, exc: BaseException) -> None:
    if future is not None and not future.done():
        future.set_exception(exc)


__all__ = ["BotAnswer", "Call", "Host", "PersonAction", "Resume", "Stop", "TableActor", "Wake",
           "ref_scope"]
