"""Positions as pandas data frames (the ``pandas`` extra)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import batch
from ._extras import require
from .rules import Rules, rules_or_default
from .tables import Bounds, p_positions


def to_frame(heaps: npt.ArrayLike, rules: Rules | None = None, progress: bool = False) -> Any:
    """A DataFrame with one row per position (heaps x positions 2-D input): a column
    per heap, then ``nim_sum``, ``outcome`` ("P"/"N"), and the first winning move as
    ``move_heap`` (-1: none) and ``move_take`` (and ``move_into``, the sizes a split
    leaves, under rules that split heaps). A DataFrame keeps its index and column
    names.

    >>> import pandas as pd
    >>> to_frame(pd.DataFrame({"a": [1, 3], "b": [1, 4]}, index=["x", "y"]))[["outcome"]]
      outcome
    x       P
    y       N
    """
    pd = require("pandas", "pandas")
    rules = rules_or_default(rules)
    array = np.asarray(heaps)
    if array.ndim != 2:
        raise ValueError(f"to_frame takes a 2-D array (positions x heaps), not {array.ndim}-D")
    index, columns = None, [f"heap_{i}" for i in range(array.shape[1])]
    if isinstance(heaps, pd.DataFrame):
        index, columns = heaps.index, list(heaps.columns)
    frame = pd.DataFrame(array, index=index, columns=columns)
    frame["nim_sum"] = batch.nim_sum(array, rules, progress=progress)
    p = batch.is_p_position(array, rules, progress=progress)
    frame["outcome"] = pd.Categorical(np.where(p, "P", "N"), categories=["P", "N"])
    first = batch.winning_move(array, rules, progress=progress)
    frame["move_heap"], frame["move_take"] = first[0], first[1]
    if len(first) == 3:
        # Rules that split heaps: the sizes the move leaves, () for no split.
        frame["move_into"] = [tuple(int(n) for n in parts if n) for parts in first[2]]
    return frame


def p_position_table(
    bounds: Bounds, rules: Rules | None = None, *, n_heaps: int | None = None
) -> Any:
    """Every P-position of a box as a DataFrame, a column per heap."""
    pd = require("pandas", "pandas")
    table = p_positions(bounds, rules, n_heaps=n_heaps)
    return pd.DataFrame(table, columns=[f"heap_{i}" for i in range(table.shape[1])])
