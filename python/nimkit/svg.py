"""Every picture nimkit draws, as SVG text built one way (the standard library's
ElementTree, on a light background that reads in a dark theme too): positions,
analyses, games in progress, game graphs, Wythoff boards, staircases, coin rows and
boards, Green Hackenbush, Node and Arc Kayles graphs, Cram boards and Sprouts
positions. Each object's ``svg()`` (and ``_repr_svg_``, what a notebook shows) calls
its function here; call them directly to save a picture.

>>> from nimkit import svg, Position, Wythoff
>>> svg.position(Position([1, 2]))[:4], svg.wythoff(Wythoff(3, 5)).count('fill="#c33"')
('<svg', 4)
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex

from . import _layered
from ._drawing import FONT, finish_svg
from ._text import MAX_LISTED

if TYPE_CHECKING:
    from .analysis import Analysis
    from .boards import Cram, _Deleting, _OnGraph
    from .classical import StaircaseNim, Wythoff
    from .games import ImpartialGame
    from .hackenbush import GreenHackenbush
    from .playing import Game
    from .position import Move, Position
    from .rules import Rules

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


def _svg(width: float, height: float) -> ET.Element:
    return ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=str(int(width)),
        height=str(int(height)),
        viewBox=f"0 0 {int(width)} {int(height)}",
    )


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


def position(position: Position | Sequence[SupportsIndex], rules: Rules | None = None) -> str:
    """The heaps (a Position or any sequence of sizes) as rows of tokens with their
    numbers and counts. With ``rules``, the winning moves under them are marked (the
    tokens each takes, in amber) and the rules and the outcome are written below.

    >>> import nimkit as nk
    >>> nk.svg.position(nk.Position([3, 4])).count('class="token"')
    7
    >>> svg = nk.svg.position([1, 3, 5, 7], nk.Rules(misere=True))
    >>> svg.startswith("<svg"), "P, the player to move loses against perfect play" in svg
    (True, True)
    >>> "take 2 from heap 0" in nk.svg.position([3, 4, 5], nk.Rules())
    True
    """
    from .analysis import analyse
    from .position import Position

    heaps = position if isinstance(position, Position) else Position(position)
    lines: tuple[str, ...] = ()
    moves: dict[int, Move] = {}
    if rules is not None:
        found = analyse(heaps, rules)
        lines, moves = _summary(found), _first_by_heap(found.winning_moves)
    board_height = max(len(heaps), 1) * ROW + 8
    height = board_height + 16 * len(lines) + (8 if lines else 0)
    svg = _svg(1, height)
    width = _board(svg, heaps, moves, 4)
    if not len(heaps):
        _text(svg, 4, 16, "(no heaps)", fill=INK)
    for i, line in enumerate(lines):
        _text(svg, 4, board_height + 12 + 16 * i, line, fill=INK)
    width = max([width, *(8 + 7 * len(line) for line in lines)])
    return finish_svg(svg, width, height)


def _first_by_heap(moves: Iterable[Move]) -> dict[int, Move]:
    """The first winning move from each heap: the one a board has room to mark."""
    first: dict[int, Move] = {}
    for move in moves:
        first.setdefault(move.heap, move)
    return first


def _summary(analysis: Analysis) -> tuple[str, str]:
    """The lines under a board: the rules, then the outcome (by the nim-sum where it
    decides) and the winning moves."""
    moves = analysis.winning_moves
    verdict = f"{analysis.outcome.value}, {analysis.outcome.describe()}"
    if analysis.method == "closed form":
        summary = f"nim-sum {analysis.nim_sum}: {verdict}"
    else:
        summary = f"{verdict} (by {analysis.method})"
    if moves:
        summary += "; winning: " + ", ".join(str(m) for m in moves[:MAX_LISTED])
        if len(moves) > MAX_LISTED:
            summary += f" and {len(moves) - MAX_LISTED} more"
    return f"rules: {analysis.rules.describe()}", summary


def analysis(analysis: Analysis) -> str:
    """The board with every winning move drawn on it (the tokens each takes, in
    amber), and, where the nim-sum decides, the digital-sum table: each heap's Grundy
    value in binary, the nim-sum row, the columns with an odd number of 1s shaded, and
    the heap and digits that the first winning move changes outlined.

    >>> import nimkit as nk
    >>> svg = nk.svg.analysis(nk.analyse([3, 4, 5]))
    >>> svg.count('class="taken"'), "nim-sum 2: N" in svg
    (2, True)
    """
    position = analysis.position
    by_nim_sum = analysis.method == "closed form"
    table_top = max(len(position), 1) * ROW + 16
    cell = 18
    rows = len(position) + 1
    height = table_top + ((rows + 1) * cell if by_nim_sum else 0) + 64
    svg = _svg(1, height)
    width = _board(svg, position, _first_by_heap(analysis.winning_moves), 4)
    if by_nim_sum:
        width = max(width, _digital_sum(svg, analysis, table_top, cell))
    rules, summary = _summary(analysis)
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
    ``names`` are the players' (player 0 first).

    >>> import nimkit as nk
    >>> play = nk.Game([1, 2])
    >>> play.push(nk.Move(1, 1))
    >>> svg = nk.svg.game(play, ("Ann", "Bob"))
    >>> "Bob to move" in svg, "1. Ann: take 1 from heap 1" in svg
    (True, True)
    """
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
    shaded, the position as a queen, the winning moves ringed.

    >>> import nimkit as nk
    >>> svg = nk.svg.wythoff(nk.Wythoff(3, 6))   # one winning move, to (3, 5)
    >>> svg.count('fill="#c33"'), svg.count('stroke="#2a2"')
    (4, 1)
    """
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
    heaps, shaded), the steps a winning move takes coins from ringed.

    >>> import nimkit as nk
    >>> svg = nk.svg.staircase(nk.StaircaseNim([0, 2, 1]))   # move the 2 coins down
    >>> svg.count('stroke="#2a2"'), "<title>step 1: 2 coins</title>" in svg
    (1, True)
    """
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
    ``marked`` ringed in red, with ``caption`` below.

    >>> import nimkit as nk
    >>> svg = nk.svg.coins([[1, 0, 1]], {(0, 2)}, "turn the ringed coin")
    >>> svg.count(">H<"), svg.count('stroke="#c22"'), "turn the ringed coin" in svg
    (2, 1, True)
    """
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
    ground, edges green, the winning edges red and thick, loops as small rings.

    >>> import nimkit as nk
    >>> svg = nk.svg.hackenbush(nk.GreenHackenbush([(0, 1), (1, 2)], ground=0))
    >>> svg.count('stroke="#d22"'), "red: the edges to chop" in svg   # the lower edge
    (1, True)
    """
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
#: The most winning moves of a Cram board drawn one small board each.
MOST_PANELS = 12
WINNING, FILLED, GREY = "#d22", "#444", "#888"
TITLE = "font-family:sans-serif;font-size:14px;font-weight:bold"
#: A legend's line: the swatch's tag and attributes, and its words.
Entry = tuple[str, dict[str, Any], str]


