"""Tables in play: one match of a game, rebuilt from its stored record lines.

A :class:`Table` holds its configuration (seats, rules, the server's secret seed), the
match object, the deal in play, the finished deals and a
:class:`~folkdeck.engine.match_record.MatchRecorder` (the whole-match record,
``folkdeck-match/1``). It is rebuilt from its stored lines by replay
(:meth:`Table.restore`): the database holds only the configuration and one line per action.

Nothing here knows a game: what differs between games comes from its ``GameSpec``
(``card_notation``, ``teams``, ``windows``, ``match_end``, ``record_embargo``...) and
from the core fields of its views. :class:`Connection` is one WebSocket's outgoing queue;
:mod:`folkdeck.server.manager` drives the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import itertools
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.match_base import start_match
from folkdeck.engine.match_record import MatchRecord, MatchRecorder
from folkdeck.engine.options import record_defaults
from folkdeck.engine.protocol import Action, Game, GameAgent, Match, Seat, Standings, State
from folkdeck.engine.record import Record, apply_line
from folkdeck.json_types import JSONObject
from folkdeck.server.bots import BotJob
from folkdeck.server.delta import diff
from folkdeck.server.schemas import FIRST_SEATS
from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.views import ViewEncoder

SendHook = Callable[["Table", Seat | None, JSONObject], None]

TableConfig: TypeAlias = dict[str, Any]
"""A table's stored configuration, as JSON (``game``, ``options``, ``seed``, ``seats``,
``turn_seconds``, ``deals``...: :mod:`folkdeck.server.manager` writes it, the store keeps
it); its values are read by key where they are used."""

_CONNECTION_IDS = itertools.count(1)
ACKS_KEPT = 64
"""Acknowledged ``(seat, ref)`` pairs a table remembers for resent actions."""


def token_hash(token: str) -> str:
    """Tokens are stored hashed: a database dump does not give away the seats.

    A token that is not text (a lone surrogate) cannot be any seat's: it hashes to
    nothing a seat has, instead of failing.

    >>> len(token_hash("abc")), token_hash("\\ud800") == token_hash("\\ud800")
    (64, True)
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def encode(message: Mapping[str, object]) -> str:
    """A message as sent: compact JSON (no spaces after separators), UTF-8 text as is.

    >>> encode({"type": "ack", "ref": 1, "line": "0: 4C"})
    '{"type":"ack","ref":1,"line":"0: 4C"}'
    """
    return _ENCODER.encode(message)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""Made once: ``json.dumps`` with these arguments builds an encoder for every message."""


class Connection:
    """One websocket's outgoing queue; a writer task drains it (slow clients never block a table).

    State messages are versioned per connection (:mod:`folkdeck.server.delta`): the first
    (and the first after :meth:`resync`) goes whole with ``"v"``, the others as deltas
    from the last one sent.
    """

    def __init__(self, send: Callable[[str], Any], limit: int, client: str = "") -> None:
        # send: awaited with each text (a relayed connection, whose push is its own, gives none)
        self._send = send
        self.client = client
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limit)
        self.closed = False
        self.version = 0
        self.last: JSONObject | None = None
        """The last state message sent (without its ``v``): the base of the next delta."""
        self.id = next(_CONNECTION_IDS)
        """This process's number for the connection (other processes address it by it)."""

    def push(self, message: JSONObject) -> None:
        if self.closed:
            return
        sent: Mapping[str, object] = self._versioned(message) if message.get("type") == "state" else message
        try:
            self.queue.put_nowait(encode(sent))
        except asyncio.QueueFull:  # a client that does not read: drop it
            self.close()

    def _versioned(self, state: JSONObject) -> Mapping[str, object]:
        self.version += 1
        last, self.last = self.last, state
        delta = None if last is None else diff(last, state, self.version)
        return {**state, "v": self.version} if delta is None else delta

    def resync(self) -> None:
        """The client lost track of its version: the next state goes whole."""
        self.last = None

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


def stored_options(game_name: str, options: Mapping[str, object]) -> dict[str, Any]:  # load(**options)
    """A stored table's options as the game reads them: an option its configuration does
    not name (stored before the option existed) takes its record default, so an old
    table replays exactly as it was played (:func:`folkdeck.engine.options.record_defaults`)."""
    spec = folkdeck.get_spec(game_name)
    return {**record_defaults(spec.options_type), **options}


