"""The one typed contract of a game's State, with the members every game shares.

:class:`StateBase` ``[ActionT, ViewT]`` is the :class:`~folkdeck.engine.protocol.State`
protocol as a base class: a game's state inherits it with its own action union and view
class (``class KapHaiState(StateBase[KapHaiAction, KapHaiView])``), provides the members
that raise :class:`NotImplementedError` here, and inherits the rest. The optional hooks
of the protocol are default methods here, so callers call them directly:

* :meth:`public_to_act`: the seats of ``to_act`` that every viewer may see (default: the
  seat on turn alone);
* :meth:`possible_callers`: the seats that, for all the public facts tell, may hold a
  hidden right to act out of turn that cannot wait for a turn (default: none);
* :meth:`from_view`: a deal that a seat cannot tell from the real one, built from its
  view and the hidden cards a determinizer chose (each game names those cards).

A state keeps its mutable deal data in one slotted dataclass named ``deal`` whose own
``copy()`` copies every container (``tests/engine/test_deal_data.py`` checks this for
every game), so :meth:`clone` is that copy plus the shared, immutable rest. ``_n`` is
the number of seats; ``_phase``, ``_history`` and ``_result`` serve the default read side
below, which a state keeping them in its ``deal`` overrides.
"""

from __future__ import annotations

from typing import Any, Generic, Self, TypeVar

from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.view import View

ActionT = TypeVar("ActionT")
"""The game's action union (``KapHaiAction = Combo | Pass | Putuh``)."""
ViewT = TypeVar("ViewT", bound=View)
"""The game's view class (``KapHaiView``)."""


class BlankMade:
    """Instances that ``cls.__new__(cls)`` makes blank, without ``__init__`` (a clone, a
    world built from a view), in the compiled build too, whose classes would otherwise run
    ``__init__`` in ``__new__`` (README "Fast build"). A class of its own, not a method of
    :class:`StateBase`: mypyc compiles ``object.__new__`` only in a class that has no
    ``Generic`` among its bases."""

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        return object.__new__(cls)


class StateBase(BlankMade, Generic[ActionT, ViewT]):
    """One deal in progress: the members of :class:`~folkdeck.engine.protocol.State`."""

    __slots__ = ()
    _n: int
    _phase: str
    _history: list[Event]
    _result: Result | None

    # --- what each game provides ------------------------------------------------------
    # Declared here, though every game overrides them, so that code holding a StateBase
    # calls them as methods of a compiled class (README "Fast build"): a C call, where a
    # State protocol would go through Python's attribute look-up and call.
    @property
    def to_act(self) -> tuple[int, ...]:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    def verify(self, action: ActionT, seat: int | None = None) -> None:  # pragma: no cover
        raise NotImplementedError

    def legal_actions(self, seat: int | None = None) -> tuple[ActionT, ...]:  # pragma: no cover
        raise NotImplementedError

    def apply(self, action: ActionT, seat: int | None = None) -> Event:  # pragma: no cover
        raise NotImplementedError

    def parse_action(self, text: str, seat: int | None = None) -> ActionT:  # pragma: no cover
        raise NotImplementedError

    def observe(self, seat: int | None) -> ViewT:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    def clone(self) -> Self:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    @classmethod
    def from_view(cls, game: Any, view: Any, /, *args: Any, **world: Any) -> Self:  # pragma: no cover
        """A deal that ``view``'s seat cannot tell from the real one; ``world`` places the
        cards the view hides (each game names them: ``hands``, ``stock``...)."""
        raise NotImplementedError

    # --- the optional hooks, with their defaults --------------------------------------
    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` whose right to act every viewer may see: by default the
        seat the game waits for (``to_act[0]``). A game whose out-of-turn rights are public
        (or whose turn may be hidden) says so here."""
        return self.to_act[:1]

    def possible_callers(self) -> tuple[int, ...]:
        """The seats that, for all the public facts tell, may hold a hidden right to act
        out of turn that cannot wait (the Cambio OWL's cucco before a request reaches it);
        the server gives each person among them the same moment before a bot acts. By
        default none: a game without such a right."""
        return ()

    # --- the read side of a state that keeps its phase, events and result in its own
    # attributes ``_phase``, ``_history`` and ``_result``; a state that keeps them in its
    # ``deal`` overrides these four.
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self._history)

    def is_over(self) -> bool:
        return self._phase == "over"

    def result(self) -> Result | None:
        return self._result

    # --- shared from the members above ----------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    @property
    def current_seat(self) -> int | None:
        acting = self.to_act
        return acting[0] if acting else None

    def is_legal(self, action: ActionT, seat: int | None = None) -> bool:
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
                raise WrongPhaseError("deal_over", phase=self.phase)
            return current
        if not 0 <= seat < self._n:
            raise NotYourTurnError("no_such_seat", seat=seat, players=self._n)
        return seat
