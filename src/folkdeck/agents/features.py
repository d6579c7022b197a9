"""The inputs a learned bot's network reads besides the view: each legal action's vector
(:class:`ActionFeatures`) and, for the models that use them, the shape of the hand each
action would leave (:class:`HandShape`).

Both are functions of the encoding's arrays only (:class:`~folkdeck.agents.encoding.Encoding`:
the view's vector and the action's token counts), so the training data keep the plain
action rows and the shape is computed from them when a model trains or plays: data played
before a model used the shape train it all the same.

>>> import folkdeck
>>> enc = Encoding.of(folkdeck.load("kaphai"))
>>> shape = HandShape(enc)
>>> shape.groups, shape.size
(13, 96)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from folkdeck.agents.encoding import Encoding

FloatArray = npt.NDArray[np.float32]
SHAPE: Final = "shape-1"
"""The ``features`` a model's metadata names when its network also reads :class:`HandShape`."""
SHAPE_SUITS: Final = "shape-2"
"""... and :class:`HandShape` with its suits (``suits=True``)."""
FEATURES: Final = {"plain": "", "shape": SHAPE, "shape+suits": SHAPE_SUITS}
"""``folkdeck train --features`` names → a model's ``features``."""
MAX_ROWS: Final = 200_000
"""The most action rows :class:`ActionFeatures` keeps (a bound on its memory)."""
SETS: Final = 4
"""The hand-shape counts sets of up to this many cards of a rank (single, pair, triple, four)."""
_AT_LEAST: Final = np.arange(1, SETS + 1, dtype=np.float32)


class ActionFeatures:
    """Each action's input vector (cached by its notation: a game has few distinct ones):
    its words' counts, a constant 1, and a flag for the heuristic bot's choice; with
    ``features`` (a model's: :data:`SHAPE`, :data:`SHAPE_SUITS`), the network's input also
    holds :class:`HandShape` (:meth:`inputs`)."""

    def __init__(self, encoding: Encoding, *, features: str = "") -> None:
        if features not in FEATURES.values():
            raise ValueError(f"unknown features {features!r}: one of {sorted(FEATURES.values())}")
        self.encoding = encoding
        self.row_size = encoding.num_tokens + 2
        """The plain row (what the training data keep)."""
        self.shape = HandShape(encoding, suits=features == SHAPE_SUITS) if features else None
        self.size = self.row_size + (self.shape.size if self.shape is not None else 0)
        """The network's action input."""
        scale = np.ones(encoding.num_tokens, dtype=np.float32)
        for kind, copies in zip(encoding.kinds, encoding.copies, strict=True):
            scale[encoding.token_index[str(kind)]] = 1.0 / copies
        self._scale = scale
        # every action row met so far, one per line of a table, by notation: a Gou Ji lead
        # of thousands of sets takes its rows with one indexing rather than a stack of each
        self._index: dict[str, int] = {}
        self._table = np.zeros((64, self.row_size), dtype=np.float32)

    def row(self, action: object) -> FloatArray:
        """One action's plain vector (``None`` is the encoding's ``<wait>``, declining a right)."""
        row: FloatArray = self.matrix([action])[0]
        return row

    def matrix(self, actions: Sequence[object], preferred: object = None) -> FloatArray:
        """The plain vectors of ``actions``, one row each; the one whose notation is
        ``preferred``'s (the heuristic bot's choice) flagged in the last column."""
        keys = ["<wait>" if a is None else str(a) for a in actions]  # once: a Gou Ji lead has thousands
        lines = np.asarray(self._lines(keys), dtype=np.intp)  # (may grow the table)
        out = self._table[lines]
        if preferred is not None:
            key = str(preferred)
            for i, k in enumerate(keys):
                if k == key:
                    out[i, -1] = 1.0
        return out

    def _lines(self, keys: Sequence[str]) -> list[int]:
        """The table's line of each notation, the new ones spelt and added."""
        index = self._index
        lines = [index.get(k, -1) for k in keys]
        if -1 not in lines:
            return lines
        if len(index) + len(keys) > MAX_ROWS:  # a bound on the memory: start the table again
            index.clear()
        return [index[k] if k in index else self._add(k) for k in keys]

    def _add(self, key: str) -> int:
        line = len(self._index)
        if line == len(self._table):
            self._table = np.concatenate([self._table, np.zeros_like(self._table)])
        row = self._table[line]
        row[:] = 0.0
        for token in self.encoding.spell(key):
            row[token] += self._scale[token]
        row[-2] = 1.0
        self._index[key] = line
        return line

    def inputs(self, views: FloatArray, rows: FloatArray) -> FloatArray:
        """The network's action inputs: the plain ``rows``, then (with ``shape``) the hand
        shape of each (``views``: one view for all the rows, or one per row)."""
        if self.shape is None:
            return rows
        out = np.empty((len(rows), self.size), dtype=np.float32)
        out[:, :self.row_size] = rows
        self.shape.of(views, rows, out=out[:, self.row_size:])
        return out