def _verdict(game: _Deleting, left: int, what: str) -> tuple[list[ImpartialGame], str]:
    """The winning moves (normal play) and the words for the value and outcome; past
    ``MARKED_UP_TO`` cells or vertices ``left``, no moves and why."""
    if left > MARKED_UP_TO:
        return [], f"not searched (more than {MARKED_UP_TO} {what})"
    moves = game.winning_moves()
    # With no winning move the value is 0; otherwise the value comes quickly from
    # the table that the search for the moves filled.
    if not moves:
        return moves, "value 0, P (the player to move loses)"
    return moves, f"value {game.grundy()}, N (the player to move wins)"


def _legend(parent: ET.Element, top: float, entries: list[Entry]) -> float:
    """One line per entry, a swatch (an element drawn in a 24 x 14 box at the left)
    and its words; returns the widest line's right edge."""
    for i, (tag, attrs, words) in enumerate(entries):
        y = top + 18 * i
        swatch = _element(parent, tag, **_placed(tag, attrs, 4, y))
        swatch.set("class", "legend")
        _text(parent, 34, y + 11, words, fill=INK)
    return max((34 + 7 * len(words) for _, _, words in entries), default=0)


def _placed(tag: str, attrs: dict[str, Any], x: float, y: float) -> dict[str, Any]:
    """A swatch's attributes placed in the 24 x 14 box at (x, y)."""
    if tag == "circle":
        return {"cx": x + 12, "cy": y + 7, "r": 6, **attrs}
    if tag == "line":
        return {"x1": x, "y1": y + 7, "x2": x + 24, "y2": y + 7, **attrs}
    shape = {"width": 14, "height": 14, **attrs}
    return {"x": x + (24 - shape["width"]) / 2, "y": y + (14 - shape["height"]) / 2, **shape}


