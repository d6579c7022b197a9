"""A Cambio session: games of deals, chips, the pot, elimination and the persistent
stock (docs/rules/cambio.md §3).

* A game: seats are drawn from the stock (a stock FOOL is strongest; ties draw
  again, docs/rules/cambio.md §6.7); the strongest drawer deals first (the seat choice is modelled as the
  strongest taking the dealer's place, docs/rules/cambio.md §6.11).
  Everyone pays ``entry_fee`` into the pot.
* After each deal the dealer moves right, skipping eliminated seats. A loser of
  deal *k* pays ``pay_schedule[k-1]``; after the schedule, losers are eliminated; a
  loser who cannot pay in full is eliminated and pays nothing (docs/rules/cambio.md §6.8).
* If every remaining player would be eliminated at once: ``all_eliminated=replay``
  voids the deal (no payment, no elimination; the deal number stays),
  ``split_pot`` shares the pot among them (the odd chips to the first of them
  from the dealer's right) and ends the game.
* The last survivor takes the pot. Games follow until a player cannot pay the next
  entry fee (bankrupt), or until ``deals`` deals if a limit is given.
* The stock is shuffled once and used on: the cards of each deal go to the face-up
  discards, and only an empty stock is refilled from the discards (docs/rules/cambio.md §6.9).

Everything the session says is a typed fact: :meth:`CambioMatch.report` before a deal
(the seating draw, the entry fees, a reshuffle), :meth:`CambioMatch.finish_deal` after
it (payments, eliminations, the pot, who deals next, the end of the session).

Chance and records. The session's randomness is its first shuffle and, for each deal,
one ``reshuffle_seed`` (the order of a new stock made from the discards, whether the
stock runs out between deals or during the deal). A deal's ``setup`` carries both (the
shuffle with the session's first deal only), so a ``folkdeck-match/1`` record replays
the whole session: :meth:`CambioMatch.next_deal` given a record's deal takes those two
from it, derives everything else (the seating draw, the hands, the stock, the dealer,
the chips, the pot, the eliminated seats) and refuses a record that says otherwise,
naming the field. A deal's own record would show the stock that later deals use, which
is why Cambio's deal records wait for the end of the session (``record_embargo``).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.facts import ChipsPaid, Eliminated, Fact, NextDeal, PotWon
from folkdeck.engine.match_base import (
    CarryOver,
    DealingGame,
    MatchBase,
    as_json,
    check_setup,
    stated_setup,
)
from folkdeck.engine.protocol import Result, State
from folkdeck.games.cambio.events import (
    Bankrupt,
    DealReplayed,
    FirstDealer,
    GameStarted,
    Reshuffled,
    SeatingDraw,
    SeatingTie,
    SessionWon,
)
from folkdeck.games.cambio.options import CambioOptions
from folkdeck.games.cambio.rules import CARDS, NAMES, PackTable, kind, payment, permuted, seating_groups
from folkdeck.games.cambio.state import CambioState

_DERIVED: Final = ("dealer", "deal", "game", "chips", "pot", "eliminated")
"""The setup keys a session derives (a record must agree); ``reshuffle_seed`` and
``shuffle`` are chance, taken from the record."""


def stock_bits(seed: int, count: int) -> int:
    """The 256 bits ordering the ``count``-th (0-based) new stock made from the discards
    between deals, from a deal's ``reshuffle_seed`` (apart from the seed's use inside the
    deal, which shuffles with :class:`random.Random`).

    >>> stock_bits(5, 0) != stock_bits(5, 1)
    True
    """
    text = f"cambio-stock:{seed}:{count}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=32).digest(), "big")


class CambioDealing(DealingGame[CambioState], Protocol):
    """What a session needs of the game: its options and pack, the reading of a deal's
    setup, and a deal made from the session's cards."""

    @property
    def options(self) -> CambioOptions: ...

    @property
    def pack(self) -> PackTable: ...

    def read_setup(self, setup: Mapping[str, object], out: list[int]) -> dict[str, object]: ...

    def session_deal(self, hands: list[int], stock: list[int], discards: list[int],
                     info: dict[str, object]) -> CambioState: ...


