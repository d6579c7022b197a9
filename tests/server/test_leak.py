"""No message to a seat or a spectator ever names a card hidden from it at that moment.

Many seeded matches are played through the server (people at some seats, bots at
others, a spectator watching); a hook sees every message as it is queued and compares
its card tokens with ``hidden_cards(seat)`` of the state at that moment. Gou Ji and
Cambio have repeated cards: only cards all of whose copies are hidden count, as in
``folkdeck.engine.conformance.check_views``. The seat names and the match standings are
prose with numbers, checked for named cards only (the Cucco pack's cards are numbers).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

import folkdeck
from folkdeck.engine.conformance import _card_tokens
from folkdeck.server.main import create_app
from folkdeck.server.tables import Connection
from tests.server.conftest import create, make_settings


class _Sink(Connection):
    """A listener that drops what it is sent (the hook has checked it)."""

    def __init__(self) -> None:
        super().__init__(lambda text: None, 8)

    def push(self, message: dict[str, Any]) -> None:
        pass


GAMES = list(folkdeck.games())


@pytest.mark.parametrize("game", GAMES)
def test_no_message_leaks_hidden_cards(game: str, tmp_path: Any) -> None:
    settings = make_settings(tmp_path / "leak.sqlite3", send_queue=1_000_000)
    app = create_app(settings)
    checked = Counter[str]()
    latest: dict[tuple[str, int | None], dict[str, Any]] = {}

    def check(table: Any, seat: int | None, message: dict[str, Any]) -> None:
        state = table.state
        total = Counter(str(c) for cards in state.all_cards().values() for c in cards)
        hidden = Counter(str(c) for c in state.hidden_cards(seat))
        fully_hidden = {card for card, n in hidden.items() if n >= total[card]}
        table_part = message.get("table", {})
        prose = [table_part.get("standings", {}), [r["facts"] for r in table_part.get("results", [])]]
        scanned = {**message, "table": {k: v for k, v in table_part.items() if k not in ("seats", "standings")}}
        if "results" in table_part:
            scanned["table"]["results"] = [{**r, "facts": []} for r in table_part["results"]]
        leaked = _card_tokens(scanned) & fully_hidden
        # Names and standings are prose with numbers ("Player 3", "pot 4"), which the Cucco
        # pack's notation cannot tell from cards: there only named cards (OWL...) count.
        leaked |= {t for t in _card_tokens(prose) if not t.isdigit()} & fully_hidden
        assert not leaked, f"{game}: message to seat {seat} names hidden {sorted(leaked)}: {message}"
        checked[message["type"]] += 1
        if message["type"] == "state":
            latest[(table.id, seat)] = message

    app.state.tables.on_send = check
    matches = 2 if game != "gouji" else 1
    early_records = 0
    with TestClient(app) as client:
        for seed in range(matches):
            rng = random.Random(seed)
            spec = folkdeck.get_spec(game)
            n = spec.default_players
            kinds = ["human" if i % 2 == 0 or rng.random() < 0.5 else "bot" for i in range(n)]
            t = create(client, game, seed=seed, deals=1 if game == "gouji" else 2, seats=[{"kind": k, "bot": "random" if k == "bot" else None}
                                                                  for k in kinds])
            table = app.state.tables.get(t["id"])
            # every seat and a spectator listen (messages are checked as they are queued)
            assert client.portal is not None  # inside the TestClient's context: the app's event loop
            for seat in [None, *range(n)]:
                client.portal.call(app.state.tables.requests.join, table, seat, _Sink())
            if True:
                probed = -1
                for _ in range(8000):
                    if len(table.finished) != probed or table.match_over():
                        probed = len(table.finished)
                        early_records += _probe_records(client, table, t["id"])
                    if table.match_over():
                        break
                    acting = [s for s in table.state.to_act if kinds[s] == "human"]
                    if not acting:
                        client.get("/api/games")  # let the bots move
                        continue
                    seat = acting[0] if rng.random() < 0.8 else rng.choice(acting)
                    view = latest.get((t["id"], seat))
                    legal = view["obs"]["legal_actions"] if view else []
                    if not legal:
                        client.get("/api/games")
                        continue
                    action = rng.choice(legal)
                    client.post(f"/api/tables/{t['id']}/actions",
                                json={"token": t["seats"][seat]["token"], "action": action})
                assert table.match_over(), f"{game}: match not over"
    assert checked["state"] > 50
    if game not in ("cambio", "gouji"):  # one-deal Gou Ji matches here; Cambio's stay locked
        assert early_records > 0, "no record was given before the end of a match"


def _probe_records(client: TestClient, table: Any, tid: str) -> int:
    """The record endpoint (public: no token) gives a deal only once nothing of it is hidden.

    A deal in play is never given; Cambio's finished deals stay locked until the match is
    over (its stock carries over, docs/rules/cambio.md §3.6); the other games give each deal once it is over,
    and what is given is that finished deal, played to its end (whose cards the next
    shuffle makes irrelevant), never the deal in play."""
    game = table.game.spec.name
    early = 0
    for deal in range(1, table.config["deals"] + 1):
        resp = client.get(f"/api/tables/{tid}/records/{deal}")
        finished = deal <= len(table.finished)
        if not finished or (game == "cambio" and not table.match_over()):
            assert resp.status_code in (404, 409), f"{game}: deal {deal} given too early: {resp.text[:200]}"
            continue
        assert resp.status_code == 200, resp.text
        record = resp.json()
        done = table.finished[deal - 1]
        assert record["actions"] == done.actions and record["hands"] == done.hands
        assert done.replay().is_over()
        if not table.match_over() and not table.state.is_over():
            assert record["hands"] != _dealt(table.state), f"{game}: a record shows the deal in play"
            early += 1
    return early


def _dealt(state: Any) -> list[Any]:
    from folkdeck.engine.record import Record, dumps

    hands: list[Any] = json.loads(dumps(Record.from_state(state)))["hands"]
    return hands


def test_hook_sees_refusals_too(client: Any) -> None:
    seen: list[str] = []
    client.app.state.tables.on_send = lambda table, seat, msg: seen.append(msg["type"])
    t = create(client, "kaphai", seed=1)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
        ws.send_text(json.dumps({"type": "ping", "ref": 1}))
        while "pong" not in seen:
            ws.receive_text()
    assert "state" in seen
