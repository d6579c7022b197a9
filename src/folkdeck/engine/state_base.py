"""What every game's state does alike: the base class that implements the State protocol.

:class:`~folkdeck.engine.protocol.State` is the one contract of a state, and its members are
documented there. ``StateBase[ActionT_co, ViewT_co, DealT_co]`` implements it for the games:
a game's state inherits it with its own action union, view class and deal data
(``class KapHaiState(StateBase[KapHaiAction, KapHaiView, KapHaiDeal])``), gives the
protocol's own members (``to_act``, ``legal_actions``, ``apply``, ``parse_action``,
``observe``, ``game``, the record's and the determinizer's members), and inherits the rest.
What it inherits is either read from data every state has (the deal, the seat count, the
parts its clones share) or made from the protocol's own members, as
:class:`collections.abc.Mapping` makes ``get`` from ``__getitem__`` (:meth:`verify` is
:meth:`apply` on a :meth:`clone`, :meth:`is_legal` is :meth:`verify` without raising,
:attr:`current_seat` and :meth:`public_to_act` are read from ``to_act``). It has no hook
that only it calls: a game asks it for the parts it makes (``self._view_core(...)``,
:meth:`_seat`) and is never asked for one. It declares no public member of its own
(``tests/engine/test_state_contract.py``). Its methods take any game's
:class:`~folkdeck.engine.values.Action`, as the protocol's do; a game narrows the action by
its own checks (an action of another game is refused as illegal).

A state keeps its mutable deal data in one slotted dataclass named ``deal`` whose own
``copy()`` copies every container (``tests/engine/test_deal_data.py`` checks this for
every game), and names in :attr:`~StateBase._shared` the slots holding the parts play never
changes (the game, its rules, the tables made from them), so :meth:`clone` is that copy plus
those parts, shared. ``_n`` is the number of seats. The read side (:attr:`phase`,
:attr:`history`, :meth:`is_over`, :meth:`result`) is read here, once, from the fields every
deal has (:class:`DealCore`).

A game's ``observe`` starts from :meth:`~StateBase._view_core`: the core fields every game
fills alike (:class:`~folkdeck.engine.view.ViewCore`: the seat, who may act as the viewer may
see it, its legal actions, the history as it may see it, the result), made here once, to
which the game adds what only it knows (its name and phase type, the hand, the counts, the
table, the status and its own fields).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, ClassVar, Final, Generic, Self, TypeVar, cast

from folkdeck.engine.build import compiled
from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.pickling import state_reduction
from folkdeck.engine.values import Action, DescribeAction, Event, Result
from folkdeck.engine.view import HistoryCache, View, ViewCore

if TYPE_CHECKING:
    from folkdeck.engine.protocol import State

ActionT_co = TypeVar("ActionT_co", bound=Action, covariant=True)
"""The game's action union (``KapHaiAction = Combo | Pass | Putuh``): what its
:meth:`~StateBase.legal_actions` and :meth:`~StateBase.parse_action` give."""
ViewT_co = TypeVar("ViewT_co", bound=View, covariant=True)
"""The game's view class (``KapHaiView``)."""


class DealCore:
    """The fields every game's deal data (a state's ``deal``) has, which the read side of
    :class:`StateBase` reads: the phase (``"over"`` once the deal is over), the events so
    far, and the result once known. Each game's deal class derives from it and declares
    these fields again among its own (a slotted dataclass; this class adds no slot).

    A base class, not a protocol, so that :class:`StateBase` reads these fields as
    attributes of a class (why: :mod:`folkdeck.engine.build`, "Calls")."""

    __slots__ = ()

    phase: str
    history: list[Event]
    result: Result | None

    def copy(self) -> Self:  # pragma: no cover - deal_data gives each deal class its own
        """A copy sharing no container with this deal (``tests/engine/test_deal_data.py``)."""
        raise NotImplementedError


DealT_co = TypeVar("DealT_co", bound=DealCore, covariant=True)
"""The game's deal data class (``KapHaiDeal``). The three type variables are covariant (each
is only given, never taken: a state's methods take any :class:`~folkdeck.engine.values.Action`),
so ``StateBase[Action, View, DealCore]`` holds every game's state
(:func:`~folkdeck.engine.playout.random_playout`)."""


_FILL_DICT_SLOT: Final = sys.version_info < (3, 12) and compiled()
"""Give each new state an empty ``__dict__`` where the build and Python's version call for
it, so that a call of its method from interpreted code is looked up by a specialized
instruction (why: :mod:`folkdeck.engine.build`, "Python 3.11's method look-up")."""


