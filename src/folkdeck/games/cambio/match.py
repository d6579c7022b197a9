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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from folkdeck.engine.errors import InvalidDealError, WrongPhaseError
from folkdeck.engine.facts import ChipsPaid, Eliminated, Fact, MatchEnded, NextDeal, PotWon
from folkdeck.engine.protocol import Standings, State
from folkdeck.games.cambio.events import (
    Bankrupt,
    DealReplayed,
    FirstDealer,
    GameStarted,
    Reshuffled,
    SeatingDraw,
    SeatingTie,
)
from folkdeck.games.cambio.rules import CARDS, NAMES, kind, payment, permuted, seating_groups

if TYPE_CHECKING:
    from folkdeck.games.cambio.game import CambioGame
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


class CambioMatch:
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

    def __init__(self, game: CambioGame, *, deals: int | None, rng: random.Random | None) -> None:
        self._game = game
        self._limit = deals
        self._rng = rng
        n = game.num_players
        self.chips = [game.options.start_chips] * n
        self.pot = 0
        self.game_number = 0
        self.deal_number = 0
        self.dealer = 0
        self.eliminated: set[int] = set()
        self.in_game = False
        self.deals_played = 0
        self._stock: list[int] | None = None  # top last; None until the first shuffle
        self._discards: list[int] = []
        self._bankrupt = False
        self._over_reported = False
        self._reshuffles = 0
        self._report: list[Fact] = []

    @property
    def game(self) -> CambioGame:
        return self._game

    # --- dealing ---------------------------------------------------------------------
    def _draw(self, seed: int) -> int:
        assert self._stock is not None
        if not self._stock:
            self._stock = permuted(sorted(self._discards), stock_bits(seed, self._reshuffles))
            self._reshuffles += 1
            self._discards = []
            self._report.append(Reshuffled(count=len(self._stock)))
        return self._stock.pop()

    def _start_game(self, seed: int) -> None:
        n = self._game.num_players
        fee = self._game.options.entry_fee
        self.game_number += 1
        self.deal_number = 0
        self.eliminated = set()
        self.in_game = True
        self._report.append(GameStarted(game=self.game_number))
        drawers = list(range(n))
        while True:
            draws = {}
            for s in drawers:
                k = self._draw(seed)
                self._discards.append(k)  # the drawn cards are seen: face-up discards
                draws[s] = k
                self._report.append(SeatingDraw(seat=s, card=CARDS[k]))
            first = seating_groups(draws, self._game.pack)[0]
            if len(first) == 1:
                break
            drawers = first
            self._report.append(SeatingTie(seats=tuple(drawers)))
        self.dealer = first[0]
        self._report.append(FirstDealer(seat=self.dealer))
        for s in range(n):
            self.chips[s] -= fee
            self.pot += fee
            self._report.append(ChipsPaid(seat=s, amount=fee, pot=self.pot))

    def next_deal(self, *, deal: Mapping[str, Any] | None = None) -> CambioState:
        """The next deal: dealt from the stock, one card each from the dealer's right.

        ``deal``: a record's deal (``setup``, ``hands``, ``stock``): its ``shuffle`` (the
        first deal only) and ``reshuffle_seed`` are used; its other setup keys, its hands
        and its stock must be the ones the session derives.

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``, ``hands`` or
            ``stock``; ``cambio.no_shuffle`` for a first deal without ``setup.shuffle``.
        """
        from folkdeck.games.cambio.state import CambioState

        game = self._game
        setup_in: Mapping[str, Any] = (deal or {}).get("setup") or {}
        if deal is not None and not isinstance(setup_in, Mapping):
            raise InvalidDealError("not_object", field="setup")
        first = self._stock is None
        if deal is None:
            rng = self._rng if self._rng is not None else random.Random()
            if first:
                self._stock = permuted(game.pack.full, rng.getrandbits(256))
            seed = rng.getrandbits(32)
        else:
            if first:
                if "shuffle" not in setup_in:
                    raise InvalidDealError("cambio.no_shuffle", field="setup.shuffle")
                info = game._read_setup({"shuffle": setup_in["shuffle"]}, [])
                self._stock = [kind(t) for t in reversed(info["shuffle"])]
            elif "shuffle" in setup_in:
                raise _mismatch("shuffle", None, setup_in["shuffle"])
            seed = setup_in.get("reshuffle_seed", 0)
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise InvalidDealError("cambio.setup_not_whole", field="setup.reshuffle_seed",
                                       key="reshuffle_seed", value=json.dumps(seed, default=str))
        assert self._stock is not None
        shuffle = [NAMES[k] for k in reversed(self._stock)] if first else None
        self._reshuffles = 0
        if not self.in_game:
            self._start_game(seed)
        self.deal_number += 1
        n = game.num_players
        hands = [-1] * n
        for s in (s % n for s in range(self.dealer + 1, self.dealer + n + 1)):
            if s not in self.eliminated:
                hands[s] = self._draw(seed)
        setup: dict[str, Any] = {"dealer": self.dealer, "deal": self.deal_number,
                                 "game": self.game_number, "chips": list(self.chips),
                                 "pot": self.pot, "reshuffle_seed": seed}
        if shuffle is not None:
            setup["shuffle"] = shuffle
        info = game._read_setup(setup, sorted(self.eliminated))
        state = CambioState(game, hands, list(self._stock), list(self._discards), info)
        if deal is not None:
            self._check(deal, setup_in, state)
        return state

    def _check(self, deal: Mapping[str, Any], stated: Mapping[str, Any], state: CambioState) -> None:
        """A record's deal against the derived one (see :meth:`next_deal`)."""
        derived = state.deal_info()
        for key in _DERIVED:
            if key not in stated or _plain(stated[key]) != _plain(derived["setup"][key]):
                raise _mismatch(key, derived["setup"][key], stated.get(key))
        for key in ("hands", "stock"):
            if key in deal and _cards(deal[key]) != _plain(derived[key]):
                raise InvalidDealError("setup_mismatch", field=key, key=key,
                                       expected=json.dumps(derived[key]),
                                       found=json.dumps(_cards(deal[key])))

    # --- settling ----------------------------------------------------------------------
    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Pay, eliminate, pass the pot and the deal; returns what happened as facts.

        :raises WrongPhaseError: for a deal that is not over.
        """
        result = state.result()
        if result is None:
            raise WrongPhaseError("cambio.deal_not_over", phase=state.phase)
        cambio: Any = state
        hands, self._stock, self._discards = cambio.piles()
        self._discards.extend(k for k in hands if k >= 0)
        self.deals_played += 1
        rules = self._game.options
        n = self._game.num_players
        losers: list[int] = list(result.details["losers"])
        alive = [s for s in range(n) if s not in self.eliminated]
        pay = payment(self.deal_number, rules.pay_schedule)
        out = [s for s in losers if pay is None or self.chips[s] < pay]
        facts: list[Fact] = []
        if out and len(out) == len(alive):
            if rules.all_eliminated == "replay":
                facts.append(DealReplayed(deal=self.deal_number))
                self.deal_number -= 1
                self._pass_deal(facts)
                return self._closing(facts)
            share, odd = divmod(self.pot, len(alive))
            order = [s % n for s in range(self.dealer + 1, self.dealer + n + 1) if s % n in alive]
            for i, s in enumerate(order):
                self.chips[s] += share + (1 if i < odd else 0)
            facts.append(PotWon(seats=tuple(order), amount=self.pot))
            self.pot = 0
            self._end_game(facts)
            return self._closing(facts)
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
            winner = alive[0]
            facts.append(PotWon(seats=(winner,), amount=self.pot))
            self.chips[winner] += self.pot
            self.pot = 0
            self._end_game(facts)
        else:
            self._pass_deal(facts)
        return self._closing(facts)

    def _closing(self, facts: list[Fact]) -> tuple[Fact, ...]:
        if self.is_over() and not self._over_reported:
            self._over_reported = True
            reason = "bankruptcy" if self._bankrupt else "deal_limit"
            top = max(self.chips)
            facts.append(MatchEnded(reason=reason,
                                    winners=tuple(s for s, c in enumerate(self.chips) if c == top)))
        return tuple(facts)

    def _pass_deal(self, facts: list[Fact]) -> None:
        n = self._game.num_players
        for d in range(1, n + 1):
            s = (self.dealer + d) % n
            if s not in self.eliminated:
                self.dealer = s
                facts.append(NextDeal(dealer=s))
                return

    def _end_game(self, facts: list[Fact]) -> None:
        self.in_game = False
        fee = self._game.options.entry_fee
        broke = [s for s, c in enumerate(self.chips) if c < fee or c == 0]
        if broke:
            self._bankrupt = True
            facts.extend(Bankrupt(seat=s) for s in broke)

    # --- where the session stands --------------------------------------------------
    def report(self) -> tuple[Fact, ...]:
        """The facts since the last call that belong to no deal: a game's start, its
        seating draw and entry fees, a reshuffle of the discards into a new stock."""
        out = tuple(self._report)
        self._report.clear()
        return out

    def is_over(self) -> bool:
        if self._bankrupt:
            return True
        return self._limit is not None and self.deals_played >= self._limit

    def standings(self) -> Standings:
        """Chips per seat (``unit`` ``chips``); ``eliminated``: the seats out of the game in
        progress; ``carry``: the dealer, the pot, the game and deal numbers, whether a game
        is in progress, and the stock's and discards' sizes."""
        return Standings(
            deals_played=self.deals_played, deals_limit=self._limit, over=self.is_over(),
            unit="chips", scores=tuple(float(c) for c in self.chips), higher_wins=True,
            eliminated=tuple(sorted(self.eliminated)) if self.in_game else (),
            carry={"dealer": self.dealer, "pot": self.pot, "game": self.game_number,
                   "deal": self.deal_number, "in_game": self.in_game,
                   "stock": len(self._stock or ()), "discards": len(self._discards)})


def _mismatch(key: str, expected: Any, found: Any) -> InvalidDealError:
    return InvalidDealError("setup_mismatch", field=f"setup.{key}", key=key,
                            expected=json.dumps(expected, default=str),
                            found=json.dumps(found, default=str))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _cards(value: Any) -> Any:
    """Card lists as notation strings (a record may hold them as text or lists)."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, tuple | list):
        return [_cards(v) if isinstance(v, tuple | list) else str(v) for v in value]
    return value


__all__ = ["CambioMatch", "stock_bits"]
