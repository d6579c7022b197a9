"""A Hypothesis fuzzer of record files: every record under ``examples/records``, mutated
(deep nesting, huge integers, NaN/Infinity, lone surrogates, a BOM, nulls in ``setup``,
values of the wrong type, actions such as ``draw ²``), is replayed by ``folkdeck replay``
in-process (``folkdeck.cli.main.main``). It must never crash: exit 0 (a record that is
still good), 1 (an action the rules refuse) or 2 (a malformed record), with no traceback;
a mutation that breaks the JSON boundary must exit 2. The same mutated bodies go to the
server's ``POST /api/replay``, which must answer below 500.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from folkdeck.cli.main import main

RECORDS = sorted((Path(__file__).resolve().parents[2] / "examples" / "records").glob("*.json"))
MALFORMED_JSON = ("deep", "huge_int", "nan", "surrogate", "infinity")
"""Mutations that the JSON boundary refuses: ``folkdeck replay`` must exit 2."""
MUTATIONS = (*MALFORMED_JSON, "bom", "null_setup", "wrong_type", "bad_action", "drop_field", "swap_actions")
WRONG = [None, True, -1, 10**30, 1.5, "", "x" * 300, [], {}, [None], {"a": None}, "draw ²", "0: draw ²"]


def _paths(value: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a decoded record (to mutate one)."""
    out = [where]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*where, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:8]):
            out += _paths(v, (*where, i))
    return out


def _set(data: Any, where: tuple[Any, ...], value: Any) -> Any:
    if not where:
        return value
    data[where[0]] = _set(data[where[0]], where[1:], value)
    return data


def mutate(text: str, mutation: str, rng: random.Random) -> str:
    """The record's text with one mutation (see the module docstring)."""
    data = json.loads(text)
    where = rng.choice(_paths(data)[1:] or [()])
    marker = "\u2063MUTATE\u2063"
    if mutation in MALFORMED_JSON:
        token = {"deep": "[" * 2000 + "]" * 2000, "huge_int": "9" * rng.randint(41, 6000), "nan": "NaN",
                 "infinity": "-Infinity", "surrogate": '"\\ud800"'}[mutation]
        return json.dumps(_set(data, where, marker), ensure_ascii=False).replace(f'"{marker}"', token)
    if mutation == "bom":
        return "\ufeff" + text
    if mutation == "null_setup":
        setup = data.get("setup") if isinstance(data.get("setup"), dict) else {}
        data["setup"] = dict.fromkeys(setup) or None
    elif mutation == "wrong_type":
        _set(data, where, rng.choice(WRONG))
    elif mutation == "bad_action":
        actions = data.get("actions") or data.get("deals", [{}])[0].get("actions", [])
        if actions:
            actions[rng.randrange(len(actions))] = rng.choice(["0: draw ²", "9: pass", "0:", ": 4C", "0: ", "x: y",
                                                              "0: 4C 4C 4C 4C 4C", "-1: pass", "0: ２"])
    elif mutation == "drop_field":
        if isinstance(data, dict) and data:
            data.pop(rng.choice(sorted(data)))
    elif mutation == "swap_actions":
        actions = data.get("actions") or []
        if len(actions) > 2:
            i = rng.randrange(len(actions) - 1)
            actions[i], actions[i + 1] = actions[i + 1], actions[i]
    return json.dumps(data, ensure_ascii=False)


def replay_exit(path: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["replay", str(path)])
    return code, err.getvalue()


def _check(tmp: Path, record: Path, mutation: str, seed: int) -> None:
    text = mutate(record.read_text("utf-8"), mutation, random.Random(seed))
    target = tmp / f"{record.stem}-{mutation}.json"
    target.write_text(text, "utf-8", errors="surrogatepass")
    code, err = replay_exit(target)
    assert "Traceback" not in err, err
    assert code in (0, 1, 2), (record.name, mutation, code, err[-500:])
    if mutation in MALFORMED_JSON:
        assert code == 2, (record.name, mutation, err[-300:])
    if mutation == "bom":
        assert code == replay_exit(record)[0]


def test_every_example_record_replays_cleanly() -> None:
    assert len(RECORDS) >= 10
    for record in RECORDS:
        code, err = replay_exit(record)
        assert code == 0, (record.name, err)


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_each_mutation_of_each_record(tmp_path: Path, mutation: str) -> None:
    for i, record in enumerate(RECORDS):
        _check(tmp_path, record, mutation, i)


@given(record=st.sampled_from(RECORDS), mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_random_mutations_never_crash_replay(tmp_path_factory: pytest.TempPathFactory, record: Path,
                                             mutation: str, seed: int) -> None:
    _check(tmp_path_factory.mktemp("fuzz"), record, mutation, seed)


@pytest.mark.slow
@given(record=st.sampled_from(RECORDS), mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32))
@settings(max_examples=3000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_random_mutations_never_crash_replay_long(tmp_path_factory: pytest.TempPathFactory, record: Path,
                                                  mutation: str, seed: int) -> None:
    _check(tmp_path_factory.mktemp("fuzz"), record, mutation, seed)


@given(record=st.sampled_from(RECORDS), mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_random_mutations_never_crash_the_replay_endpoint(record: Path, mutation: str, seed: int) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from tests.fuzz.test_api_fuzz import _APP

    text = mutate(record.read_text("utf-8"), mutation, random.Random(seed))
    with TestClient(_APP, raise_server_exceptions=False) as client:
        r = client.post("/api/replay", content=text.encode("utf-8", "surrogatepass"))
    assert r.status_code < 500, (record.name, mutation, r.text[:300])
    assert r.status_code in (200, 400, 409, 413, 422)