def _cram_board(
    parent: ET.Element, game: Cram, x: float, y: float, cell: float, domino: frozenset[Any]
) -> None:
    """The board with its top left corner at (x, y): filled cells dark, empty ones
    white, the cells of ``domino`` (none, or the two of a move) as one red piece."""
    rows, cols = game.shape
    cells = game.cells
    for r in range(rows):
        for c in range(cols):
            _element(
                parent,
                "rect",
                f"({r}, {c})",
                x=x + c * cell,
                y=y + r * cell,
                width=cell,
                height=cell,
                fill="#fff" if (r, c) in cells else FILLED,
                stroke="#999",
            )
    if domino:
        (r1, c1), (r2, c2) = sorted(domino)
        piece = _element(
            parent,
            "rect",
            f"winning domino {_cells(domino)}",
            x=x + c1 * cell + 2,
            y=y + r1 * cell + 2,
            width=(c2 - c1 + 1) * cell - 4,
            height=(r2 - r1 + 1) * cell - 4,
            rx=min(6, cell / 4),
            fill=WINNING,
        )
        piece.set("class", "domino")


def _cells(domino: frozenset[Any]) -> str:
    """A domino's cells in words, such as "(0, 0)-(0, 1)"."""
    first, second = sorted(domino)
    return f"{first}-{second}"


