"""The browser's modules checked under node (not a browser): ``web/i18n.js`` renders every
catalog entry exactly as ``folkdeck.i18n.Renderer`` does, with sample parameters of every
kind, in both languages; and ``web/model.js`` applied to a full state and the deltas after it
gives the same model as the last full state (the protocol in model.js), and refuses a delta
that does not fit (a wrong base, a history of the wrong length), so the page asks for a resync.
Skipped where node is missing."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.i18n import LANGUAGES, Renderer, catalog
from folkdeck.server import delta

ROOT = Path(folkdeck.__file__).parent
HARNESS = Path(__file__).with_name("harness.mjs")
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
NAMES = ["Ana", "Bo", "Chen", "Dara"]


def _node(payload: dict[str, Any]) -> dict[str, Any]:
    assert NODE is not None
    out = subprocess.run([NODE, str(HARNESS), (ROOT / "web").as_uri(), str(ROOT / "i18n")],
                         input=json.dumps(payload), capture_output=True, text=True, timeout=120, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _kinds(message: Any, found: dict[str, str | None], controls: dict[str, Any]) -> None:
    """The placeholders of a message (name -> kind) and its control parameters."""
    if isinstance(message, dict):
        for control in ("plural", "person", "select"):
            if control in message:
                controls[message[control]] = (control, [k for k in message if k not in (control, "other")])
        if "same" in message:
            for name in str(message["same"]).split():
                controls[name] = ("same", [])
        for value in message.values():
            _kinds(value, found, controls)
    elif isinstance(message, str):
        for name, kind in PLACEHOLDER.findall(message):
            found[name] = kind or found.get(name)  # a typed use says what the value is


def _params(message: Any, variant: int) -> dict[str, Any]:
    """Sample parameters: variant 0 the viewer's seat, one of a kind, a first choice; 1 others."""
    found: dict[str, str | None] = {}
    controls: dict[str, Any] = {}
    _kinds(message, found, controls)
    by_kind: dict[str, list[Any]] = {"seat": [0, 2], "seats": [[0, 2], [1, 3, 2]], "card": ["QH", "10S"], "cards": [["10S", "QH"], ["RJ"]],
               "term": ["pass", "no_such_term"], "place": [1, 23], "num": [2.5, 3.0]}
    params: dict[str, Any] = {name: by_kind[kind][variant] if kind in by_kind else ["x", 7][variant]
                              for name, kind in found.items()}
    for name, (control, choices) in controls.items():
        if control == "plural":
            params[name] = [1, 3][variant] if found.get(name) not in ("seats", "cards") else params[name]
        elif control == "person":
            params.setdefault(name, [0, 2][variant])
        elif control == "same":
            params[name] = [1, 1 + int(name == sorted(controls)[0])][variant]
        elif control == "select" and choices:
            first = {"true": True, "false": False, "null": None}.get(choices[0], choices[0])
            params[name] = first if variant == 0 else params.get(name, "zzz") if found.get(name) else "zzz"
    return params


def _game_of(key: str) -> str:
    parts = key.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in folkdeck.games() else ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_entry_renders_alike_in_python_and_javascript(lang: str) -> None:
    messages = catalog(lang)
    cases, expected = [], []
    for key, message in sorted(messages.items()):
        for variant in (0, 1):
            params = _params(message, variant)
            options = {"game": _game_of(key), "viewer": 0, "names": NAMES, "notation": "french", "symbols": variant == 1}
            cases.append({"key": key, "params": params, "options": options})
            expected.append(Renderer(lang, **options).message(key, params))  # type: ignore[arg-type]
    rendered = _node({"lang": lang, "cases": cases, "models": []})["rendered"]
    differ = [(c["key"], c["params"], e, r) for c, e, r in zip(cases, expected, rendered, strict=True) if e != r]
    assert not differ, f"{len(differ)} of {len(cases)} differ, e.g. {differ[:5]}"


# --- the model ------------------------------------------------------------------------------

def _states(game: str, players: int, seed: int) -> list[dict[str, Any]]:
    """The state messages a seat is sent through two seeded deals (its view and some public
    data, with a list of results that grows when a deal ends)."""
    g = folkdeck.load(game, players=players)
    match = g.new_match(deals=2, rng=random.Random(seed))
    rng = random.Random(seed)
    agents = [make_agent(g.spec, "random") for _ in range(players)]
    out: list[dict[str, Any]] = []
    results: list[int] = []
    for deal in (1, 2):
        state = match.next_deal()
        for _ in range(10_000):
            obs = state.observe(0).to_dict()
            may_act = 0 in state.to_act
            obs["legal_actions"] = [str(a) for a in state.legal_actions(0)] if may_act else []
            out.append({"type": "state", "v": len(out) + 1, "you": 0, "may_act": may_act, "obs": obs,
                        "table": {"game": game, "actions": len(state.history), "deal": deal,
                                  "results": list(results)}})
            if state.is_over():
                break
            seat = state.to_act[0]
            state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
        else:
            raise AssertionError("the deal did not end")
        match.finish_deal(state)
        results.append(deal)
        if match.is_over():
            break
    return out


