"""What a Gou Ji seat may do now, and why not: the legal lists and the refusals.

Functions of the :class:`~folkdeck.games.gouji.play.GouJiFlow` (the rules chosen by the
options) and the :class:`~folkdeck.games.gouji.deal.GouJiDeal`; they change nothing.
:meth:`GouJiState.legal_actions <folkdeck.games.gouji.state.GouJiState.legal_actions>` and
:meth:`~folkdeck.games.gouji.state.GouJiState.verify` call them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement, permutations
from typing import TYPE_CHECKING

from folkdeck.cards import Card
from folkdeck.engine.errors import IllegalActionError, WrongPhaseError
from folkdeck.games.gouji.actions import NO, OPEN, PASS, XIAN, Burn, GouJiAction, Order, Return
from folkdeck.games.gouji.modern import FOUL_BURN, FOUL_REVOLUTION, FOUL_XIAN
from folkdeck.games.gouji.moves import follow_plays, lead_plays
from folkdeck.games.gouji.prelude import WINDOW_WORDS, may_revolt
from folkdeck.games.gouji.rules import (
    BJ,
    NRANKS,
    RANK_OF,
    RANK_WORDS,
    RJ,
    TWO,
    Play,
    beats,
    holds,
    refusal,
)

if TYPE_CHECKING:
    from folkdeck.games.gouji.deal import GouJiDeal
    from folkdeck.games.gouji.play import GouJiFlow


def play_actions(flow: GouJiFlow, d: GouJiDeal, s: int) -> tuple[GouJiAction, ...]:
    """The turn's sets by represented rank, then by naturals and wilds ascending; then
    ``pass`` (when following) and ``open``."""
    out: list[GouJiAction]
    top = d.top
    opts = flow.opts
    if top is None:
        out = lead_plays(d.counts[s])  # type: ignore[assignment]  # a fresh list
    else:
        out = follow_plays(d.counts[s], top, opts.bj_wild_rule)  # type: ignore[assignment]
    modern = flow.modern
    if not (modern.holds_back or d.to_end >> s & 1):
        # The usual case, made without copying the list again.
        if top is not None:
            out.append(PASS)
        if opts.allow_open_hand and d.left[s] <= 10 and not d.laid_open >> s & 1:
            out.append(OPEN)
        return tuple(out)
    plays = [p for p in out if isinstance(p, Play)]
    plays = modern.kept_plays(d, s, plays, top)
    may_pass = top is not None
    if d.to_end >> s & 1:  # modern_burning: burn to the end
        whole = [p for p in plays if p.size == d.left[s]]
        if top is None and whole:
            plays = whole
        may_pass = may_pass and not plays
    out = list(plays)
    if may_pass:
        out.append(PASS)
    if can_open(flow, d, s):
        out.append(OPEN)
    return tuple(out)


def window_actions(flow: GouJiFlow, d: GouJiDeal, s: int, acting: tuple[int, ...]) -> tuple[GouJiAction, ...]:
    """The answers of seat ``s`` (in ``acting``) in the open window, or out of turn: the
    action then the decline; burning: ``burn`` sets then ``no``; tribute: ``return``
    choices ascending."""
    phase = d.phase
    strict = flow.opts.strict_penalty
    if phase == "revolution" and not may_revolt(d, s):
        return (FOUL_REVOLUTION, NO) if strict else (NO,)
    if phase == "start" and s not in d.claims:
        return (NO,)  # ask_all_seats: asked without the right, it may only decline
    if phase in WINDOW_WORDS:
        return WINDOW_WORDS[phase]
    if phase == "tribute":
        return returns(d, s)
    if phase == "drawer":
        return flow.modern.drawer_choices(d)
    if d.window_kind == "reorder":
        current = flow.reorder_members(d, s)
        return (*(Order(p) for p in permutations(current) if p != current), NO)
    if d.window:
        top = d.top
        assert top is not None
        plays = flow.modern.burns(d, s, top)
        if not plays and strict:
            return (FOUL_BURN, NO)
        return (*(Burn(p) for p in plays), NO)
    if s != acting[0]:
        return (XIAN,) if s == d.xian_offer else (FOUL_XIAN,)
    return play_actions(flow, d, s)


def returns(d: GouJiDeal, s: int) -> tuple[Return, ...]:
    """The tribute receiver's choices of cards to give back, ascending."""
    n = d.pairs[0][2]
    hand = d.counts[s]
    held = [r for r in range(NRANKS) if hand[r]]
    out = []
    for combo in combinations_with_replacement(held, n):
        if all(hand[r] >= combo.count(r) for r in set(combo)):
            out.append(Return(combo))
    return tuple(out)


