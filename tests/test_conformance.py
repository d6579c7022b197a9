"""The conformance suite: every registered game, preset and player count.

Each case plays seeded random deals through the public protocol with every check
of :mod:`folkdeck.engine.conformance` at every step. The default run covers
hundreds of deals per game; ``-m slow`` (run by CI as its own step) thousands.
"""

from __future__ import annotations

import pytest

import folkdeck
from folkdeck.engine.conformance import check_deal, fingerprint
from folkdeck.engine.registry import get_spec


def _cases() -> list[tuple[str, str | None, int]]:
    cases: list[tuple[str, str | None, int]] = []
    for name in folkdeck.games():
        spec = get_spec(name)
        for players in sorted({spec.min_players, spec.default_players, spec.max_players}):
            cases.append((name, None, players))
        for preset in spec.presets:
            cases.append((name, preset, spec.default_players))
    return cases


CASES = _cases()
IDS = [f"{g}-{p or 'default'}-{n}p" for g, p, n in CASES]
# Deals per case in the fast run (a Gou Ji deal with every check costs seconds; the slow run
# below plays thousands).
FAST_DEALS = {"gouji": 1, "cangkul": 6, "burro_es": 6, "burro_pt": 6}


@pytest.mark.parametrize(("name", "preset", "players"), CASES, ids=IDS)
def test_random_deals_keep_every_invariant(name: str, preset: str | None, players: int) -> None:
    game = folkdeck.load(name, preset, players=players)
    for seed in range(FAST_DEALS.get(name, 12)):
        check_deal(game, seed)



# Deals per case in the slow run: thousands in all (about 3,700 over every game and preset;
# CI runs them on the compiled build, .ci/run). A Gou Ji deal (216 cards,
# hundreds of steps) costs a hundred times a Cambio deal, so it gets fewer per case.
SLOW_DEALS = {"gouji": 12, "cambio": 400}
SLOW_DEALS_DEFAULT = 100


@pytest.mark.slow
@pytest.mark.parametrize(("name", "preset", "players"), CASES, ids=IDS)
def test_thousands_of_random_deals(name: str, preset: str | None, players: int) -> None:
    game = folkdeck.load(name, preset, players=players)
    for seed in range(1000, 1000 + SLOW_DEALS.get(name, SLOW_DEALS_DEFAULT)):
        check_deal(game, seed, views_every=5)


@pytest.mark.parametrize("name", folkdeck.games())
def test_same_seed_same_game(name: str) -> None:
    game = folkdeck.load(name)
    a = check_deal(game, 99, views_every=1000, twins_every=1000)  # determinism, not the views
    b = check_deal(game, 99, views_every=1000, twins_every=1000)
    assert [e.line for e in a.history] == [e.line for e in b.history]
    assert fingerprint(a) == fingerprint(b)


@pytest.mark.parametrize("name", folkdeck.games())
def test_unknown_option_is_refused(name: str) -> None:
    with pytest.raises(folkdeck.InvalidConfigError, match="unknown option 'no_such_rule'"):
        folkdeck.load(name, no_such_rule=True)