class CambioSession(CarryOver):
    """What a Cambio session carries from deal to deal: chips, the pot, the game and deal
    numbers, the dealer, the eliminated seats and the persistent stock."""

    unit = "chips"
    not_over_reason = "cambio.deal_not_over"
    limit_reason = "deal_limit"

    def __init__(self, game: CambioDealing) -> None:
        self.game = game
        n = game.num_players
        self.chips = [game.options.start_chips] * n
        self.pot = 0
        self.game_number = 0
        self.deal_number = 0
        self.dealer = 0
        self.eliminated: set[int] = set()
        self.in_game = False
        self.stock: list[int] | None = None  # top last; None until the first shuffle
        self.discards: list[int] = []
        self.bankrupt = False
        self.reshuffles = 0
        self.report: list[Fact] = []

    # --- dealing ---------------------------------------------------------------------
    def draw(self, seed: int) -> int:
        """The stock's top card; an empty stock is first made again from the discards."""
        assert self.stock is not None
        if not self.stock:
            self.stock = permuted(sorted(self.discards), stock_bits(seed, self.reshuffles))
            self.reshuffles += 1
            self.discards = []
            self.report.append(Reshuffled(count=len(self.stock)))
        return self.stock.pop()

    def start_game(self, seed: int) -> None:
        """A new game: the seating draw (ties draw again), the first dealer, the fees."""
        n = self.game.num_players
        fee = self.game.options.entry_fee
        self.game_number += 1
        self.deal_number = 0
        self.eliminated = set()
        self.in_game = True
        self.report.append(GameStarted(game=self.game_number))
        drawers = list(range(n))
        while True:
            draws = {}
            for s in drawers:
                k = self.draw(seed)
                self.discards.append(k)  # the drawn cards are seen: face-up discards
                draws[s] = k
                self.report.append(SeatingDraw(seat=s, card=CARDS[k]))
            first = seating_groups(draws, self.game.pack)[0]
            if len(first) == 1:
                break
            drawers = first
            self.report.append(SeatingTie(seats=tuple(drawers)))
        self.dealer = first[0]
        self.report.append(FirstDealer(seat=self.dealer))
        for s in range(n):
            self.chips[s] -= fee
            self.pot += fee
            self.report.append(ChipsPaid(seat=s, amount=fee, pot=self.pot))

    def deal(self, seed: int, shuffle: list[str] | None) -> CambioState:
        """The next deal from the stock, one card each from the dealer's right."""
        self.reshuffles = 0
        if not self.in_game:
            self.start_game(seed)
        self.deal_number += 1
        n = self.game.num_players
        hands = [-1] * n
        for s in (s % n for s in range(self.dealer + 1, self.dealer + n + 1)):
            if s not in self.eliminated:
                hands[s] = self.draw(seed)
        setup: dict[str, object] = {"dealer": self.dealer, "deal": self.deal_number,
                                 "game": self.game_number, "chips": list(self.chips),
                                 "pot": self.pot, "reshuffle_seed": seed}
        if shuffle is not None:
            setup["shuffle"] = shuffle
        info = self.game.read_setup(setup, sorted(self.eliminated))
        assert self.stock is not None
        return self.game.session_deal(hands, list(self.stock), list(self.discards), info)

    # --- settling ----------------------------------------------------------------------
    def score_facts(self, result: Result, totals: Sequence[float]) -> list[Fact]:
        """Chips, not the deals' returns, are a session's score: paid in :meth:`after_deal`."""
        return []

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Fact]:
        """Pay, eliminate, pass the pot and the deal; returns what happened as facts."""
        assert isinstance(state, CambioState), "a Cambio match plays Cambio deals"
        hands, self.stock, self.discards = state.piles()
        self.discards.extend(k for k in hands if k >= 0)
        rules = self.game.options
        n = self.game.num_players
        losers: list[int] = list(result.details["losers"])
        alive = [s for s in range(n) if s not in self.eliminated]
        pay = payment(self.deal_number, rules.pay_schedule)
        out = [s for s in losers if pay is None or self.chips[s] < pay]
        facts: list[Fact] = []
        if out and len(out) == len(alive):
            if rules.all_eliminated == "replay":
                facts.append(DealReplayed(deal=self.deal_number))
                self.deal_number -= 1
                self.pass_deal(facts)
                return facts
            self.share_pot(facts)
            self.end_game(facts)
            return facts
        for s in losers:
            if s in out:
                self.eliminated.add(s)
                facts.append(Eliminated(seat=s, reason="lost_past_schedule" if pay is None
                                        else "cannot_pay"))
            else:
                assert pay is not None
                self.chips[s] -= pay
                self.pot += pay
                facts.append(ChipsPaid(seat=s, amount=pay, pot=self.pot))
        alive = [s for s in range(n) if s not in self.eliminated]
        if len(alive) == 1:
            self.share_pot(facts)
            self.end_game(facts)
        else:
            self.pass_deal(facts)
        return facts

    def share_pot(self, facts: list[Fact]) -> None:
        """The pot to the seats still in the game: equal shares, the odd chips one each
        from the dealer's right (docs/rules/cambio.md §6.6)."""
        n = self.game.num_players
        order = [s % n for s in range(self.dealer + 1, self.dealer + n + 1) if s % n not in self.eliminated]
        share, odd = divmod(self.pot, len(order))
        for i, s in enumerate(order):
            self.chips[s] += share + (1 if i < odd else 0)
        facts.append(PotWon(seats=tuple(order), amount=self.pot))
        self.pot = 0

    def pass_deal(self, facts: list[Fact]) -> None:
        n = self.game.num_players
        for d in range(1, n + 1):
            s = (self.dealer + d) % n
            if s not in self.eliminated:
                self.dealer = s
                facts.append(NextDeal(dealer=s))
                return

    def end_game(self, facts: list[Fact]) -> None:
        self.in_game = False
        fee = self.game.options.entry_fee
        broke = [s for s, c in enumerate(self.chips) if c < fee or c == 0]
        if broke:
            self.bankrupt = True
            facts.extend(Bankrupt(seat=s) for s in broke)

    def own_end(self, totals: Sequence[float]) -> str | None:
        """A session ends when a player cannot pay the next entry fee."""
        return "bankruptcy" if self.bankrupt else None

    def end_facts(self) -> list[Fact]:
        """A session its deal limit ends: the game in progress is settled as an undecided
        game is (the pot shared by the players still in it, docs/rules/cambio.md §6.6), and
        the most chips win (§6.22). A bankruptcy ends a session between games: nothing to settle."""
        if self.bankrupt:
            return []
        facts: list[Fact] = []
        if self.in_game and self.pot:
            self.share_pot(facts)
        self.in_game = False
        best = max(self.chips)
        facts.append(SessionWon(seats=tuple(s for s, c in enumerate(self.chips) if c == best), chips=best))
        return facts

    def scores(self, totals: Sequence[float]) -> tuple[float, ...]:
        return tuple(float(c) for c in self.chips)

    def out_of_play(self) -> tuple[int, ...]:
        """The seats out of the game in progress."""
        return tuple(sorted(self.eliminated)) if self.in_game else ()

    def carried(self) -> dict[str, object]:
        """The dealer, the pot, the game and deal numbers, whether a game is in progress,
        and the stock's and discards' sizes."""
        return {"dealer": self.dealer, "pot": self.pot, "game": self.game_number,
                "deal": self.deal_number, "in_game": self.in_game,
                "stock": len(self.stock or ()), "discards": len(self.discards)}


