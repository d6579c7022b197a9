"""Gou Ji's rules that the move generator and the bots call by name (issue 36, item 3):
the unbeatable wild red joker (docs/rules/gouji.md §3.2), the jokers that beat wild black
jokers (§3.2, §11.1), which cards stand wild in which sets (§3.1), the revolution hand
(§2.5) and the modern rules' held-back 3s and 4s (憋三, 开点: §9.1). Each row names its section; :func:`beats` and :func:`follow_plays` are checked to
say what these rules say. The bots' count of unseen cards asks the jokers' rule under the
deal's ``bj_wild_rule`` (§11.1), which binding tells the heuristic bot."""

from __future__ import annotations

import random

import pytest

from folkdeck import load
from folkdeck.agents import make_agent
from folkdeck.agents.search import SearchAgent
from folkdeck.games.gouji.agents import HeuristicAgent
from folkdeck.games.gouji.moves import follow_plays, lead_plays, rank_plays
from folkdeck.games.gouji.policy import TOTAL, SeatKnowledge, unbeatable, view_of_state
from folkdeck.games.gouji.rules import (
    BJ,
    NRANKS,
    RANK_WORDS,
    RJ,
    TWO,
    Play,
    beats,
    bie_san_allows,
    cannot_be_beaten,
    covers_black_jokers,
    kai_dian_allows,
    parse_counts,
    parse_play,
    revolution_hand,
    wild_ranks,
)
from folkdeck.games.gouji.state import GouJiState

BJ_RULES = ("count", "any_joker", "coverage")


@pytest.mark.parametrize(("top", "expected", "source"), [
    ("5 RJ", True, "§3.2 a set using a wild RJ cannot be beaten"),
    ("9 9 2 RJ", True, "§3.2 whatever else it holds"),
    ("RJ RJ", False, "§3.1: RJs of their own are natural, not wild"),
    ("BJ RJ", True, "§3.1, §11.8: BJ RJ is two BJs, the RJ wild"),
    ("5 BJ", False, "§3.2: a wild BJ only asks for jokers"),
    ("9 9", False, "§3.2"),
])
def test_cannot_be_beaten(top: str, expected: bool, source: str) -> None:
    play = parse_play(top)
    assert cannot_be_beaten(play) is expected, source
    if expected:
        assert not any(beats(p, play, rule) for p in lead_plays(parse_counts("A A A A 2 2 BJ BJ RJ RJ"))
                       for rule in BJ_RULES), source


@pytest.mark.parametrize(("new", "wild_bjs", "rule", "expected", "source"), [
    ("7 BJ", 1, "count", True, "§3.2, §11.1 count: as many jokers as the wild BJs"),
    ("7 7", 1, "count", False, "§3.2: no joker, no beat"),
    ("7 BJ", 2, "count", False, "§11.1 count: two wild BJs need two jokers"),
    ("BJ BJ", 1, "count", True, "§11.1: natural jokers count"),
    ("BJ BJ", 1, "coverage", False, "§11.1 coverage: natural all-joker sets carry none"),
    ("A RJ", 1, "coverage", True, "§11.1 coverage: a wild RJ covers a BJ"),
    ("7 RJ", 2, "any_joker", True, "§11.1 any_joker: one joker is enough"),
    ("7 2", 1, "any_joker", False, "§11.1 any_joker: a 2 is no joker"),
])
def test_covers_black_jokers(new: str, wild_bjs: int, rule: str, expected: bool, source: str) -> None:
    assert covers_black_jokers(parse_play(new), wild_bjs, rule) is expected, source


def test_beats_is_size_rank_and_the_joker_rules() -> None:
    """§3.2: the same size, a strictly higher rank, then the two joker rules by name."""
    rng = random.Random(36)
    plays = lead_plays(parse_counts("4 4 4 7 7 9 9 9 Q Q A 2 2 2 BJ BJ RJ RJ"))
    for _ in range(3000):
        new, top = rng.choice(plays), rng.choice(plays)
        for rule in BJ_RULES:
            expected = (new.size == top.size and new.rank > top.rank and not cannot_be_beaten(top)
                        and (not top.wbj or covers_black_jokers(new, top.wbj, rule)))
            assert beats(new, top, rule) is expected, (str(new), str(top), rule)


def test_follow_plays_on_joker_sets() -> None:
    """The move generator applies the same rules as :func:`beats` (§3.2, §11.1)."""
    hand = parse_counts("8 8 10 10 10 K 2 2 BJ RJ")
    for top in ("5 RJ", "5 BJ", "5 BJ BJ", "6 6 2", "Q BJ", "2 BJ"):
        t = parse_play(top)
        for rule in BJ_RULES:
            assert follow_plays(hand, t, rule) == [p for p in lead_plays(hand) if beats(p, t, rule)], (top, rule)


def test_wild_cards_join_only_lower_sets() -> None:
    """§3.1: every listed set's wild cards are of a rank :func:`wild_ranks` allows it."""
    assert [RANK_WORDS[w] for w in wild_ranks(0)] == ["2", "BJ", "RJ"]
    assert wild_ranks(RJ) == ()
    for rank in range(NRANKS):
        k = 0 if rank >= TWO else 3
        for p in rank_plays(rank, k, *((2, 2, 2) if rank < TWO else (2 if rank == TWO else 0, 2, 2))):
            used = {r for r, n in ((TWO, p.w2), (BJ, p.wbj), (RJ, p.wrj)) if n}
            assert used <= set(wild_ranks(rank)), (rank, str(p))


