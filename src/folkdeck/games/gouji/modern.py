"""Gou Ji rules beyond the core flow of docs/rules/gouji.md §1-§8, mixed into the state through :class:`~flow.PlayFlow`.

- ``modern_burning`` (docs/rules/gouji.md §9.2): burning only after kai dian (开点), and "to the end".
- ``modern_dian_gong`` (点贡, docs/rules/gouji.md §9.3): who owes the next deal a card.
- ``strict_penalty`` (docs/rules/gouji.md §10): false claims as offences (``foul …``).
- The Da La naming the first drawer of a normal deal (docs/rules/gouji.md §2.3: 指名), the ``draw N`` window.

The readings chosen, and the alternatives, are in ``docs/rules/gouji.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from folkdeck.cards import Card
from folkdeck.engine.state_base import StateBase
from folkdeck.games.gouji.actions import Draw, Foul
from folkdeck.games.gouji.deal import SEATS, opposite
from folkdeck.games.gouji.events import PLACE_TITLES, Offence
from folkdeck.games.gouji.rules import NRANKS, RANK_OF, Play, burn_plays

if TYPE_CHECKING:
    from folkdeck.engine.facts import Fact
    from folkdeck.engine.protocol import Result
    from folkdeck.games.gouji.deal import Setup
    from folkdeck.games.gouji.options import GouJiOptions

FOUL_BURN: Final = Foul("burn")
FOUL_REVOLUTION: Final = Foul("revolution")
FOUL_XIAN: Final = Foul("xian")


class ModernRules(StateBase[Any, Any]):
    """Optional mechanics; the state owns every container used here."""

    _opts: GouJiOptions
    _setup: Setup
    _hands: list[list[int]]
    _cards: list[list[list[Card]]]
    _left: list[int]
    _played: list[Card]
    _played_counts: list[int]
    _opened: int
    _phase: str
    _queue: list[int]
    _result: Result | None
    _out: list[int]
    _turn: int
    _top: Play | None
    _mode: str
    _window: list[int]
    _passed: int
    _xian_offer: int
    _order: list[int]
    _trick: list[tuple[int, Play | None]]
    _fouls: list[int]
    """``strict_penalty``: offenders, in the order of their offences (first: Da La)."""
    _offences: list[Offence]
    """The offences' facts, for the views' ``status``."""
    _to_end: int
    """``modern_burning``: seats (bits) that burned and must now burn to the end."""
    _owe: list[int] | None
    """``modern_dian_gong``: the seats not opened when Tou Ke went out."""
    _pending: list[list[Card]] | None
    """A normal deal's hands as drawn from the Da La, until it names the drawer."""

    def _check_end(self, notes: list[Fact]) -> bool:
        raise NotImplementedError  # in flow.PlayFlow

    def _to_opposite(self, x: int, notes: list[Fact]) -> None:
        raise NotImplementedError  # in flow.PlayFlow

    def _init_play(self) -> None:
        raise NotImplementedError  # in flow.PlayFlow

    def _begin_revolution(self, notes: list[Fact]) -> None:
        raise NotImplementedError  # in state.GouJiState

    @property
    def _tracks_opening(self) -> bool:
        o = self._opts
        return o.modern_kai_dian or o.modern_burning or o.modern_dian_gong

    # --- burning ---------------------------------------------------------------------
    def _burns(self, t: int, top: Play) -> list[Play]:
        """The sets seat ``t`` may burn ``top`` with; ``modern_burning``: only once opened
        (开点), and only with one set left, so that it can burn to the end."""
        rule = self._opts.bj_wild_rule
        if self._opts.modern_burning:
            if not self._opened >> t & 1:
                return []
            return burn_plays(self._hands[t], top, rule, joker_form=False)
        return burn_plays(self._hands[t], top, rule)

    def _burn_window(self, x: int, p: Play) -> list[int]:
        """X+1 then X+5, when they may burn. With ``strict_penalty``: whenever they hold
        cards, since a seat without the right may still claim it, as an offence. With
        ``ask_all_seats``: whenever the public facts allow them the right (they hold
        cards; with ``modern_burning``, they have opened), so that the window tells
        nothing of their hands."""
        seats = [t for t in ((x + 1) % SEATS, (x + 5) % SEATS) if self._left[t]]
        if self._opts.strict_penalty:
            return seats
        if self._opts.ask_all_seats:
            if self._opts.modern_burning:
                return [t for t in seats if self._opened >> t & 1]
            return seats
        return [t for t in seats if self._burns(t, p)]

    # --- strict_penalty ------------------------------------------------------------------
    def _xian_foul_seat(self) -> int:
        """The seat that may make a false 先让让 claim now, or -1: the teammate two seats
        before the seat on turn, in normal play, when it has played in this trick and has
        not passed, but the true 先让让 situation does not hold."""
        if not self._opts.strict_penalty or self._top is None or self._mode != "normal" \
                or self._window or self._xian_offer >= 0 or self._order != list(range(SEATS)):
            return -1
        i = (self._turn + 2) % SEATS
        if not self._left[i] or self._passed >> i & 1 or all(
                t != i or p is None for t, p in self._trick):
            return -1
        return i

    def _foul(self, s: int, claim: str, notes: list[Fact]) -> bool:
        """The offender becomes Da La: the hand is laid face up with the played cards and
        leaves the deal; the others play on. True if that ends the deal."""
        piles, hand, counts = self._cards[s], self._hands[s], self._played_counts
        for r in range(NRANKS):
            if hand[r]:
                counts[r] += hand[r]
                self._played += piles[r]
                piles[r].clear()
                hand[r] = 0
        self._left[s] = 0
        self._fouls.append(s)
        self._to_end &= ~(1 << s)
        place = SEATS + 1 - len(self._fouls)
        self._offences.append(Offence(seat=s, claim=claim, place=place, title=PLACE_TITLES[place - 1]))
        notes.append(self._offences[-1])
        return self._check_end(notes)

    # --- 点贡 ---------------------------------------------------------------------------
    def _note_tou_ke(self, first: int) -> None:
        """Tou Ke has gone out: remember who had not opened (``modern_dian_gong``)."""
        if self._opts.modern_dian_gong and self._owe is None:
            self._owe = [t for t in range(SEATS) if t != first and not self._opened >> t & 1]

    def _dian_gong_pairs(self) -> list[tuple[int, int, int]]:
        """``(payer, receiver, 1)`` of the 点贡 owed from the previous deal."""
        places = self._setup.places
        if not self._opts.modern_dian_gong or places is None:
            return []
        tou_ke = places.index(1)
        to_tou_ke = self._opts.dian_gong_to == "tou_ke"
        return [(g, tou_ke if to_tou_ke else opposite(g), 1) for g in self._setup.dian_gong
                if g != tou_ke or not to_tou_ke]

    # --- naming the first drawer -------------------------------------------------------
    def _drawer_choices(self) -> tuple[Draw, ...]:
        da_la = self._queue[0]
        return tuple(Draw((da_la + k) % SEATS) for k in range(SEATS))

    def _name_drawer(self, action: Draw, notes: list[Fact]) -> None:
        """Deal the pending hands as drawn from the named seat (a rotation of the hands
        drawn from the Da La), then go on to the revolution window."""
        assert self._pending is not None
        da_la = self._queue.pop(0)
        d = action.seat
        for s in range(SEATS):
            hand = self._pending[(s - d + da_la) % SEATS]
            piles, counts = self._cards[s], self._hands[s]
            for c in hand:
                r = RANK_OF[c]
                piles[r].append(c)
                counts[r] += 1
            self._left[s] = len(hand)
        self._pending = None
        self._init_play()
        self._begin_revolution(notes)


__all__ = ["FOUL_BURN", "FOUL_REVOLUTION", "FOUL_XIAN", "ModernRules"]
