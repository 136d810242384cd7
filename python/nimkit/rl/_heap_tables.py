"""The tables of a game of heaps that the environments look positions up in: each heap
size's Grundy value, each size's moves, the action ids, and in misère play the rule's
misère quotient (or Bouton's rule). All of it is the core's (``Position.nim_sum``,
``Position.moves``, ``misere_quotient``); the JAX environments (``nimkit.rl.jax``) and
the environments stepped in Rust (``GameEnv`` on a code that splits) read the same
tables, so they number actions alike and agree on every label.

Actions. Heaps under a rule that never splits: OpenSpiel's ids, ``(take - 1) *
slots + slot``. Under a code that splits: ``(take * (largest + 1) + a) * slots +
slot``, the move taking ``take`` from the heap in ``slot`` and leaving heaps ``a`` and
``n - take - a`` with ``a <= n - take - a`` (``a = 0``: one heap, or none); the heaps
live in ``slots`` places (as many as the objects at the start), a split putting the
larger heap in place of the heap and ``a`` in the first empty place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .._core import TakeAndBreak
from ..games import Heaps
from ..position import Position
from ..rules import with_ending

#: The most actions, and the most entries of the table of allowed moves by heap size,
#: that a game of heaps is given.
MAX_ACTIONS = 1 << 16
MAX_TABLE = 1 << 22
#: The most elements of a misère quotient that a ``GameEnv`` is given.
MAX_QUOTIENT = 4096


@dataclass(frozen=True)
class Quotient:
    """A misère quotient as far as the heaps need it: ``table[x, y]`` the product of
    elements ``x`` and ``y``, ``elements[n]`` heap ``n``'s element, ``p[x]`` whether
    ``x`` is in the P-portion, ``identity`` the empty position's element."""

    table: npt.NDArray[np.int32]
    elements: npt.NDArray[np.int32]
    p: npt.NDArray[np.bool_]
    identity: int


@dataclass(frozen=True)
class HeapTables:
    """What the environments of a game of heaps look up (see the module's docstring).

    ``misere``: ``None`` in normal play, ``"bouton"`` for Nim and take limits, or
    ``"quotient"`` with ``quotient`` set."""

    splits: bool
    largest: int
    max_take: int
    slots: int
    num_actions: int
    start: npt.NDArray[np.int32]
    values: npt.NDArray[np.int32]
    moves: list[tuple[int, int, int]]
    misere: str | None
    quotient: Quotient | None

    @property
    def allowed(self) -> npt.NDArray[np.bool_]:
        """Whether ``(n, take, a)`` is a move (``a`` indexed only where heaps split)."""
        count = self.largest + 1
        out = np.zeros((count, self.max_take + 1, count if self.splits else 1), bool)
        for n, t, a in self.moves:
            out[n, t, a] = True
        return out

    def decode(self) -> tuple[npt.NDArray[np.int64], ...]:
        """Each action's ``(slot, take, a)``."""
        ids = np.arange(self.num_actions)
        if not self.splits:
            return ids % self.slots, ids // self.slots + 1, np.zeros_like(ids)
        count = self.largest + 1
        rest = ids // self.slots
        return ids % self.slots, rest // count, rest % count


