"""The time a table's actor reads and the timers it sets.

A timer never acts by itself: when it fires it posts a message to the table's inbox
(:mod:`folkdeck.server.actor`), so the table's one owner does whatever follows. Tests
give the actor a clock they move by hand, so no test sleeps for real.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Monotonic seconds, and callbacks after a delay (run in the event loop)."""

    def now(self) -> float: ...
    def call_later(self, seconds: float, callback: Callable[[], None]) -> TimerHandle: ...


class LoopClock:
    """The real clock: ``time.monotonic`` and the running event loop's timers."""

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, seconds: float, callback: Callable[[], None]) -> TimerHandle:
        return asyncio.get_running_loop().call_later(seconds, callback)


class _Pending:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (:meth:`advance`): timers due by then fire in order.

    >>> clock = ManualClock()
    >>> fired = []
    >>> _ = clock.call_later(2.0, lambda: fired.append("b"))
    >>> _ = clock.call_later(1.0, lambda: fired.append("a"))
    >>> clock.call_later(1.5, lambda: fired.append("x")).cancel()
    >>> clock.advance(1.6); fired
    ['a']
    >>> clock.advance(1.0); fired, clock.now()
    (['a', 'b'], 2.6)
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, _Pending, Callable[[], None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, seconds: float, callback: Callable[[], None]) -> TimerHandle:
        handle = _Pending()
        heapq.heappush(self._timers, (self._now + max(0.0, seconds), next(self._order), handle, callback))
        return handle

    def advance(self, seconds: float) -> None:
        end = self._now + seconds
        while self._timers and self._timers[0][0] <= end:
            when, _, handle, callback = heapq.heappop(self._timers)
            self._now = max(self._now, when)
            if not handle.cancelled:
                callback()
        self._now = end

    def pending(self) -> int:
        """Timers set and not cancelled."""
        return sum(not handle.cancelled for _, _, handle, _ in self._timers)


__all__ = ["Clock", "LoopClock", "ManualClock", "TimerHandle"]
