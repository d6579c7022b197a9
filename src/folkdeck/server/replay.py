"""``POST /api/replay``'s work, done in the worker pool: a record replayed step by step.

:func:`replay_text` takes the request's body, ``?deal=`` and ``?steps=`` as text and gives
the status and the JSON text of the answer, so that only text crosses between the
processes. A refusal is the coded body of any refusal, and never repeats the record: a
parameter that is not a number or a short text (a record's facts, a hand) is left out of it
(``"…"``). The work stops at the request's deadline (a refusal, 503 ``full``), so that a
worker is never kept busy for an answer no one waits for.

Paging: a ``folkdeck-match/1`` record is answered one deal at a time (``?deal=N``, 1 by
default); the answer's ``match`` says which deal it is and how many there are.

Steps: each step is ``{"event", "public", "hands"}`` (the public view after it and every
seat's hand) in the answer's ``steps_form`` ``"full"`` (``?steps=full``, for records of at
most :data:`MAX_FULL_STEPS` actions). By default (``"delta"``) the answer grows with the
deal's length, not its square: the first step is whole, and every later one is
``{"event", "delta"}``, what changed since the step before in the table's WebSocket delta
format (:mod:`folkdeck.server.delta`) of the state ``{"type": "state", "obs": public,
"hands": {"0": hand, "1": hand, ...}}`` at version = the step's index; a step the delta
cannot carry is whole again.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import cast

from folkdeck.engine import match_record
from folkdeck.engine.errors import CardGameError, MalformedRecordError
from folkdeck.engine.protocol import State
from folkdeck.engine.record import FORMAT as DEAL_FORMAT
from folkdeck.engine.record import Record
from folkdeck.json_types import JSONObject, JSONScalar, JSONValue
from folkdeck.server import delta
from folkdeck.server.errors import ServerError
from folkdeck.server.views import ViewEncoder

log = logging.getLogger("folkdeck.server")

MAX_REPLAY_STEPS = 5000
"""Steps of one replay answer (a record longer than this is refused, not computed)."""
MAX_FULL_STEPS = 500
"""Steps of an answer whose every step is whole (``?steps=full``): it grows with the square
of the deal's length (each step repeats the history), so it is given for short deals only."""
STEP_FORMS = ("delta", "full")
SHORT = 80
"""The longest text parameter a refusal keeps."""


def replay_text(body: str, deal_text: str, steps_form: str = "delta",
                deadline: float | None = None) -> tuple[int, str]:
    """``(status, JSON text)`` of the answer to a replay request; ``deadline`` (a
    :func:`time.monotonic` time, the same clock in every process of the machine) stops the work.

    >>> import folkdeck
    >>> bad = {"format": "folkdeck-record/1", "game": folkdeck.games()[0], "hands": "AS KS QS " * 40}
    >>> status, text = replay_text(json.dumps(bad), "1")
    >>> status, json.loads(text)["error"], "AS KS QS" in text
    (422, 'malformed_record', False)
    """
    try:
        answer = replay(json.loads(body), deal_text, steps_form=steps_form, deadline=deadline)
        return 200, json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
    except CardGameError as exc:
        from folkdeck.server.errors import error_body, status_of

        given = exc.params
        exc.params = _without_input(given)  # the refusal's body and message, nothing of the record
        try:
            return status_of(exc), json.dumps(error_body(exc), ensure_ascii=False)
        finally:
            exc.params = given


def _without_input(params: Mapping[str, object]) -> JSONObject:
    """Only numbers and short texts (a field's name, a limit): nothing of the record.

    >>> _without_input({"field": "hands[1]", "limit": 5, "facts": [{"x": 1}], "line": "x" * 200})
    {'field': 'hands[1]', 'limit': 5, 'facts': '…', 'line': '…'}
    """
    return {key: _short(value) for key, value in params.items()}


def _short(value: object) -> JSONScalar:
    if value is None or isinstance(value, bool | int | float):
        return value
    return value if isinstance(value, str) and len(value) <= SHORT else "…"


