"""The web server under load: action latency, message sizes and replays (issue 24's figures).

Starts ``folkdeck serve`` itself (``--servers N`` processes, each with its own SQLite file
in a temporary folder, or every one on ``--database URL``), or drives servers already
running (``--url``, repeated: the tables are spread over them in turn). Four phases:

1. **ramp**: tables of one simulated person and one bot (``--bot``, default ``first``) are
   added up to each of ``--tables``; the people play a random legal action after a think
   time (exponential, mean ``--think``, at most 5 × it). After ``--warmup`` seconds, for
   ``--seconds`` seconds: actions/s and the action round trip (send → ``ack``) at p50, p99
   and the worst, with the load average and the CPU the servers and this client used.
2. **replays**: beside ``--replay-tables`` fresh tables of people, ``GET /api/games`` every
   50 ms, first alone, then while ``--replays`` clients each post a large match record to
   ``POST /api/replay`` again and again (a Gou Ji match of ``--replay-deals`` deals made with
   the library, or ``--record FILE``).
3. **sizes**: ``--size-tables`` tables of every game (the game's default players: one person,
   the game's default bot in the other seats), played for ``--size-seconds``: the sizes of
   the WebSocket messages after each connection's first (text bytes, before the
   connection's compression), median, p90 and largest per game.

The person never uses out-of-turn rights; the servers run with ``--bot-delay 0 --deal-pause
0`` and ``--wait-seconds`` (default 0.5) for the people's out-of-turn moments, and with the
per-client rate limits lifted (every simulated client is 127.0.0.1). A server given by
``--url`` must be started with those limits lifted (``FOLKDECK_*``, see ``LIFTED``).

This client sets its garbage collector as ``folkdeck serve`` does
(:mod:`folkdeck.server.collector`, with young collections after
:data:`CLIENT_COLLECT_AFTER` allocations): each of its collections stops its event loop,
and the pause is counted into the round trips it is measuring. In one run of ``--tables
500`` each: with CPython's own setting 388 collections, 1.3 s in all, the longest 99 ms
(a full one); with this one 101, 0.42 s, the longest 26 ms.

    python benchmarks/server_load.py --tables 100 300 500 --seconds 20
    python benchmarks/server_load.py --servers 2 --tables 400 800 --phases ramp
    python benchmarks/server_load.py --url http://127.0.0.1:8001 --url http://127.0.0.1:8002
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import folkdeck
from folkdeck.server import delta
from folkdeck.server.collector import Collector

LIFTED = {  # every simulated client is 127.0.0.1: lift the per-client limits for the benchmark
    "FOLKDECK_CREATE_BURST": "100000", "FOLKDECK_CREATE_PER_MINUTE": "1000000",
    "FOLKDECK_ACTIONS_BURST": "100000", "FOLKDECK_REQUESTS_BURST": "100000",
    "FOLKDECK_REQUESTS_PER_SECOND": "100000", "FOLKDECK_ACTIONS_PER_SECOND": "100000",
    "FOLKDECK_MAX_CLIENT_CONNECTIONS": "100000", "FOLKDECK_MAX_TABLES": "100000",
}
POLL_SECONDS = 0.05
CLIENT_COLLECT_AFTER = 5_000
"""This client's young collections (:mod:`folkdeck.server.collector`): shorter pauses than
the server's 20,000, more of them (its own pauses are counted into every round trip)."""
PROFILED = """
import cProfile, signal, time
from folkdeck.cli.main import main
profile = cProfile.Profile(time.thread_time)  # CPU time: the machine may be busy
def done(*_):
    profile.disable()
    profile.dump_stats({out!r})
    signal.raise_signal(signal.SIGTERM)  # the server's own shutdown: its bot workers stop with it
signal.signal(signal.SIGUSR1, done)
profile.enable()
main()
"""
PHASES = ("ramp", "replays", "sizes")


def _ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def _quantile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