class CambioMatch(MatchBase[CambioState]):
    """A session of Cambio games with chips carried over.

    >>> import random
    >>> from folkdeck import load
    >>> from folkdeck.engine.conformance import random_playout
    >>> match = load("cambio", players=3, start_chips=3).new_match(rng=random.Random(4))
    >>> while not match.is_over():
    ...     state = match.next_deal()
    ...     _ = random_playout(state, random.Random(1))
    ...     _ = match.finish_deal(state)
    >>> sum(match.chips) + match.pot
    9
    >>> match.standings().over, match.standings().unit
    (True, 'chips')
    """

    def __init__(self, game: CambioDealing, *, deals: int | None, rng: random.Random) -> None:
        self._session = CambioSession(game)
        super().__init__(game, self._session, deals=deals, rng=rng)
        self._cambio = game

    # what the session carries, for the tests and the tools that show a session
    @property
    def chips(self) -> list[int]:
        return self._session.chips

    @property
    def pot(self) -> int:
        return self._session.pot

    @property
    def dealer(self) -> int:
        return self._session.dealer

    @property
    def eliminated(self) -> set[int]:
        return self._session.eliminated

    @property
    def in_game(self) -> bool:
        return self._session.in_game

    @property
    def game_number(self) -> int:
        return self._session.game_number

    @property
    def deal_number(self) -> int:
        return self._session.deal_number

    def next_deal(self, *, deal: Mapping[str, object] | None = None) -> CambioState:
        """The next deal: dealt from the stock, one card each from the dealer's right.

        ``deal``: a record's deal (``setup``, ``hands``, ``stock``): its ``shuffle`` (the
        first deal only) and ``reshuffle_seed`` are used; its other setup keys, its hands
        and its stock must be the ones the session derives.

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``, ``hands`` or
            ``stock``; ``cambio.no_shuffle`` for a first deal without ``setup.shuffle``.
        """
        session = self._session
        first = session.stock is None
        if deal is None:
            if first:
                session.stock = permuted(self._cambio.pack.full, self._rng.getrandbits(256))
            seed = self._rng.getrandbits(32)
            stated: Mapping[str, object] = {}
        else:
            stated = stated_setup(deal)
            seed = self._record_chance(stated, first)
        shuffle = [NAMES[k] for k in reversed(session.stock or ())] if first else None
        state = session.deal(seed, shuffle)
        if deal is not None:
            _check(deal, stated, state)
        return state

    def _record_chance(self, stated: Mapping[str, object], first: bool) -> int:
        """A record deal's chance: the session's first shuffle (its first deal only) and
        the deal's ``reshuffle_seed``."""
        if first:
            if "shuffle" not in stated:
                raise InvalidDealError("cambio.no_shuffle", field="setup.shuffle")
            shuffle = self._cambio.read_setup({"shuffle": stated["shuffle"]}, [])["shuffle"]
            assert isinstance(shuffle, list)  # read_setup gives the checked shuffle as a list of names
            self._session.stock = [kind(t) for t in reversed(shuffle)]
        else:
            check_setup(stated, {"shuffle": None})
        seed = stated.get("reshuffle_seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidDealError("cambio.setup_not_whole", field="setup.reshuffle_seed",
                                   key="reshuffle_seed", value=json.dumps(seed, default=str))
        return seed

    def report(self) -> tuple[Fact, ...]:
        """The facts since the last call that belong to no deal: a game's start, its
        seating draw and entry fees, a reshuffle of the discards into a new stock."""
        out = tuple(self._session.report)
        self._session.report.clear()
        return out


def _check(deal: Mapping[str, object], stated: Mapping[str, object], state: CambioState) -> None:
    """A record's deal against the derived one (see :meth:`CambioMatch.next_deal`)."""
    derived = state.deal_info()
    check_setup(stated, {key: derived["setup"][key] for key in _DERIVED},
                dict.fromkeys(_DERIVED))
    for key in ("hands", "stock"):
        if key in deal and as_json(_cards(deal[key])) != as_json(derived[key]):
            raise InvalidDealError("setup_mismatch", field=key, key=key,
                                   expected=json.dumps(derived[key]),
                                   found=json.dumps(_cards(deal[key])))


def _cards(value: object) -> object:
    """Card lists as notation strings (a record may hold them as text or lists)."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, tuple | list):
        return [_cards(v) if isinstance(v, tuple | list) else str(v) for v in value]
    return value


__all__ = ["CambioMatch", "CambioSession", "stock_bits"]
