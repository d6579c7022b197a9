"""What every game's State shares: the protocol members that only read common fields.

A game's state class inherits :class:`StateBase` and keeps its own data in slots named
``_n`` (seats), ``_phase``, ``_history`` (a list of events) and ``_result``; it
provides ``to_act`` and ``verify``. Everything here may be overridden where a game
knows better (a cheaper ``current_seat``, a lazily built ``result``).
"""

from __future__ import annotations

from typing import Any, Self

from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.protocol import Event, Result


class StateBase:
    """Shared read-side of the :class:`~folkdeck.engine.protocol.State` protocol."""

    __slots__ = ()
    _n: int
    _phase: str
    _history: list[Event]
    _result: Result | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """A blank state: ``cls.__new__(cls)`` makes one without ``__init__`` (a clone, a
        world built from a view), in the compiled build too, whose classes would otherwise
        run ``__init__`` in ``__new__`` (README "Fast build")."""
        return object.__new__(cls)

    @property
    def to_act(self) -> tuple[int, ...]:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    def verify(self, action: Any, seat: int | None = None) -> None:  # pragma: no cover
        raise NotImplementedError

    # Declared here, though every game overrides them, so that code holding a StateBase
    # calls them as methods of a compiled class (README "Fast build"): a C call, where a
    # State protocol would go through Python's attribute look-up and call.
    def legal_actions(self, seat: int | None = None) -> tuple[Any, ...]:  # pragma: no cover
        raise NotImplementedError

    def apply(self, action: Any, seat: int | None = None) -> Event:  # pragma: no cover
        raise NotImplementedError

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def current_seat(self) -> int | None:
        acting = self.to_act
        return acting[0] if acting else None

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    def is_over(self) -> bool:
        return self._phase == "over"

    def result(self) -> Result | None:
        return self._result

    def is_legal(self, action: Any, seat: int | None = None) -> bool:
        """Whether ``action`` is legal for ``seat`` now (:meth:`verify` without raising)."""
        try:
            self.verify(action, seat)
        except IllegalActionError:
            return False
        return True

    def _seat(self, seat: int | None) -> int:
        """The acting seat: ``seat``, or the seat on turn when ``None``.

        :raises WrongPhaseError: ``None`` when nobody may act (the deal is over).
        :raises NotYourTurnError: a seat number the table does not have.
        """
        if seat is None:
            current = self.current_seat
            if current is None:
                raise WrongPhaseError("deal_over", phase=self._phase)
            return current
        if not 0 <= seat < self._n:
            raise NotYourTurnError("no_such_seat", seat=seat, players=self._n)
        return seat
