"""The arena: duplicate deals, identical results on every backend, files that replay."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path
from typing import Any, cast

import pytest

from folkdeck.cli.main import main
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.sim.arena import (
    ArenaConfig,
    load_results,
    merge_results,
    plot_results,
    replay_games,
    run_arena,
    write_results,
)

CONFIG = ArenaConfig("kaphai", ("heuristic", "random", "random", "random"), deals=6, seed=3)


def test_duplicate_deals_rotate_every_bot_through_every_seat() -> None:
    summary = run_arena(CONFIG)
    assert summary.games_played == 6 * 4
    for deal in range(6):
        games = [g for g in summary.games if g["deal"] == deal]
        assert sorted(g["bots"].index("heuristic") for g in games) == [0, 1, 2, 3]
        dealt = {json.dumps(g["record"]["hands"]) for g in games}
        assert len(dealt) == 1  # the same cards in every rotation
    heuristic, rand = summary.bots
    assert heuristic.seats_played == 24 and rand.seats_played == 72
    assert heuristic.mean_return.mean > rand.mean_return.mean


def test_a_repeating_lineup_plays_only_its_distinct_rotations() -> None:
    # greedy,heuristic,greedy,heuristic: rotation 2 would seat every bot as rotation 0 does
    summary = run_arena(ArenaConfig("kaphai", ("greedy", "heuristic") * 2, deals=3, seed=1))
    assert summary.games_played == 3 * 2
    for deal in range(3):
        seatings = [g["bots"] for g in summary.games if g["deal"] == deal]
        assert seatings == [["greedy", "heuristic"] * 2, ["heuristic", "greedy"] * 2]
    assert all(b.seats_played == 12 for b in summary.bots)


def test_results_do_not_depend_on_jobs_or_chunking() -> None:
    # Decision times are measured, so they are the one part the seed does not fix.
    serial = run_arena(CONFIG, jobs=1).to_dict(timing=False)
    assert run_arena(CONFIG, jobs=2).to_dict(timing=False) == serial
    assert run_arena(CONFIG, jobs=2, chunk=1).to_dict(timing=False) == serial
    pieces = [run_arena(ArenaConfig(CONFIG.game, CONFIG.bots, deals=3, seed=3, first_deal=k))
              .to_dict(timing=False)["games"] for k in (0, 3)]
    assert [g for p in pieces for g in cast(list[Any], p)] == serial["games"]


def test_pieces_merge_into_the_whole_arena() -> None:
    whole = run_arena(CONFIG).to_dict(timing=False)
    pieces = [run_arena(ArenaConfig(CONFIG.game, CONFIG.bots, deals=3, seed=3, first_deal=k)).to_dict()
              for k in (3, 0)]
    assert merge_results(pieces).to_dict(timing=False) == whole
    with pytest.raises(InvalidConfigError, match="in two pieces"):
        merge_results([pieces[0], pieces[0]])
    other = run_arena(ArenaConfig(CONFIG.game, CONFIG.bots, deals=1, seed=4, first_deal=9)).to_dict()
    with pytest.raises(InvalidConfigError, match="different arenas"):
        merge_results([pieces[0], other])


def test_decision_times_are_measured_per_bot() -> None:
    summary = run_arena(CONFIG)
    for bot in summary.bots:
        clock = bot.decision_time
        assert clock is not None and clock.decisions > 0
        assert 0 <= clock.mean <= clock.slowest
    # every game keeps [decisions, seconds, slowest] per seat
    assert all(len(g["timing"]) == 4 for g in summary.games)


@pytest.mark.ray  # starting a local Ray takes 15-40 s: CI runs it in `make test-all`
@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="Ray is not installed (pip install 'folkdeck[arena]')")
def test_ray_backend_gives_the_same_results() -> None:
    config = ArenaConfig("kaphai", ("heuristic", "random", "random", "random"), deals=4, seed=5)
    assert run_arena(config, jobs=2, backend="ray").to_dict(timing=False) == \
        run_arena(config).to_dict(timing=False)


def test_results_files_keep_every_record_replayable(tmp_path: Path) -> None:
    summary = run_arena(CONFIG)
    data = load_results(write_results(summary, tmp_path / "r.json"))
    assert data["config"]["bots"] == list(CONFIG.bots)
    assert replay_games(data) == 24
    rows = list(csv.DictReader(write_results(summary, tmp_path / "r.csv").open()))
    assert len(rows) == 24 * 4 and {r["bot"] for r in rows} == {"heuristic", "random"}
    if importlib.util.find_spec("matplotlib") is not None:
        png = plot_results(summary, tmp_path / "r.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_ratings_order_a_clear_gap() -> None:
    pytest.importorskip("openskill")
    summary = run_arena(ArenaConfig("kaphai", ("heuristic", "random", "random", "random"), deals=15, seed=1,
                                    keep_records=False))
    heuristic, rand = summary.bots
    assert heuristic.rating is not None and rand.rating is not None and heuristic.rating > rand.rating
    assert summary.rating_system.startswith("openskill")


@pytest.mark.parametrize(("bots", "message"), [
    (("heuristic",), "one bot per seat"), (("heuristic", "nobody"), "unknown bot")])
def test_bad_lineups_are_refused(bots: tuple[str, ...], message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        run_arena(ArenaConfig("kaphai", bots, deals=1))


def test_cli_arena_prints_a_table_and_writes_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.json"
    assert main(["arena", "kaphai", "--bots", "greedy,random,random", "--deals", "3", "--seed", "2",
                 "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "±" in text and "win share" in text
    assert len(load_results(out)["games"]) == 9
    assert main(["arena", "kaphai", "--bots", "greedy", "--deals", "1", "--quiet"]) == 2
