"""``POST /api/replay``'s work, done in the worker pool: a record replayed step by step.

:func:`replay_text` takes the request's body and ``?deal=`` as text and gives the status and
the JSON text of the answer, so that only text crosses between the processes. A refusal
is the coded body of any refusal, and never repeats the record: a parameter that is not
a number or a short text (a record's facts, a hand) is left out of it (``"…"``).

Paging: a ``folkdeck-match/1`` record is answered one deal at a time (``?deal=N``, 1 by
default); the answer's ``match`` says which deal it is and how many there are.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

from folkdeck.engine import match_record
from folkdeck.engine.errors import CardGameError, MalformedRecordError
from folkdeck.engine.protocol import State
from folkdeck.engine.record import FORMAT as DEAL_FORMAT
from folkdeck.engine.record import Record
from folkdeck.engine.view import View
from folkdeck.json_types import JSONObject, JSONScalar, JSONValue

log = logging.getLogger("folkdeck.server")

MAX_REPLAY_STEPS = 5000
"""Steps of one replay answer (a record longer than this is refused, not computed)."""
SHORT = 80
"""The longest text parameter a refusal keeps."""


def replay_text(body: str, deal_text: str) -> tuple[int, str]:
    """``(status, JSON text)`` of the answer to a replay request.

    >>> import folkdeck
    >>> bad = {"format": "folkdeck-record/1", "game": folkdeck.games()[0], "hands": "AS KS QS " * 40}
    >>> status, text = replay_text(json.dumps(bad), "1")
    >>> status, json.loads(text)["error"], "AS KS QS" in text
    (422, 'malformed_record', False)
    """
    try:
        return 200, json.dumps(replay(json.loads(body), deal_text), ensure_ascii=False, separators=(",", ":"))
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


def replay(data: object, deal_text: str) -> JSONObject:
    """The replay of a record (a deal's, or one deal of a match's) as the viewer takes it."""
    try:
        match: JSONObject | None = None
        if isinstance(data, dict) and data.get("format") == match_record.FORMAT:
            whole = match_record.MatchRecord.from_dict(data)
            deal = _deal_param(deal_text)
            record = whole.deal(deal - 1)
            _check_length(sum(len(d.record.actions) for d in whole.deals))
            replayed = whole.replay()  # every deal's setup, reports and the standings are checked
            entry = whole.deals[deal - 1]
            # What the viewer shows around the deal: the match's reports before and after
            # it, and the standings once the match's last deal is reached.
            match = {"deal": deal, "deals": len(whole.deals), "before": [f.to_dict() for f in entry.before],
                     "after": [f.to_dict() for f in entry.after or ()],
                     "standings": replayed.standings.to_dict() if deal == len(whole.deals) else None}
        else:
            record = Record.from_dict(data)
        _check_length(len(record.actions))
        state = record.start()
        steps: list[JSONValue] = [_step(state, None)]
        for state, event in record.steps():
            steps.append(_step(state, event.to_dict()))
    except CardGameError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        # A record the engine reads but cannot deal or play: a gap in a game's checks.
        # The client is told the record is bad; the log keeps the trace for a fix.
        log.exception("replay: a record the game could not play")
        raise MalformedRecordError("server.record_unplayable", field="(record)", detail=type(exc).__name__) from exc
    result = state.result() if state.is_over() else None
    return {"game": record.game, "format": DEAL_FORMAT, "players": state.num_players, "steps": steps,
            "result": result.to_dict() if result is not None else None, "match": match}


def _check_length(actions: int) -> None:
    if actions > MAX_REPLAY_STEPS:
        raise MalformedRecordError("server.record_too_long", field="actions", limit=MAX_REPLAY_STEPS)


def _deal_param(text: str) -> int:
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise MalformedRecordError("not_positive_whole_number", field="deal")
    return int(text)


def _step(state: State, event: JSONObject | None) -> JSONObject:
    hands: list[JSONValue] = []
    for seat in range(state.num_players):
        view: View = state.observe(seat)
        hands.append([str(c) for c in view.hand] if view.hand is not None else None)
    return {"event": event, "public": state.observe(None).to_dict(), "hands": hands}


__all__ = ["MAX_REPLAY_STEPS", "replay", "replay_text"]
