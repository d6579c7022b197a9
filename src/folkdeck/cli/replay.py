"""``folkdeck replay FILE [--deal N] [--legal | --view SEAT]`` (the contract of docs/records.md).

The file is read by its ``"format"``:

* ``folkdeck-record/1`` (or no format): one deal; prints the position (or, with
  ``--legal``/``--view``, the legal actions or a seat's view) as JSON.
* ``folkdeck-match/1``: the whole match is replayed through the game's match, every
  deal's setup, report and the standings checked; prints the standings. ``--deal N``
  takes deal ``N`` (0-based) out as a ``folkdeck-record/1`` and prints it, or replays it
  with ``--legal``/``--view``.
* an arena results file (``folkdeck arena --out FILE.json``): every game's record is
  replayed and its returns checked; ``--deal N`` takes game ``N``'s record out as above.

Exit status, one rule for every format: 0 with JSON on stdout; 1 when a well-formed
record does not replay to what it says (an illegal action; a setup, ``before``/``after``
fact, standing or return the rules do not give; a deal after the match's end), stderr
naming the deal, the action or the field and the reason; 2 when the input cannot be read
or the record is malformed (a file, its JSON, a missing or unknown field, a value of the
wrong type, a ``--deal`` that does not exist), stderr naming the field. Nothing goes to
stdout on an error, and no input gives a traceback.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from typing import IO, TypeGuard

from folkdeck.cli.errors import CliError
from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.jsonin import MAX_BYTES
from folkdeck.engine.match_record import FORMAT as MATCH_FORMAT
from folkdeck.engine.match_record import MatchRecord, RecordMismatchError
from folkdeck.engine.protocol import State
from folkdeck.engine.record import Record, ReplayError, decode_json
from folkdeck.engine.record import dumps as record_dumps
from folkdeck.json_types import JSONObject, JSONValue


def read_input(path: str, *, limit: int = MAX_BYTES) -> JSONValue:
    """The decoded JSON of a file (``-``: standard input), read no further than ``limit``
    bytes: a huge file, a device or a binary file is refused without reading it all.

    :raises CliError: for a file that cannot be opened.
    :raises MalformedRecordError: for text that is too long, not UTF-8 or not JSON.
    """
    if path == "-":
        stream: IO[bytes] = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else _encoded(sys.stdin)
        data, size = stream.read(limit + 1), None
    else:
        try:
            with open(path, "rb") as fp:  # noqa: PTH123 - fstat needs the file object
                size = os.fstat(fp.fileno()).st_size or None
                data = fp.read(limit + 1)
        except OSError as exc:
            raise _unreadable(path, exc) from exc
    if len(data) > limit:
        raise MalformedRecordError("json_too_large", field="(file)", size=size or len(data), limit=limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedRecordError("json_not_utf8", field="(file)", position=exc.start) from exc
    return decode_json(text)


def _encoded(stream: IO[str]) -> IO[bytes]:
    import io

    return io.BytesIO(stream.read().encode("utf-8", "surrogateescape"))


def _unreadable(path: str, exc: OSError) -> CliError:
    reason = {errno.ENOENT: "no_file", errno.EISDIR: "is_folder", errno.EACCES: "no_permission"}.get(
        exc.errno or 0, "cannot_read")
    return CliError(reason, path=path, detail=errno.errorcode.get(exc.errno or 0, type(exc).__name__))


def replay(path: str, *, deal: int | None = None, legal: bool = False, view: int | None = None) -> int:
    data = read_input(path)
    position = legal or view is not None
    if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
        match = MatchRecord.from_dict(data)
        if deal is None:
            if position:
                raise CliError("deal_needed", kind="match", count=len(match.deals), last=len(match.deals) - 1)
            return _print(match.replay().standings.to_dict())
        if not 0 <= deal < len(match.deals):  # the argument is wrong, not the record
            raise CliError("no_such_deal", deal=deal, count=len(match.deals), last=len(match.deals) - 1)
        return _one_deal(match.deal(deal), legal=legal, view=view)
    if _is_arena_results(data):
        if deal is None:
            if position:
                games = _games(data)
                raise CliError("deal_needed", kind="arena", count=len(games), last=len(games) - 1)
            return _print(_replay_arena(data))
        return _one_deal(_arena_record(data, deal), legal=legal, view=view)
    record = Record.from_dict(data)
    if deal is not None:
        raise CliError("deal_of_one_deal")
    return _print(_position(record.replay(), len(record.actions), legal=legal, view=view))


def _one_deal(record: Record, *, legal: bool, view: int | None) -> int:
    """A deal taken out of a match or an arena: printed as a record, or replayed."""
    if not legal and view is None:
        print(record_dumps(record))
        return 0
    return _print(_position(record.replay(), len(record.actions), legal=legal, view=view))


def _position(state: State, applied: int, *, legal: bool, view: int | None) -> JSONValue:
    if legal:
        return [f"{seat}: {action}" for seat in state.to_act for action in state.legal_actions(seat)]
    if view is not None:
        if not 0 <= view < state.num_players:
            raise CliError("no_such_view_seat", seat=view, last=state.num_players - 1)
        return state.observe(view).to_dict()
    result = state.result()
    return {"game": state.game.spec.name, "over": state.is_over(), "phase": state.phase,
            "to_act": list(state.to_act), "current_seat": state.current_seat,
            "actions_applied": applied, "result": result.to_dict() if result is not None else None}


def _print(out: JSONValue) -> int:
    print(json.dumps(out, ensure_ascii=False))
    return 0


# --- arena results -----------------------------------------------------------------------

def _is_arena_results(data: JSONValue) -> TypeGuard[JSONObject]:
    """An arena's JSON results (``folkdeck.sim.arena.write_results``): no ``format``, a
    ``config`` and a list of ``games``."""
    return (isinstance(data, dict) and "format" not in data and isinstance(data.get("config"), dict)
            and isinstance(data.get("games"), list))


def _arena_record(data: JSONObject, index: int) -> Record:
    games = _games(data)
    if not 0 <= index < len(games):
        raise CliError("no_such_game", deal=index, count=len(games), last=len(games) - 1)
    game = games[index]
    if not isinstance(game, dict):
        raise MalformedRecordError("not_object", field=f"games[{index}]")
    if "record" not in game:
        raise CliError("arena_without_records")
    try:
        return Record.from_dict(game["record"])
    except MalformedRecordError as exc:
        raise MalformedRecordError(exc.reason, **{**exc.params, "field": f"games[{index}].record.{exc.field}"}
                                   ) from exc


def _games(data: JSONObject) -> list[JSONValue]:
    """An arena results file's ``games`` (a list: :func:`_is_arena_results` checked it)."""
    games = data["games"]
    return games if isinstance(games, list) else []


def _replay_arena(data: JSONObject) -> JSONObject:
    """Replay every game's record and check its returns; a summary of what was replayed."""
    games = _games(data)
    replayed = 0
    for index, game in enumerate(games):
        if not isinstance(game, dict) or "record" not in game:
            continue
        record = _arena_record(data, index)
        try:
            state = record.replay()
        except ReplayError as exc:
            raise ReplayError(exc.index, exc.line, exc.cause, deal=index) from exc
        except MalformedRecordError as exc:
            raise MalformedRecordError(exc.reason, **{**exc.params, "field": f"games[{index}].record.{exc.field}"}
                                       ) from exc
        result = state.result()
        derived = list(result.returns) if result is not None else None
        if derived != game.get("returns"):
            raise RecordMismatchError(field=f"games[{index}].returns", expected=derived, found=game.get("returns"))
        replayed += 1
    if not replayed:
        raise CliError("arena_without_records")
    config = data["config"]
    return {"game": config.get("game") if isinstance(config, dict) else None, "games": len(games), "replayed": replayed}


__all__ = ["read_input", "replay"]

