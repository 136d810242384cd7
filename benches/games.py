"""The game protocol: sums of native games, games defined in Python, game graphs.

    python benches/games.py

- A sum of native components (heaps under a code, Nim heaps, a take limit, with
  heaps of 10**12): microseconds per ``outcome()`` of a freshly built sum.
- ``Impartial`` with a cheap Python ``options`` (a subtraction set) over every heap
  to N: states per second against (a) the bare cost of calling ``options`` once on
  every state and (b) a memoized Python mex (``functools.cache``, the unbounded
  ``lru_cache``), in the same run.
- ``DigraphGame`` on random acyclic graphs: edges per second of the whole graph's
  labelling against a networkx-based Python labelling (topological order, then the
  mex of each node's successors) of the same graph; then a loopy graph of 10**7 edges
  with nimkit alone (Smith's values, draws included).
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

import nimkit as nk

TAKES = (1, 3, 4)


def options(n: int) -> list[int]:
    return [n - t for t in TAKES if t <= n]


def best(seconds: list[float]) -> float:
    return min(seconds)


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def sums() -> None:
    def fresh() -> nk.Sum:
        return (
            nk.Heaps([10**12, 3 * 10**11], nk.Rules(code="0.77"))
            + nk.Heaps([2**40, 7, 12345])
            + nk.Heaps([10**12 + 1], nk.Rules(max_take=5))
        )

    fresh().outcome()  # the code's period, computed once per process
    calls = 20_000
    start = time.perf_counter()
    for _ in range(calls):
        fresh().outcome()
    per_call = (time.perf_counter() - start) / calls
    print(f"sum of three native games with heaps to 10**12: {per_call * 1e6:.1f} µs per outcome")


def defined(n: int) -> None:
    def bare() -> None:
        for state in range(n + 1):
            list(options(state))

    def ours() -> None:
        nk.Impartial(n, options).grundy(max_positions=10 * n)

    def memoized() -> None:
        @cache  # functools.lru_cache without a bound
        def grundy(state: int) -> int:
            seen = {grundy(o) for o in options(state)}
            value = 0
            while value in seen:
                value += 1
            return value

        for state in range(n + 1):  # bottom-up, so the recursion stays shallow
            grundy(state)

    assert (
        nk.Impartial(n, options).grundy(max_positions=10 * n)
        == nk.Heaps([n], nk.Rules(take=set(TAKES))).grundy()
    )
    t_bare = best([timed(bare) for _ in range(3)])
    t_ours = best([timed(ours) for _ in range(3)])
    t_memo = best([timed(memoized) for _ in range(3)])
    rate = (n + 1) / t_ours / 1e6
    print(
        f"Impartial, subtraction {set(TAKES)}, heaps 0..{n:,}: {rate:.2f} M states/s; "
        f"{t_ours / t_bare:.2f}x the bare calls of options, "
        f"{t_memo / t_ours:.1f}x faster than lru_cache mex"
    )


def random_dag(nodes: int, edges: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, nodes, edges)
    b = rng.integers(0, nodes, edges)
    keep = a != b
    pairs = np.stack([np.minimum(a, b), np.maximum(a, b)], axis=1)[keep]
    return pairs.astype(np.int64)


def networkx_labelling(edges: np.ndarray) -> dict[int, int]:
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_edges_from(map(tuple, edges.tolist()))
    value: dict[int, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        seen = {value[s] for s in graph.succ[node]}
        g = 0
        while g in seen:
            g += 1
        value[node] = g
    return value


def graphs() -> None:
    edges = random_dag(200_000, 1_000_000, seed=1)
    t_nx = timed(lambda: networkx_labelling(edges))
    t_ours = best([timed(lambda: nk.DigraphGame(edges, 0).grundy()) for _ in range(3)])
    expected = networkx_labelling(edges)
    game = nk.DigraphGame(edges, 0)
    assert game.grundy() == expected[0]
    print(
        f"DigraphGame, random acyclic graph of {len(edges):,} edges: "
        f"{len(edges) / t_ours / 1e6:.1f} M edges/s, {t_nx / t_ours:.0f}x networkx labelling "
        f"({len(edges) / t_nx / 1e6:.2f} M edges/s)"
    )
    big = random_dag(1_000_000, 10_000_000, seed=2)
    rng = np.random.default_rng(3)
    back = big[rng.random(len(big)) < 0.01][:, ::-1]  # 1% of edges reversed: cycles
    loopy = np.concatenate([big, back])
    seconds = best([timed(lambda: nk.DigraphGame(loopy, 0).grundy()) for _ in range(2)])
    outcomes = nk.DigraphGame(loopy, 0).outcome()
    print(
        f"DigraphGame, random loopy graph of {len(loopy):,} edges: {seconds:.2f} s "
        f"({len(loopy) / seconds / 1e6:.1f} M edges/s; node 0 is {outcomes.value})"
    )


def main() -> None:
    sums()
    defined(200_000)
    graphs()


if __name__ == "__main__":
    main()
