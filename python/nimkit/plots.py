"""Pictures of outcomes and Grundy values over 2-heap slices (the ``plot`` extra).

>>> ax = grundy_map(7, 7, Rules(max_take=3))
>>> int(ax.images[0].get_array()[5, 2])  # (5 mod 4) xor (2 mod 4)
3
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import batch
from ._extras import require
from .position import Position
from .rules import Rules, rules_or_default


def _slice(size_a: int, size_b: int, others: Sequence[int]) -> np.ndarray[Any, Any]:
    """Positions (a, b, *others) for a in 0..size_a, b in 0..size_b, as a 3-D array.
    The sizes are checked as heap sizes first (no negative, float or bool is cast)."""
    size_a, size_b, *rest = Position([size_a, size_b, *others])
    a, b = np.meshgrid(
        np.arange(size_a + 1, dtype=np.uint64),
        np.arange(size_b + 1, dtype=np.uint64),
        indexing="ij",
    )
    fixed = [np.full_like(a, n) for n in rest]
    return np.stack([a, b, *fixed], axis=-1)


#: Up to how many distinct nim-sums a map gets one colour per value.
MAX_DISCRETE = 64


def _draw(values: np.ndarray[Any, Any], ax: Any, cmap: str, title: str, norm: Any = None) -> Any:
    """Show a heap a by heap b map on ``ax`` (a new figure when None; its constrained
    layout keeps the title clear of a colour bar), with whole-number ticks."""
    plt = require("matplotlib.pyplot", "plot")
    from matplotlib.ticker import MaxNLocator

    ax = ax if ax is not None else plt.subplots(figsize=(5, 5), layout="constrained")[1]
    image = ax.imshow(values, cmap=cmap, norm=norm, origin="lower", interpolation="nearest")
    ax.set_xlabel("heap b")
    ax.set_ylabel("heap a")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
    # Wrapped to the map's width, so that a long rule stays clear of a colour bar.
    lines = [textwrap.fill(line, 50) for line in title.splitlines()]
    ax.set_title("\n".join(lines), fontsize=9)
    return ax, image


def outcome_map(
    size_a: int,
    size_b: int,
    rules: Rules | None = None,
    others: Sequence[int] = (),
    ax: Any = None,
) -> Any:
    """Heap a (rows) by heap b (columns), the other heaps fixed at ``others``: P-positions
    dark, N-positions light. Returns the matplotlib Axes."""
    rules = rules_or_default(rules)
    p = batch.is_p_position(_slice(size_a, size_b, others), rules)
    fixed = f", others {tuple(others)}" if others else ""
    return _draw(p, ax, "Greys", f"P-positions (dark){fixed}\n{rules}")[0]


def grundy_map(
    size_a: int,
    size_b: int,
    rules: Rules | None = None,
    others: Sequence[int] = (),
    ax: Any = None,
) -> Any:
    """The nim-sum over a 2-heap slice (heap a by heap b, the others fixed)."""
    rules = rules_or_default(rules)
    from matplotlib.colors import BoundaryNorm
    from matplotlib.ticker import MaxNLocator

    sums = batch.nim_sum(_slice(size_a, size_b, others), rules)
    top = int(sums.max()) if sums.size else 0
    # Whole numbers: one colour per value (bands centred on each), while few.
    norm = BoundaryNorm(np.arange(top + 2) - 0.5, 256) if top < MAX_DISCRETE else None
    fixed = f", others {tuple(others)}" if others else ""
    ax, image = _draw(sums, ax, "viridis", f"nim-sum{fixed}\n{rules}", norm)
    bar = ax.figure.colorbar(image, ax=ax, label="nim-sum")
    bar.locator = MaxNLocator(integer=True)
    bar.update_ticks()
    return ax
