"""Cold and warm ``legal_actions()`` timings for the worst Gou Ji hands (issue 3).

Run ``python tests/games/gouji/bench_listing.py``: each case runs in a fresh
process (``--one NAME``), so the first listing is truly cold (no play made yet).

``--floor`` times, in a fresh process, only the making of the worst hand's ``Play``
objects (one per legal set: ``legal_actions()`` returns a tuple of actions), with the sets'
values known beforehand and the allocator warmed by a listing made and dropped first: what
any cold listing of that hand costs at least, however the sets are found.

``--learned`` times the shipped learned bot's decision in each case instead (issue 38: at
most 20 ms in the pure build): the median of 30 decisions after a first one (which reads
the model), CPU and wall time, one BLAS thread unless ``OPENBLAS_NUM_THREADS`` says more.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time

# 36 cards, 16 wild (8 twos, 4 BJ, 4 RJ), 20 naturals over 10 ranks: the most sets.
WORST = "3 3 4 4 5 5 6 6 7 7 8 8 9 9 10 10 J J Q Q " + "2 " * 8 + "BJ " * 4 + "RJ " * 4
CASES = {
    "lead_worst": (WORST, None),
    "follow_pairs": (WORST, "3 3"),
    "follow_fives": (WORST, "3 3 3 3 3"),
    "lead_12_wild_2s": ("3 4 5 6 7 8 9 10 J Q K A " + "A " * 8 + "2 " * 12 + "BJ BJ RJ RJ", None),
    # every joker, 12 twos and four ranks of four: the most sets the learned bot was timed on
    "lead_all_jokers": ("3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 " + "2 " * 12 + "BJ " * 4 + "RJ " * 4, None),
}


def _state(hand: str, top: str | None):  # type: ignore[no-untyped-def]
    from folkdeck import load
    suits = "SHDC"
    cards: list[str] = []
    seen: dict[str, int] = {}
    for w in hand.split():
        if w in ("BJ", "RJ"):
            cards.append(w)
            continue
        k = seen.get(w, 0)
        seen[w] = k + 1
        cards.append(w + suits[k % 4])
    hands = [" ".join(cards), "3S", "3H", "4S", "4H", "5S"]
    if top is None:
        return load("gouji").new_state(hands=hands, setup={"leader": 0})
    n = len(top.split())
    hands[5] = " ".join("3" + "CDCDC"[i] for i in range(n)) + " 4C"
    state = load("gouji").new_state(hands=hands, setup={"leader": 5})
    state.apply(state.parse_action(top))
    return state


def one(name: str) -> None:
    hand, top = CASES[name]
    state = _state(hand, top)
    t0 = time.perf_counter()
    n = len(state.legal_actions())
    cold = time.perf_counter() - t0
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        state.legal_actions()
    warm = (time.perf_counter() - t0) / reps
    sys.stdout.write(f"{name:18s} actions={n:5d} cold={cold * 1e3:7.2f} ms warm={warm * 1e6:7.1f} us\n")


def learned(name: str) -> None:
    from folkdeck.agents.registry import make_agent
    from folkdeck.engine.registry import load

    game = load("gouji")
    state = _state(*CASES[name])
    bot = make_agent(game.spec, "learned", game=game)
    seat = state.to_act[0]
    view, legal = state.observe(seat), state.legal_actions(seat)
    bot.act(view, legal, random.Random(0))
    cpu, wall = [], []
    for _ in range(30):
        t0, c0 = time.perf_counter(), time.process_time()
        bot.act(view, legal, random.Random(0))
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    sys.stdout.write(f"{name:18s} actions={len(legal):5d} learned: cpu={statistics.median(cpu) * 1e3:6.2f} ms "
                     f"wall={statistics.median(wall) * 1e3:6.2f} ms\n")


def floor() -> None:
    from folkdeck.games.gouji import moves, rules
    fields = [tuple(p) for p in _state(WORST, None).legal_actions()]
    for cache in (moves._RANK_PLAYS, moves._SIZED_PLAYS, moves._PLAY_OF):
        cache.clear()  # the Play objects go; their memory stays with the allocator
    make, play = tuple.__new__, rules.Play
    t0 = time.perf_counter()
    made = tuple([make(play, f) for f in fields])
    took = time.perf_counter() - t0
    sys.stdout.write(f"floor              objects={len(made):5d} made in {took * 1e3:5.2f} ms\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        one(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[1] == "--one-learned":
        learned(sys.argv[2])
    elif sys.argv[1:] == ["--learned"]:
        env = {"OPENBLAS_NUM_THREADS": "1", **os.environ}  # as the ``folkdeck`` command runs
        for case in CASES:
            subprocess.run([sys.executable, __file__, "--one-learned", case], check=True, env=env)
    elif sys.argv[1:] == ["--floor"]:
        floor()
    else:
        for case in CASES:
            subprocess.run([sys.executable, __file__, "--one", case], check=True)