def _delta(old: dict[str, Any], new: dict[str, Any]) -> delta.Delta:
    """The delta from ``old`` to ``new`` as the server sends it (model.js's protocol)."""
    sent = delta.diff({k: v for k, v in old.items() if k != "v"}, {k: v for k, v in new.items() if k != "v"}, new["v"])
    assert sent is not None and sent["base"] == old["v"]
    return sent


@pytest.mark.parametrize(("game", "players"), [("kaphai", 4), ("gouji", 6), ("cambio", 4), ("burro_es", 4)])
def test_a_state_and_its_deltas_give_the_last_full_state(game: str, players: int) -> None:
    states = _states(game, players, seed=5)
    deltas = [_delta(a, b) for a, b in zip(states, states[1:], strict=False)]
    assert any("merge" in d for d in deltas)  # the table's facts change by their changed keys
    if states[-1]["table"]["deal"] == 2:  # a new deal: a delta that begins the history again, results appended
        assert any(d["obs"].get("restart") for d in deltas) and any("append" in d for d in deltas)
    midway = len(states) // 2
    wrong_base = {**deltas[-1], "base": deltas[-1]["base"] - 1}
    short = {**deltas[0], "obs": {**deltas[0]["obs"], "history_len": deltas[0]["obs"]["history_len"] + 1}}
    models = _node({"lang": "en", "cases": [], "models": [
        [states[0], *deltas],                                  # every step as a delta
        [states[0], *deltas[:midway], states[midway], *deltas[midway:]],  # a full state at any time
        [states[0], *deltas[:-1], wrong_base],                 # a delta on another base: resync
        [states[0], short],                                    # a history of the wrong length: resync
        [deltas[0]],                                           # a delta before any state: resync
    ]})["models"]
    assert models[0] == states[-1]
    assert models[1] == states[-1]
    assert models[2] is None and models[3] is None and models[4] is None


RECORDS = ROOT.parents[1] / "examples" / "records"


@pytest.mark.parametrize("name", ["gouji-normal-deal", "cambio-horse-chain", "burro_es-bots", "kaphai-greedy-deal"])
def test_a_replay_answer_rebuilds_every_step_whole(name: str) -> None:
    """``POST /api/replay``'s steps (the first whole, then deltas) rebuilt by model.js's
    ``replaySteps`` are the steps of the whole form (``?steps=full``); a step whose delta does
    not fit the one before gives null (the viewer says so, never shows a wrong table)."""
    from folkdeck.server.replay import replay_text

    text = (RECORDS / f"{name}.json").read_text()
    compact = json.loads(replay_text(text, "1", "delta")[1])
    whole = json.loads(replay_text(text, "1", "full")[1])
    broken = {**compact, "steps": [*compact["steps"][:2], *compact["steps"][3:]]}  # a step left out
    mixed = {**compact, "steps": [*compact["steps"][:3], whole["steps"][3], *compact["steps"][4:]]}
    replays = _node({"lang": "en", "cases": [], "models": [], "replays": [compact, whole, broken, mixed]})["replays"]
    assert replays[0] == whole["steps"] and replays[1] == whole["steps"] and replays[3] == whole["steps"]
    assert replays[2] is None


# --- the Latin packs' suits ---------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_latin_pack_names_each_card_by_its_suit_with_suit_words(lang: str) -> None:
    """With ``suitWords`` (the table's and the replay's renderers) a card of the Spanish or
    Portuguese pack reads as its rank and its suit's name from the game's catalog, "12 espadas"
    (docs/rules/cangkul.md §4 and §5.1 name the suits), never "12E" or "12C"; a French pack
    keeps its ♠, and so does the French-suited Portuguese pack beside its suit's name ("R♣ paus":
    pagat.com, "Card games in Portugal"); without the option the renderer is Python's (the parity above)."""
    messages = catalog(lang)
    template = messages["ui.play_cards"]

    def play(*shown: str) -> str:
        return str(template).replace("{cards:cards}", str(messages["ui.list_separator"]).join(shown))

    def suit(game: str, key: str) -> str:
        return str(messages[f"term.{game}.{key}"])

    words = {"symbols": True, "suitWords": True}
    cases = [("burro_es", "spanish", ["KS", "QH"], words, play(f"12 {suit('burro_es', 'spades')}", f"11 {suit('burro_es', 'hearts')}")),
             ("burro_pt", "portuguese", ["KC", "AD"], words, play(f"R♣ {suit('burro_pt', 'clubs')}", f"A♦ {suit('burro_pt', 'diamonds')}")),
             ("cangkul", "french", ["KS", "QH"], words, Renderer(lang, game="cangkul", notation="french", symbols=True)
              .message("ui.play_cards", {"cards": ["KS", "QH"]})),
             ("burro_es", "spanish", ["KS"], {"symbols": True}, Renderer(lang, game="burro_es", notation="spanish", symbols=True)
              .message("ui.play_cards", {"cards": ["KS"]}))]
    rendered = _node({"lang": lang, "models": [], "cases": [
        {"key": "ui.play_cards", "params": {"cards": cards}, "options": {"game": game, "notation": notation, **options}}
        for game, notation, cards, options, _ in cases]})["rendered"]
    assert rendered == [want for *_, want in cases]
    assert not any(re.search(r"\b1[0-2][ECOB]\b", text) for text in rendered[:2]), rendered
