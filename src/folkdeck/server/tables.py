"""Tables in play: the engine driven from asyncio, one lock per table.

A :class:`Table` is one match of a game: its configuration (seats, rules, seed), the
match object, the deal in play and the finished ones. It is rebuilt from its stored
record lines by replay (:meth:`Table.restore`), so the database holds only the
configuration and one line per action.

The :class:`TableManager` (FastAPI's ``ConnectionManager`` idea, grown up) keeps the
tables by id, binds websockets to seats, applies actions under the table's lock,
commits each one before acknowledging it, sends **each connection its own
``observe(seat)``** after every event (spectators ``observe(None)``), and drives the
bot seats (and the seats whose turn timer ran out) with :mod:`folkdeck.sim.runner`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.errors import (
    CardGameError,
    InvalidConfigError,
    NotYourTurnError,
    WrongPhaseError,
)
from folkdeck.engine.options import options_to_dict
from folkdeck.engine.protocol import Event, Game, Match, Seat, State
from folkdeck.engine.record import Record, apply_line
from folkdeck.server.config import Settings
from folkdeck.server.schemas import TableCreate
from folkdeck.server.store import Store
from folkdeck.sim.runner import offer_interrupts

log = logging.getLogger("folkdeck.server")

PACKS = {"kaphai": "french", "gouji": "french", "cangkul": "french", "burro_es": "spanish",
         "burro_pt": "portuguese", "cambio": "cucco"}
"""The pack each game's cards are drawn from in the browser."""

SendHook = Callable[["Table", Seat | None, dict[str, Any]], None]


