"""What one Gou Ji seat sees (or a spectator, ``seat=None``): :class:`GouJiView`.

The core fields (:class:`~folkdeck.engine.view.View`) carry the hand, the counts the
rules make public, the current trick (``table``, ``top``, ``passed``), the seats out in
order, the standing facts (``status``: the tribute, a gouji duel, a 先让让 request,
offences, 点贡 owed) and the deal's history. The typed fields below are what bots and
the determinizer read; no field needs parsing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact
from folkdeck.engine.protocol import Event
from folkdeck.engine.view import TablePlay, View, ViewCore, ViewEvent
from folkdeck.games.gouji.actions import Burn
from folkdeck.games.gouji.deal import GouJiDeal, hand_cards, new_deal, rank_counts
from folkdeck.games.gouji.dealing import SEATS, Setup, opposite, team
from folkdeck.games.gouji.events import (
    BurnWindow,
    DianGongOwed,
    GoujiCalled,
    Liberation,
    Offence,
    TributeGiven,
    TributeReturned,
    TributeSkipped,
    TrickMode,
    XianRequest,
)
from folkdeck.games.gouji.rules import HAND_ORDER, play_from_counts

if TYPE_CHECKING:
    from folkdeck.games.gouji.options import GouJiOptions


class GouJiPhase(StrEnum):
    """The phases of a deal, in order (``docs/rules/gouji.md``)."""

    DRAWER = "drawer"
    """A normal deal: the Da La names the first drawer."""
    START = "start"
    """A special deal: who declares two 3s of one suit."""
    REVOLUTION = "revolution"
    OBJECTION = "objection"
    WITHDRAW = "withdraw"
    TRIBUTE = "tribute"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True, kw_only=True)
class GouJiView(View):
    """A seat's view: the core fields plus Gou Ji's own (see the module docstring).

    ``to_act`` lists the seats of the state's ``to_act`` whose right is public, plus this
    seat if it is in ``to_act`` (``GouJiState._view_to_act``). With ``ask_all_seats`` (the
    default) every window asks every seat the public facts could entitle, so all of
    ``to_act`` is public; without it (old records) who is asked to declare two 3s, call
    revolution or burn depends on hidden cards and is hidden (unless ``strict_penalty``
    asks everyone). A view's ``to_act`` may then be empty while the deal goes on.
    """

    opposite: int | None = None
    """This seat's opposite (对门), three seats away; ``None`` for a spectator."""
    window: str = ""
    """The window open now (a term key: ``drawer``, ``start``, ``revolution``,
    ``objection``, ``withdraw``, ``tribute``, ``burn``, ``reorder``), empty in play."""
    shown: tuple[tuple[Card, ...] | None, ...] = ()
    """By seat: the hand shown to this viewer (an open hand; a teammate's of 10 cards or
    fewer), ``None`` where nothing is shown (the viewer's own hand is ``hand``)."""
    laid_open: tuple[int, ...] = ()
    """The seats whose hands are laid open (the ``open`` action)."""
    mode: str = "normal"
    """The trick's mode (a term key): ``normal``, ``duel``, ``final``, ``after_burn``."""
    gouji_seat: int | None = None
    """The seat whose gouji (or burn) the trick answers, in a duel or a burning window."""
    trick: tuple[tuple[int, bool], ...] = ()
    """The current trick's turns in order: ``(seat, True)`` a play, ``(seat, False)`` a pass."""
    leader: int = 0
    """The seat that leads (led) the deal's first trick (上班)."""
    played: tuple[int, ...] = ()
    """How many cards of each rank (3 … 2, BJ, RJ) have been played this deal."""
    opened: tuple[int, ...] = ()
    """The seats that have opened (开点), when a modern rule tracks it."""
    xian_request: int | None = None
    """The seat that asked the seat on turn to let it go first (先让让), if any."""
    turn_order: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
    """The seats in their turn positions (changed only by ``team_reorder``)."""
    gave: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """The cards this seat gave another seat this deal (tribute given or returned):
    ``(receiver, cards)``."""


