"""``folkdeck loadtest``: simulated players over WebSockets on loopback (a benchmark, not a test).

Starts ``folkdeck serve`` in a subprocess on 127.0.0.1 with a fresh SQLite file (and the
per-client limits raised: every simulated player comes from one address), creates N
tables (one simulated person and bots at each), and has every person play whenever it
is their turn after a random think time. Reports actions per second and the action
round trip (send → committed ack) at the 50th and 99th percentiles.

The bot mode (``--bot-tables 0 5 20``) measures what thinking bots cost the server: it
adds that many tables whose every seat is a search bot (``--bot``, default
``search:strong``) playing without pause, beside a few tables of simulated people
(``--tables``), while a poller asks ``GET /api/games`` every 50 ms. It reports the p50
and p99 of the people's action round trips and of ``GET /api/games``, and the bot moves
made. Bounded: at most 1000 tables, 100 bot tables, 120 seconds per run; loopback only.

``python -m folkdeck.server.loadtest --help`` takes the same arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypedDict

from folkdeck.json_types import JSONObject
from folkdeck.server import delta

if TYPE_CHECKING:
    import httpx

LoadRow: TypeAlias = "dict[str, float | str | None]"
"""One run's figures (tables, actions, latencies...), as printed and written."""


class _SeatLink(TypedDict):
    token: str


class _Created(TypedDict):
    """The part of ``POST /api/tables``'s answer a load test reads."""

    id: str
    seats: list[_SeatLink]

MAX_TABLES = 1000
MAX_BOT_TABLES = 100
MAX_SECONDS = 120.0
POLL_SECONDS = 0.05
UNLIMITED = {  # every simulated client is 127.0.0.1: lift the per-client limits for the benchmark
    "FOLKDECK_CREATE_BURST": "100000", "FOLKDECK_ACTIONS_BURST": "100000",
    "FOLKDECK_REQUESTS_BURST": "100000", "FOLKDECK_REQUESTS_PER_SECOND": "100000",
    "FOLKDECK_ACTIONS_PER_SECOND": "100000", "FOLKDECK_MAX_CLIENT_CONNECTIONS": "100000",
}


def add_arguments(load: argparse.ArgumentParser) -> None:
    """The ``loadtest`` arguments (``folkdeck loadtest`` and ``python -m`` share them)."""
    load.add_argument("--tables", type=int, nargs="*", default=[50, 200, 500],
                      help="concurrent tables of people per run (default 50 200 500; at most 1000)")
    load.add_argument("--seconds", type=float, default=20.0, help="measured seconds per run (at most 120)")
    load.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks (default 1)")
    load.add_argument("--game", default=None, help="the game (default: the first the registry lists)")
    load.add_argument("--bot-tables", type=int, nargs="*", default=None,
                      help="bot mode: runs with this many all-bot tables each (e.g. 0 5 20)")
    load.add_argument("--bot", default="search:strong", help="the bot of the bot tables (default search:strong)")
    load.add_argument("--json", action="store_true", help="print JSON")


def _pick(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2)


async def _player(url: str, stop: float, think: float, rtts: list[float], rng: random.Random) -> None:
    import websockets

    async with websockets.connect(url, max_size=2**20) as ws:
        sent: dict[int, float] = {}
        view: JSONObject = {}
        ref = 0
        pending = False
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(text)
            if msg["type"] == "ack":
                rtts.append(time.perf_counter() - sent.pop(msg["ref"]))
                pending = False
            elif msg["type"] == "error":
                pending = False
            elif msg["type"] in ("state", "delta"):
                view = msg if msg["type"] == "state" else delta.apply(view, msg)
                obs = view["obs"]
                legal = obs.get("legal_actions") if isinstance(obs, dict) else None
                if not view["on_turn"] or pending or not isinstance(legal, list) or not legal:
                    continue
                await asyncio.sleep(min(rng.expovariate(1 / think), 5 * think) if think else 0)
                ref += 1
                pending = True
                sent[ref] = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal), "ref": ref}))


async def _poller(client: httpx.AsyncClient, stop: float, latencies: list[float]) -> None:
    while time.monotonic() < stop:
        start = time.perf_counter()
        r = await client.get("/api/games")
        r.raise_for_status()
        latencies.append(time.perf_counter() - start)
        await asyncio.sleep(POLL_SECONDS)


async def _create(client: httpx.AsyncClient, body: JSONObject) -> _Created:
    r = await client.post("/api/tables", json=body)
    r.raise_for_status()
    data: _Created = r.json()
    return data


