"""Deltas, not whole states: what changed in a connection's view since the last message.

A connection is sent its whole view once (``{"type": "state", ..., "v": 1}``) after it
(re)connects, and after that only what changed (the protocol is in
:mod:`folkdeck.server.api.ws` and ``docs/web.md``)::

    {"type": "delta", "v": n, "base": n - 1,
     "set": {top-level keys of the state message, other than obs, whose values changed},
     "merge": {a top-level object that kept its keys: {its keys whose values changed}},
     "obs": {"history": [the history entries appended since base], "history_len": L,
             "set": {the other obs fields whose values changed}, "drop": [obs keys gone]}}

``merge`` is there only when some top-level object changed: the table's public facts
(``table``) change at every action (``actions``, ``deadline``), but their results and
standings only once a deal, and sent whole they made most of a message late in a match.
Values are otherwise whole (a changed field is sent whole, never a diff of it); the view is still
computed per seat (:meth:`folkdeck.server.tables.Table.view`), so a delta never holds what
the seat's view does not. When the history did not simply grow (a new deal), or a
top-level key disappeared, :func:`diff` gives None: the whole state is sent again.

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
>>> diff(new, {**new, "obs": {**new["obs"], "history": []}}, 3) is None  # a new deal: whole again
True
"""

from __future__ import annotations

from typing import Any

HISTORY = "history"


def diff(old: dict[str, Any], new: dict[str, Any], version: int) -> dict[str, Any] | None:
    """The delta that turns ``old`` (version ``version - 1``) into ``new``; None when the
    whole state must be sent instead (the history did not grow from ``old``'s, or a
    top-level key went away)."""
    old_obs: dict[str, Any] = old.get("obs") or {}
    new_obs: dict[str, Any] = new.get("obs") or {}
    if old.keys() - new.keys() or HISTORY not in old_obs or HISTORY not in new_obs:
        return None
    old_history: list[Any] = old_obs[HISTORY]
    new_history: list[Any] = new_obs[HISTORY]
    if len(new_history) < len(old_history) or (new_history is not old_history and
                                                new_history[:len(old_history)] != old_history):
        return None
    top: dict[str, Any] = {}
    merge: dict[str, dict[str, Any]] = {}
    for key, value in new.items():
        if key in ("obs", "type") or (key in old and (old[key] is value or old[key] == value)):
            continue
        before = old.get(key)
        if isinstance(value, dict) and isinstance(before, dict) and not before.keys() - value.keys():
            merge[key] = _changed(before, value)
        else:
            top[key] = value
    dropped = [key for key in old_obs if key not in new_obs]
    out: dict[str, Any] = {"type": "delta", "v": version, "base": version - 1, "set": top}
    if merge:
        out["merge"] = merge
    out["obs"] = {"history": new_history[len(old_history):], "history_len": len(new_history),
                  "set": _changed(old_obs, new_obs, skip=HISTORY), "drop": dropped}
    return out


def _changed(old: dict[str, Any], new: dict[str, Any], skip: str = "") -> dict[str, Any]:
    """The entries of ``new`` that ``old`` lacks or holds with another value (a value that is
    the same object is not compared: the views' encoder keeps unchanged values' JSON)."""
    return {key: value for key, value in new.items()
            if key != skip and (key not in old or (old[key] is not value and old[key] != value))}


def apply(view: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """The view ``delta`` leads to from ``view`` (the state message of version ``base``);
    ``view`` is not changed.

    :raises ValueError: the delta's history length does not add up (a missed message:
        the client asks for the whole state, ``{"type": "resync"}``).
    """
    obs_delta: dict[str, Any] = delta["obs"]
    obs = {key: value for key, value in (view.get("obs") or {}).items() if key not in obs_delta["drop"]}
    history = [*obs.get(HISTORY, []), *obs_delta["history"]]
    if len(history) != obs_delta["history_len"]:
        raise ValueError(f"history of {len(history)} entries, the delta says {obs_delta['history_len']}")
    obs.update(obs_delta["set"])
    obs[HISTORY] = history
    out = {**view, **delta["set"], "obs": obs}
    for key, changed in delta.get("merge", {}).items():
        out[key] = {**view[key], **changed}
    if "v" in view:
        out["v"] = delta["v"]
    return out


__all__ = ["apply", "diff"]
