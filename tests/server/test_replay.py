"""``POST /api/replay``'s answer (issue 24): it grows with a deal's length, not its square (the
first step whole, each later one the delta from the step before, in the table's WebSocket
delta format), the deltas rebuild exactly the steps the whole form gives, the whole form is
given on request for short deals only, the work stops at the request's deadline, and a
refusal never repeats the record."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from folkdeck.server import delta, replay
from folkdeck.server.replay import replay_text

RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"


def _answer(record: dict[str, Any] | str, form: str = "delta", deal: str = "1") -> tuple[dict[str, Any], int]:
    """The answer to ``record`` as JSON and its size in bytes; the request must succeed."""
    text = record if isinstance(record, str) else json.dumps(record)
    status, answer = replay_text(text, deal, form)
    assert status == 200, answer[:300]
    return json.loads(answer), len(answer.encode())


def _whole_steps(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step whole, as the viewer rebuilds them (web/replay.js with model.js; here
    delta.apply, the server's own reading of the format)."""
    steps: list[dict[str, Any]] = []
    state: dict[str, Any] = {}
    for index, step in enumerate(answer["steps"]):
        if "delta" in step:
            assert step["delta"]["base"] == index - 1 and step["delta"]["v"] == index
            state = delta.apply(state, step["delta"])
        else:
            state = {"type": "state", "obs": step["public"],
                     "hands": {str(seat): hand for seat, hand in enumerate(step["hands"])}}
        hands: Any = state["hands"]
        steps.append({"event": step["event"], "public": state["obs"],
                      "hands": [hands[str(seat)] for seat in range(answer["players"])]})
    return steps


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_the_deltas_rebuild_every_whole_step(path: Path) -> None:
    """Every example record: the default answer, rebuilt step by step, is the ``?steps=full``
    answer, and only its first step is sent whole."""
    text = path.read_text()
    compact, _ = _answer(text)
    whole, _ = _answer(text, "full")
    assert compact["steps_form"] == "delta" and whole["steps_form"] == "full"
    assert len(compact["steps"]) == len(json.loads(text)["actions"]) + 1
    assert _whole_steps(compact) == whole["steps"]
    assert [i for i, step in enumerate(compact["steps"]) if "public" in step] == [0]
    assert {k: v for k, v in compact.items() if k not in ("steps", "steps_form")} == \
        {k: v for k, v in whole.items() if k not in ("steps", "steps_form")}


@pytest.mark.parametrize("name", ["gouji-normal-deal", "kaphai-greedy-deal"])
def test_the_answer_grows_with_the_deals_length_not_its_square(name: str) -> None:
    """A deal twice as long answers in about twice the bytes (the first half of the same deal
    against all of it); the whole form, which repeats the history at every step, grows about
    four times, so the test tells the two apart."""
    record = json.loads((RECORDS / f"{name}.json").read_text())
    half = {**record, "actions": record["actions"][:len(record["actions"]) // 2]}
    _, half_bytes = _answer(half)
    _, all_bytes = _answer(record)
    assert all_bytes < 2.5 * half_bytes, (half_bytes, all_bytes)
    _, half_full = _answer(half, "full")
    _, all_full = _answer(record, "full")
    assert all_full > 3 * half_full, (half_full, all_full)
    assert all_bytes < all_full / 5


def test_the_whole_form_is_for_short_deals_and_the_forms_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (RECORDS / "kaphai-greedy-deal.json").read_text()
    actions = len(json.loads(text)["actions"])
    monkeypatch.setattr(replay, "MAX_FULL_STEPS", actions - 1)
    status, body = replay_text(text, "1", "full")
    assert status == 422 and json.loads(body)["reason"] == "server.record_too_long"
    assert json.loads(body)["params"]["limit"] == actions - 1
    assert replay_text(text, "1")[0] == 200  # the deltas: up to MAX_REPLAY_STEPS
    status, body = replay_text(text, "1", "diffs")
    assert status == 422 and json.loads(body)["reason"] == "unknown_option"
    assert json.loads(body)["params"]["field"] == "steps"


def test_the_work_stops_at_the_deadline() -> None:
    """A worker stops replaying once the request's time is up (the server no longer waits for
    it): the busy refusal, 503 ``full``."""
    text = (RECORDS / "gouji-normal-deal.json").read_text()
    status, body = replay_text(text, "1", "delta", time.monotonic() - 1)
    assert status == 503 and json.loads(body)["error"] == "full"
    assert replay_text(text, "1", "delta", time.monotonic() + 60)[0] == 200


MARK = "QQQQQ"
"""A text no refusal may repeat: it is only in the record."""


def _refused(record: dict[str, Any], deal: str = "1") -> dict[str, Any]:
    status, body = replay_text(json.dumps(record), deal)
    assert 400 <= status < 500, body[:300]
    assert MARK not in body and len(body) < 2000, body[:300]
    refusal: dict[str, Any] = json.loads(body)
    assert all(not isinstance(v, list | dict) for v in refusal["params"].values()), refusal
    return refusal


def test_a_refusal_never_repeats_the_record() -> None:
    """Bad cards, an unreadable action line and an action the rules refuse: each refusal names
    the field and keeps nothing of what was sent (a match's reports: tests/server/test_limits.py)."""
    deal = json.loads((RECORDS / "kaphai-greedy-deal.json").read_text())
    assert _refused({**deal, "hands": [[MARK * 20] * 13] * 4})["error"] == "malformed_record"
    assert _refused({**deal, "actions": [f"0: {MARK * 40}"]})["params"]["field"] == "actions[0]"
    illegal = _refused({**deal, "actions": deal["actions"][:1] * 2, "players": [MARK * 30] * 4})
    assert illegal["error"] == "illegal_record_action" and illegal["params"]["index"] == 1
