"""Every record shipped in examples/ and docs/ replays to exactly the outcome it had
before the structured boundary: same result, same seats to act, same legal actions.

``tests/data/record_outcomes.json`` was written by replaying each record with the
version before typed events (commit 4019843); a change that alters any record's
outcome fails here, as every existing record must replay with identical results.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from folkdeck.engine.record import loads

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = json.loads((ROOT / "tests" / "data" / "record_outcomes.json").read_text(encoding="utf-8"))


def _records() -> dict[str, str]:
    docs = re.findall(r"```json\n(.*?)```", (ROOT / "docs" / "records.md").read_text(encoding="utf-8"), re.S)
    out = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples" / "records").glob("*.json"))}
    out |= {"docs/records.md#" + hashlib.sha1(json.dumps(json.loads(b), sort_keys=True).encode()).hexdigest()[:12]: b
            for b in docs if '"game"' in b and '"actions"' in b and '"folkdeck-match/1"' not in b}
    return out


RECORDS = _records()


def test_every_old_record_is_still_shipped() -> None:
    assert set(EXPECTED) <= set(RECORDS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_record_replays_to_the_same_outcome(name: str) -> None:
    state = loads(RECORDS[name]).replay()
    result = state.result()
    got = {"over": state.is_over(), "to_act": list(state.to_act), "actions": len(state.history),
           "result": None if result is None else {"placings": list(result.placings),
                                                  "returns": list(result.returns), "reason": result.reason},
           "legal": sorted(str(a) for s in state.to_act for a in state.legal_actions(s))}
    assert got == EXPECTED[name]
