"""A training run's strength over CPU time, as a PNG (matplotlib, from the ``arena`` extra)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes  # type: ignore[import-not-found, unused-ignore]
    from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]

    from folkdeck.train.loop import LogRow


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


def plot_curve(runs: list[Path], path: str | Path, *, deal_seconds: float | None = None,
               title: str | None = None) -> Path:
    """A learning curve: each run's fit evaluation (learned and heuristic, 95% intervals)
    against the CPU minutes of its teacher deals and its fit. ``deal_seconds``: the CPU a
    teacher deal costs, for runs that read their teacher deals from another run's folder
    (their log counts none for them); else the logs' own minutes."""
    points = []
    for run in runs:
        rows: list[LogRow] = [json.loads(line) for line in (Path(run) / "log.jsonl").read_text().splitlines()
                              if line.strip()]
        recipe = json.loads((Path(run) / "recipe.json").read_text())
        fit = next(r for r in rows if r["stage"] == "fit")
        minutes = fit["cpu_minutes"] + (recipe["teach_deals"] * deal_seconds / 60 if deal_seconds else 0.0)
        points.append((minutes, recipe["teach_deals"], fit["eval"]))
    points.sort(key=lambda p: p[0])
    fig, ax = _figure()
    for k, name in enumerate(("learned", "heuristic")):
        means = [e[name]["mean_return"] for _, _, e in points]
        ax.errorbar([x for x, _, _ in points], [m["mean"] for m in means],
                    yerr=[[m["mean"] - m["low"] for m in means], [m["high"] - m["mean"] for m in means]],
                    marker="o", capsize=3, color=f"C{k}", label=name)
    for x, deals, e in points:
        ax.annotate(f"{deals} deals", (x, e["learned"]["mean_return"]["mean"]), textcoords="offset points",
                    xytext=(4, 6), fontsize=7)
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
