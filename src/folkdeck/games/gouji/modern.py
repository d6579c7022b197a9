"""Gou Ji rules beyond the core flow of docs/rules/gouji.md §1-§8: :class:`ModernRules`,
a part of the rules chosen by the options, which :class:`~.play.GouJiFlow` and the state call.

- ``modern_burning`` (docs/rules/gouji.md §9.2): burning only after kai dian (开点), and "to the end".
- ``modern_kai_dian`` and ``modern_bie_san`` (docs/rules/gouji.md §9.1): 4s and 3s held back.
- ``modern_dian_gong`` (点贡, docs/rules/gouji.md §9.3): who owes the next deal a card.
- ``strict_penalty`` (docs/rules/gouji.md §10): false claims as offences (``foul …``).
- The Da La naming the first drawer of a normal deal (docs/rules/gouji.md §2.3: 指名), the ``draw N`` window.

The readings chosen, and the alternatives, are in ``docs/rules/gouji.md``. The rules hold
only the options: every method reads or changes the :class:`~.deal.GouJiDeal` it is given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

from folkdeck.games.gouji.actions import Draw, Foul
from folkdeck.games.gouji.deal import fill_hands
from folkdeck.games.gouji.dealing import SEATS, opposite
from folkdeck.games.gouji.events import PLACE_TITLES, Offence
from folkdeck.games.gouji.moves import burn_plays, lead_plays
from folkdeck.games.gouji.rules import NRANKS, Play, bie_san_allows, kai_dian_allows

if TYPE_CHECKING:
    from folkdeck.engine.facts import Fact
    from folkdeck.games.gouji.deal import GouJiDeal
    from folkdeck.games.gouji.options import GouJiOptions

FOUL_BURN: Final = Foul("burn")
FOUL_REVOLUTION: Final = Foul("revolution")
FOUL_XIAN: Final = Foul("xian")
_SEATING: Final = list(range(SEATS))


@final
class ModernRules:
    """The optional mechanics the options switch on (see the module docstring)."""

    __slots__ = ("opts", "tracks_opening", "holds_back")

    def __init__(self, options: GouJiOptions) -> None:
        self.opts = options
        self.tracks_opening = options.modern_kai_dian or options.modern_burning \
            or options.modern_dian_gong
        """Whether any rule needs to know who has opened (开点)."""
        self.holds_back = options.modern_bie_san or options.modern_kai_dian
        """Whether 憋三 or 开点 bars some sets (:meth:`why_barred`)."""

    # --- 憋三 and 开点 ------------------------------------------------------------------
    def why_barred(self, d: GouJiDeal, s: int, p: Play) -> str | None:
        """Why a modern restriction bars ``p`` (``None``: it does not).

        憋三 (``modern_bie_san``): 3s only as the whole last play, without jokers
        (:func:`~folkdeck.games.gouji.rules.bie_san_allows`). 开点 (``modern_kai_dian``): no 4s
        before opening, unless the hand holds only 4s (:func:`~.rules.kai_dian_allows`).
        """
        if self.opts.modern_bie_san and not bie_san_allows(p, d.left[s]):
            return "gouji.bie_san"
        if self.opts.modern_kai_dian and not kai_dian_allows(p, d.counts[s], bool(d.opened >> s & 1)):
            return "gouji.fours_before_opening"
        return None

    def refusal(self, d: GouJiDeal, s: int, p: Play, top: Play | None) -> str | None:
        """The reason a held-back set is refused now: barred, and not a leader barred
        from every set (who may then lead any)."""
        why = self.why_barred(d, s, p)
        if why is not None and (top is not None or any(
                self.why_barred(d, s, q) is None for q in lead_plays(d.counts[s]))):
            return why
        return None

    def kept_plays(self, d: GouJiDeal, s: int, plays: list[Play], top: Play | None) -> list[Play]:
        """``plays`` less those held back; a leader barred from every set may lead any."""
        if not self.holds_back:
            return plays
        kept = [p for p in plays if self.why_barred(d, s, p) is None]
        return kept if kept or top is not None else plays

    # --- burning ---------------------------------------------------------------------
    def burns(self, d: GouJiDeal, t: int, top: Play) -> list[Play]:
        """The sets seat ``t`` may burn ``top`` with; ``modern_burning``: only once opened
        (开点), and only with one set left, so that it can burn to the end."""
        rule = self.opts.bj_wild_rule
        if self.opts.modern_burning:
            if not d.opened >> t & 1:
                return []
            return burn_plays(d.counts[t], top, rule, joker_form=False)
        return burn_plays(d.counts[t], top, rule)

    def burn_window(self, d: GouJiDeal, x: int, p: Play) -> list[int]:
        """X+1 then X+5, when they may burn. With ``strict_penalty``: whenever they hold
        cards, since a seat without the right may still claim it, as an offence. With
        ``ask_all_seats``: whenever the public facts allow them the right (they hold
        cards; with ``modern_burning``, they have opened), so that the window tells
        nothing of their hands."""
        seats = [t for t in ((x + 1) % SEATS, (x + 5) % SEATS) if d.left[t]]
        if self.opts.strict_penalty:
            return seats
        if self.opts.ask_all_seats:
            if self.opts.modern_burning:
                return [t for t in seats if d.opened >> t & 1]
            return seats
        return [t for t in seats if self.burns(d, t, p)]

    # --- strict_penalty ------------------------------------------------------------------
    def xian_foul_seat(self, d: GouJiDeal) -> int:
        """The seat that may make a false 先让让 claim now, or -1: the teammate two seats
        before the seat on turn, in normal play, when it has played in this trick and has
        not passed, but the true 先让让 situation does not hold."""
        if not self.opts.strict_penalty or d.top is None or d.mode != "normal" \
                or d.window or d.xian_offer >= 0 or d.order != _SEATING:
            return -1
        i = (d.turn + 2) % SEATS
        if not d.left[i] or d.passed >> i & 1 or all(t != i or p is None for t, p in d.trick):
            return -1
        return i

    def foul(self, d: GouJiDeal, s: int, claim: str, notes: list[Fact]) -> None:
        """The offender becomes Da La: the hand is laid face up with the played cards and
        leaves the deal; the others play on (the caller sees whether the deal ends)."""
        piles, hand, counts = d.piles[s], d.counts[s], d.played_counts
        for r in range(NRANKS):
            if hand[r]:
                counts[r] += hand[r]
                d.played += piles[r]
                piles[r].clear()
                hand[r] = 0
        d.left[s] = 0
        d.fouls.append(s)
        d.to_end &= ~(1 << s)
        place = SEATS + 1 - len(d.fouls)
        d.offences.append(Offence(seat=s, claim=claim, place=place, title=PLACE_TITLES[place - 1]))
        notes.append(d.offences[-1])

    # --- 点贡 ---------------------------------------------------------------------------
    def note_tou_ke(self, d: GouJiDeal, first: int) -> None:
        """Tou Ke has gone out: remember who had not opened (``modern_dian_gong``)."""
        if self.opts.modern_dian_gong and d.owe is None:
            d.owe = [t for t in range(SEATS) if t != first and not d.opened >> t & 1]

    def dian_gong_pairs(self, d: GouJiDeal) -> list[tuple[int, int, int]]:
        """``(payer, receiver, 1)`` of the 点贡 owed from the previous deal."""
        places = d.setup.places
        if not self.opts.modern_dian_gong or places is None:
            return []
        tou_ke = places.index(1)
        to_tou_ke = self.opts.dian_gong_to == "tou_ke"
        return [(g, tou_ke if to_tou_ke else opposite(g), 1) for g in d.setup.dian_gong
                if g != tou_ke or not to_tou_ke]

    # --- naming the first drawer -------------------------------------------------------
    @staticmethod
    def drawer_choices(d: GouJiDeal) -> tuple[Draw, ...]:
        da_la = d.queue[0]
        return tuple(Draw((da_la + k) % SEATS) for k in range(SEATS))

    @staticmethod
    def deal_named(d: GouJiDeal, action: Draw) -> None:
        """Deal the pending hands as drawn from the named seat (a rotation of the hands
        drawn from the Da La); the caller then opens the revolution window."""
        pending = d.pending
        assert pending is not None
        da_la = d.queue.pop(0)
        drawer = action.seat
        fill_hands(d, [pending[(s - drawer + da_la) % SEATS] for s in range(SEATS)])
        d.pending = None
        d.out = [s for s in range(SEATS) if not d.left[s]]
        d.turn = d.leader


__all__ = ["FOUL_BURN", "FOUL_REVOLUTION", "FOUL_XIAN", "ModernRules"]
