"""A hash of every event, view and result of seeded random deals and matches, per game and preset.

    python benchmarks/game_hashes.py --seeds 300 > after.txt
    PYTHONPATH=/tmp/before/src python benchmarks/game_hashes.py --seeds 300 > before.txt
    diff before.txt after.txt        # no output: the same games, event for event

Each line is ``game preset hash``: deal ``s`` of a game is dealt from ``seed=s`` and played by
uniformly random legal choices drawn from ``random.Random(s)`` (``legal[randrange(len(legal))]``);
every event's line and JSON, the final public view, every seat's final view and the result go
into the hash. A short match per game (seed ``s`` for the match's random, the first few seeds
only) adds its deal facts and standings. A refactoring that keeps every line kept every game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import folkdeck


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=str).encode()


def deal_hash(name: str, preset: str | None, seeds: int) -> str:
    game = folkdeck.load(name, preset=preset)
    digest = hashlib.blake2b(digest_size=8)
    for seed in range(seeds):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            legal = state.legal_actions()
            event = state.apply(legal[rng.randrange(len(legal))])
            digest.update(event.line.encode())
            digest.update(_dump(event.to_dict()))
        digest.update(_dump(state.observe(None).to_dict()))
        for seat in range(state.num_players):
            digest.update(_dump(state.observe(seat).to_dict()))
        result = state.result()
        digest.update(_dump(result.to_dict() if result is not None else None))
    return digest.hexdigest()


def match_hash(name: str, preset: str | None, matches: int) -> str:
    game = folkdeck.load(name, preset=preset)
    digest = hashlib.blake2b(digest_size=8)
    for seed in range(matches):
        match = game.new_match(deals=3, rng=random.Random(seed))
        rng = random.Random(1000 + seed)
        deals = 0
        while not match.is_over() and deals < 3:
            state = match.next_deal()
            while not state.is_over():
                legal = state.legal_actions()
                event = state.apply(legal[rng.randrange(len(legal))])
                digest.update(event.line.encode())
            digest.update(_dump([f.to_dict() if hasattr(f, "to_dict") else f
                                 for f in match.finish_deal(state)]))
            digest.update(_dump(match.standings().to_dict()))
            deals += 1
        digest.update(_dump([f.to_dict() if hasattr(f, "to_dict") else f for f in match.report()]))
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    for name in args.games or folkdeck.games():
        spec = folkdeck.get_spec(name)
        for preset in (None, *spec.presets):
            label = preset or "-"
            print(name, label, "deals", deal_hash(name, preset, args.seeds), flush=True)
            print(name, label, "match", match_hash(name, preset, args.matches), flush=True)


if __name__ == "__main__":
    main()