def token_hash(token: str) -> str:
    """Tokens are stored hashed: a database dump does not give away the seats."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One websocket's outgoing queue; a writer task drains it (slow clients never block a table)."""

    def __init__(self, send: Callable[[str], Any], limit: int) -> None:
        self._send = send
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limit)
        self.closed = False

    def push(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False))
        except asyncio.QueueFull:  # a client that does not read: drop it
            self.close()

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def run(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self._send(text)


@dataclass(eq=False)
class Table:
    """One match at one table."""

    id: str
    config: dict[str, Any]
    game: Game
    match: Match
    state: State
    deal: int = 0
    finished: list[State] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    agents: list[Any] = field(default_factory=list)
    conns: dict[Seat | None, list[Connection]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    deadline: float | None = None

    # --- building -------------------------------------------------------------------
    @classmethod
    def new(cls, table_id: str, config: dict[str, Any]) -> Table:
        """A table from its stored configuration, at the start of its first deal."""
        game = folkdeck.load(config["game"], **config["options"])
        match = game.new_match(deals=config["deals"], rng=random.Random(config["seed"]))
        table = cls(id=table_id, config=config, game=game, match=match, state=match.next_deal())
        table.agents = [make_agent(game.spec, s["bot"]) if s["bot"] else None for s in config["seats"]]
        return table

    @classmethod
    def restore(cls, table_id: str, config: dict[str, Any], lines: dict[int, list[str]]) -> Table:
        """Replay the stored lines: the table exactly as it was after its last committed action."""
        table = cls.new(table_id, config)
        for deal in sorted(lines):
            while table.deal < deal:  # deals end by their last action; the next starts at once
                if not table.finish_deal_if_over() or not table.start_next_deal():
                    raise RuntimeError(f"table {table_id}: stored deal {deal} does not follow")
            for index, line in enumerate(lines[deal]):
                apply_line(table.state, index, line)
        table.finish_deal_if_over()
        return table

    # --- the match --------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.config["seats"]
        return seats

    def is_bot(self, seat: Seat) -> bool:
        return self.seats[seat]["kind"] == "bot" or bool(self.seats[seat].get("auto"))

    def match_over(self) -> bool:
        return self.state.is_over() and len(self.results) > self.deal and (
            self.match.is_over() or self.deal + 1 >= self.config["deals"])

    def finish_deal_if_over(self) -> bool:
        """Account the deal once it is over; True if it is over."""
        if not self.state.is_over():
            return False
        if len(self.results) <= self.deal:
            lines = self.match.finish_deal(self.state)
            result = self.state.result()
            self.results.append({
                "deal": self.deal + 1, "lines": lines,
                "returns": list(result.returns) if result else [],
                "placings": list(result.placings) if result else [],
                "reason": result.reason if result else ""})
            self.finished.append(self.state)
        return True

    def start_next_deal(self) -> bool:
        """Deal the next deal of the match; False when the match is over."""
        if self.match_over():
            return False
        self.state = self.match.next_deal()
        self.deal += 1
        return True

    def bot_rng(self) -> random.Random:
        """A bot's randomness, fixed by the position: a restarted table plays on the same."""
        return random.Random(f"{self.config['seed']}/{self.deal}/{len(self.state.history)}")

    def bot_move(self) -> Event | None:
        """Let one bot act if one may (an out-of-turn call first); the event or None."""
        state = self.state
        if state.is_over() or not state.to_act:
            return None
        rng = self.bot_rng()
        humans = frozenset(s for s in range(self.num_players) if not self.is_bot(s))
        agents = [self.agent(s) for s in range(self.num_players)]
        before = len(state.history)
        if offer_interrupts(state, agents, rng, skip=humans):
            return state.history[before] if len(state.history) > before else None
        seat = state.to_act[0]
        if seat in humans:
            return None
        legal = state.legal_actions(seat)
        return state.apply(agents[seat].act(state.observe(seat), legal, rng), seat)

    def agent(self, seat: Seat) -> Any:
        if self.agents[seat] is None and self.is_bot(seat):
            self.agents[seat] = make_agent(self.game.spec, self.config.get("auto_bot"))
        return self.agents[seat]

    def records_locked(self) -> str | None:
        """Why the finished deals' records are withheld now (``None``: they are given)."""
        if self.match_over():
            return None
        # GameSpec.record_embargo: Cambio's stock carries over; the other games shuffle
        # afresh for every deal, so a finished deal's record names no card still hidden.
        return self.game.spec.record_embargo or None

    def record_available(self, deal: int) -> bool:
        """Whether deal ``deal`` (0-based) may be published: over, and nothing of it still hidden."""
        return 0 <= deal < len(self.finished) and self.records_locked() is None

    def record(self, deal: int) -> Record:
        state = self.finished[deal]
        return Record.from_state(state, table=self.id, deal=deal + 1,
                                 players=[s["name"] for s in self.seats])

    # --- views --------------------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        """Public facts about the table (no cards but what the results say)."""
        spec = self.game.spec
        return {
            "id": self.id, "game": spec.name, "title": spec.title, "pack": PACKS.get(spec.name, "french"),
            "players": self.num_players, "deal": self.deal + 1, "deals": self.config["deals"],
            "actions": len(self.state.history),  # actions so far in this deal: a change marker
            "match_over": self.match_over(), "turn_seconds": self.config["turn_seconds"],
            "deadline": None if self.deadline is None else max(0.0, self.deadline - time.monotonic()),
            "seats": [{"seat": i, "name": s["name"], "kind": s["kind"], "bot": s["bot"],
                       "auto": bool(s.get("auto")), "connected": bool(self.conns.get(i))}
                      for i, s in enumerate(self.seats)],
            "results": self.results, "standings": self.match.standings(),
            "records": [f"/api/tables/{self.id}/records/{d + 1}" for d in range(len(self.finished))
                        if self.record_available(d)],
            "records_locked": self.records_locked() if self.finished else None,
        }

    def view(self, seat: Seat | None, public: dict[str, Any]) -> dict[str, Any]:
        """The message for one connection: its seat's observation and the public facts."""
        state = self.state
        obs = state.observe(seat).to_dict()
        may_act = seat is not None and seat in state.to_act
        obs["legal_actions"] = [str(a) for a in state.legal_actions(seat)] if may_act else []
        return {"type": "state", "you": seat, "table": public, "obs": obs, "may_act": may_act,
                "on_turn": seat is not None and state.current_seat == seat,
                "auto": seat is not None and bool(self.seats[seat].get("auto"))}


class TableManager:
    """Every table in memory by id, with its connections, bots and timers."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, Table] = {}
        self.on_send: SendHook | None = None
        """Test hook: called with every message just before it is queued."""

    # --- life cycle ---------------------------------------------------------------------
    def load(self) -> int:
        """Rebuild every stored table; the count."""
        for table_id, config, lines in self.store.load_tables():
            try:
                table = Table.restore(table_id, config, lines)
            except (CardGameError, RuntimeError) as exc:
                log.error("table %s cannot be restored: %s", table_id, exc)
                continue
            for seat in table.seats:
                seat.pop("auto", None)  # a restarted table gives the seats back to their people
            self.tables[table_id] = table
        return len(self.tables)

    def start(self) -> None:
        """After a (re)start: let the bots of every table play on."""
        for table in self.tables.values():
            self.kick(table)

    async def stop(self) -> None:
        for table in self.tables.values():
            for task in (table.driver, table.timer):
                if task is not None:
                    task.cancel()
            for conns in table.conns.values():
                for conn in conns:
                    conn.close()

    # --- tables ---------------------------------------------------------------------------
    def create(self, req: TableCreate, base_url: str = "") -> tuple[Table, list[str], str]:
        """A new table; returns it with the seat tokens (None for bots) and the spectator token.

        :raises InvalidConfigError: for a bad game, option, bot or seat list.
        """
        if len(self.tables) >= self.settings.max_tables:
            raise InvalidConfigError("the server is full; try again later")
        options: dict[str, Any] = dict(req.options)
        if req.players is not None:
            options["players"] = req.players
        game = folkdeck.load(req.game, req.preset, **options)
        spec = game.spec
        n = game.num_players
        seats_in = list(req.seats) or []
        if len(seats_in) not in (0, n):
            raise InvalidConfigError(f"give {n} seats (or none), not {len(seats_in)}", field="seats")
        seats: list[dict[str, Any]] = []
        tokens: list[str] = []
        for i in range(n):
            seat_in = seats_in[i] if seats_in else None
            kind = seat_in.kind if seat_in else ("human" if i == 0 else "bot")
            bot = (seat_in.bot if seat_in and seat_in.bot else spec.default_bot) if kind == "bot" else None
            if bot is not None and bot not in spec.bots:
                raise InvalidConfigError(f"unknown bot {bot!r} for {spec.name} (bots are: {', '.join(spec.bots)})",
                                         field=f"seats[{i}].bot")
            name = (seat_in.name.strip() if seat_in else "") or (f"{bot} bot" if bot else f"Player {i + 1}")
            token = secrets.token_urlsafe(18) if kind == "human" else ""
            tokens.append(token)
            seats.append({"kind": kind, "bot": bot, "name": name,
                          "token": token_hash(token) if token else None})
        watch = secrets.token_urlsafe(18)
        config = {"game": spec.name, "options": {**options_to_dict(game.options), "players": n},
                  "deals": req.deals, "seed": req.seed if req.seed is not None else secrets.randbits(62),
                  "seats": seats, "watch": token_hash(watch), "turn_seconds": req.turn_seconds,
                  "auto_bot": spec.default_bot}
        table_id = secrets.token_urlsafe(9)
        table = Table.new(table_id, config)
        self.store.create_table(table_id, config)
        self.tables[table_id] = table
        self.kick(table)
        return table, tokens, watch

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def seat_of(self, table: Table, token: str) -> int:
        """The seat a token opens (``-1`` for the spectator token)."""
        digest = token_hash(token)
        for i, seat in enumerate(table.seats):
            if seat["token"] is not None and secrets.compare_digest(seat["token"], digest):
                return i
        if secrets.compare_digest(table.config["watch"], digest):
            return -1
        raise PermissionError("unknown token")

    # --- connections ------------------------------------------------------------------------
    def join(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        if seat is None and len(table.conns.get(None, [])) >= self.settings.max_spectators:
            raise PermissionError("too many spectators at this table")
        table.conns.setdefault(seat, []).append(conn)
        self.broadcast(table)

    def leave(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        conns = table.conns.get(seat, [])
        if conn in conns:
            conns.remove(conn)
        conn.close()
        if seat is not None and not conns:
            self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of the current position."""
        public = table.public()
        for seat, conns in table.conns.items():
            if not conns:
                continue
            message = table.view(seat, public)
            if self.on_send is not None:
                self.on_send(table, seat, message)
            for conn in conns:
                conn.push(message)

    def send(self, table: Table, seat: Seat | None, conn: Connection, message: dict[str, Any]) -> None:
        if self.on_send is not None:
            self.on_send(table, seat, message)
        conn.push(message)

    # --- actions ---------------------------------------------------------------------------------
    async def act(self, table: Table, seat: Seat, text: str) -> Event:
        """Apply a person's action; it is committed before this returns.

        :raises CardGameError: the engine's refusal (nothing changed).
        """
        async with table.lock:
            state = table.state
            if state.is_over():
                raise WrongPhaseError("the deal is over", seat=seat)
            if seat not in state.to_act:
                # Name only a seat whose turn is public: in a window opened by hidden cards
                # (a putuh, burning) saying who is in it would tell the cards.
                public = getattr(state, "public_to_act", None)
                shown = public() if public is not None else state.to_act[:1]
                why = f"it is seat {shown[0]}'s turn" if shown else "other seats are deciding"
                raise NotYourTurnError(f"seat {seat} may not act now; {why}", seat=seat)
            action = state.parse_action(text, seat)
            before = state.clone()
            event = state.apply(action, seat)
            self._commit(table, event, before)
            if table.seats[seat].get("auto"):
                self._set_auto(table, seat, False)
        return event

    async def resume(self, table: Table, seat: Seat) -> None:
        """A person takes their seat back from the bot that the timer gave it to."""
        async with table.lock:
            if table.seats[seat].get("auto"):
                self._set_auto(table, seat, False)
        self.after_event(table)

    def _set_auto(self, table: Table, seat: Seat, on: bool) -> None:
        if on:
            table.seats[seat]["auto"] = True
        else:
            table.seats[seat].pop("auto", None)
        self.store.update_config(table.id, table.config)

    def _commit(self, table: Table, event: Event, before: State) -> None:
        """Store the action just applied; if it cannot be stored, the table goes back to
        ``before`` (the state as it was stored), so memory never runs ahead of the store."""
        index = len(table.state.history) - 1
        try:
            self.store.append_action(table.id, table.deal, index, event.line)
        except Exception:  # the action is not durable: take it back
            log.exception("table %s: action %r not stored; taken back", table.id, event.line)
            table.state = before
            raise
        table.finish_deal_if_over()

    def after_event(self, table: Table) -> None:
        self.broadcast(table)
        self.kick(table)

    # --- bots, deals and timers --------------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Make sure the table's driver runs (bots, next deal, turn timer)."""
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))
        self._arm_timer(table)

    async def _drive(self, table: Table) -> None:
        try:
            await self._drive_loop(table)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not pass silently: log it, the table waits for people
            log.exception("table %s: the bots stopped", table.id)

    async def _drive_loop(self, table: Table) -> None:
        delay = self.settings.bot_delay
        while True:
            async with table.lock:
                state = table.state
                if state.is_over():
                    if table.match_over():
                        return
                    wait = self.settings.deal_pause
                else:
                    wait = -1.0
            if wait >= 0:  # between deals
                await asyncio.sleep(wait)
                async with table.lock:
                    table.finish_deal_if_over()
                    started = table.start_next_deal()
                if not started:
                    return
                self.broadcast(table)
                self._arm_timer(table)
                continue
            if not self._bot_may_move(table):
                return
            if delay:
                await asyncio.sleep(delay)
            async with table.lock:
                before = table.state.clone()
                event = table.bot_move()
                if event is not None:
                    self._commit(table, event, before)
            if event is None:
                return
            self.broadcast(table)
            self._arm_timer(table)
            if not delay:
                await asyncio.sleep(0)  # let people's messages through between bot moves

    def _bot_may_move(self, table: Table) -> bool:
        state = table.state
        if state.is_over() or not state.to_act:
            return False
        if table.is_bot(state.to_act[0]):
            return True
        return any(table.is_bot(s) and hasattr(table.agent(s), "interrupt") for s in state.to_act[1:])

    def _arm_timer(self, table: Table) -> None:
        seconds = table.config["turn_seconds"]
        state = table.state
        if table.timer is not None and not table.timer.done():
            table.timer.cancel()
        table.timer = None
        table.deadline = None
        if not seconds or state.is_over() or not state.to_act or table.is_bot(state.to_act[0]):
            return
        key = (table.deal, len(state.history), state.to_act[0])
        table.deadline = time.monotonic() + seconds
        table.timer = asyncio.get_running_loop().create_task(self._expire(table, key, seconds))

    async def _expire(self, table: Table, key: tuple[int, int, int], seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with table.lock:
            state = table.state
            if (table.deal, len(state.history), state.to_act[0] if state.to_act else -1) != key:
                return
            seat = key[2]
            self._set_auto(table, seat, True)
            table.timer = None
            table.deadline = None
        self.after_event(table)
