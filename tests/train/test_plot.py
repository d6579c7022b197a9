"""The training plots (``folkdeck.train.plot``): a run's log and a learning curve as PNGs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from folkdeck.train.plot import plot_curve, plot_log

pytest.importorskip("matplotlib")


def _run(folder: Path, deals: int, cpu: float, learned: float) -> Path:
    folder.mkdir()
    interval = {"mean": learned, "low": learned - 0.1, "high": learned + 0.1, "n": 60}
    heuristic = {"mean": 1.6, "low": 1.5, "high": 1.7, "n": 60}
    rows = [{"stage": "teach", "cpu_minutes": 0.0, "decisions": 10},
            {"stage": "fit", "cpu_minutes": cpu, "decisions": 10,
             "eval": {"learned": {"mean_return": interval}, "heuristic": {"mean_return": heuristic}}}]
    (folder / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "recipe.json").write_text(json.dumps({"game": "kaphai", "teach_deals": deals}))
    return folder


def test_a_learning_curve_and_a_run_s_log_are_drawn(tmp_path: Path) -> None:
    runs = [_run(tmp_path / f"r{n}", n, 3.0, 1.4 + n / 10_000) for n in (256, 1024)]
    curve = plot_curve(runs, tmp_path / "curve.png", deal_seconds=1.2)
    log = plot_log(runs[0] / "log.jsonl", tmp_path / "log.png")
    for png in (curve, log):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_curve_has_a_series_per_teacher_and_counts_linked_deals_at_their_cost(tmp_path: Path) -> None:
    """Runs that read their teacher deals from another run's folder count those deals at
    ``deal_seconds`` (per teacher) and their fit at the log's own minutes after the deals
    they played: a run that played a third of its deals is not counted twice for them."""
    from folkdeck.train.plot import curve_points

    pimc = _run(tmp_path / "pimc", 2048, 3.0, 1.6)
    search = _run(tmp_path / "search", 3000, 32.5, 1.76)
    recipe = json.loads((search / "recipe.json").read_text())
    (search / "recipe.json").write_text(json.dumps({**recipe, "teacher": "search"}))
    log = (search / "log.jsonl").read_text().replace('"cpu_minutes": 0.0', '"cpu_minutes": 28.7')
    (search / "log.jsonl").write_text(log)
    points = curve_points([search, pimc], {"search": 1.73, "pimc:fast": 1.21})
    assert [(p.teacher, p.deals) for p in points] == [("pimc:fast", 2048), ("search", 3000)]
    assert points[0].minutes == pytest.approx(3.0 + 2048 * 1.21 / 60)
    assert points[1].minutes == pytest.approx(32.5 - 28.7 + 3000 * 1.73 / 60)
    png = plot_curve([pimc, search], tmp_path / "curve.png", deal_seconds={"search": 1.73, "pimc:fast": 1.21})
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
