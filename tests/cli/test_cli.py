"""The ``folkdeck`` command as a program: through a pipe, with the locale's language; bench, games."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from folkdeck.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "records"
STUDY = str(EXAMPLES / "kaphai-study.json")


def run(*args: str, stdin: str = "", lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run([sys.executable, "-m", "folkdeck", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=120)


def test_play_a_whole_match_through_a_pipe() -> None:
    """A newcomer's session: pick numbered choices until the match is over."""
    proc = run("play", "kaphai", "--seed", "4", "--deals", "1", stdin="1\n" * 400)
    assert proc.returncode == 0, proc.stderr
    assert "Deal 1" in proc.stdout and "Match over" in proc.stdout
    assert "Your options:" in proc.stdout and "Traceback" not in proc.stderr


def test_the_language_comes_from_the_locale() -> None:
    proc = run("play", "kaphai", "--seed", "4", "--deals", "1", stdin="99999\nq\n", lang="ja_JP.UTF-8")
    assert proc.returncode == 0, proc.stderr
    assert "第1ディール" in proc.stdout and "99999番の手はありません" in proc.stdout
    proc = run("replay", "-", stdin='{"game": "kaphai", "seed": 1, "rules": {"players": 7}}',
               lang="ja_JP.UTF-8")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "rules.players" in proc.stderr and "記録の形式が不正です" in proc.stderr
    proc = run("replay", "-", "--lang", "en", stdin="[", lang="ja_JP.UTF-8")
    assert proc.returncode == 2 and "malformed record: (json): bad JSON" in proc.stderr


def test_a_record_with_a_byte_order_mark_replays_through_a_pipe() -> None:
    proc = run("replay", "-", stdin="\ufeff" + Path(STUDY).read_text(encoding="utf-8"))
    assert proc.returncode == 0 and json.loads(proc.stdout)["to_act"] == [2]


def test_games_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert "low_police_void" in capsys.readouterr().out
    assert main(["rules", "kaphai"]) == 0
    assert "Kap Hai" in capsys.readouterr().out
    assert main(["rules", "nosuchgame", "--lang", "ja"]) == 2
    assert "未知のゲーム nosuchgame" in capsys.readouterr().err


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "kaphai", "--seconds", "0.2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    row = result["games"][0]
    assert row["game"] == "kaphai" and row["deals"] > 0 and result["build"] in ("python", "mypyc")
    # Every figure is also a multiple of the no-rules floor loop timed in the same run.
    floor = result["floor"]
    assert row["deals_x_floor"] == pytest.approx(row["deals_per_s"] / floor["deals_per_s"], rel=1e-3)
    assert 0 < row["decisions_x_floor"] < 1  # rules cost more than choosing at random
    # Each game ran with the earlier games' objects frozen out of the collector's way; the
    # run gives them back.
    assert gc.get_freeze_count() == 0


def test_arena_option_errors_are_coded(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "kaphai", "--bots", "random,random", "--first-deal", "-1", "--quiet"]) == 2
    assert "--first-deal -1: must be 0 or more" in capsys.readouterr().err
    assert main(["--lang", "ja", "arena", "kaphai", "--bots", "random,random", "--address", "x", "--quiet"]) == 2
    assert "--address は --backend ray と一緒に指定します" in capsys.readouterr().err


def test_the_command_runs_one_blas_thread_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The bots' small matrices gain nothing from BLAS threads where a process runs per core
    (``single_threaded_blas``); a user's own setting stands."""
    from folkdeck.cli.main import BLAS_THREADS

    for name in BLAS_THREADS:  # set first, so that the variables are restored after the test
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    assert main(["games"]) == 0
    capsys.readouterr()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"