def heap_tables(game: Heaps, misere: bool, max_quotient: int) -> HeapTables:
    """The tables of ``game`` (``nk.Heaps`` under one rule for every heap) in the
    ending asked for; ValueError where they would be too large, the rule's moves leave
    more than two heaps, or misère play has no quotient within ``max_quotient``
    elements.

    >>> import nimkit as nk
    >>> t = heap_tables(nk.Heaps([3, 1], nk.Rules(code="0.77")), False, 4096)
    >>> t.slots, t.num_actions, t.values.tolist(), t.moves[-2:]   # 3 -> 1 + 1, 3 -> 1
    (4, 48, [0, 1, 2, 3], [(3, 1, 1), (3, 2, 0)])
    """
    rules = game.rules
    if isinstance(rules.take_rule, tuple):
        raise ValueError("an environment of heaps needs one rule for every heap, not one per heap")
    heaps = [int(h) for h in game.heaps]
    largest = max(heaps, default=0)
    splits = bool(rules.splits)
    _check_size(rules, heaps, splits, misere)
    moves = _moves_by_heap(rules, largest, splits)
    max_take = max((t for (_, t, _) in moves), default=0)
    slots = max(sum(heaps) if splits else len(heaps), len(heaps), 1)
    start = np.zeros(slots, np.int32)
    start[: len(heaps)] = heaps
    if splits:
        num_actions = (max_take + 1) * (largest + 1) * slots if any(heaps) else 0
    else:
        num_actions = max(max_take, 1) * slots if heaps else 0
    values = np.array([Position([n]).nim_sum(rules) for n in range(largest + 1)], np.int32)
    kind, quotient = (None, None) if not misere else _misere(rules, largest, max_quotient)
    return HeapTables(
        splits, largest, max_take, slots, num_actions, start, values, moves, kind, quotient
    )


def _misere(rules: Any, largest: int, max_quotient: int) -> tuple[str, Quotient | None]:
    take_rule = rules.take_rule
    if take_rule is None or isinstance(take_rule, int):
        return "bouton", None
    bound = {"max_elements": max_quotient} if isinstance(take_rule, TakeAndBreak) else {}
    quotient = take_rule.misere_quotient(max_heap=max(largest, 1), **bound)
    if quotient.order > max_quotient:
        raise ValueError(
            f"the misère quotient of {rules} to heap {largest} has {quotient.order} "
            f"elements, more than max_quotient = {max_quotient}"
        )
    # Each size's element (the quotient lists the sizes of one period only).
    elements = [quotient.heap_element(n) for n in range(largest + 1)]
    p = np.zeros(quotient.order, bool)
    p[list(quotient.p_portion)] = True
    return "quotient", Quotient(
        table=np.asarray(quotient.table, np.int32),
        elements=np.asarray(elements, np.int32),
        p=p,
        identity=int(quotient.element([])),
    )


def _check_size(rules: Any, heaps: list[int], splits: bool, misere: bool) -> None:
    """Refuse heaps whose tables would be too large, before any is built."""
    largest = max(heaps, default=0)
    rule = rules.take_rule
    most = largest
    if isinstance(rule, int):
        most = min(rule, largest)
    elif isinstance(rule, TakeAndBreak):
        most = min(rule.max_take, largest)
    elif rule is not None:
        most = min(max(rule.take), largest)
    if splits:
        actions = (most + 1) * (largest + 1) * max(sum(heaps), 1)
        entries = (largest + 1) ** 2 * (most + 1)
    else:
        actions, entries = most * len(heaps), (largest + 1) * (most + 1)
    if actions > MAX_ACTIONS or entries > MAX_TABLE:
        raise ValueError(
            f"an environment of the heaps {heaps} under {with_ending(rules, misere)} would "
            f"have {actions} "
            f"actions and a table of {entries} allowed moves (at most {MAX_ACTIONS} and "
            f"{MAX_TABLE}): give fewer or smaller heaps"
        )


def _moves_by_heap(rules: Any, largest: int, splits: bool) -> list[tuple[int, int, int]]:
    """Each move of a heap of each size up to ``largest``, as the core lists them:
    ``(n, take, a)`` with ``a`` the smaller heap left (0 for one heap or none)."""
    moves = []
    for n in range(1, largest + 1):
        for move in Position([n]).moves(rules):
            into = move.into
            if into is not None and len(into) > 2:
                raise ValueError(
                    "an environment of heaps takes rules whose moves leave at most two "
                    f"heaps, not {rules}"
                )
            a = min(into) if into else 0
            moves.append((n, int(move.take), int(a) if splits else 0))
    return moves
