"""A Cambio session cut short by a number of deals (docs/rules/cambio.md §6.22): the game in
progress is settled as an undecided game (§6.6 split_pot) and the most chips win."""

from __future__ import annotations

import random

from folkdeck import load
from folkdeck.engine.facts import Fact, MatchEnded, PotWon
from folkdeck.games.cambio import KEEP, CambioMatch
from folkdeck.games.cambio.events import SessionWon
from folkdeck.i18n import Renderer


def _forced(match: CambioMatch, hands: list[str]) -> tuple[Fact, ...]:
    """Play the match's next deal with the given cards (everyone keeps)."""
    setup = match.next_deal().deal_info()["setup"]
    state = match.game.new_state(hands=[[h] if h else [] for h in hands], setup=setup)
    while not state.is_over():
        state.apply(KEEP)
    return match.finish_deal(state)


def _capped() -> tuple[CambioMatch, tuple[Fact, ...]]:
    """Seat 2 pays 1, 2, 3 (18 chips left); in deal 4 seat 0 is eliminated with 24 chips,
    and the cap of 4 deals ends the session with seats 1 and 2 still in the game."""
    match = load("cambio", players=3).new_match(deals=4, rng=random.Random(5))
    assert isinstance(match, CambioMatch)
    for _ in range(3):
        _forced(match, ["9", "7", "2"])
    assert match.chips == [24, 24, 18] and match.pot == 9
    return match, _forced(match, ["1", "7", "9"])


def test_the_cap_settles_the_pot_among_the_players_still_in() -> None:
    match, facts = _capped()
    pot = [f for f in facts if isinstance(f, PotWon)]
    assert len(pot) == 1 and sorted(pot[0].seats) == [1, 2] and pot[0].amount == 9
    assert match.pot == 0 and sum(match.chips) == 3 * 25
    assert match.chips[0] == 24 and sorted(match.chips[1:]) in ([22, 29], [23, 28])


def test_the_cap_names_the_winner_by_chips() -> None:
    match, facts = _capped()
    best = max(match.chips)
    assert best == match.chips[1]
    assert SessionWon(seats=(1,), chips=best) in facts
    assert facts[-1] == MatchEnded(reason="deal_limit", winners=(1,))
    standings = match.standings()
    assert standings.over and standings.eliminated == ()
    assert standings.ranking == (1, 0, 2)  # the eliminated seat 0 (24) ranks above seat 2


def test_the_winner_is_told_in_both_catalogs() -> None:
    won = SessionWon(seats=(1,), chips=28)
    assert Renderer("en", viewer=1).fact(won) == "The deal limit ends the session: you win with 28 chips"
    assert "28" in Renderer("en", viewer=0).fact(won) and "you" not in Renderer("en", viewer=0).fact(won)
    assert Renderer("ja", viewer=1).fact(won) == "ディール数の上限でセッション終了：チップ28枚を持つあなたの勝ちです"
    shared = SessionWon(seats=(0, 1), chips=26)
    assert "seat 0 and seat 1 share" in Renderer("en").fact(shared)
    assert "席0、席1の勝ち" in Renderer("ja").fact(shared)
