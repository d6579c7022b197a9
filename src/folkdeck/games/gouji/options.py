"""Gou Ji rules options (docs/rules/gouji.md §12), frozen and validated, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import Game

RANK_WORDS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")


@dataclass(frozen=True, slots=True, kw_only=True)
class GouJiOptions:
    """Every Gou Ji rule option (docs/rules/gouji.md §12), with the defaults settled in §11.

    >>> GouJiOptions().thresholds()[9], GouJiOptions(gouji_single_two=False).thresholds()[12]
    (3, 2)
    >>> GouJiOptions(gouji_thresholds=("Q:x",))
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option gouji_thresholds='Q:x': give RANK:COUNT items such as 10:5, J:4
    """

    players: int = 6
    bj_wild_rule: Literal["count", "any_joker", "coverage"] = "count"
    """What beats a set holding a wild black joker (docs/rules/gouji.md §3.2, §11.1)."""
    gouji_thresholds: tuple[str, ...] = ("10:5", "J:4", "Q:3", "K:2", "A:2", "2:1")
    """Sizes from which a set of that represented rank is gouji (docs/rules/gouji.md §4.1, §11.2)."""
    gouji_single_two: bool = True
    """A single 2 is gouji (docs/rules/gouji.md §11.2); off: 2s need two cards."""
    gouji_duel_end: Literal["trick_ends", "resume"] = "trick_ends"
    """When a duellist passes: the trick ends (docs/rules/gouji.md §11.3), or players not passed resume."""
    burning: bool = True
    modern_burning: bool = False
    """Burning only by a seat that has opened (开点), with the one-set remainder only, and
    "to the end": the burner may not pass while it can beat, and leads its whole rest."""
    xian_rang_rang: bool = True
    revolution_allowed: bool = True
    tribute_after_revolution: bool = True
    tribute_between_teammates: Literal["skip", "perform"] = "skip"
    tribute_swap_losers: bool = False
    """5th and 6th teammates swap roles: 5th gives 2 to 1st, 6th gives 1 to 2nd."""
    liberation: bool = True
    """A giver dealt four red jokers refuses the exchange (解放)."""
    team_reorder: bool = False
    """With 2+ out and ≤ 4 left, a team may re-order its own turns each round (docs/rules/gouji.md §7.4)."""
    public_counts: Literal["always", "le10", "never"] = "le10"
    allow_open_hand: bool = True
    """A player with 10 or fewer cards may lay the hand face up for the rest of the deal."""
    share_hand_le10: bool = True
    """Teammates see a hand of 10 or fewer cards."""
    end_when_team_out: bool = False
    score_table: tuple[int, ...] = (4, 2, 0, 0, -2, -4)
    sweep_double: bool = False
    deals: int = 6
    target_score: int = 0
    """A match also ends when a team reaches this total (0: no target)."""
    strict_penalty: bool = False
    """Honour-system penalties (docs/rules/gouji.md §10): the false claims ``foul burn``,
    ``foul revolution`` and ``foul xian`` become actions; each makes its offender Da La."""
    modern_kai_dian: bool = False
    """开点: a seat opens when its opposite passes on its gouji; 4s may not be played before
    (unless the hand holds nothing else)."""
    modern_bie_san: bool = False
    """3s may only be played as a whole last play without jokers (憋三)."""
    modern_dian_gong: bool = False
    """点贡: seats not yet opened (开点) when Tou Ke goes out each owe one card at the
    next deal's tribute (to Tou Ke; see ``dian_gong_to``)."""
    dian_gong_to: Literal["tou_ke", "opposite"] = "tou_ke"
    """Who receives 点贡: Tou Ke (default), or the payer's own opposite (the other reading)."""
    ask_all_seats: bool = field(default=True, metadata={"record_default": False})
    """Windows whose right comes from a hidden hand (the 3s start, revolution, burning)
    ask every seat the public facts could entitle, in turn; a seat without the right may
    only decline. So neither a view nor the history tells who holds the right. Records
    that do not name it were played without it (``record_defaults``): only the seats
    with the right were asked."""

    def __post_init__(self) -> None:
        if self.players != 6:
            raise InvalidConfigError("gouji.six_players", option="players", value=self.players)
        if len(self.score_table) != 6:
            raise InvalidConfigError("gouji.score_table_six", option="score_table",
                                     value=",".join(map(str, self.score_table)))
        if self.deals < 1:
            raise InvalidConfigError("gouji.deals_at_least_one", option="deals", value=self.deals)
        self.thresholds()

    def thresholds(self) -> dict[int, int]:
        """``{rank index: minimum size}`` of non-joker gouji sets."""
        out: dict[int, int] = {}
        for item in self.gouji_thresholds:
            word, sep, count = item.partition(":")
            word = word.strip().upper()
            count = count.strip()
            if not sep or word not in RANK_WORDS[:13] or not (count.isascii() and count.isdigit()) \
                    or len(count) > 3 or int(count) < 1:
                raise InvalidConfigError("gouji.thresholds", option="gouji_thresholds",
                                         value=repr(item)[:60])
            out[RANK_WORDS.index(word)] = int(count)
        if not self.gouji_single_two:
            out[12] = max(out.get(12, 2), 2)
        return out


PRESETS: dict[str, dict[str, object]] = {
    "standard": {},
    "modern": {"bj_wild_rule": "coverage", "end_when_team_out": True,
               "score_table": (2, 1, 0, 0, -1, -2), "sweep_double": True, "modern_bie_san": True,
               "modern_kai_dian": True, "modern_burning": True, "modern_dian_gong": True},
    "resume": {"gouji_duel_end": "resume", "tribute_between_teammates": "perform"},
    "advanced": {"team_reorder": True, "tribute_swap_losers": True, "bj_wild_rule": "any_joker",
                 "public_counts": "always", "strict_penalty": True},
}


class GouJiGameLike(Game, Protocol):
    """The game as a deal reads it: a :class:`~folkdeck.engine.protocol.Game` with Gou Ji's
    options (:class:`~folkdeck.games.gouji.game.GouJiGame` is one). The state takes this, so
    that it need not import the game module, which makes it."""

    @property
    def options(self) -> GouJiOptions: ...
