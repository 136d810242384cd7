"""One position at a time: the cost of a scalar call, against a plain Python call.

    python benches/scalar.py [--calls 200000]

Times ``Rules(...)``, ``Position(...)``, ``Position.outcome`` and
``Position.winning_moves`` per call (best of five runs), for Nim and for Kayles, and
divides each by the cost of a trivial Python method call measured in the same run,
so the ratio says how many plain calls one nimkit call costs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import nimkit as nk


class _Plain:
    def call(self) -> int:
        return 1


def per_call(f: Callable[[], object], calls: int) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            f()
        best = min(best, time.perf_counter() - start)
    return best / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    calls = parser.parse_args().calls
    plain = _Plain()
    baseline = per_call(plain.call, calls)
    nim, kayles = nk.Rules(misere=True, max_take=3), nk.Rules(code="0.77")
    pos = nk.Position([3, 4, 5, 9])
    cases: list[tuple[str, Callable[[], object]]] = [
        ("Rules(misere=True, max_take=3)", lambda: nk.Rules(misere=True, max_take=3)),
        ('Rules(code="0.77")', lambda: nk.Rules(code="0.77")),
        ("Position([3, 4, 5, 9])", lambda: nk.Position([3, 4, 5, 9])),
        ("outcome, misère take limit 3", lambda: pos.outcome(nim)),
        ("winning_moves, misère take limit 3", lambda: pos.winning_moves(nim)),
        ("outcome, Kayles", lambda: pos.outcome(kayles)),
        ("winning_moves, Kayles", lambda: pos.winning_moves(kayles)),
    ]
    print(f"a plain Python method call: {baseline * 1e9:.0f} ns")
    for name, f in cases:
        t = per_call(f, calls)
        print(f"{name:<36} {t * 1e9:>8.0f} ns  {t / baseline:>6.1f}x a plain call")


if __name__ == "__main__":
    main()
