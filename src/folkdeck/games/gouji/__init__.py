"""Gou Ji (够级), the Qingdao six-player team climbing game (docs/rules/gouji.md).

==================  =========================================================
Seats               6, counter-clockwise (seat + 1 next); opposite = seat + 3
Teams               {0, 2, 4} v {1, 3, 5}
Pack                4 × French 54 = 216 cards; 3 low … A, 2, BJ, RJ high
Hidden information  yes (hands; tribute cards)
Actions             sets by ranks (``9 9 2``), ``pass``, ``no``, ``declare``,
                    ``revolution``/``object``/``withdraw``/``insist``,
                    ``return …``, ``burn …``, ``xian``, ``open``, ``order …``,
                    ``draw N`` (the Da La names the drawer), ``foul …``
                    (``strict_penalty``)
Returns             team score by places, ``score_table`` (default +4 +2 0 0 −2 −4)
Presets             ``standard``, ``modern``, ``resume``, ``advanced``
==================  =========================================================

Sources: ``docs/rules/gouji.md`` §13; the full rules for players are in
``docs/rules/gouji.md``, the record grammar in ``docs/records.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from folkdeck.engine.protocol import BotFactory, GameHooks, GameSpec, Lazy, LazyBots, MatchEnd
from folkdeck.engine.registry import register
from folkdeck.games.gouji.actions import PASS, Burn, Return, Word, action_data, parse_action
from folkdeck.games.gouji.events import describe_action
from folkdeck.games.gouji.game import GouJiGame
from folkdeck.games.gouji.observation import GouJiView
from folkdeck.games.gouji.options import PRESETS, GouJiOptions
from folkdeck.games.gouji.rules import RANK_WORDS, TWO, Play, beats, is_gouji, parse_play
from folkdeck.games.gouji.state import GouJiState

if TYPE_CHECKING:
    from folkdeck.engine.determinize import Determinizer


def _make(options: GouJiOptions) -> GouJiGame:
    return GouJiGame(SPEC, options)


def _bots() -> dict[str, BotFactory]:
    from folkdeck.agents import FirstLegalAgent, RandomAgent
    from folkdeck.agents.learned import learned_bots
    from folkdeck.agents.search import search_bots
    from folkdeck.games.gouji.agents import GreedyAgent, HeuristicAgent
    from folkdeck.games.gouji.rollout import CONFIDENCE, LEVELS, candidates, evaluate, playout

    return {"random": RandomAgent, "first": FirstLegalAgent, "greedy": GreedyAgent,
            "heuristic": HeuristicAgent,
            **search_bots("gouji", "heuristic", levels=LEVELS, rollout=playout,
                          evaluate=evaluate, candidates=candidates, tree_depth=1,
                          confidence=CONFIDENCE, search_algorithm="pimc"),
            **learned_bots("gouji", "heuristic")}


def _determinizer() -> Determinizer:
    from folkdeck.games.gouji.determinize import DETERMINIZER

    return DETERMINIZER


def _teams(players: int) -> tuple[tuple[int, ...], ...]:
    """Seats 0, 2, 4 against 1, 3, 5 (docs/rules/gouji.md §1.1)."""
    return ((0, 2, 4), (1, 3, 5))


SPEC: Final = register(GameSpec(
    name="gouji", title="Gou Ji", aliases=("gou-ji", "gou_ji", "够级"),
    min_players=6, max_players=6, default_players=6, options_type=GouJiOptions,
    presets=PRESETS, summary="Qingdao team climbing game: six players, four packs, gouji duels.",
    rules_doc="docs/rules/gouji.md", default_bot="learned",
    card_notation="gouji", teams=_teams, windows=("burn", "xian"),
    # the match plays ``deals`` deals, or stops early when a team reaches ``target_score``
    match_end=MatchEnd(deals="count", default_deals=6, reason="deals"),
    glossary=("gouji",),
    action_words=tuple(dict.fromkeys((  # the seat digits of ``order`` overlap the rank words
        "pass", "no", "declare", "revolution", "object", "withdraw", "insist", "return", "burn", "xian",
        "open", "order", "draw", "foul", *RANK_WORDS, "0", "1", "2", "3", "4", "5"))),
    card_words=RANK_WORDS[:TWO + 1],  # 3 … 2 (the jokers' words are their cards' notation)
    hooks=GameHooks(action_data=action_data, make=_make, describe_action=describe_action, view_type=GouJiView,
                    bots=LazyBots(_bots), determinizer=Lazy(_determinizer)),
))

__all__ = ["PASS", "SPEC", "Burn", "GouJiGame", "GouJiOptions", "GouJiState", "GouJiView", "Play",
           "Return", "Word", "beats", "is_gouji", "parse_action", "parse_play"]
