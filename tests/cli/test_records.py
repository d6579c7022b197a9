"""``folkdeck play --record``, ``folkdeck replay`` of every format, ``folkdeck schema``: the
contract of docs/records.md, exit statuses included, and no traceback for any input file."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from folkdeck.cli.main import main
from folkdeck.engine.jsonin import MAX_BYTES
from folkdeck.engine.record import Record
from folkdeck.engine.registry import get_spec, load

from .conftest import GAMES, Play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"
STUDY = EXAMPLES / "kaphai-study.json"


def _replay(capsys: pytest.CaptureFixture[str], *args: str, stdin: bytes | None = None,
            monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    status = main(["replay", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _recorded_match(scripted: Play, tmp_path: Path, game: str, *extra: str) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / f"{game}.json"
    status, out, _ = scripted(game, "--watch", "--seed", "7", "--deals", "2", "--bot", "random", "--lang", "en",
                           "--record", str(path), *extra)
    assert status == 0 and "Match record written" in out
    return path, json.loads(path.read_text(encoding="utf-8"))


# --- folkdeck-match/1 ------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_recorded_match_replays_to_its_standings(scripted: Play, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str], game: str) -> None:
    path, record = _recorded_match(scripted, tmp_path, game)
    assert record["format"] == "folkdeck-match/1" and record["game"] == get_spec(game).name
    assert record["deals"] and all("after" in d for d in record["deals"])
    status, out, err = _replay(capsys, str(path))
    assert (status, err) == (0, "")
    assert json.loads(out) == record["standings"]


@pytest.mark.parametrize("game", GAMES)
def test_one_deal_of_a_match_comes_out_as_a_deal_record(scripted: Play, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    path, record = _recorded_match(scripted, tmp_path, game)
    last = len(record["deals"]) - 1
    status, out, _ = _replay(capsys, str(path), "--deal", str(last))
    assert status == 0
    deal = json.loads(out)
    assert deal["format"] == "folkdeck-record/1"
    for key in ("setup", "hands", "actions"):
        assert deal[key] == record["deals"][last][key]
    status, out, _ = _replay(capsys, "-", stdin=out.encode(), monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out)["over"] is True
    status, out, _ = _replay(capsys, str(path), "--deal", str(last), "--view", "0")
    view = json.loads(out)
    assert status == 0 and view["seat"] == 0 and view["result"] is not None
    status, out, _ = _replay(capsys, str(path), "--deal", "0", "--legal")
    assert (status, json.loads(out)) == (0, [])  # the deal is over: no one may act


def test_a_match_left_half_way_is_recorded_and_replays(scripted: Play, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "left.json"
    status, out, _ = scripted("kaphai", "--seed", "2", "--deals", "3", "--lang", "en", "--record", str(path),
                           script="1\n1\nq\n")
    assert status == 0 and "Goodbye." in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert len(record["deals"]) == 1 and "after" not in record["deals"][0]
    assert len(record["deals"][0]["actions"]) >= 2
    status, out, _ = _replay(capsys, str(path))
    assert status == 0 and json.loads(out)["deals_played"] == 0


def test_match_record_errors_have_their_exit_status_and_field(scripted: Play, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path, record = _recorded_match(scripted, tmp_path, "kaphai")

    def replay_changed(change: Any, *args: str, lang: str = "en") -> tuple[int, str, str]:
        data = json.loads(json.dumps(record))
        change(data)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        return _replay(capsys, str(bad), *args, "--lang", lang)

    status, out, err = replay_changed(lambda d: d["standings"].update(scores=[99, 0, 0, 0]))
    assert (status, out) == (1, "") and "standings.scores" in err and "99" in err
    status, out, err = replay_changed(lambda d: d["deals"][0]["actions"].insert(1, d["deals"][0]["actions"][0]))
    assert (status, out) == (1, "") and "is illegal" in err
    # a well-formed record that does not replay to what it says: 1 (docs/records.md)
    status, out, err = replay_changed(lambda d: d["deals"][1].update(setup={"three_game": True, "leader": 3}))
    assert (status, out) == (1, "") and "deals[1].setup.three_game" in err  # a setup the match does not give
    status, out, err = replay_changed(lambda d: d["deals"][0]["after"][0].update(delta=99))
    assert (status, out) == (1, "") and "deals[0].after[0]: the rules give" in err
    status, out, err = replay_changed(lambda d: d["deals"].append(d["deals"][1]))
    assert (status, out) == (1, "") and "deals[2]: the match was over after 2 deals" in err
    # a record that is not well-formed: 2
    def leader_as_text(data: dict[str, Any]) -> None:
        setup = data["deals"][1]["setup"]
        setup["leader"] = str(setup["leader"])

    status, out, err = replay_changed(leader_as_text)
    assert (status, out) == (2, "") and 'deals[1].setup.leader: must be an integer, got the string "' in err
    status, out, err = replay_changed(lambda d: d["deals"][0]["after"][0].update(seat="0"))
    assert (status, out) == (2, "") and "deals[0].after[0].seat: must be an integer" in err
    status, out, err = replay_changed(lambda d: d.update(deals={}), lang="ja")
    assert (status, out) == (2, "") and "記録の形式が不正です：deals: リストでなければなりません" in err
    status, out, err = replay_changed(lambda d: d["deals"][0].update(extra=1))
    assert status == 2 and "deals[0].extra" in err
    status, out, err = _replay(capsys, str(path), "--deal", "9")
    assert (status, out) == (2, "") and "deal 9 does not exist: the record has deals 0-1" in err
    status, out, err = _replay(capsys, str(path), "--view", "0")
    assert (status, out) == (2, "") and "--deal N (0 to 1)" in err


def test_replay_help_states_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "1 when a well-formed record does not replay to what it says" in text
    assert "2 when the file cannot be read or the record is malformed" in text


# --- folkdeck-record/1, unchanged ----------------------------------------------------------------

def test_a_deal_record_replays_as_documented(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _replay(capsys, str(STUDY))
    position = json.loads(out)
    assert status == 0 and position["over"] is False and position["to_act"] == [2]
    assert position["result"] is None and position["actions_applied"] == 2
    status, out, _ = _replay(capsys, str(STUDY), "--legal")
    assert (status, json.loads(out)) == (0, ["2: pass"])
    status, out, err = _replay(capsys, str(STUDY), "--deal", "0")
    assert (status, out) == (2, "") and "--deal N goes with a match record" in err
    status, out, err = _replay(capsys, str(STUDY), "--view", "4")
    assert (status, out) == (2, "") and "--view 4: seats are 0 to 3" in err


def test_an_illegal_action_exits_1_naming_its_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(STUDY.read_text(encoding="utf-8"))
    data["actions"].append("2: KS")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = _replay(capsys, str(path))
    assert (status, out) == (1, "")
    assert err.startswith("folkdeck replay: Action 2 (2: KS) is illegal: ") and "4C 4D" in err


# --- arena results -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_arena_results_replay_every_record_or_say_what_to_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               game: str) -> None:
    spec = get_spec(game)
    results = tmp_path / "results.json"
    bots = ",".join(["random"] * spec.default_players)
    assert main(["arena", game, "--bots", bots, "--deals", "2", "--seed", "4", "--jobs", "1", "--quiet",
                 "--out", str(results)]) == 0
    capsys.readouterr()
    games = json.loads(results.read_text())["games"]
    status, out, err = _replay(capsys, str(results))
    assert (status, err) == (0, "")
    assert json.loads(out) == {"game": spec.name, "games": len(games), "replayed": len(games)}
    status, out, err = _replay(capsys, str(results), "--legal")
    assert (status, out) == (2, "") and f"pass --deal N (0 to {len(games) - 1})" in err
    status, out, _ = _replay(capsys, str(results), "--deal", "1")
    assert status == 0 and json.loads(out)["actions"] == games[1]["record"]["actions"]
    status, out, err = _replay(capsys, str(results), "--deal", "9")
    assert (status, out) == (2, "") and f"game 9 does not exist: these results have games 0-{len(games) - 1}" in err
    status, out, _ = _replay(capsys, str(results), "--deal", "1", "--view", "0")
    assert status == 0 and json.loads(out)["result"]["returns"] == games[1]["returns"]


def test_arena_results_with_a_wrong_return_or_no_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results.json"
    assert main(["arena", "kaphai", "--bots", "random,random", "--deals", "1", "--jobs", "1", "--quiet",
                 "--out", str(results)]) == 0
    capsys.readouterr()
    data = json.loads(results.read_text())
    data["games"][0]["returns"] = [5, 5]
    results.write_text(json.dumps(data))
    status, out, err = _replay(capsys, str(results))
    assert (status, out) == (1, "") and "games[0].returns" in err
    for g in data["games"]:
        del g["record"]
    results.write_text(json.dumps(data))
    status, out, err = _replay(capsys, str(results))
    assert (status, out) == (2, "") and "--no-records" in err


# --- folkdeck schema ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_schema_describes_the_views_the_game_gives(capsys: pytest.CaptureFixture[str], game: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    assert main(["schema", game]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert {"hand", "counts", "to_act", "legal_actions", "history", "status"} <= set(schema["properties"])
    g = load(game)
    state = g.new_state(seed=11)
    rng = random.Random(11)
    for _ in range(30):
        if state.is_over():
            break
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    for seat in (None, *range(g.num_players)):
        jsonschema.validate(json.loads(json.dumps(state.observe(seat).to_dict())), schema)


def test_schema_of_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "chess", "--lang", "ja"]) == 2
    assert "未知のゲーム chess" in capsys.readouterr().err


# --- any input file: a coded error, never a traceback ---------------------------------------------

def _hostile(tmp_path: Path) -> dict[str, tuple[Path, int, str]]:
    """name -> (file, exit status, what stderr must name)."""
    files: dict[str, tuple[bytes, int, str]] = {
        "huge": (b"[" + b"1," * (MAX_BYTES // 2) + b"1]", 2, "too large"),
        "deep": (b"[" * 100_000 + b"]" * 100_000, 2, "nested deeper"),
        "binary": (random.Random(1).randbytes(4096), 2, "not UTF-8"),
        "latin1": ('{"game": "kaphai", "note": "café"}'.encode("latin-1"), 2, "not UTF-8"),
        "empty": (b"", 2, "(json)"),
        "not_json": (b"game: kaphai", 2, "bad JSON"),
        "list": (b"[1, 2]", 2, "a record is a JSON object"),
        "number": (b"1" * 5000, 2, "digits"),
        "nan": (b'{"game": "kaphai", "seed": NaN}', 2, "NaN"),
        "surrogate": (b'{"game": "\\ud800"}', 2, "surrogate"),
        "format": (b'{"format": "folkdeck-record/9", "game": "kaphai", "seed": 1}', 2, "format"),
        "bad_match": (b'{"format": "folkdeck-match/1", "game": "kaphai", "deals": [1]}', 2, "deals[0]"),
        "unknown_game": (b'{"format": "folkdeck-match/1", "game": "chess", "deals": []}', 2, "game"),
        "bom": (b"\xef\xbb\xbf" + STUDY.read_bytes(), 0, ""),
    }
    out = {}
    for name, (data, status, needle) in files.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        out[name] = (path, status, needle)
    out["missing"] = (tmp_path / "nowhere.json", 2, "no such file")
    out["folder"] = (tmp_path, 2, "it is a folder")
    return out


def test_no_input_file_gives_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, (path, expected, needle) in _hostile(tmp_path).items():
        status, out, err = _replay(capsys, str(path))
        assert status == expected, (name, err)
        assert needle in err, (name, err)
        assert "Traceback" not in err and len(err) < 2000, (name, err[:300])
        if status:
            assert out == "" and err.startswith("folkdeck replay: "), name


def test_a_device_is_read_no_further_than_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    status, out, err = _replay(capsys, "/dev/zero")
    assert (status, out) == (2, "") and "too large" in err


def test_standard_input_and_japanese_errors(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = _replay(capsys, "-", "--lang", "ja", stdin=b'{"game": "kaphai", "seed": 1,'
                                                                   b' "rules": {"players": 7}}',
                               monkeypatch=monkeypatch)
    assert (status, out) == (2, "") and "rules.players" in err and err.startswith("folkdeck replay: 記録の形式が不正です")
    status, out, err = _replay(capsys, "-", stdin=b"\xff\xfe{}", monkeypatch=monkeypatch)
    assert status == 2 and "not UTF-8" in err


def test_a_record_written_by_the_library_replays_from_a_file(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    state = load("kaphai", players=3).new_state(seed=9)
    rng = random.Random(9)
    while not state.is_over():
        legal = state.legal_actions(state.to_act[0])
        state.apply(legal[rng.randrange(len(legal))], state.to_act[0])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(Record.from_state(state).to_dict()), encoding="utf-8")
    status, out, _ = _replay(capsys, str(path))
    assert status == 0 and json.loads(out)["result"]["returns"] == list(state.result().returns)  # type: ignore[union-attr]


# --- the documented example ----------------------------------------------------------------------

def test_the_match_record_in_the_docs_replays_to_its_standings(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```jsonc?\n(.*?)```", docs, re.S) if "folkdeck-match/1" in b]
    assert blocks
    for block in blocks:
        path = tmp_path / "example.json"
        path.write_text(block, encoding="utf-8")
        status, out, err = _replay(capsys, str(path))
        assert (status, err) == (0, "")
        assert json.loads(out) == json.loads(block)["standings"]
        status, out, _ = _replay(capsys, str(path), "--deal", "1")
        assert status == 0 and json.loads(out)["setup"] == {"three_game": False, "leader": 0}
