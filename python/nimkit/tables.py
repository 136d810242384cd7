"""The P-positions of a box of positions: listed, or counted exactly."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from . import _core
from .rules import Rules, rules_or_default

Bounds = SupportsIndex | Iterable[SupportsIndex]


def _is_index(value: object) -> bool:
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


def _bounds(bounds: Bounds, n_heaps: int | None) -> list[SupportsIndex]:
    """One bound per heap, from one bound and a heap count or a sequence of bounds."""
    if isinstance(bounds, (str, bytes, bytearray)):
        raise TypeError(
            f"bounds must be an integer or a sequence of integers, not {type(bounds).__name__}"
        )
    if not _is_index(bounds):
        # Any iterable of bounds: a list, a tuple, a numpy array.
        listed = list(bounds)  # type: ignore[arg-type]
        if n_heaps is not None and n_heaps != len(listed):
            raise ValueError(f"n_heaps={n_heaps} but {len(listed)} bounds were given")
        return listed
    if n_heaps is None:
        raise TypeError("with a single bound, give n_heaps: the number of heaps in the box")
    if isinstance(n_heaps, bool) or not _is_index(n_heaps):
        raise TypeError(f"n_heaps must be an integer, not {type(n_heaps).__name__}")
    if operator.index(n_heaps) < 0:
        raise ValueError(f"n_heaps must not be negative, got {n_heaps}")
    return [bounds] * n_heaps  # type: ignore[list-item]


def p_positions(
    bounds: Bounds,
    rules: Rules | None = None,
    *,
    n_heaps: int | None = None,
    max_rows: int = 100_000_000,
) -> npt.NDArray[np.uint64]:
    """Every P-position with heap ``i`` in ``0..=bounds[i]``, in lexicographic order.

    ``bounds`` is one bound per heap, or one bound for all with ``n_heaps``. Returns a
    (count, heaps) uint64 array, built in time proportional to its length (not by
    filtering the box). Raises ValueError rather than build more than ``max_rows``,
    and MemoryError when the table (rows x heaps x 8 bytes) cannot be reserved.

    >>> p_positions(3, n_heaps=2)
    array([[0, 0],
           [1, 1],
           [2, 2],
           [3, 3]], dtype=uint64)
    """
    rules = rules_or_default(rules)
    return _core.p_positions(_bounds(bounds, n_heaps), rules, max_rows)


def count_p_positions(
    bounds: Bounds, rules: Rules | None = None, *, n_heaps: int | None = None
) -> int:
    """The exact number of P-positions with heap ``i`` in ``0..=bounds[i]``.

    Counted without listing them, so boxes of any size answer at once:

    >>> count_p_positions(10**18, n_heaps=10) > 10**160
    True
    """
    rules = rules_or_default(rules)
    return _core.count_p_positions(_bounds(bounds, n_heaps), rules)
