"""Where arena work runs: in this process, a local process pool, or a Ray cluster.

Every backend runs the same pure function on the same arguments and hands the
results back in submission order, so a seeded arena gives identical results
whichever backend ran it. ``on_done(i)`` is called with the index of each task as it
finishes (progress bars).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Final, TypeVar

from folkdeck.engine.errors import InvalidConfigError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS: Final = ("process", "ray")


def default_jobs() -> int:
    """The CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover (not Linux)
        return max(1, os.cpu_count() or 1)


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], *, jobs: int = 1, backend: str = "process",
              address: str | None = None,
              on_done: Callable[[int], None] | None = None, start_method: str | None = None) -> list[R]:
    """``[fn(t) for t in tasks]``, computed by ``backend`` with ``jobs`` workers.

    ``backend="process"`` with ``jobs=1`` runs in this process (no pickling); its workers
    start by ``start_method`` (``multiprocessing``'s: ``None`` is the platform's default;
    ``"forkserver"`` for a caller that has started threads a fork would not copy, such as
    JAX's). ``"ray"``
    connects to ``address`` (a running cluster) or starts a local Ray with ``jobs`` CPUs.

    :raises InvalidConfigError: for an unknown backend, or Ray not installed.
    """
    if backend == "process":
        if jobs <= 1 or len(tasks) <= 1:
            out = []
            for i, t in enumerate(tasks):
                out.append(fn(t))
                if on_done is not None:
                    on_done(i)
            return out
        return _pool(fn, tasks, jobs, on_done, start_method)
    if backend == "ray":
        return _ray(fn, tasks, jobs, address, on_done)
    raise InvalidConfigError("unknown_backend", option="backend", backend=str(backend)[:40],
                             backends=", ".join(BACKENDS))


def _pool(fn: Callable[[T], R], tasks: Sequence[T], jobs: int,
          on_done: Callable[[int], None] | None, start_method: str | None) -> list[R]:
    results: dict[int, R] = {}
    context = multiprocessing.get_context(start_method) if start_method else None
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        index: dict[Future[R], int] = {pool.submit(fn, t): i for i, t in enumerate(tasks)}
        pending = set(index)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                results[index[f]] = f.result()
                if on_done is not None:
                    on_done(index[f])
    return [results[i] for i in range(len(tasks))]


def _ray(fn: Callable[[T], R], tasks: Sequence[T], jobs: int, address: str | None,
         on_done: Callable[[int], None] | None) -> list[R]:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]  # the arena extra
    except ImportError as exc:
        raise InvalidConfigError("needs_extra", option="backend", feature="ray backend", module="ray",
                                 extra="arena") from exc
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
    try:
        remote: Any = ray.remote(_apply)  # ray is untyped
        shared = ray.put(fn)
        refs = [remote.remote(shared, t) for t in tasks]
        index = {ref: i for i, ref in enumerate(refs)}
        results: dict[int, R] = {}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results[index[ref]] = ray.get(ref)
                if on_done is not None:
                    on_done(index[ref])
        return [results[i] for i in range(len(tasks))]
    finally:
        if started:
            ray.shutdown()


def _apply(fn: Callable[[T], R], task: T) -> R:
    """Ray's unit of work (``ray.remote`` takes functions, not callable objects)."""
    return fn(task)


__all__ = ["BACKENDS", "default_jobs", "run_tasks"]
