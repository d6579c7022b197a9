"""The table manager: every live table by id, its connections, bots, timers and expiry.

FastAPI's ``ConnectionManager`` idea, grown up: it binds websockets to seats, applies
actions under the table's lock, commits each one before acknowledging it, sends **each
connection its own ``observe(seat)``** after every event (spectators ``observe(None)``),
and drives the bot seats (and the seats whose turn timer ran out). Bots think in worker
processes (:mod:`folkdeck.server.bots`): the table's lock is not held while a bot thinks,
and an answer for a position that has moved on meanwhile is dropped.

Tables nobody has used for ``table_idle_seconds`` are closed: dropped from memory and
marked closed in the store, whose rows (and so the records) stay; a closed table's
records are still given (:meth:`TableManager.archived`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter, OrderedDict
from typing import Any

import folkdeck
from folkdeck.engine.errors import CardGameError, InvalidConfigError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.options import options_to_dict
from folkdeck.engine.protocol import Event, Seat, State
from folkdeck.server.bots import BotJob, BotPool, ReviewJob
from folkdeck.server.config import Settings
from folkdeck.server.errors import ServerError
from folkdeck.server.limits import RateLimiter
from folkdeck.server.schemas import TableCreate
from folkdeck.server.social import check_name
from folkdeck.server.store import Store
from folkdeck.server.tables import Connection, SendHook, Table, token_hash

log = logging.getLogger("folkdeck.server")

ARCHIVE_CACHE = 16
"""Closed tables kept rebuilt in memory for their record downloads."""


class TableManager:
    """Every live table in memory by id, with its connections, bots and timers."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, Table] = {}
        self.bots = BotPool(settings.bot_workers, settings.bot_move_seconds)
        self.creations = RateLimiter(settings.create_per_minute / 60.0, settings.create_burst)
        self.actions = RateLimiter(settings.actions_per_second, settings.actions_burst)
        self.chats = RateLimiter(settings.chat_per_second, settings.chat_burst)
        self.client_connections: Counter[str] = Counter()
        self._archive: OrderedDict[str, Table] = OrderedDict()
        self._reaper: asyncio.Task[None] | None = None
        self.on_send: SendHook | None = None
        """Test hook: called with every message just before it is queued."""

    # --- life cycle ---------------------------------------------------------------------
    def load(self) -> int:
        """Rebuild every stored open table; the count."""
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
        """After a (re)start: let the bots of every table play on; look for idle tables."""
        for table in self.tables.values():
            self.kick(table)
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    async def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for table in self.tables.values():
            for task in (table.driver, table.timer):
                if task is not None:
                    task.cancel()
            for conns in table.conns.values():
                for conn in conns:
                    conn.close()
        self.bots.shutdown()

    # --- tables ---------------------------------------------------------------------------
    def create(self, req: TableCreate, client: str = "") -> tuple[Table, list[str], str]:
        """A new table; returns it with the seat tokens (empty for bots and open seats) and
        the spectator token. An ``"open"`` seat is a person's seat that anyone may take from
        the list of open tables (:mod:`folkdeck.server.social`).

        :raises ServerError: the client creates too fast, or the server is full.
        :raises InvalidConfigError: for a bad game, option, bot, seat list, deal count or seed.
        """
        if client:
            self.creations.check(client)
        if len(self.tables) >= self.settings.max_tables:
            raise ServerError(503, "full", "server.full")
        options: dict[str, Any] = dict(req.options)
        if req.players is not None:
            options["players"] = req.players
        game = folkdeck.load(req.game, req.preset, **options)
        spec = game.spec
        n = game.num_players
        if req.seed is not None and not req.practice:
            raise InvalidConfigError("server.seed_needs_practice", field="seed")
        end = spec.match_end
        if req.deals is not None and end.deals == "none":
            raise InvalidConfigError("server.deals_not_counted", field="deals", game=spec.name)
        deals = req.deals if req.deals is not None else end.default_deals
        seats_in = list(req.seats)
        if len(seats_in) not in (0, n):
            raise InvalidConfigError("server.seats_count", field="seats", players=n, given=len(seats_in))
        seats: list[dict[str, Any]] = []
        tokens: list[str] = []
        for i in range(n):
            seat_in = seats_in[i] if seats_in else None
            kind = seat_in.kind if seat_in else ("human" if i == 0 else "bot")
            is_open = kind == "open"
            kind = "human" if is_open else kind
            bot = (seat_in.bot if seat_in and seat_in.bot else spec.default_bot) if kind == "bot" else None
            if bot is not None and bot not in spec.bots:
                raise InvalidConfigError("server.unknown_bot", field=f"seats[{i}].bot", bot=bot,
                                         bots=", ".join(spec.bots))
            given = seat_in.name if seat_in and seat_in.name.strip() else ""
            name = check_name(given, f"seats[{i}].name") if given else (f"{bot} bot" if bot else f"Player {i + 1}")
            token = secrets.token_urlsafe(18) if kind == "human" and not is_open else ""
            tokens.append(token)
            seats.append({"kind": kind, "bot": bot, "name": name,
                          "token": token_hash(token) if token else None, **({"open": True} if is_open else {})})
        watch = secrets.token_urlsafe(18)
        # Live tables are shuffled from the server's own randomness: a seed chosen by the
        # table's creator would let them compute every hand. Practice tables may choose it,
        # and every seat is told (``practice`` in the public data and every view).
        seed = req.seed if req.seed is not None else secrets.randbits(62)
        config = {"game": spec.name, "options": {**options_to_dict(game.options), "players": n},
                  "deals": deals, "seed": seed, "practice": req.practice,
                  "seats": seats, "watch": token_hash(watch), "turn_seconds": req.turn_seconds,
                  "auto_bot": spec.default_bot}
        return self.add(config), tokens, watch

    def add(self, config: dict[str, Any]) -> Table:
        """A new table from its configuration: stored, then dealt and driven."""
        if len(self.tables) >= self.settings.max_tables:
            raise ServerError(503, "full", "server.full")
        table_id = secrets.token_urlsafe(9)
        table = Table.new(table_id, config)
        self.store.create_table(table_id, config)
        self.tables[table_id] = table
        self.kick(table)
        return table

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def archived(self, table_id: str) -> Table | None:
        """A live table, or a closed one rebuilt from the store (for its records); None if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self._archive:
            self._archive.move_to_end(table_id)
            return self._archive[table_id]
        stored = self.store.load_table(table_id)
        if stored is None:
            return None
        try:
            table = Table.restore(table_id, *stored)
        except (CardGameError, RuntimeError) as exc:
            log.error("closed table %s cannot be restored: %s", table_id, exc)
            return None
        self._archive[table_id] = table
        while len(self._archive) > ARCHIVE_CACHE:
            self._archive.popitem(last=False)
        return table

    def seat_of(self, table: Table, token: str) -> int:
        """The seat a token opens (``-1`` for the spectator token).

        :raises ServerError: ``bad_token`` (403) for any other token.
        """
        digest = token_hash(token)
        for i, seat in enumerate(table.seats):
            if seat["token"] is not None and secrets.compare_digest(seat["token"], digest):
                return i
        if secrets.compare_digest(table.config["watch"], digest):
            return -1
        raise ServerError(403, "bad_token", "server.bad_token")

    # --- expiry -----------------------------------------------------------------------------
    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.reap_seconds)
            try:
                self.reap()
            except Exception:  # the store may be down: try again next time
                log.exception("closing idle tables failed")

    def reap(self, now: float | None = None) -> list[str]:
        """Close the tables idle for ``table_idle_seconds`` with nobody connected; their ids."""
        now = time.monotonic() if now is None else now
        closed = []
        for table_id, table in list(self.tables.items()):
            if any(table.conns.values()) or now - table.last_active < self.settings.table_idle_seconds:
                continue
            self.store.close_table(table_id)
            for task in (table.driver, table.timer):
                if task is not None:
                    task.cancel()
            del self.tables[table_id]
            closed.append(table_id)
        if closed:
            log.info("closed %d idle tables", len(closed))
        return closed

    # --- connections ------------------------------------------------------------------------
    def join(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        """Add a connection; it is sent its view. The others hear of it only when a seat
        becomes connected (a spectator, or a second tab, changes nothing they see).

        :raises ServerError: a limit of connections is reached.
        """
        here = table.conns.get(seat, [])
        if seat is None and len(here) >= self.settings.max_spectators:
            raise ServerError(429, "full", "server.too_many_spectators", limit=self.settings.max_spectators)
        if seat is not None and len(here) >= self.settings.max_seat_connections:
            raise ServerError(429, "full", "server.too_many_seat_connections",
                              limit=self.settings.max_seat_connections)
        if conn.client and self.client_connections[conn.client] >= self.settings.max_client_connections:
            raise ServerError(429, "full", "server.too_many_connections",
                              limit=self.settings.max_client_connections)
        if conn.client:
            self.client_connections[conn.client] += 1
        newly = seat is not None and not here
        table.conns.setdefault(seat, []).append(conn)
        table.last_active = time.monotonic()
        if newly:
            self.broadcast(table)
        else:
            self.send(table, seat, conn, table.view(seat, table.public()))

    def leave(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        conns = table.conns.get(seat, [])
        if conn in conns:
            conns.remove(conn)
            if conn.client:
                self.client_connections[conn.client] -= 1
                if self.client_connections[conn.client] <= 0:
                    del self.client_connections[conn.client]
        conn.close()
        table.last_active = time.monotonic()
        if seat is not None and not conns:
            self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of the current position."""
        if not any(table.conns.values()):
            return  # nobody listens (a table of bots): build nothing
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
    async def act(self, table: Table, seat: Seat, text: str, client: str = "") -> Event:
        """Apply a person's action; it is committed before this returns.

        :raises CardGameError: the engine's refusal (nothing changed), or ``rate_limited``.
        """
        if client:
            self.actions.check(client)
        async with table.lock:
            state = table.state
            _refuse_unless_to_act(state, seat)
            action = state.parse_action(text, seat)
            before = state.clone()
            event = state.apply(action, seat)
            self._commit(table, event, before)
            if table.seats[seat].get("auto"):
                self._set_auto(table, seat, False)
        return event

    def check(self, table: Table, seat: Seat, text: str, client: str = "") -> dict[str, Any]:
        """Whether ``seat`` could play ``text`` now, without playing it: ``{"ok": True}``, or
        ``{"ok": False}`` with the refusal's code, reason and parameters (the same as playing
        it would give). Rate-limited as actions are; the state is never changed.

        :raises CardGameError: ``rate_limited`` only.
        """
        if client:
            self.actions.check(client)
        state = table.state
        try:
            _refuse_unless_to_act(state, seat)
            state.verify(state.parse_action(text, seat), seat)
        except CardGameError as exc:
            return {"ok": False, **{k: v for k, v in exc.to_dict().items() if k in ("error", "reason", "params")}}
        return {"ok": True}

    async def hint(self, table: Table, seat: Seat, client: str = "") -> dict[str, Any]:
        """What the ``pimc`` search bot would play for ``seat`` now, and the values it found
        (:func:`folkdeck.agents.advice.advise`), computed in the search workers from the
        seat's own view: ``{"type": "hint", "position": [deal, actions], "action", "by",
        "values"}``. Rate-limited as actions are.

        :raises ServerError: ``no_hint`` (409) when the seat has nothing to decide, or the
            search took too long.
        """
        if client:
            self.actions.check(client)
        state = table.state
        legal = state.legal_actions(seat) if seat in state.to_act and not state.is_over() else []
        if not legal:
            raise ServerError(409, "no_hint", "server.no_hint")
        deal, actions = table.position()
        job = BotJob(game=table.game.spec.name, options=table.config["options"], bot="pimc",
                     view=state.observe(seat), legal=tuple(legal), seed=f"hint/{table.id}/{deal}/{actions}/{seat}",
                     searches=True)
        advice = await self.bots.advise(job)
        if advice is None:
            raise ServerError(409, "no_hint", "server.hint_slow")
        return {"type": "hint", "position": [deal + 1, actions], **advice}

    async def review(self, table: Table, seat: Seat, deal: int, client: str = "") -> dict[str, Any]:
        """The search bot's review of ``seat``'s decisions in finished deal ``deal`` (1-based):
        ``{"type": "review", "deal", "verdicts": [...]}`` (:func:`folkdeck.agents.advice.review`),
        computed once per seat and deal in the search workers.

        :raises ServerError: ``no_deal`` (404) for a deal that is not finished here.
        """
        if client:
            self.actions.check(client)
        if not 1 <= deal <= len(table.finished):
            raise ServerError(404, "no_deal", "server.no_deal", deal=deal)
        key = (deal, seat)
        verdicts = table.reviews.get(key)
        if verdicts is None:
            job = ReviewJob(game=table.game.spec.name, options=table.config["options"],
                            record=table.record(deal - 1), seat=seat, seed=f"review/{table.id}/{deal}/{seat}")
            verdicts = await self.bots.review(job)
            if verdicts is None:
                raise ServerError(409, "no_hint", "server.hint_slow")
            table.reviews[key] = verdicts
        return {"type": "review", "deal": deal, "verdicts": verdicts}

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
        table.last_active = time.monotonic()
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
            if delay:
                await asyncio.sleep(delay)
            if not await self._wait_for_people(table):
                continue  # a person acted meanwhile: look again
            moved = await self._bot_move(table)
            if moved is None:
                return
            if moved:
                self.broadcast(table)
                self._arm_timer(table)
            await asyncio.sleep(0)  # let people's messages through between bot moves

    async def _wait_for_people(self, table: Table) -> bool:
        """Before a bot on turn acts, give the people at the table their moment to act out of
        turn: up to ``window_seconds`` while a person holds a public right (Gou Ji's 先让让),
        ``call_seconds`` while a connected person may hold a hidden one for all the public
        facts tell (the OWL's cucco call: the same wait whoever holds it). Every view is told how
        long the table waits (``calls`` in the public data). False if the position moved on
        meanwhile."""
        position = table.position()
        if _person_holds_public_right(table):
            seconds = self.settings.window_seconds
        elif _person_may_call(table):
            seconds = self.settings.call_seconds
        else:
            return True
        if seconds <= 0:
            return True
        end = time.monotonic() + seconds
        table.calls = (position, end)
        self.broadcast(table)
        try:
            while time.monotonic() < end:
                await asyncio.sleep(0.05)
                if table.position() != position:
                    return False
            return table.position() == position
        finally:
            table.calls = None

    async def _bot_move(self, table: Table) -> bool | None:
        """Let one bot act if one may: True if one did, False if the position moved on
        while it thought (ask again), None if no bot acts now."""
        async with table.lock:
            jobs = table.bot_jobs()
            position = table.position()
        for seat, job in jobs:
            choice = await self.bots.think(job)
            if choice is None:  # an out-of-turn offer declined
                continue
            async with table.lock:
                if table.position() != position:
                    return False
                state = table.state
                before = state.clone()
                event = state.apply(job.legal[choice], seat)
                self._commit(table, event, before)
            return True
        return None

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


