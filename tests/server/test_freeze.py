"""A match never freezes between deals (issue 24): the person's move that ends a deal during
a bot's delay used to leave the next deal with nobody to deal it, even after a reload."""

from __future__ import annotations

import random
from pathlib import Path

from fastapi.testclient import TestClient

from folkdeck.server.main import create_app
from tests.server.conftest import create, make_settings, play_out, table_of, until_state


def test_a_person_ending_the_deal_during_the_bot_delay_gets_the_next_deal(tmp_path: Path) -> None:
    # Kap Hai for two (docs/rules/kaphai.md): a person against a bot, the person answering at
    # once, well within the bot's delay; the deals a person's move ends must lead on. (Before
    # the table's actor, this test hung in its first deal: nothing dealt the next.)
    settings = make_settings(tmp_path / "f.sqlite3", bot_delay=0.1, deal_pause=0.05)
    with TestClient(create_app(settings)) as client:
        ended_by_person = 0
        for seed in (2,):  # one of its deals ends with the person's move
            t = create(client, "kaphai", seed=seed, players=2, deals=3,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
            table = table_of(client, t["id"])
            with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
                last = play_out(ws, random.Random(seed), first=until_state(ws))
            assert last["table"]["match_over"], seed
            ended_by_person += sum(deal.actions[-1].startswith("0:") for deal in table.finished)
            assert table.match_over() and len(table.results) >= 3
        assert ended_by_person  # the case of the freeze was met
