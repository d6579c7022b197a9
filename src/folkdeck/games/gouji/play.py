"""The transitions of a Gou Ji deal: :class:`GouJiFlow`, which the state calls with its
:class:`~folkdeck.games.gouji.deal.GouJiDeal`.

Tricks (docs/rules/gouji.md §3.3), gouji duels (docs/rules/gouji.md §4.2, §11.3), going out
during a duel, burning (烧牌) and its aftermath, 先让让, and the end of the deal
(places 头科 … 大落, team scores). The windows before play and the tribute (进贡,
docs/rules/gouji.md §2.6) are in :mod:`~folkdeck.games.gouji.prelude`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypedDict, final

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact, TrickWon
from folkdeck.engine.values import Action, Result
from folkdeck.games.gouji.actions import NO, OPEN, PASS, XIAN, Burn, Foul, Order
from folkdeck.games.gouji.dealing import SEATS, is_sweep, opposite, team
from folkdeck.games.gouji.events import (
    PLACE_TITLES,
    Answers,
    BurnWindow,
    GoujiCalled,
    GouJiDealOver,
    Opened,
    ShangBan,
    TurnOrder,
    WentOutAs,
    XianAnswered,
)
from folkdeck.games.gouji.modern import ModernRules
from folkdeck.games.gouji.rules import (
    BJ,
    RANK_OF,
    RJ,
    TWO,
    Play,
    is_gouji,
    with_cards,
)


class GouJiResultDetails(TypedDict, total=False):
    """A finished Gou Ji deal's :attr:`Result.details <folkdeck.engine.protocol.Result.details>`
    (a view's ``result`` holds them beside ``placings``, ``returns`` and ``reason``)."""

    order: list[int]
    """The seats from Tou Ke (1st) to Da La (6th)."""
    team_scores: list[int]
    """Team 0's (seats 0, 2, 4) and team 1's score for the deal: each seat's ``returns``."""
    place_points: list[int]
    """Per seat, the points its place earns by ``score_table`` (+4, +2, 0, 0, −2, −4),
    doubled on a sweep with ``sweep_double``: a team's members add up to its team score."""
    sweep: bool
    """One team took the top three places."""
    offenders: list[int]
    """Seats placed last for an infringement (``strict_penalty``; only when there are any)."""
    dian_gong: list[int]
    """The seats that owe 点贡 in the next deal (the modern rules; only when played)."""


if TYPE_CHECKING:
    from folkdeck.games.gouji.deal import GouJiDeal
    from folkdeck.games.gouji.options import GouJiOptions

_SEATING: Final = list(range(SEATS))
"""The turn order before any re-ordering (docs/rules/gouji.md §7.4)."""
# The facts of every trick, gouji call and place, made once (facts are immutable): a fact
# made anew each time and kept in the history is work for the garbage collector in every
# deal (folkdeck bench).
_TRICK_WON: Final = tuple(tuple(TrickWon(seat=w, leader=t) for t in range(SEATS)) for w in range(SEATS))
_GOUJI_CALLED: Final = tuple(GoujiCalled(seat=s, opposite=opposite(s)) for s in range(SEATS))
_ANSWERS: Final = tuple(tuple(Answers(seat=opposite(x), gouji_seat=x, last=last) for last in (False, True))
                 for x in range(SEATS))
_WENT_OUT: Final = tuple(tuple(WentOutAs(seat=s, place=k + 1, title=PLACE_TITLES[k]) for k in range(SEATS))
                  for s in range(SEATS))


@final
class GouJiFlow:
    """The trick transitions of the deal it is given; holds only the options and the
    :class:`~.modern.ModernRules` they choose."""

    __slots__ = ("opts", "thresholds", "modern")

    def __init__(self, options: GouJiOptions) -> None:
        self.opts = options
        self.thresholds = options.thresholds()
        self.modern = ModernRules(options)

    # --- cards ---------------------------------------------------------------------
    def take(self, d: GouJiDeal, s: int, rank: int, n: int, named: tuple[Card, ...] | None = None) -> list[Card]:
        """Take ``n`` cards of ``rank`` from the hand of ``s``: first the copies ``named``
        (the suited cards a player typed, or an event's set replayed; verified held), then
        any (the pile's last). A named card is its pile's last copy of it, as an unnamed
        one is the pile's last card: naming the cards a set took takes them again, leaving
        the pile in the same order (a pickled state replays its events' sets so)."""
        pile = d.piles[s][rank]
        if not named:  # the usual case: the pile's last n
            cut = len(pile) - n
            taken = pile[cut:]
            del pile[cut:]
        else:
            taken = []
            for card in named:
                if RANK_OF[card] == rank and len(taken) < n:
                    del pile[len(pile) - 1 - pile[::-1].index(card)]
                    taken.append(card)
            rest = n - len(taken)
            if rest:
                taken += pile[len(pile) - rest:]
                del pile[len(pile) - rest:]
        d.counts[s][rank] -= n
        d.left[s] -= n
        return taken

    def put(self, d: GouJiDeal, s: int, cards: list[Card], rank: int) -> None:
        d.piles[s][rank].extend(cards)
        d.counts[s][rank] += len(cards)
        d.left[s] += len(cards)

    def start_play(self, d: GouJiDeal, notes: list[Fact]) -> None:
        d.phase = "play"
        d.turn = d.leader if d.left[d.leader] else self.next_with_cards(d, d.leader)
        notes.append(ShangBan(seat=d.turn))
        self.check_end(d, notes)

    # --- play --------------------------------------------------------------------------
    def apply_play(self, d: GouJiDeal, s: int, action: Action, notes: list[Fact]) -> Action:
        """Perform ``action``; return it as the event records it (a set with the cards it
        took, see :meth:`play`)."""
        if d.xian_req >= 0 and s == d.turn and not d.window and (
                isinstance(action, Play) or action == PASS):
            notes.append(XianAnswered(seat=s, requester=d.xian_req,
                                      answer="agreed" if action == PASS else "refused"))
        if action is PASS and not d.window:
            d.xian_offer = -1
            d.xian_req = -1
            self.pass_turn(d, s, notes)
            return action
        if isinstance(action, Play) and not d.window:
            d.xian_offer = -1
            d.xian_req = -1
            return self.play(d, s, action, notes, burn=False)
        if action == OPEN:
            d.laid_open |= 1 << s
            return action
        if action == XIAN:
            d.xian_req = s
            d.xian_offer = -1
            return action
        if isinstance(action, Foul):
            self._false_claim(d, s, action, notes)
            return action
        if d.window:
            return self._answer_window(d, s, action, notes)
        d.xian_offer = -1
        d.xian_req = -1
        if action == PASS:
            self.pass_turn(d, s, notes)
            return action
        assert isinstance(action, Play)
        return self.play(d, s, action, notes, burn=False)

    def _false_claim(self, d: GouJiDeal, s: int, action: Foul, notes: list[Fact]) -> None:
        """``strict_penalty``: a false burning claim in the window, or a false 先让让."""
        if not d.window:
            self.modern.foul(d, s, action.claim, notes)
            self.check_end(d, notes)
            return
        d.window.pop(0)
        self.modern.foul(d, s, action.claim, notes)
        if self.check_end(d, notes):
            return
        if not d.window:
            d.window_kind = ""
            self.to_opposite(d, d.gouji_seat, notes)

    def _answer_window(self, d: GouJiDeal, s: int, action: Action, notes: list[Fact]) -> Action:
        """An answer in the open play-phase window: re-ordering, or burning."""
        if d.window_kind == "reorder":
            d.window.pop(0)
            if isinstance(action, Order):
                positions = sorted(d.pos[m] for m in action.seats)
                for p, m in zip(positions, action.seats, strict=True):
                    d.order[p] = m
                    d.pos[m] = p
                notes.append(TurnOrder(order=tuple(d.order)))
            if not d.window:
                d.window_kind = ""
            return action
        if action == NO:
            d.window.pop(0)
            if not d.window:
                d.window_kind = ""
                self.to_opposite(d, d.gouji_seat, notes)
            return action
        assert isinstance(action, Burn)
        d.window = []
        d.window_kind = ""
        if self.opts.modern_burning:
            d.to_end |= 1 << s
        return Burn(self.play(d, s, action.play, notes, burn=True))

    def play(self, d: GouJiDeal, s: int, p: Play, notes: list[Fact], *, burn: bool) -> Play:
        """Play the set ``p`` (taking the cards it names, if any); return it naming every
        card taken, for the event (the views show them in hand order, docs/rules/gouji.md
        §1.3: sorting here would cost every playout)."""
        named = p.cards
        rank, natural = p[0], p[1]
        taken = self.take(d, s, rank, natural, named)
        counts = d.played_counts
        counts[rank] += natural
        if p[5] != natural:  # wild cards (size above the naturals)
            for r, n in ((TWO, p.w2), (BJ, p.wbj), (RJ, p.wrj)):
                if n:
                    taken += self.take(d, s, r, n, named)
                    counts[r] += n
        cards = tuple(taken)
        made = with_cards(p, cards)
        d.played += cards
        d.top = p
        d.top_seat = s
        d.trick.append((s, p))
        d.table.append((s, cards))
        if not d.left[s]:
            d.out.append(s)
            place = len(d.out)
            notes.append(_WENT_OUT[s][place - 1])
            if len(d.out) == 1:
                self.modern.note_tou_ke(d, s)
            if self.check_end(d, notes):
                return made
        mode = d.mode
        if mode == "final":
            self.end_trick(d, notes)
            return made
        if burn:
            d.mode = "after_burn"
            self.advance(d, s, notes)
            return made
        o = opposite(s)
        if d.left[o] and (mode in ("duel", "after_burn") or is_gouji(p, self.thresholds)):
            d.gouji_seat = s
            if self.opts.burning:
                d.window = self.modern.burn_window(d, s, p)
            if d.window:
                d.window_kind = "burn"
                notes.append(_GOUJI_CALLED[s])
                notes.append(BurnWindow(seats=tuple(d.window)))
            else:
                notes.append(_GOUJI_CALLED[s])
                self.to_opposite(d, s, notes)
            return made
        d.mode = "normal"
        self.advance(d, s, notes)
        self.offer_xian(d, s)
        return made

    def to_opposite(self, d: GouJiDeal, x: int, notes: list[Fact]) -> None:
        o = opposite(x)
        d.mode = "duel" if d.left[x] else "final"
        d.turn = o
        notes.append(_ANSWERS[x][not d.left[x]])

    def pass_turn(self, d: GouJiDeal, s: int, notes: list[Fact]) -> None:
        d.passed |= 1 << s
        d.trick.append((s, None))
        mode = d.mode
        if mode == "duel" and self.modern.tracks_opening and not d.opened >> d.top_seat & 1:
            d.opened |= 1 << d.top_seat
            notes.append(Opened(seat=d.top_seat))
        if mode == "final" or (mode == "duel" and self.opts.gouji_duel_end == "trick_ends"):
            self.end_trick(d, notes)
            return
        d.mode = "normal" if mode == "duel" else mode
        self.advance(d, s, notes)

    def advance(self, d: GouJiDeal, s: int, notes: list[Fact]) -> None:
        """The next seat after ``s`` still in the trick; the trick ends when every seat
        but the one whose play stands has passed (or is out)."""
        seat = s
        top = d.top_seat
        order, pos = d.order, d.pos
        for _ in range(SEATS):
            seat = order[(pos[seat] + 1) % SEATS]
            if seat != top and d.left[seat] and not d.passed >> seat & 1:
                d.turn = seat
                return
        self.end_trick(d, notes)

    def end_trick(self, d: GouJiDeal, notes: list[Fact]) -> None:
        winner = d.top_seat
        leader = winner if d.left[winner] else self.next_with_cards(d, winner)
        notes.append(_TRICK_WON[winner][leader])
        d.top = None
        d.top_seat = -1
        d.passed = 0
        d.mode = "normal"
        d.trick = []
        d.table = []
        d.turn = leader
        self.offer_reorder(d)

    def offer_reorder(self, d: GouJiDeal) -> None:
        """``team_reorder``: with 2+ out and 4 or fewer left, each team with two or more
        players left may re-order its members' turns before a round (docs/rules/gouji.md §7.4)."""
        holding = [s for s in range(SEATS) if d.left[s]]
        if not self.opts.team_reorder or len(d.out) < 2 or len(holding) > 4:
            return
        reps = []
        for k in (0, 1):
            members = [s for s in holding if s % 2 == k]
            if len(members) >= 2:
                reps.append(members[0])
        if reps:
            d.window = reps
            d.window_kind = "reorder"

    def reorder_members(self, d: GouJiDeal, seat: int) -> tuple[int, ...]:
        """The remaining seats of ``seat``'s team in their turn positions' order."""
        members = [s for s in range(SEATS) if d.left[s] and team(s) == team(seat)]
        return tuple(sorted(members, key=lambda m: d.pos[m]))

    def offer_xian(self, d: GouJiDeal, s: int) -> None:
        """先让让: i played, i+1 and i+2 passed, the opposite i+3 (= s) played."""
        i = (s + 3) % SEATS
        if not self.opts.xian_rang_rang or d.turn != (s + 1) % SEATS or not d.left[i] \
                or d.passed >> i & 1:
            return
        if d.order != _SEATING:
            return  # turns re-ordered: the seating that 先让让 describes no longer holds
        want = [(i, True), ((i + 1) % SEATS, False), ((i + 2) % SEATS, False), (s, True)]
        got = [(t, p is not None) for t, p in d.trick[-4:]]
        if got == want:
            d.xian_offer = i

    def next_with_cards(self, d: GouJiDeal, seat: int) -> int:
        for _ in range(SEATS):
            seat = d.order[(d.pos[seat] + 1) % SEATS]
            if d.left[seat]:
                return seat
        return seat

    # --- the end -------------------------------------------------------------------------
    def check_end(self, d: GouJiDeal, notes: list[Fact]) -> bool:
        holding = [s for s in range(SEATS) if d.left[s]]
        team_out = self.opts.end_when_team_out and any(
            all(not d.left[t] for t in range(k, SEATS, 2)) for k in (0, 1))
        if len(holding) > 1 and not team_out:
            return False
        after = d.out[-1] if d.out else 0
        holding.sort(key=lambda t: (d.left[t], (t - after) % SEATS))
        d.out += holding
        d.out += reversed(d.fouls)  # offenders last: the first is Da La
        self.modern.note_tou_ke(d, d.out[0])
        places = [0] * SEATS
        for place, t in enumerate(d.out, 1):
            places[t] = place
        table = self.opts.score_table
        sweep = is_sweep(places)
        factor = 2 if sweep and self.opts.sweep_double else 1
        # What each seat's place earns (docs/rules/gouji.md §8, §9.4): a team's members' place
        # points add up to its score, so a reader sees where the team's score came from.
        place_points = [factor * table[places[t] - 1] for t in range(SEATS)]
        scores = [sum(place_points[t] for t in range(k, SEATS, 2)) for k in (0, 1)]
        details: GouJiResultDetails = {"order": list(d.out), "team_scores": scores,
                                       "place_points": place_points, "sweep": sweep}
        if d.fouls:
            details["offenders"] = list(d.fouls)
        if d.owe is not None:
            details["dian_gong"] = list(d.owe)
        d.result = Result(tuple(places), tuple(float(scores[t % 2]) for t in range(SEATS)),
                              "out", details)
        d.phase = "over"
        d.window = []
        d.window_kind = ""
        d.xian_offer = -1
        notes.append(GouJiDealOver(order=tuple(d.out), sweep=sweep))
        return True
