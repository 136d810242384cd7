"""A brute force for Sprouts, independent of the core: positions as plain regions of
boundaries of numbered spots with their curve counts, moves made on them as drawn
(nothing simplified: dead spots stay, regions with no move stay, no lands, no
canonical forms), values and misère outcomes by the mex and by plain recursion over
whole positions (no sum rule), remembered by the exact tuple.

Only what plainly changes nothing is done to a position after a move (`tidy`): dead
spots (three curves) left out of boundaries, boundaries and regions left empty
dropped, and the spots numbered afresh in order of appearance, boundaries and regions
sorted: each a relabelling of the same drawing, not a canonical form.

A position is ``(regions, curves)``: each region a tuple of boundaries, each boundary
the spots met walking around it (region on one side), ``curves[s]`` the curve ends at
spot ``s`` (at most 3).
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from functools import cache
from itertools import product

Boundary = tuple[int, ...]
Region = tuple[Boundary, ...]
Plain = tuple[tuple[Region, ...], tuple[int, ...]]


def start(spots: int) -> Plain:
    """The game of ``spots`` spots alone, in one region."""
    return ((tuple((s,) for s in range(spots)),), (0,) * spots) if spots else ((), ())


def _rotated(boundary: Boundary, i: int) -> Boundary:
    return boundary[i:] + boundary[:i]


def options(position: Plain) -> Iterator[Plain]:
    """Every position one move leaves (repeats included)."""
    regions, curves = position
    x = len(curves)  # the new spot

    def lives(s: int) -> int:
        return 3 - curves[s]

    for r, region in enumerate(regions):
        before, after = regions[:r], regions[r + 1 :]
        for b, boundary in enumerate(region):
            rest = region[:b] + region[b + 1 :]
            for i in range(len(boundary)):
                for j in range(i, len(boundary)):
                    p, q = boundary[i], boundary[j]
                    if (p == q and lives(p) < 2) or lives(p) < 1 or lives(q) < 1:
                        continue
                    if i == j:
                        inside: Boundary = (p, x)
                        outside = (p, x) if len(boundary) == 1 else (*_rotated(boundary, i), p, x)
                    else:
                        inside = (*boundary[i : j + 1], x)
                        outside = boundary[j:] + boundary[: i + 1] + (x,)
                    grown = [*list(curves), 2]
                    grown[p] += 1
                    grown[q] += 1
                    for sides in product((0, 1), repeat=len(rest)):
                        one = (inside, *(c for c, s in zip(rest, sides, strict=True) if s == 0))
                        two = (outside, *(c for c, s in zip(rest, sides, strict=True) if s == 1))
                        yield tidy(((*before, one, two, *after), tuple(grown)))
        for a in range(len(region)):
            for c in range(a + 1, len(region)):
                for i in range(len(region[a])):
                    for j in range(len(region[c])):
                        p, q = region[a][i], region[c][j]
                        if (p == q and lives(p) < 2) or lives(p) < 1 or lives(q) < 1:
                            continue
                        walk: list[int] = []
                        for side, k in ((region[a], i), (region[c], j)):
                            walk += _rotated(side, k)
                            if len(side) > 1:
                                walk.append(side[k])
                            walk.append(x)
                        grown = [*list(curves), 2]
                        grown[p] += 1
                        grown[q] += 1
                        kept = tuple(g for k, g in enumerate(region) if k not in (a, c))
                        yield tidy(((*before, (*kept, tuple(walk)), *after), tuple(grown)))


def tidy(position: Plain) -> Plain:
    """The position with dead spots, empty boundaries and empty regions left out, its
    spots numbered in order of appearance, boundaries and regions sorted."""
    regions, curves = position
    kept = tuple(
        region
        for region in (
            tuple(b for b in (tuple(s for s in b if curves[s] < 3) for b in region) if b)
            for region in regions
        )
        if region
    )
    for _ in range(2):
        order: dict[int, int] = {}
        for s in (s for region in kept for b in region for s in b):
            order.setdefault(s, len(order))
        kept = tuple(
            sorted(tuple(sorted(tuple(order[s] for s in b) for b in region)) for region in kept)
        )
        curves = tuple(c for _, c in sorted((n, curves[s]) for s, n in order.items()))
    return kept, curves


@cache
def grundy(position: Plain) -> int:
    seen = {grundy(o) for o in options(position)}
    return next(v for v in range(len(seen) + 1) if v not in seen)


@cache
def misere_wins(position: Plain) -> bool:
    """Whether the player to move wins misère play (no move: a win)."""
    moves = list(options(position))
    return not moves or any(not misere_wins(o) for o in moves)


def reachable(position: Plain) -> set[Plain]:
    """Every position play can reach from ``position``, itself included."""
    seen = {position}
    todo = [position]
    while todo:
        for option in options(todo.pop()):
            if option not in seen:
                seen.add(option)
                todo.append(option)
    return seen


def text(position: Plain) -> str:
    """The position in the string notation, as one land: spots by the curves they
    have, a spot of two curves met twice as an uppercase letter (``n(k)`` past Y)."""
    regions, curves = position
    count: dict[int, int] = {}
    for spot in (s for region in regions for boundary in region for s in boundary):
        count[spot] = count.get(spot, 0) + 1
    names: dict[int, str] = {}

    def mark(s: int) -> str:
        if curves[s] != 2 or count[s] == 1:
            return str(curves[s])
        if s not in names:
            k = len(names)
            names[s] = string.ascii_uppercase[k] if k < 25 else f"n({k + 1})"
        return names[s]

    written = "|".join(
        ".".join("".join(mark(s) for s in boundary) for boundary in region) for region in regions
    )
    return written or "!"
