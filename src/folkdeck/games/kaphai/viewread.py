"""What :meth:`KapHaiState.from_view <folkdeck.games.kaphai.state.KapHaiState.from_view>`
reads of a seat's view: the public deal rebuilt from typed fields (the history's action
facts, the table, the 3-game's status facts), once per view and shared by every world
sampled from it. No text is parsed: plays come from the ``played`` facts' cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from folkdeck.cards import Card
from folkdeck.engine.determinize import events_of
from folkdeck.engine.errors import InvalidDealError, WrongPhaseError
from folkdeck.engine.facts import Fact, Played
from folkdeck.engine.protocol import Event
from folkdeck.games.kaphai.actions import PASS, PUTUH, KapHaiAction
from folkdeck.games.kaphai.events import PutuhCall, ThreeGame, ThreesPutOut
from folkdeck.games.kaphai.moves import MoveTable
from folkdeck.games.kaphai.observation import KapHaiView
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import Combo, classify, mask


class ViewReading(NamedTuple):
    """What :meth:`KapHaiState.from_view` reads of a view, once for every world."""

    seat: int
    own: int
    turn: int
    events: tuple[Event, ...]
    gone_by: tuple[int, ...]
    """Per seat: the cards it played, and the 3s it put out (its dealt hand less its hand)."""
    known: tuple[int, ...]
    """Per seat: the cards of its hand that are public (3s shown but not put out)."""
    fixed: int
    """Every public card of any hand (the union of ``known``)."""
    played: int
    shed: int
    passed: int
    top: Combo | None
    trick: tuple[tuple[int, Combo, bool], ...]
    opening: tuple[Fact, ...]
    own_table: MoveTable


_last_seen: list[tuple[KapHaiView, KapHaiOptions, ViewReading]] = []
"""A one-entry memo: a search samples hundreds of worlds from the same view, and
:meth:`KapHaiState.from_view` reads it for each (the memo holds the view, so an ``is``
test cannot match another view)."""


def _combo(cards: Sequence[Card]) -> Combo:
    combo = classify(mask(tuple(cards)))
    if combo is None:  # a view made by this module always holds real plays
        raise InvalidDealError("kaphai.no_combination", field="view", action=" ".join(map(str, cards)))
    return combo


def _action_of(act: Fact) -> KapHaiAction:
    """The action of a view's event, from its action fact."""
    if isinstance(act, Played):
        return _combo(act.cards)
    return PUTUH if isinstance(act, PutuhCall) else PASS


def read_view(options: KapHaiOptions, view: KapHaiView) -> ViewReading:
    """The public deal as ``view`` shows it, in a game with ``options`` (memoized for the
    last view read).

    :raises WrongPhaseError: for a spectator's view or a view outside the play phase.
    """
    if _last_seen and _last_seen[0][0] is view and _last_seen[0][1] is options:
        return _last_seen[0][2]
    seat = view.seat
    if seat is None or view.hand is None:
        raise WrongPhaseError("kaphai.view_of_a_seat", phase=str(view.phase))
    if view.phase != "play" or view.current_seat is None:
        raise WrongPhaseError("kaphai.view_not_in_play", phase=str(view.phase))
    n = view.num_players
    events = events_of(view.history, _action_of)
    gone = [0] * n
    for event in events:
        if isinstance(event.action, Combo):  # the cards it played
            gone[event.seat] |= event.action.mask
    opening = tuple(f for f in view.status if isinstance(f, (ThreeGame, ThreesPutOut)))
    known = [0] * n
    played = mask(view.played)
    for f in opening:
        if isinstance(f, ThreesPutOut):
            if f.shed:
                gone[f.seat] |= mask(f.cards)
            else:
                known[f.seat] |= mask(f.cards) & ~played
    own = mask(view.hand)
    passed = 0
    for s in view.passed:
        passed |= 1 << s
    fixed = 0
    for m in known:
        fixed |= m
    seen = ViewReading(seat=seat, own=own, turn=view.current_seat, events=events, gone_by=tuple(gone),
                 known=tuple(known), fixed=fixed, played=played, shed=mask(view.shed), passed=passed,
                 top=_combo(view.top.cards) if view.top is not None else None,
                 trick=tuple((t.seat, _combo(t.cards), t.label == "thrown") for t in view.table),
                 opening=opening, own_table=MoveTable.of(own, options))
    _last_seen[:] = [(view, options, seen)]
    return seen


__all__ = ["ViewReading", "read_view"]
