"""``folkdeck loadtest``: simulated players over WebSockets on loopback (a benchmark, not a test).

Starts ``folkdeck serve`` in a subprocess on 127.0.0.1 with a fresh SQLite file, creates N
tables (one simulated person and bots at each), and has every person play whenever it is
their turn after a random think time. Reports actions per second and the action round
trip (send → committed ack) at the 50th and 99th percentiles. Bounded: at most 1000 tables,
at most 120 seconds per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MAX_TABLES = 1000
MAX_SECONDS = 120.0


async def _player(url: str, stop: float, think: float, rtts: list[float], rng: random.Random) -> None:
    import websockets

    async with websockets.connect(url, max_size=2**20) as ws:
        sent: dict[int, float] = {}
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
            elif msg["type"] == "state" and msg["on_turn"] and not pending and msg["obs"]["legal_actions"]:
                legal = msg["obs"]["legal_actions"]
                await asyncio.sleep(min(rng.expovariate(1 / think), 5 * think) if think else 0)
                ref += 1
                pending = True
                sent[ref] = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal), "ref": ref}))


async def _run(base: str, tables: int, seconds: float, think: float, game: str) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        links = []
        for i in range(tables):
            r = await client.post("/api/tables", json={"game": game, "players": 2, "deals": 100, "seed": i,
                                                       "seats": [{"kind": "human"}, {"kind": "bot", "bot": "first"}]})
            r.raise_for_status()
            data = r.json()
            links.append(f"{base.replace('http', 'ws')}/ws/{data['id']}?k={data['seats'][0]['token']}")
    rtts: list[float] = []
    start = time.monotonic()
    stop = start + seconds
    results = await asyncio.gather(*(_player(u, stop, think, rtts, random.Random(i)) for i, u in enumerate(links)),
                                   return_exceptions=True)
    elapsed = time.monotonic() - start
    errors = sum(isinstance(r, BaseException) for r in results)
    rtts.sort()

    def pick(q: float) -> float:
        return rtts[min(len(rtts) - 1, int(q * len(rtts)))] * 1000 if rtts else float("nan")

    return {"tables": tables, "seconds": round(elapsed, 1), "actions": len(rtts),
            "actions_per_s": round(len(rtts) / elapsed, 1), "p50_ms": round(pick(0.50), 2),
            "p99_ms": round(pick(0.99), 2), "mean_ms": round(statistics.fmean(rtts) * 1000, 2) if rtts else None,
            "client_errors": errors}


def run_loadtest(args: argparse.Namespace) -> int:
    seconds = min(max(args.seconds, 1.0), MAX_SECONDS)
    rows = []
    for n in args.tables:
        n = min(max(n, 1), MAX_TABLES)
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.Popen([sys.executable, "-m", "folkdeck", "serve", "--host", "127.0.0.1", "--port", "0",
                                     "--db", str(Path(tmp) / "load.sqlite3"), "--bot-delay", "0",
                                     "--deal-pause", "0"], stdout=subprocess.PIPE, text=True)
            try:
                assert proc.stdout is not None
                base = proc.stdout.readline().split()[3].rstrip("/").replace("localhost", "127.0.0.1")
                row = asyncio.run(_run(base, n, seconds, args.think, args.game))
            finally:
                proc.kill()
                proc.wait()
        rows.append(row)
        if not args.json:
            print(f"{row['tables']:5d} tables  {row['actions']:7d} actions in {row['seconds']:5.1f} s  "  # noqa: T201
                  f"{row['actions_per_s']:8.1f} actions/s  p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms"
                  f"  client errors {row['client_errors']}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))  # noqa: T201
    return 0
