"""Rules options of Cangkul, Spanish Burro and Portuguese Burro (docs/rules/cangkul.md §8).

Each registered game has its own options class holding exactly the options docs/rules/cangkul.md §8
names for it (plus ``players`` and, for the Burros, ``hand_size``), with its
defaults. The one engine never reads these classes directly:
:func:`~folkdeck.games.cangkul.rules.ruleset` turns any of them into a
:class:`~folkdeck.games.cangkul.rules.Ruleset`, the frozen table of every difference
between the three games. So the games differ by data, not by code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from folkdeck.engine.errors import InvalidConfigError

JokerPlay = Literal["anytime", "only_void", "must_when_void"]
LeadAfterPass = Literal["winner", "first_passer"]
LeadAfterOut = Literal["next_active", "highest_remaining"]
Score = Literal["win_count", "cards_left_penalty"]
PackName = Literal["french52", "french53", "spanish48", "portuguese40"]

STALL_LIMIT = 100
"""Default ``stall_limit`` (docs/rules/cangkul.md §6.3: measured so that it
practically never cuts a deal that would end)."""

PACK_SIZES = {"french52": 52, "french53": 53, "spanish48": 48, "portuguese40": 40}


@dataclass(frozen=True, slots=True, kw_only=True)
class CangkulOptions:
    """Cangkul (docs/rules/cangkul.md §2, §8), with its defaults.

    >>> CangkulOptions(players=6)
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option players=6: Cangkul is for 3 to 5 players
    """

    players: int = 4
    cangkul_drop_out: bool = False
    """Seed variation 1: an empty hand leaves play; the last holder loses."""
    joker: bool = False
    """Seed variation 2: a 53-card pack with one joker (``RJ``), the highest card."""
    joker_play: JokerPlay = "anytime"
    """When the joker may be played: any time, only when void in the led suit, or it must
    be played then."""
    lead_after_pass: LeadAfterPass = "winner"
    """Who leads after a trick in which someone passed: the highest led-suit card's player
    (default) or the first passer."""
    lead_after_out: LeadAfterOut = "next_active"
    """With ``cangkul_drop_out``: who leads when the trick's winner has gone out."""
    score: Score = "win_count"
    """``win_count``: 1 point to the winner; ``cards_left_penalty``: losers lose 1 per card held."""
    stall_limit: int = STALL_LIMIT
    """Engine gap rule: with the stock empty, this many tricks in a row taken by passers
    (no card left play, nobody went out) end the deal as a stalemate; 0 = off (the literal
    seed, where a deal may never end)."""

    def __post_init__(self) -> None:
        _check_players("cangkul", self.players, 3, 5)
        if not isinstance(self.stall_limit, int) or isinstance(self.stall_limit, bool) or self.stall_limit < 0:
            raise InvalidConfigError("cangkul.stall_limit", option="stall_limit", value=self.stall_limit)


@dataclass(frozen=True, slots=True, kw_only=True)
class BurroEsOptions:
    """Spanish Burro (docs/rules/cangkul.md §4, §8), with its defaults.

    >>> BurroEsOptions(hand_size=0)
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option hand_size=0: must be at least 1
    """

    players: int = 4
    hand_size: int = 5
    """Cards dealt to each player: 5 (the Japanese page) or 4 (gamerules and its copies; docs/rules/cangkul.md §7.6)."""
    penalty_limit: int = 5
    """A match ends when a player's penalty points reach this number."""
    lead_after_out: LeadAfterOut = "next_active"
    """Who leads when the trick's winner has gone out."""

    def __post_init__(self) -> None:
        _check_players(self.game, self.players, 3, 8)
        if self.hand_size < 1:
            raise InvalidConfigError("cangkul.at_least_one", option="hand_size", value=self.hand_size)
        size = PACK_SIZES[self.pack]
        if self.hand_size * self.players > size:
            raise InvalidConfigError("cangkul.hands_exceed_pack", option="hand_size", value=self.hand_size,
                                     players=self.players, size=size, pack=self.pack, game=self.game)
        if self.penalty_limit < 1:
            raise InvalidConfigError("cangkul.at_least_one", option="penalty_limit", value=self.penalty_limit)

    @property
    def title(self) -> str:
        return "Spanish Burro"

    @property
    def game(self) -> str:
        """The registered game's name (it selects the catalogs' terms)."""
        return "burro_es"

    @property
    def pack(self) -> PackName:
        return "spanish48"


@dataclass(frozen=True, slots=True, kw_only=True)
class BurroPtOptions(BurroEsOptions):
    """Portuguese Burro (docs/rules/cangkul.md §5, §8): Spanish Burro's options plus these.

    >>> BurroPtOptions(stock_knock_prob=1.5)
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option stock_knock_prob=1.5: must be from 0 to 1
    """

    pt_ace_high: bool = False
    """The Ás ranks above the Rei, as in many Portuguese games (default: lowest)."""
    two_stock_piles: bool = True
    """The stock stands in two piles (an inverted V); the drawer picks a pile each draw."""
    stock_knock_prob: float = 0.0
    """The chance that a draw knocks the stock over; the drawer then takes all of it."""

    def __post_init__(self) -> None:
        BurroEsOptions.__post_init__(self)
        if not 0.0 <= self.stock_knock_prob <= 1.0:
            raise InvalidConfigError("cangkul.probability", option="stock_knock_prob", value=self.stock_knock_prob)

    @property
    def title(self) -> str:
        return "Portuguese Burro"

    @property
    def game(self) -> str:
        return "burro_pt"

    @property
    def pack(self) -> PackName:
        return "portuguese40"


AnyOptions = CangkulOptions | BurroEsOptions | BurroPtOptions


def _check_players(game: str, players: int, low: int, high: int) -> None:
    """``cangkul.players``: the catalogs name ``game`` (its ``term.<game>.title``)."""
    if not low <= players <= high:
        raise InvalidConfigError("cangkul.players", option="players", value=players, low=low, high=high,
                                 game=game)


PRESETS: dict[str, dict[str, dict[str, object]]] = {
    "cangkul": {
        "standard": {},
        "drop_out": {"cangkul_drop_out": True},
        "joker": {"joker": True},
        "penalty": {"score": "cards_left_penalty"},
    },
    "burro_es": {"standard": {}, "four_cards": {"hand_size": 4}},
    "burro_pt": {"standard": {}, "ace_high": {"pt_ace_high": True},
                 "knock": {"stock_knock_prob": 0.05}, "one_pile": {"two_stock_piles": False}},
}
