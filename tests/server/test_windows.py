"""People's out-of-turn rights hold the bots back, so a person can use them without reflexes.

A public right (docs/rules/gouji.md §6: 先让让, after i played, i+1 and i+2 passed and the
opposite i+3 played, seat i may ask to go first): the bot on turn waits ``window_seconds``
for the person. A right from a hidden card (Cambio's cucco, docs/rules/cambio.md §4.3): the bot on
turn waits ``call_seconds`` for every connected person who may hold one for all the public
facts tell (``possible_callers``), whatever they hold, so the wait tells nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from folkdeck.games.cambio import CambioState
from folkdeck.server.main import create_app
from tests.e2e.test_out_of_turn import CASES, _start
from tests.server.conftest import create, make_settings, table_of, tables_of, until_state


def _at_the_window(client: Any) -> tuple[dict[str, Any], Any, int]:
    w = CASES["gouji-xian"]()
    t = create(client, "gouji", seed=w.seed, seats=[{"kind": "human"}] * 6)
    for seat, action in w.lines:
        resp = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["seats"][seat]["token"], "action": action})
        assert resp.status_code == 200, resp.text
    return t, table_of(client, t["id"]), w.entitled


def _make_bot(client: Any, table: Any, seat: int) -> None:
    table.seats[seat].update(kind="bot", bot="first", token=None)
    client.portal.call(tables_of(client).kick, table.id)  # in the app's event loop


def test_the_bot_on_turn_waits_for_a_person_with_a_public_right(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "w.sqlite3", window_seconds=1.5))) as client:
        t, table, entitled = _at_the_window(client)
        on_turn = table.state.to_act[0]
        actions = len(table.state.history)
        _make_bot(client, table, on_turn)
        time.sleep(0.8)
        assert len(table.state.history) == actions  # still waiting: the person may ask
        resp = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["seats"][entitled]["token"], "action": "xian"})
        assert resp.status_code == 200, resp.text
        assert table.state.history[actions].line == f"{entitled}: xian"


def test_the_wait_ends_and_the_bot_plays_on(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "w2.sqlite3", window_seconds=0.6))) as client:
        _, table, entitled = _at_the_window(client)
        on_turn = table.state.to_act[0]
        actions = len(table.state.history)
        started = time.monotonic()
        _make_bot(client, table, on_turn)
        while len(table.state.history) == actions and time.monotonic() - started < 10:
            time.sleep(0.02)
        assert len(table.state.history) > actions and time.monotonic() - started >= 0.55
        assert table.state.history[actions].line.startswith(f"{on_turn}:")


def _cambio_person(owl: bool) -> tuple[int, int]:
    """A seed and a seat: in the seed's first deal the seat holds an OWL (or not) and speaks
    after at least one other seat, so a request could reach it (docs/rules/cambio.md §4.3)."""
    for seed in range(200):
        state = cast(CambioState, _start("cambio", 4, {}, seed))
        order = list(state.possible_callers())
        for seat in order:
            if (str(state.card(seat)) == "OWL") is owl:
                return seed, seat
    raise AssertionError("no such deal")


@pytest.mark.parametrize("owl", [True, False])
def test_a_bot_gives_each_person_who_may_hold_an_owl_the_same_moment(tmp_path: Path, owl: bool) -> None:
    """Cambio's cucco comes from a hidden card: before a bot speaks, each connected person
    a request could still reach gets ``call_seconds``, holding an OWL or not, and every view
    is told the same wait; the holder calls during it (no reflexes needed)."""
    seed, person = _cambio_person(owl)
    with TestClient(create_app(make_settings(tmp_path / "c.sqlite3", call_seconds=0.8))) as client:
        t = create(client, "cambio", seed=seed, seats=[{"kind": "human"}] * 4)
        table = table_of(client, t["id"])
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][person]['token']}") as ws:
            until_state(ws)
            started = time.monotonic()
            for seat in range(4):
                if seat != person:
                    table.seats[seat].update(kind="bot", bot="first", token=None)
            assert client.portal is not None
            client.portal.call(tables_of(client).kick, table.id)
            waiting = until_state(ws, lambda m: m["table"]["calls"] is not None or m["table"]["actions"] > 0)
            assert waiting["table"]["calls"] is not None, "the bot spoke at once"
            assert 0 < waiting["table"]["calls"] <= 0.8 and waiting["obs"]["history"] == []
            assert waiting["obs"]["to_act"][:1] == [table.state.to_act[0]]  # the bot on turn, nobody else named
            if owl:
                time.sleep(0.3)  # a person without reflexes: the bot has not spoken meanwhile
                assert not table.state.history
                ws.send_text(json.dumps({"type": "action", "action": "cucco", "ref": 1}))
                until_state(ws, lambda m: m["obs"]["result"] is not None or m["table"]["deal"] > 1)
                assert table.finished[0].actions[0] == f"{person}: cucco"
            else:
                moved = until_state(ws, lambda m: m["table"]["actions"] > 0)
                assert time.monotonic() - started >= 0.75 and moved["table"]["calls"] is None


def test_no_moment_without_a_connected_person_or_a_possible_caller(tmp_path: Path) -> None:
    """Nobody connected (a person away, a table of bots) or nobody a request can reach: the
    bots play on at once."""
    seed, person = _cambio_person(False)
    assert _start("cambio", 4, {}, seed).to_act[0] != person  # a bot speaks before the person
    with TestClient(create_app(make_settings(tmp_path / "n.sqlite3", call_seconds=30))) as client:
        started = time.monotonic()
        seats = [{"kind": "human"} if s == person else {"kind": "bot", "bot": "first"} for s in range(4)]
        t = create(client, "cambio", seed=seed, seats=seats)
        table = table_of(client, t["id"])
        while table.state.to_act[:1] != (person,) and not table.state.is_over():
            assert time.monotonic() - started < 10, "the bots waited for a person not connected"
            time.sleep(0.02)
        assert table.state.history
