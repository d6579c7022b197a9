"""The server's input boundary: every bad request is a clear 4xx naming the field, never
a 500, never the input echoed back; limits are enforced before a body is read."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import folkdeck
from folkdeck.engine.view import View
from folkdeck.server.config import Settings
from folkdeck.server.main import create_app
from tests.cli.test_record_limits import BEYOND, WITHIN, with_note

SERVER = Path(folkdeck.__file__).parent / "server"


def _coded(r: Any, status: int, reason: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text[:300]
    body: dict[str, Any] = r.json()
    assert {"error", "reason", "params", "message"} <= set(body) and body["detail"]["reason"] == body["reason"]
    if reason is not None:
        assert body["reason"] == reason, body
    return body


@pytest.mark.parametrize("text, reason", [
    ('{"game": "x", "players": NaN}', "json_not_a_number"),
    ('{"game": "x", "options": {"a": Infinity}}', "json_not_a_number"),
    ('{"game": "x", "options": {"a": -Infinity}}', "json_not_a_number"),
    ('{"game": "x", "options": {"a": 1e999}}', "json_not_a_number"),
    ('{"game": "\\ud800"}', "json_surrogate"),
    ('{"game": "x", "seats": [{"name": "\\udfff"}]}', "json_surrogate"),
    ('{"\\ud800": 1}', "json_surrogate"),
    ('{"game": "x", "deals": ' + "9" * 5000 + "}", "json_int_too_long"),
    ("[" * 1500 + "]" * 1500, "json_too_deep"),
    ('{"game": ', "json_syntax"),
    (b'{"game": "\xff"}', "json_not_utf8"),
])
def test_bad_json_bodies_are_400_with_the_reason(client: TestClient, text: str | bytes, reason: str) -> None:
    r = client.post("/api/tables", content=text, headers={"content-type": "application/json"})
    _coded(r, 400, reason)


def test_a_bom_is_skipped_and_the_request_read(client: TestClient) -> None:
    r = client.post("/api/tables", content="\ufeff" + json.dumps({"game": "nope"}),
                    headers={"content-type": "application/json"})
    _coded(r, 422, "unknown_game")


def test_validation_errors_name_the_field_and_never_echo_the_input(client: TestClient) -> None:
    big = "Z" * 15000
    r = client.post("/api/tables", json={"game": big})
    body = _coded(r, 422, "server.request_invalid")
    assert body["params"]["field"] == "game" and "Z" * 100 not in r.text and len(r.content) < 1000
    r = client.post("/api/tables", json={"game": "x", "seats": [{"kind": "dragon"}]})
    assert _coded(r, 422)["params"]["field"] == "seats[0].kind"
    r = client.post("/api/tables", json={"game": "x", "players": 10**30})
    assert _coded(r, 422)["params"]["field"] == "players"
    r = client.post("/api/tables", json=[1, 2, 3])
    _coded(r, 422, "server.request_invalid")
    r = client.post("/api/tables", content=b"", headers={"content-type": "application/json"})
    _coded(r, 422, "server.request_invalid")


def test_bodies_over_the_limit_are_refused_before_they_are_read(settings: Settings) -> None:
    with TestClient(create_app(settings)) as c:
        r = c.post("/api/tables", content=b"x" * 100, headers={"content-length": str(10**9)})
        _coded(r, 413, "server.body_too_large")
        r = c.post("/api/tables", content=json.dumps({"game": "x", "pad": "y" * 40_000}))
        _coded(r, 413)
    # Without a Content-Length (chunked), the body is counted as it arrives: the ASGI app
    # is driven by hand to see how much of a 16 MB body it pulls before it answers.
    app = create_app(settings)
    pulled = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        pulled.append(1)
        return {"type": "http.request", "body": b" " * 16384, "more_body": len(pulled) < 1000}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/replay", "raw_path": b"/api/replay",
             "headers": [(b"content-type", b"application/json")], "query_string": b"",
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "scheme": "http",
             "http_version": "1.1", "root_path": "", "app": app}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413 and len(pulled) == settings.max_record_bytes // 16384 + 1
    assert json.loads(sent[1]["body"])["params"]["limit"] == settings.max_record_bytes


def test_replay_refuses_bad_records_with_4xx(client: TestClient) -> None:
    _coded(client.post("/api/replay", content=b'{"game": 1}'), 422)
    _coded(client.post("/api/replay", content=b"[]"), 422, "record_not_object")
    _coded(client.post("/api/replay", content=b"null"), 422, "record_not_object")
    _coded(client.post("/api/replay", content=b"{" * 200), 400, "json_too_deep")
    _coded(client.post("/api/replay", content=json.dumps({"format": "folkdeck-match/1", "game": "x",
                                                          "deals": "no"})), 422, "not_list")


@pytest.mark.parametrize("note", WITHIN.values(), ids=WITHIN.keys())
def test_replay_takes_a_record_within_the_readers_limits(client: TestClient, note: str) -> None:
    """Issue 37: the server held a record to the request bodies' depth (32), so a record that
    ``folkdeck replay`` reads (an extra field nested 64 deep) was refused here."""
    r = client.post("/api/replay", content=with_note(note))
    assert r.status_code == 200, r.text[:300]


@pytest.mark.parametrize(("reason", "note"), BEYOND.items(), ids=BEYOND.keys())
def test_replay_refuses_a_record_beyond_the_readers_limits(client: TestClient, reason: str, note: str) -> None:
    _coded(client.post("/api/replay", content=with_note(note)), 400, reason)


def test_unknown_routes_and_methods_are_coded(client: TestClient) -> None:
    _coded(client.get("/api/nothing"), 404, "server.http_status")
    _coded(client.delete("/api/games"), 405, "server.http_status")
    _coded(client.get("/api/tables/nope"), 404, "server.no_table")
    _coded(client.get("/api/games/nope"), 404, "unknown_game")
    _coded(client.get("/api/games/%ED%A0%80"), 404)


def test_games_publish_their_spec_and_the_server_names_no_game(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == list(folkdeck.games())
    for g in games:
        spec = folkdeck.get_spec(g["name"])
        assert g["card_notation"] == spec.card_notation and g["windows"] == list(spec.windows)
        assert g["teams"] == [list(t) for t in spec.teams(spec.default_players)]
        assert g["match_end"] == {"deals": spec.match_end.deals, "default_deals": spec.match_end.default_deals,
                                  "reason": spec.match_end.reason}
        assert g["default_bot"] in g["bots"]
    for path in SERVER.rglob("*.py"):
        text = path.read_text("utf-8").lower()
        named = [name for name in folkdeck.games() if name in text]
        assert not named, f"{path.relative_to(SERVER)} names {named}: use the GameSpec"
        assert "folkdeck.cli" not in text, f"{path.relative_to(SERVER)} imports the CLI"


def test_rules_schemas_and_catalogs_are_served(client: TestClient) -> None:
    for name in folkdeck.games():
        assert client.get(f"/api/games/{name}/rules").json()["markdown"].startswith("#")
        schema = client.get(f"/api/games/{name}/schema").json()
        core = set(View.__dataclass_fields__)
        assert core <= set(schema["properties"]), name
    en, ja = client.get("/i18n/en.json").json(), client.get("/i18n/ja.json").json()
    assert en["error.server.no_table"] and ja["error.server.no_table"] != en["error.server.no_table"]
    assert set(folkdeck.i18n.catalog("en")) == set(en)
    assert client.get("/i18n/notation.json").json() == dict(folkdeck.i18n.notations())
    _coded(client.get("/i18n/xx.json"), 404, "server.no_language")


def test_http_requests_are_rate_limited_per_client(tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "r.sqlite3"), requests_burst=5, requests_per_second=0.01)
    with TestClient(create_app(settings)) as c:
        codes = [c.get("/api/games").status_code for _ in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
        r = c.get("/api/games")
        assert _coded(r, 429, "server.rate_limited")["params"]["retry"] >= 1 and int(r.headers["retry-after"]) >= 1


def test_table_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "c.sqlite3"), create_burst=3, create_per_minute=0.1)
    with TestClient(create_app(settings)) as c:
        codes = [c.post("/api/tables", json={"game": "nope"}).status_code for _ in range(5)]
        assert codes == [422, 422, 422, 429, 429]


def test_the_japanese_catalog_has_every_server_message() -> None:
    from folkdeck.i18n import catalog

    en = {k: v for k, v in catalog("en").items() if k.startswith("error.server.")}
    ja = {k: v for k, v in catalog("ja").items() if k.startswith("error.server.")}
    assert en
    assert set(en) == set(ja)
    for key, text in ja.items():
        words = [w for w in json.dumps(text, ensure_ascii=False).split('"') if w.isascii() and w.isalpha()]
        assert not set(words) - {"plural", "one", "other", "limit", "retry", "practice", "true"}, (key, words)
