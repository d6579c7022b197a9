"""A Hypothesis fuzzer of record files: every record under ``examples/records`` and a
``folkdeck-match/1`` record of each game, mutated (deep nesting, huge integers,
NaN/Infinity, lone surrogates, a BOM, nulls in ``setup``, values of the wrong type, a
value retyped as its own text, actions such as ``draw ²``, a flood of facts), is replayed
by ``folkdeck replay`` in-process (``folkdeck.cli.main.main``). It must never crash: exit 0
(a record that is still good), 1 (a well-formed record the rules do not replay to what it
says) or 2 (a malformed record), with no traceback and a short message; a mutation that
breaks the JSON boundary must exit 2. The same mutated bodies go to the server's
``POST /api/replay``, which must answer below 500.

Below the fuzzers, one deterministic test for each failure a long run once found (issue 25:
a Cambio seating draw with an integer card gave a traceback; a 2 MB ``after`` list took
6 s and its mismatch message quoted both lists).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import folkdeck
from folkdeck.cli.main import main
from folkdeck.engine import match_record
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.facts import Fact, fact_from_dict

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "records").glob("*.json"))
MATCH_GAMES = ("kaphai", "gouji", "cambio", "cangkul", "burro_es", "burro_pt")
MALFORMED_JSON = ("deep", "huge_int", "nan", "surrogate", "infinity")
"""Mutations that the JSON boundary refuses: ``folkdeck replay`` must exit 2."""
MUTATIONS = (*MALFORMED_JSON, "bom", "null_setup", "wrong_type", "retype", "bad_action", "drop_field",
             "swap_actions", "flood")
WRONG = [None, True, -1, 10**30, 1.5, "", "x" * 300, [], {}, [None], {"a": None}, "draw ²", "0: draw ²"]


@functools.cache
def match_text(game: str) -> str:
    """A short match of random play as ``folkdeck play --record`` writes it."""
    played = folkdeck.load(game)
    recorder = match_record.MatchRecorder(played, deals=2)
    match = played.new_match(deals=2, rng=random.Random(3))
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(3))
        recorder.finish_deal(state, match.finish_deal(state))
    return match_record.dumps(recorder.record(match.standings()))


@functools.cache
def _written(tmp: Path, game: str) -> Path:
    path = tmp / f"{game}-match.json"
    path.write_text(match_text(game), "utf-8")
    return path


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every example record and a match record of each game, as files."""
    tmp = tmp_path_factory.mktemp("matches")
    return [*EXAMPLES, *(_written(tmp, game) for game in MATCH_GAMES)]


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


def _get(data: Any, where: tuple[Any, ...]) -> Any:
    for key in where:
        data = data[key]
    return data


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
    elif mutation == "retype":  # 0 as "0", "OWL" as ["OWL"]: what a hand-edited record holds
        value = _get(data, where)
        _set(data, where, [value] if isinstance(value, str) else json.dumps(value))
    elif mutation == "flood":  # a deal's facts, thousands of times over
        deals = data.get("deals") if isinstance(data.get("deals"), list) else []
        for deal in deals[:1]:
            deal["after"] = (deal.get("after") or [{"type": "next_deal", "leader": 0}]) * rng.randint(500, 3000)
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
    assert len(err) < 2000, (record.name, mutation, err[:300])  # a message quotes, never dumps
    if mutation in MALFORMED_JSON:
        assert code == 2, (record.name, mutation, err[-300:])
    if mutation == "bom":
        assert code == replay_exit(record)[0]


def test_every_record_replays_cleanly(records: list[Path]) -> None:
    assert len(records) >= 10 + len(MATCH_GAMES)
    for record in records:
        code, err = replay_exit(record)
        assert code == 0, (record.name, err)


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_each_mutation_of_each_record(tmp_path: Path, records: list[Path], mutation: str) -> None:
    for i, record in enumerate(records):
        _check(tmp_path, record, mutation, i)