class BlankMade:
    """Instances that ``cls.__new__(cls)`` makes blank, without ``__init__`` (a clone, a
    world built from a view, a match that pickle loads), for a class with ``Generic`` among
    its bases (:data:`_FILL_DICT_SLOT`); :class:`Blank` is for any other (why:
    :mod:`folkdeck.engine.build`, "Blank instances")."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        made = object.__new__(cls)
        if _FILL_DICT_SLOT:
            made.__dict__ = {}  # type: ignore[misc]  # see _FILL_DICT_SLOT
        return made


class Blank:
    """:class:`BlankMade` for a class without ``Generic`` among its bases: a match's
    :class:`~folkdeck.engine.match_base.CarryOver`, which pickle loads blank and then fills
    attribute by attribute (:mod:`folkdeck.engine.pickling`)."""

    __slots__ = ()

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        return object.__new__(cls)


class StateBase(BlankMade, Generic[ActionT_co, ViewT_co, DealT_co]):
    """One deal in progress, implementing :class:`~folkdeck.engine.protocol.State` (see the module)."""

    __slots__ = ("_n", "deal", "_cache")
    _shared: ClassVar[tuple[str, ...]] = ()
    """The slots of the game's state holding the parts that play never changes (the game,
    its rules, the tables made from them): a :meth:`clone` shares them, never copies them."""
    _n: int
    deal: DealT_co
    """Everything of the deal that play changes (a slotted dataclass with a ``copy()``)."""
    _cache: HistoryCache | None
    """The views' history, made by the first view (:meth:`_view_core`): playouts never need it."""

    # --- what each game provides ------------------------------------------------------
    # Declared here, though every game overrides them, so that code holding a StateBase
    # calls them as methods of this class (why: folkdeck.engine.build, "Calls").
    @property
    def to_act(self) -> tuple[int, ...]:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the reason ``action`` is illegal for ``seat`` now; return ``None`` if it is legal.

        By default it is :meth:`apply` tried on a :meth:`clone`, so that each rule is stated
        once, in ``apply``, which may then check the common cases inline (a separate check
        called per action costs a playout percents). A game whose ``apply`` calls a check
        of its own overrides this with that check.

        :raises WrongPhaseError: the deal is over, or the action belongs to another phase.
        :raises NotYourTurnError: the seat may not act now.
        :raises IllegalActionError: the rules refuse it (the reason says why).
        """
        self.clone().apply(action, seat)

    def legal_actions(self, seat: int | None = None) -> tuple[ActionT_co, ...]:  # pragma: no cover
        raise NotImplementedError

    def apply(self, action: Action, seat: int | None = None) -> Event:  # pragma: no cover
        raise NotImplementedError

    def parse_action(self, text: str, seat: int | None = None) -> ActionT_co:  # pragma: no cover
        raise NotImplementedError

    def observe(self, seat: int | None) -> ViewT_co:  # pragma: no cover - every game gives it
        raise NotImplementedError

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # As its record: the deal as it began and its events, replayed when loaded
        # (folkdeck.engine.pickling); no inner object of the state is pickled. Every game's
        # state is a State: it gives the members the base leaves to it (game, deal_info...).
        return state_reduction(cast("State", self))

    def clone(self) -> Self:
        """An independent copy: play on either leaves the other as it was. The deal data is
        copied (its ``copy()`` copies every container), the views' history made so far too
        (:meth:`_copy_deal`), and the game's parts named in :attr:`_shared` are shared (why:
        :mod:`folkdeck.engine.build`, "Clones")."""
        new = self._copy_deal()
        for name in self._shared:
            setattr(new, name, getattr(self, name))
        return new

    def _copy_deal(self) -> Self:
        """A blank state of this class with this one's seat count and copies of its deal
        data and of the views' history made so far: a :meth:`clone` without the game's parts."""
        new = type(self).__new__(type(self))
        new._n = self._n
        new.deal = self.deal.copy()
        cache = self._cache
        new._cache = cache.copy() if cache is not None else None
        return new

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

    # --- the read side, from the deal's common fields ---------------------------------
    @property
    def phase(self) -> str:
        return self.deal.phase

    @property
    def history(self) -> tuple[Event, ...]:
        return tuple(self.deal.history)

    def is_over(self) -> bool:
        return self.deal.phase == "over"

    def result(self) -> Result | None:
        return self.deal.result

    # --- views ------------------------------------------------------------------------
    def _view_core(self, seat: int | None, acting: tuple[int, ...], describe: DescribeAction) -> ViewCore:
        """The core of ``seat``'s view (``None``: a spectator), which the game's ``observe``
        completes: ``acting`` is ``to_act`` as ``seat`` may see it (a game with hidden rights
        to act shows only the public ones and the viewer's own), the view's ``current_seat``
        that tuple's first seat, and its ``legal_actions`` the viewer's when it is among
        them. ``describe`` is the game's ``describe_action``, which the history of the views
        is built with (:class:`HistoryCache`, made by the first view: playouts never need it)."""
        legal = (tuple([str(a) for a in self.legal_actions(seat)])
                 if seat is not None and seat in acting else ())
        result = self.result()
        cache = self._cache
        if cache is None:
            cache = self._cache = HistoryCache(describe)
        return {
            "seat": seat, "num_players": self._n, "to_act": acting,
            "current_seat": acting[0] if acting else None, "legal_actions": legal,
            "history": cache.view(self.deal.history, seat),
            "result": result.to_dict() if result is not None else None}

    # --- shared from the members above ----------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n

    @property
    def current_seat(self) -> int | None:
        acting = self.to_act
        return acting[0] if acting else None

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
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
