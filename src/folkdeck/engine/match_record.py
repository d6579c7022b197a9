"""Whole-match records: the ``folkdeck-match/1`` JSON format (see ``docs/records.md``).

A match record holds the rules, the match's own setup (``match``: the deal limit), every
deal as a ``folkdeck-record/1`` body (its ``setup``, how it was dealt, its ``actions``)
with what the match reported around it (``before``: facts before the deal, such as a
Cambio seating draw; ``after``: what the deal changed, such as chips paid or who deals
next), and the final ``standings``. Replaying it (:meth:`MatchRecord.replay`) plays every
deal through the game's :class:`~folkdeck.engine.protocol.Match`, which derives each
deal's setup from the deals before; a record whose setups, reports or standings differ
from what the rules derive is refused, naming the field.

>>> import random
>>> from folkdeck import load
>>> from folkdeck.engine.conformance import random_playout
>>> game = load("kaphai", players=3)
>>> recorder = MatchRecorder(game, deals=2)
>>> match = game.new_match(deals=2, rng=random.Random(5))
>>> while not match.is_over():
...     state = match.next_deal()
...     recorder.start_deal(state, match.report())
...     _ = random_playout(state, random.Random(1))
...     _ = recorder.finish_deal(state, match.finish_deal(state))
>>> record = recorder.record(match.standings())
>>> replayed = loads(dumps(record)).replay()
>>> replayed.standings == match.standings()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from folkdeck.engine.errors import (
    CardGameError,
    InvalidConfigError,
    InvalidDealError,
    InvalidNotationError,
    MalformedRecordError,
)
from folkdeck.engine.facts import Fact, fact_from_dict
from folkdeck.engine.jsonin import json_kind, shortened
from folkdeck.engine.protocol import Game, Match, Standings, State
from folkdeck.engine.record import FORMAT as DEAL_FORMAT
from folkdeck.engine.record import Record, ReplayError, apply_line
from folkdeck.errors import QUOTE_VALUE_CHARS
from folkdeck.json_types import JSONObject, JSONValue

FORMAT: Final = "folkdeck-match/1"
_KNOWN: Final = ("format", "game", "rules", "match", "deals", "standings")
_DEAL_KEYS: Final = ("setup", "seed", "deck", "hands", "stock", "actions", "before", "after")


class RecordMismatchError(CardGameError, ValueError):
    """A well-formed match record that does not replay to what it says: a deal's setup,
    a report (``before``/``after``) or the standings differ from what the rules derive, a
    deal comes after the match's end or the record goes on after an unfinished deal.
    ``field`` names where (``folkdeck replay`` exits 1, as for an illegal action).

    ``expected`` and ``found`` are quoted as JSON, shortened: a record's value may be big.
    """

    code = "record_mismatch"

    def __init__(self, reason: str = "record_mismatch", /, *, field: str, **params: object) -> None:
        for key in ("expected", "found"):
            if key in params:
                params[key] = _quoted(params[key], as_json=reason == "record_mismatch")
        super().__init__(reason, field=field, **params)
        self.field: str = self.params["field"]  # as quoted: a long path is cut


_QUOTE: Final = QUOTE_VALUE_CHARS
"""How much of a value a mismatch message quotes (characters)."""


def _quoted(value: object, *, as_json: bool) -> object:
    """A value as a message quotes it: as JSON for ``record_mismatch``; for a game's own
    reason (``setup_mismatch``), numbers and text as the game gave them (Cambio's match
    gives JSON text already), cut to :data:`_QUOTE` characters either way."""
    if isinstance(value, str) and not as_json:
        return value if len(value) <= _QUOTE else value[:_QUOTE] + "…"
    if not as_json and (value is None or isinstance(value, bool | int | float)):
        return value
    return shortened(value, _QUOTE)


@dataclass(slots=True, kw_only=True)
class DealEntry:
    """One deal of a match: its record, and what the match reported before and after it."""

    record: Record
    before: tuple[Fact, ...] = ()
    after: tuple[Fact, ...] | None = None
    """``None`` while the deal is unfinished (a match record of a match in progress)."""

    def to_dict(self) -> JSONObject:
        body = self.record.to_dict()
        out: JSONObject = {k: body[k] for k in ("setup", "seed", "deck", "hands", "stock", "actions")
                               if k in body}
        out["before"] = [f.to_dict() for f in self.before]
        if self.after is not None:
            out["after"] = [f.to_dict() for f in self.after]
        return out


@dataclass(slots=True, kw_only=True)
class MatchReplay:
    """What replaying a match record gave: every deal's final state and the standings."""

    match: Match
    states: list[State]
    standings: Standings


