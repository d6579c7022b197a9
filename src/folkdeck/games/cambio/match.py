"""A Cambio session: games of deals, chips, the pot, elimination and the persistent
stock (seed 002 インストラクション; rules-notes §3.2).

* A game: seats are drawn from the stock (a stock FOOL is strongest; ties draw
  again, C7); the strongest drawer deals first (the seat choice is modelled as the
  strongest taking the dealer's place, notes: first dealer "seat 0 after seating").
  Everyone pays ``entry_fee`` into the pot.
* After each deal the dealer moves right, skipping eliminated seats. A loser of
  deal *k* pays ``pay_schedule[k-1]``; after the schedule, losers are eliminated; a
  loser who cannot pay in full is eliminated and pays nothing (C8).
* If every remaining player would be eliminated at once: ``all_eliminated=replay``
  voids the deal (no payment, no elimination; the deal number stays),
  ``split_pot`` shares the pot among them (the odd chips to the first of them
  from the dealer's right) and ends the game.
* The last survivor takes the pot. Games follow until a player cannot pay the next
  entry fee (bankrupt), or until ``deals`` deals if a limit is given.
* The stock is shuffled once and used on: the cards of each deal go to the face-up
  discards, and only an empty stock is refilled from the discards (C9).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from folkdeck.engine.protocol import State
from folkdeck.games.cambio.rules import NAMES, payment, permuted, seating_groups

if TYPE_CHECKING:
    from folkdeck.games.cambio.game import CambioGame
    from folkdeck.games.cambio.state import CambioState


class CambioMatch:
    """A session of Cambio games with chips carried over.

    >>> import random
    >>> from folkdeck import load
    >>> from folkdeck.sim.runner import random_playout
    >>> match = load("cambio", players=3, start_chips=3).new_match(rng=random.Random(4))
    >>> while not match.is_over():
    ...     state = match.next_deal()
    ...     _ = random_playout(state, random.Random(1))
    ...     _ = match.finish_deal(state)
    >>> sum(match.chips) + match.pot
    9
    """

    def __init__(self, game: CambioGame, *, deals: int | None, rng: random.Random) -> None:
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
        self.log: list[str] = []
        self._stock = permuted(game.pack.full, rng.getrandbits(256))  # top last
        self._discards: list[int] = []
        self._bankrupt = False
        self._reported = 0

    @property
    def game(self) -> CambioGame:
        return self._game

    def _draw(self) -> int:
        if not self._stock:
            self._stock = permuted(sorted(self._discards), self._rng.getrandbits(256))
            self._discards = []
            self.log.append(f"the stock is used up: {len(self._stock)} discards are shuffled into a new stock")
        return self._stock.pop()

    def _start_game(self) -> None:
        n = self._game.num_players
        rules = self._game.options
        self.game_number += 1
        self.deal_number = 0
        self.eliminated = set()
        self.in_game = True
        lines = [f"Game {self.game_number}: seats are drawn from the stock"]
        drawers = list(range(n))
        while True:
            draws = {}
            for s in drawers:
                k = self._draw()
                self._discards.append(k)  # the drawn cards are seen: face-up discards
                draws[s] = k
            lines.append("draw: " + ", ".join(f"seat {s} {NAMES[k]}" for s, k in draws.items()))
            first = seating_groups(draws, self._game.pack)[0]
            if len(first) == 1:
                break
            drawers = first
            lines.append("a tie for the first choice: " + ", ".join(f"seat {s}" for s in drawers)
                         + " draw again")
        self.dealer = first[0]
        lines.append(f"seat {self.dealer} drew strongest and deals first")
        for s in range(n):
            self.chips[s] -= rules.entry_fee
            self.pot += rules.entry_fee
        lines.append(f"everyone pays {rules.entry_fee} into the pot (pot {self.pot})")
        self.log.extend(lines)

    def next_deal(self) -> CambioState:
        """The next deal: dealt from the stock, one card each from the dealer's right."""
        if not self.in_game:
            self._start_game()
        self.deal_number += 1
        n = self._game.num_players
        hands = [-1] * n
        for s in (s % n for s in range(self.dealer + 1, self.dealer + n + 1)):
            if s not in self.eliminated:
                hands[s] = self._draw()
        setup = {"dealer": self.dealer, "deal": self.deal_number, "game": self.game_number,
                 "chips": list(self.chips), "pot": self.pot,
                 "reshuffle_seed": self._rng.getrandbits(32)}
        info = self._game._read_setup(setup, sorted(self.eliminated))
        from folkdeck.games.cambio.state import CambioState

        return CambioState(self._game, hands, list(self._stock), list(self._discards), info)

    def finish_deal(self, state: State) -> list[str]:
        """Pay, eliminate, pass the pot and the deal; returns what happened."""
        result = state.result()
        if result is None:
            raise ValueError("finish_deal needs a finished deal")
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
        lines = self._unreported()
        lines += [f"Game {self.game_number}, deal {self.deal_number}: "
                 + (("losers: " + ", ".join(f"seat {s}" for s in losers)) if losers else "nobody loses")]
        if out and len(out) == len(alive):
            if rules.all_eliminated == "replay":
                self.deal_number -= 1
                lines.append("every remaining player would be eliminated: the deal is replayed")
                self._pass_deal()
                return lines
            share, odd = divmod(self.pot, len(alive))
            order = [s % n for s in range(self.dealer + 1, self.dealer + n + 1) if s % n in alive]
            for i, s in enumerate(order):
                self.chips[s] += share + (1 if i < odd else 0)
            lines.append(f"every remaining player would be eliminated: they share the pot of {self.pot}")
            self.pot = 0
            self._end_game(lines)
            return lines
        for s in losers:
            if s in out:
                self.eliminated.add(s)
                lines.append(f"seat {s} is eliminated" + ("" if pay is None else f" (cannot pay {pay})"))
            else:
                assert pay is not None
                self.chips[s] -= pay
                self.pot += pay
                lines.append(f"seat {s} pays {pay} (pot {self.pot})")
        alive = [s for s in range(n) if s not in self.eliminated]
        if len(alive) == 1:
            winner = alive[0]
            lines.append(f"seat {winner} is the last survivor and takes the pot of {self.pot}")
            self.chips[winner] += self.pot
            self.pot = 0
            self._end_game(lines)
        else:
            self._pass_deal()
        return lines

    def _unreported(self) -> list[str]:
        """Log lines (the seating draw, reshuffles) not yet returned by :meth:`finish_deal`."""
        out = self.log[self._reported:]
        self._reported = len(self.log)
        return out

    def _pass_deal(self) -> None:
        n = self._game.num_players
        for d in range(1, n + 1):
            s = (self.dealer + d) % n
            if s not in self.eliminated:
                self.dealer = s
                return

    def _end_game(self, lines: list[str]) -> None:
        self.in_game = False
        fee = self._game.options.entry_fee
        broke = [s for s, c in enumerate(self.chips) if c < fee or c == 0]
        if broke:
            self._bankrupt = True
            lines.append(", ".join(f"seat {s}" for s in broke) + " cannot pay the next entry fee: "
                         "bankrupt, the session ends")

    def is_over(self) -> bool:
        if self._bankrupt:
            return True
        return self._limit is not None and self.deals_played >= self._limit

    def standings(self) -> list[str]:
        n = self._game.num_players
        rows = sorted(range(n), key=lambda s: -self.chips[s])
        head = f"Game {self.game_number}, deals played in it: {self.deal_number}; pot {self.pot}"
        return [head] + [f"seat {s}: {self.chips[s]} chips" + (" (eliminated)" if s in self.eliminated
                                                                and self.in_game else "") for s in rows]
