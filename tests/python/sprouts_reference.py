"""A brute force for Sprouts, independent of the core: positions as plain regions of
boundaries of numbered spots with their curve counts, moves made on them as drawn
(nothing simplified: dead spots stay, regions with no move stay, no lands, no
canonical forms), values and misère outcomes by the mex and by plain recursion over
whole positions (no sum rule), remembered by the exact tuple.

Only what plainly changes nothing is done to a position after a move (`tidy`): dead
spots (three curves) left out of boundaries, boundaries and regions left empty
dropped, and the spots numbered afresh in order of appearance, boundaries and regions
sorted: each a relabelling of the same drawing, not a canonical form. The moves and
`tidy` are the certificate checker's (`nimkit.sprouts_checker`), which shares
nothing with the core either.

A position is ``(regions, curves)``: each region a tuple of boundaries, each boundary
the spots met walking around it (region on one side), ``curves[s]`` the curve ends at
spot ``s`` (at most 3).
"""

from __future__ import annotations

import string
from functools import cache

from nimkit.sprouts_checker import Plain, options, tidy

__all__ = ["grundy", "misere_wins", "options", "reachable", "start", "text", "tidy"]


def start(spots: int) -> Plain:
    """The game of ``spots`` spots alone, in one region."""
    return ((tuple((s,) for s in range(spots)),), (0,) * spots) if spots else ((), ())


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
