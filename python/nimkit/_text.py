"""Plain-text pieces of an analysis's report: the digital-sum table, what a move
makes of its heap, and why a misère verdict came from where it came."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .position import Move, Position


#: How many winning moves a report writes out: each line shows the whole position
#: left, so a report of every move would grow as heaps times moves.
MAX_LISTED = 20

#: Why a misère verdict came from where it came, for rules with no closed form.
WHY: dict[str, str] = {
    "search": (
        "misère play of these rules has no closed form; the outcome comes from an "
        "exhaustive search of every position this one can reach"
    ),
    "misère quotient": (
        "misère play of these rules has no closed form; the outcome comes from their "
        "misère quotient (Plambeck and Siegel), the monoid of positions up to misère "
        "indistinguishability, which answers positions of any size"
    ),
}


def digital_sum_table(sizes: tuple[int, ...], grundy: tuple[int, ...], nim_sum: int) -> list[str]:
    """One row per heap with its Grundy value in binary, the nim-sum row, and a marker
    row under the columns holding an odd number of 1s (the bits of the nim-sum)."""
    width = max([1, *(g.bit_length() for g in grundy)])
    header = ("heap", "size", "grundy")
    rows = [(str(i), str(n), str(g)) for i, (n, g) in enumerate(zip(sizes, grundy, strict=True))]
    rows.append(("nim-sum", "", str(nim_sum)))
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(3)]

    def line(cells: tuple[str, str, str], binary: str) -> str:
        left = "  ".join(cell.rjust(w) for cell, w in zip(cells, widths, strict=True))
        return f"{left}  {binary}".rstrip()

    lines = [line(header, "binary".rjust(width))]
    values = [*grundy, nim_sum]
    lines += [line(r, format(g, f"0{width}b")) for r, g in zip(rows, values, strict=True)]
    lines.insert(-1, "-" * len(lines[0]))
    marks = "".join("^" if bit == "1" else " " for bit in format(nim_sum, f"0{width}b"))
    if nim_sum:
        lines.append(line(("", "", ""), marks) + "   odd number of 1s")
    else:
        lines.append(" " * (sum(widths) + 4) + "  every column has an even number of 1s")
    return lines


def becomes(position: Position, move: Move) -> str:
    """What a move makes of its heap: ``9 -> 5``, or ``9 -> 1 + 7`` for a split."""
    size = position[move.heap]
    if move.into is not None:
        return f"{size} -> {' + '.join(map(str, move.into))}"
    return f"{size} -> {size - move.take}"
