"""Many positions at once, over numpy arrays.

``heaps`` is an integer array whose last axis holds the heaps of one position, with
any leading shape (like a gufunc with signature ``(m)->()``): a 2-D array is one
position per row; a 1-D array is a single position and gives 0-d results. Every
integer dtype and every layout (C, Fortran, strided views, ``np.memmap``) is read in
place, without a copy; other dtypes raise TypeError rather than being cast. The
work runs in Rust on all cores with the GIL released. ``progress=True`` shows a
tqdm bar (the ``progress`` extra) while long work runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from . import _core
from ._extras import require
from .rules import DEFAULT_MAX_POSITIONS, Rules, rules_or_default

__all__ = [
    "count_winning_moves",
    "is_p_position",
    "nim_sum",
    "pad",
    "winning_move",
    "winning_split",
]


def _as_heaps(heaps: npt.ArrayLike) -> np.ndarray[Any, Any]:
    """An ndarray as it is; anything else through ``np.asarray`` (the dtype is then
    checked like any other)."""
    if isinstance(heaps, np.ndarray):
        return heaps
    try:
        return np.asarray(heaps)
    except ValueError:
        # numpy says "setting an array element with a sequence"
        raise ValueError(
            "the positions differ in length: give rows of equal length, or pad them "
            "with nimkit.batch.pad (an empty heap changes no outcome)"
        ) from None


def _unwrap(result: Any, heaps: np.ndarray[Any, Any], out: object) -> Any:
    """A 0-d result for a single position comes back as a numpy scalar, as from a ufunc."""
    return result[()] if heaps.ndim == 1 and out is None else result


#: Without a progress bar, rows are still handed to the core in slices of this many
#: (rules with a closed form only), so that Ctrl-C is seen between slices (each a few
#: milliseconds of work).
SLICE_ROWS = 1 << 22


def _apply(
    core: Any,
    heaps: npt.ArrayLike,
    rules: Rules | None,
    outs: tuple[Any, ...],
    progress: bool,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Any:
    """Run a native kernel; on many rows, in slices of the first axis (Python sees
    Ctrl-C between them), and with ``progress`` under a tqdm bar (``tqdm.auto``: a
    widget in notebooks, text in terminals). Rules that need a search run in one call
    (one search for every row)."""
    array = _as_heaps(heaps)
    rules = rules_or_default(rules)
    args = (rules, max_positions)
    sliced = array.ndim >= 2 and len(array) > SLICE_ROWS and rules.has_closed_form
    if array.ndim < 2 or len(array) < 2 or not (progress or sliced):
        results = core(array, *args, *outs)
        return (
            tuple(_unwrap(r, array, outs[0]) for r in results)
            if len(outs) > 1
            else (_unwrap(results, array, outs[0]))
        )
    first = core(array[:1], *args, *(None for _ in outs))
    first = first if len(outs) > 1 else (first,)
    results = tuple(
        out if out is not None else np.empty(array.shape[:-1], dtype=r.dtype)
        for out, r in zip(outs, first, strict=True)
    )
    step = max(1, len(array) // 100) if progress else SLICE_ROWS
    # The bar counts positions, not slices: a bar over slices with a scaled unit is
    # drawn empty by the notebook widget.
    bar: Any = None
    if progress:
        tqdm = require("tqdm.auto", "progress").tqdm
        bar = tqdm(total=len(array), desc="positions", unit="pos", unit_scale=True)
    try:
        for start in range(0, len(array), step):
            part = slice(start, start + step)
            core(array[part], *args, *(r[part] for r in results))
            if bar is not None:
                bar.update(len(array[part]))
    finally:
        if bar is not None:
            bar.close()
    return results if len(outs) > 1 else results[0]


def nim_sum(
    heaps: npt.ArrayLike,
    rules: Rules | None = None,
    *,
    out: npt.NDArray[np.uint64] | None = None,
    progress: bool = False,
) -> npt.NDArray[np.uint64]:
    """XOR of the Grundy values of each position, as uint64."""
    return _apply(_core.batch_nim_sum, heaps, rules, (out,), progress)  # type: ignore[no-any-return]


def is_p_position(
    heaps: npt.ArrayLike,
    rules: Rules | None = None,
    *,
    out: npt.NDArray[np.bool_] | None = None,
    progress: bool = False,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> npt.NDArray[np.bool_]:
    """True where the player to move loses against perfect play.

    Rules with no closed form (misère play of subtraction sets other than {1..k}) are
    solved by searching the box spanned by the largest heap of each column; ValueError
    names its size when it holds more than ``max_positions``. The same holds for
    ``winning_move`` and ``count_winning_moves``. Take-and-break codes that split
    heaps work in normal play through the heaps' Grundy values; in misère play one
    search from every row labels every position the rows reach (multisets of heaps),
    refused past ``max_positions``. ``winning_move`` has no room for the parts a split
    leaves and refuses such codes: use ``winning_split``."""
    return _apply(_core.batch_is_p_position, heaps, rules, (out,), progress, max_positions)  # type: ignore[no-any-return]


def winning_move(
    heaps: npt.ArrayLike,
    rules: Rules | None = None,
    *,
    out: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64]] | None = None,
    progress: bool = False,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> tuple[npt.NDArray[Any], ...]:
    """The first winning move of each position (the lowest heap that has one, its
    smallest take).

    Returns ``(heap, take)``: the heap index as int64, -1 where the position has no
    winning move, and how many to take as uint64, 0 there. Under rules whose moves
    split heaps (take-and-break codes), returns ``(heap, take, into)`` as
    ``winning_split`` does: ``into`` holds the sizes the split leaves.

    >>> import numpy as np, nimkit as nk
    >>> heap, take, into = winning_move(np.array([[9, 6]]), nk.Rules(code="0.77"))
    >>> into.tolist()
    [[1, 7, 0]]
    """
    rules = rules_or_default(rules)
    if rules.splits:
        if out is not None:
            raise ValueError(
                "out= has room for the heap and the take only; under rules that split "
                "heaps, winning_move returns (heap, take, into): leave out= out"
            )
        return winning_split(heaps, rules, max_positions=max_positions)
    outs = (None, None) if out is None else out
    return _apply(_core.batch_winning_move, heaps, rules, outs, progress, max_positions)  # type: ignore[no-any-return]


def winning_split(
    heaps: npt.ArrayLike,
    rules: Rules | None = None,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The first winning move of each position, with the heaps a split leaves: for
    take-and-break codes, whose ``winning_move`` has no room for them.

    Returns ``(heap, take, into)`` as ``winning_move`` does, and ``into`` with one more
    axis of length 3: the sizes the split leaves, padded with 0 (all 0 for a move that
    does not split).

    >>> import numpy as np, nimkit as nk
    >>> heap, take, into = winning_split(np.array([[9, 6]]), nk.Rules(code="0.77"))
    >>> heap.tolist(), take.tolist(), into.tolist()
    ([0], [1], [[1, 7, 0]])
    """
    array = _as_heaps(heaps)
    heap, take, into = _core.batch_winning_split(array, rules_or_default(rules), max_positions)
    return heap, take, into


