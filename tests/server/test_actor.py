"""The table's actor under random interleavings (Hypothesis's stateful testing,
``hypothesis.stateful.RuleBasedStateMachine``): people's actions and resends, bots that
answer late or never (a restart drops them), timers on a clock moved by hand (nothing
sleeps), connections coming and going, and restarts (a new manager loaded from the same
SQLite file). After every step every acknowledged move is stored exactly once and the
table in memory is the stored one; at the end every match is played to its end."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, cast

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from folkdeck.engine.errors import CardGameError
from folkdeck.server.actor import ref_scope
from folkdeck.server.bots import BotJob, think
from folkdeck.server.clock import ManualClock
from folkdeck.server.manager import TableManager
from folkdeck.server.schemas import SeatIn, TableCreate
from folkdeck.server.store import open_store
from folkdeck.server.tables import Connection, Table
from tests.server.conftest import make_settings

# Games with a short deal, one with people's out-of-turn calls (Cambio's cucco,
# docs/rules/cambio.md §4.3); two and four seats; people and bots mixed.
TABLES = [("kaphai", 2, ("human", "bot")), ("kaphai", 4, ("human", "bot", "human", "bot")),
          ("cangkul", 3, ("human", "bot", "bot")), ("cangkul", 3, ("human", "human", "human")),
          ("cambio", 4, ("bot", "human", "bot", "human"))]


class Listener(Connection):
    """A connection that keeps what it is sent (no socket, no queue limit)."""

    def __init__(self) -> None:
        super().__init__(lambda text: None, 8)
        self.messages: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="folkdeck-actor-"))
        self.db = self.folder / "t.sqlite3"
        self.loop = asyncio.new_event_loop()
        self.clock = ManualClock()
        self.settings = make_settings(self.db, bot_delay=0.5, deal_pause=1.0, window_seconds=0.5,
                                      call_seconds=0.5, bot_workers=0)
        self.pending: list[tuple[BotJob, asyncio.Future[int | None]]] = []
        self.sent: list[tuple[int, int, str]] = []
        """(seat, ref, action) of every action sent."""
        self.acked: dict[tuple[str, int], str] = {}
        self.failures: list[str] = []
        self.tasks: list[asyncio.Task[Any]] = []
        self.listeners: dict[int, Listener] = {}
        self.next_ref = 1
        self.manager = self._manager()

    # --- plumbing ----------------------------------------------------------------------------
    def _manager(self) -> TableManager:
        manager = TableManager(self.settings, open_store(str(self.db)), self.clock)
        manager.think = self._think  # type: ignore[method-assign]
        return manager

    def _think(self, job: BotJob) -> asyncio.Future[int | None]:
        future: asyncio.Future[int | None] = self.loop.create_future()
        self.pending.append((job, future))
        return future

    def _run(self) -> None:
        async def spin() -> None:
            for _ in range(30):
                await asyncio.sleep(0)

        self.loop.run_until_complete(spin())

    @property
    def table(self) -> Table:
        return self.manager.tables[self.table_id]

    def _scope(self, seat: int) -> str:
        return ref_scope(seat, self.table.seats[seat]["token"])

    def _send(self, seat: int, ref: int, action: str, resend: bool) -> None:
        async def act() -> None:
            try:
                answer = await self.manager.requests.act(self.table, seat, action, ref=ref, resend=resend,
                                                         scope=self._scope(seat))
            except CardGameError:
                return  # refused (not this seat's turn any more): nothing played
            line = answer if isinstance(answer, str) else answer.line
            if self.acked.setdefault((self._scope(seat), ref), line) != line:
                self.failures.append(f"ref {ref} answered {line!r}, first {self.acked[self._scope(seat), ref]!r}")

        task = self.loop.create_task(act())
        def failed(t: asyncio.Task[None]) -> None:
            if not t.cancelled() and t.exception():
                self.failures.append(repr(t.exception()))

        task.add_done_callback(failed)
        self.tasks.append(task)
        self._run()

    # --- rules --------------------------------------------------------------------------------
    @initialize(choice=st.sampled_from(TABLES), seed=st.integers(0, 40), turn=st.sampled_from([0, 4]))
    def create_table(self, choice: tuple[str, int, tuple[str, ...]], seed: int, turn: int) -> None:
        game, players, kinds = choice
        self.people = [s for s, kind in enumerate(kinds) if kind == "human"]
        request = TableCreate(game=game, players=players, deals=2, practice=True, seed=seed, turn_seconds=turn,
                              seats=[SeatIn(kind=cast(Any, kind), bot="random" if kind == "bot" else None)
                                     for kind in kinds])

        async def create() -> None:
            table, _, _ = self.manager.create(request)
            self.table_id = table.id

        self.loop.run_until_complete(create())
        self._run()

    @rule(person=st.integers(0, 3), pick=st.integers(0, 1000))
    def person_acts(self, person: int, pick: int) -> None:
        seat = self.people[person % len(self.people)]
        state = self.table.state
        legal = state.legal_actions(seat) if seat in state.to_act and not state.is_over() else []
        action = str(legal[pick % len(legal)]) if legal else "pass"
        ref = self.next_ref
        self.next_ref += 1
        self.sent.append((seat, ref, action))
        self._send(seat, ref, action, resend=False)

    @rule(which=st.integers(0, 1000))
    def resend(self, which: int) -> None:
        if self.sent:
            seat, ref, action = self.sent[which % len(self.sent)]
            self._send(seat, ref, action, resend=True)

    @rule()
    def restart_and_resend_the_last(self) -> None:
        """The crash cut the ack off: the page reconnects to the new process and resends."""
        if self.sent:
            self.restart()
            seat, ref, action = self.sent[-1]
            self._send(seat, ref, action, resend=True)

    @rule(which=st.integers(0, 1000))
    def a_bot_answers(self, which: int) -> None:
        if self.pending:
            job, future = self.pending.pop(which % len(self.pending))
            if not future.done():
                future.set_result(think(job))
            self._run()

    @rule(seconds=st.sampled_from([0.1, 0.5, 1.0, 5.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self._run()

    @rule(person=st.integers(0, 3))
    def connect_or_leave(self, person: int) -> None:
        seat = self.people[person % len(self.people)]
        listener = self.listeners.pop(seat, None)
        if listener is None:
            self.listeners[seat] = Listener()
            self.loop.run_until_complete(self.manager.requests.join(self.table, seat, self.listeners[seat]))
        else:
            self.manager.requests.leave(self.table, seat, listener)
        self._run()

    @rule()
    def restart(self) -> None:
        """The process dies (nothing more handled, nothing drained) and a new one loads the
        tables from the same database."""
        self.manager.abandon()
        self.manager.store.close()
        for task in self.tasks:
            task.cancel()
        self.pending.clear()
        self.listeners.clear()
        self._run()
        self.manager = self._manager()
        assert self.manager.load() == 1
        self.loop.run_until_complete(self._start())
        self._run()

    async def _start(self) -> None:
        self.manager.start(reap=False)

    # --- what must hold -------------------------------------------------------------------------
    @invariant()
    def every_acknowledged_move_is_stored_once(self) -> None:
        assert not self.failures, self.failures
        with sqlite3.connect(self.db) as conn:
            rows = conn.execute("SELECT ref_scope, ref, line FROM fd_actions WHERE ref IS NOT NULL").fetchall()
            stored = [line for (line,) in conn.execute(
                "SELECT line FROM fd_actions WHERE deal = ? ORDER BY idx", (self.table.deal,))]
        keys = [(scope, ref) for scope, ref, _ in rows]
        assert len(keys) == len(set(keys)), "a ref stored twice"
        by_key = {(scope, ref): line for scope, ref, line in rows}
        for key, line in self.acked.items():
            assert by_key.get(key) == line, (key, line)
        table = self.table
        assert stored == [e.line for e in table.state.history]  # memory is the store

    def teardown(self) -> None:
        try:
            if hasattr(self, "table_id"):
                self._play_to_the_end()
        finally:
            self.manager.abandon()
            self.manager.store.close()
            for task in self.tasks:
                task.cancel()
            self._run()
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    def _play_to_the_end(self) -> None:
        for _ in range(3000):
            if self.table.match_over():
                self.every_acknowledged_move_is_stored_once()
                return
            while self.pending:
                self.a_bot_answers(0)
            state = self.table.state
            person = next((s for s in state.to_act if s in self.people), None) if not state.is_over() else None
            if person is not None and not self.table.is_bot(person):
                self.person_acts(self.people.index(person), 0)
            self.time_passes(1.0)
        raise AssertionError("the match did not end: a state was left with nobody to move it")


TableMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=25, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_the_actor_never_loses_doubles_or_freezes = TableMachine.TestCase


def test_a_resend_after_a_restart_is_answered_as_done() -> None:
    """Cangkul (docs/rules/cangkul.md): a seat with nothing to follow draws, and may have to
    draw again. Its draw was acknowledged, the process died, and the page resent the draw to
    the new process: it is answered as done, not drawn twice (issue 24: practice seed 0 gave
    ``['1: JD', '2: draw', '2: draw']``)."""
    machine = TableMachine()
    try:
        machine.create_table(("cangkul", 4, ("human",) * 4), 0, 0)
        for _ in range(300):
            state = machine.table.state
            seat = state.to_act[0]
            legal = [str(a) for a in state.legal_actions(seat)]
            if legal == ["draw"]:
                probe = state.clone()
                probe.apply(state.legal_actions(seat)[0], seat)
                if probe.to_act[0] == seat and [str(a) for a in probe.legal_actions(seat)] == ["draw"]:
                    break
            machine.person_acts(machine.people.index(seat), 0)
        else:
            raise AssertionError("no seat had to draw twice")
        machine.person_acts(machine.people.index(seat), 0)
        played = [e.line for e in machine.table.state.history]
        assert played[-1] == f"{seat}: draw" and (machine._scope(seat), machine.sent[-1][1]) in machine.acked
        machine.restart_and_resend_the_last()
        assert [e.line for e in machine.table.state.history] == played
        machine.every_acknowledged_move_is_stored_once()
    finally:
        machine.teardown()