def build_view(core: ViewCore, d: GouJiDeal, opts: GouJiOptions, seat: int | None) -> GouJiView:
    """The view of ``seat``: ``core`` (the seat, who may act, the legal actions, the
    history, the result: ``GouJiState.observe`` made them) with what only Gou Ji knows
    (reads the state's parts, changes nothing)."""
    shown = shown_to(d, opts, seat)
    order = HAND_ORDER.__getitem__
    table = tuple(TablePlay(seat=s, cards=tuple(sorted(cards, key=order))) for s, cards in d.table)
    gouji_seat = d.gouji_seat if d.mode != "normal" or d.window else None
    window = d.window_kind if d.window else (d.phase if d.phase not in ("play", "over") else "")
    return GouJiView(
        **core, game="gouji", phase=GouJiPhase(d.phase),
        hand=hand_cards(d, seat) if seat is not None else None,
        counts=tuple([_visible_count(d, opts, seat, s) for s in range(SEATS)]),
        table=table, top=table[-1] if table and d.top is not None else None,
        passed=_seats_in(d.passed), out=tuple(d.out),
        status=_status(d, opts, seat, gouji_seat, window),
        opposite=None if seat is None else opposite(seat), window=window,
        shown=tuple(shown.get(s) for s in range(SEATS)),
        laid_open=_seats_in(d.laid_open),
        mode=d.mode, gouji_seat=gouji_seat,
        trick=tuple((s, p is not None) for s, p in d.trick), leader=d.leader,
        played=tuple(d.played_counts),
        opened=_seats_in(d.opened),
        xian_request=d.xian_req if d.xian_req >= 0 else None, turn_order=tuple(d.order),
        gave=_gave(d, seat))


def _seats_in(seats: int) -> tuple[int, ...]:
    """The seats of a mask of seats (bit *s*: seat *s*), in order."""
    return tuple(s for s in range(SEATS) if seats >> s & 1)


def _gave(d: GouJiDeal, seat: int | None) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """The cards ``seat`` gave another seat this deal (tribute given or returned)."""
    return tuple((f.receiver, f.cards) for f in d.tribute
                 if isinstance(f, TributeGiven | TributeReturned) and f.seat == seat
                 and f.cards is not None)


def _status(d: GouJiDeal, opts: GouJiOptions, seat: int | None, gouji_seat: int | None,
            window: str) -> tuple[Fact, ...]:
    """The standing facts a seat must know now (its ``status``), censored for it.

    While a gouji stands on the table (its burning window, the duel, the last answer) the
    status says whose gouji it is and who alone may answer it (:class:`GoujiCalled`), and in
    the window who is asked to burn first, when that is public (``ask_all_seats`` asks every
    seat beside the gouji player that holds cards, so the question tells nothing; without
    it only the entitled seats are asked, and the status keeps quiet). After a burn it
    names the burner (:class:`TrickMode` ``after_burn``: anyone may play on)."""
    out = [c for f in d.tribute if (c := f.censored(seat)) is not None]
    if gouji_seat is not None and (window == "burn" or d.mode in ("duel", "final")):
        out.append(GoujiCalled(seat=gouji_seat, opposite=opposite(gouji_seat)))
        if window == "burn" and (opts.ask_all_seats or opts.strict_penalty):
            out.append(BurnWindow(seats=tuple(d.window)))  # who is asked is public
    if d.mode != "normal" and gouji_seat is not None:
        burner = d.top_seat if d.mode == "after_burn" else gouji_seat
        out.append(TrickMode(mode=d.mode, seat=burner))
    if d.xian_req >= 0 and d.phase == "play":
        out.append(XianRequest(seat=d.xian_req, asked=d.turn))
    out += d.offences
    if d.owe and opts.modern_dian_gong:
        out.append(DianGongOwed(seats=tuple(d.owe)))
    return tuple(out)


def _visible_count(d: GouJiDeal, opts: GouJiOptions, viewer: int | None, s: int) -> int | None:
    """How many cards seat ``s`` holds, if ``viewer`` may know it (``public_counts``)."""
    n = d.left[s]
    mode = opts.public_counts
    if viewer == s or mode == "always" or (mode == "le10" and n <= 10) or n == 0 \
            or d.laid_open >> s & 1:
        return n
    return None


