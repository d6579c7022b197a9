"""The ``folkdeck`` command: replay's contract, play through a pipe, bench, games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from folkdeck.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"
STUDY = str(EXAMPLES / "kaphai-study.json")


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "folkdeck", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_replay_prints_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", STUDY]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is False and out["to_act"] == [2] and out["result"] is None


def test_replay_legal_and_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", STUDY, "--legal"]) == 0
    assert json.loads(capsys.readouterr().out) == ["2: pass"]
    assert main(["replay", STUDY, "--view", "1"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["hand"] == "3C 3D 4S 4H 5S 5H"
    assert view["counts"] == [1, 6, 1, 1] and view["top"] == "4C 4D"


def test_replay_illegal_action_exits_1_naming_index(tmp_path: Path) -> None:
    data = json.loads(Path(STUDY).read_text())
    data["actions"].append("2: KS")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    proc = run("replay", str(path))
    assert proc.returncode == 1 and proc.stdout == ""
    assert "action 2 '2: KS' is illegal" in proc.stderr and "does not beat 4C 4D" in proc.stderr


def test_replay_malformed_exits_2_naming_field() -> None:
    proc = run("replay", "-", stdin='{"game": "kaphai", "seed": 1, "rules": {"players": 7}}')
    assert proc.returncode == 2 and proc.stdout == ""
    assert "rules.players" in proc.stderr


def test_play_a_whole_match_through_a_pipe() -> None:
    """A newcomer's session: pick numbered choices until the match is over."""
    proc = run("play", "kaphai", "--seed", "4", "--deals", "1", stdin="1\n" * 400)
    assert proc.returncode == 0, proc.stderr
    assert "Deal 1" in proc.stdout and "Match over" in proc.stdout
    assert "Your options:" in proc.stdout


def test_play_refuses_an_illegal_play_with_the_reason() -> None:
    proc = run("play", "kaphai", "--seed", "4", "--deals", "1", "--players", "2",
               stdin="2H 2H\n9S 9H\nq\n")
    assert proc.returncode == 0
    assert "Refused" in proc.stdout


def test_play_rejects_unknown_rules() -> None:
    proc = run("play", "kaphai", "--rules", "no_such=1")
    assert proc.returncode == 2 and "unknown option 'no_such'" in proc.stderr


def test_watch_mode_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    proc = run("play", "kaphai", "--watch", "--seed", "1", "--deals", "2", "--players", "3")
    assert proc.returncode == 0 and "Match over" in proc.stdout
    assert main(["games"]) == 0
    assert "low_police_void" in capsys.readouterr().out


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "kaphai", "--seconds", "0.2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["game"] == "kaphai" and rows[0]["deals"] > 0


def test_play_in_process_every_game(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal game loop for each game: numbered choices, history, rules, a refusal."""
    import io

    import folkdeck

    for game in folkdeck.games():
        script = "h\nv\n?\nnot-a-card\n" + "1\n" * 2000
        monkeypatch.setattr("sys.stdin", io.StringIO(script))
        assert main(["play", game, "--seed", "3", "--deals", "1"]) == 0, game
        out = capsys.readouterr().out
        assert "Match over" in out, game
        assert "Refused" in out, game
