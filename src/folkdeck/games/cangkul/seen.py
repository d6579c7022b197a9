"""What one seat of a Cangkul or Burro deal sees: :func:`view_of`, the body of
:meth:`CangkulState.observe <folkdeck.games.cangkul.state.CangkulState.observe>`."""

from __future__ import annotations

from folkdeck.cards import Card, Suit
from folkdeck.engine.facts import Fact
from folkdeck.engine.view import TablePlay, ViewCore
from folkdeck.games.cangkul.deal import JOKER_CLASS, SUITS, CangkulDeal
from folkdeck.games.cangkul.events import SUIT_TERMS, JokerLead, KnownCards, StallCount, Void
from folkdeck.games.cangkul.observation import CangkulPhase, CangkulView
from folkdeck.games.cangkul.rules import NO_SUIT, Deck, Ruleset, cards_of


def view_of(core: ViewCore, name: str, rules: Ruleset, deck: Deck, deal: CangkulDeal,
            seat: int | None) -> CangkulView:
    """The view of ``seat`` (``None``: a spectator) in game ``name`` (``cangkul``, a Burro):
    ``core`` (the seat, who may act, the legal actions, the history, the result) with what
    only Cangkul knows; never another seat's hidden cards."""
    over = deal.phase == "over"
    cards = deck.cards
    table = tuple(TablePlay(seat=s, cards=(cards[c],)) for s, c in deal.plays)  # type: ignore[arg-type]
    top = None
    if deal.plays:
        best = deal.win & 15
        top = next(t for t in reversed(table) if t.seat == best)
    known = tuple(cards_of(m, deck) for m in deal.known)
    voids = tuple(tuple(SUITS[u] for u in range(4) if v >> u & 1) for v in deal.void)
    return CangkulView(
        **core, game=name, phase=CangkulPhase.OVER if over else CangkulPhase.PLAY,
        hand=cards_of(deal.hands[seat], deck) if seat is not None else None,
        counts=tuple([h.bit_count() for h in deal.hands]),
        table=table, top=top, passed=tuple(deal.passers),
        out=tuple(deal.out) if rules.drop_out else (), stock=tuple([len(p) for p in deal.piles]),
        status=() if over else _status(rules, deal, seat, known, voids),
        direction=rules.direction, pack=rules.pack, ace_high=rules.ace_high,
        led_suit=SUITS[deal.suit] if deal.suit != NO_SUIT else None,
        trick_leader=deal.trick_leader,
        collected=tuple((s, cards_of(m, deck)) for s, m in deal.collected),
        known=known, voids=voids, joker_void=tuple(bool(v >> JOKER_CLASS & 1) for v in deal.void),
        dead=cards_of(deal.dead, deck), stall=max(deal.stall, 0),
        stall_limit=rules.stall_limit, stall_reset=deal.stall < 0)


def _status(rules: Ruleset, deal: CangkulDeal, seat: int | None, known: tuple[tuple[Card, ...], ...],
            voids: tuple[tuple[Suit, ...], ...]) -> tuple[Fact, ...]:
    """What a player must know of a deal in play besides the table: a joker lead, the
    cards each seat took publicly, the others' voids, the stalled tricks."""
    status: list[Fact] = []
    if deal.plays and deal.suit == NO_SUIT:
        status.append(JokerLead(seat=deal.plays[0][0]))
    for s in range(len(deal.hands)):
        if known[s]:
            status.append(KnownCards(seat=s, cards=known[s]))
        if s != seat:
            status.extend(Void(seat=s, suit=SUIT_TERMS[SUITS.index(u)]) for u in voids[s])
    if deal.stall > 0 and rules.stall_limit:
        status.append(StallCount(tricks=deal.stall, limit=rules.stall_limit))
    return tuple(status)