@dataclass(slots=True, kw_only=True)
class MatchRecord:
    """A whole match (see the module docstring)."""

    game: str
    rules: JSONObject = field(default_factory=dict)
    deals_limit: int | None = None
    deals: list[DealEntry] = field(default_factory=list)
    standings: JSONObject | None = None
    extra: JSONObject = field(default_factory=dict)

    # --- reading -----------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: object) -> MatchRecord:
        """Check the shape of a decoded match record.

        :raises MalformedRecordError: naming the field.
        """
        if not isinstance(data, dict):
            raise MalformedRecordError("record_not_object", field="(record)")
        if data.get("format") != FORMAT:
            raise MalformedRecordError("unknown_format", field="format", found=str(data.get("format")),
                                       expected=FORMAT)
        game = data.get("game")
        if not isinstance(game, str):
            raise MalformedRecordError("not_game_name", field="game")
        rules = data.get("rules", {})
        if not isinstance(rules, dict):
            raise MalformedRecordError("not_object", field="rules")
        setup = data.get("match", {})
        if not isinstance(setup, dict):
            raise MalformedRecordError("not_object", field="match")
        limit = setup.get("deals")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise MalformedRecordError("not_positive_whole_number", field="match.deals")
        raw = data.get("deals")
        if not isinstance(raw, list):
            raise MalformedRecordError("not_list", field="deals")
        deals = [_deal_entry(game, rules, d, f"deals[{i}]") for i, d in enumerate(raw)]
        standings = data.get("standings")
        if standings is not None and not isinstance(standings, dict):
            raise MalformedRecordError("not_object", field="standings")
        extra = {k: v for k, v in data.items() if k not in _KNOWN}
        return cls(game=game, rules=dict(rules), deals_limit=limit, deals=deals, standings=standings,
                   extra=extra)

    def to_dict(self) -> JSONObject:
        out: JSONObject = {"format": FORMAT, "game": self.game, "rules": self.rules,
                               "match": {"deals": self.deals_limit},
                               "deals": [d.to_dict() for d in self.deals]}
        if self.standings is not None:
            out["standings"] = self.standings
        out.update(self.extra)
        return out

    def deal(self, index: int) -> Record:
        """Deal ``index`` (0-based) as a ``folkdeck-record/1`` record of its own.

        :raises MalformedRecordError: for an index the match does not have (field ``--deal``).
        """
        if not 0 <= index < len(self.deals):
            raise MalformedRecordError("record.no_such_deal", field="--deal", index=index, count=len(self.deals),
                                       last=len(self.deals) - 1)
        return self.deals[index].record

    # --- replaying ---------------------------------------------------------------------
    def make_game(self) -> Game:
        return Record(game=self.game, rules=self.rules).make_game()

    def replay(self) -> MatchReplay:
        """Play every deal through the game's match, checking each stated fact.

        :raises MalformedRecordError: for a deal that cannot be read or dealt.
        :raises ReplayError: for an action the rules refuse (field ``deals[i].actions[j]``).
        :raises RecordMismatchError: for a setup, report or standings the rules do not give,
            a deal after the match's end, or a record that goes on after an unfinished deal.
        """
        game = self.make_game()
        match = game.new_match(deals=self.deals_limit)
        states: list[State] = []
        for i, entry in enumerate(self.deals):
            where = f"deals[{i}]"
            if match.is_over():
                raise RecordMismatchError("match_already_over", field=where, count=i)
            state = _next_deal(game, match, entry.record, where)
            check_facts(f"{where}.before", match.report(), entry.before)
            _play(state, entry.record, i)
            states.append(state)
            if not state.is_over():
                if i != len(self.deals) - 1 or entry.after is not None:
                    raise RecordMismatchError("deal_unfinished", field=f"{where}.actions")
                break
            after = match.finish_deal(state)
            if entry.after is not None:
                check_facts(f"{where}.after", after, entry.after)
        standings = match.standings()
        if self.standings is not None:
            derived = standings.to_dict()
            for key in derived:
                if key in self.standings:
                    _check(f"standings.{key}", derived[key], self.standings[key])
        return MatchReplay(match=match, states=states, standings=standings)


