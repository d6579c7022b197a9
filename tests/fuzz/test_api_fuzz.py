"""Property-based fuzzing of the HTTP API from the OpenAPI schema FastAPI publishes
(Schemathesis generates requests, valid and invalid, for every operation).

Every answer must be below 500, and every refusal must be the coded shape (``error``,
``reason``, ``params``, ``message``) that does not echo the request. The requests go
through one long-lived test client (one event loop, the app's lifespan run), so tables
created by one example are there for the next. A short run by default; the long one is
marked ``slow``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="the dev extra is not installed")
pytest.importorskip("fastapi", reason="the server extra is not installed")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from folkdeck.server.config import Settings  # noqa: E402
from folkdeck.server.main import create_app  # noqa: E402

_APP = create_app(Settings(db=":memory:", bot_delay=0, deal_pause=0, create_burst=10**6, actions_burst=10**6,
                           requests_burst=10**6, bot_workers=0))
_SCHEMA = schemathesis.openapi.from_dict(_APP.openapi())
_OPERATIONS = [op.ok() for op in _SCHEMA.get_all_operations()]
_NAMES = [f"{op.method.upper()} {op.path}" for op in _OPERATIONS]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(_APP, raise_server_exceptions=False) as c:
        yield c


def _send(client: TestClient, case: Any) -> Any:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    body: dict[str, Any] = {}
    if "json" in kwargs:
        body["content"] = json.dumps(kwargs["json"], allow_nan=True).encode()  # NaN on purpose
    elif "data" in kwargs and kwargs["data"] is not None:
        data = kwargs["data"]
        body["content"] = data if isinstance(data, bytes) else str(data).encode("utf-8", "surrogatepass")
    return client.request(kwargs["method"], kwargs["url"], headers=kwargs.get("headers"),
                          params=kwargs.get("params"), **body)


def _check(case: Any, response: Any) -> None:
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert {"error", "reason", "params", "message"} <= set(body), body
        if case.body is not None and len(json.dumps(case.body, default=str)) > 200:
            assert len(response.content) < 2000, "a refusal echoed a large request"


def _fuzz(client: TestClient, index: int, examples: int) -> None:
    strategy = _OPERATIONS[index].as_strategy()

    @given(case=strategy)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        _check(case, _send(client, case))

    run()


@pytest.mark.parametrize("index", range(len(_OPERATIONS)), ids=_NAMES)
def test_every_operation_answers_without_a_server_error(client: TestClient, index: int) -> None:
    _fuzz(client, index, 25)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(_OPERATIONS)), ids=_NAMES)
def test_every_operation_answers_without_a_server_error_long(client: TestClient, index: int) -> None:
    _fuzz(client, index, 500)


_NASTY = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-(10**60), max_value=10**60),
    st.text(alphabet=st.characters(codec=None), max_size=20), st.none(), st.booleans(),
    st.just("\ud800"), st.just("\ufeff"), st.lists(st.integers(), max_size=3))


@given(body=st.dictionaries(st.sampled_from(["game", "players", "options", "deals", "seats", "seed", "practice",
                                             "turn_seconds", "preset", "token", "action"]), _NASTY, max_size=6),
       path=st.sampled_from(["/api/tables", "/api/replay", "/api/tables/x/actions"]))
@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_hand_made_nasty_bodies_never_crash(body: dict[str, Any], path: str) -> None:
    with TestClient(_APP, raise_server_exceptions=False) as client:
        text = json.dumps(body, allow_nan=True).encode("utf-8", "surrogatepass")
        r = client.post(path, content=text, headers={"content-type": "application/json"})
        assert r.status_code < 500, (body, r.text[:300])


def test_the_fuzzed_operations_cover_the_api() -> None:
    assert {"POST /api/tables", "POST /api/replay", "GET /api/games/{name}/schema", "GET /i18n/{lang}.json"
            } <= set(_NAMES)


