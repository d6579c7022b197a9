"""What happens next at a table: its owner's plans (timers, bots' thinking, the next deal).

After every message its actor (:mod:`folkdeck.server.actor`) asks its :class:`Planner` to
*plan* (:meth:`Planner.advance`): from the table as it is, it decides what must happen next
and arranges for it (a timer, a bot's thinking, the next deal), so that no state is ever
left with nobody to move it: either a person is to act (with the turn timer if the table
has one), or a message is on its way to the actor (:class:`~folkdeck.server.messages.Wake`,
:class:`~folkdeck.server.messages.BotAnswer`). "Deal over → next deal" is a transition of
its own, after ``deal_pause``. Only the actor calls a planner, between two messages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from folkdeck.engine.protocol import Seat
from folkdeck.server.bots import BotJob
from folkdeck.server.clock import Clock, TimerHandle
from folkdeck.server.config import Settings
from folkdeck.server.messages import BotAnswer, Key, Message, TimerKey, TurnKey, Wake
from folkdeck.server.store import Store
from folkdeck.server.tables import Table
from folkdeck.server.turns import person_holds_public_right, person_may_call

log = logging.getLogger("folkdeck.server")

RETRY_SECONDS = 1.0
"""After a bot's move could not be stored or its workers failed: the wait before trying again."""


class PlanHost(Protocol):
    """What plans need from the server around the table."""

    settings: Settings
    store: Store
    clock: Clock

    def think(self, job: BotJob) -> Awaitable[int | None]: ...


@dataclass(eq=False)
class _Marks:
    """What the planner already did at a position (a new position forgets it all)."""

    delayed: Key | None = None
    waited: Key | None = None
    asked: Key | None = None
    thinking: Key | None = None
    timers: dict[str, tuple[TimerKey, TimerHandle]] = field(default_factory=dict)


class Planner:
    """One table's plans; ``post`` hands a message to the table's actor."""

    def __init__(self, table: Table, host: PlanHost, post: Callable[[Message], None]) -> None:
        self.table = table
        self.host = host
        self.post = post
        self.marks = _Marks()
        self.thinkers: set[asyncio.Task[None]] = set()

    def forget(self) -> None:
        """Drop every timer and thinking bot (the table stops, or another process owns it now)."""
        for task in list(self.thinkers):
            task.cancel()
        for _, handle in self.marks.timers.values():
            handle.cancel()
        self.marks = _Marks()

    # --- positions -----------------------------------------------------------------------------
    def key(self) -> Key:
        table = self.table
        return (table.deal, len(table.state.history), tuple(table.is_bot(s) for s in range(table.num_players)))

    def _turn_key(self) -> TurnKey | None:
        table, state = self.table, self.table.state
        if not table.config.get("turn_seconds") or state.is_over() or not state.to_act:
            return None
        seat = state.to_act[0]
        return None if table.is_bot(seat) else (table.deal, len(state.history), seat)

    # --- transitions ---------------------------------------------------------------------------
    def next_deal(self) -> bool:
        """Deal over → next deal (False if the deal is not over or the match is)."""
        table = self.table
        if not table.finish_deal_if_over():
            return False
        return table.start_next_deal()

    def set_auto(self, seat: Seat, on: bool) -> bool:
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

    # --- what the actor hears --------------------------------------------------------------------
    def bot_answered(self, msg: BotAnswer) -> bool:
        """Whether ``msg`` is a move to play now (for this position, by a bot)."""
        key = self.key()
        if msg.key == self.marks.thinking:
            self.marks.thinking = None
        if msg.key != key:
            return False  # the position moved on while the bot thought: plan again
        self.marks.asked = key
        if msg.failed:
            self.retry()
            return False
        return msg.seat is not None  # None: every bot declined its offer; the people are to act

    def retry(self) -> None:
        self._at("retry", self.key(), RETRY_SECONDS)

    def wake(self, msg: Wake) -> bool:
        """A timer fired; True if the table changed."""
        marks, table = self.marks, self.table
        entry = marks.timers.get(msg.kind)
        if entry is not None and entry[0] == msg.key:
            del marks.timers[msg.kind]
        if msg.kind == "deal":
            return msg.key == table.deal and self.next_deal()
        if msg.kind == "turn":
            turn = self._turn_key()
            if turn is None or msg.key != turn:
                return False
            table.deadline = None
            return self.set_auto(turn[2], True)
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

    # --- planning ------------------------------------------------------------------------------
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
                return "moved" if self.next_deal() else "wait"
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


__all__ = ["RETRY_SECONDS", "PlanHost", "Planner"]
