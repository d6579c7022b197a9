"""The players' requests about one table: what a WebSocket or a REST call asks of it.

:class:`TableRequests` checks what is the client's to check (its rate of actions, chat and
seats taken, its number of connections), hands the request to the table's actor as a typed
message (:mod:`folkdeck.server.messages`) and gives the answer its shape. Where that actor
is, is the table manager's to know (:mod:`folkdeck.server.manager`): this process's, or, for
a change that only the table's owner makes, the owning process's, whose answer comes back
as JSON (:class:`~folkdeck.server.relay.Remote`). The searches a hint or a review needs are
built by the actor and run in the workers (:mod:`folkdeck.server.bots`), outside the table.
Nothing here reads or writes a table's state: a table is only named, by its ``id``.
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Protocol, TypeVar, cast

from folkdeck.engine.protocol import Event, Seat
from folkdeck.json_types import JSONObject, JSONValue
from folkdeck.server.actor import TableActor
from folkdeck.server.bots import BotPool, ReviewJob
from folkdeck.server.config import Settings
from folkdeck.server.errors import ServerError
from folkdeck.server.limits import RateLimiter
from folkdeck.server.messages import (
    Act,
    Chat,
    Check,
    Hint,
    Join,
    Leave,
    Rematch,
    Rename,
    Request,
    Resume,
    Resync,
    Review,
    Reviewed,
    TakeSeat,
)
from folkdeck.server.relay import Played, Remote, played_from
from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.tables import Connection, Table, token_hash

R = TypeVar("R")


class Manager(Protocol):
    """What the requests need from the table manager (:class:`~folkdeck.server.manager.TableManager`)."""

    settings: Settings
    creations: RateLimiter
    bots: BotPool
    actors: dict[str, TableActor]

    def actor(self, table: Table) -> TableActor: ...
    def owns(self, table_id: str) -> bool: ...
    async def look(self, table_id: str, *, closed: bool = False) -> TableSnapshot: ...
    async def ask_owner(self, table: Table, message: Request[R]) -> R | Remote: ...
    def deliver(self, table: Table, seat: Seat | None, conns: list[Connection], message: JSONObject) -> None: ...


class TableRequests:
    """What the clients ask of a table (see the module docstring); the table manager's
    :attr:`~folkdeck.server.manager.TableManager.requests`."""

    def __init__(self, tables: Manager) -> None:
        self.tables = tables
        settings = tables.settings
        self.actions = RateLimiter(settings.actions_per_second, settings.actions_burst)
        self.chats = RateLimiter(settings.chat_per_second, settings.chat_burst)
        self.client_connections: Counter[str] = Counter()
        """The connections open per client (its address), all tables together."""

    async def seat_of(self, table: Table, token: str) -> int:
        """The seat a token opens (``-1`` for the spectator token), a copy of another
        process's table brought up to date first (a seat just taken there).

        :raises ServerError: ``bad_token`` (403) for any other token.
        """
        return (await self.tables.look(table.id)).seat_of(token_hash(token))

    # --- connections ------------------------------------------------------------------------
    async def join(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        """Add a connection (:class:`~folkdeck.server.messages.Join`); it is sent its view.

        :raises ServerError: a limit of connections is reached.
        """
        client = conn.client
        limit = self.tables.settings.max_client_connections
        if client and self.client_connections[client] >= limit:
            raise ServerError(429, "full", "server.too_many_connections", limit=limit)
        await self.tables.actor(table).ask(Join(seat, conn))
        if client:
            self.client_connections[client] += 1

    def leave(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        """A joined connection went away (:class:`~folkdeck.server.messages.Leave`)."""
        if conn.client:
            self.client_connections[conn.client] -= 1
            if self.client_connections[conn.client] <= 0:
                del self.client_connections[conn.client]
        conn.close()
        actor = self.tables.actors.get(table.id)
        if actor is not None:  # none once the server stopped, or the table closed
            actor.post(Leave(seat, conn))

    def resync(self, table: Table, seat: Seat | None, conn: Connection) -> None:
        """Send ``conn`` its whole view again (:class:`~folkdeck.server.messages.Resync`)."""
        self.tables.actor(table).post(Resync(seat, conn))

    def send(self, table: Table, seat: Seat | None, conn: Connection, message: JSONObject) -> None:
        """A message for one connection that is no table's news (a pong, a refusal)."""
        self.tables.deliver(table, seat, [conn], message)

    # --- the owner's changes -----------------------------------------------------------------------
    async def act(self, table: Table, seat: Seat, text: str, client: str = "", *, ref: int | None = None,
                  resend: bool = False, scope: str | None = None,
                  conn: Connection | None = None) -> Event | Played | str:
        """Apply a person's action; it is committed (with its ``ref``) before this returns.
        Returns the event, or the stored line when ``resend`` repeats a ``ref`` already played.

        :raises CardGameError: the engine's refusal (nothing changed), or ``rate_limited``.
        """
        if client:
            self.actions.check(client)
        if ref is None and not self.tables.owns(table.id):  # a ref of its own: sent again, played once
            scope, ref = f"r/{secrets.token_hex(8)}", 0
        played = await self.tables.ask_owner(table, Act(seat, text, ref=ref, resend=resend, scope=scope, conn=conn))
        return played_from(played.answer) if isinstance(played, Remote) else played

    async def chat(self, table: Table, seat: Seat | None, text: str, client: str = "") -> None:
        """A seat's chat message to the table (:func:`folkdeck.server.social.chat`).

        :raises ServerError: ``spectator``, ``bad_text``, ``rate_limited``."""
        if seat is None:
            raise ServerError(403, "spectator", "server.spectator_chat")
        if client:
            self.chats.check(client)
        await self.tables.ask_owner(table, Chat(seat, text))

    async def rename(self, table: Table, seat: Seat, text: str) -> None:
        """A person names their own seat (:func:`folkdeck.server.social.rename`)."""
        await self.tables.ask_owner(table, Rename(seat, text))

    async def take_seat(self, table: Table, name: str, client: str = "") -> tuple[Seat, str]:
        """A visitor takes the first open seat: the seat and its token
        (:func:`folkdeck.server.social.take_open_seat`). Its rate is the one of making tables."""
        if client:
            self.tables.creations.check(client)
        taken = await self.tables.ask_owner(table, TakeSeat(name))
        if isinstance(taken, Remote):
            seat, token = cast("list[int | str]", taken.answer)
            return int(seat), str(token)
        return taken

    async def rematch(self, table: Table) -> str:
        """The next match's table id (:func:`folkdeck.server.social.rematch`)."""
        new_id = await self.tables.ask_owner(table, Rematch())
        return str(new_id.answer) if isinstance(new_id, Remote) else new_id

    async def resume(self, table: Table, seat: Seat) -> None:
        """A person takes their seat back from the bot that the timer gave it to."""
        await self.tables.ask_owner(table, Resume(seat))

    # --- looks ---------------------------------------------------------------------------------------
    async def check(self, table: Table, seat: Seat, text: str, client: str = "") -> JSONObject:
        """Whether ``seat`` could play ``text`` now, without playing it: ``{"ok": True}``, or
        ``{"ok": False}`` with the refusal's code, reason and parameters (the same as playing
        it would give). Rate-limited as actions are; the state is never changed.

        :raises CardGameError: ``rate_limited`` only.
        """
        if client:
            self.actions.check(client)
        return await self.tables.actor(table).ask(Check(seat, text))

    async def hint(self, table: Table, seat: Seat, client: str = "") -> JSONObject:
        """What the ``pimc`` search bot would play for ``seat`` now, and the values it found
        (:func:`folkdeck.agents.advice.advise`), computed in the search workers from the
        seat's own view: ``{"type": "hint", "position": [deal, actions], "action", "by",
        "values"}``. Rate-limited as actions are.

        :raises ServerError: ``no_hint`` (409) when the seat has nothing to decide, or the
            search took too long.
        """
        if client:
            self.actions.check(client)
        (deal, actions), job = await self.tables.actor(table).ask(Hint(seat))
        advice = await self.tables.bots.advise(job)
        if advice is None:
            raise ServerError(409, "no_hint", "server.hint_slow")
        # the search's advice is JSON made by folkdeck.agents.advice (typed there as plain dicts)
        return {"type": "hint", "position": [deal + 1, actions], **cast("JSONObject", advice)}

    async def review(self, table: Table, seat: Seat, deal: int | None, client: str = "") -> JSONObject:
        """The search bot's review of ``seat``'s decisions in finished deal ``deal`` (1-based;
        None: the last finished):
        ``{"type": "review", "deal", "verdicts": [...]}`` (:func:`folkdeck.agents.advice.review`),
        computed once per seat and deal in the search workers.

        :raises ServerError: ``no_deal`` (404) for a deal that is not finished here.
        """
        if client:
            self.actions.check(client)
        number, verdicts = await self.tables.actor(table).ask(Review(seat, deal))
        if isinstance(verdicts, ReviewJob):
            found = await self.tables.bots.review(verdicts)
            if found is None:
                raise ServerError(409, "no_hint", "server.hint_slow")
            verdicts = found
            self.tables.actor(table).post(Reviewed(seat, number, verdicts))
        return {"type": "review", "deal": number, "verdicts": cast("list[JSONValue]", [*verdicts])}


__all__ = ["TableRequests"]
