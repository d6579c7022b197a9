"""Cambio bots that count cards (docs/rules/cambio.md §3.6, §9: "カウンティング").

The counting bot works from its observation only: the open discards, the cards the
rules have shown (refusals), the cards it gave away and can follow, and its own
card. Every other card is *unseen*. It deals the unseen cards at random to the
players whose cards it does not know and to the stock, plays the rest of the deal
out both ways (keep, change; the others changing below 5, an OWL holder calling cucco
before either of the two seats to its left speaks) over many such samples, and takes
the choice that loses less often. :func:`p_lowest` is the one-step
estimate (its card the lowest against the unseen cards), used when nothing is
unseen. With the OWL it calls cucco before a request can reach it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING, Final

from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP, CambioAction
from folkdeck.games.cambio.observation import CambioView
from folkdeck.games.cambio.options import CambioOptions
from folkdeck.games.cambio.rules import (
    COPIES,
    KIND,
    PACK_40,
    STOCK,
    Answer,
    FoolRule,
    PackTable,
    answer,
    answers,
    may_call_cucco,
    received_disqualifies,
    showdown_losers,
    value,
)

if TYPE_CHECKING:
    from folkdeck.engine.protocol import Game

OWL_RISK: Final = 0.05
"""The owl holder calls cucco once a request may reach it with at least this chance."""
CHANGE_AT: Final = 4
"""In the counting bot's playouts, the other seats change a card of this value or lower."""
OWL_REACH: Final = 2
"""In its playouts, an OWL holder calls cucco before either of the two seats to its left
speaks (the seat's own rule: a request from there reaches the OWL unless a HORSE or
HOUSE sits between, and the "左2隣" question of docs/rules/cambio.md §9 is answered by calling)."""


def p_lowest(v: int, fixed: Sequence[int], m: int, unseen: Counter[int],
             values: Sequence[int] = PACK_40.values) -> float:
    """The chance that value ``v`` is the lowest (ties lose too) against the known
    values ``fixed`` and ``m`` others drawn from the ``unseen`` kinds, whose values
    are ``values`` (the pack's order, docs/rules/cambio.md §1).

    >>> p_lowest(0, [3], 0, Counter()), p_lowest(5, [3], 1, Counter({10: 2}))
    (1.0, 0.0)
    >>> round(p_lowest(0, [], 1, Counter({0: 1, 10: 1})), 2)   # FOOL (-4) or 6 against value 0
    0.5
    """
    if any(f < v for f in fixed):
        return 0.0
    if m <= 0:
        return 1.0 if fixed else 0.0
    total = sum(unseen.values())
    if total < m:
        return 0.0
    at_least = sum(c for k, c in unseen.items() if values[k] >= v)
    return comb(at_least, m) / comb(total, m)


def rollout(order: list[int], pos: int, cards: dict[int, int], origin: dict[int, int],
            stock: list[int], me: int, first: bool, pack: PackTable = PACK_40, *,
            threshold: int = CHANGE_AT, owl_reach: int = 0, fool_rule: FoolRule = "japanese",
            owl_refuses: bool = False) -> bool:
    """Play the rest of a deal from the turn at ``order[pos]`` (``me``, who changes if
    ``first``); the others change at value ``threshold`` or below (cards as kinds, valued
    by ``pack`` and the rules' :func:`~folkdeck.games.cambio.rules.value`), and an OWL
    holder calls cucco before the seat on turn speaks when at most ``owl_reach - 1``
    active seats sit between them (0: never). Requests and the showdown follow the
    rules module under the options ``fool_rule`` and ``owl_refuses``
    (``owl_refuses_when_asked``). True if ``me`` loses. ``cards``/``origin``/``stock``
    are consumed.

    >>> from folkdeck.games.cambio.rules import FOOL
    >>> rollout([0, 1], 0, {0: FOOL, 1: 9}, {0: 0, 1: 1}, [14], 0, True)   # the FOOL is passed on
    False
    >>> rollout([0, 1], 0, {0: FOOL, 1: 9}, {0: 0, 1: 1}, [14], 0, True, fool_rule="italian")
    True
    """
    out: set[int] = set()
    active = list(order)
    seat_answers = answers(to_stock=False, owl_refuses=owl_refuses)
    for i in range(pos, len(order)):
        q = order[i]
        if q in out:
            continue
        if owl_reach and i > pos and _owl_within(order, i, cards, out, owl_reach):
            break
        k = cards[q]
        change = first if q == me else value(k, origin[q], fool_rule, pack) <= threshold
        if not change:
            continue
        if _request(order, i + 1, q, k, cards, origin, stock, out, seat_answers, fool_rule):
            return _loses(active, out, cards, origin, me, pack, fool_rule)  # an OWL ended the deal
        if q == me and me in out:
            return True
    return _loses(active, out, cards, origin, me, pack, fool_rule)