def count_winning_moves(
    heaps: npt.ArrayLike,
    rules: Rules | None = None,
    *,
    out: npt.NDArray[np.int64] | None = None,
    progress: bool = False,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> npt.NDArray[np.int64]:
    """How many winning moves each position has (at most one per heap, except with
    subtraction sets), as int64."""
    return _apply(_core.batch_count_winning_moves, heaps, rules, (out,), progress, max_positions)  # type: ignore[no-any-return]


def pad(
    rows: Iterable[Iterable[SupportsIndex]], dtype: npt.DTypeLike = np.uint64
) -> npt.NDArray[Any]:
    """Positions of unequal length as one 2-D array, short rows padded with empty heaps.

    An empty heap changes no outcome in either ending, so padded positions have the
    same nim-sum, outcome and winning moves (at the same heap indices) as the originals.
    """
    checked = []
    for i, row in enumerate(rows):
        try:
            checked.append(_core.check_heaps(row))
        except (TypeError, ValueError, OverflowError) as err:
            raise type(err)(f"row {i}: {err}") from None
    width = max(map(len, checked), default=0)
    array = np.zeros((len(checked), width), dtype=dtype)
    if not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"dtype must be an integer dtype, not {array.dtype}")
    top = np.iinfo(array.dtype).max
    for i, row in enumerate(checked):
        if row and max(row) > top:
            raise OverflowError(f"row {i}: heap {max(row)} does not fit in {array.dtype}")
        array[i, : len(row)] = row
    return array
