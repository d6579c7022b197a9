"""``folkdeck bench``: random self-play deals/s and decisions/s per game, one core.

Each deal is dealt from a fresh seed and played to its end by uniformly random
legal actions through the public protocol (``legal_actions`` + ``apply``, so every
action is verified), the same loop agents and the conformance tests use.

Rates are per second of this process's CPU time (``time.process_time``): the loop is
single-threaded, so that is one core, and the figure does not drop when other
programs share the machine.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from folkdeck.engine.registry import games, get_spec, load
from folkdeck.sim.runner import random_playout

PLAYOUT_SHARE = 0.8
"""The share of a game's time spent on whole deals; the rest times legal-move listing."""


def measure(name: str, *, seconds: float, players: int | None = None) -> dict[str, Any]:
    """Play random deals of ``name`` for about ``seconds`` of wall time in all; return the
    rates (per CPU-second: the loop is single-threaded, so other programs on the machine
    lengthen the run but do not change the figures).

    >>> row = measure("kaphai", seconds=0.2)
    >>> row["game"], row["deals"] > 0, row["wall_seconds"] < 1.0
    ('kaphai', True, True)
    """
    options = {"players": players} if players is not None else {}
    game = load(name, None, **options)
    rng = random.Random(12345)
    wall_start = time.perf_counter()
    playouts_until = wall_start + PLAYOUT_SHARE * seconds
    deals = decisions = 0
    start = time.process_time()
    while deals == 0 or time.perf_counter() < playouts_until:
        state = game.new_state(seed=deals)
        decisions += random_playout(state, rng)
        deals += 1
    elapsed = max(time.process_time() - start, 1e-9)
    # Legal-move listing alone, at every position of as many deals as the time left allows.
    listing_until = wall_start + seconds
    listed = 0
    listing_time = worst = 0.0
    seed = 10_000
    while listed == 0 or time.perf_counter() < listing_until:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_over() and (listed == 0 or time.perf_counter() < listing_until):
            t0, t = time.process_time(), time.perf_counter()
            legal = state.legal_actions()
            worst = max(worst, time.perf_counter() - t)
            listing_time += time.process_time() - t0
            listed += 1
            state.apply(legal[rng.randrange(len(legal))])
    return {"game": name, "players": game.num_players, "deals": deals,
            "cpu_seconds": round(elapsed, 3), "deals_per_s": round(deals / elapsed, 1),
            "decisions_per_s": round(decisions / elapsed, 1),
            "decisions_per_deal": round(decisions / max(deals, 1), 1),
            "listing_us_mean": round(1e6 * listing_time / max(listed, 1), 1),
            "listing_us_worst": round(1e6 * worst, 1),
            "wall_seconds": round(time.perf_counter() - wall_start, 3)}


def bench(names: list[str], *, seconds: float, players: int | None, as_json: bool) -> int:
    rows = [measure(get_spec(n).name, seconds=seconds, players=players) for n in (names or games())]
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    table = Table(title="folkdeck bench: random self-play, per CPU-second of one core")
    for col in ("game", "players", "deals", "deals/s", "decisions/s", "decisions/deal",
                "listing µs (mean)", "listing µs (worst)"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(r["game"], str(r["players"]), str(r["deals"]), f"{r['deals_per_s']:,.0f}",
                      f"{r['decisions_per_s']:,.0f}", f"{r['decisions_per_deal']}",
                      f"{r['listing_us_mean']}", f"{r['listing_us_worst']}")
    Console(width=None if sys.stdout.isatty() else 160).print(table)
    return 0
