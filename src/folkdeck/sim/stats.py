"""Means with confidence intervals, for arena results and agent tests.

The arena plays duplicate deals: the rotations of one deal share its cards, so they
are not independent. The unit of sampling is therefore the deal: a bot's figure for a
deal is its mean over the rotations it played, and the interval is the normal
(Student-free, large-sample) 95% interval over the deals.

>>> m = mean_ci([1.0, 0.0, 1.0, 1.0])
>>> round(m.mean, 2), round(m.low, 3), round(m.high, 3), m.n
(0.75, 0.26, 1.24, 4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypedDict

Z95: Final = 1.959963984540054


class MeanCIDict(TypedDict):
    """A :class:`MeanCI` as results files and training logs keep it."""

    mean: float
    low: float
    high: float
    n: int


@dataclass(frozen=True, slots=True)
class MeanCI:
    """A sample mean and its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> MeanCIDict:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.half_width:.3f}"


def mean_ci(values: Sequence[float], z: float = Z95) -> MeanCI:
    """The mean of ``values`` with a normal-approximation interval (zero width for n < 2)."""
    n = len(values)
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanCI(mean, mean, mean, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return MeanCI(mean, mean - half, mean + half, n)


def wilson(successes: int, n: int, z: float = Z95) -> MeanCI:
    """A proportion with its Wilson score interval (sound near 0 and 1).

    >>> str(wilson(50, 100))
    '0.500 ± 0.096'
    """
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return MeanCI(p, centre - half, centre + half, n)


__all__ = ["MeanCI", "MeanCIDict", "Z95", "mean_ci", "wilson"]