def shown_to(d: GouJiDeal, opts: GouJiOptions, viewer: int | None) -> dict[int, tuple[Card, ...]]:
    """The hands shown to ``viewer``: laid open, or a teammate's of 10 cards or fewer
    (``share_hand_le10``)."""
    share = opts.share_hand_le10
    shown: dict[int, tuple[Card, ...]] = {}
    for s in range(SEATS):
        if s == viewer or not d.left[s]:
            continue
        mate = viewer is not None and team(s) == team(viewer)
        if d.laid_open >> s & 1 or (mate and share and d.left[s] <= 10):
            shown[s] = hand_cards(d, s)
    return shown


def censor_history(history: tuple[ViewEvent, ...], seat: int | None) -> tuple[ViewEvent, ...]:
    """A tribute return's action text (``return 5 7``) names its cards: only the
    returning seat sees it; the others read ``return``."""
    out = list(history)
    for i, event in enumerate(out):
        if event.seat != seat and event.action.startswith("return "):
            out[i] = dataclasses.replace(event, action="return")
    return tuple(out)


def deal_from_view(view: GouJiView, *, hands: Sequence[Sequence[Card]], played: Sequence[Card],
                   events: Sequence[Event], modern_burning: bool,
                   strict_penalty: bool) -> GouJiDeal:
    """The play-phase deal of :meth:`GouJiState.from_view
    <folkdeck.games.gouji.state.GouJiState.from_view>`: the view's public facts, with
    ``hands``, ``played`` and ``events`` filled in by the caller."""
    assert view.current_seat is not None
    seat = view.current_seat
    deal = new_deal(hands, Setup(leader=seat, first_drawer=0, name_drawer=False),
                    leader=view.leader, claims=(), naming=False)
    deal.phase = "play"
    deal.played = list(played)
    deal.played_counts = list(view.played)
    deal.history = list(events)
    _read_status(deal, view.status)
    deal.opened = sum(1 << t for t in view.opened)
    deal.laid_open = sum(1 << t for t in view.laid_open)
    _read_trick(deal, view)
    deal.mode = view.mode
    deal.order = list(view.turn_order)
    deal.pos = [view.turn_order.index(t) for t in range(SEATS)]
    deal.gouji_seat = view.gouji_seat if view.gouji_seat is not None else -1
    deal.xian_req = view.xian_request if view.xian_request is not None else -1
    deal.xian_offer = view.to_act[1] if len(view.to_act) > 1 and not strict_penalty else -1
    deal.out = list(view.out)
    deal.turn = seat
    if modern_burning:  # a burner burns to the end until it is out
        deal.to_end = sum(1 << e.seat for e in events if isinstance(e.action, Burn) and deal.left[e.seat])
    return deal


def _read_status(deal: GouJiDeal, status: Sequence[object]) -> None:
    """The deal's standing facts from the view's status: tribute, offences, dian gong owed."""
    deal.tribute = [f for f in status if isinstance(
        f, TributeGiven | TributeReturned | TributeSkipped | Liberation)]
    deal.offences = [f for f in status if isinstance(f, Offence)]
    deal.fouls = [f.seat for f in deal.offences]
    owe = [f.seats for f in status if isinstance(f, DianGongOwed)]
    deal.owe = list(owe[0]) if owe else None


def _read_trick(deal: GouJiDeal, view: GouJiView) -> None:
    """The trick on the table: its top set and seat, the passes, the sets played to it."""
    top = view.top
    deal.top = play_from_counts(rank_counts(top.cards)) if top is not None else None
    deal.top_seat = top.seat if top is not None else -1
    deal.passed = sum(1 << t for t in view.passed)
    plays = iter(view.table)
    deal.trick = [(t, play_from_counts(rank_counts(next(plays).cards)) if shown else None)
                  for t, shown in view.trick]
    deal.table = [(p.seat, tuple(p.cards)) for p in view.table]


__all__ = ["GouJiPhase", "GouJiView", "build_view", "censor_history", "deal_from_view", "shown_to"]