# --- the servers ------------------------------------------------------------------------------
@dataclass
class Servers:
    """The server processes this benchmark started (none with ``--url``) and their URLs."""

    urls: list[str]
    procs: list[subprocess.Popen[str]] = field(default_factory=list)
    profiled: bool = False
    parts: list[Path] = field(default_factory=list)
    """With ``--parts``: each server's file of part timings (``server_parts.py``)."""

    def count_parts(self) -> None:
        """Have each ``--parts`` server write its counts since the last call, and start afresh."""
        for proc in self.procs if self.parts else []:
            proc.send_signal(signal.SIGUSR2)

    def last_parts(self) -> list[dict[str, Any]]:
        """Each ``--parts`` server's last block of counts (the span between the last two calls)."""
        blocks = []
        for path in self.parts:
            for _ in range(50):  # the server writes it between two of its event loop's turns
                lines = path.read_text().splitlines() if path.exists() else []
                if len(lines) % 2 == 0 and lines:
                    break
                time.sleep(0.1)
            blocks.append(json.loads(lines[-1]) if lines else {})
        return blocks

    def cpu_seconds(self) -> float:
        """CPU seconds the server processes used so far (not their bot workers)."""
        total = 0.0
        for proc in self.procs:
            try:
                fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, IndexError, ValueError):
                return float("nan")
        return total

    def stop(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGUSR1 if self.profiled else signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def start_servers(count: int, database: str | None, folder: str, wait_seconds: float,
                  profile: str | None = None, parts: bool = False) -> Servers:
    env = {**os.environ, **LIFTED, "FOLKDECK_CALL_SECONDS": str(wait_seconds),
           "FOLKDECK_WINDOW_SECONDS": str(wait_seconds)}
    servers = Servers(urls=[], profiled=bool(profile) or parts)
    for i in range(count):
        db = database or str(Path(folder) / f"load{i}.sqlite3")
        command = ["-c", PROFILED.format(out=str(Path(profile) / f"server{i}.prof"))] if profile else ["-m", "folkdeck"]
        if parts:
            servers.parts.append(Path(folder) / f"parts{i}.jsonl")
            command = [str(Path(__file__).with_name("server_parts.py")), str(servers.parts[-1])]
        proc = subprocess.Popen([sys.executable, *command, "serve", "--host", "127.0.0.1", "--port", "0",
                                 "--db", db, "--bot-delay", "0", "--deal-pause", "0"],
                                stdout=subprocess.PIPE, text=True, env=env)
        servers.procs.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            servers.stop()
            raise SystemExit(f"server {i} did not start (exit {proc.wait()})")
        servers.urls.append(line.split()[3].rstrip("/").replace("localhost", "127.0.0.1"))
    return servers


# --- the simulated people -----------------------------------------------------------------------
@dataclass
class Samples:
    """What the players measured since the last :meth:`reset`."""

    rtts: list[float] = field(default_factory=list)
    refused: int = 0
    sizes: dict[str, list[int]] = field(default_factory=dict)
    first_sizes: dict[str, list[int]] = field(default_factory=dict)

    def reset(self) -> None:
        self.rtts.clear()
        self.refused = 0
        self.sizes.clear()
        self.first_sizes.clear()


class Player:
    """One simulated person at one table: plays whenever on turn, after thinking."""

    def __init__(self, link: str, game: str, think: float, samples: Samples, rng: random.Random) -> None:
        self.link, self.game, self.think, self.samples, self.rng = link, game, think, samples, rng
        self.stopped = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        import websockets

        async with websockets.connect(self.link, max_size=2**22) as ws:
            listener = asyncio.ensure_future(self._listen(ws))
            await self.stopped.wait()
            listener.cancel()
            try:
                await listener
            except asyncio.CancelledError:
                pass

    async def _listen(self, ws: Any) -> None:
        view: dict[str, Any] = {}
        sent: dict[int, float] = {}
        ref = 0
        first = True
        acting: asyncio.Task[None] | None = None
        async for text in ws:
            size = len(text.encode())
            (self.samples.first_sizes if first else self.samples.sizes).setdefault(self.game, []).append(size)
            first = False
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "ack" and msg.get("ref") in sent:
                self.samples.rtts.append(time.perf_counter() - sent.pop(msg["ref"]))
            elif kind == "error":
                self.samples.refused += 1
                sent.pop(msg.get("ref"), None)
            if kind in ("state", "delta", "error") and (kind != "error" or view):
                view = view if kind == "error" else msg if kind == "state" else dict(delta.apply(view, msg))
                if view["on_turn"] and view["obs"]["legal_actions"] and not sent and (acting is None or acting.done()):
                    ref += 1
                    acting = asyncio.ensure_future(self._act(ws, ref, view["obs"]["legal_actions"], sent))

    async def _act(self, ws: Any, ref: int, legal: list[str], sent: dict[int, float]) -> None:
        from websockets.exceptions import ConnectionClosed

        await asyncio.sleep(min(self.rng.expovariate(1 / self.think), 5 * self.think) if self.think else 0)
        sent[ref] = time.perf_counter()
        try:
            await ws.send(json.dumps({"type": "action", "action": self.rng.choice(legal), "ref": ref}))
        except ConnectionClosed:  # the benchmark is stopping this player
            pass


async def _request(client: Any, method: str, url: str, **kwargs: Any) -> Any:
    """A request, again after a connection the server closed while it idled in the pool."""
    import httpx

    for attempt in range(3):
        try:
            r = await client.request(method, url, **kwargs)
            r.raise_for_status()
            return r
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class Load:
    """Tables with their players, spread over the servers' URLs in turn."""

    def __init__(self, urls: list[str], samples: Samples) -> None:
        self.urls = urls
        self.samples = samples
        self.players: list[Player] = []
        self.created = 0
        self.failures: list[str] = []

    async def add(self, client: Any, count: int, game: str, bots: list[str], think: float) -> None:
        """``count`` tables of ``game``: one person (seat 0) and these bots, each with a player."""
        async def one(n: int) -> None:
            base = self.urls[n % len(self.urls)]
            body = {"game": game, "players": 1 + len(bots), "seats": [{"kind": "human"}] +
                    [{"kind": "bot", "bot": b} for b in bots]}
            if folkdeck.get_spec(game).match_end.deals != "none":
                body["deals"] = 100
            r = await _request(client, "POST", f"{base}/api/tables", json=body)
            data = r.json()
            link = f"{base.replace('http', 'ws', 1)}/ws/{data['id']}?k={data['seats'][0]['token']}"
            player = Player(link, game, think, self.samples, random.Random(n))
            player.task = asyncio.ensure_future(player.run())
            player.task.add_done_callback(self._failed)
            self.players.append(player)

        start = self.created
        self.created += count
        for chunk in range(start, start + count, 50):  # 50 creations at a time
            await asyncio.gather(*(one(n) for n in range(chunk, min(start + count, chunk + 50))))

    def _failed(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.failures.append(repr(task.exception()))

    async def stop(self) -> None:
        for player in self.players:
            player.stopped.set()
        await asyncio.gather(*(p.task for p in self.players if p.task), return_exceptions=True)
        self.players.clear()


# --- measuring ---------------------------------------------------------------------------------
@dataclass
class Meter:
    """Wall, client CPU and server CPU over one measured window, and the load average."""

    servers: Servers
    wall: float = 0.0
    client: float = 0.0
    server: float = 0.0

    def start(self) -> None:
        self.servers.count_parts()
        self.wall, self.client, self.server = time.monotonic(), time.process_time(), self.servers.cpu_seconds()

    def stop(self) -> dict[str, Any]:
        wall = time.monotonic() - self.wall
        server = self.servers.cpu_seconds() - self.server
        self.servers.count_parts()
        return {"seconds": round(wall, 1), "client_cpu": round((time.process_time() - self.client) / wall, 2),
                "server_cpu": round(server / wall, 2), "server_cpu_seconds": round(server, 3),
                "load_avg_1m": round(os.getloadavg()[0], 2)}


async def ramp(args: argparse.Namespace, client: Any, load: Load, meter: Meter) -> list[dict[str, Any]]:
    rows = []
    for level in sorted(args.tables):
        if level > len(load.players):
            await load.add(client, level - len(load.players), args.game, [args.bot], args.think)
        await asyncio.sleep(args.warmup)
        load.samples.reset()
        meter.start()
        await asyncio.sleep(args.seconds)
        rtts = list(load.samples.rtts)
        row = {"tables": len(load.players), "actions": len(rtts), **meter.stop(),
               "p50_ms": _ms(rtts, 0.5), "p99_ms": _ms(rtts, 0.99), "max_ms": _ms(rtts, 1.0),
               "refused": load.samples.refused, "client_failures": len(load.failures)}
        row["actions_per_s"] = round(len(rtts) / row["seconds"], 1)
        # from the CPU seconds themselves: the rounded share of a core would make the figure coarse
        row["server_cpu_ms_per_action"] = round(1000 * row["server_cpu_seconds"] / max(len(rtts), 1), 2)
        rows.append(row)
        _say(f"{row['tables']:5d} tables  {row['actions_per_s']:7.1f} actions/s  p50 {row['p50_ms']:7.1f} ms"
             f"  p99 {row['p99_ms']:7.1f} ms  max {row['max_ms']:7.1f} ms  | load avg {row['load_avg_1m']:5.2f}"
             f"  server CPU {row['server_cpu']:4.2f} ({row['server_cpu_ms_per_action']:5.2f} ms/action)"
             f"  client CPU {row['client_cpu']:4.2f}"
             f"  refused {row['refused']}  failures {row['client_failures']}")
        if meter.servers.parts:
            row["parts"] = meter.servers.last_parts()
            _say_parts(row["parts"], len(rtts))
    return rows


def _say_parts(blocks: list[dict[str, Any]], actions: int) -> None:
    """Each server's part timings (``--parts``): CPU µs per action and share of its CPU."""
    for i, block in enumerate(blocks):
        total = block.get("process_cpu", 0.0)
        _say(f"    server {i}: {1e6 * total / max(actions, 1):7.0f} µs CPU per action in all")
        for label, (seconds, count) in sorted(block.get("parts", {}).items(), key=lambda kv: -kv[1][0]):
            _say(f"      {label:45s} {1e6 * seconds / max(actions, 1):7.0f} µs/action"
                 f"  {100 * seconds / max(total, 1e-9):5.1f} %  {count / max(actions, 1):5.2f} calls/action")
        pauses = block.get("longest_collection_ms", {})
        if pauses:
            _say("      longest collection by generation: "
                 + ", ".join(f"{g}: {ms:.1f} ms" for g, ms in pauses.items()))
        for label, (p50, p99, most) in block.get("waits_ms", {}).items():
            _say(f"      {label}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {most:.1f} ms")


def gouji_match(deals: int, seed: int) -> str:
    """A whole Gou Ji match record (``folkdeck-match/1``) of ``deals`` deals, heuristic bots."""
    from folkdeck.agents import make_agent
    from folkdeck.engine.match_base import start_match
    from folkdeck.engine.match_record import MatchRecorder, dumps
    from folkdeck.sim.runner import play_deal

    game = folkdeck.load("gouji")
    rng = random.Random(seed)
    match = start_match(game, deals=deals, rng=random.Random(seed))
    recorder = MatchRecorder(game, deals=deals)
    agents = [make_agent(game.spec, "heuristic") for _ in range(game.num_players)]
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        play_deal(state, agents, rng)
        recorder.finish_deal(state, match.finish_deal(state))
    return dumps(recorder.record(match.standings()), indent=None)


async def _poll(client: Any, url: str, until: float, latencies: list[float]) -> None:
    while time.monotonic() < until:
        start = time.perf_counter()
        await _request(client, "GET", f"{url}/api/games")
        latencies.append(time.perf_counter() - start)
        await asyncio.sleep(POLL_SECONDS)


async def _replay_loop(client: Any, url: str, record: str, deals: int, until: float, took: list[float],
                       rng: random.Random, refused: list[int]) -> None:
    import httpx

    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            await _request(client, "POST", f"{url}/api/replay?deal={rng.randint(1, deals)}", content=record,
                           headers={"content-type": "application/json"}, timeout=120)
        except httpx.HTTPStatusError as exc:  # 503: not done within the server's replay_seconds
            refused.append(exc.response.status_code)
            continue
        took.append(time.perf_counter() - start)


async def replays(args: argparse.Namespace, client: Any, load: Load, meter: Meter) -> list[dict[str, Any]]:
    record = Path(args.record).read_text() if args.record else gouji_match(args.replay_deals, 1)
    deals = len(json.loads(record)["deals"]) if '"folkdeck-match/1"' in record else 1
    if args.replay_tables:
        await load.add(client, args.replay_tables, args.game, [args.bot], args.think)
    await asyncio.sleep(args.warmup)
    rows = []
    for replayers in (0, args.replays):
        load.samples.reset()
        polls: list[float] = []
        took: list[float] = []
        refused: list[int] = []
        meter.start()
        until = time.monotonic() + args.seconds
        url = load.urls[0]
        await asyncio.gather(_poll(client, url, until, polls), *(
            _replay_loop(client, url, record, deals, until, took, random.Random(i), refused)
            for i in range(replayers)))
        rtts = list(load.samples.rtts)
        row = {"tables": len(load.players), "replays_running": replayers, "record_bytes": len(record.encode()),
               "record_deals": deals, **meter.stop(), "games_requests": len(polls),
               "games_p50_ms": _ms(polls, 0.5), "games_p99_ms": _ms(polls, 0.99), "replays_done": len(took), "replays_refused": len(refused),
               "replay_p50_ms": _ms(took, 0.5), "action_p50_ms": _ms(rtts, 0.5), "action_p99_ms": _ms(rtts, 0.99)}
        rows.append(row)
        _say(f"{replayers} replays ({row['record_bytes']:,} B record, {deals} deals) beside {row['tables']} tables:"
             f"  GET /api/games p50 {row['games_p50_ms']:6.1f} ms  p99 {row['games_p99_ms']:6.1f} ms"
             f" ({len(polls)} requests)  | replays done {len(took)} (refused {len(refused)}),"
             f" p50 {row['replay_p50_ms']:7.1f} ms"
             f"  | actions p50 {row['action_p50_ms']:6.1f} ms p99 {row['action_p99_ms']:6.1f} ms"
             f"  | load avg {row['load_avg_1m']:5.2f}")
    return rows


async def sizes(args: argparse.Namespace, client: Any, load: Load, meter: Meter) -> list[dict[str, Any]]:
    for game in args.size_games:
        spec = folkdeck.get_spec(game)
        await load.add(client, args.size_tables, game, [spec.default_bot] * (spec.default_players - 1),
                       args.size_think)
    await asyncio.sleep(1.0)  # every connection's first message in
    meter.start()
    await asyncio.sleep(args.size_seconds)
    meter.stop()
    rows = []
    for game in args.size_games:
        got = load.samples.sizes.get(game, [])
        firsts = load.samples.first_sizes.get(game, [])
        row = {"game": game, "messages": len(got), "median_bytes": int(statistics.median(got)) if got else 0,
               "p90_bytes": _quantile(got, 0.9), "max_bytes": max(got, default=0),
               "first_median_bytes": int(statistics.median(firsts)) if firsts else 0}
        rows.append(row)
        _say(f"{game:10s} {row['messages']:6d} messages after the first: median {row['median_bytes']:6,d} B"
             f"  p90 {row['p90_bytes']:7,d} B  max {row['max_bytes']:8,d} B"
             f"  | first message median {row['first_median_bytes']:7,d} B")
    return rows


def _say(text: str) -> None:
    print(text, flush=True)  # noqa: T201


async def _main(args: argparse.Namespace, servers: Servers) -> dict[str, Any]:
    import httpx

    samples = Samples()
    meter = Meter(servers)
    out: dict[str, Any] = {"urls": servers.urls, "cpus": os.cpu_count()}
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        for phase in args.phases:
            load = Load(servers.urls, samples)
            _say(f"-- {phase} --")
            try:
                out[phase] = await {"ramp": ramp, "replays": replays, "sizes": sizes}[phase](args, client, load, meter)
            finally:
                await load.stop()
            if load.failures:
                _say(f"client failures: {len(load.failures)}, first {load.failures[0]}")
    return out


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[100, 300, 500], help="ramp levels (tables)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured seconds per level (default 20)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds before each level is measured")
    p.add_argument("--think", type=float, default=1.0, help="a person's mean think time in seconds (default 1)")
    p.add_argument("--game", default="cambio", help="the game of the ramp and replay tables (default cambio)")
    p.add_argument("--bot", default="first", help="the bot at the ramp's tables (default first)")
    p.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES))
    p.add_argument("--servers", type=int, default=1, help="server processes to start (default 1)")
    p.add_argument("--database", help="every started server's database (default: a SQLite file each)")
    p.add_argument("--url", action="append", default=[], help="drive this running server instead (repeat)")
    p.add_argument("--wait-seconds", type=float, default=0.5,
                   help="the started servers' out-of-turn moments (call_seconds, window_seconds)")
    p.add_argument("--replays", type=int, default=3, help="replay clients running at once (default 3)")
    p.add_argument("--replay-tables", type=int, default=100, help="tables playing during the replays")
    p.add_argument("--replay-deals", type=int, default=13, help="deals of the Gou Ji match replayed")
    p.add_argument("--record", help="replay this record instead of a generated Gou Ji match")
    p.add_argument("--size-games", nargs="+", default=list(folkdeck.games()))
    p.add_argument("--size-tables", type=int, default=4, help="tables per game in the sizes phase")
    p.add_argument("--size-seconds", type=float, default=20.0)
    p.add_argument("--size-think", type=float, default=0.3)
    p.add_argument("--profile", metavar="DIR", help="run the started servers under cProfile (DIR/server<i>.prof)")
    p.add_argument("--parts", action="store_true",
                   help="count the CPU time of the started servers' main parts (server_parts.py) per ramp level")
    p.add_argument("--json", help="also write the figures to this JSON file")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    runner: Callable[[Coroutine[Any, Any, dict[str, Any]]], dict[str, Any]] = asyncio.run
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:  # the standard event loop then
        pass
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        servers = Servers(urls=[u.rstrip("/") for u in args.url]) if args.url else \
            start_servers(args.servers, args.database, folder, args.wait_seconds, args.profile, args.parts)
        stack.callback(servers.stop)
        _say(f"servers: {' '.join(servers.urls)}  ({os.cpu_count()} CPUs, load avg {os.getloadavg()[0]:.2f})")
        collector = Collector(collect_after=CLIENT_COLLECT_AFTER)
        collector.install()
        stack.callback(collector.uninstall)
        out = runner(_main(args, servers))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