def _next_deal(game: Game, match: Match, record: Record, where: str) -> State:
    """The match's next deal, as the record gives it (its setup checked by the match)."""
    if game.spec.record_embargo:
        # A game whose deals are not shuffled afresh (the spec's record embargo says why:
        # Cambio's stock carries over) deals from what the match carries: a seed or a deck
        # would be silently ignored, so it is refused.
        for source, value in (("seed", record.seed), ("deck", record.deck)):
            if value is not None:
                raise MalformedRecordError("record.deal_source_not_taken", field=f"{where}.{source}",
                                           source=source, game=game.spec.name)
    deal = {k: v for k, v in (("setup", record.setup), ("seed", record.seed), ("deck", record.deck),
                              ("hands", record.hands), ("stock", record.stock)) if v is not None}
    try:
        return match.next_deal(deal=deal)
    except (InvalidDealError, InvalidNotationError, InvalidConfigError) as exc:
        name = exc.params.get("field") or "setup"
        params = {k: v for k, v in exc.params.items() if k != "field"}
        if exc.reason != "setup_mismatch":
            raise MalformedRecordError(exc.reason, field=f"{where}.{name}", **params) from exc
        wrong_type = _setup_type_error(exc, f"{where}.{name}", record.setup)
        if wrong_type is not None:
            raise wrong_type from exc
        raise RecordMismatchError(exc.reason, field=f"{where}.{name}", **params) from exc


def _setup_type_error(exc: CardGameError, field: str, setup: Mapping[str, object] | None
                      ) -> MalformedRecordError | None:
    """A setup value the match refused for its JSON type (``"dealer": "0"`` where the match
    gives ``0``): a malformed record, not a mismatch. ``None`` when the types agree."""
    key = exc.params.get("key")
    if not isinstance(setup, Mapping) or not isinstance(key, str) or key not in setup:
        return None
    stated, expected, found = setup[key], exc.params.get("expected"), exc.params.get("found")
    if isinstance(expected, str) and found == json.dumps(stated, default=str):
        # This game's match quotes both values as JSON text (Cambio's does): read it back.
        try:
            expected = json.loads(expected)
        except ValueError:
            return None
    want, got = json_kind(expected), json_kind(stated)
    if want in (got, "null"):
        return None
    return MalformedRecordError("record.wrong_type", field=field, expected=want, found=got,
                                value=shortened(stated))


def _play(state: State, record: Record, deal: int) -> None:
    """Apply a deal's actions, naming the deal in an error."""
    for j, line in enumerate(record.actions):
        try:
            apply_line(state, j, line)
        except MalformedRecordError as exc:
            raise MalformedRecordError(exc.reason, **{**exc.params, "field": f"deals[{deal}].{exc.field}"}) from exc
        except ReplayError as exc:
            raise ReplayError(exc.index, exc.line, exc.cause, deal=deal) from exc


class MatchRecorder:
    """Builds a match record while a match is played (the CLI, the server, the arena)."""

    def __init__(self, game: Game, *, deals: int | None, **extra: JSONValue) -> None:
        self._game = game
        self._record = MatchRecord(game=game.spec.name, rules=Record.from_game(game).rules,
                                   deals_limit=deals, extra=dict(extra))
        self._current: State | None = None

    def start_deal(self, state: State, before: Sequence[Fact] = ()) -> None:
        """A new deal has been dealt (``before``: ``match.report()``)."""
        self._record.deals.append(DealEntry(record=Record.from_state(state), before=tuple(before)))
        self._current = state

    def follow(self, state: State) -> None:
        """The deal in play goes on in ``state``: a copy of the state given to
        :meth:`start_deal`, moved on (the server applies an action to a copy and keeps the
        copy once the action is stored)."""
        self._current = state

    def finish_deal(self, state: State, after: Sequence[Fact]) -> Record:
        """The deal is over (``after``: ``match.finish_deal(state)``): its record, as the
        match record keeps it."""
        entry = self._record.deals[-1]
        entry.record = Record.from_state(state)
        entry.after = tuple(after)
        return entry.record

    def record(self, standings: Standings | None = None) -> MatchRecord:
        """The record so far (the current deal's actions included)."""
        if self._current is not None and self._record.deals and self._record.deals[-1].after is None:
            self._record.deals[-1].record = Record.from_state(self._current)
        self._record.standings = standings.to_dict() if standings is not None else None
        return self._record