def replay(data: object, deal_text: str, *, steps_form: str = "delta", deadline: float | None = None) -> JSONObject:
    """The replay of a record (a deal's, or one deal of a match's) as the viewer takes it."""
    if steps_form not in STEP_FORMS:
        raise MalformedRecordError("unknown_option", field="steps", option="steps", options=", ".join(STEP_FORMS))
    full = steps_form == "full"
    try:
        match: JSONObject | None = None
        if isinstance(data, dict) and data.get("format") == match_record.FORMAT:
            record, match = _match_deal(match_record.MatchRecord.from_dict(data), deal_text)
        else:
            record = Record.from_dict(data)
        _check_length(len(record.actions), MAX_FULL_STEPS if full else MAX_REPLAY_STEPS)
        _check_time(deadline)
        state, steps = _steps(record, full, deadline)
    except CardGameError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        # A record the engine reads but cannot deal or play: a gap in a game's checks.
        # The client is told the record is bad; the log keeps the trace for a fix.
        log.exception("replay: a record the game could not play")
        raise MalformedRecordError("server.record_unplayable", field="(record)", detail=type(exc).__name__) from exc
    result = state.result() if state.is_over() else None
    return {"game": record.game, "format": DEAL_FORMAT, "players": state.num_players, "steps_form": steps_form,
            "steps": steps, "result": result.to_dict() if result is not None else None, "match": match}


def _match_deal(whole: match_record.MatchRecord, deal_text: str) -> tuple[Record, JSONObject]:
    """Deal ``deal_text`` of a match record, and what the viewer shows around it: the match's
    reports before and after it, and the standings once the match's last deal is reached.
    Every deal's setup, reports and the standings are checked first (the whole match replayed)."""
    deal = _deal_param(deal_text)
    record = whole.deal(deal - 1)
    _check_length(sum(len(d.record.actions) for d in whole.deals), MAX_REPLAY_STEPS)
    replayed = whole.replay()
    entry = whole.deals[deal - 1]
    return record, {"deal": deal, "deals": len(whole.deals), "before": [f.to_dict() for f in entry.before],
                    "after": [f.to_dict() for f in entry.after or ()],
                    "standings": replayed.standings.to_dict() if deal == len(whole.deals) else None}


def _check_length(actions: int, limit: int) -> None:
    if actions > limit:
        raise MalformedRecordError("server.record_too_long", field="actions", limit=limit)


def _check_time(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise ServerError(503, "full", "server.full")  # the request's time is up: later


def _deal_param(text: str) -> int:
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise MalformedRecordError("not_positive_whole_number", field="deal")
    return int(text)


def _steps(record: Record, full: bool, deadline: float | None) -> tuple[State, list[JSONValue]]:
    """The deal's last state and its steps, whole (``full``) or as deltas."""
    views = _StepViews()
    state = record.start()
    first = views.state(state)
    steps: list[JSONValue] = [_whole(first, None)]
    before = first
    for index, (state, event) in enumerate(record.steps(), start=1):
        _check_time(deadline)
        now = views.state(state)
        change = None if full else delta.diff(before, now, index)
        steps.append(_whole(now, event.to_dict()) if change is None
                     else {"event": event.to_dict(), "delta": cast(JSONObject, change)})
        before = now
    return state, steps


def _whole(state: JSONObject, event: JSONObject | None) -> JSONObject:
    """A whole step: the event, the public view and the hands as a list by seat."""
    hands = state["hands"]
    assert isinstance(hands, dict)
    return {"event": event, "public": state["obs"], "hands": [hands[str(seat)] for seat in range(len(hands))]}


class _StepViews:
    """Each step's state as :func:`folkdeck.server.delta.diff` compares them. The public
    view is converted by a :class:`~folkdeck.server.views.ViewEncoder`, the history event
    by event once: an event the view shows as before keeps its JSON (the same object, which
    the comparison passes at once), so that neither converting the views nor comparing
    them grows with the square of the deal's length."""

    def __init__(self) -> None:
        self._public = ViewEncoder()

    def state(self, state: State) -> JSONObject:
        hands: JSONObject = {}
        for seat in range(state.num_players):
            hand = state.observe(seat).hand
            hands[str(seat)] = [str(c) for c in hand] if hand is not None else None
        return {"type": "state", "hands": hands, "obs": self._public.obs(state.observe(None))}


__all__ = ["MAX_FULL_STEPS", "MAX_REPLAY_STEPS", "STEP_FORMS", "replay", "replay_text"]