def cram(game: Cram, cell: int = 32) -> str:
    """A title with the value and outcome (normal play), the board with its rows and
    columns numbered, a legend, and under it one small board per winning move, that
    move's domino red on it (at most ``MOST_PANELS``, then how many more), for boards
    of at most ``MARKED_UP_TO`` empty cells.

    >>> import nimkit as nk
    >>> svg = nk.svg.cram(nk.Cram(2, 3))
    >>> svg.startswith("<svg"), "Cram 2 x 3: value 1, N (the player to move wins)" in svg
    (True, True)
    >>> svg.count('class="winning-move"') == len(nk.Cram(2, 3).winning_moves())
    True
    """
    rows, cols = game.shape
    filled = rows * cols - len(game.cells)
    moves, verdict = _verdict(game, len(game.cells), "empty cells")
    shaped = f", {filled} cell{'s' * (filled > 1)} filled" if filled else ""
    title = f"Cram {rows} x {cols}{shaped}: {verdict}"
    cell = max(6, min(cell, 960 // cols))  # a long board shrinks to stay on a page
    left, top = 28, 46  # room for the row numbers and for the title and column numbers
    svg = _svg(1, 1)
    _text(svg, 4, 20, title, fill=INK, style=TITLE)
    for c in range(cols):
        _text(svg, left + (c + 0.5) * cell, top - 6, str(c), fill=GREY, **{"text-anchor": "middle"})
    for r in range(rows):
        _text(
            svg, left - 6, top + (r + 0.5) * cell + 4, str(r), fill=GREY, **{"text-anchor": "end"}
        )
    _cram_board(svg, game, left, top, cell, frozenset())
    entries: list[Entry] = [
        ("rect", {"fill": FILLED, "stroke": "#999"}, "a filled cell"),
        ("rect", {"fill": "#fff", "stroke": "#999"}, "an empty cell"),
    ]
    if moves:
        words = "a winning domino (normal play): one board each below"
        entries.append(("rect", {"fill": WINNING, "rx": 3, "width": 24, "height": 12}, words))
    legend_top = top + rows * cell + 14
    width = max(left + cols * cell + 8, 8 + 9 * len(title), _legend(svg, legend_top, entries))
    height: float = legend_top + 18 * len(entries) + 4
    if moves:
        right, height = _cram_panels(svg, game, moves, height, max(width, 560))
        width = max(width, right)
    return finish_svg(svg, width, height)


def _cram_panels(
    svg: ET.Element, game: Cram, moves: list[ImpartialGame], top: float, room: float
) -> tuple[float, float]:
    """The small boards of the winning moves, in rows that fit ``room``, from ``top``;
    returns their right and bottom edges."""
    rows, cols = game.shape
    cell = max(4, min(16, 112 // cols, 80 // rows))
    # A label such as "(0, 0)-(0, 1)" is about 80 px wide.
    panel_w, panel_h = max(cols * cell, 84) + 14, rows * cell + 24
    per_row = max(1, int((room - 4) // panel_w))
    shown = moves[:MOST_PANELS]
    for i, option in enumerate(shown):
        x, y = 6 + (i % per_row) * panel_w, top + (i // per_row) * panel_h
        domino = game.removed(option)  # type: ignore[arg-type]
        panel = ET.SubElement(svg, "g")
        panel.set("class", "winning-move")
        _cram_board(panel, game, x, y, cell, domino)
        small = FONT + ";font-size:11px"
        _text(panel, x, y + rows * cell + 14, _cells(domino), fill=INK, style=small)
    height = top + math.ceil(len(shown) / per_row) * panel_h
    if len(moves) > len(shown):
        _text(svg, 6, height + 8, f"and {len(moves) - len(shown)} more winning moves", fill=INK)
        height += 16
    return 6 + min(len(shown), per_row) * panel_w, height + 6


def vertex_game(game: _OnGraph, size: int = 320) -> str:
    """A title with the value and outcome (normal play), the graph on a circle, the
    vertices deleted pale, the winning moves red (a vertex to pick in Node Kayles, an
    edge to take in Arc Kayles), and a legend.

    >>> import networkx as nx, nimkit as nk
    >>> svg = nk.svg.vertex_game(nk.NodeKayles(nx.path_graph(5)))
    >>> "Node Kayles on 5 vertices: value 3, N" in svg, svg.count('class="winning"')
    (True, 1)
    >>> "an edge to take" in nk.svg.vertex_game(nk.ArcKayles([(0, 1), (1, 2)]))
    True
    """
    from . import _core

    names = game._names()
    if len(names) > MOST_VERTICES:
        return _words(game.describe())
    left = set(game._native.numbers())
    edges = _core.vertex_edges(game._native)
    moves, verdict = _verdict(game, len(left), "vertices")
    arcs = game.family == "arc_kayles"
    on = f"{len(left)} of {len(names)}" if len(left) < len(names) else str(len(names))
    title = f"{'Arc' if arcs else 'Node'} Kayles on {on} vertices: {verdict}"
    # The names stand outside the circle, with room at either side for the longest;
    # the circle grows until neighbouring names clear each other (up to a page's width).
    longest = max((len(str(name)) for name in names), default=0)
    size = int(min(max(size, len(names) * (7 * longest + 6) / math.pi + 48), 900))
    pad, top = 7 * longest, 30
    centre_x, centre_y, radius = pad + size / 2, top + size / 2, size / 2 - 24
    angle = {v: 2 * math.pi * v / len(names) - math.pi / 2 for v in range(len(names))}
    where = {
        v: (centre_x + radius * math.cos(a), centre_y + radius * math.sin(a))
        for v, a in angle.items()
    }
    index = {name: v for v, name in enumerate(names)}
    red_vertices: set[int] = set()
    red_edges: set[frozenset[int]] = set()
    neighbours: dict[int, set[int]] = defaultdict(set)
    for u, v in edges:
        neighbours[u].add(v)
        neighbours[v].add(u)
    for option in moves:
        gone = {index[name] for name in game.removed(option)}  # type: ignore[arg-type]
        if arcs:
            red_edges.add(frozenset(gone))
        else:
            # Every vertex whose picking deletes just these wins.
            red_vertices |= {v for v in gone if (neighbours[v] | {v}) & left == gone}
    svg = _svg(size, size)
    _text(svg, 4, 20, title, fill=INK, style=TITLE)
    for u, v in edges:
        alive = u in left and v in left
        red = frozenset((u, v)) in red_edges
        (x1, y1), (x2, y2) = where[u], where[v]
        line = _element(
            svg,
            "line",
            f"{names[u]} - {names[v]}",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke=WINNING if red else (INK if alive else "#ddd"),
            stroke_width=4 if red else 2,
        )
        if red:
            line.set("class", "winning")
    for v, (x, y) in where.items():
        red = v in red_vertices
        fill = WINNING if red else (TOKEN_FILL if v in left else "#eee")
        dot = _element(svg, "circle", str(names[v]), cx=x, cy=y, r=9, fill=fill, stroke=INK)
        if red:
            dot.set("class", "winning")
    for v, a in angle.items():
        x, y = centre_x + (radius + 15) * math.cos(a), centre_y + (radius + 15) * math.sin(a)
        anchor = "start" if math.cos(a) > 0.3 else "end" if math.cos(a) < -0.3 else "middle"
        _text(svg, x, y + 4, str(names[v]), fill=INK, **{"text-anchor": anchor})
    entries = _vertex_legend(arcs, len(left) < len(names), bool(moves))
    legend_top = top + size + 4
    width = max(size + 2 * pad, 8 + 9 * len(title), _legend(svg, legend_top, entries))
    return finish_svg(svg, width, legend_top + 18 * len(entries) + 4)


def _vertex_legend(arcs: bool, deleted: bool, winning: bool) -> list[Entry]:
    """The legend of a Node or Arc Kayles picture: what is left, what is gone, and
    what the red marks."""
    entries: list[Entry] = [("circle", {"fill": TOKEN_FILL, "stroke": INK}, "a vertex left")]
    if deleted:
        entries.append(("circle", {"fill": "#eee", "stroke": INK}, "a vertex deleted"))
    if winning and arcs:
        words = "a winning move (normal play): an edge to take, deleting both its ends"
        entries.append(("line", {"stroke": WINNING, "stroke-width": 4}, words))
    elif winning:
        words = "a winning move (normal play): a vertex to pick, deleting it and its neighbours"
        entries.append(("circle", {"fill": WINNING, "stroke": INK}, words))
    return entries


#: The most spots a Sprouts picture draws.
MOST_SPOTS = 400
#: A spot's fill by its mark: lives lost (0, 1, 2); letters take a colour each.
SPOT_FILL = {"0": "#fff", "1": "#bcd3f2", "2": "#4a7bd0"}
LETTER_FILLS = ("#f2b33d", "#6cc08b", "#e07b91", "#b08fe0", "#f28e5c", "#5cc6d0")
SPOT, SPOT_GAP = 9, 24


def sprouts(game: ImpartialGame) -> str:
    """A Sprouts position drawn as its structure (``nk.Sprouts``): each land in a
    dashed frame, each of its regions a shaded box, each boundary of a region a ring
    with its spots in the order met around it (a spot alone is a boundary of its
    own), each spot marked as the notation writes it — its lives lost, or the letter
    of a spot of one life met in two places, in one colour at both — and a legend.
    The drawing is schematic: Sprouts' regions and boundaries, not its curves.

    >>> import nimkit as nk
    >>> svg = nk.svg.sprouts(nk.Sprouts("0*2.AB|0*2.AB"))
    >>> svg.count('class="land"'), svg.count('class="region"'), svg.count('class="spot"')
    (1, 2, 8)
    """
    from . import _core

    text = str(game)
    lands = _core.sprouts_spots(text)
    spots = sum(len(b) for land in lands for region in land for b in region)
    shown = text if len(text) <= 80 else text[:77] + "..."
    title = f"Sprouts: {shown}" if lands else "Sprouts: no move left"
    if spots > MOST_SPOTS:
        return _words(f"{title} ({spots} spots, more than the {MOST_SPOTS} drawn)", 640)
    svg = _svg(1, 1)
    _text(svg, 4, 20, title, fill=INK, style=TITLE)
    colours: dict[str, str] = {}
    top, width = 34.0, 8.0 + 9 * len(title)
    for number, land in enumerate(lands, start=1):
        right, bottom = _sprouts_land(svg, land, number, top, colours)
        width, top = max(width, right), bottom + 10
    entries: list[Entry] = [
        ("circle", {"fill": SPOT_FILL["0"], "stroke": INK}, "0: a spot of three lives"),
        ("circle", {"fill": SPOT_FILL["1"], "stroke": INK}, "1: two lives"),
        ("circle", {"fill": SPOT_FILL["2"], "stroke": INK}, "2: one life"),
    ]
    if colours:
        words = "a letter: one spot of one life, met in two places"
        entries.append(("circle", {"fill": LETTER_FILLS[0], "stroke": INK}, words))
    if lands:
        entries.append(("rect", {"fill": "#f4f4f4", "stroke": GREY, "rx": 4}, "a region"))
    right = _legend(svg, top, entries)
    return finish_svg(svg, max(width, right), top + 18 * len(entries) + 4)


def _sprouts_land(
    svg: ET.Element, land: list[list[list[str]]], number: int, top: float, colours: dict[str, str]
) -> tuple[float, float]:
    """One land's frame and its regions side by side, from ``top``; its right and
    bottom edges."""
    frame = _element(svg, "rect", f"land {number}", x=4, y=top, rx=8, fill="none")
    frame.set("class", "land")
    frame.set("stroke", GREY)
    frame.set("stroke-dasharray", "4 3")
    _text(svg, 12, top + 15, f"land {number}", fill=GREY)
    x, bottom = 14.0, top + 24
    for r, region in enumerate(land, start=1):
        x, low = _sprouts_region(svg, region, f"land {number}, region {r}", x, top + 22, colours)
        bottom = max(bottom, low)
        x += 10
    frame.set("width", str(x - 4))
    frame.set("height", str(bottom + 8 - top))
    return x + 4, bottom + 8


def _sprouts_region(
    svg: ET.Element,
    region: list[list[str]],
    name: str,
    left: float,
    top: float,
    colours: dict[str, str],
) -> tuple[float, float]:
    """A region's box with its boundaries in rows of up to six; its right and bottom
    edges."""
    box = _element(svg, "rect", name, x=left, y=top, rx=6, fill="#f4f4f4", stroke=GREY)
    box.set("class", "region")
    x, y, row_height, right = left + 8, top + 8, 0.0, left + 8
    for i, boundary in enumerate(region):
        radius = max(14.0, SPOT_GAP * len(boundary) / (2 * math.pi)) if len(boundary) > 1 else 0.0
        side = 2 * (radius + SPOT) + 4
        if i and i % 6 == 0:
            x, y, row_height = left + 8, y + row_height + 6, 0.0
        _sprouts_boundary(svg, boundary, name, x + side / 2, y + side / 2, radius, colours)
        x += side + 6
        right, row_height = max(right, x), max(row_height, side)
    box.set("width", str(right - left + 2))
    box.set("height", str(y + row_height + 8 - top))
    return right + 2, y + row_height + 8


def _sprouts_boundary(
    svg: ET.Element,
    boundary: list[str],
    region: str,
    cx: float,
    cy: float,
    radius: float,
    colours: dict[str, str],
) -> None:
    """A boundary of ``region``: a ring with its spots around it, clockwise from the
    top (one spot: the spot alone). A letter's colour is its spot's: a lowercase
    letter is named within its region, an uppercase one within its land."""
    if radius:
        _element(svg, "circle", cx=cx, cy=cy, r=radius, fill="none", stroke=INK)
    for i, mark in enumerate(boundary):
        a = 2 * math.pi * i / len(boundary) - math.pi / 2
        x, y = cx + radius * math.cos(a), cy + radius * math.sin(a)
        if mark in SPOT_FILL:
            fill, what = SPOT_FILL[mark], f"{3 - int(mark)} lives left"
        else:
            scope = region if mark[0].islower() else region.split(",")[0]
            fill = LETTER_FILLS[len(colours) % len(LETTER_FILLS)]
            fill = colours.setdefault(f"{scope}: {mark}", fill)
            what = "one life left, met in two places"
        dot = _element(svg, "circle", f"{mark}: {what}", cx=x, cy=y, r=SPOT, fill=fill, stroke=INK)
        dot.set("class", "spot")
        ink = "#fff" if mark == "2" else INK
        _text(svg, x, y + 4, mark, fill=ink, **{"text-anchor": "middle"})
