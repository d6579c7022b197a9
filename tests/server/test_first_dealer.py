"""A table's first dealer (POST /api/tables ``first_dealer``): chosen freely where the rules
say so (docs/rules/cangkul.md §1.2 「最初のディーラーは任意に決めます」), refused with a coded
error elsewhere; ``/api/games`` tells the lobby which games take it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import create, table_of


def test_games_say_whether_the_first_dealer_is_chosen(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["cangkul"]["first_dealer_free"] and games["burro_es"]["first_dealer_free"]
    assert not games["kaphai"]["first_dealer_free"] and not games["cambio"]["first_dealer_free"]


def test_a_cangkul_table_deals_first_from_the_chosen_seat(client: TestClient) -> None:
    t = create(client, "cangkul", first_dealer=2, seats=[{"kind": "human"}] * 4)
    table = table_of(client, t["id"])
    assert table.state.deal_info()["setup"]["dealer"] == 2
    assert table.match.standings().carry == {"dealer": 2, "leader": 3}


def test_a_first_dealer_is_refused_where_the_rules_fix_it(client: TestClient) -> None:
    resp = client.post("/api/tables", json={"game": "kaphai", "deals": 1, "first_dealer": 1})
    assert resp.status_code == 422, resp.text
    assert "first_dealer_not_free" in resp.text
    resp = client.post("/api/tables", json={"game": "cangkul", "players": 3, "first_dealer": 3})
    assert resp.status_code == 422 and "first_dealer_seat" in resp.text
