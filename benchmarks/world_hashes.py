"""A hash of the worlds each game's determinizer deals from seeded positions, per game and preset.

    python benchmarks/world_hashes.py > after.txt
    PYTHONPATH=/tmp/before/src python benchmarks/world_hashes.py > before.txt
    diff before.txt after.txt        # no output: the same worlds, card for card

The before-and-after check of a change to a determinizer or to the kit
(``folkdeck/engine/determinize.py``): the search bots play the same moves only if they
sample the same worlds from the same ``rng``. Deal ``s`` is dealt from ``seed=s`` (Gou Ji:
the deals of a match from ``random.Random(s)``, so that the later deals carry tribute) and
played by uniformly random choices from ``random.Random(s)``; at every few steps, each seat
that may act and whose view the determinizer takes has three worlds dealt from one
``random.Random``, and every card of each world by place (and the ``rng``'s next draw: what
the sampler used) goes into the hash.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Callable, Iterator

import folkdeck
from folkdeck.engine.protocol import Game, State

CASES: tuple[tuple[str, str | None, dict[str, object]], ...] = (
    ("kaphai", None, {}), ("kaphai", "local", {"players": 3}), ("kaphai", None, {"players": 2}),
    ("cambio", None, {}), ("cambio", "sudden", {"players": 6}), ("cambio", None, {"players": 9}),
    ("cambio", "nifty44", {"players": 5}),
    ("cangkul", None, {}), ("cangkul", "joker", {"joker_play": "must_when_void"}),
    ("cangkul", "drop_out", {"players": 5}), ("burro_es", None, {}), ("burro_pt", None, {}),
    ("burro_pt", "knock", {}),
    ("gouji", None, {}), ("gouji", None, {"public_counts": "never"}),
    ("gouji", None, {"public_counts": "always"}),
)


def _sampler(game: Game) -> tuple[Callable[[State, int, random.Random], State], Callable[[State, int], bool]]:
    """``(world, searchable)`` from the game's determinizer, in either tree's form (the
    module path string of the older spec, or the typed hook)."""
    found: object = game.spec.determinizer
    if isinstance(found, str):  # the older spec: a module path
        import importlib

        module = importlib.import_module(found)
        return (lambda s, seat, rng: module.determinize(game, s.observe(seat), rng),
                lambda s, seat: bool(module.is_searchable(s.observe(seat))))
    determinizer = game.spec.determinizer
    assert determinizer is not None
    return (lambda s, seat, rng: determinizer.worlds(game, s.observe(seat))(rng),
            lambda s, seat: determinizer.is_searchable(s.observe(seat)))


def _deals(game: Game, seeds: int) -> Iterator[tuple[State, random.Random]]:
    for seed in range(seeds):
        if game.spec.name == "gouji":
            match = game.new_match(deals=2, rng=random.Random(seed))
            for _ in range(2):
                state = match.next_deal()
                yield state, random.Random(seed)
                match.finish_deal(state)
        else:
            yield game.new_state(seed=seed), random.Random(seed)


def world_hash(name: str, preset: str | None, rules: dict[str, object], seeds: int) -> tuple[int, str]:
    game = folkdeck.load(name, preset, **rules)
    world, searchable = _sampler(game)
    every = 7 if name == "gouji" else 2
    digest = hashlib.blake2b(digest_size=8)
    count = 0
    for state, rng in _deals(game, seeds):
        step = 0
        while not state.is_over():
            if step % every == 0:
                for seat in state.to_act:
                    if not searchable(state, seat):
                        continue
                    worlds_rng = random.Random(step * 31 + seat)
                    for _ in range(3):
                        cards = {k: [str(c) for c in v] for k, v in world(state, seat, worlds_rng).all_cards().items()}
                        digest.update(json.dumps(cards, sort_keys=True).encode())
                        digest.update(repr(worlds_rng.random()).encode())
                        count += 1
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
            step += 1
    return count, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=4, help="deals per case (Gou Ji: matches of two deals)")
    args = parser.parse_args()
    for name, preset, rules in CASES:
        count, digest = world_hash(name, preset, rules, args.seeds)
        options = ",".join(f"{k}={v}" for k, v in rules.items()) or "-"
        print(f"{name} {preset or '-'} {options} {count} worlds {digest}", flush=True)


if __name__ == "__main__":
    main()