def _deal_entry(game: str, rules: JSONObject, data: object, where: str) -> DealEntry:
    if not isinstance(data, dict):
        raise MalformedRecordError("not_object", field=where)
    unknown = sorted(set(data) - set(_DEAL_KEYS))
    if unknown:
        raise MalformedRecordError("unknown_field", field=f"{where}.{unknown[0]}")
    body = {k: data[k] for k in ("setup", "seed", "deck", "hands", "stock", "actions") if k in data}
    try:
        record = Record.from_dict({"format": DEAL_FORMAT, "game": game, "rules": rules, **body})
    except MalformedRecordError as exc:
        raise MalformedRecordError(exc.reason, **{**exc.params, "field": f"{where}.{exc.field}"}) from exc
    return DealEntry(record=record, before=_facts(data.get("before", []), f"{where}.before"),
                     after=None if data.get("after") is None else _facts(data["after"], f"{where}.after"))


def _facts(items: object, where: str) -> tuple[Fact, ...]:
    if not isinstance(items, list):
        raise MalformedRecordError("not_list", field=where)
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise MalformedRecordError("not_object", field=f"{where}[{k}]")
        try:
            out.append(fact_from_dict(item))
        except MalformedRecordError as exc:
            raise MalformedRecordError(exc.reason, **{**exc.params, "field": f"{where}[{k}].{exc.field}"}) from exc
    return tuple(out)


def check_facts(where: str, derived: Sequence[Fact], stated: Sequence[Fact]) -> None:
    """The facts a record states against the ones the rules derive, in order.

    It stops at the first difference and names its index, quoting the two facts
    (shortened), never the lists: a record's list may be long, and the comparison stays
    linear in what the rules derive.

    :raises RecordMismatchError: at ``<where>[k]``, the first place where they differ.
    """
    for k, fact in enumerate(derived):
        if k >= len(stated):
            raise RecordMismatchError("record.facts_missing", field=f"{where}[{k}]", expected=fact.to_dict())
        if not _json_equal(fact.to_dict(), stated[k].to_dict()):
            raise RecordMismatchError(field=f"{where}[{k}]", expected=fact.to_dict(), found=stated[k].to_dict())
    if len(stated) > len(derived):
        k = len(derived)
        raise RecordMismatchError("record.facts_extra", field=f"{where}[{k}]", found=stated[k].to_dict(),
                                  count=len(stated) - k, more=len(stated) - k - 1)


def _check(where: str, derived: object, stated: object) -> None:
    if not _json_equal(derived, stated):
        raise RecordMismatchError(field=where, expected=derived, found=stated)


def _json_equal(derived: object, stated: object) -> bool:
    """Whether two values are equal as JSON (tuples as lists, ``2.0`` as ``2``), stopping at
    the first difference (a list of another length at once): a record's value may be huge,
    what the rules derive is not."""
    if isinstance(derived, Mapping):
        if not isinstance(stated, Mapping) or len(stated) != len(derived):
            return False
        keyed = {str(k): v for k, v in stated.items()}
        return all(str(k) in keyed and _json_equal(v, keyed[str(k)]) for k, v in derived.items())
    if isinstance(derived, list | tuple):
        return (isinstance(stated, list | tuple) and len(stated) == len(derived)
                and all(_json_equal(d, s) for d, s in zip(derived, stated, strict=True)))
    if isinstance(stated, Mapping | list | tuple):
        return False
    return bool(derived == stated)


def loads(text: str) -> MatchRecord:
    """Read a match record from JSON text.

    :raises MalformedRecordError: for bad JSON or a bad field.
    """
    from folkdeck.engine.record import decode_json

    return MatchRecord.from_dict(decode_json(text))


def dumps(record: MatchRecord, indent: int | None = 2) -> str:
    return json.dumps(record.to_dict(), indent=indent, ensure_ascii=False)


__all__ = ["FORMAT", "DealEntry", "MatchRecord", "MatchRecorder", "MatchReplay", "RecordMismatchError",
           "check_facts", "dumps", "loads"]
