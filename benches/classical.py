"""The classical games from Python: nim products over numpy arrays, Green Hackenbush
from a networkx graph.

    python benches/classical.py

- ``nim_multiply`` over 10**7 pairs of uint64 against a plain XOR of the same arrays
  (``np.bitwise_xor``: the memory-read baseline) and Conway's recursive product in
  Python on a sample, in the same run.
- ``GreenHackenbush`` on a random networkx MultiGraph of 10**6 edges: the time to build
  the game (the graph's edges read into the core) and to value it.

The Wythoff table against the straightforward mex, and Hackenbush in the core alone:
``cargo run --release --example classical``.
"""

from __future__ import annotations

import os
import time
from functools import cache

import numpy as np

import nimkit as nk


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


@cache
def conway(a: int, b: int) -> int:
    """The nim product by its definition's recursion on 2-powers (Conway)."""
    if a < 2 or b < 2:
        return a * b
    # F = 2**(2**m), the largest Fermat 2-power at most max(a, b): F ⊗ F = F ⊕ F/2.
    half = 1 << (1 << ((max(a, b).bit_length() - 1).bit_length() - 1))
    a1, a0, b1, b0 = a // half, a % half, b // half, b % half
    high = conway(a1, b1)
    return (
        ((conway(a1, b0) ^ conway(a0, b1) ^ high) * half) ^ conway(a0, b0) ^ conway(high, half >> 1)
    )


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2**64, size=10**7, dtype=np.uint64)
    b = rng.integers(0, 2**64, size=10**7, dtype=np.uint64)
    product = nk.nim_multiply(a, b)
    xor = min(timed(lambda: np.bitwise_xor(a, b)) for _ in range(3))
    ours = min(timed(lambda: nk.nim_multiply(a, b)) for _ in range(3))
    sample = 2000
    conway.cache_clear()
    pairs = list(zip(a[:sample].tolist(), b[:sample].tolist(), strict=True))
    naive = timed(lambda: [conway(x, y) for x, y in pairs])
    assert [conway(x, y) for x, y in pairs[:50]] == product[:50].tolist()
    per_naive = naive / sample
    print(
        f"nim_multiply, 10**7 pairs on {os.cpu_count()} cores: {ours:.3f} s, "
        f"{ours / xor:.1f}x a plain XOR ({xor:.3f} s); "
        f"Conway's recursion in Python {per_naive * 1e6:.0f} µs a product: "
        f"{per_naive * 10**7 / ours:.0f}x slower"
    )

    import networkx as nx

    nodes = 300_000
    ends = rng.integers(0, nodes, size=(10**6, 2))
    graph = nx.MultiGraph()
    graph.add_edges_from(map(tuple, ends.tolist()))
    game = None

    def build() -> None:
        nonlocal game
        game = nk.GreenHackenbush(graph, ground=range(10))

    built = timed(build)
    assert game is not None
    valued = timed(game.grundy)
    print(
        f"GreenHackenbush, a random MultiGraph of 10**6 edges: built in {built:.1f} s, "
        f"valued in {valued:.2f} s (value {game.grundy()})"
    )


if __name__ == "__main__":
    main()
