"""The batch functions on dask arrays, and classifying .npy files larger than memory
(the ``dask`` extra).

Blocks run ``nimkit.batch`` on the workers: the positions axes may be chunked any
way, the heap axis is kept whole (rechunked if needed). Every function returns a
lazy dask array.

>>> import dask.array as da
>>> heaps = da.from_array(np.array([[1, 2, 3], [3, 4, 5], [1, 1, 0]]), chunks=(2, 3))
>>> is_p_position(heaps).compute()
array([ True, False,  True])
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from . import batch
from ._classify import RESULT_DTYPES, classify_chunk, npy_output, npy_positions
from .rules import Rules, rules_or_default

try:
    import dask.array as da
except ImportError:  # pragma: no cover - exercised only without the extra
    raise ImportError("nimkit.dask needs dask: pip install 'nimkit[dask]'") from None

__all__ = ["classify_npy", "count_winning_moves", "is_p_position", "nim_sum", "winning_move"]


def _whole_heaps(heaps: da.Array) -> da.Array:
    if heaps.ndim == 0:
        raise ValueError("heap arrays need at least one dimension: the last axis holds the heaps")
    return heaps.rechunk({heaps.ndim - 1: -1})


def _map(function: Any, heaps: da.Array, rules: Rules | None, dtype: Any) -> da.Array:
    heaps = _whole_heaps(heaps)
    return heaps.map_blocks(
        function, rules_or_default(rules), drop_axis=heaps.ndim - 1, dtype=dtype
    )


def nim_sum(heaps: da.Array, rules: Rules | None = None) -> da.Array:
    """``nimkit.batch.nim_sum`` block by block."""
    return _map(batch.nim_sum, heaps, rules, np.uint64)


def is_p_position(heaps: da.Array, rules: Rules | None = None) -> da.Array:
    """``nimkit.batch.is_p_position`` block by block."""
    return _map(batch.is_p_position, heaps, rules, np.bool_)


def count_winning_moves(heaps: da.Array, rules: Rules | None = None) -> da.Array:
    """``nimkit.batch.count_winning_moves`` block by block."""
    return _map(batch.count_winning_moves, heaps, rules, np.int64)


def _first_moves(block: np.ndarray[Any, Any], rules: Rules) -> np.ndarray[Any, Any]:
    out = np.empty(block.shape[:-1], dtype=RESULT_DTYPES["winning-move"])
    batch.winning_move(block, rules, out=(out["heap"], out["take"]))
    return out


def winning_move(heaps: da.Array, rules: Rules | None = None) -> tuple[da.Array, da.Array]:
    """``nimkit.batch.winning_move`` block by block: (heap or -1, take)."""
    moves = _map(_first_moves, heaps, rules, RESULT_DTYPES["winning-move"])
    heap = moves.map_blocks(lambda m: m["heap"], dtype=np.int64)
    take = moves.map_blocks(lambda m: m["take"], dtype=np.uint64)
    return heap, take


def classify_npy(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    rules: Rules | None = None,
    what: str = "p",
    chunk: int = 1 << 22,
) -> None:
    """Classify every position of a .npy file (positions x heaps, C order) into a
    .npy file, in blocks of ``chunk`` positions on the current dask scheduler (a
    ``distributed.Client`` if one is active). Neither file is ever read whole; the
    output is written under a temporary name and renamed once complete."""
    if what not in RESULT_DTYPES:
        raise ValueError(f"what must be one of {', '.join(RESULT_DTYPES)}, not {what!r}")
    source, target = Path(source), Path(target)
    rows = npy_positions(source)
    if rows.fortran:
        raise ValueError(f"{source} is stored in Fortran order; blocks of rows need C order")
    heaps = da.from_array(rows, chunks=(chunk, -1), asarray=False, fancy=False)
    results = heaps.map_blocks(
        _classified, rules_or_default(rules), what, drop_axis=1, dtype=RESULT_DTYPES[what]
    )
    with npy_output(target, RESULT_DTYPES[what], len(rows)) as out:
        da.store(results, out, lock=False)


def _classified(block: np.ndarray[Any, Any], rules: Rules, what: str) -> np.ndarray[Any, Any]:
    out = np.empty(len(block), dtype=RESULT_DTYPES[what])
    classify_chunk(block, rules, what, out)
    return out
