"""Exact solving by search: positions per second, against a memoized Python solver.

    python benches/solve.py

Outcome-only search (O(heaps) per position, one core) on 3- to 5-heap boxes of about
25 million positions, with and without take limits, and with subtraction sets (misère
play, which has no closed form); the search with remoteness on a smaller box; and a
memoized recursive Python solver on a small box, for the ratio.
"""

from __future__ import annotations

import sys
import time
from functools import cache
from math import prod

import nimkit as nk

sys.setrecursionlimit(10_000)


def rate(bounds: list[int], rules: nk.Rules, remoteness: bool) -> float:
    start = time.perf_counter()
    nk.solve(bounds, rules, max_positions=10**9, remoteness=remoteness)
    return prod(b + 1 for b in bounds) / (time.perf_counter() - start)


def python_rate(bounds: list[int], k: int | None) -> float:
    @cache
    def is_p(heaps: tuple[int, ...]) -> bool:
        for i, n in enumerate(heaps):
            for take in range(1, min(n, k or n) + 1):
                if is_p((*heaps[:i], n - take, *heaps[i + 1 :])):
                    return False
        return True

    start = time.perf_counter()
    for a in range(bounds[0] + 1):
        for b in range(bounds[1] + 1):
            for c in range(bounds[2] + 1):
                is_p((a, b, c))
    return prod(b + 1 for b in bounds) / (time.perf_counter() - start)


def main() -> None:
    cases = [
        ([300, 300, 300], nk.Rules()),
        ([300, 300, 300], nk.Rules(max_take=4)),
        ([70, 70, 70, 70], nk.Rules(misere=True, max_take=6)),
        ([30, 30, 30, 30, 30], nk.Rules()),
        # Subtraction sets: every move is looked up (no per-line shortcut).
        ([300, 300, 300], nk.Rules(misere=True, take={1, 3, 4})),
        ([70, 70, 70, 70], nk.Rules(misere=True, take={2, 5, 7})),
    ]
    for bounds, rules in cases:
        print(
            f"outcomes, {len(bounds)} heaps to {bounds[0]}, {rules}: "
            f"{rate(bounds, rules, False) / 1e6:,.0f} M positions/s"
        )
    for bounds, rules in [
        ([60, 60, 60], nk.Rules()),
        ([60, 60, 60], nk.Rules(max_take=4)),
        ([60, 60, 60], nk.Rules(misere=True, take={1, 3, 4})),
    ]:
        print(
            f"with remoteness, 3 heaps to 60, {rules}: "
            f"{rate(bounds, rules, True) / 1e6:,.1f} M positions/s"
        )
    small = [40, 40, 40]
    ours = rate(small, nk.Rules(max_take=4), False)
    theirs = python_rate(small, 4)
    print(
        f"memoized Python, 3 heaps to 40, take at most 4: {theirs / 1e6:.2f} M positions/s; "
        f"nimkit outcomes {ours / theirs:,.0f}x"
    )


if __name__ == "__main__":
    main()
