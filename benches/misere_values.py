"""Misère values of single heaps: the ranked search against the hashed one.

    python benches/misere_values.py [--largest 90]

``TakeAndBreak(code).misere_grundy_sequence(n)`` labels every multiset of heaps below
the largest by its rank (a byte each, children found by arithmetic). The baseline,
measured in the same run, is the hashed search that ``genus(n - 1)`` runs: a walk
down from the largest heap alone over the same multisets (keys in a hash table),
which gives that heap's value with its genus; the two values are compared. Past
about 2**27 moves the baseline is refused (after about 40 s of work), and from
there on only the ranked search's time is printed, up to heap ``--largest - 1``
(Kayles to heap 99 takes minutes and about 200 MB).
"""

from __future__ import annotations

import argparse
import time

import nimkit as nk

GAMES = {"0.77": [40, 50, 60, 70, 80, 90, 100], "0.07": [50, 60, 70, 80, 90, 100]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--largest", type=int, default=90)
    args = parser.parse_args()
    print(f"{'code':>6} {'heaps':>6} {'ranked s':>9} {'hashed s':>9} {'ratio':>7}")
    for code, counts in GAMES.items():
        rule = nk.TakeAndBreak(code)
        refused = False
        for count in (c for c in counts if c <= args.largest):
            start = time.perf_counter()
            values = rule.misere_grundy_sequence(count, max_positions=2**31)
            ranked = time.perf_counter() - start
            if refused:
                print(f"{code:>6} {count:>6} {ranked:>9.2f} {'refused':>9}", flush=True)
                continue
            start = time.perf_counter()
            try:
                genus = rule.genus(count - 1, max_positions=2**31)
            except ValueError:
                # Past its move limit here, so at every larger heap too.
                refused = True
                print(f"{code:>6} {count:>6} {ranked:>9.2f} {'refused':>9}", flush=True)
                continue
            hashed = time.perf_counter() - start
            assert genus.sup[0] == values[-1], (code, count)
            ratio = hashed / ranked
            print(f"{code:>6} {count:>6} {ranked:>9.2f} {hashed:>9.2f} {ratio:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
