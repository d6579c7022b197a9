"""Units of the table page's modules under node (no browser): the ranking of the standings
(``result.js``'s ``standingPlaces``: a tie is shared) and the page's one store (``model.js``'s
``tableReduce``: one action in flight, a hint kept only when it is current, a delta that does
not fit marks the state stale). Skipped where node is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import folkdeck

WEB = Path(folkdeck.__file__).parent / "web"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run(module: str, script: str, prelude: str = "") -> Any:
    """What ``script`` writes (JSON), run with ``module``'s exports as ``m`` (imported after ``prelude``)."""
    assert NODE is not None
    code = f"{prelude}\nconst m = await import({json.dumps((WEB / module).as_uri())});\n{script}"
    out = subprocess.run([NODE, "--input-type=module", "-e", code], capture_output=True, text=True, timeout=60,
                         check=True)
    return json.loads(out.stdout)


def test_a_tie_is_a_shared_place() -> None:
    """A 5–5 tie is joint 1st and the next seat 3rd; penalties rank the other way; an
    eliminated seat is behind every other whatever its score."""
    places = _run("result.js", """
      const cases = [
        {scores: [5, 5, 3]}, {scores: [5, 5]}, {scores: [2, 7, 7, 1]},
        {scores: [10, 4, 4], higher_wins: false}, {scores: [9, 1, 5], eliminated: [0]},
      ];
      process.stdout.write(JSON.stringify(cases.map(m.standingPlaces)));""")
    assert places == [[1, 1, 3], [1, 1], [3, 1, 1, 4], [3, 1, 1], [3, 2, 1]]


def test_the_store_sends_one_action_at_a_time_and_settles_it() -> None:
    states = _run("model.js", """
      const s0 = m.initialTable(100);
      const s1 = m.tableReduce(s0, {type: "send", action: "3S"});
      const s2 = m.tableReduce(s1, {type: "send", action: "pass"});   // a second click: nothing
      const s3 = m.tableReduce(s2, {type: "sent"});
      const s4 = m.tableReduce(s3, {type: "answered", ref: 99, ack: true});  // another ref: kept
      const s5 = m.tableReduce(s4, {type: "answered", ref: 101, ack: true});
      process.stdout.write(JSON.stringify([s1.pending, s2 === s1, s3.pending, s4.pending !== null, s5.pending, s0.pending]));""")
    assert states == [{"type": "action", "action": "3S", "ref": 101}, True,
                      {"type": "action", "action": "3S", "ref": 101, "resend": True}, True, None, None]


def test_the_store_keeps_a_hint_only_while_current_and_marks_a_stale_delta() -> None:
    out = _run("model.js", """
      let s = m.tableReduce(m.initialTable(5), {type: "ask_hint"});
      const asked = s.hintRef;
      const old = m.tableReduce(s, {type: "hint", hint: {ref: asked}, current: false, cards: [1]});
      const now = m.tableReduce(s, {type: "hint", hint: {ref: asked}, current: true, cards: [1, 2]});
      const other = m.tableReduce(s, {type: "hint", hint: {ref: asked + 7}, current: true, cards: [1]});
      const state = {type: "state", v: 1, table: {deal: 1}, obs: {history: []}};
      const s1 = m.tableReduce(m.initialTable(5), {type: "message", message: state});
      const stale = m.tableReduce(s1, {type: "message", message: {type: "delta", v: 3, base: 2, obs: {}}});
      const deal2 = m.tableReduce(s1, {type: "message", message: {...state, table: {deal: 2}}});
      process.stdout.write(JSON.stringify([asked, old.hint, old.hintRef, old.selected, now.hint, now.selected,
        other === s, stale.stale, stale.model === s1.model, deal2.dealing, s1.dealing]));""")
    assert out == [6, None, None, [], {"ref": 6}, [1, 2], True, True, True, True, False]


def _run_page(module: str, script: str) -> Any:
    """As :func:`_run`, with the English catalog loaded (the browser's globals stubbed)."""
    i18n_dir = WEB.parent / "i18n"
    setup = f"""
      const {{ readFileSync }} = await import("node:fs");
      globalThis.localStorage = {{ getItem: () => "en", setItem: () => {{}} }};
      Object.defineProperty(globalThis, "navigator", {{ value: {{ language: "en" }}, configurable: true }});
      globalThis.document = {{ documentElement: {{}} }};
      globalThis.fetch = async (url) => ({{ json: async () => JSON.parse(readFileSync({json.dumps(str(i18n_dir))} + "/" + url.split("/").pop(), "utf-8")) }});
      const i18n = await import({json.dumps((WEB / "i18n.js").as_uri())});
      await i18n.loadCatalogs();
    """
    return _run(module, script, setup)


def test_a_seat_gone_out_shows_its_place_once() -> None:
    """Issue 35 (7): a seat that went out shows its place as its badge, not again among its facts."""
    seats = _run_page("seats.js", """
      const msg = {you: 0, table: {seats: [{kind: "human", name: "A", connected: true},
                                           {kind: "human", name: "B", connected: true},
                                           {kind: "human", name: "C", connected: true}]},
                   obs: {counts: [5, 0, 4], out: [1], history: [], current_seat: 2, to_act: [2]}};
      const R = new i18n.Renderer({viewer: 0});
      process.stdout.write(JSON.stringify(m.tableSeats(msg, R, null).map((s) => [s.seat, s.out, s.facts])));""")
    gone = next(s for s in seats if s[0] == 1)
    assert gone[1] == "1st" and not any("1st" in fact for fact in gone[2]), gone
    assert all(s[1] is None for s in seats if s[0] != 1)


def test_the_hint_says_a_next_choice_that_averaged_more_was_not_clearly_better() -> None:
    """``hint.js``'s ``hintText`` (as the terminal's ``coach.hint_text``): a bot's order is its
    rule's, so the next action may have averaged more than the one it plays; the catalog's
    ``hint.next_unsure`` says so, ``hint.next`` a next that averaged less."""
    keys = _run("hint.js", """
      const R = {ui: (key, params) => `${key}|${params ? params.value ?? "" : ""}`};
      const hint = (next) => ({by: "search", action: "3", values: [{action: "3", value: 0.5, worlds: 20}, {action: "4", value: next, worlds: 20}]});
      const said = (v) => m.hintText(R, hint(v), String).split(" ").slice(1).join(" ");
      process.stdout.write(JSON.stringify([said(0.25), said(0.75), said(0.5)]));""")
    assert keys == ["hint.next|+0.25", "hint.next_unsure|+0.75", "hint.next|+0.50"]
