"""Grundy sequences: the sparse-space method against the definition, and proofs of
published periods.

    python benches/grundy.py [--count 1000000] [--naive-count 100000] [--moonshot]

1. The time for ``--count`` values of a few octal games with a sparse space, by the
   sparse-space method and by the definition (the naive mex over every split),
   both measured in this run. The definition costs O(n) per value, so it is timed on
   ``--naive-count`` values and, where that is fewer, scaled to ``--count`` by the
   square of the ratio (its cost per value grows linearly with n); the script says
   when it scales.
2. Proving the period of ``0.354`` (preperiod 10,061,916, period 1180, about 2*10**7
   values; Flammenkamp 2002) and printing the certificate and the peak memory.
3. With ``--moonshot``: ``0.1777`` (period 60,620,715, last exceptional value at heap
   160,949,017, Flammenkamp; about 4.4*10**8 values).
"""

from __future__ import annotations

import argparse
import resource
import time

import nimkit as nk

GAMES = ["0.16", "0.354", "0.376", "0.56"]


def timed_recompute(rule: nk.TakeAndBreak, count: int, method: str) -> float:
    start = time.perf_counter()
    rule.recompute(count, method)
    return time.perf_counter() - start


def peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def compare(count: int, naive_count: int) -> None:
    print(f"{count:,} values: sparse-space method vs the definition")
    for code in GAMES:
        rule = nk.TakeAndBreak(code)
        sparse = timed_recompute(rule, count, "auto")
        naive = timed_recompute(rule, min(count, naive_count), "naive")
        scaled = ""
        if naive_count < count:
            naive *= (count / naive_count) ** 2
            scaled = f" (scaled from {naive_count:,} values)"
        print(
            f"  {code:<6} sparse {sparse:8.2f} s   naive {naive:10.1f} s{scaled}"
            f"   {naive / sparse:8.0f}x"
        )


def prove(code: str, max_heap: int) -> None:
    rule = nk.TakeAndBreak(code)
    start = time.perf_counter()
    cert = rule.certificate(max_heap=max_heap, progress=True)
    elapsed = time.perf_counter() - start
    print(cert)
    print(f"proved in {elapsed:.1f} s, peak memory {peak_gib():.2f} GiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--naive-count", type=int, default=100_000)
    parser.add_argument("--moonshot", action="store_true")
    args = parser.parse_args()
    compare(args.count, args.naive_count)
    prove("0.354", 25_000_000)
    if args.moonshot:
        prove("0.1777", 600_000_000)


if __name__ == "__main__":
    main()