class HandShape:
    """What the hand would be after each action, counted by rank rather than by card: a
    pair is a pair whatever its suits, which a network of the cards alone has to learn for
    every pair of suits apart.

    The cards of a rank form a *group* (a joker, whose rank is its own, a group alone; a
    card without a rank too). Per group, as fractions of the group's copies in the pack: the
    cards left after the action, whether at least 1, 2, 3 and 4 are left, the cards the
    action plays and the cards the seat has not seen (neither in its hand nor played by
    anyone); then how many groups would be left as a single, a pair, a triple and four or
    more, and the cards left in all. With ``suits``, the same by suit, where following suit
    is the game (Cangkul, the Burros): per suit the cards left, whether none is left (a
    void), the cards played and the cards unseen.
    """

    def __init__(self, encoding: Encoding, *, suits: bool = False) -> None:
        self.ranks = CardGroups(encoding, [getattr(k, "rank", None) or k for k in encoding.kinds])
        self.suits = CardGroups(encoding, [getattr(k, "suit", None) or k for k in encoding.kinds]) if suits else None
        self.groups = self.ranks.groups
        self.size = 7 * self.groups + SETS + 1 + (4 * self.suits.groups if self.suits is not None else 0)
        self._blocks = np.kron(np.eye(SETS, dtype=np.float32), np.ones((self.groups, 1), dtype=np.float32))

    def of(self, views: FloatArray, rows: FloatArray, *, out: FloatArray | None = None) -> FloatArray:
        """The shape features of each action row (``views``: ``(1, V)`` or ``(n, V)``),
        written into ``out`` if given (``(n, size)``: a part of the network's input)."""
        if out is None:
            out = np.empty((len(rows), self.size), dtype=np.float32)
        g = self.groups
        left, played, unseen = self.ranks.counts(views, rows)
        copies = self.ranks.copies
        np.divide(left, copies, out=out[:, :g])
        # at least 1, 2, 3, 4 left: four blocks of g columns, one comparison
        at_least = out[:, g:(SETS + 1) * g]
        at_least.reshape(len(rows), SETS, g)[...] = left[:, None, :] >= _AT_LEAST[:, None]
        # groups left as a single, a pair, a triple, four or more: differences of the "at
        # least"s, their counts summed by a product (whole numbers: exact in any order)
        sets = out[:, (SETS + 1) * g:(SETS + 1) * g + SETS]
        np.matmul(at_least, self._blocks, out=sets)
        sets[:, :-1] -= sets[:, 1:].copy()
        sets /= self.groups
        at = (SETS + 1) * g + SETS
        np.divide(played, copies, out=out[:, at:at + g])
        np.divide(unseen, copies, out=out[:, at + g:at + 2 * g])
        out[:, at + 2 * g] = left.sum(axis=1) / self.ranks.total
        if self.suits is not None:
            left, played, unseen = self.suits.counts(views, rows)
            copies, k = self.suits.copies, self.suits.groups
            at += 2 * g + 1
            np.divide(left, copies, out=out[:, at:at + k])
            np.equal(left, 0.0, out=out[:, at + k:at + 2 * k], casting="unsafe")
            np.divide(played, copies, out=out[:, at + 2 * k:at + 3 * k])
            np.divide(unseen, copies, out=out[:, at + 3 * k:at + 4 * k])
        return out


class CardGroups:
    """The pack's card kinds grouped by a key (their rank, their suit; ``keys``: one per
    kind, in the encoding's order), and the counts of a hand, an action and the unseen
    cards per group."""

    def __init__(self, encoding: Encoding, keys: Sequence[object]) -> None:
        index: dict[object, int] = {}
        group = [index.setdefault(key, len(index)) for key in keys]
        self.groups = len(index)
        kinds = len(encoding.kinds)
        copies = np.asarray(encoding.copies, dtype=np.float32)
        # kind fraction (count / copies) → group count: a kinds × groups matrix of copies
        self._to_group = np.zeros((kinds, self.groups), dtype=np.float32)
        self._to_group[np.arange(kinds), group] = copies
        self.copies = self._to_group.sum(axis=0)
        self.total = float(copies.sum())
        sections = {s.name: s for s in encoding.sections}
        self._hand = slice(sections["hand"].start, sections["hand"].start + kinds)
        played = sections["played_by"]
        self._played = slice(played.start, played.start + played.size)
        self._kinds = kinds
        self._card_tokens = np.asarray([encoding.token_index[str(k)] for k in encoding.kinds])

    def counts(self, views: FloatArray, rows: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per action row and group: the cards the action leaves in the hand, the cards it
        plays, and the cards the seat has not seen (the same for every action)."""
        hand = views[:, self._hand] @ self._to_group
        played_by = views[:, self._played].reshape(len(views), -1, self._kinds).sum(axis=1)
        unseen = np.clip(self.copies - hand - played_by @ self._to_group, 0.0, None)
        # ``rows`` hold a card's count over its copies, the hand's scale
        played = rows[:, self._card_tokens] @ self._to_group
        left = np.clip(hand - played, 0.0, None)
        return left, played, np.broadcast_to(unseen, left.shape)


__all__ = ["FEATURES", "SETS", "SHAPE", "SHAPE_SUITS", "ActionFeatures", "CardGroups", "HandShape"]
