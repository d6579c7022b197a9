"""``folkdeck replay FILE [--legal | --view SEAT]`` (the contract of docs/records.md).

Exit status: 0 with JSON on stdout; 1 for an illegal action (stderr names its
0-based index, the action and the reason; nothing on stdout); 2 for a malformed
record (stderr names the field).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.record import ReplayError, loads


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MalformedRecordError(f"cannot read {path}: {exc}", field="(file)") from exc


def replay(path: str, *, legal: bool = False, view: int | None = None) -> int:
    try:
        record = loads(_read(path))
        state = record.replay()
    except ReplayError as exc:
        print(f"folkdeck replay: {exc.message}", file=sys.stderr)
        return 1
    except MalformedRecordError as exc:
        print(f"folkdeck replay: malformed record: {exc.message}", file=sys.stderr)
        return 2
    out: Any
    if legal:
        out = [f"{seat}: {action}" for seat in state.to_act for action in state.legal_actions(seat)]
    elif view is not None:
        if not 0 <= view < state.num_players:
            print(f"folkdeck replay: --view {view}: seats are 0 to {state.num_players - 1}",
                  file=sys.stderr)
            return 2
        out = state.observe(view).to_dict()
    else:
        result = state.result()
        out = {"game": state.game.spec.name, "over": state.is_over(), "phase": state.phase,
               "to_act": list(state.to_act), "current_seat": state.current_seat,
               "actions_applied": len(record.actions),
               "result": result.to_dict() if result is not None else None}
    print(json.dumps(out, ensure_ascii=False))
    return 0