def _request(order: list[int], j: int, q: int, k: int, cards: dict[int, int], origin: dict[int, int],
             stock: list[int], out: set[int], seat_answers: tuple[Answer, ...], fool_rule: FoolRule) -> bool:
    """Seat ``q`` (holding kind ``k``) asks to change, of the next active seat from
    ``order[j]`` on or of the stock, as in :func:`rollout` (``seat_answers``: the rules'
    answers of a seat's cards); True if an OWL ends the deal at once (the stock's, or a
    seat's refusing one)."""
    while True:
        while j < len(order) and order[j] in out:
            j += 1
        if j < len(order):
            t = order[j]
            kt = cards[t]
            ans = seat_answers[kt]
            if ans is _SKIP:
                j += 1
                continue
            if ans is _CUCCO:
                return True
            if ans is _SWAP:
                cards[q], cards[t] = kt, k
                origin[q], origin[t] = origin[t], origin[q]
                if received_disqualifies(kt, fool_rule):
                    out.add(q)
                if received_disqualifies(k, fool_rule):
                    out.add(t)
            else:
                _refused(ans, q, origin, out)
            return False
        if not stock:
            return False
        ks = stock.pop()
        ans = _STOCK_ANSWERS[ks]
        if ans is _CUCCO:
            return True
        if ans is _SKIP:
            continue
        if ans is _SWAP:
            cards[q] = ks
            origin[q] = STOCK
        else:
            _refused(ans, q, origin, out)
        return False


_SEAT_ANSWERS: Final = answers(to_stock=False, owl_refuses=False)
_STOCK_ANSWERS: Final = answers(to_stock=True, owl_refuses=False)
"""The rules' answers to a request (:func:`~folkdeck.games.cambio.rules.answer`): a
seat's under the default rules (whether a card passes a request on depends on no option),
and the stock's (no option changes them)."""
_SWAP: Final = Answer.SWAP  # constants: read faster than the enum's attributes
_SKIP: Final = Answer.SKIP
_CUCCO: Final = Answer.CUCCO
_MAN: Final = Answer.MAN


def _passes_on(k: int) -> bool:
    """Whether card ``k`` passes a request on to the next seat (HORSE, HOUSE: docs/rules/cambio.md §5.1)."""
    return _SEAT_ANSWERS[k] is _SKIP


def _refused(ans: Answer, q: int, origin: dict[int, int], out: set[int]) -> None:
    """A refusal of seat ``q``'s request: a MAN disqualifies ``q``, a CAT the seat first
    dealt ``q``'s card (docs/rules/cambio.md §5.1, §5.2)."""
    if ans is _MAN:
        out.add(q)
    elif origin[q] != STOCK:  # a CAT
        out.add(origin[q])


def _owl_within(order: list[int], i: int, cards: dict[int, int], out: set[int], reach: int) -> bool:
    """Does an OWL sit at most ``reach`` active seats to the right of ``order[i]``?"""
    seen = 0
    for t in order[i + 1:]:
        if t in out:
            continue
        if may_call_cucco(cards[t], True):  # t is active (not out)
            return True
        seen += 1
        if seen >= reach:
            return False
    return False


def _loses(order: list[int], out: set[int], cards: dict[int, int], origin: dict[int, int],
           me: int, pack: PackTable, fool_rule: FoolRule) -> bool:
    """Whether ``me`` loses the deal's end: out, or among the showdown's losers."""
    if me in out:
        return True
    left = [s for s in order if s not in out]
    if len(left) < 2:
        return False
    return me in showdown_losers([(s, cards[s], origin[s]) for s in left], fool_rule, pack)


def _seat(obs: CambioView) -> int:
    """The bot's own seat: a bot acts for a seat, never for a spectator."""
    seat = obs.seat
    assert seat is not None, "a bot acts for a seat"
    return seat


