from __future__ import annotations

import math
import random

import pytest

from folkdeck.sim.stats import mean_ci, wilson


@pytest.mark.parametrize(("values", "mean", "half"), [
    ([2.0, 2.0, 2.0], 2.0, 0.0),
    ([0.0, 1.0], 0.5, 1.96 * math.sqrt(0.5 / 2)),
    ([5.0], 5.0, 0.0),
])
def test_mean_ci_rows(values: list[float], mean: float, half: float) -> None:
    m = mean_ci(values)
    assert m.mean == pytest.approx(mean) and m.half_width == pytest.approx(half, rel=1e-3)


def test_mean_ci_covers_the_true_mean_about_95_percent_of_the_time() -> None:
    rng = random.Random(4)
    covered = sum(1 for _ in range(400)
                  if (m := mean_ci([rng.gauss(1.0, 2.0) for _ in range(50)])).low <= 1.0 <= m.high)
    assert 0.91 <= covered / 400 <= 0.99  # binomial(400, 0.95) lies in this range w.p. > 0.999


def test_wilson_stays_inside_zero_one() -> None:
    w = wilson(0, 20)
    assert w.low == pytest.approx(0.0, abs=1e-12) and 0.1 < w.high < 0.2
    assert math.isnan(wilson(0, 0).mean)
