"""``folkdeck bench``: random self-play deals/s and decisions/s per game, one core.

Each deal is dealt from a fresh seed and played to its end by uniformly random
legal actions through the public protocol (``legal_actions`` + ``apply``, so every
action is verified), the same loop agents and the conformance tests use.

Rates are per second of this process's CPU time (``time.process_time``): the loop is
single-threaded, so that is one core, and the figure does not drop when other
programs share the machine. Absolute figures still move with the machine (its clock,
its caches, a neighbour's memory traffic), so each run also times a **floor loop** that
has no rules at all: shuffle a 52-card pack, then make ``FLOOR_CHOICES`` random choices
among ``FLOOR_OPTIONS`` prepared actions, as a deal of random play would at the least.
Its rate is measured between the games, in the same run, and every game's figures are
also given as a multiple of it (``× floor``): those ratios compare across machines and
builds where the raw rates do not.

Each game is measured as if it ran alone: before it, what the earlier games left (their
caches of sets and facts) is collected and frozen out of the garbage collector's way
(:func:`gc.freeze`), so a full collection's pause, which grows with every object the
process holds, lands in a game's figures only for its own objects.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
from typing import NotRequired, TypedDict

from rich.console import Console
from rich.table import Table

from folkdeck.cards import FRENCH_52
from folkdeck.engine.build import build
from folkdeck.engine.playout import random_playout
from folkdeck.engine.registry import games, get_spec, load

PLAYOUT_SHARE = 0.8
"""The share of a game's time spent on whole deals; the rest times legal-move listing."""

FLOOR_CHOICES = 100
"""Random choices per floor deal: about a 4-player climbing deal's decisions."""

FLOOR_OPTIONS = 8
"""Options per floor choice: a typical legal list's length."""

FLOOR_SECONDS = 0.25
"""CPU seconds per floor measurement (one before each game and one after the last), at most;
a short run (``--seconds`` under 1) times the floor for a quarter of its time per game."""


def floor_rates(seconds: float = FLOOR_SECONDS) -> dict[str, float]:
    """Deals/s and choices/s of the no-rules floor loop, per CPU second.

    >>> rates = floor_rates(0.05)
    >>> import math
    >>> rates["deals_per_s"] > 0 and math.isclose(rates["decisions_per_s"], FLOOR_CHOICES * rates["deals_per_s"])
    True
    """
    pack = list(FRENCH_52.cards)
    actions = [tuple(pack[i:i + 2]) for i in range(FLOOR_OPTIONS)]
    rng = random.Random(12345)
    deals = 0
    start = time.process_time()
    until = start + seconds
    while deals == 0 or time.process_time() < until:
        hand = pack[:]
        rng.shuffle(hand)
        for _ in range(FLOOR_CHOICES):
            chosen = actions[rng.randrange(len(actions))]
        deals += 1
    del chosen
    elapsed = max(time.process_time() - start, 1e-9)
    return {"deals_per_s": deals / elapsed, "decisions_per_s": FLOOR_CHOICES * deals / elapsed}


class BenchRow(TypedDict):
    """One game's figures (``deals_x_floor``, ``decisions_x_floor``: once the floor is known)."""

    game: str
    players: int
    deals: int
    cpu_seconds: float
    deals_per_s: float
    decisions_per_s: float
    decisions_per_deal: float
    listing_us_mean: float
    listing_us_worst: float
    wall_seconds: float
    deals_x_floor: NotRequired[float]
    decisions_x_floor: NotRequired[float]


class Floor(TypedDict):
    deals_per_s: float
    decisions_per_s: float
    choices_per_deal: int
    spread: float


class BenchResult(TypedDict):
    build: str
    python: str
    floor: Floor
    games: list[BenchRow]


