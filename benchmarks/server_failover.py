"""Failover under load (issue 24's figure): one of N server processes on one PostgreSQL
database killed with SIGKILL every ``--kill-every`` seconds while people play.

Starts ``--processes`` servers (``folkdeck serve`` on ``--database``, a PostgreSQL URL) and
``--tables`` tables of one simulated person and the game's bots (``first``), made on the
processes in turn. Each person connects to a process of its own choosing (not always its
table's owner: some actions are forwarded, as behind a proxy), plays a random legal action
after a think time (exponential, mean ``--think``), and numbers each action (``ref``). When
its connection drops it connects to another live process and sends its unacknowledged
action again with the same ``ref`` and ``"resend": true``, as ``web/table.js`` does.

Every ``--kill-every`` seconds for ``--seconds`` seconds, the owner of the most tables is
killed with SIGKILL and a fresh process started in its place. Printed at the end:

- **adoption**: for each kill, the seconds until every table the killed process owned is
  owned by a live one (read from PostgreSQL's advisory locks, every 0.2 s);
- **next move acknowledged**: for each table the killed process owned, from the kill (or
  from the person's sending, if later) to the acknowledgement of the person's next move,
  p50 / p99 / worst;
- **exactly once**, from the store: acknowledged moves not stored (lost), ``ref``\\ s stored
  more than once (doubled), and resends answered with a refusal (a move refused after it
  was committed).

Run it on a throwaway database (every table it makes stays there)::

    python benchmarks/server_failover.py --database postgresql://USER@HOST:PORT/DB
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from server_load import Servers, start_servers

import folkdeck
from folkdeck.server import delta

LOCK_CLASS = 1178880817
"""The advisory locks' class of the server's leases (``server/lease.py``)."""
OWNERS = (
    "SELECT o.table_id, a.application_name FROM fd_owners o JOIN pg_locks l ON l.locktype = 'advisory'"
    f" AND l.classid = {LOCK_CLASS} AND l.objsubid = 2 AND l.objid::bigint = o.owner AND l.granted"
    " JOIN pg_stat_activity a ON a.pid = l.pid")


def quantile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` in seconds, rounded to milliseconds (None if empty)."""
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3) if ordered else None


def owners(database: str) -> dict[str, int]:
    """Each owned table's owner, by its OS process id (the lease session names it)."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        rows = conn.execute(OWNERS).fetchall()
    return {str(table): int(str(name).rsplit(" ", 1)[1]) for table, name in rows}


@dataclass
class Tally:
    """What the people saw: their acknowledged moves and the refusals."""

    acked: set[tuple[str, int]] = field(default_factory=set)
    acked_at: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    """Per table: (when the move was sent, when it was acknowledged), in order."""
    resend_refused: list[str] = field(default_factory=list)
    refused: int = 0
    reconnects: int = 0


class Person:
    """One seat's client, on whichever live process it picks."""

    def __init__(self, table: str, token: str, urls: list[str], think: float, tally: Tally, seed: int) -> None:
        self.table, self.token, self.urls, self.think, self.tally = table, token, urls, think, tally
        self.rng = random.Random(seed)
        self.ref = 0
        self.pending: tuple[int, str, float] | None = None
        """The action sent and not yet acknowledged: its ref, the action, when first sent."""
        self.acted_at: tuple[int, int] = (-1, -1)
        self.stopped = False

    async def run(self) -> None:
        import websockets

        while not self.stopped:
            url = self.rng.choice(self.urls)
            try:
                async with websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/{self.table}?k={self.token}",
                                              max_size=2**22, open_timeout=5) as ws:
                    await self._play(ws)
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
                pass
            if not self.stopped:
                self.tally.reconnects += 1
                await asyncio.sleep(0.05 + self.rng.random() * 0.1)

    async def _play(self, ws: Any) -> None:
        view: dict[str, Any] = {}
        resent = False
        acting: asyncio.Task[None] | None = None
        try:
            async for text in ws:
                msg = json.loads(text)
                kind = msg["type"]
                if kind == "ack" and self.pending and msg.get("ref") == self.pending[0]:
                    self.tally.acked.add((self.table, msg["ref"]))
                    self.tally.acked_at.setdefault(self.table, []).append((self.pending[2], time.monotonic()))
                    self.pending = None
                elif kind == "error" and self.pending and msg.get("ref") == self.pending[0]:
                    if resent:
                        self.tally.resend_refused.append(f"{self.table} ref {msg['ref']}: {msg.get('code')}")
                    self.tally.refused += 1
                    self.pending = None
                if kind == "state":
                    view = msg
                elif kind == "delta":
                    try:
                        view = dict(delta.apply(view, msg))
                    except (ValueError, KeyError):
                        await ws.send(json.dumps({"type": "resync"}))
                        continue
                if not view:
                    continue
                if self.pending and not resent:  # after a reconnection: the unanswered action again
                    resent = True
                    await ws.send(json.dumps({"type": "action", "action": self.pending[1], "ref": self.pending[0],
                                              "resend": True}))
                    continue
                position = (view["table"]["deal"], len(view["obs"]["history"]))
                if (view["on_turn"] and view["obs"]["legal_actions"] and self.pending is None
                        and position != self.acted_at and (acting is None or acting.done())):
                    acting = asyncio.ensure_future(self._act(ws, position, view["obs"]["legal_actions"]))
        finally:
            if acting is not None:
                acting.cancel()

    async def _act(self, ws: Any, position: tuple[int, int], legal: list[str]) -> None:
        await asyncio.sleep(min(self.rng.expovariate(1 / self.think), 5 * self.think))
        if self.stopped or self.pending is not None:
            return
        self.ref += 1
        self.acted_at = position
        self.pending = (self.ref, self.rng.choice(legal), time.monotonic())
        await ws.send(json.dumps({"type": "action", "action": self.pending[1], "ref": self.ref}))


