"""Exact solving by search: the outcome and remoteness of every position of a box."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from . import _core
from .outcome import Outcome
from .position import Position
from .rules import Rules, rules_or_default


@dataclass(frozen=True)
class Solution:
    """Every position with heap ``i`` in ``0..=bounds[i]``, solved by retrograde search.

    ``is_p`` and ``remoteness`` are arrays of shape ``bounds + 1``, indexed by the
    heaps. Remoteness is the number of moves the game lasts when the winner hurries
    and the loser delays: 0 where no move is left.
    """

    bounds: tuple[int, ...]
    rules: Rules
    is_p: npt.NDArray[np.bool_]
    #: None when solved with ``remoteness=False``.
    remoteness: npt.NDArray[np.uint32] | None

    def outcome_of(self, position: Position | Iterable[SupportsIndex]) -> Outcome:
        return Outcome.P if self.is_p[self._index(position)] else Outcome.N

    def remoteness_of(self, position: Position | Iterable[SupportsIndex]) -> int:
        if self.remoteness is None:
            raise ValueError("this box was solved without remoteness: solve(..., remoteness=True)")
        return int(self.remoteness[self._index(position)])

    def _index(self, position: Position | Iterable[SupportsIndex]) -> tuple[int, ...]:
        heaps = tuple(position if isinstance(position, Position) else Position(position))
        if len(heaps) != len(self.bounds) or any(
            n > b for n, b in zip(heaps, self.bounds, strict=True)
        ):
            raise ValueError(f"position {heaps} is outside the solved box {self.bounds}")
        return heaps


def solve(
    position: Position | Iterable[SupportsIndex],
    rules: Rules | None = None,
    max_positions: int = 10_000_000,
    remoteness: bool = True,
) -> Solution:
    """Solve every position below ``position`` (heap ``i`` in ``0..=position[i]``) by
    exhaustive retrograde search. With ``remoteness=False`` only outcomes are found,
    by a search that costs O(heaps) per position whatever the take limit. Raises
    ValueError naming the box size when it holds more than ``max_positions``.

    Codes whose moves split heaps lead out of the box (a split adds heaps): their box
    is solved by one search from every position of the box over the multisets of
    heaps they reach, also refused past ``max_positions`` of those.

    >>> solution = solve([3, 2], Rules(code="0.77"))    # Kayles
    >>> solution.outcome_of([2, 2]), solution.remoteness_of([3, 0])
    (Outcome.P, 3)
    """
    rules = rules_or_default(rules)
    bounds = position.heaps if isinstance(position, Position) else Position(position).heaps
    if not remoteness:
        return Solution(bounds, rules, _core.solve_outcomes(bounds, rules, max_positions), None)
    is_p, distances = _core.solve_box(bounds, rules, max_positions, True)
    return Solution(bounds, rules, is_p, distances)
