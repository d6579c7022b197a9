"""What one toy seat sees: the core :class:`~folkdeck.engine.view.View` and two typed fields."""

from __future__ import annotations

from dataclasses import dataclass

from folkdeck.engine.view import View


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyView(View):
    """A seat's (or a spectator's) view of a toy deal."""

    tricks: tuple[int, ...]
    """Tricks won so far by each seat."""
    leader: int
    """The seat that led the deal's first trick."""
