"""What a table's actor publishes after each message: a frozen picture of its table, for
the readers outside the actor.

The read-only pages (``GET /api/tables/{id}``, the list of open tables, the finished
deals' records), the token check, the closing of idle tables and the cluster's news for the
other processes read a table only through its last :class:`TableSnapshot`
(:attr:`folkdeck.server.actor.TableActor.snapshot`), never the table itself: the table's
state is its actor's alone (:mod:`folkdeck.server.actor`).

*Why a published snapshot rather than a question in the actor's inbox:* a page that only
looks never waits behind the actor's queue (an action being committed, a bot's move), and
a lobby that lists a hundred tables asks no actor anything. The actor builds the public
facts for its own viewers after each change anyway (:meth:`TableActor.tell`): the snapshot
is made of them. Its records are the finished deals', which never change once finished.

A snapshot is made by :meth:`folkdeck.server.tables.Table.snapshot` (the table's own
module) and never changed; its JSON values are shared, so nobody changes them either.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from folkdeck.engine.match_record import MatchRecord
from folkdeck.engine.protocol import Seat
from folkdeck.engine.record import Record
from folkdeck.json_types import JSONObject
from folkdeck.server.errors import ServerError


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """One table as its actor last published it."""

    id: str
    game: str
    """The game's name (its spec's)."""
    public: JSONObject
    """:meth:`~folkdeck.server.tables.Table.public` as of the snapshot (the timers' seconds
    left as they were then: :meth:`public_now` gives them now)."""
    deadline: float | None
    """When the turn timer runs out, on :attr:`now`'s clock, or None."""
    calls_until: float | None
    """When the bot on turn stops waiting for out-of-turn calls, on :attr:`now`'s clock, or None."""
    now: Callable[[], float]
    """The clock of the table's actor."""
    position: tuple[int, int]
    """(deal, actions so far), as :meth:`~folkdeck.server.tables.Table.position`."""
    tokens: tuple[str | None, ...]
    """Each seat's token hash (None: an open seat, or a bot's)."""
    watch: str
    """The spectator token's hash."""
    open_seats: tuple[Seat, ...]
    records: tuple[Record, ...]
    """The finished deals' records, naming the table, the deal and the players."""
    records_locked: str | None
    """Why the finished deals' records are withheld now (:meth:`~folkdeck.server.tables.Table.records_locked`)."""
    match_record: MatchRecord | None
    """The whole match so far (the finished deals), or None before the first ends."""
    match_over: bool
    deals_limit: int | None
    """The match's number of deals, if it has one."""
    here: frozenset[Seat] = frozenset()
    """The seats with a connection to this process."""
    watched: bool = False
    """Whether anyone (a seat or a spectator) is connected to this process."""
    remote: frozenset[int] = frozenset()
    """The other server processes with a seat of the table connected."""
    last_active: float = 0.0
    """When the table was last used (:attr:`now`'s time)."""

    # --- what the pages read ---------------------------------------------------------------
    @property
    def deal(self) -> int:
        """The deal in play, 0-based (a record's number less one)."""
        return self.position[0]

    def public_now(self) -> JSONObject:
        """The public facts with the timers' seconds left now."""
        now = self.now()
        calls = None if self.calls_until is None else max(0.0, self.calls_until - now)
        deadline = None if self.deadline is None else max(0.0, self.deadline - now)
        return {**self.public, "deadline": deadline, "calls": calls}

    def seat_of(self, digest: str) -> int:
        """The seat a token opens, by the token's hash (:func:`~folkdeck.server.tables.token_hash`);
        ``-1`` for the spectator token.

        :raises ServerError: ``bad_token`` (403) for any other token.
        """
        for i, seat_token in enumerate(self.tokens):
            if seat_token is not None and secrets.compare_digest(seat_token, digest):
                return i
        if secrets.compare_digest(self.watch, digest):
            return -1
        raise ServerError(403, "bad_token", "server.bad_token")

    def idle_since(self) -> float | None:
        """Since when nobody uses the table (None: someone is connected, here or elsewhere)."""
        return None if self.watched or self.remote else self.last_active

    def record(self, deal: int) -> Record:
        """Finished deal ``deal``'s record (1-based), when it may be given.

        :raises ServerError: ``no_deal`` (404) for a deal the match never has,
            ``not_over`` (409) for one not finished, ``locked`` (409) while the records wait
            for the end of the match (``GameSpec.record_embargo``).
        """
        limit = self.deals_limit
        if deal < 1 or (limit is not None and deal > limit) or (self.match_over and deal > len(self.records)) or (
                limit is None and deal > self.deal + 1):
            raise ServerError(404, "no_deal", "server.no_deal", deal=deal)
        if deal > len(self.records):
            raise ServerError(409, "not_over", "server.deal_not_over", deal=deal)
        self._refuse_locked(deal)
        return self.records[deal - 1]

    def whole_match(self) -> MatchRecord:
        """The whole match so far (``folkdeck-match/1``, the finished deals).

        :raises ServerError: ``not_over`` (409) before the first deal ends, ``locked`` (409)
            as for :meth:`record`.
        """
        if self.match_record is None:
            raise ServerError(409, "not_over", "server.deal_not_over", deal=1)
        self._refuse_locked(len(self.records))
        return self.match_record

    def _refuse_locked(self, deal: int) -> None:
        if self.records_locked is not None:
            raise ServerError(409, "locked", "server.records_locked", deal=deal, why=self.records_locked,
                              game=self.game)

    def with_presence(self, here: frozenset[Seat], watched: bool, remote: frozenset[int],
                      last_active: float) -> TableSnapshot:
        """The same picture with who is connected and when the table was last used (what
        changes without changing what anyone sees of the table); itself if nothing did."""
        if (here, watched, remote, last_active) == (self.here, self.watched, self.remote, self.last_active):
            return self
        return dataclasses.replace(self, here=here, watched=watched, remote=remote, last_active=last_active)


__all__ = ["TableSnapshot"]
