"""The HTTP API: games, creating tables, refusals, records, replay."""

from __future__ import annotations

from typing import Any

import folkdeck
from tests.server.conftest import create


def test_games_list_every_game_with_options_and_bots(client: Any) -> None:
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == list(folkdeck.games())
    kaphai = next(g for g in games if g["name"] == "kaphai")
    assert kaphai["pack"] == "french" and "greedy" in kaphai["bots"]
    assert {"name": "putuh_tie", "default": "rank", "choices": "rank | shared_first"} in kaphai["options"]
    assert client.get("/api/games/nope").status_code == 404


def test_rules_markdown(client: Any) -> None:
    doc = client.get("/api/games/kaphai/rules").json()
    assert doc["markdown"].startswith("#")


def test_create_table_links_and_public_view(client: Any) -> None:
    t = create(client, "cangkul", players=3, seats=[{"kind": "human", "name": "Ann"},
                                                     {"kind": "bot", "bot": "random"}, {"kind": "human"}])
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "human"]
    tokens = [s["token"] for s in t["seats"] if s["token"]]
    assert len(set(tokens)) == 2 and all(len(k) >= 24 for k in tokens)
    assert t["seats"][0]["link"] == f"/table?t={t['id']}&k={tokens[0]}"
    pub = client.get(f"/api/tables/{t['id']}").json()
    assert pub["players"] == 3 and pub["seats"][0]["name"] == "Ann" and "token" not in str(pub["seats"])


def test_bad_tables_are_refused_with_the_reason(client: Any) -> None:
    r = client.post("/api/tables", json={"game": "kaphai", "players": 9})
    assert r.status_code == 422 and r.json()["detail"]["error"] == "invalid_config"
    r = client.post("/api/tables", json={"game": "kaphai", "options": {"putuh_tie": "nope"}})
    assert r.status_code == 422 and "putuh_tie" in r.json()["detail"]["message"]
    r = client.post("/api/tables", json={"game": "kaphai", "seats": [{"kind": "bot", "bot": "zzz"}] * 4})
    assert r.status_code == 422 and "zzz" in r.json()["detail"]["message"]
    r = client.post("/api/tables", json={"game": "kaphai", "surprise": 1})
    assert r.status_code == 422


def test_rest_actions_need_a_seat_token_and_refusals_change_nothing(client: Any) -> None:
    t = create(client, "kaphai", seed=3, seats=[{"kind": "human"}] * 4)
    tid = t["id"]
    tokens = [s["token"] for s in t["seats"]]
    r = client.post(f"/api/tables/{tid}/actions", json={"token": "x" * 24, "action": "pass"})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/actions", json={"token": t["spectator_token"], "action": "pass"})
    assert r.status_code == 403
    table = client.app.state.tables.get(tid)
    seat = table.state.current_seat
    other = (seat + 1) % 4
    before = len(table.state.history)
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[other], "action": "pass"})
    assert r.status_code == 409 and r.json()["detail"]["error"] == "not_your_turn"
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[seat], "action": "ZZ"})
    assert r.status_code == 422 and r.json()["detail"]["error"] == "invalid_notation"
    assert len(table.state.history) == before
    action = str(table.state.legal_actions()[0])
    r = client.post(f"/api/tables/{tid}/actions", json={"token": tokens[seat], "action": action})
    assert r.status_code == 200 and r.json()["line"] == f"{seat}: {action}"


def test_records_only_after_the_match_and_replay(client: Any) -> None:
    t = create(client, "kaphai", seed=5, seats=[{"kind": "bot"}] * 4)
    assert client.get(f"/api/tables/{t['id']}/records/1").status_code in (200, 409)
    table = client.app.state.tables.get(t["id"])
    for _ in range(200):
        if table.match_over():
            break
        client.get("/api/games")  # let the bots play
    assert table.match_over()
    record = client.get(f"/api/tables/{t['id']}/records/1")
    assert record.status_code == 200 and record.json()["format"] == "folkdeck-record/1"
    steps = client.post("/api/replay", content=record.content).json()
    assert len(steps["steps"]) == len(record.json()["actions"]) + 1
    assert steps["result"]["placings"]
    bad = client.post("/api/replay", content=b'{"game": "kaphai"}')
    assert bad.status_code == 422 and bad.json()["detail"]["error"] == "malformed_record"
