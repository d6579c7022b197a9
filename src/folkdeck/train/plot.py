"""A training run's strength over CPU time, as a PNG (matplotlib, from the ``arena`` extra)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes  # type: ignore[import-not-found, unused-ignore]
    from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]

    from folkdeck.train.loop import Figures, LogRow


def plot_log(log: str | Path, path: str | Path, *, title: str | None = None) -> Path:
    """Plot ``log.jsonl``'s evaluations: the learner's and the heuristic's mean return
    (95% intervals) against the CPU minutes spent when each was taken."""
    rows: list[LogRow] = [row for line in Path(log).read_text().splitlines() if line.strip()
                          for row in [json.loads(line)] if "eval" in row]
    fig, ax = _figure()
    names = list(dict.fromkeys(n for r in rows for n in r["eval"]))
    for k, name in enumerate(names):
        for kind, marker, line in (("train", "o", "-"), ("calibrate", "s", "")):
            points = [(r["cpu_minutes"], r["eval"][name]["mean_return"], r) for r in rows
                      if name in r["eval"] and (r["stage"] == "calibrate") == (kind == "calibrate")]
            if not points:
                continue
            means = [m["mean"] for _, m, _ in points]
            ax.errorbar([x for x, _, _ in points], means,
                        yerr=[[m["mean"] - m["low"] for _, m, _ in points], [m["high"] - m["mean"] for _, m, _ in points]],
                        marker=marker, linestyle=line, capsize=3, color=f"C{k}",
                        label=name if kind == "train" else f"{name}, calibration")
            for x, m, r in points:
                label = f"margin {r['margin']:g}" if kind == "calibrate" else r["stage"]
                if k == 0 or kind == "train":
                    ax.annotate(label, (x, m["mean"]), textcoords="offset points", xytext=(4, 6 + 8 * k), fontsize=7)
    return _save(fig, ax, "CPU minutes of training (self-play, search teacher, fitting, evaluation)",
                 title, path)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One run of a learning curve: its teacher, its teacher deals, the CPU minutes of
    those deals and its fit, and its fit's evaluation (``eval`` of its log)."""

    teacher: str
    deals: int
    minutes: float
    evaluation: dict[str, Figures]


def curve_points(runs: Sequence[str | Path], deal_seconds: float | Mapping[str, float] | None = None
                 ) -> list[CurvePoint]:
    """Each run's point, by CPU minutes. ``deal_seconds``: the CPU a teacher deal costs (one
    figure, or one per teacher name), for runs that read their teacher deals from another
    run's folder: a point's minutes are then its deals at that cost plus its fit's own
    minutes (the log's from the teach stage to the fit). Without it, the log's own minutes.

    >>> import tempfile
    >>> run = Path(tempfile.mkdtemp())
    >>> _ = (run / "recipe.json").write_text('{"teacher": "search", "teach_deals": 600}')
    >>> _ = (run / "log.jsonl").write_text('{"stage": "teach", "cpu_minutes": 5.0}\\n'
    ...                                    '{"stage": "fit", "cpu_minutes": 7.0, "eval": {}}\\n')
    >>> [(p.teacher, p.deals, p.minutes) for p in curve_points([run], {"search": 2.0})]
    [('search', 600, 22.0)]
    >>> curve_points([run])[0].minutes
    7.0
    """
    points = []
    for run in runs:
        rows: list[LogRow] = [json.loads(line) for line in (Path(run) / "log.jsonl").read_text().splitlines()
                              if line.strip()]
        recipe = json.loads((Path(run) / "recipe.json").read_text())
        teacher = str(recipe.get("teacher", "pimc:fast"))
        fit = next(r for r in rows if r["stage"] == "fit")
        seconds = deal_seconds.get(teacher) if isinstance(deal_seconds, Mapping) else deal_seconds
        minutes = fit["cpu_minutes"]
        if seconds is not None:
            taught = next((r["cpu_minutes"] for r in rows if r["stage"] == "teach"), 0.0)
            minutes += recipe["teach_deals"] * seconds / 60 - taught
        points.append(CurvePoint(teacher, recipe["teach_deals"], minutes, dict(fit["eval"])))
    return sorted(points, key=lambda p: p.minutes)


def plot_curve(runs: Sequence[str | Path], path: str | Path, *,
               deal_seconds: float | Mapping[str, float] | None = None, title: str | None = None) -> Path:
    """A learning curve per teacher (:func:`curve_points`): each run's fit evaluation, the
    learner's and the heuristic seats' mean return with 95% intervals, against the CPU
    minutes of its teacher deals and its fit."""
    points = curve_points(runs, deal_seconds)
    fig, ax = _figure()
    teachers = list(dict.fromkeys(p.teacher for p in points))
    series = [(f"learned, {t} teacher" if len(teachers) > 1 else "learned", "learned", f"C{k}",
               [p for p in points if p.teacher == t]) for k, t in enumerate(teachers)]
    series.append(("heuristic seats", "heuristic", "0.55", points))
    for label, name, color, mine in series:
        means = [p.evaluation[name]["mean_return"] for p in mine]
        ax.errorbar([p.minutes for p in mine], [m["mean"] for m in means],
                    yerr=[[m["mean"] - m["low"] for m in means], [m["high"] - m["mean"] for m in means]],
                    marker="o", capsize=3, color=color, label=label)
    for p in points:
        ax.annotate(f"{p.deals} deals", (p.minutes, p.evaluation["learned"]["mean_return"]["mean"]),
                    textcoords="offset points", xytext=(4, 6), fontsize=7)
    return _save(fig, ax, "CPU minutes of training (the teacher's deals and the fit)", title, path)


def _figure() -> tuple[Figure, Axes]:
    """A figure and its axes, of matplotlib's pyplot (the arena extra) drawing to files."""
    import matplotlib  # type: ignore[import-not-found, unused-ignore]  # the arena extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    return fig, ax


def _save(fig: Figure, ax: Axes, xlabel: str, title: str | None, path: str | Path) -> Path:
    """Label the axes (mean return against ``xlabel``) and write the PNG."""
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]  # _figure chose the backend

    ax.set_xlabel(xlabel)
    ax.set_ylabel("mean return a deal (95% interval)")
    ax.set_title(title or "strength over training time")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target)
    plt.close(fig)
    return target
