"""Bots think in worker processes; the event loop only routes messages.

A bot's move is a :class:`BotJob`: the table's game and options (public rules), the bot's
name, the seat's view and legal actions, and the seed of its randomness. A worker builds
the game from the options (cached), a fresh bot bound to it, and answers with the index
of the chosen action, so nothing but public rules and the seat's own view crosses, and
the same job always gives the same answer (bots are reproducible from the position).

:class:`BotPool` keeps two bounded :class:`~concurrent.futures.ProcessPoolExecutor`
lanes: ``Settings.bot_workers`` processes for the bots that search, and one for the
quick bots (greedy, heuristic...), so that a quick bot never waits behind a search of
another table. A quick bot whose moves all proved cheap (:class:`Pace`: each under
:data:`QUICK_CPU_SECONDS` of the worker's CPU, :data:`PROVEN_MOVES` in a row) thinks in the
event loop instead: sending a move to a worker (the view pickled there, the answer back,
the executor's threads woken) costs the server far more CPU than such a bot's whole
thought; a move in the loop that takes more than :data:`SLOW_CPU_SECONDS` sends the bot
back to the workers, to prove itself again over twice as many moves. Workers are started by a fork server that has imported folkdeck once,
run at a lower priority than the server, die with it on any signal
(:mod:`folkdeck.server.watchdog`), and are replaced after
:data:`TASKS_PER_WORKER` moves so that no leak grows. A bot's CPU per move is
bounded by its level (search bots count rollouts, not seconds); a worker that does not
answer within ``bot_move_seconds`` is not waited for: the seat plays its first legal
action, and the log says so. With ``bot_workers=0`` bots think in one thread of the
server process (tests, tiny machines).

>>> import folkdeck
>>> name = folkdeck.games()[0]
>>> state = folkdeck.load(name).new_state(seed=3)
>>> seat = state.current_seat
>>> job = BotJob(game=name, options={}, bot="first", view=state.observe(seat),
...              legal=state.legal_actions(seat), seed="demo")
>>> think(job)
0
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from folkdeck.server import watchdog

if TYPE_CHECKING:  # the workers import the engine when they first think
    from folkdeck.engine.protocol import Action, Game
    from folkdeck.engine.record import Record
    from folkdeck.engine.view import View

log = logging.getLogger("folkdeck.server")
T = TypeVar("T")
Args = TypeVarTuple("Args")

TASKS_PER_WORKER = 2000
"""Moves a worker makes before a fresh one replaces it."""
SEARCH_NICE = 15
"""How much lower the search workers' CPU priority is than the server's: routing messages
always wins the CPU over a search (a move takes a little longer when the machine is busy)."""
QUICK_NICE = 2
"""The quick bots' workers: a little below the server, well above the searches."""
QUICK_CPU_SECONDS = 0.001
"""A quick bot whose moves each took less CPU than this in the workers may think in the
event loop (:class:`Pace`)."""
PROVEN_MOVES = 32
"""Moves in a row under :data:`QUICK_CPU_SECONDS` before a quick bot thinks in the loop."""
SLOW_CPU_SECONDS = 0.005
"""A move in the event loop that took more CPU than this sends its bot back to the workers."""
MOST_PROVEN_MOVES = 1 << 16


@dataclass(frozen=True, slots=True)
class BotJob:
    """One decision of one bot (see the module docstring)."""

    game: str
    options: Mapping[str, object]
    bot: str
    view: View
    legal: Sequence[Action]
    seed: str
    interrupt: bool = False
    """An out-of-turn offer: the bot may decline (the answer is then ``None``)."""
    searches: bool = False
    """A bot that searches (its ``searches`` attribute): it thinks in the search workers, so that
    the quick bots of other tables never wait behind it."""


@lru_cache(maxsize=64)
def _game(name: str, options: str) -> Game:
    import folkdeck

    return folkdeck.load(name, **json.loads(options))