def test_the_policy_calls_a_wild_red_joker_unbeatable() -> None:
    """§3.2: the bots' count of unseen cards starts from the rule, not a copy of it."""
    view = SeatKnowledge(seat=0, hand=[0] * NRANKS, played=[0] * NRANKS)  # every card unseen
    assert unbeatable(view, parse_play("3 RJ"))
    assert not unbeatable(view, parse_play("3 3"))
    assert unbeatable(SeatKnowledge(seat=0, hand=[0] * NRANKS, played=list(TOTAL)), parse_play("3 3"))


@pytest.mark.parametrize(("rule", "expected", "source"), [
    ("count", True, "§3.2, §11.1 count: two wild BJs need two jokers; one is out"),
    ("coverage", True, "§11.1 coverage: two wild jokers; one is out"),
    ("any_joker", False, "§11.1 any_joker: one joker is enough, and 6 6 RJ is out"),
])
def test_the_policy_counts_jokers_by_the_deals_bj_rule(rule: str, expected: bool, source: str) -> None:
    """Unseen: one RJ and two 6s, nothing else; the set to beat is 5 BJ BJ."""
    unseen = parse_counts("6 6 RJ")
    played = [TOTAL[r] - unseen[r] for r in range(NRANKS)]
    view = SeatKnowledge(seat=0, hand=[0] * NRANKS, played=played, bj_rule=rule)
    top = parse_play("5 BJ BJ")
    assert unbeatable(view, top) is expected, source
    assert beats(parse_play("6 6 RJ"), top, rule) is not expected, source


@pytest.mark.parametrize(("preset", "rule"), [(None, "count"), ("modern", "coverage"), ("advanced", "any_joker")])
def test_the_bots_know_the_deals_bj_rule(preset: str | None, rule: str) -> None:
    """§11.1: the rollouts read the rule from the deal, the heuristic bot (a search bot's
    fallback too) from the game it is bound to; its thresholds too (§4.1, §11.2)."""
    game = load("gouji", preset, gouji_thresholds=("10:6",))
    state = game.new_state(seed=0)
    assert isinstance(state, GouJiState)
    assert view_of_state(state, 0).bj_rule == rule
    for name in ("heuristic", "search"):
        agent = make_agent(game.spec, name, game=game)
        bot = agent.fallback if isinstance(agent, SearchAgent) else agent
        assert isinstance(bot, HeuristicAgent)
        assert (bot.bj_rule, bot.thresholds) == (rule, {7: 6}), name
    kept = HeuristicAgent(thresholds={7: 3})
    kept.bind(game)
    assert kept.thresholds == {7: 3}


@pytest.mark.parametrize(("hand", "expected", "source"), [
    ("3 4 5 9 A A", True, "§2.5: no 2 and no joker"),
    ("3 4 5 2", False, "§2.5: a 2"),
    ("3 4 BJ", False, "§2.5: a joker"),
    ("3 4 RJ", False, "§2.5: a joker"),
])
def test_revolution_hand(hand: str, expected: bool, source: str) -> None:
    assert revolution_hand(parse_counts(hand)) is expected, source


@pytest.mark.parametrize(("play", "left", "expected", "source"), [
    ("3 3", 2, True, "§9.1 憋三: 3s as the whole last play"),
    ("3 3", 3, False, "§9.1 憋三: not while other cards remain"),
    ("3 3 2", 3, True, "§9.1: wild 2s may go with the last 3s"),
    ("3 BJ", 2, False, "§9.1 憋三: without jokers"),
    ("4 4", 9, True, "§9.1: only 3s are held back"),
])
def test_bie_san_allows(play: str, left: int, expected: bool, source: str) -> None:
    assert bie_san_allows(parse_play(play), left) is expected, source


@pytest.mark.parametrize(("play", "hand", "opened", "expected", "source"), [
    ("4 4", "4 4 9", False, False, "§9.1 开点: no 4s before opening"),
    ("4 4", "4 4 9", True, True, "§9.1 开点: 4s once opened"),
    ("4 4", "4 4 4", False, True, "§9.1 开点: unless the hand holds only 4s"),
    ("9", "4 9", False, True, "§9.1: only 4s are held back"),
])
def test_kai_dian_allows(play: str, hand: str, opened: bool, expected: bool, source: str) -> None:
    assert kai_dian_allows(parse_play(play), parse_counts(hand), opened) is expected, source


def test_the_modern_rules_bar_what_the_rules_bar() -> None:
    """§9.1: in seeded deals of the ``modern`` preset (憋三 on) and with 开点, a set the
    rules disallow is never offered to a seat that has a set they allow."""
    for options in ({"modern_bie_san": True}, {"modern_kai_dian": True, "modern_bie_san": True}):
        game = load("gouji", None, **options)
        rng = random.Random(9)
        barred = 0
        for seed in range(30):
            state = game.new_state(seed=seed)
            assert isinstance(state, GouJiState)
            while not state.is_over():
                d = state.deal
                legal = state.legal_actions()
                if d.phase == "play" and not d.window:
                    s = d.turn
                    ok = [p for p in lead_plays(d.counts[s]) if bie_san_allows(p, d.left[s])
                          and (not options.get("modern_kai_dian")
                               or kai_dian_allows(p, d.counts[s], bool(d.opened >> s & 1)))]
                    plays = [p for p in legal if isinstance(p, Play)]
                    barred += len(plays) < len(lead_plays(d.counts[s])) and d.top is None
                    if d.top is None and ok:
                        assert set(plays) == set(ok), (seed, s)
                state.apply(legal[rng.randrange(len(legal))])
        assert barred > 0, options
