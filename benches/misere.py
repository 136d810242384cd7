"""Misère quotients against the exact search they replace.

    python benches/misere.py [--max-heap 300] [--box 14]

For a few octal games with finite quotients: the time to compute the quotient (up
to ``--max-heap``, stopping once its period is proven), then the outcomes of every
position of three heaps of sizes ``0..--box``: by the quotient (``q.outcome``, one
call per position) and by the exact misère search over the same box
(``nimkit.solve(..., remoteness=False)``, one search from every position), both
measured in this run; the ratio is search time over quotient time. Last, the time
per outcome for three heaps near 10**9, which no search reaches.

Then the first winning move of Kayles positions ``[n, 6]``, normal and misère play:
by a perfect player, which looks through one option of each class the period cannot
tell apart, against ``Position.winning_moves`` (every option: the baseline), both in
this run, the moves compared; and from a heap of 10**12, which only the first can
answer.
"""

from __future__ import annotations

import argparse
import itertools
import time

import nimkit as nk

GAMES = ["0.77", "0.75", "0.123", "0.71"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-heap", type=int, default=300)
    parser.add_argument("--box", type=int, default=14)
    args = parser.parse_args()
    box = [args.box] * 3
    positions = list(itertools.product(range(args.box + 1), repeat=3))
    print(
        f"{'code':>6} {'order':>5} {'period':>10} {'quotient s':>10} "
        f"{'box by q s':>10} {'box by search s':>15} {'ratio':>7} {'us/outcome 1e9':>15}"
    )
    for code in GAMES:
        rule = nk.TakeAndBreak(code)
        start = time.perf_counter()
        q = rule.misere_quotient(max_heap=args.max_heap)
        built = time.perf_counter() - start

        start = time.perf_counter()
        by_quotient = [q.outcome(p) == nk.Outcome.P for p in positions]
        quotient_time = time.perf_counter() - start

        start = time.perf_counter()
        solution = nk.solve(box, nk.Rules(code=code, misere=True), remoteness=False)
        search_time = time.perf_counter() - start
        by_search = [solution.outcome_of(p) == nk.Outcome.P for p in positions]
        assert by_quotient == by_search, code

        big = [10**9 + 1, 10**9 + 7, 10**9 + 10]
        repeats = 10_000
        start = time.perf_counter()
        for _ in range(repeats):
            q.outcome(big)
        per_outcome = (time.perf_counter() - start) / repeats * 1e6
        print(
            f"{code:>6} {q.order:>5} {q.period!s:>10} {built:>10.3f} "
            f"{quotient_time:>10.3f} {search_time:>15.3f} "
            f"{search_time / quotient_time:>7.1f} {per_outcome:>15.2f}"
        )
    first_moves()


def first_moves() -> None:
    print(f"\n{'play':>6} {'heap':>10} {'every move s':>12} {'by class us':>11} {'ratio':>9}")
    for misere in (False, True):
        rules = nk.Rules(code="0.77", misere=misere)
        for n in (10**5 + 3, 10**6 + 3, 10**7 + 3):
            start = nk.Position([n, 6])
            # The solver (in misère play, the code's quotient) is made before timing.
            start.outcome(rules)
            began = time.perf_counter()
            every = start.winning_moves(rules)
            scan = time.perf_counter() - began
            game = nk.Game(start, rules)
            player = nk.PerfectPlayer()
            repeats = 100
            began = time.perf_counter()
            for _ in range(repeats):
                chosen = player.choose(game)
            by_class = (time.perf_counter() - began) / repeats
            assert every, n
            assert chosen == every[0], (n, misere)
            play = "misère" if misere else "normal"
            ratio = scan / by_class
            print(f"{play:>6} {n:>10} {scan:>12.3f} {by_class * 1e6:>11.1f} {ratio:>9.0f}")
        game = nk.Game(nk.Position([10**12, 6]), rules)
        began = time.perf_counter()
        player.choose(game)
        huge = (time.perf_counter() - began) * 1e6
        print(f"{play:>6} {'10**12':>10} {'refused':>12} {huge:>11.1f}")


if __name__ == "__main__":
    main()
