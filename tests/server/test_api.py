"""The HTTP API: games, creating tables, refusals, records, replay."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest

import folkdeck
from folkdeck.engine.record import Record, dumps
from folkdeck.i18n.rules_docs import rules_document
from tests.server.conftest import create, table_of


def test_games_list_every_game_with_options_and_bots(client: Any) -> None:
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == list(folkdeck.games())
    kaphai = next(g for g in games if g["name"] == "kaphai")
    assert kaphai["card_notation"] == folkdeck.get_spec("kaphai").card_notation and "greedy" in kaphai["bots"]
    assert {"name": "putuh_tie", "default": "rank", "choices": "rank | shared_first"} in kaphai["options"]
    assert client.get("/api/games/nope").status_code == 404


def test_rules_markdown(client: Any) -> None:
    doc = client.get("/api/games/kaphai/rules").json()
    assert doc["markdown"].startswith("#")


@pytest.mark.parametrize("game", folkdeck.games())
def test_japanese_rules_come_with_their_lines_joined(client: Any, game: str) -> None:
    """Issue 25: the browser renders the Markdown the server sends; a Japanese sentence broken
    over two source lines must not get a space at the break there either (the terminal's
    pager gets the same text)."""
    text = client.get(f"/api/games/{game}/rules?lang=ja").json()["markdown"]
    assert text == rules_document(folkdeck.get_spec(game).rules_doc, "ja")
    kana = "[\u3040-\u30ff\u4e00-\u9fff]"
    lines = text.split("\n")
    broken = [line for line, after in itertools.pairwise(lines)
              if re.search(f"{kana}$", line) and re.match(f"\\s*{kana}", after)
              and not line.lstrip().startswith(("#", "|"))]
    assert not broken, broken[:3]


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


def _play_rest(client: Any, t: dict[str, Any], until: Any, limit: int = 3000) -> None:
    """Every seat is a person: play each first legal action over REST until ``until(table)``."""
    table = client.app.state.tables.get(t["id"])
    for _ in range(limit):
        if until(table):
            return
        if table.state.is_over():
            client.get("/api/games")  # the driver deals the next deal
            continue
        seat = table.state.to_act[0]
        action = str(table.state.legal_actions(seat)[0])
        r = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["seats"][seat]["token"], "action": action})
        assert r.status_code == 200, r.text
    raise AssertionError("the table did not get there")


@pytest.mark.parametrize("game", ["kaphai", "gouji", "cangkul", "burro_es", "burro_pt"])
def test_a_deal_record_is_given_as_soon_as_the_deal_ends(client: Any, game: str) -> None:
    """Fresh shuffle each deal (docs/rules/kaphai.md §1.2, docs/rules/gouji.md §2.1, docs/rules/cangkul.md §2.2): nothing of a
    finished deal is hidden any more, so its record is given before the match ends."""
    n = folkdeck.get_spec(game).default_players
    t = create(client, game, seed=21, deals=3, seats=[{"kind": "human"}] * n)
    tid = t["id"]
    table = client.app.state.tables.get(tid)
    assert client.get(f"/api/tables/{tid}/records/1").json()["detail"]["error"] == "not_over"
    assert client.get(f"/api/tables/{tid}").json()["records"] == []
    _play_rest(client, t, lambda tb: len(tb.finished) >= 1 and tb.deal >= 1)
    assert not table.match_over()
    pub = client.get(f"/api/tables/{tid}").json()
    assert pub["records"] == [f"/api/tables/{tid}/records/1"] and pub["records_locked"] is None
    record = client.get(f"/api/tables/{tid}/records/1")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    body = record.json()
    # the record is the finished deal's, played to its end: not the deal in play
    assert body["actions"] == table.finished[0].actions
    assert body["hands"] != json.loads(dumps(Record.from_state(table.state)))["hands"]
    steps = client.post("/api/replay", content=record.content).json()
    assert steps.get("result") is not None and len(steps["steps"]) == len(body["actions"]) + 1, str(steps)[:300]
    current = client.get(f"/api/tables/{tid}/records/2")
    assert current.status_code == 409 and current.json()["detail"]["error"] == "not_over"
    assert client.get(f"/api/tables/{tid}/records/4").status_code == 404


def test_cambio_deal_records_wait_for_the_end_of_the_match(client: Any) -> None:
    """Cambio's stock carries over between deals (docs/rules/cambio.md §3.6): a finished deal's record shows
    the stock order still hidden in the match, so it is locked, with the reason."""
    t = create(client, "cambio", seed=5, deals=3, seats=[{"kind": "human"}] * 4)
    tid = t["id"]
    table = client.app.state.tables.get(tid)
    _play_rest(client, t, lambda tb: len(tb.finished) >= 1 and tb.deal >= 1)
    assert not table.match_over()
    pub = client.get(f"/api/tables/{tid}").json()
    embargo = folkdeck.get_spec("cambio").record_embargo
    assert pub["records"] == [] and pub["records_locked"] == embargo and pub["match_record"] is None
    locked = client.get(f"/api/tables/{tid}/records/1")
    assert locked.status_code == 409 and locked.json()["detail"]["error"] == "locked"
    assert locked.json()["params"]["why"] == embargo
    assert client.get(f"/api/tables/{tid}/record").json()["reason"] == "server.records_locked"
    _play_rest(client, t, lambda tb: tb.match_over())
    pub = client.get(f"/api/tables/{tid}").json()
    assert pub["records_locked"] is None and len(pub["records"]) == len(table.finished)
    assert client.get(f"/api/tables/{tid}/records/1").json()["stock"]


def test_records_and_replay(client: Any) -> None:
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


def test_a_refusal_does_not_name_who_is_in_a_window_opened_by_hidden_cards(client: Any) -> None:
    # With putuh_optional, the putuh window is open only to seats holding a putuh hand;
    # "not your turn" must not tell the others which seat that is (a hidden hand). With
    # ask_all_seats (the default now) every seat is asked in turn, publicly: so it is off here.
    for seed in range(200):
        t = create(client, "kaphai", seed=seed, options={"putuh_optional": True, "ask_all_seats": False},
                   seats=[{"kind": "human"}] * 4)
        table = client.app.state.tables.get(t["id"])
        if table.state.phase == "putuh":
            break
    else:
        pytest.fail("no putuh window in 200 seeded tables")
    holder = table.state.to_act[0]
    other = (holder + 1) % 4
    r = client.post(f"/api/tables/{t['id']}/actions",
                    json={"token": t["seats"][other]["token"], "action": "pass"})
    assert r.status_code == 409 and r.json()["detail"]["error"] == "not_your_turn"
    message = r.json()["detail"]["message"]
    assert f"seat {holder}" not in message and "other seats are deciding" in message


def test_a_table_of_learned_bots_plays_a_gouji_deal_with_the_quick_bots(client: Any) -> None:
    # docs/bots.md "Learned bots": a learned bot answers in milliseconds, so it thinks with the
    # quick bots (its `searches` is false), never in the search workers.
    t = create(client, "gouji", seed=3, options={"deals": 1}, seats=[{"kind": "bot", "bot": "learned"}] * 6)
    table = table_of(client, t["id"])
    assert [job.searches for _, job in table.bot_jobs()] == [False] * len(table.bot_jobs())
    for _ in range(2000):
        if table.match_over():
            break
        client.get("/api/games")  # let the bots play
    assert table.match_over()
