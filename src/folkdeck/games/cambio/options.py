"""Cambio rules options (docs/rules/cambio.md §6-§7), frozen and validated."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from folkdeck.engine.errors import InvalidConfigError

MAX_PLAYERS = 39
"""One card each and at least one card left outside the hands (40 - 1), so that the
stock can always be refilled from the discards (docs/rules/cambio.md §2, §6.9). The registered bound
is the default pack's; ``pack=nifty44`` allows 43 (:data:`PACK_SIZES`)."""
PACK_SIZES = {"40": 40, "nifty44": 44}
"""Cards in each ``pack`` option's pack (docs/rules/cambio.md §1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CambioOptions:
    """Every Cambio rule option, with the defaults of docs/rules/cambio.md §7.

    >>> CambioOptions(players=40)
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option players=40: Cambio is for 2 to 39 players (one card each, and one card must stay outside the hands for the stock)
    >>> CambioOptions(pack="nifty44", players=43).players
    43
    >>> CambioOptions(pack="52")
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option pack=52: the packs are 40 (the Cucco pack) and nifty44 (the Nifty edition with XI and XII)
    """

    players: int = 4
    pack: Literal["40", "nifty44"] = "40"
    """The 40-card Cucco pack, or ``nifty44``: the Nifty edition's 44 cards, with the number
    cards XI and XII between 10 and HOUSE (docs/rules/cambio.md §1.3)."""
    midgame_loss: Literal["continue", "end_deal"] = "continue"
    """After a disqualification the deal goes on among the others (docs/rules/cambio.md §6.1), or ends at once."""
    fool_rule: Literal["japanese", "italian"] = "japanese"
    """Japanese: FOOL is -4, receiving it in an exchange disqualifies, a stock FOOL counts above the OWL.
    Italian: a single FOOL equals the lowest other card in play (docs/rules/cambio.md §8)."""
    owl_refuses_when_asked: bool = False
    """An OWL asked to exchange refuses and calls cucco (docs/rules/cambio.md §6.2; Gnav-like)."""
    open_discards: bool = True
    """Discards lie face up, so they can be counted (docs/rules/cambio.md §3.6, the author's recommendation)."""
    all_eliminated: Literal["replay", "split_pot"] = "replay"
    """When every remaining player of an elimination deal loses at once (docs/rules/cambio.md §6.6)."""
    start_chips: int = 25
    entry_fee: int = 1
    pay_schedule: tuple[int, ...] = (1, 2, 3)
    """A loser of deal *k* pays ``pay_schedule[k-1]``; after the schedule, losers are eliminated."""

    def __post_init__(self) -> None:
        size = PACK_SIZES.get(self.pack)
        if size is None:
            raise InvalidConfigError("cambio.bad_pack", option="pack", value=self.pack)
        if not 2 <= self.players <= size - 1:
            raise InvalidConfigError("cambio.players_range", option="players", value=self.players,
                                     most=size - 1)
        if self.start_chips < 1:
            raise InvalidConfigError("cambio.at_least_one", option="start_chips", value=self.start_chips)
        if self.entry_fee < 0:
            raise InvalidConfigError("cambio.not_negative", option="entry_fee", value=self.entry_fee)
        if self.entry_fee > self.start_chips:
            raise InvalidConfigError("cambio.fee_above_chips", option="entry_fee", value=self.entry_fee,
                                     start_chips=self.start_chips)
        if any(p < 0 for p in self.pay_schedule):
            raise InvalidConfigError("cambio.pay_negative", option="pay_schedule",
                                     value=",".join(map(str, self.pay_schedule)))


PRESETS: dict[str, dict[str, object]] = {
    "standard": {},
    "sudden": {"midgame_loss": "end_deal"},
    "italian_fool": {"fool_rule": "italian"},
    "owl_refuses": {"owl_refuses_when_asked": True},
    "closed_discards": {"open_discards": False},
    "nifty44": {"pack": "nifty44"},
}