async def _run(base: str, tables: int, seconds: float, think: float, game: str,
               bot_tables: int | None = None, bot: str = "search:strong") -> LoadRow:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        players = (await client.get(f"/api/games/{game}")).json()["default_players"]
        links = []
        for _ in range(tables):
            data = await _create(client, {"game": game, "players": 2, "deals": 100,
                                          "seats": [{"kind": "human"}, {"kind": "bot", "bot": "first"}]})
            links.append(f"{base.replace('http', 'ws')}/ws/{data['id']}?k={data['seats'][0]['token']}")
        busy = [await _create(client, {"game": game, "deals": 100, "seats": [{"kind": "bot", "bot": bot}] * players})
                for _ in range(bot_tables or 0)]
        rtts: list[float] = []
        polls: list[float] = []
        start = time.monotonic()
        stop = start + seconds
        jobs = [_player(u, stop, think, rtts, random.Random(i)) for i, u in enumerate(links)]
        if bot_tables is not None:
            jobs.append(_poller(client, stop, polls))
        results = await asyncio.gather(*jobs, return_exceptions=True)
        elapsed = time.monotonic() - start
        bot_moves = bot_deals = 0
        for t in busy:
            pub = (await client.get(f"/api/tables/{t['id']}")).json()
            bot_moves += pub["actions"]
            bot_deals += len(pub["results"])
    errors = sum(isinstance(r, BaseException) for r in results)
    row: LoadRow = {
        "tables": tables, "seconds": round(elapsed, 1), "actions": len(rtts),
        "actions_per_s": round(len(rtts) / elapsed, 1), "p50_ms": _pick(rtts, 0.50), "p99_ms": _pick(rtts, 0.99),
        "mean_ms": round(statistics.fmean(rtts) * 1000, 2) if rtts else None, "client_errors": errors}
    if bot_tables is not None:
        row.update({"bot_tables": bot_tables, "bot": bot, "games_requests": len(polls),
                    "games_p50_ms": _pick(polls, 0.50), "games_p99_ms": _pick(polls, 0.99),
                    "bot_deals_finished": bot_deals, "bot_moves_in_current_deals": bot_moves})
    return row


def _serve(tmp: str) -> subprocess.Popen[str]:
    env = {**os.environ, **UNLIMITED}
    return subprocess.Popen([sys.executable, "-m", "folkdeck", "serve", "--host", "127.0.0.1", "--port", "0",
                             "--db", str(Path(tmp) / "load.sqlite3"), "--bot-delay", "0", "--deal-pause", "0"],
                            stdout=subprocess.PIPE, text=True, env=env)


def _print(row: LoadRow) -> None:
    line = (f"{row['tables']:5d} tables  {row['actions']:7d} actions in {row['seconds']:5.1f} s  "
            f"{row['actions_per_s']:8.1f} actions/s  p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms"
            f"  client errors {row['client_errors']}")
    if "bot_tables" in row:
        line = (f"{row['bot_tables']:3d} {row['bot']} tables | " + line +
                f" | GET /api/games p50 {row['games_p50_ms']:7.2f} ms  p99 {row['games_p99_ms']:7.2f} ms"
                f" ({row['games_requests']} requests)")
    print(line, flush=True)  # noqa: T201


def run_loadtest(args: argparse.Namespace) -> int:
    seconds = min(max(args.seconds, 1.0), MAX_SECONDS)
    bot_tables: list[int] | None = getattr(args, "bot_tables", None)
    bot = getattr(args, "bot", "search:strong")
    runs: list[tuple[int, int | None]]
    if bot_tables is not None:
        people = min(max(args.tables[0] if args.tables else 4, 1), MAX_TABLES)
        runs = [(people, min(max(n, 0), MAX_BOT_TABLES)) for n in bot_tables]
    else:
        runs = [(min(max(n, 1), MAX_TABLES), None) for n in args.tables]
    import folkdeck

    game = args.game or folkdeck.games()[0]
    rows = []
    for tables, busy in runs:
        with tempfile.TemporaryDirectory() as tmp:
            proc = _serve(tmp)
            try:
                assert proc.stdout is not None
                base = proc.stdout.readline().split()[3].rstrip("/").replace("localhost", "127.0.0.1")
                row = asyncio.run(_run(base, tables, seconds, args.think, game, busy, bot))
            finally:
                proc.kill()
                proc.wait()
        rows.append(row)
        if not args.json:
            _print(row)
    if args.json:
        print(json.dumps(rows, indent=2))  # noqa: T201
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m folkdeck.server.loadtest", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run_loadtest(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
