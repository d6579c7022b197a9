"""The ISMCTS tree of the search bots (:mod:`folkdeck.agents.search`): its nodes, and
how a walk chooses among them.

Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012): the children
of a node are keyed by their action's notation, as the same action is a different object
in every sampled world; a child counts how often it was *available* (legal in the world
of an iteration that reached its parent), and UCB reads that count instead of its
parent's visits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from folkdeck.engine.protocol import Action


class Node:
    """A node of the ISMCTS tree: the seat that moved into it, its visits and summed
    returns for that seat, how often it was available, and its children by action notation."""

    __slots__ = ("seat", "visits", "total", "avail", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[str, Node] = {}


def untried(node: Node, actions: Sequence[Action]) -> list[Action]:
    """The actions without a child yet; each child of the others counts one more time
    available."""
    children = node.children
    fresh = []
    for a in actions:
        child = children.get(str(a))
        if child is None:
            fresh.append(a)
        else:
            child.avail += 1
    return fresh


def ucb(node: Node, actions: Sequence[Action], c: float, lo: float, hi: float) -> tuple[Action, Node]:
    """The child to walk to: the best upper confidence bound among ``actions``' children
    (returns scaled by the range ``lo``-``hi`` seen so far, availability counts)."""
    children = node.children
    scale = (hi - lo) if hi > lo else 1.0
    best_a: Action | None = None
    best_child: Node | None = None
    best_value = -math.inf
    for a in actions:
        child = children[str(a)]
        log_avail = math.log(child.avail)
        value = ((child.total / child.visits - lo) / scale if child.visits and hi > lo else 0.5) \
            + c * math.sqrt(log_avail / child.visits)
        if value > best_value:
            best_value, best_a, best_child = value, a, child
    assert best_a is not None and best_child is not None
    return best_a, best_child


def most_visited(root: Node, legal: Sequence[Action]) -> Action:
    """The root action visited most (then the best mean, then the first listed)."""
    children = root.children
    scored = [(children[k].visits if k in children else -1,
               children[k].total / children[k].visits if k in children and children[k].visits else -math.inf,
               -i)
              for i, k in enumerate(str(a) for a in legal)]
    return legal[max(range(len(legal)), key=lambda i: scored[i])]


__all__ = ["Node", "most_visited", "ucb", "untried"]
