"""A tiny pure-Python reference: outcomes and winning moves by exhaustive recursion."""

from __future__ import annotations

from functools import cache


def limit_of(max_take, heap: int):
    if max_take is None or isinstance(max_take, int):
        return max_take
    return max_take[heap]


def legal_moves(heaps: tuple[int, ...], max_take) -> list[tuple[int, int]]:
    return [
        (i, take)
        for i, n in enumerate(heaps)
        for take in range(1, min(n, limit_of(max_take, i) or n) + 1)
    ]


def play(heaps: tuple[int, ...], heap: int, take: int) -> tuple[int, ...]:
    return (*heaps[:heap], heaps[heap] - take, *heaps[heap + 1 :])


@cache
def is_p(heaps: tuple[int, ...], misere: bool, max_take) -> bool:
    moves = legal_moves(heaps, max_take)
    if not moves:
        return not misere
    return not any(is_p(play(heaps, h, t), misere, max_take) for h, t in moves)


def winning_moves(heaps: tuple[int, ...], misere: bool, max_take) -> list[tuple[int, int]]:
    return [
        (h, t) for h, t in legal_moves(heaps, max_take) if is_p(play(heaps, h, t), misere, max_take)
    ]


@cache
def grundy(n: int, limit) -> int:
    """Mex of the Grundy values of the heaps one move away."""
    options = {grundy(n - t, limit) for t in range(1, min(n, limit or n) + 1)}
    return next(g for g in range(n + 2) if g not in options)


def classification(heaps, rules, what):
    """What ``nimkit classify --what`` should produce, from the batch functions."""
    import numpy as np

    from nimkit import batch

    if what == "p":
        return batch.is_p_position(heaps, rules)
    if what == "nim-sum":
        return batch.nim_sum(heaps, rules)
    heap, take = batch.winning_move(heaps, rules)
    out = np.empty(len(heap), dtype=[("heap", np.int64), ("take", np.uint64)])
    out["heap"], out["take"] = heap, take
    return out


def with_vertices_left(game, vertices):
    """A game on a graph or board with only ``vertices`` left (vertex numbers; for
    Cram, cell ``(r, c)`` is ``r * cols + c``), built anew from the public
    constructors: what the tables of every position are checked against."""
    import nimkit as nk

    if isinstance(game, nk.Cram):
        rows, cols = game.shape
        return nk.Cram(
            [
                "".join("." if r * cols + c in vertices else "#" for c in range(cols))
                for r in range(rows)
            ]
        )
    (adjacency,), _ = game._arguments()
    names = game._names()
    return type(game)(adjacency, [names[v] for v in vertices])
