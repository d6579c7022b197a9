"""The documents' examples work: every JSON record in docs/records.md replays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import folkdeck
from folkdeck.engine.record import loads

DOCS = Path(__file__).resolve().parents[1] / "docs"
BLOCKS = re.findall(r"```json\n(.*?)```", (DOCS / "records.md").read_text(encoding="utf-8"), re.S)
RECORDS = [b for b in BLOCKS if '"game"' in b and '"actions"' in b and '"folkdeck-match/1"' not in b]
MATCHES = [b for b in BLOCKS if '"folkdeck-match/1"' in b]


def test_the_records_document_has_an_example_per_game() -> None:
    games = {json.loads(b)["game"] for b in RECORDS}
    assert {"kaphai", "gouji", "cambio"} <= games
    assert games & {"cangkul", "burro_es", "burro_pt"}


@pytest.mark.parametrize("block", RECORDS)
def test_every_record_in_the_docs_replays(block: str) -> None:
    state = loads(block).replay()
    assert state.num_players >= 2


@pytest.mark.parametrize("block", MATCHES)
def test_every_match_record_in_the_docs_replays_to_its_standings(block: str) -> None:
    from folkdeck.engine.match_record import loads as load_match

    replayed = load_match(block).replay()
    assert replayed.standings.deals_played == len(json.loads(block)["deals"])


@pytest.mark.parametrize("path", sorted((DOCS.parent / "examples" / "records").glob("*.json")),
                         ids=lambda p: p.name)
def test_every_example_record_replays(path: Path) -> None:
    loads(path.read_text(encoding="utf-8")).replay()


def test_the_events_document_lists_every_fact_type_and_its_fields() -> None:
    """docs/events.md names every event type with each of its fields."""
    import dataclasses
    import importlib

    from folkdeck.engine.facts import fact_types

    for name in folkdeck.games():  # each game's facts register when its events module loads
        importlib.import_module(folkdeck.get_spec(name).make.__module__ + ".events")
    text = (DOCS / "events.md").read_text(encoding="utf-8")
    missing = []
    for code, cls in fact_types().items():
        if f"`{code}`" not in text:
            missing.append(code)
            continue
        section = text[text.index(f"`{code}`"):][:1500]
        missing += [f"{code}.{f.name}" for f in dataclasses.fields(cls) if f"`{f.name}`" not in section
                    and f.name not in section]
    assert not missing, missing
