"""The browser renders exactly as ``folkdeck.i18n.Renderer``: ``web/i18n.js`` run in chromium
against the Python renderer on the facts and refusals of seeded deals of every game, in
both languages, seen by a seat ("you") and by a spectator.

Both read the same catalogs (``/i18n/<lang>.json`` is ``folkdeck.i18n.catalog``), so a
difference is a difference of the template language ({x:seat}, plural, person, same,
select...), which this test pins down.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.facts import fact_from_dict
from folkdeck.i18n import Renderer

GAMES = list(folkdeck.games())
NAMES = ["Ana", "Bo", "Chen", "Dara", "Eli", "Fen"]


def _samples(game: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Facts (history, status, deal and match reports) and refusals of two seeded deals."""
    facts: dict[str, dict[str, Any]] = {}
    errors: dict[str, dict[str, Any]] = {}

    def keep(fact: Any) -> None:
        data = fact.to_dict()
        facts.setdefault(json.dumps(data, sort_keys=True), data)

    g = folkdeck.load(game)
    rng = random.Random(11)
    match = g.new_match(deals=2, rng=random.Random(11))
    for _ in range(2):
        state = match.next_deal()
        for fact in match.report():
            keep(fact)
        agents = [make_agent(g.spec, "random") for _ in range(state.num_players)]
        while not state.is_over():
            seat = state.to_act[0]
            for probe in ("2S 2S 2S 2S 2S", "pass", "3H"):  # refusals with their reason and params
                if probe not in {str(a) for a in state.legal_actions(seat)}:
                    try:
                        state.clone().apply(probe, seat)
                    except CardGameError as exc:
                        data = {"reason": exc.reason, "params": dict(exc.params)}
                        errors.setdefault(json.dumps(data, sort_keys=True), data)
            state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
            view = state.observe(0)
            for fact in view.status:
                keep(fact)
            last = view.history[-1]
            for seen in (last.act, *last.facts):
                if seen is not None:
                    keep(seen)
        for fact in match.finish_deal(state):
            keep(fact)
        if match.is_over():
            break
    return list(facts.values())[:300], list(errors.values())[:40]


SCRIPT = """async ({lang, game, notation, names, viewers, facts, errors}) => {
  const m = await import('/static/i18n.js');
  await m.setLang(lang);
  const out = [];
  for (const viewer of viewers) {
    const r = new m.Renderer({game, viewer, names, notation, symbols: true});
    out.push(facts.map((f) => r.fact(f)), errors.map((e) => r.error(e)));
  }
  return out;
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_browser_renders_as_the_python_renderer(server: str, browser: Any, game: str) -> None:
    facts, errors = _samples(game)
    assert len(facts) > 5
    spec = folkdeck.get_spec(game)
    page = browser.new_page()
    try:
        page.goto(server + "/replay")
        page.wait_for_load_state("networkidle")
        for lang in ("en", "ja"):
            browser_text = page.evaluate(SCRIPT, {"lang": lang, "game": game, "notation": spec.card_notation,
                                                  "names": NAMES, "viewers": [0, None], "facts": facts, "errors": errors})
            for k, viewer in enumerate((0, None)):
                r = Renderer(lang, game=game, viewer=viewer, names=NAMES, notation=spec.card_notation, symbols=True)
                expected_facts = [r.fact(fact_from_dict(f)) for f in facts]
                expected_errors = [r.error(CardGameError(e["reason"], **e["params"])) for e in errors]
                got_facts, got_errors = browser_text[2 * k], browser_text[2 * k + 1]
                for fact, want, got in zip(facts, expected_facts, got_facts, strict=True):
                    assert got == want, f"{game} {lang} viewer {viewer}: {fact}"
                for error, want, got in zip(errors, expected_errors, got_errors, strict=True):
                    assert got == want, f"{game} {lang} viewer {viewer}: {error}"
    finally:
        page.close()
