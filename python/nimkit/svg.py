"""Every picture nimkit draws, as SVG text built one way (the standard library's
ElementTree, on a light background that reads in a dark theme too): positions,
analyses, games in progress, game graphs, Wythoff boards, staircases, coin rows and
boards, Green Hackenbush, Node and Arc Kayles graphs and Cram boards. Each object's
``svg()`` (and ``_repr_svg_``, what a notebook shows) calls its function here; call
them directly to save a picture.

>>> from nimkit import svg, Position, Wythoff
>>> svg.position(Position([1, 2]))[:4], svg.wythoff(Wythoff(3, 5)).count('fill="#c33"')
('<svg', 4)
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import _layered
from ._text import MAX_LISTED

if TYPE_CHECKING:
    from .analysis import Analysis
    from .boards import Cram, _OnGraph
    from .classical import StaircaseNim, Wythoff
    from .hackenbush import GreenHackenbush
    from .playing import Game
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


def position(position: Position) -> str:
    """The heaps as rows of tokens with their numbers and counts."""
    rows = max(len(position), 1)
    svg = _svg(1, rows * ROW + 8)
    width = _board(svg, position, {}, 4)
    if not len(position):
        _text(svg, 4, 16, "(no heaps)", fill=INK)
    return finish_svg(svg, width, rows * ROW + 8)


def analysis(analysis: Analysis) -> str:
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


def game(game: Game[Any, Any], names: tuple[str, str] = ("player 0", "player 1")) -> str:
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


def _element(parent: ET.Element, tag: str, title: str | None = None, **attrs: Any) -> ET.Element:
    """A child element, its attributes given as numbers or text, with a tooltip."""
    element = ET.SubElement(parent, tag, {k.replace("_", "-"): str(v) for k, v in attrs.items()})
    if title is not None:
        ET.SubElement(element, "title").text = title
    return element


def _words(text: str, width: float = 400) -> str:
    """A picture that is one line of text (what is too large to draw)."""
    svg = _svg(width, 20)
    _text(svg, 4, 15, text, fill=INK)
    return finish_svg(svg, width, 20)


def wythoff(game: Wythoff, cell: int = 14, most: int = 40) -> str:
    """Wythoff's board (heaps as coordinates, up to ``most`` a side): P-positions
    shaded, the position as a queen, the winning moves ringed."""
    from .classical import wythoff_grundy_table

    a, b = game.heaps
    if max(a, b) >= most:
        return _words(game.describe())
    rows, cols = a + 1, b + 1
    winning = [m.heaps for m in game.winning_moves() if hasattr(m, "heaps")]
    p_cells = wythoff_grundy_table(max(rows, cols)) == 0
    svg = _svg(1, 1)
    for x in range(rows):
        for y in range(cols):
            fill = "#c33" if p_cells[x, y] else "#eee"
            _element(
                svg,
                "rect",
                f"({x}, {y})",
                x=y * cell + 1,
                y=x * cell + 1,
                width=cell - 1,
                height=cell - 1,
                fill=fill,
            )
    for x, y in winning:
        _element(
            svg,
            "circle",
            cx=y * cell + cell / 2 + 1,
            cy=x * cell + cell / 2 + 1,
            r=cell / 2 - 1,
            fill="none",
            stroke="#2a2",
            stroke_width=2,
        )
    _element(
        svg, "circle", cx=b * cell + cell / 2 + 1, cy=a * cell + cell / 2 + 1, r=cell / 3, fill=INK
    )
    return finish_svg(svg, cols * cell + 2, rows * cell + 2)


def staircase(game: StaircaseNim, step: int = 44, rise: int = 22) -> str:
    """The staircase from the floor up, each step with its coins (odd steps, the Nim
    heaps, shaded), the steps a winning move takes coins from ringed."""
    coins = game.coins
    moves = [m.coins for m in game.winning_moves() if hasattr(m, "coins")]
    from_steps = {next(i for i in reversed(range(len(coins))) if m[i] < coins[i]) for m in moves}
    width, height = max(len(coins) * step + 4, 400), len(coins) * rise + 30
    svg = _svg(width, height)
    for i, count in enumerate(coins):
        x, top = i * step + 2, height - 20 - (i + 1) * rise
        ringed = i in from_steps
        _element(
            svg,
            "rect",
            f"step {i}: {count} coins",
            x=x,
            y=top,
            width=step,
            height=(i + 1) * rise,
            fill=ODD_FILL if i % 2 else "#eee",
            stroke="#2a2" if ringed else "#555",
            stroke_width=3 if ringed else 1,
        )
        _text(svg, x + step / 2, top + 15, str(count), fill=INK, **{"text-anchor": "middle"})
    caption = (
        "odd steps shaded (Nim heaps); green: move coins down from there"
        if from_steps
        else "odd steps shaded (the Nim heaps)"
    )
    _text(svg, 2, height - 4, caption, fill=INK)
    return finish_svg(svg, width, height)


def coins(
    rows: Sequence[Sequence[int]], marked: set[tuple[int, int]], caption: str, cell: int = 26
) -> str:
    """Rows of coins (one row for a coin-turning game, a board for Turning Corners):
    heads gold with H, tails grey; the coins at the ``(row, column)`` pairs of
    ``marked`` ringed in red, with ``caption`` below."""
    cols = max((len(r) for r in rows), default=0)
    width, height = max(cols * cell + 4, 240), len(rows) * cell + 24
    svg = _svg(width, height)
    for x, row in enumerate(rows):
        for y, coin in enumerate(row):
            cx, cy, r = y * cell + cell / 2 + 2, x * cell + cell / 2 + 2, cell / 2 - 3
            ring = (x, y) in marked
            _element(
                svg,
                "circle",
                str((x, y) if len(rows) > 1 else y),
                cx=cx,
                cy=cy,
                r=r,
                fill="#e8b830" if coin else "#ccc",
                stroke="#c22" if ring else "#555",
                stroke_width=3 if ring else 1,
            )
            _text(svg, cx, cy + 4, "H" if coin else "T", fill=INK, **{"text-anchor": "middle"})
    if marked:
        _text(svg, 2, height - 6, caption, fill=INK)
    return finish_svg(svg, width, height)


#: The most Hackenbush edges drawn; a larger graph is described in words.
MOST_EDGES = 200


def hackenbush(game: GreenHackenbush, width: int = 420, level: int = 60) -> str:
    """The graph standing on a ground line: nodes in levels by their distance from the
    ground, edges green, the winning edges red and thick, loops as small rings."""
    from . import _core

    names = game._names
    standing = list(game._native.numbers())
    if len(standing) > MOST_EDGES:
        return _words(game.describe(), width)
    winning = set(_core.hackenbush_winning_chops(game._native))
    neighbours: dict[Any, list[Any]] = defaultdict(list)
    for e in standing:
        u, v = names.ends[e]
        neighbours[u].append(v)
        neighbours[v].append(u)
    depth = {g: 0 for g in names.ground}
    frontier = list(names.ground)
    while frontier:
        following = []
        for u in frontier:
            for v in neighbours[u]:
                if v not in depth:
                    depth[v] = depth[u] + 1
                    following.append(v)
        frontier = following
    levels: dict[int, list[Any]] = defaultdict(list)
    for node, d in depth.items():
        levels[d].append(node)
    height = (max(levels, default=0) + 1) * level + 30
    where = {}
    for d, row in levels.items():
        for i, node in enumerate(row):
            where[node] = ((i + 1) * width / (len(row) + 1), height - 20 - d * level)
    svg = _svg(width, height)
    _element(svg, "rect", x=0, y=height - 20, width=width, height=20, fill="#b58b5a")
    seen: Counter[frozenset[Any]] = Counter()
    for e in standing:
        u, v = names.ends[e]
        colour, thick = ("#d22", 4) if e in winning else ("#2a8a2a", 2)
        title = str(names.edges[e])
        (x1, y1), (x2, y2) = where[u], where[v]
        pair = frozenset((u, v))
        seen[pair] += 1
        if u == v:  # a loop: a ring above the node
            r = 9 + 5 * (seen[pair] - 1)
            _element(
                svg,
                "circle",
                title,
                cx=x1,
                cy=y1 - r,
                r=r,
                fill="none",
                stroke=colour,
                stroke_width=thick,
            )
            continue
        # Parallel edges bend alternately to either side, further each time.
        k = seen[pair] - 1
        bend = 0 if k == 0 else (1 if k % 2 else -1) * 14 * ((k + 1) // 2)
        length = math.hypot(x2 - x1, y2 - y1) or 1
        cx = (x1 + x2) / 2 - bend * (y2 - y1) / length
        cy = (y1 + y2) / 2 + bend * (x2 - x1) / length
        _element(
            svg,
            "path",
            title,
            d=f"M{x1},{y1} Q{cx},{cy} {x2},{y2}",
            fill="none",
            stroke=colour,
            stroke_width=thick,
        )
    for node, (x, y) in where.items():
        _element(svg, "circle", str(node), cx=x, cy=y, r=4, fill=INK)
    if winning:
        _text(svg, 4, 12, "red: the edges to chop", fill="#d22")
    return finish_svg(svg, width, height)


# A game graph is laid out in columns by distance from the start (nodes, edges,
# labels, outcomes "P"/"N"/"D", titles, and whether P-positions frame the kernel);
# nimkit.draw_game_graph gives the arguments for heaps or any game.
game_graph = _layered.draw


#: The most cells (or vertices) whose winning moves a picture searches and marks.
MARKED_UP_TO = 40
#: The most vertices a graph picture draws.
MOST_VERTICES = 80


def cram(game: Cram, cell: int = 28) -> str:
    """The board: filled cells dark, the winning dominoes (normal play) red, for boards
    of at most ``MARKED_UP_TO`` empty cells."""
    rows, cols = game.shape
    cells = game.cells
    svg = _svg(1, 1)
    for r in range(rows):
        for c in range(cols):
            fill = "#fff" if (r, c) in cells else "#444"
            _element(
                svg,
                "rect",
                f"({r}, {c})",
                x=c * cell + 2,
                y=r * cell + 2,
                width=cell - 2,
                height=cell - 2,
                fill=fill,
                stroke="#999",
            )
    if len(cells) <= MARKED_UP_TO:
        for option in game.winning_moves():
            (r1, c1), (r2, c2) = sorted(game.removed(option))  # type: ignore[arg-type]
            _element(
                svg,
                "rect",
                f"winning domino ({r1}, {c1})-({r2}, {c2})",
                x=c1 * cell + 6,
                y=r1 * cell + 6,
                width=(c2 - c1 + 1) * cell - 10,
                height=(r2 - r1 + 1) * cell - 10,
                rx=6,
                fill="none",
                stroke="#d22",
                stroke_width=3,
            )
    return finish_svg(svg, cols * cell + 4, rows * cell + 4)


def vertex_game(game: _OnGraph, size: int = 320) -> str:
    """The graph on a circle, the vertices deleted pale, the winning moves (normal
    play) red: a vertex to pick (Node Kayles) or an edge to take (Arc Kayles)."""
    from . import _core

    names = game._names()
    if len(names) > MOST_VERTICES:
        return _words(game.describe())
    left = set(game._native.numbers())
    edges = _core.vertex_edges(game._native)
    centre, radius = size / 2, size / 2 - 24
    where = {
        v: (
            centre + radius * math.cos(2 * math.pi * v / max(len(names), 1) - math.pi / 2),
            centre + radius * math.sin(2 * math.pi * v / max(len(names), 1) - math.pi / 2),
        )
        for v in range(len(names))
    }
    index = {name: v for v, name in enumerate(names)}
    red_vertices: set[int] = set()
    red_edges: set[frozenset[int]] = set()
    if len(left) <= MARKED_UP_TO:
        neighbours: dict[int, set[int]] = defaultdict(set)
        for u, v in edges:
            neighbours[u].add(v)
            neighbours[v].add(u)
        for option in game.winning_moves():
            gone = {index[name] for name in game.removed(option)}  # type: ignore[arg-type]
            if game.family == "arc_kayles":
                red_edges.add(frozenset(gone))
            else:
                red_vertices |= {v for v in gone if (neighbours[v] | {v}) & left == gone}
    svg = _svg(size, size)
    for u, v in edges:
        alive = u in left and v in left
        red = frozenset((u, v)) in red_edges
        (x1, y1), (x2, y2) = where[u], where[v]
        _element(
            svg,
            "line",
            f"{names[u]} - {names[v]}",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke="#d22" if red else (INK if alive else "#ddd"),
            stroke_width=4 if red else 2,
        )
    for v, (x, y) in where.items():
        fill = "#d22" if v in red_vertices else (TOKEN_FILL if v in left else "#eee")
        _element(svg, "circle", str(names[v]), cx=x, cy=y, r=9, fill=fill, stroke=INK)
        _text(svg, x + 11, y - 9, str(names[v]))
    return finish_svg(svg, size, size)