__all__ = ["TableManager"]


def _refuse_unless_to_act(state: State, seat: Seat) -> None:
    """Raise unless ``seat`` may act now: the deal is over, or another seat is to act.

    Names only a seat whose turn is public: in a window opened by hidden cards (a
    declaration a hidden hand allows) saying who is in it would tell the cards.
    """
    if state.is_over():
        raise WrongPhaseError("deal_over", seat=seat)
    if seat not in state.to_act:
        shown = state.observe(None).to_act
        if shown:
            raise NotYourTurnError("server.not_your_turn", seat=seat, current=shown[0])
        raise NotYourTurnError("server.others_deciding", seat=seat)


def _person_may_call(table: Table) -> bool:
    """A bot is on turn and a connected person may hold a hidden out-of-turn right whose
    use cannot wait (``possible_callers``, decided by public facts only: the OWL's cucco
    before a request reaches the OWL). Whether a seat is connected is public too."""
    state = table.state
    declared = getattr(state, "possible_callers", None)
    if not callable(declared) or state.is_over() or not state.to_act or not table.is_bot(state.to_act[0]):
        return False
    return any(not table.is_bot(s) and table.conns.get(s) for s in declared())


def _person_holds_public_right(table: Table) -> bool:
    """A bot is on turn and a person may act out of turn with a right every view shows
    (``public_to_act``, conformance's ``check_view_to_act``): waiting for them tells nothing."""
    state = table.state
    acting = state.to_act
    if state.is_over() or len(acting) < 2 or not table.is_bot(acting[0]):
        return False
    declared = getattr(state, "public_to_act", None)
    public = tuple(declared()) if callable(declared) else acting[:1]
    return any(s in public and not table.is_bot(s) and state.legal_actions(s) for s in acting[1:])