@given(index=st.integers(0, 10**6), mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_random_mutations_never_crash_replay(tmp_path_factory: pytest.TempPathFactory, records: list[Path],
                                             index: int, mutation: str, seed: int) -> None:
    _check(tmp_path_factory.mktemp("fuzz"), records[index % len(records)], mutation, seed)


@pytest.mark.slow
@given(index=st.integers(0, 10**6), mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32))
@settings(max_examples=3000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_random_mutations_never_crash_replay_long(tmp_path_factory: pytest.TempPathFactory, records: list[Path],
                                                  index: int, mutation: str, seed: int) -> None:
    _check(tmp_path_factory.mktemp("fuzz"), records[index % len(records)], mutation, seed)


@given(index=st.integers(0, 10**6), mutation=st.sampled_from(MUTATIONS), seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_random_mutations_never_crash_the_replay_endpoint(records: list[Path], index: int, mutation: str,
                                                          seed: int) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from tests.fuzz.test_api_fuzz import _APP

    record = records[index % len(records)]
    text = mutate(record.read_text("utf-8"), mutation, random.Random(seed))
    with TestClient(_APP, raise_server_exceptions=False) as client:
        r = client.post("/api/replay", content=text.encode("utf-8", "surrogatepass"))
    assert r.status_code < 500, (record.name, mutation, r.text[:300])
    assert r.status_code in (200, 400, 409, 413, 422)


# --- what long runs found (issue 25), each as a fast deterministic test --------------------

def _replay_text(tmp: Path, text: str) -> tuple[int, str]:
    path = tmp / "case.json"
    path.write_text(text, "utf-8")
    return replay_exit(path)


def test_a_seating_draw_with_an_integer_card_is_a_coded_error(tmp_path: Path) -> None:
    data = json.loads(match_text("cambio"))
    draw = next(f for f in data["deals"][0]["before"] if f["type"] == "cambio.seating_draw")
    draw["card"] = 7
    index = data["deals"][0]["before"].index(draw)
    code, err = _replay_text(tmp_path, json.dumps(data))
    assert code == 2 and "Traceback" not in err
    assert f"deals[0].before[{index}].card: must be a card in notation" in err and "got the integer 7" in err


def test_a_flood_of_after_facts_gives_one_short_message(tmp_path: Path) -> None:
    data = json.loads(match_text("kaphai"))
    after = data["deals"][0]["after"]
    times = 2_000_000 // len(json.dumps(after))  # about 2 MB of facts
    data["deals"][0]["after"] = [after[0], {**after[1], "delta": 99}, *after[2:]] * times
    code, err = _replay_text(tmp_path, json.dumps(data))
    assert code == 1 and err.startswith("folkdeck replay: deals[0].after[1]: the rules give ")
    assert len(err) < 600 and '"delta": 99' in err
    data["deals"][0]["after"] = after * times  # right at first, then goes on
    code, err = _replay_text(tmp_path, json.dumps(data))
    assert code == 1 and f"deals[0].after[{len(after)}]: the rules give no more facts" in err and len(err) < 600


def test_replay_work_grows_linearly_and_the_check_stops_at_the_first_difference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: reading a record's facts costs one read per fact, and comparing
    them costs the same however long the record's list is (it stops where they differ)."""
    reads = {"facts": 0, "compared": 0}
    read_fact = fact_from_dict  # the function match_record reads facts with
    to_dict = Fact.to_dict

    def counting_read(data: Any) -> Fact:
        reads["facts"] += 1
        return read_fact(data)

    def counting_to_dict(self: Fact) -> dict[str, Any]:
        reads["compared"] += 1
        return to_dict(self)

    monkeypatch.setattr(match_record, "fact_from_dict", counting_read)
    monkeypatch.setattr(Fact, "to_dict", counting_to_dict)
    data = json.loads(match_text("kaphai"))
    after = data["deals"][0]["after"]
    counts = []
    for times in (100, 1000):
        data["deals"][0]["after"] = [after[0], {**after[1], "delta": 99}, *after[2:]] * times
        reads.update(facts=0, compared=0)
        code, _ = _replay_text(tmp_path, json.dumps(data))
        assert code == 1
        counts.append(dict(reads))
    others = counts[0]["facts"] - 100 * len(after)  # the facts of the other lists
    assert counts[1]["facts"] == 1000 * len(after) + others
    assert counts[1]["compared"] == counts[0]["compared"] < 20