def measure(name: str, *, seconds: float, players: int | None = None) -> BenchRow:
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
            # CPU time, like the rates: a wall-clock worst case was the machine's (another
            # process preempting this one for tens of milliseconds), not the listing's.
            t0 = time.process_time()
            legal = state.legal_actions()
            took = time.process_time() - t0
            worst = max(worst, took)
            listing_time += took
            listed += 1
            state.apply(legal[rng.randrange(len(legal))])
    return {"game": name, "players": game.num_players, "deals": deals,
            "cpu_seconds": round(elapsed, 3), "deals_per_s": round(deals / elapsed, 1),
            "decisions_per_s": round(decisions / elapsed, 1),
            "decisions_per_deal": round(decisions / max(deals, 1), 1),
            "listing_us_mean": round(1e6 * listing_time / max(listed, 1), 1),
            "listing_us_worst": round(1e6 * worst, 1),
            "wall_seconds": round(time.perf_counter() - wall_start, 3)}


def run(names: list[str], *, seconds: float, players: int | None = None) -> BenchResult:
    """Every game's row plus the floor, measured between the games in one run; each row
    gains ``deals_x_floor`` and ``decisions_x_floor`` (its rate ÷ the floor's mean rate).

    >>> result = run(["kaphai"], seconds=0.2)
    >>> result["build"] in ("python", "mypyc"), result["games"][0]["decisions_x_floor"] > 0
    (True, True)
    """
    floor_seconds = min(FLOOR_SECONDS, seconds / 4)
    floors = [floor_rates(floor_seconds)]
    rows = []
    try:
        for n in names or games():
            gc.collect()
            gc.freeze()
            rows.append(measure(get_spec(n).name, seconds=seconds, players=players))
            floors.append(floor_rates(floor_seconds))
    finally:
        gc.unfreeze()
    floor = {key: sum(f[key] for f in floors) / len(floors) for key in floors[0]}
    for r in rows:
        r["deals_x_floor"] = round(r["deals_per_s"] / floor["deals_per_s"], 5)
        r["decisions_x_floor"] = round(r["decisions_per_s"] / floor["decisions_per_s"], 5)
    return {"build": build(), "python": sys.version.split()[0],
            "floor": {"deals_per_s": round(floor["deals_per_s"], 1),
                      "decisions_per_s": round(floor["decisions_per_s"], 1),
                      "choices_per_deal": FLOOR_CHOICES, "spread": round(
                          max(f["deals_per_s"] for f in floors) / min(f["deals_per_s"] for f in floors), 3)},
            "games": rows}


def bench(names: list[str], *, seconds: float, players: int | None, as_json: bool) -> int:
    result = run(names, seconds=seconds, players=players)
    if as_json:
        print(json.dumps(result, indent=2))
        return 0
    Console(width=None if sys.stdout.isatty() else 180).print(bench_table(result))
    return 0


def bench_table(result: BenchResult) -> Table:
    """The figures of :func:`run` as a table (a narrow terminal wraps its cells)."""
    floor = result["floor"]
    table = Table(title=f"folkdeck bench ({result['build']} build, Python {result['python']}): "
                        "random self-play, per CPU-second of one core",
                  caption=f"floor loop (shuffle 52 cards + {floor['choices_per_deal']} random choices, "
                          f"no rules): {floor['deals_per_s']:,.0f} deals/s, spread {floor['spread']}×")
    for col in ("game", "players", "deals", "deals/s", "× floor", "decisions/s", "× floor",
                "decisions/deal", "listing µs (mean)", "listing µs (worst)"):
        table.add_column(col, justify="right", overflow="fold")  # a narrow terminal wraps, never cuts
    for r in result["games"]:
        table.add_row(r["game"], str(r["players"]), str(r["deals"]), f"{r['deals_per_s']:,.0f}",
                      f"{r['deals_x_floor']:.4f}", f"{r['decisions_per_s']:,.0f}",
                      f"{r['decisions_x_floor']:.4f}", f"{r['decisions_per_deal']}",
                      f"{r['listing_us_mean']}", f"{r['listing_us_worst']}")
    return table