@dataclass(eq=False)
class Table:
    """One match at one table."""

    id: str
    config: TableConfig
    game: Game
    match: Match
    state: State
    recorder: MatchRecorder
    deal: int = 0
    finished: list[Record] = field(default_factory=list)
    """The record of each finished deal (the match record's own: a finished deal's state,
    its events and their facts, is not kept; a server of 500 tables kept 8,000 of them,
    and the garbage collector traversed them all)."""
    results: list[JSONObject] = field(default_factory=list)
    standings_after: list[Standings] = field(default_factory=list)
    """The standings right after each finished deal (a partial match record ends there)."""
    agents: list[GameAgent | None] = field(default_factory=list)
    conns: dict[Seat | None, list[Connection]] = field(default_factory=dict)
    now: Callable[[], float] = time.monotonic
    """The clock of the table's actor (:mod:`folkdeck.server.clock`)."""
    deadline: float | None = None
    """When the person on turn's timer runs out (:attr:`now`'s time), or None."""
    calls: tuple[tuple[int, int], float] | None = None
    """While a bot on turn waits for people's out-of-turn calls: the position it waits at and
    when the wait ends (:attr:`now`'s time); see :mod:`folkdeck.server.actor`."""
    last_active: float = field(default_factory=time.monotonic)
    acked: dict[tuple[str, int], str] = field(default_factory=dict)
    """The record lines of recent actions by ``(scope, ref)`` (the scope: the seat and its
    token): a client that lost its connection resends its unacknowledged action with the
    same ``ref``, and gets the first answer again instead of a second play. The last
    :data:`ACKS_KEPT` are kept here; the store has them all, with their actions."""

    reviews: dict[tuple[int, Seat], list[dict[str, object]]] = field(default_factory=dict)
    """The search bot's reviews of finished deals by ``(deal, seat)`` (computed once)."""
    _match_facts: tuple[tuple[int, int, int, bool], JSONObject] | None = None
    """:meth:`match_facts` as last made, with the position it was made for."""
    _deals_played: tuple[int, int] | None = None
    """The match's completed deals, with the count of :attr:`results` it was read at."""
    _layout: JSONObject | None = None
    """The public facts that never change at a table (its game, teams...), made once."""
    encoders: dict[Seat | None, ViewEncoder] = field(default_factory=dict)
    """Each viewer's views as JSON, the history encoded once (:mod:`folkdeck.server.views`)."""
    remote: dict[int, frozenset[Seat]] = field(default_factory=dict)
    """The seats connected to other server processes, by process (:mod:`folkdeck.server.cluster`)."""
    _published: tuple[tuple[int, bool, tuple[str, ...]], tuple[Record, ...], MatchRecord | None] | None = None
    """The finished deals' records and the match record as :meth:`snapshot` last made them,
    with the (finished deals, match over, names) they were made at."""

    def connected(self, seat: Seat) -> bool:
        """Whether a person is connected to ``seat`` here or to another server process."""
        return bool(self.conns.get(seat)) or any(seat in seats for seats in self.remote.values())

    def remember_ack(self, scope: str, ref: int, line: str) -> None:
        """Keep the answer to ``ref`` for a resend (the oldest forgotten past the bound)."""
        self.acked.pop((scope, ref), None)  # a reused ref: the latest answer is the newest
        self.acked[scope, ref] = line
        while len(self.acked) > ACKS_KEPT:
            del self.acked[next(iter(self.acked))]

    # --- building -------------------------------------------------------------------
    @classmethod
    def new(cls, table_id: str, config: TableConfig, now: Callable[[], float] = time.monotonic) -> Table:
        """A table from its stored configuration, at the start of its first deal (``now``:
        the clock of the actor it is made for)."""
        options = stored_options(config["game"], config["options"])
        game = folkdeck.load(config["game"], **options)
        deals = config.get("deals")
        match = start_match(game, deals=deals, rng=random.Random(config["seed"]),
                            chosen={name: config[name] for name in FIRST_SEATS if name in config})
        recorder = MatchRecorder(game, deals=deals, table=table_id,
                                 players=[s["name"] for s in config["seats"]])
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        table = cls(id=table_id, config=config, game=game, match=match, state=state, recorder=recorder,
                    now=now, last_active=now())
        table.agents = [None] * len(config["seats"])
        return table

    @classmethod
    def restore(cls, table_id: str, config: TableConfig, lines: dict[int, list[str]]) -> Table:
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

    def catch_up(self, rows: list[tuple[int, int, str]], deal: int) -> bool:
        """Apply the stored actions ``(deal, index, line)`` that this copy has not seen, then
        deal on up to ``deal`` (a deal its owner has dealt, with no action yet): how a server
        process that does not own the table follows its owner. True if anything changed.

        :raises RuntimeError: the rows do not follow from this copy (it is rebuilt instead).
        """
        changed = False
        for row_deal, index, line in rows:
            if (row_deal, index) < (self.deal, len(self.state.history)):
                continue  # already here
            while self.deal < row_deal:
                if not self.finish_deal_if_over() or not self.start_next_deal():
                    raise RuntimeError(f"table {self.id}: stored deal {row_deal} does not follow")
            if index != len(self.state.history):
                raise RuntimeError(f"table {self.id}: action {index} of deal {row_deal} does not follow")
            apply_line(self.state, index, line)
            changed = True
        self.finish_deal_if_over()
        while self.deal < deal and self.finish_deal_if_over() and self.start_next_deal():
            changed = True
        return changed

    # --- the match --------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.config["seats"]
        return seats

    @property
    def deals_limit(self) -> int | None:
        deals: int | None = self.config.get("deals")
        return deals

    def is_bot(self, seat: Seat) -> bool:
        return self.seats[seat]["kind"] == "bot" or bool(self.seats[seat].get("auto"))

    def match_over(self) -> bool:
        # The match alone says when it is over: a deal dealt again (a Gou Ji revolution)
        # is no completed deal, so the table's own count of deals dealt is not the measure.
        return self.state.is_over() and len(self.results) > self.deal and self.match.is_over()

    def match_deal(self) -> int:
        """The number of the deal in the match, as players count: completed deals plus the
        one in progress (a deal dealt again keeps its number)."""
        done = len(self.results)
        if self._deals_played is None or self._deals_played[0] != done:  # changes only as a deal ends
            self._deals_played = (done, self.match.standings().deals_played)
        played = self._deals_played[1]
        return played if self.state.is_over() and done > self.deal else played + 1

    def finish_deal_if_over(self) -> bool:
        """Account the deal once it is over; True if it is over."""
        if not self.state.is_over():
            return False
        if len(self.results) <= self.deal:
            played = self.match.standings().deals_played
            facts = self.match.finish_deal(self.state)
            record = self.recorder.finish_deal(self.state, facts)
            result = self.state.result()
            after = self.match.standings()
            self.results.append({
                "deal": self.deal + 1, "match_deal": played + 1,
                "counted": after.deals_played > played,  # False: dealt again
                "facts": [f.to_dict() for f in facts],
                "returns": list(result.returns) if result else [],
                "placings": list(result.placings) if result else [],
                "reason": result.reason if result else ""})
            self.finished.append(record)
            self.standings_after.append(after)
        return True

    def start_next_deal(self) -> bool:
        """Deal the next deal of the match; False when the match is over."""
        if self.match_over():
            return False
        self.state = self.match.next_deal()
        self.recorder.start_deal(self.state, self.match.report())
        self.deal += 1
        return True

    def position(self) -> tuple[int, int]:
        """Where the table is: (deal, actions so far). A bot's answer is for one position."""
        return (self.deal, len(self.state.history))

    # --- bots -----------------------------------------------------------------------------
    def agent(self, seat: Seat) -> GameAgent | None:
        """A local instance of the seat's bot (only to ask what it can do: it never thinks here)."""
        if self.agents[seat] is None and self.is_bot(seat):
            self.agents[seat] = make_agent(self.game.spec, self.bot_name(seat))
        return self.agents[seat]

    def bot_name(self, seat: Seat) -> str:
        name: str = self.seats[seat].get("bot") or self.config.get("auto_bot") or self.game.spec.default_bot
        return name

    def bot_seats(self) -> list[tuple[Seat, bool]]:
        """The bots with a decision due now, ``(seat, interrupt)``: out-of-turn offers first
        (in ``to_act`` order, as :func:`folkdeck.sim.runner.offer_interrupts` makes them),
        then the seat on turn (without building their views: the table's owner asks this
        whenever it plans, and builds the jobs only when the bots are to think)."""
        state = self.state
        if state.is_over() or not state.to_act:
            return []
        due = []
        for seat in state.to_act[1:]:
            if self.is_bot(seat) and hasattr(self.agent(seat), "interrupt") and state.legal_actions(seat):
                due.append((seat, True))
        seat = state.to_act[0]
        if self.is_bot(seat):
            due.append((seat, False))
        return due

    def bot_jobs(self) -> list[tuple[Seat, BotJob]]:
        """The bot decisions due now (:meth:`bot_seats`), each as a job for the workers."""
        return [(seat, self._job(seat, self.state.legal_actions(seat), interrupt=interrupt))
                for seat, interrupt in self.bot_seats()]

    def _job(self, seat: Seat, legal: Sequence[Action], *, interrupt: bool) -> BotJob:
        # The bot's randomness is fixed by the position: a restarted table plays on the same.
        seed = f"{self.config['seed']}/{self.deal}/{len(self.state.history)}/{seat}/{int(interrupt)}"
        return BotJob(game=self.game.spec.name, options=self.config["options"], bot=self.bot_name(seat),
                      view=self.state.observe(seat), legal=tuple(legal), seed=seed, interrupt=interrupt,
                      searches=getattr(self.agent(seat), "searches", False))

    # --- records ------------------------------------------------------------------------------
    def records_locked(self) -> str | None:
        """Why the finished deals' records are withheld now (``None``: they are given):
        ``GameSpec.record_embargo`` of a game whose deals share hidden cards, until the
        match is over; every other game shuffles afresh for each deal."""
        if self.match_over():
            return None
        return self.game.spec.record_embargo or None

    def record_available(self, deal: int) -> bool:
        """Whether deal ``deal`` (0-based) may be published: over, and nothing of it still hidden."""
        return 0 <= deal < len(self.finished) and self.records_locked() is None

    def record(self, deal: int) -> Record:
        """Finished deal ``deal``'s record (0-based), naming the table, the deal and the players."""
        return dataclasses.replace(self.finished[deal], extra={
            "table": self.id, "deal": deal + 1, "players": [s["name"] for s in self.seats]})

    def match_record(self) -> MatchRecord:
        """The whole match so far as ``folkdeck-match/1``: the finished deals only (a deal
        in play is never given), with the standings after the last of them."""
        full = self.recorder.record(self.match.standings())
        if self.match_over():
            return full
        done = [d for d in full.deals if d.after is not None]
        standings = self.standings_after[len(done) - 1].to_dict() if done else None
        return dataclasses.replace(full, deals=done, standings=standings)

    # --- views --------------------------------------------------------------------------
    def public(self) -> JSONObject:
        """Public facts about the table (no cards but what the results say)."""
        layout = self._layout
        if layout is None:
            spec = self.game.spec
            layout = self._layout = {
                "id": self.id, "game": spec.name, "title": spec.title,
                "card_notation": spec.card_notation, "pack": spec.card_notation,
                "teams": [list(t) for t in spec.teams(self.num_players)], "windows": list(spec.windows)}
        return {
            **layout,
            "practice": bool(self.config.get("practice")),
            "players": self.num_players, "deal": self.deal + 1, "match_deal": self.match_deal(),
            "deals": self.deals_limit,
            "actions": len(self.state.history),  # actions so far in this deal: a change marker
            "match_over": self.match_over(), "turn_seconds": self.config["turn_seconds"],
            "deadline": None if self.deadline is None else max(0.0, self.deadline - self.now()),
            "calls": self.calls_left(),
            "seats": [{"seat": i, "name": s["name"], "kind": s["kind"], "bot": s["bot"],
                       "auto": bool(s.get("auto")), "connected": self.connected(i),
                       "open": bool(s.get("open"))}
                      for i, s in enumerate(self.seats)],
            "rematch": self.config.get("rematch"), "previous": self.config.get("previous"),
            **self.match_facts(),
        }

    def match_facts(self) -> JSONObject:
        """The public facts that change only between deals (the results, the standings, the
        records), made once per deal: the same objects in every view until then (the delta's
        comparison passes them at once; they are never changed in place)."""
        key = (self.deal, len(self.results), len(self.finished), self.match_over())
        if self._match_facts is not None and self._match_facts[0] == key:
            return self._match_facts[1]
        base = f"/api/tables/{self.id}"
        locked = self.records_locked()
        facts: JSONObject = {
            "results": list(self.results), "standings": self.match.standings().to_dict(),
            "records": [f"{base}/records/{d + 1}" for d in range(len(self.finished))] if locked is None else [],
            "match_record": f"{base}/record" if self.finished and locked is None else None,
            "records_locked": locked if self.finished else None,
        }
        self._match_facts = (key, facts)
        return facts

    def calls_left(self) -> float | None:
        """Seconds the bot on turn still waits for out-of-turn calls at this position (the
        same for every viewer: it never says who may call), or None."""
        if self.calls is None or self.calls[0] != self.position():
            return None
        return max(0.0, self.calls[1] - self.now())

    # --- what the actor publishes -----------------------------------------------------------
    def snapshot(self, public: JSONObject | None = None) -> TableSnapshot:
        """The table as its readers outside the actor see it (:mod:`folkdeck.server.snapshot`);
        ``public``: :meth:`public` if just made."""
        records, match_record = self._published_records()
        calls = self.calls if self.calls is not None and self.calls[0] == self.position() else None
        return TableSnapshot(
            id=self.id, game=self.game.spec.name, public=self.public() if public is None else public,
            deadline=self.deadline, calls_until=None if calls is None else calls[1], now=self.now,
            position=self.position(), tokens=tuple(s["token"] for s in self.seats), watch=self.config["watch"],
            open_seats=tuple(i for i, s in enumerate(self.seats) if s.get("open")), records=records,
            records_locked=self.records_locked(), match_record=match_record, match_over=self.match_over(),
            deals_limit=self.deals_limit).with_presence(*self.presence())

    def presence(self) -> tuple[frozenset[Seat], bool, frozenset[int], float]:
        """Who is connected and when the table was last used, as
        :meth:`~folkdeck.server.snapshot.TableSnapshot.with_presence` takes them."""
        here = frozenset(seat for seat, conns in self.conns.items() if seat is not None and conns)
        return here, any(self.conns.values()), frozenset(self.remote), self.last_active

    def _published_records(self) -> tuple[tuple[Record, ...], MatchRecord | None]:
        """The finished deals' records and the match record, made again only when a deal
        ends, the match ends or a seat is renamed (the records name the players)."""
        key = (len(self.finished), self.match_over(), tuple(s["name"] for s in self.seats))
        if self._published is None or self._published[0] != key:
            records = tuple(self.record(d) for d in range(len(self.finished)))
            # a copy: the recorder's own record of a match over is the recorder's to change
            whole = dataclasses.replace(self.match_record()) if self.finished else None
            self._published = (key, records, whole)
        return self._published[1], self._published[2]

    def view(self, seat: Seat | None, public: JSONObject) -> JSONObject:
        """The message for one connection: its seat's view (passed through as the game
        gives it) and the public facts."""
        state = self.state
        encoder = self.encoders.get(seat)
        if encoder is None:
            encoder = self.encoders[seat] = ViewEncoder()
        obs = encoder.obs(state.observe(seat))
        may_act = seat is not None and seat in state.to_act
        actions = state.legal_actions(seat) if may_act else ()
        obs["legal_actions"] = [str(a) for a in actions]
        obs["legal"] = encoder.legal(actions, self.game.spec.action_data)  # the same, as data
        return {"type": "state", "you": seat, "table": public, "obs": obs, "may_act": may_act,
                "on_turn": seat is not None and state.current_seat == seat,
                "practice": public["practice"],
                "auto": seat is not None and bool(self.seats[seat].get("auto"))}


__all__ = ["Connection", "SendHook", "Table", "encode", "stored_options", "token_hash"]
