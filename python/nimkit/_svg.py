"""SVG pictures of positions, analyses and games, built with the standard library."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._text import MAX_LISTED

if TYPE_CHECKING:
    from .analysis import Analysis
    from .game import Game
    from .position import Move, Position

#: Tokens drawn per heap before the row is cut short with an ellipsis.
MAX_TOKENS = 24
TOKEN, GAP, ROW, LEFT = 16, 4, 24, 64
INK, TOKEN_FILL, TAKEN_FILL, ODD_FILL, CHANGE_FILL = (
    "#222",
    "#4a7bd0",
    "#f2b33d",
    "#fde2e2",
    "#fff2c6",
)
BACKGROUND = "#fff"
FONT = "font-family:sans-serif;font-size:12px"


def _svg(width: float, height: float) -> ET.Element:
    return ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=str(int(width)),
        height=str(int(height)),
        viewBox=f"0 0 {int(width)} {int(height)}",
    )


def finish_svg(svg: ET.Element, width: float, height: float) -> str:
    """Size the picture and put it on its own light background, so that its dark
    ink reads the same in a dark notebook theme or on a dark page."""
    svg.set("width", str(int(width)))
    svg.set("height", str(int(height)))
    svg.set("viewBox", f"0 0 {int(width)} {int(height)}")
    background = ET.Element("rect", width="100%", height="100%", fill=BACKGROUND, rx="4")
    background.set("class", "background")
    svg.insert(0, background)
    return ET.tostring(svg, encoding="unicode")


def _text(parent: ET.Element, x: float, y: float, text: str, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, "text", {"x": str(x), "y": str(y), "style": FONT, **attrs})
    element.text = text
    return element


def _board(parent: ET.Element, position: Position, moves: dict[int, Move], top: float) -> float:
    """Rows of tokens, one per heap, with the heap number and size; the tokens that
    ``moves[heap]`` takes are drawn as taken (the last ones of the row, or for a split
    the ones between the first part and the rest, with a cut mark where the heap
    splits). Returns the width used."""
    width = LEFT
    for heap, size in enumerate(position):
        y = top + heap * ROW
        _text(parent, 4, y + 12, f"heap {heap}", fill=INK)
        shown = min(size, MAX_TOKENS)
        move = moves.get(heap)
        first, take, label_move = shown, 0, ""
        if move is not None and move.into is None:
            take = min(move.take, shown)
            first = shown - take
            label_move = f"  (take {move.take})"
        elif move is not None and move.into is not None:
            first, take = min(move.into[0], shown), min(move.take, shown)
            label_move = f"  (take {move.take}, split {' + '.join(map(str, move.into))})"
        # Where the parts meet with no taken token between them.
        cuts = []
        if move is not None and move.into is not None:
            cut = move.into[0] + move.take
            if move.take == 0:
                cuts.append(cut)
            for part in move.into[1:-1]:
                cut += part
                cuts.append(cut)
        for i in range(shown):
            cx = LEFT + i * (TOKEN + GAP) + TOKEN / 2
            is_taken = first <= i < first + take
            token = ET.SubElement(
                parent,
                "circle",
                cx=str(cx),
                cy=str(y + 8),
                r=str(TOKEN / 2),
                fill=TAKEN_FILL if is_taken else TOKEN_FILL,
            )
            token.set("class", "taken" if is_taken else "token")
        for cut in cuts:
            if 0 < cut < shown:
                x = LEFT + cut * (TOKEN + GAP) - GAP / 2
                line = ET.SubElement(
                    parent,
                    "line",
                    x1=str(x),
                    y1=str(y),
                    x2=str(x),
                    y2=str(y + 16),
                    stroke=TAKEN_FILL,
                )
                line.set("class", "cut")
        x = LEFT + shown * (TOKEN + GAP)
        label = ("... " if size > shown else "") + str(size) + label_move
        _text(parent, x + 4, y + 12, label, fill=INK)
        width = max(width, x + 12 + 7 * len(label))
    return width


def position_svg(position: Position) -> str:
    """The heaps as rows of tokens with their numbers and counts."""
    rows = max(len(position), 1)
    svg = _svg(1, rows * ROW + 8)
    width = _board(svg, position, {}, 4)
    if not len(position):
        _text(svg, 4, 16, "(no heaps)", fill=INK)
    return finish_svg(svg, width, rows * ROW + 8)


def analysis_svg(analysis: Analysis) -> str:
    """The board with every winning move drawn on it (the tokens each takes, in
    amber), and, where the nim-sum decides, the digital-sum table: each heap's Grundy
    value in binary, the nim-sum row, the columns with an odd number of 1s shaded, and
    the heap and digits that the first winning move changes outlined."""
    position, moves = analysis.position, analysis.winning_moves
    taken: dict[int, Move] = {}
    for move in moves:
        taken.setdefault(move.heap, move)
    by_nim_sum = analysis.method == "closed form"
    table_top = max(len(position), 1) * ROW + 16
    cell = 18
    rows = len(position) + 1
    height = table_top + ((rows + 1) * cell if by_nim_sum else 0) + 64
    svg = _svg(1, height)
    width = _board(svg, position, taken, 4)
    if by_nim_sum:
        width = max(width, _digital_sum(svg, analysis, table_top, cell))
    verdict = f"{analysis.outcome.value}, {analysis.outcome.describe()}"
    summary = f"nim-sum {analysis.nim_sum}: {verdict}" if by_nim_sum else verdict
    if not by_nim_sum:
        summary += f" (by {analysis.method})"
    if moves:
        summary += "; winning: " + ", ".join(str(m) for m in moves[:MAX_LISTED])
        if len(moves) > MAX_LISTED:
            summary += f" and {len(moves) - MAX_LISTED} more"
    rules = f"rules: {analysis.rules.describe()}"
    _text(svg, 4, height - 28, rules, fill=INK)
    _text(svg, 4, height - 12, summary, fill=INK)
    width = max(width, 7 * len(summary), 7 * len(rules))
    return finish_svg(svg, width, height)


def _digital_sum(svg: ET.Element, analysis: Analysis, table_top: int, cell: int) -> int:
    """Draw the digital-sum table below the board; return its right edge."""
    position, moves = analysis.position, analysis.winning_moves
    bits = max([1, *(g.bit_length() for g in analysis.grundy)])
    rows = len(position) + 1
    first: Move | None = moves[0] if moves else None
    changed = _changed_bits(analysis, first)
    table_left = LEFT
    _text(svg, 4, table_top + 12, "binary", fill=INK)
    for col in range(bits):
        power = bits - 1 - col
        x = table_left + col * cell
        if analysis.nim_sum >> power & 1:
            shade = ET.SubElement(
                svg,
                "rect",
                x=str(x),
                y=str(table_top + cell),
                width=str(cell),
                height=str(rows * cell),
                fill=ODD_FILL,
            )
            shade.set("class", "odd-column")
        _text(svg, x + 4, table_top + 12, str(2**power) if power < 4 else f"2^{power}", fill="#777")
    for r in range(rows):
        y = table_top + (r + 1) * cell
        last = r == len(position)
        value = analysis.nim_sum if last else analysis.grundy[r]
        _text(svg, 4, y + 13, "nim-sum" if last else f"heap {r}", fill=INK)
        for col in range(bits):
            power = bits - 1 - col
            x = table_left + col * cell
            if not last and first is not None and r == first.heap and power in changed:
                box = ET.SubElement(
                    svg,
                    "rect",
                    x=str(x + 1),
                    y=str(y + 1),
                    width=str(cell - 2),
                    height=str(cell - 2),
                    fill=CHANGE_FILL,
                    stroke=TAKEN_FILL,
                )
                box.set("class", "changed")
            digit = _text(svg, x + 5, y + 13, str(value >> power & 1), fill=INK)
            digit.set("class", "digit")
        if last:
            ET.SubElement(
                svg,
                "line",
                x1=str(table_left),
                x2=str(table_left + bits * cell),
                y1=str(y),
                y2=str(y),
                stroke=INK,
            )
    return table_left + bits * cell + 8


def _changed_bits(analysis: Analysis, move: Move | None) -> set[int]:
    """The binary digits of the moved heap's Grundy value that the move flips."""
    if move is None:
        return set()
    after = analysis.position.after(move, analysis.rules)
    before_g = analysis.grundy[move.heap]
    after_g = 0
    for g in after.grundy(analysis.rules)[move.heap : move.heap + len(move.into or (0,))]:
        after_g ^= g
    diff = before_g ^ after_g
    return {power for power in range(diff.bit_length()) if diff >> power & 1}


def game_svg(game: Game[Any, Any], names: tuple[str, str] = ("player 0", "player 1")) -> str:
    """The board, whose turn it is (or who won), the rules, and the move list;
    ``names`` are the players' (player 0 first)."""
    position = game.position
    history: Iterable[Move] = game.history
    lines = [f"{i + 1}. {names[game.first ^ (i % 2)]}: {move}" for i, move in enumerate(history)]
    if game.winner is not None:
        status = f"{names[game.winner]} won"
    else:
        status = f"{names[game.turn]} to move"
    status = status[0].upper() + status[1:]
    rules = f"rules: {game.rules.describe()}"
    top = max(len(position), 1) * ROW + 12
    height = top + 36 + 16 * len(lines) + 8
    svg = _svg(1, height)
    width = _board(svg, position, {}, 4)
    _text(svg, 4, top + 8, status, fill=INK, **{"font-weight": "bold"})
    _text(svg, 4, top + 24, rules, fill=INK)
    for i, line in enumerate(lines):
        _text(svg, 4, top + 42 + 16 * i, line, fill=INK)
    width = max(width, 8 + 7 * max([len(status), len(rules), *map(len, lines)]))
    return finish_svg(svg, width, height)