def think(job: BotJob) -> int | None:
    """The index in ``job.legal`` of the bot's choice (``None``: an interrupt declined)."""
    from folkdeck.agents import make_agent

    game = _game(job.game, json.dumps(dict(job.options), sort_keys=True))
    agent = make_agent(game.spec, job.bot, game=game)
    rng = random.Random(job.seed)
    legal = list(job.legal)
    if job.interrupt:  # asked only of a bot with ``interrupt`` (Table.bot_seats)
        interrupt = getattr(agent, "interrupt", None)
        action = interrupt(job.view, legal, rng) if interrupt is not None else None
        if action is None:
            return None
    else:
        action = agent.act(job.view, legal, rng)
    if action in legal:
        return legal.index(action)
    text = str(action)
    for index, candidate in enumerate(legal):
        if str(candidate) == text:
            return index
    raise ValueError(f"bot {job.bot!r} chose {text!r}, which is not legal")


def timed_think(job: BotJob) -> tuple[int | None, float]:
    """:func:`think`, with the CPU seconds it took (the thread's: a busy machine does not count)."""
    start = time.thread_time()
    choice = think(job)
    return choice, time.thread_time() - start


class Pace:
    """Whether one quick bot of one game thinks in the event loop: after ``needed`` moves
    in a row under :data:`QUICK_CPU_SECONDS` each (measured in the workers), until a move
    in the loop takes more than :data:`SLOW_CPU_SECONDS` (then twice as many are needed).

    >>> pace = Pace()
    >>> for _ in range(PROVEN_MOVES):
    ...     pace.worker_move(0.0002)
    >>> pace.in_loop
    True
    >>> pace.loop_move(0.02); pace.in_loop, pace.needed == 2 * PROVEN_MOVES
    (False, True)
    """

    __slots__ = ("quick", "needed")

    def __init__(self) -> None:
        self.quick = 0
        self.needed = PROVEN_MOVES

    @property
    def in_loop(self) -> bool:
        return self.quick >= self.needed

    def worker_move(self, cpu_seconds: float) -> None:
        self.quick = self.quick + 1 if cpu_seconds < QUICK_CPU_SECONDS else 0

    def loop_move(self, cpu_seconds: float) -> None:
        if cpu_seconds > SLOW_CPU_SECONDS:
            self.quick = 0
            self.needed = min(2 * self.needed, MOST_PROVEN_MOVES)


def advise_job(job: BotJob) -> dict[str, object]:
    """A hint for the seat of ``job`` (:func:`folkdeck.agents.advice.advise`) as JSON data."""
    from folkdeck.agents.advice import HINT_SECONDS, advise

    game = _game(job.game, json.dumps(dict(job.options), sort_keys=True))
    return advise(game, job.view, list(job.legal), random.Random(job.seed), time_limit=HINT_SECONDS).to_dict()


@dataclass(frozen=True, slots=True)
class ReviewJob:
    """The review of one seat's decisions in a finished deal (its record)."""

    game: str
    options: Mapping[str, object]
    record: Record
    seat: int
    seed: str


def review_job(job: ReviewJob) -> list[dict[str, object]]:
    """:func:`folkdeck.agents.advice.review` of the seat's decisions, as JSON data."""
    from folkdeck.agents.advice import decisions, review

    game = _game(job.game, json.dumps(dict(job.options), sort_keys=True))
    return [v.to_dict() for v in review(game, decisions(job.record, job.seat), random.Random(job.seed))]


def _start_worker(nice: int, server: int) -> None:
    try:
        os.nice(nice)
    except OSError:  # pragma: no cover - not allowed here: same priority then
        pass
    watchdog.die_with_parent()  # the fork server, which ends with the server
    watchdog.watch(server)  # and the server itself, whatever kills it


