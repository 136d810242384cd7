"""Plain-text rendering of an analysis: the digital-sum table and the verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis import Analysis, Method
    from .position import Move, Position


#: How many winning moves a report writes out: each line shows the whole position
#: left, so a report of every move would grow as heaps times moves.
MAX_LISTED = 20

#: Why a misère verdict came from where it came, for rules with no closed form.
WHY: dict[Method, str] = {
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


def analysis_text(analysis: Analysis) -> str:
    """The report ``nimkit analyse`` prints. The digital-sum table and the nim-sum
    appear where they decide the outcome (not in misère play of rules with no
    closed form)."""
    position, rules = analysis.position, analysis.rules
    lines = [
        f"Position: {position}   (heaps numbered from 0)",
        f"Rules:    {rules.describe()}",
        "",
    ]
    if analysis.method == "closed form":
        lines += [
            *digital_sum_table(position.heaps, analysis.grundy, analysis.nim_sum),
            "",
            f"Nim-sum:  {analysis.nim_sum}",
        ]
    lines.append(f"Outcome:  {analysis.outcome.value}, {analysis.outcome.describe()}")
    if analysis.method != "closed form":
        lines.append(f"Why:      {WHY[analysis.method]}")
    elif rules.misere:
        lines.append(f"Why:      {_misere_rule(analysis.grundy)}")
    moves = analysis.winning_moves
    if not analysis.every_winning_move:
        lines.append("Winning moves: too many options to list every one; one of them:")
        lines += [f"  {move}  ({becomes(position, move)})" for move in moves]
    elif moves:
        lines.append("Winning moves:")
        for move in moves[:MAX_LISTED]:
            left = position.after(move, rules)
            lines.append(f"  {move}  ({becomes(position, move)}), leaving {left}")
        if len(moves) > MAX_LISTED:
            lines.append(f"  ... and {len(moves) - MAX_LISTED} more (--json lists every one)")
    else:
        lines.append("Winning moves: none")
    return "\n".join(lines)


def _misere_rule(grundy: tuple[int, ...]) -> str:
    """Which half of the misère rule decides this position."""
    if any(g > 1 for g in grundy):
        return (
            "some Grundy value exceeds 1, so misère play goes as normal play: "
            "the player to move loses exactly when the nim-sum is 0"
        )
    return (
        "every Grundy value is 0 or 1, so in misère play the player to move "
        "loses exactly when the nim-sum is 1"
    )