class CountingAgent:
    """Counts the open discards and seen cards; changes when that lowers its chance
    of losing (estimated by playing the deal out over samples of the unseen cards);
    calls cucco with the OWL before a request can reach it.

    It values cards and resolves requests by the rules module under the table's
    ``fool_rule`` and ``owl_refuses_when_asked``: :meth:`bind` tells it them (the default
    rules until then).
    """

    name = "counting"

    def __init__(self, samples: int = 100, *, threshold: int = CHANGE_AT,
                 owl_reach: int = OWL_REACH) -> None:
        self.samples = samples
        self.threshold = threshold
        self.owl_reach = owl_reach
        self.fool_rule: FoolRule = "japanese"
        self.owl_refuses = False

    def bind(self, game: Game) -> None:
        """Tell the bot the rules of the deals it plays (they are public)."""
        options = game.options
        if isinstance(options, CambioOptions):
            self.fool_rule = options.fool_rule
            self.owl_refuses = options.owl_refuses_when_asked

    def act(self, observation: CambioView, legal_actions: Sequence[CambioAction],
            rng: random.Random) -> CambioAction:
        if CHANGE not in legal_actions:
            return legal_actions[0]
        obs = observation
        if obs.card is None:
            return KEEP
        mine = KIND[obs.card]
        if may_call_cucco(mine, True):
            return KEEP  # safe once its own turn has passed; waiting costs nothing
        keep, change = self.estimate(obs, rng)
        return CHANGE if change < keep else KEEP

    def estimate(self, obs: CambioView, rng: random.Random) -> tuple[float, float]:
        """The chances of losing this deal if keeping and if changing.

        The unseen cards are dealt at random to the players whose cards are unknown and
        to the stock, ``samples`` times; each sample is played out both ways by
        :func:`rollout` (the same sample for both, so the comparison is paired). With
        no unseen card to deal, the one-step counting estimate is used.
        """
        card = obs.card
        assert card is not None, "estimated for a seat holding a card (act checks it)"
        mine = KIND[card]
        me = _seat(obs)
        fixed, unseen = self._seen(obs)
        order = self._order(obs)
        pos = order.index(me)
        pool = list(unseen.elements())
        unknown = [s for s in order if s != obs.seat and s not in fixed]
        if len(pool) < len(unknown) or not pool or self.samples <= 0:
            return self._p_keep(obs, mine), self._p_change(obs, mine)
        mine_origin = obs.card_origin if obs.card_origin is not None else STOCK
        pack = obs.pack_table
        lose_keep = lose_change = 0
        for _ in range(self.samples):
            rng.shuffle(pool)
            cards = dict(fixed)
            cards[me] = mine
            for i, s in enumerate(unknown):
                cards[s] = pool[i]
            origin = {s: s for s in order}
            origin[me] = mine_origin
            stock = pool[len(unknown):]
            lose_keep += rollout(order, pos, dict(cards), dict(origin), list(stock), me, False,
                                 pack, threshold=self.threshold, owl_reach=self.owl_reach,
                                 fool_rule=self.fool_rule, owl_refuses=self.owl_refuses)
            lose_change += rollout(order, pos, cards, origin, stock, me, True, pack,
                                   threshold=self.threshold, owl_reach=self.owl_reach,
                                   fool_rule=self.fool_rule, owl_refuses=self.owl_refuses)
        return lose_keep / self.samples, lose_change / self.samples

    def interrupt(self, observation: CambioView, legal_actions: Sequence[CambioAction],
                  rng: random.Random) -> CambioAction | None:
        if CUCCO not in legal_actions:
            return None
        return CUCCO if self._owl_risk(observation) >= OWL_RISK else None

    # --- counting ------------------------------------------------------------------
    @staticmethod
    def _order(obs: CambioView) -> list[int]:
        n = obs.num_players
        return [s % n for s in range(obs.dealer + 1, obs.dealer + n + 1) if s % n in obs.active]

    @classmethod
    def _target(cls, obs: CambioView, seat: int) -> int:
        order = cls._order(obs)
        i = order.index(seat)
        return order[i + 1] if i + 1 < len(order) else STOCK

    @staticmethod
    def _seen(obs: CambioView) -> tuple[dict[int, int], Counter[int]]:
        """Known kinds of other active seats, and the unseen kinds."""
        fixed: dict[int, int] = {}
        for s, c in (*obs.shown, *obs.known):
            if s in obs.active and s != obs.seat:
                fixed[s] = KIND[c]
        unseen = Counter(dict.fromkeys(obs.pack_table.kinds, COPIES))
        for c in obs.discards:
            unseen[KIND[c]] -= 1
        for k in fixed.values():
            unseen[k] -= 1
        if obs.card is not None:
            unseen[KIND[obs.card]] -= 1
        return fixed, +unseen

    def _p_keep(self, obs: CambioView, mine: int, drop: int = 0) -> float:
        fixed, unseen = self._seen(obs)
        others = [s for s in obs.active if s != obs.seat]
        m = sum(1 for s in others if s not in fixed) - drop
        values = obs.pack_table.values
        return p_lowest(self._value(obs, mine), [values[k] for k in fixed.values()], m, unseen,
                        values)

    def _value(self, obs: CambioView, k: int) -> int:
        """The showdown value of this seat's card ``k`` (a stock FOOL's by the ``fool_rule``)."""
        return value(k, STOCK if obs.card_from_stock else _seat(obs), self.fool_rule, obs.pack_table)

    def _p_change(self, obs: CambioView, mine: int) -> float:
        fixed, unseen = self._seen(obs)
        target = self._target(obs, _seat(obs))
        others = [s for s in obs.active if s != obs.seat]
        m = sum(1 for s in others if s not in fixed)
        keep = self._p_keep(obs, mine)
        if target != STOCK and target in fixed:
            dist = Counter({fixed[target]: 1})
            m_after = m
        else:
            dist = unseen
            m_after = m - (1 if target != STOCK else 0)
        total = sum(c for k, c in dist.items() if not _passes_on(k))
        if total == 0:
            return keep
        risk = 0.0
        values = obs.pack_table.values
        base = [values[k] for s, k in fixed.items() if s != target]
        for t, c in dist.items():
            if _passes_on(t):
                continue  # passed on: treated like the other outcomes
            w = c / total
            p = self._p_lose_on_power(obs, mine, t, target, keep)
            if p is None:
                rest = unseen.copy()
                if dist is unseen:
                    rest[t] -= 1
                given = [] if target == STOCK else [values[mine]]
                p = p_lowest(value(t, target, self.fool_rule, obs.pack_table), base + given, m_after,
                             +rest, values)
            risk += w * p
        return risk

    def _p_lose_on_power(self, obs: CambioView, mine: int, t: int, target: int,
                         keep: float) -> float | None:
        """The chance of losing when the request meets card ``t`` with a power (the rules'
        :func:`~folkdeck.games.cambio.rules.answer` to it: MAN, CAT, an OWL ending the deal;
        a FOOL that disqualifies its receiver; the OWL received); None for a card without
        one (its value decides)."""
        ans = answer(t, to_stock=target == STOCK, owl_refuses=self.owl_refuses)
        if ans is _MAN:
            return 1.0
        if ans is Answer.CAT:
            return 1.0 if obs.card_origin == obs.seat else self._p_keep(obs, mine, drop=1)
        if ans is _CUCCO:
            return keep  # the deal ends; this seat keeps its card
        if target != STOCK and received_disqualifies(t, self.fool_rule):
            return 1.0
        if may_call_cucco(t, True):
            return 0.0  # holding the OWL, it calls cucco before any request reaches it
        return None

    def _owl_risk(self, obs: CambioView) -> float:
        """The chance that the request about to be made reaches this OWL."""
        turn = obs.current_seat
        if turn is None or turn == obs.seat:
            return 0.0
        order = self._order(obs)
        me = _seat(obs)
        if order.index(turn) > order.index(me):
            return 0.0  # the seat on turn sits to our right: its request goes away from us
        fixed, unseen = self._seen(obs)
        total = sum(unseen.values()) or 1
        skip = sum(c for k, c in unseen.items() if _passes_on(k)) / total
        risk = 0.6  # the chance that the seat on turn asks to change
        for s in order[order.index(turn) + 1:order.index(me)]:
            k = fixed.get(s)
            risk *= (1.0 if _passes_on(k) else 0.0) if k is not None else skip
        return risk


__all__ = ["CountingAgent", "p_lowest"]
