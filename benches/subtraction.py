"""Grundy sequences of subtraction games: nimkit against a straightforward Python mex.

    python benches/subtraction.py [--values 100000000]

Times the first 10**8 Grundy values of a 10-element subtraction set with nimkit
(period detection, then tiling), and a plain Python mex loop on a shorter prefix,
and prints both rates and their ratio.
"""

from __future__ import annotations

import argparse
import time

import nimkit as nk

TAKE = [1, 3, 4, 7, 9, 12, 15, 20, 24, 31]


def python_mex(take: list[int], count: int) -> list[int]:
    values: list[int] = []
    for n in range(count):
        options = {values[n - s] for s in take if s <= n}
        values.append(next(g for g in range(len(take) + 1) if g not in options))
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=10**8)
    parser.add_argument("--python-values", type=int, default=200_000)
    args = parser.parse_args()
    start = time.perf_counter()
    game = nk.SubtractionGame(TAKE)
    values = game.grundy_sequence(args.values)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    reference = python_mex(TAKE, args.python_values)
    theirs = time.perf_counter() - start
    assert values[: args.python_values].tolist() == reference
    print(f"set {TAKE}: preperiod, period = {game.period()}")
    print(f"nimkit: {args.values:,} values in {ours:.3f} s ({args.values / ours / 1e6:,.0f} M/s)")
    rate = args.python_values / theirs
    print(f"Python mex: {args.python_values:,} values in {theirs:.3f} s ({rate / 1e6:.2f} M/s)")
    print(f"ratio: {args.values / ours / rate:,.0f}x")


if __name__ == "__main__":
    main()