def can_open(flow: GouJiFlow, d: GouJiDeal, s: int) -> bool:
    return flow.opts.allow_open_hand and d.left[s] <= 10 and not d.laid_open >> s & 1


def verify_turn(flow: GouJiFlow, d: GouJiDeal, s: int, action: GouJiAction) -> None:
    """Refuse what seat ``s`` may not do on its turn in play (``open``, ``pass``, a set)."""
    if action == OPEN:
        if not can_open(flow, d, s):
            reason = ("gouji.open_off" if not flow.opts.allow_open_hand else
                      "gouji.already_open" if d.laid_open >> s & 1 else "gouji.open_needs_ten")
            raise IllegalActionError(reason, seat=s, action="open", count=d.left[s])
        return
    top = d.top
    if action == PASS:
        if top is None:
            raise IllegalActionError("gouji.leader_may_not_pass", seat=s, action="pass")
        if d.to_end >> s & 1 and PASS not in play_actions(flow, d, s):
            raise IllegalActionError("gouji.burn_to_the_end_pass", seat=s, action="pass")
        return
    if not isinstance(action, Play):
        raise WrongPhaseError("gouji.play_or_pass", seat=s, action=str(action), phase=d.phase)
    verify_play(flow, d, s, action, top)


def verify_play(flow: GouJiFlow, d: GouJiDeal, s: int, p: Play, top: Play | None) -> None:
    """Refuse the set ``p`` of seat ``s`` on its turn, if it may not play it."""
    hand = d.counts[s]
    if not holds(hand, p):
        raise IllegalActionError("gouji.not_held", seat=s, action=str(p), cards=_short(hand, p))
    if p.cards is not None:
        check_named(d, s, p.cards, str(p))
    modern = flow.modern
    if modern.holds_back:
        why = modern.refusal(d, s, p, top)
        if why is not None:
            raise IllegalActionError(why, seat=s, action=str(p))
    if d.to_end >> s & 1 and top is None and p.size != d.left[s] \
            and p not in play_actions(flow, d, s):
        raise IllegalActionError("gouji.burn_to_the_end_lead", seat=s, action=str(p))
    rule = flow.opts.bj_wild_rule
    if top is not None and not beats(p, top, rule):
        reason, params = refusal(p, top, rule)
        raise IllegalActionError(reason, seat=s, action=str(p), **params)


def _short(hand: Sequence[int], p: Play) -> str:
    """The ranks of ``p`` the hand lacks, in the set notation (``9 2``)."""
    parts = ((p.rank, p.natural), (TWO, p.w2), (BJ, p.wbj), (RJ, p.wrj))
    return " ".join(RANK_WORDS[r] for r, n in parts for _ in range(n - hand[r]))


def window_reason(flow: GouJiFlow, d: GouJiDeal, s: int, action: GouJiAction,
                  legal: tuple[GouJiAction, ...]) -> tuple[str, dict[str, object]]:
    """Why ``action`` is no answer in the open window (``legal`` its answers): a reason
    key and parameters."""
    phase = d.phase
    if phase == "drawer":
        return "gouji.name_the_drawer", {}
    if phase in WINDOW_WORDS:
        return "gouji.window_answer", {"answers": [str(w) for w in legal], "window": phase}
    if phase == "tribute":
        return "gouji.return_cards", {"count": d.pairs[0][2]}
    if d.window_kind == "reorder":
        return "gouji.reorder_or_no", {"seats": list(flow.reorder_members(d, s))}
    if d.window:
        top = str(d.top)
        if isinstance(action, Burn) and flow.opts.modern_burning:
            return "gouji.modern_burn_refused", {"set": str(action.play), "top": top}
        if isinstance(action, Burn):
            return "gouji.burn_refused", {"set": str(action.play), "top": top}
        return "gouji.burn_or_no", {"top": top}
    return "gouji.out_of_turn_only", {"allowed": str(legal[0])}


def check_named(d: GouJiDeal, s: int, named: tuple[Card, ...], action: str) -> None:
    """Refuse named cards that the hand of ``s`` does not hold (``gouji.cards_not_held``)."""
    missing: list[Card] = []
    for card in dict.fromkeys(named):
        short = named.count(card) - d.piles[s][RANK_OF[card]].count(card)
        missing += [card] * max(0, short)
    if missing:
        raise IllegalActionError("gouji.cards_not_held", seat=s, action=action,
                                 cards=" ".join(map(str, missing)))


__all__ = ["can_open", "check_named", "play_actions", "returns", "verify_play", "verify_turn",
           "window_actions", "window_reason"]
