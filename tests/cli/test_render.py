"""The terminal's renderer: views, events, options and standings from data, in both languages."""

from __future__ import annotations

import dataclasses
import io

import pytest
from rich.console import Console

from folkdeck import load
from folkdeck.cards import parse_cards
from folkdeck.cli.errors import CliError, render_error
from folkdeck.cli.render import (
    TerminalRenderer,
    default_language,
    event_lines,
    option_label,
    plain,
    result_lines,
    standings_lines,
    styled,
    view_lines,
)
from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.facts import Drew, Passed, Played, TrickWon, WentOut
from folkdeck.engine.protocol import Standings
from folkdeck.engine.view import TablePlay, View, ViewEvent


def _view(**changes: object) -> View:
    view = View(game="demo", seat=1, num_players=3, phase="play", hand=parse_cards("3S 10H KD"),
                counts=(4, 3, None), to_act=(2,), current_seat=2, legal_actions=(),
                table=(TablePlay(seat=0, cards=parse_cards("9C 9H")),),
                top=TablePlay(seat=0, cards=parse_cards("9C 9H")), passed=(0,), out=(), stock=(12,),
                status=(WentOut(seat=0, place=1),))
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def _lines(view: View, lang: str, viewer: int | None = 1, **kw: object) -> list[str]:
    r = TerminalRenderer(lang, game="demo", viewer=viewer)
    return [plain(line) for line in view_lines(view, r, **kw)]  # type: ignore[arg-type]


def test_a_view_is_drawn_from_its_core_fields() -> None:
    assert _lines(_view(), "en") == [
        "Seat 0 goes out in 1st place",
        "Your hand (3 cards): 3♠ 10♥ K♦",
        "Cards held: seat 0: 4 (passed) · you: 3 · ▶ seat 2: ?",
        "Stock: 12 cards",
        "On the table: seat 0: 9♣ 9♥",
        "To beat: 9♣ 9♥ (seat 0)",
        "Waiting for seat 2",
    ]
    assert _lines(_view(), "ja") == [
        "席0が上がりました（1位）",
        "あなたの手札（3枚）：3♠ 10♥ K♦",
        "手札の枚数：席0 4枚（パス）、あなた 3枚、▶席2 ?枚",
        "山札：12枚",
        "場：席0 9♣ 9♥",
        "場の最上位：9♣ 9♥（席0）",
        "席2の番です",
    ]


def test_plurals_piles_teams_and_places() -> None:
    view = _view(hand=parse_cards("AS"), stock=(1, 3), out=(0,), current_seat=1, to_act=(1,),
                 status=(), table=(), top=None)
    lines = _lines(view, "en", teams=((0, 2), (1,)))
    assert lines == ["Your hand (1 card): A♠",
                     "Cards held: seat 0: 4 (team 1 · out, 1st) · ▶ you: 3 (team 2) · seat 2: ? (team 1)",
                     "Stock piles: 1 and 3 cards", "Your turn"]
    over = _view(result={"placings": [2, 1, None], "returns": [1.0, 3.0, -2.0], "reason": "out"},
                 current_seat=None, to_act=())
    assert _lines(over, "en")[-1] == "Places: 1st you (+3) · 2nd seat 0 (+1) · seat 2, unplaced (-2)"


def test_the_status_and_phase_are_said_again_only_when_they_change() -> None:
    r = TerminalRenderer("en", game="demo", viewer=1)
    first = _view()
    assert "Seat 0 goes out in 1st place" not in [plain(x) for x in view_lines(first, r, since=first)]
    later = dataclasses.replace(first, status=())
    assert [plain(x) for x in view_lines(later, r, since=first)][0].startswith("Your hand")
    changed = dataclasses.replace(first, status=(WentOut(seat=2, place=2),))
    assert plain(view_lines(changed, r, since=first)[0]) == "Seat 2 goes out in 2nd place"


def test_a_spectator_sees_no_hand_and_no_you() -> None:
    lines = _lines(_view(seat=None, hand=None), "en", viewer=None)
    assert not any("hand" in line.lower() or "you" in line.lower() for line in lines)