async def make_tables(urls: list[str], count: int, game: str) -> list[tuple[str, str]]:
    import httpx

    players = folkdeck.get_spec(game).default_players
    body: dict[str, Any] = {"game": game, "players": players,
                            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "first"}] * (players - 1)}
    if folkdeck.get_spec(game).match_end.deals != "none":
        body["deals"] = 100
    made = []
    async with httpx.AsyncClient(timeout=30) as client:
        for n in range(count):
            r = await client.post(f"{urls[n % len(urls)]}/api/tables", json=body)
            r.raise_for_status()
            data = r.json()
            made.append((data["id"], data["seats"][0]["token"]))
    return made


async def watch_adoption(database: str, killed: int, tables: set[str], started: float) -> float | None:
    """Seconds from the kill until every one of ``tables`` is owned by a live process."""
    while time.monotonic() - started < 60:
        now = await asyncio.to_thread(owners, database)
        if all(table in now and now[table] != killed for table in tables):
            return time.monotonic() - started
        await asyncio.sleep(0.2)
    return None


def stored(database: str, tables: list[str]) -> tuple[set[tuple[str, int]], list[tuple[str, str, int, int]]]:
    """The (table, ref) of every stored person's action, and every ref stored more than once."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        rows = conn.execute("SELECT table_id, ref_scope, ref FROM fd_actions WHERE ref IS NOT NULL"
                            " AND table_id = ANY(%s)", (tables,)).fetchall()
    seen: dict[tuple[str, str, int], int] = {}
    for table, scope, ref in rows:
        seen[(str(table), str(scope), int(ref))] = seen.get((str(table), str(scope), int(ref)), 0) + 1
    doubled = [(t, s, r, n) for (t, s, r), n in seen.items() if n > 1]
    return {(t, r) for t, _, r in seen}, doubled


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="folkdeck-failover-")
    servers = start_servers(args.processes, args.database, folder, 0.5)
    urls = list(servers.urls)  # the live processes' URLs, shared with the people
    tally = Tally()
    kills: list[dict[str, Any]] = []
    try:
        tables = await make_tables(urls, args.tables, args.game)
        people = [Person(t, k, urls, args.think, tally, n) for n, (t, k) in enumerate(tables)]
        tasks = [asyncio.ensure_future(p.run()) for p in people]
        await asyncio.sleep(args.warmup)
        start = time.monotonic()
        for k in range(1, int(args.seconds // args.kill_every) + 1):  # at fixed times, whatever a kill took
            await asyncio.sleep(max(0.0, start + k * args.kill_every - time.monotonic()))
            kills.append(await kill_one(args, servers, urls, folder))
        await asyncio.sleep(max(0.0, start + args.seconds - time.monotonic()) + 3)  # the last kill's tables settle
        for kill in kills:
            kill["adopted_in"] = await kill.pop("adoption")
        for person in people:
            person.stopped = True
        await asyncio.sleep(2 * args.think + 1)  # the moves in flight are answered
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for kill in kills:  # each affected table's next move acknowledged after the kill
            waits = []
            for table in kill.pop("tables"):
                after = [(ack - max(sent, kill["at"])) for sent, ack in tally.acked_at.get(table, [])
                         if ack > kill["at"]]
                if after:
                    waits.append(after[0])
            kill["next_ack"] = waits
        in_store, doubled = await asyncio.to_thread(stored, args.database, [t for t, _ in tables])
    finally:
        servers.stop()
    lost = sorted(tally.acked - in_store)
    waits = sorted(w for kill in kills for w in kill["next_ack"])
    adoption = [kill["adopted_in"] for kill in kills]
    return {
        "processes": args.processes, "tables": args.tables, "game": args.game, "kills": len(kills),
        "tables_of_killed": sum(kill["owned"] for kill in kills),
        "adopted_all": all(a is not None for a in adoption),
        "adoption_seconds": {"p50": quantile([a for a in adoption if a is not None], 0.5),
                             "max": round(max((a for a in adoption if a is not None), default=0.0), 3)},
        "next_ack_seconds": {"n": len(waits), "p50": quantile(waits, 0.5), "p99": quantile(waits, 0.99),
                             "max": round(max(waits, default=0.0), 3)},
        "acknowledged": len(tally.acked), "lost": len(lost), "doubled": len(doubled),
        "resends_refused": tally.resend_refused, "refused": tally.refused, "reconnects": tally.reconnects,
    }


async def kill_one(args: argparse.Namespace, servers: Servers, urls: list[str], folder: str) -> dict[str, Any]:
    """Kill the process owning the most tables (SIGKILL), start a fresh one; the kill's
    figures, its adoption still being watched (``"adoption"``, a task)."""
    before = await asyncio.to_thread(owners, args.database)
    counts: dict[int, int] = {}
    for pid in before.values():
        counts[pid] = counts.get(pid, 0) + 1
    proc = max(servers.procs, key=lambda p: counts.get(p.pid, 0))
    url = servers.urls[servers.procs.index(proc)]
    owned = {table for table, pid in before.items() if pid == proc.pid}
    proc.kill()
    at = time.monotonic()
    urls.remove(url)
    servers.procs.remove(proc)
    servers.urls.remove(url)
    proc.wait()
    adoption = asyncio.ensure_future(watch_adoption(args.database, proc.pid, owned, at))
    fresh = await asyncio.to_thread(start_servers, 1, args.database, folder, 0.5)
    servers.procs += fresh.procs
    servers.urls += fresh.urls
    urls += fresh.urls
    return {"at": at, "owned": len(owned), "tables": owned, "adoption": adoption}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--database", required=True, help="a PostgreSQL URL (a throwaway database)")
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--tables", type=int, default=60, help="tables of one person and the game's bots")
    p.add_argument("--game", default="kaphai")
    p.add_argument("--think", type=float, default=1.0, help="a person's mean think time in seconds")
    p.add_argument("--seconds", type=float, default=120.0, help="how long the kills go on")
    p.add_argument("--kill-every", type=float, default=10.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--json", help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    if not args.database.startswith(("postgresql://", "postgres://")):
        p.error("--database must be a PostgreSQL URL: failover needs the processes' shared leases")
    if args.processes < 2:
        p.error("--processes must be at least 2: a killed process's tables need a survivor")
    figures = asyncio.run(run(args))
    print(json.dumps(figures, indent=2))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)
    ok = figures["adopted_all"] and not figures["lost"] and not figures["doubled"] and not figures["resends_refused"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
