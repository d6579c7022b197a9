"""Shuffles and random choices drawn exactly as :mod:`random` draws them, but faster.

``random.Random.shuffle`` and ``randrange`` spend most of their time in Python-level
method calls (``shuffle`` calls ``_randbelow`` once a card). These functions take the
same bits from the generator in the same order, so a seeded deal is the same card for
card and the generator is left in the same state. Both follow CPython's ``_randbelow_with_getrandbits`` (3.11–3.13).

>>> import random
>>> a, b = list(range(216)), list(range(216))
>>> r1, r2 = random.Random(7), random.Random(7)
>>> r1.shuffle(a); shuffle(b, r2)
>>> a == b and r1.getstate() == r2.getstate()
True
>>> r1, r2 = random.Random(3), random.Random(3)
>>> [r1.randrange(n) for n in range(1, 200)] == [below(r2.getrandbits, n) for n in range(1, 200)]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``, given ``rng.getrandbits``: ``n.bit_length()``
    bits, drawn again until they are below ``n``.

    >>> below(random.Random(1).getrandbits, 0)
    Traceback (most recent call last):
    ...
    ValueError: no choice among 0 options
    """
    if n <= 0:
        raise ValueError(f"no choice among {n} options")
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does, with its loop
    written out. A subclass of :class:`random.Random` gets its own ``shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        items[i], items[r] = items[r], items[i]


__all__ = ["below", "shuffle"]
