"""Batch speed: nimkit against numpy's best expression and a plain read of the input.

    python benches/batch.py [--megabytes 64] [--repeat 9] [--dtype uint8] [--rules max_take=4]

For each dtype, heap count and rule family it prints positions per second for
nimkit, for the numpy expression a user would write (column-wise XOR, `%` for take
limits), and for a plain single-threaded read of the same buffer
(`np.bitwise_or.reduce` over the flattened input), with the ratios. All three are
measured in the same run on the same array; results are checked equal first.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from _cpu import describe

import nimkit as nk
from nimkit import batch

DTYPES = ["uint8", "uint16", "uint32", "uint64"]
FAMILIES = {
    "normal": nk.Rules(),
    "misère": nk.Rules(misere=True),
    "max_take=4": nk.Rules(max_take=4),
}


def best_time(function: Callable[[], object], repeat: int) -> float:
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def grundy_columns(heaps: np.ndarray, rules: nk.Rules) -> list[np.ndarray]:
    columns = [heaps[:, j] for j in range(heaps.shape[1])]
    if rules.max_take is None:
        return columns
    return [c % heaps.dtype.type(rules.max_take + 1) for c in columns]


def numpy_is_p(heaps: np.ndarray, rules: nk.Rules) -> np.ndarray:
    """Column-wise XOR (and OR for misère), as a numpy user would write it."""
    columns = grundy_columns(heaps, rules)
    total = columns[0].copy()
    for column in columns[1:]:
        np.bitwise_xor(total, column, out=total)
    if not rules.misere:
        return total == 0
    big = columns[0].copy()
    for column in columns[1:]:
        np.bitwise_or(big, column, out=big)
    return np.where(big > 1, total == 0, total == 1)


def numpy_winning_move(heaps: np.ndarray, rules: nk.Rules) -> tuple[np.ndarray, np.ndarray]:
    """The first winning move of every position, vectorised over positions."""
    h = heaps.astype(np.uint64)
    g = np.stack(grundy_columns(heaps, rules), axis=1).astype(np.uint64)
    total = np.bitwise_xor.reduce(g, axis=1)
    others = total[:, None] ^ g
    if rules.misere:
        big = g > 1
        big_others = (big.sum(axis=1)[:, None] - big) > 0
        target = np.where(big_others, others, others ^ np.uint64(1))
    else:
        target = others
    take = np.where(target < g, g - target, np.uint64(0))
    if rules.max_take is not None:
        modulus = np.uint64(rules.max_take + 1)
        wrap = (target > g) & (target < modulus)
        take = np.where(wrap, modulus - (target - g), take)
    take = np.where(take <= h, take, np.uint64(0))
    has = take > 0
    heap = np.where(has.any(axis=1), has.argmax(axis=1), -1)
    rows = np.arange(len(h))
    return heap, np.where(heap >= 0, take[rows, heap], np.uint64(0))


def plain_read(heaps: np.ndarray) -> object:
    return np.bitwise_or.reduce(heaps.reshape(-1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=64, help="input size per case")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument(
        "--dtype", action="append", choices=DTYPES, help="only these dtypes (repeatable)"
    )
    parser.add_argument(
        "--rules", action="append", choices=list(FAMILIES), help="only these rules (repeatable)"
    )
    args = parser.parse_args()
    families = {k: v for k, v in FAMILIES.items() if not args.rules or k in args.rules}
    rng = np.random.default_rng(1)
    print(f"{describe()}; input: {args.megabytes} MB per case, best of {args.repeat}")
    print("positions per second (M = 10^6); ratios are nimkit over numpy and over the read\n")
    print("| dtype | heaps | rules | function | nimkit | numpy | read | x numpy | x read |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|")
    for dtype in (np.dtype(name) for name in args.dtype or DTYPES):
        for m in (3, 4, 8):
            n = args.megabytes * 2**20 // (m * np.dtype(dtype).itemsize)
            top = min(np.iinfo(dtype).max, 2**20)
            heaps = rng.integers(0, top, size=(n, m), dtype=dtype, endpoint=True)
            read = n / best_time(lambda h=heaps: plain_read(h), args.repeat)
            for family, rules in families.items():
                ours, theirs = measure_is_p(heaps, rules, args.repeat)
                row(dtype, m, family, "is_p_position", ours, theirs, read)
            if m == 3 or dtype == np.dtype(np.uint64):
                for family, rules in families.items():
                    ours, theirs = measure_winning_move(heaps[: n // 4], rules, args.repeat)
                    row(dtype, m, family, "winning_move", ours, theirs, read)


def measure_is_p(heaps: np.ndarray, rules: nk.Rules, repeat: int) -> tuple[float, float]:
    """Positions per second of nimkit (into a preallocated output) and of numpy."""
    out = np.empty(len(heaps), dtype=bool)
    assert np.array_equal(batch.is_p_position(heaps, rules), numpy_is_p(heaps, rules))
    ours = best_time(lambda: batch.is_p_position(heaps, rules, out=out), repeat)
    theirs = best_time(lambda: numpy_is_p(heaps, rules), repeat)
    return len(heaps) / ours, len(heaps) / theirs


def measure_winning_move(heaps: np.ndarray, rules: nk.Rules, repeat: int) -> tuple[float, float]:
    """Positions per second of nimkit (into preallocated outputs) and of the numpy
    implementation above."""
    mine, theirs = batch.winning_move(heaps, rules), numpy_winning_move(heaps, rules)
    assert all(np.array_equal(a, b) for a, b in zip(mine, theirs, strict=True))
    out = (np.empty(len(heaps), np.int64), np.empty(len(heaps), np.uint64))
    ours_time = best_time(lambda: batch.winning_move(heaps, rules, out=out), repeat)
    theirs_time = best_time(lambda: numpy_winning_move(heaps, rules), repeat)
    return len(heaps) / ours_time, len(heaps) / theirs_time


def row(dtype, m, family, function, ours, theirs, read) -> None:
    print(
        f"| {np.dtype(dtype).name} | {m} | {family} | {function} | {ours / 1e6:,.0f} M "
        f"| {theirs / 1e6:,.0f} M | {read / 1e6:,.0f} M | {ours / theirs:.1f} "
        f"| {ours / read:.2f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
