"""Kap Hai bots that use the game's own knowledge; they read the typed view
(:class:`~folkdeck.games.kaphai.observation.KapHaiView`) only."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from folkdeck.cards import Card
from folkdeck.games.kaphai.actions import PUTUH, KapHaiAction, Pass
from folkdeck.games.kaphai.observation import KapHaiView
from folkdeck.games.kaphai.rules import FULL, RANK_MASKS, RULES, TWO, Combo, Kind, classify, is_bomb, mask
from folkdeck.games.kaphai.shapes import hand_combos


def _top_mask(view: KapHaiView) -> int:
    """The cards of the play to beat (0 on a lead)."""
    top = getattr(view, "top", None)
    return mask(top.cards) if top is not None else 0


def _all_twos(m: int) -> bool:
    return bool(m) and not m & ~RANK_MASKS[TWO]


class GreedyAgent:
    """Plays its lowest legal combination and keeps its bombs for 2s.

    Leading, it sheds the combination with the lowest top card (more cards first
    on a tie). Following, it plays the lowest non-bomb that beats the table, uses a
    kare, tong-farson or pae-kare only on a 2 (or when the bomb empties its hand),
    never throws 2-2-2, and always declares putuh.
    """

    name = "greedy"

    def act(self, observation: KapHaiView, legal_actions: Sequence[KapHaiAction],
            rng: random.Random) -> KapHaiAction:
        if PUTUH in legal_actions:
            return PUTUH
        plays = [a for a in legal_actions if isinstance(a, Combo) and not a.is_throwable]
        passes = [a for a in legal_actions if isinstance(a, Pass)]
        if not passes:
            return _greedy_lead(plays, legal_actions)
        return _greedy_follow(observation, plays, passes[0])


def _greedy_lead(plays: Sequence[Combo], legal_actions: Sequence[KapHaiAction]) -> KapHaiAction:
    """The non-bomb with the lowest top card, more cards first on a tie."""
    pool: list[KapHaiAction] = [c for c in plays if not is_bomb(c)] or list(plays) or list(legal_actions)
    return min(pool, key=lambda c: (c.key >> 2, -c.size, c.key) if isinstance(c, Combo) else (99,))


def _greedy_follow(observation: KapHaiView, plays: Sequence[Combo], pass_: KapHaiAction) -> KapHaiAction:
    """The lowest non-bomb that beats; a bomb only on 2s or to go out; else a pass."""
    hand_size = len(observation.hand) if observation.hand else 99
    normal = [c for c in plays if not is_bomb(c)]
    if normal:
        return min(normal, key=lambda c: c.key)
    top_is_two = _all_twos(_top_mask(observation))
    bombs = [c for c in plays if is_bomb(c)]
    if bombs and (top_is_two or any(c.size == hand_size for c in bombs)):
        return min(bombs, key=lambda c: (c.kind, c.key))
    return pass_


def plan(hand: int) -> list[Combo]:
    """A greedy partition of ``hand`` into plays, longest first (『カップハイ完全攻略!』 Ⅵ① sort the
    hand and keep its combinations, docs/rules/kaphai.md §7): fewer units means fewer tricks to win.

    >>> [str(c) for c in plan(mask("3S 4C 5D 9S 9H KD"))]
    ['3S 4C 5D', '9S 9H', 'KD']
    """
    units: list[Combo] = []
    rest = hand
    for c in sorted(hand_combos(hand, RULES), key=lambda c: (-c.size, c.key)):
        if c.mask & rest == c.mask and not (c.kind is Kind.STRAIGHT and c.key >> 2 == TWO):
            units.append(c)
            rest &= ~c.mask
            if not rest:
                break
    return units


def _rank(c: Combo) -> int:
    return c.key >> 2 if c.key >= 0 else -1


def boss(c: Combo, unseen: int) -> bool:
    """No ``unseen`` cards can form a higher play of ``c``'s shape (bombs aside): a single,
    pair or triple that wins its trick unless bombed (『カップハイ完全攻略!』 Ⅵ, counting the cards).

    >>> boss(classify(mask("KS KH")), mask("AS 2C 3D 3H"))
    True
    >>> boss(classify(mask("KS KH")), mask("AS AC 3D"))
    False
    """
    if c.kind not in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE):
        return False
    if c.kind is Kind.SINGLE:
        return c.key > (unseen.bit_length() - 1)
    need = c.size
    for r in range(_rank(c) + 1, 13):
        if (unseen >> (4 * r) & 0xF).bit_count() >= need:
            return False
    return True


class KapHaiReading:
    """The heuristic's reading of the cards as a learned bot's inputs
    (:class:`~folkdeck.engine.bots.CardReading`): after a play, the units of the hand's
    plan (:func:`plan`: the plays it needs to go out), how many of them are bosses
    (:func:`boss`: no unseen cards beat them) and how many are not; whether the play is a
    boss or a bomb; and whether the unseen cards hold a kare (a bomb the count of bosses
    does not see). The end of a deal turns on these (docs/bots.md, "The teacher's
    consistency"): with one unit left that is not a boss, a seat that leads its bosses
    first goes out. Counts are in thirteenths (a full hand), the rest are flags.

    >>> from folkdeck.cards.notation import parse_cards
    >>> reading = KapHaiReading()
    >>> numbers = reading.read(parse_cards("9S 9H KD 2S"), parse_cards("AS 3C 4D"), parse_cards("2S"))
    >>> {name: round(x * 13) if i < 4 else x for i, (name, x) in enumerate(zip(reading.names, numbers))}
    ... # doctest: +NORMALIZE_WHITESPACE
    {'units_after': 2, 'unit_cost': 0, 'bosses_after': 1, 'loose_after': 1, 'goes_out_safely': 1.0,
     'play_is_boss': 1.0, 'play_is_bomb': 0.0, 'unseen_kare': 0.0}
    """

    names: Final = ("units_after", "unit_cost", "bosses_after", "loose_after", "goes_out_safely",
                    "play_is_boss", "play_is_bomb", "unseen_kare")
    out_of_play: Final = ("played", "shed")
    MAX_PLANS: Final = 100_000
    """The plans kept by hand (a bound on the memory)."""

    def __init__(self) -> None:
        self._plans: dict[int, list[Combo]] = {}

    def read(self, hand: Sequence[Card], unseen: Sequence[Card], play: Sequence[Card]) -> tuple[float, ...]:
        held, hidden, played = mask(tuple(hand)), mask(tuple(unseen)), mask(tuple(play))
        combo = classify(played) if played else None
        after = self._plan(held & ~played)
        bosses = sum(boss(u, hidden) for u in after)
        loose = len(after) - bosses
        cost = len(after) - len(self._plan(held)) + (1 if played else 0)
        kare = any((hidden & m).bit_count() == 4 for m in RANK_MASKS)
        return (len(after) / 13, cost / 13, bosses / 13, loose / 13, float(loose <= 1),
                float(combo is not None and boss(combo, hidden)), float(combo is not None and is_bomb(combo)),
                float(kare))

    def _plan(self, hand: int) -> list[Combo]:
        got = self._plans.get(hand)
        if got is None:
            if len(self._plans) >= self.MAX_PLANS:
                self._plans.clear()
            got = self._plans[hand] = plan(hand)
        return got


class HeuristicAgent:
    """The advice of 『カップハイ完全攻略!』 Ⅵ (docs/rules/kaphai.md §7) as a bot; it reads only the
    observation.

    - It sorts its hand into combinations (:func:`plan`) and prefers plays that keep them:
      the fewer units left, the fewer tricks it must win.
    - It counts the cards: every play in the public history is gone, so it knows when its
      top single or set cannot be beaten (a "boss") and plays bosses before its last unit.
    - It watches the others' hand sizes: against a seat about to go out it leads sets
      rather than low singles, and breaks a combination to stop that seat.
    - It breaks a run or a set only when the break costs no extra unit or a seat is close
      to going out (Ⅵ⑤).
    - It keeps its weakest lone card for last while it has other things to lead (Ⅵ⑥).
    - It holds its bombs (kare, tong-farson, pae-kare) for 2s, or to go out.
    """

    name = "heuristic"

    def act(self, observation: KapHaiView, legal_actions: Sequence[KapHaiAction],
            rng: random.Random) -> KapHaiAction:
        if PUTUH in legal_actions:
            return PUTUH
        plays = [a for a in legal_actions if isinstance(a, Combo)]
        passes = [a for a in legal_actions if isinstance(a, Pass)]
        if not plays:
            return passes[0] if passes else legal_actions[0]
        hand = mask(observation.hand or ())
        seat = observation.seat
        # Kap Hai's counts are public: every one is a number.
        others = [c for s, c in enumerate(observation.counts) if s != seat and c]
        danger = min(others) if others else 99
        units = plan(hand)
        unseen = FULL & ~hand & ~self._gone(observation)
        if not passes:
            return self._lead(plays, units, unseen, danger, hand)
        return self._follow(observation, plays, passes[0], units, danger, hand)

    @staticmethod
    def _gone(observation: KapHaiView) -> int:
        """Every card out of the hands: played (thrown 2s too) or put out in a 3-game."""
        return mask(observation.played) | mask(observation.shed)

    def _lead(self, plays: list[Combo], units: list[Combo], unseen: int, danger: int,
              hand: int) -> Combo:
        legal = set(plays)
        if len(units) == 1 and units[0] in legal:
            return units[0]
        leadable = [u for u in units if u in legal and not is_bomb(u)] or [u for u in units if u in legal]
        if not leadable:
            pool = [c for c in plays if not is_bomb(c)] or plays
            return min(pool, key=lambda c: (_rank(c), -c.size, c.key))
        bosses = [u for u in leadable if boss(u, unseen)]
        if len(units) == 2 and bosses:
            return bosses[0]  # a sure trick, then the last unit goes out
        if danger <= 2:
            return _blocking_lead(leadable, danger)
        return _lowest_unit_lead(leadable)

    def _follow(self, observation: KapHaiView, plays: list[Combo], pass_: KapHaiAction,
                units: list[Combo], danger: int, hand: int) -> KapHaiAction:
        n_units = len(units)
        hand_size = hand.bit_count()
        top = _top_mask(observation)
        top_is_two = _all_twos(top)
        best: tuple[tuple[int, int, int], Combo] | None = None
        for c in plays:
            if c.is_throwable:
                continue
            if is_bomb(c) and not (top_is_two or c.size == hand_size or danger <= 1):
                continue
            extra = _extra_units(c, hand, n_units, danger)
            if extra is None or _wastes_a_two(c, top, n_units, danger):
                continue
            score = (extra, _rank(c), c.key)
            if best is None or score < best[0]:
                best = (score, c)
        return best[1] if best is not None else pass_


def _blocking_lead(leadable: Sequence[Combo], danger: int) -> Combo:
    """A seat holds ``danger`` cards or fewer: lead what it cannot answer (a set bigger than
    its hand, the lowest), else the biggest unit."""
    sets = [u for u in leadable if u.size > danger]
    if sets:
        return min(sets, key=lambda u: (_rank(u), -u.size))
    return max(leadable, key=lambda u: (u.size, u.key))


def _lowest_unit_lead(leadable: Sequence[Combo]) -> Combo:
    """The lowest unit, but a low lone single is kept for the end while three or more units can lead."""
    ordered = sorted(leadable, key=lambda u: (_rank(u), -u.size, u.key))
    if len(ordered) >= 3 and ordered[0].kind is Kind.SINGLE and _rank(ordered[0]) <= 4:
        return ordered[1]  # docs/rules/kaphai.md §7 (Ⅵ⑥): keep the useless low card for the end
    return ordered[0]


def _extra_units(c: Combo, hand: int, n_units: int, danger: int) -> int | None:
    """How many units playing ``c`` adds to the plan (0: ``c`` is one of its units), or None
    when the break costs too much: more than one unit, or one for other than a single of
    rank 9 or lower, unless a seat holds 3 cards or fewer."""
    after = len(plan(hand & ~c.mask))
    extra = after - (n_units - 1)
    if extra > 0 and not (danger <= 3 or extra == 1 and c.size == 1 and _rank(c) <= 9):
        return None
    return extra


def _wastes_a_two(c: Combo, top: int, n_units: int, danger: int) -> bool:
    """A single 2 on a low single, with no seat close to going out and units to spare."""
    return (c.kind is Kind.SINGLE and _rank(c) == TWO and danger > 3 and n_units > 3
            and bool(top) and _rank(classify_top(top)) < 8)


def classify_top(top: int) -> Combo:
    """The combination on the table, from its cards' mask."""
    combo = classify(top)
    assert combo is not None, top
    return combo


__all__ = ["GreedyAgent", "HeuristicAgent", "KapHaiReading", "boss", "plan"]