class BotPool:
    """The worker processes (or threads) the bots think in; created at the first move."""

    QUICK_WORKERS = 1

    def __init__(self, workers: int, timeout: float) -> None:
        self.workers = workers
        self.timeout = timeout
        self._lanes: dict[bool, concurrent.futures.Executor] = {}
        self._paces: dict[tuple[str, str], Pace] = {}
        """The quick bots' :class:`Pace` by (game, bot)."""

    def _pool(self, searches: bool) -> concurrent.futures.Executor:
        lane = self._lanes.get(searches)
        if lane is None:
            count = max(1, self.workers) if searches else self.QUICK_WORKERS
            if self.workers == 0:
                lane = concurrent.futures.ThreadPoolExecutor(count, thread_name_prefix="folkdeck-bot")
            else:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["folkdeck", "folkdeck.agents", "folkdeck.server.bots",
                                                "folkdeck.server.watchdog"])
                lane = concurrent.futures.ProcessPoolExecutor(
                    count, mp_context=context, initializer=_start_worker,
                    initargs=(SEARCH_NICE if searches else QUICK_NICE, os.getpid()),
                    max_tasks_per_child=TASKS_PER_WORKER)
            self._lanes[searches] = lane
        return lane

    @property
    def started(self) -> bool:
        return bool(self._lanes)

    async def think(self, job: BotJob) -> int | None:
        """The bot's choice; its first legal action (or no interrupt) if it takes too long.

        A quick bot that proved cheap thinks here, in the event loop (:class:`Pace`)."""
        pace = None
        if not job.searches:
            pace = self._paces.get((job.game, job.bot))
            if pace is None:
                pace = self._paces[job.game, job.bot] = Pace()
            if pace.in_loop:
                start = time.thread_time()
                try:
                    return think(job)
                finally:
                    pace.loop_move(time.thread_time() - start)
        return await self._think_in_worker(job, pace)

    async def _think_in_worker(self, job: BotJob, pace: Pace | None) -> int | None:
        """The bot's choice from the workers (its CPU time told to the quick bot's ``pace``)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            future = loop.run_in_executor(self._pool(job.searches), timed_think, job)
            try:
                choice, cpu_seconds = await asyncio.wait_for(future, self.timeout)
                if pace is not None:
                    pace.worker_move(cpu_seconds)
                return choice
            except TimeoutError:
                log.warning("bot %s (%s) gave no move in %.1f s: it plays its first legal action",
                            job.bot, job.game, self.timeout)
                if pace is not None:
                    pace.worker_move(self.timeout)  # no proof of a quick bot
                return None if job.interrupt else 0
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh once
                log.error("a bot worker died; starting the bot workers again")
                self.shutdown()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def advise(self, job: BotJob) -> dict[str, object] | None:
        """A hint (:func:`advise_job`) from the search workers; ``None`` if it takes too long."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._pool(True), advise_job, job), self.timeout)
        except TimeoutError:
            log.warning("a hint (%s) took more than %.1f s", job.game, self.timeout)
            return None

    async def review(self, job: ReviewJob) -> list[dict[str, object]] | None:
        """A deal's review (:func:`review_job`) from the search workers; ``None`` if too slow."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._pool(True), review_job, job),
                                          max(self.timeout, 120.0))
        except TimeoutError:
            log.warning("a review (%s) took too long", job.game)
            return None

    async def run(self, fn: Callable[[*Args], T], *args: *Args, timeout: float) -> T | None:
        """``fn(*args)`` in the search workers (a replay: CPU work off the event loop);
        ``None`` if it takes more than ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._pool(True), fn, *args), timeout)
        except TimeoutError:
            log.warning("%s took more than %.1f s", getattr(fn, "__name__", "a job"), timeout)
            return None

    def shutdown(self, wait: bool = False) -> None:
        """Stop the workers; the moves queued for them are cancelled. ``wait=False``: at once
        (a broken pool, replaced at the next move). ``wait=True`` (the server's drain): until
        the workers have ended and each pool has freed its queues, whose semaphores are
        otherwise never unlinked when the process then ends on its signal (the resource
        tracker reports them as leaked, hiding a real leak)."""
        lanes, self._lanes = self._lanes, {}
        for lane in lanes.values():
            lane.shutdown(wait=wait, cancel_futures=True)


__all__ = ["BotJob", "BotPool", "Pace", "ReviewJob", "advise_job", "review_job", "think", "timed_think"]
