"""A table's free first seat (POST /api/tables ``first_dealer``, ``first_kai_pai``): chosen
freely where the rules say so (docs/rules/cangkul.md §1.2 「最初のディーラーは任意に決めます」;
docs/rules/gouji.md §2.2, the first kai pai), refused with a coded error elsewhere;
``/api/games`` tells the lobby which games take which (``first_seat``)."""

from __future__ import annotations

import random
import secrets

import pytest
from fastapi.testclient import TestClient

from folkdeck import load
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


def test_games_name_the_field_that_chooses_their_first_seat(client: TestClient) -> None:
    """Gou Ji's first kai pai is anyone's (docs/rules/gouji.md §2.2, the Japanese Gou Ji page:
    「誰でもいいので1人が」); the lobby shows the field ``first_seat`` names."""
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["gouji"]["first_seat"] == "first_kai_pai" and not games["gouji"]["first_dealer_free"]
    assert games["cangkul"]["first_seat"] == games["burro_pt"]["first_seat"] == "first_dealer"
    assert games["kaphai"]["first_seat"] is None and games["cambio"]["first_seat"] is None


def test_a_gouji_table_turns_first_from_the_chosen_kai_pai(client: TestClient) -> None:
    t = create(client, "gouji", first_kai_pai=3, seed=5, seats=[{"kind": "human"}] * 6)
    table = table_of(client, t["id"])
    assert table.config["first_kai_pai"] == 3
    expected = load("gouji").new_state(rng=random.Random(5), setup={"kai_pai": 3})
    assert table.state.deal_info() == expected.deal_info()


def test_a_live_table_draws_its_free_first_seat(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Left unchosen, a live table picks the first kai pai (or dealer) at random, as a table
    of people picks anyone; a practice table keeps the library's default (seat 0)."""
    monkeypatch.setattr(secrets, "randbelow", lambda n: n - 2)
    gouji = table_of(client, create(client, "gouji", seats=[{"kind": "human"}] * 6)["id"])
    assert gouji.config["first_kai_pai"] == 4 and not gouji.config["practice"]
    expected = load("gouji").new_state(rng=random.Random(gouji.config["seed"]), setup={"kai_pai": 4})
    assert gouji.state.deal_info() == expected.deal_info()
    cangkul = table_of(client, create(client, "cangkul", seats=[{"kind": "human"}] * 4)["id"])
    assert cangkul.config["first_dealer"] == 2 and cangkul.state.deal_info()["setup"]["dealer"] == 2
    practice = table_of(client, create(client, "gouji", seed=5, seats=[{"kind": "human"}] * 6)["id"])
    assert "first_kai_pai" not in practice.config
    assert practice.state.deal_info() == load("gouji").new_state(rng=random.Random(5), setup={}).deal_info()
    kaphai = table_of(client, create(client, "kaphai", seats=[{"kind": "human"}] * 4)["id"])
    assert not {"first_dealer", "first_kai_pai"} & set(kaphai.config)


@pytest.mark.parametrize(("game", "body", "reason"), [
    ("kaphai", {"first_kai_pai": 1}, "first_kai_pai_not_free"),
    ("cangkul", {"first_kai_pai": 1}, "first_kai_pai_not_free"),
    ("gouji", {"first_dealer": 1}, "first_dealer_not_free"),
    ("gouji", {"first_kai_pai": 6}, "first_kai_pai_seat"),
])
def test_a_first_kai_pai_is_refused_where_there_is_none(client: TestClient, game: str, body: dict[str, int],
                                                       reason: str) -> None:
    resp = client.post("/api/tables", json={"game": game, "deals": 1, **body})
    assert resp.status_code == 422 and reason in resp.text, resp.text
