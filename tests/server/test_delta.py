"""Deltas rebuild every view (issue 24): over random deals of every registered game, the
view a client rebuilds from its first state and the deltas after it equals the whole state
message for every seat and the spectators, after every event (deals dealt again and new
deals included: those go whole)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import folkdeck
from folkdeck.engine.options import options_to_dict
from folkdeck.server import delta
from folkdeck.server.tables import Connection, Table, encode


class Client(Connection):
    """A connection that decodes what it is sent and rebuilds the view as a browser does."""

    def __init__(self) -> None:
        super().__init__(lambda text: None, 8)
        self.view: dict[str, Any] | None = None
        self.sizes: list[int] = []

    def push(self, message: dict[str, Any]) -> None:
        text = encode(self._versioned(message))
        self.sizes.append(len(text.encode()))
        sent = json.loads(text)
        if sent["type"] == "state":
            self.view = sent
        else:
            assert self.view is not None and sent["base"] == self.view["v"]
            self.view = delta.apply(self.view, sent)


def _table(name: str, seed: int) -> Table:
    spec = folkdeck.get_spec(name)
    game = folkdeck.load(name)
    players = game.num_players
    config = {"game": name, "options": {**options_to_dict(game.options), "players": players},
              "deals": None if spec.match_end.deals == "none" else 2, "seed": seed, "practice": True,
              "seats": [{"kind": "human", "bot": None, "name": f"P{i + 1}", "token": None} for i in range(players)],
              "watch": "-", "turn_seconds": 0, "auto_bot": spec.default_bot}
    table = Table.new(f"t-{name}", config)
    table.now = lambda: 0.0
    return table


@pytest.mark.parametrize("name", folkdeck.games())
def test_the_view_rebuilt_from_deltas_is_the_whole_view(name: str) -> None:
    _rebuild(name, seeds=(1,), events=250)


@pytest.mark.slow
@pytest.mark.parametrize("name", folkdeck.games())
def test_the_view_rebuilt_from_deltas_is_the_whole_view_over_whole_matches(name: str) -> None:
    _rebuild(name, seeds=(2, 3, 4), events=5000)


def _rebuild(name: str, seeds: tuple[int, ...], events: int) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        table = _table(name, seed)
        viewers: list[int | None] = [None, *range(table.num_players)]
        clients = {seat: Client() for seat in viewers}
        for _ in range(events):
            public = table.public()
            for seat, client in clients.items():
                whole = table.view(seat, public)
                client.push(whole)
                assert client.view is not None and {k: v for k, v in client.view.items() if k != "v"} == whole
            state = table.state
            if state.is_over():
                if not table.finish_deal_if_over() or not table.start_next_deal():
                    break
                continue
            seat = rng.choice(state.to_act)
            legal = state.legal_actions(seat)
            if not legal:
                seat = state.to_act[0]
                legal = state.legal_actions(seat)
            state.apply(rng.choice(legal), seat)
            table.finish_deal_if_over()
        assert all(c.sizes for c in clients.values())


def test_a_missed_delta_does_not_apply() -> None:
    view: dict[str, Any] = {"type": "state", "v": 3, "obs": {"history": [1, 2]}}
    stale: Any = {"type": "delta", "v": 5, "base": 4, "set": {}, "obs": {"history": [4], "history_len": 4,
                                                                      "set": {}, "drop": []}}
    with pytest.raises(ValueError):
        delta.apply(view, stale)