def test_suits_are_coloured_readably_on_light_and_dark_terminals() -> None:
    r = TerminalRenderer("en", game="demo")
    console = Console(file=io.StringIO(), force_terminal=True, color_system="standard", width=200)
    console.print(styled(r.format("{c:cards}", {"c": parse_cards("3S 10H KD 4C")}) + " RJ " +
                         r.cards(("BJ", "RJ"))))
    ansi = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[1;31m10♥" in ansi and "\x1b[1;31mK♦" in ansi and "\x1b[1;31mRJ" in ansi
    assert "\x1b[1m3♠" in ansi and "\x1b[1m4♣" in ansi and "\x1b[1mBJ" in ansi  # the default colour
    assert "97m" not in ansi and "37m" not in ansi  # never (bright) white


def test_cards_show_in_the_game_notation() -> None:
    r = TerminalRenderer("en", game="demo", notation="spanish")
    assert plain(r.cards(parse_cards("QC AH"))) == "11🪵 1🍷"
    assert plain(TerminalRenderer("en", notation="cucco").cards(("OWL", "HOUSE"))) == "OWL HOUSE"


def test_events_options_and_the_viewer_as_you() -> None:
    r = TerminalRenderer("en", game="demo", viewer=2)
    event = ViewEvent(index=4, seat=2, action="4C 4D", act=Played(seat=2, cards=parse_cards("4C 4D")),
                      facts=(TrickWon(seat=2, leader=2),))
    assert [plain(x) for x in event_lines(event, r)] == ["You play 4♣ 4♦", "You win the trick and lead"]
    bare = ViewEvent(index=5, seat=0, action="declare", act=None)
    assert [plain(x) for x in event_lines(bare, r)] == ["Seat 0: declare"]
    assert plain(option_label(Played(seat=2, cards=parse_cards("4C 4D")), "4C 4D", r)) == "4♣ 4♦"
    assert option_label(Passed(seat=2), "pass", r) == "pass"
    assert option_label(Passed(seat=2), "pass", TerminalRenderer("ja", viewer=2)) == "パス"
    assert option_label(Drew(seat=2, card=None, pile=1), "draw right", r) == "draw (right pile)"
    assert option_label(TrickWon(seat=2, leader=2), "x", r) == "You win the trick and lead"  # no short form
    assert option_label(None, "declare", r) == "declare"


def test_standings_best_first_with_units_plurals_teams_and_eliminations() -> None:
    r = TerminalRenderer("en", game="demo", viewer=0)
    standings = Standings(deals_played=2, deals_limit=5, over=False, unit="points", scores=(1.0, 3.0, 0.0))
    assert [plain(x) for x in standings_lines(standings, r)] == [
        "Deals played: 2 of 5", "1. seat 1: 3 points", "2. you: 1 point", "3. seat 2: 0 points"]
    chips = Standings(deals_played=3, deals_limit=None, over=True, unit="chips", scores=(0.0, 9.0, 1.0),
                      eliminated=(0,))
    assert [plain(x) for x in standings_lines(chips, TerminalRenderer("en"))] == [
        "Deals played: 3", "1. seat 1: 9 chips", "2. seat 2: 1 chip", "3. seat 0: 0 chips (eliminated)"]
    teams = Standings(deals_played=1, deals_limit=1, over=True, unit="points", scores=(2.0, -2.0, 2.0, -2.0))
    assert [plain(x) for x in standings_lines(teams, TerminalRenderer("ja"), ((0, 2), (1, 3)))] == [
        "ディール：1／1", "1位 席0、席2：2点", "2位 席1、席3：-2点"]
    tied = Standings(deals_played=1, deals_limit=1, over=True, unit="penalties", scores=(1.0, 0.0, 1.0),
                     higher_wins=False)
    assert [plain(x) for x in standings_lines(tied, TerminalRenderer("en"))][1:] == [
        "1. seat 1: 0 penalties", "2. seat 0: 1 penalty", "2. seat 2: 1 penalty"]


def test_the_terminals_refusals_and_record_errors_render_in_both_languages() -> None:
    err = CliError("no_such_choice", choice=99, count=12)
    assert render_error(err, "en") == "there is no play 99: type a number from 1 to 12, or the action itself"
    assert render_error(err, "ja") == "99番の手はありません：1〜12の番号か、アクションそのものを入力してください"
    bad = MalformedRecordError("not_object", field="deals[0]")
    assert render_error(bad, "ja") == "記録の形式が不正です：deals[0]: JSONオブジェクトでなければなりません"


@pytest.mark.parametrize(("env", "lang"), [({"LANG": "ja_JP.UTF-8"}, "ja"), ({"LANG": "en_US.UTF-8"}, "en"),
                                           ({"LANG": "fr_FR.UTF-8"}, "en"), ({}, "en"),
                                           ({"LC_ALL": "ja_JP", "LANG": "en_US"}, "ja"),
                                           ({"LC_MESSAGES": "ja_JP.UTF-8"}, "ja"), ({"LANG": "C.UTF-8"}, "en")])
def test_the_default_language_comes_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert default_language(env) == lang


def test_a_gouji_result_shows_what_each_place_earned_beside_the_team_score() -> None:
    """docs/rules/gouji.md §8 (the Japanese Gou Ji page's score table): places score +4, +2,
    0, 0, −2, −4 and each team adds its members' up; the result line shows both (issue 25)."""
    result = {"placings": [1, 2, 3, 4, 5, 6], "returns": [2.0, -2.0, 2.0, -2.0, 2.0, -2.0],
              "place_points": [4, 2, 0, 0, -2, -4], "team_scores": [2, -2]}
    en = plain(result_lines(result, 6, TerminalRenderer("en", game="gouji"))[0])
    assert en.startswith("Places: 1st seat 0: +4 (team +2) · 2nd seat 1: +2 (team -2) · 3rd seat 2: 0 (team +2)")
    assert en.endswith("6th seat 5: -4 (team -2)")
    ja = plain(result_lines(result, 6, TerminalRenderer("ja", game="gouji"))[0])
    assert ja.startswith("順位：1位 席0：+4点（チーム+2）、2位 席1：+2点（チーム-2）")
    # a game without place points keeps the plain row
    assert plain(result_lines({"placings": [2, 1], "returns": [-1.0, 1.0]}, 2, TerminalRenderer("en"))[0]) == \
        "Places: 1st seat 1 (+1) · 2nd seat 0 (-1)"


def test_a_choice_says_what_it_does_in_the_window_open() -> None:
    """Issue 35 (10): Gou Ji's "no" is offered as what it does where the game words it
    (``term.gouji.action.no`` by window: 宣言しない, "don't declare"), never as the sentence
    it will produce ("you answered no")."""
    game = load("gouji")
    state = game.new_state(seed=0)
    seat = state.to_act[0]
    window = str(getattr(state.observe(seat), "window", ""))
    assert window == "start"
    describe = game.spec.describe_action
    assert describe is not None

    def shown(lang: str) -> list[str]:
        r = TerminalRenderer(lang, game="gouji", viewer=seat)
        return [option_label(describe(seat, a), a, r, window) for a in state.legal_actions(seat)]

    labels = {lang: shown(lang) for lang in ("en", "ja")}
    assert labels == {"en": ["declare", "don't declare"], "ja": ["宣言する", "宣言しない"]}
    assert option_label(None, "no", TerminalRenderer("ja", game="gouji"), "revolution") == "革命しない"
