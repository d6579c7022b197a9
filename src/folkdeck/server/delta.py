"""Deltas, not whole states: what changed in a connection's view since the last message.

A connection is sent its whole view once (``{"type": "state", ..., "v": 1}``) after it
(re)connects, and after that only what changed (the protocol is in
:mod:`folkdeck.server.api.ws` and ``docs/web.md``)::

    {"type": "delta", "v": n, "base": n - 1,
     "set": {top-level keys of the state message, other than obs, whose values changed},
     "merge": {a top-level object that kept its keys: {its keys whose values changed}},
     "append": {such an object: {its lists that grew at their end: [the entries added]}},
     "obs": {"history": [the history entries appended since base], "history_len": L,
             "restart": true (only when the history began again: a new deal),
             "set": {the other obs fields whose values changed}, "drop": [obs keys gone]}}

``merge`` and ``append`` are there only when some top-level object changed: the table's
public facts (``table``) change at every action (``actions``, ``deadline``), but their
results and standings only once a deal, and sent whole they made most of a message late
in a match; its lists that only grow (``results``, ``records``) are sent by their new
entries. A new deal's view comes as a delta too (``restart``: the history given is the
whole new history), so that the match's results are not sent again with it. Values are
otherwise whole (a changed field is sent whole, never a diff of it); the view is still
computed per seat (:meth:`folkdeck.server.tables.Table.view`), so a delta never holds what
the seat's view does not. When a top-level key disappeared, :func:`diff` gives None: the
whole state is sent again.

>>> old = {"type": "state", "you": 0, "may_act": False, "table": {"actions": 1, "results": [7]},
...        "obs": {"history": [{"seat": 1}], "hand": ["4C", "5D"], "passed": [1]}}
>>> new = {"type": "state", "you": 0, "may_act": True, "table": {"actions": 2, "results": [7]},
...        "obs": {"history": [{"seat": 1}, {"seat": 0}], "hand": ["5D"]}}
>>> d = diff(old, new, 2)
>>> d == {"type": "delta", "v": 2, "base": 1, "set": {"may_act": True}, "merge": {"table": {"actions": 2}},
...       "obs": {"history": [{"seat": 0}], "history_len": 2, "set": {"hand": ["5D"]}, "drop": ["passed"]}}
True
>>> apply(old, d) == new
True
>>> deal2 = {**new, "table": {"actions": 0, "results": [7, 8]}, "obs": {"history": [], "hand": ["9S"]}}
>>> d = diff(new, deal2, 3)  # a new deal: the history begins again, the results grow
>>> d["append"], d["merge"], d["obs"]["restart"], apply(new, d) == deal2
({'table': {'results': [8]}}, {'table': {'actions': 0}}, True, True)
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from folkdeck.json_types import JSONObject, JSONValue

HISTORY = "history"


class ObsDelta(TypedDict):
    """What changed in a state message's ``obs`` (the seat's view)."""

    history: list[JSONValue]
    history_len: int
    set: JSONObject
    drop: list[str]
    restart: NotRequired[Literal[True]]


class _TableGrowth(TypedDict, total=False):
    merge: dict[str, JSONObject]
    append: dict[str, dict[str, list[JSONValue]]]


class Delta(TypedDict):
    """A ``delta`` message: the state message of version ``v`` from the one of ``base``."""

    type: Literal["delta"]
    v: int
    base: int
    set: JSONObject
    merge: NotRequired[dict[str, JSONObject]]
    append: NotRequired[dict[str, dict[str, list[JSONValue]]]]
    obs: ObsDelta


def _object(value: JSONValue | None) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _list(value: JSONValue | None) -> list[JSONValue]:
    return value if isinstance(value, list) else []


def diff(old: JSONObject, new: JSONObject, version: int) -> Delta | None:
    """The delta that turns ``old`` (version ``version - 1``) into ``new``; None when the
    whole state must be sent instead (a top-level key went away, or a view has no history)."""
    old_obs = _object(old.get("obs"))
    new_obs = _object(new.get("obs"))
    if old.keys() - new.keys() or HISTORY not in old_obs or HISTORY not in new_obs:
        return None
    top: JSONObject = {}
    merge: dict[str, JSONObject] = {}
    append: dict[str, dict[str, list[JSONValue]]] = {}
    for key, value in new.items():
        if key in ("obs", "type") or (key in old and (old[key] is value or old[key] == value)):
            continue
        before = old.get(key)
        if isinstance(value, dict) and isinstance(before, dict) and not before.keys() - value.keys():
            changed = _changed(before, value)
            grown = _grown(before, changed)
            if grown:
                append[key] = grown
            if len(grown) < len(changed):
                merge[key] = {sub: item for sub, item in changed.items() if sub not in grown}
        else:
            top[key] = value
    # "obs" last, as the message has always been written
    return {"type": "delta", "v": version, "base": version - 1, "set": top, **_growth(merge, append),
            "obs": _obs_delta(old_obs, new_obs)}


def _grown(before: JSONObject, changed: JSONObject) -> dict[str, list[JSONValue]]:
    """The lists of ``before`` that ``changed`` holds with entries added at their end: those entries."""
    grown: dict[str, list[JSONValue]] = {}
    for sub, items in changed.items():
        kept = before.get(sub)
        if isinstance(kept, list) and isinstance(items, list) and _extends(kept, items):
            grown[sub] = items[len(kept):]
    return grown


def _growth(merge: dict[str, JSONObject], append: dict[str, dict[str, list[JSONValue]]]) -> _TableGrowth:
    """The ``merge`` and ``append`` parts of a delta, each only when it holds something."""
    growth: _TableGrowth = {}
    if merge:
        growth["merge"] = merge
    if append:
        growth["append"] = append
    return growth


def _obs_delta(old_obs: JSONObject, new_obs: JSONObject) -> ObsDelta:
    old_history = _list(old_obs[HISTORY])
    new_history = _list(new_obs[HISTORY])
    grew = new_history is old_history or _extends(old_history, new_history)
    out: ObsDelta = {
        "history": new_history[len(old_history):] if grew else new_history, "history_len": len(new_history),
        "set": _changed(old_obs, new_obs, skip=HISTORY), "drop": [key for key in old_obs if key not in new_obs]}
    if not grew:
        out["restart"] = True
    return out


def _extends(old: JSONValue, new: JSONValue) -> bool:
    """Whether list ``new`` is list ``old`` with entries added at its end."""
    return (isinstance(old, list) and isinstance(new, list) and len(new) >= len(old)
            and new[:len(old)] == old)


def _changed(old: JSONObject, new: JSONObject, skip: str = "") -> JSONObject:
    """The entries of ``new`` that ``old`` lacks or holds with another value (a value that is
    the same object is not compared: the views' encoder keeps unchanged values' JSON)."""
    return {key: value for key, value in new.items()
            if key != skip and (key not in old or (old[key] is not value and old[key] != value))}


def apply(view: JSONObject, delta: Delta) -> JSONObject:
    """The view ``delta`` leads to from ``view`` (the state message of version ``base``);
    ``view`` is not changed.

    :raises ValueError: the delta's history length does not add up (a missed message:
        the client asks for the whole state, ``{"type": "resync"}``).
    """
    obs_delta = delta["obs"]
    obs = {key: value for key, value in _object(view.get("obs")).items() if key not in obs_delta["drop"]}
    kept = [] if obs_delta.get("restart") else _list(obs.get(HISTORY))
    history = [*kept, *obs_delta["history"]]
    if len(history) != obs_delta["history_len"]:
        raise ValueError(f"history of {len(history)} entries, the delta says {obs_delta['history_len']}")
    obs.update(obs_delta["set"])
    obs[HISTORY] = history
    out: JSONObject = {**view, **delta["set"], "obs": obs}
    for key, changed in delta.get("merge", {}).items():
        out[key] = {**_object(view[key]), **changed}
    for key, grown in delta.get("append", {}).items():
        before = _object(view[key])
        out[key] = {**_object(out[key]), **{sub: [*_list(before[sub]), *items] for sub, items in grown.items()}}
    if "v" in view:
        out["v"] = delta["v"]
    return out


__all__ = ["Delta", "ObsDelta", "apply", "diff"]
