"""Seat arithmetic. Seats are numbered in turn order: ``seat + 1`` always plays next.

>>> next_seat(3, 4), previous_seat(0, 4), relative_seat(1, 3, 4)
(0, 3, 2)
"""

from __future__ import annotations

from folkdeck.engine.protocol import Seat


def next_seat(seat: Seat, n: int) -> Seat:
    """The seat that plays after ``seat``."""
    return (seat + 1) % n


def previous_seat(seat: Seat, n: int) -> Seat:
    """The seat that played before ``seat``."""
    return (seat - 1) % n


def relative_seat(seat: Seat, other: Seat, n: int) -> int:
    """How many turns after ``seat`` the ``other`` seat plays (0 = the same seat)."""
    return (other - seat) % n
