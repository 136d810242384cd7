"""A layered drawing of a game graph (Sugiyama's scheme, kept small): positions in
columns by their distance from the start (the longest path in an acyclic game, so
every move goes right; the shortest in a loopy one), moves that skip columns routed
through empty slots of the columns between (so no edge passes under a position),
each column ordered by the barycentre of its neighbours to cut crossings, arrowheads
on every move, and P, N and D in colours with a legend.

Pure layout and SVG: the outcomes come with the graph."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Hashable, Sequence
from typing import Any

from ._drawing import FONT, finish_svg

#: Fill and the words of the legend for each outcome.
COLOURS = {"P": "#f2b33d", "N": "#e8eefb", "D": "#cdb8ee"}
WORDS = {
    "P": "P: the player to move loses",
    "N": "N: the player to move wins",
    "D": "D: a draw (play can go on forever)",
}
#: The most positions a drawing holds: past this it is no longer readable.
MAX_NODES = 100

STEP_Y, GAP_X, BOX_H, CHAR_W = 28, 44, 18, 6.6
#: How high an arc of a move back rises above its ends.
MAX_LIFT = 60


def _layers(nodes: Sequence[Hashable], successors: dict[Any, list[Any]]) -> dict[Any, int]:
    """The column of every node: the longest path from the start when acyclic, else
    the shortest (breadth first). The start is ``nodes[0]``."""
    start = nodes[0]
    order: list[Any] = []  # reverse postorder, iteratively
    seen, on_path, cyclic = {start}, {start}, False
    stack = [(start, iter(successors[start]))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            on_path.discard(node)
            order.append(node)
        elif child in on_path:
            cyclic = True
        elif child not in seen:
            seen.add(child)
            on_path.add(child)
            stack.append((child, iter(successors[child])))
    layer = {start: 0}
    if not cyclic:
        for node in reversed(order):
            for child in successors[node]:
                layer[child] = max(layer.get(child, 0), layer[node] + 1)
        return layer
    queue = [start]
    for node in queue:
        for child in successors[node]:
            if child not in layer:
                layer[child] = layer[node] + 1
                queue.append(child)
    return layer


def draw(
    nodes: Sequence[Hashable],
    edges: Sequence[tuple[Any, Any]],
    labels: dict[Any, str],
    outcomes: dict[Any, str],
    titles: Sequence[str],
    kernel: bool,
) -> str:
    """The SVG of a game graph whose start is ``nodes[0]``: ``outcomes`` maps each
    node to "P", "N" or "D"; ``kernel`` marks the P-positions as the kernel. It is
    ``nimkit.svg.game_graph``.

    >>> from nimkit import svg
    >>> nodes, moves, outcomes = ["1", "0"], [("1", "0")], {"1": "N", "0": "P"}
    >>> picture = svg.game_graph(nodes, moves, {n: n for n in nodes}, outcomes, ["Nim"], True)
    >>> picture.count('class="move"'), picture.count('class="p-position kernel"')
    (1, 1)
    """
    if len(nodes) > MAX_NODES:
        raise ValueError(
            f"the game graph has {len(nodes)} positions, more than the {MAX_NODES} a "
            "readable picture holds: start smaller, or draw nimkit.game_graph(game) with "
            "networkx"
        )
    successors: dict[Any, list[Any]] = {n: [] for n in nodes}
    for a, b in edges:
        successors[a].append(b)
    layer = _layers(nodes, successors)
    columns: list[list[Any]] = [[] for _ in range(max(layer.values()) + 1)]
    for node in nodes:
        columns[layer[node]].append(node)
    # Forward moves that skip columns pass through dummies, one per column between.
    routes: list[list[Any]] = []
    neighbours: dict[Any, list[Any]] = {n: [] for n in nodes}
    back: list[tuple[Any, Any]] = []
    for a, b in edges:
        if layer[b] <= layer[a]:
            back.append((a, b))
            continue
        route = [a]
        for column in range(layer[a] + 1, layer[b]):
            dummy = ("dummy", len(routes), column)
            columns[column].append(dummy)
            neighbours[dummy] = []
            route.append(dummy)
        route.append(b)
        for u, v in itertools.pairwise(route):
            neighbours[u].append(v)
            neighbours[v].append(u)
        routes.append(route)
    _order(columns, neighbours)
    width_of = {n: max(48.0, CHAR_W * len(labels[n]) + 10) for n in nodes}
    column_w = [max((width_of.get(n, 0.0) for n in col), default=0.0) for col in columns]
    tallest = max(len(c) for c in columns)
    legend = [o for o in "PND" if o in outcomes.values()]
    # Moves back arc over the top: room for the highest arc above the first row.
    top = 16 * len(titles) + 14 + 22 + (MAX_LIFT if back else 0)
    where: dict[Any, tuple[float, float]] = {}
    x = 12.0
    for col, w in zip(columns, column_w, strict=True):
        offset = (tallest - len(col)) * STEP_Y / 2
        for i, node in enumerate(col):
            where[node] = (x, top + offset + i * STEP_Y)
        x += w + GAP_X
    width = max(x, 12 + 7 * max(map(len, titles)), 12 + 250 * len(legend))
    height = top + tallest * STEP_Y + 24

    svg = ET.Element("svg", xmlns="http://www.w3.org/2000/svg")
    defs = ET.SubElement(svg, "defs")
    marker = ET.SubElement(
        defs,
        "marker",
        id="arrow",
        viewBox="0 0 10 10",
        refX="10",
        refY="5",
        markerWidth="7",
        markerHeight="7",
        orient="auto-start-reverse",
    )
    ET.SubElement(marker, "path", d="M 0 0 L 10 5 L 0 10 z", fill="#666")
    lines = ET.SubElement(svg, "g", stroke="#888", fill="none")
    lines.set("stroke-width", "1.2")
    for route in routes:
        a, b = route[0], route[-1]
        points = [(where[a][0] + width_of[a], where[a][1] + BOX_H / 2)]
        points += [(where[d][0] + column_w[d[2]] / 2, where[d][1] + BOX_H / 2) for d in route[1:-1]]
        points.append((where[b][0], where[b][1] + BOX_H / 2))
        path = "M " + " L ".join(f"{px:.1f} {py:.1f}" for px, py in points)
        edge = ET.SubElement(lines, "path", d=path)
        edge.set("marker-end", "url(#arrow)")
        edge.set("class", "move")
    for a, b in back:
        # Back to the left (or within a column): an arc over the top of both boxes.
        (xa, ya), (xb, yb) = where[a], where[b]
        sx, sy = xa + width_of[a] / 2, ya
        ex, ey = xb + width_of[b] / 2, yb
        if a == b:
            sx -= 8
            ex += 8
        lift = min(18 + abs(sx - ex) / 6 + abs(sy - ey) / 4, MAX_LIFT)
        peak = min(sy, ey) - lift
        path = f"M {sx:.1f} {sy:.1f} C {sx:.1f} {peak:.1f} {ex:.1f} {peak:.1f} {ex:.1f} {ey:.1f}"
        edge = ET.SubElement(lines, "path", d=path, stroke="#a070d0")
        edge.set("stroke-dasharray", "4 2")
        edge.set("marker-end", "url(#arrow)")
        edge.set("class", "move back")
    for node in nodes:
        nx_, ny = where[node]
        outcome = outcomes[node]
        box = ET.SubElement(
            svg,
            "rect",
            x=f"{nx_:.1f}",
            y=f"{ny:.1f}",
            width=f"{width_of[node]:.1f}",
            height=str(BOX_H),
            rx="4",
            fill=COLOURS[outcome],
            stroke="#222",
        )
        marked = kernel and outcome == "P"
        box.set("stroke-width", "2.4" if marked else "1")
        box.set("class", f"{outcome.lower()}-position" + (" kernel" if marked else ""))
        text = ET.SubElement(
            svg, "text", x=f"{nx_ + 5:.1f}", y=f"{ny + 13:.1f}", style=FONT + ";font-size:11px"
        )
        text.text = labels[node]
        ET.SubElement(box, "title").text = f"{labels[node]}: {outcome}"
    for i, words in enumerate(titles):
        title = ET.SubElement(svg, "text", x="12", y=str(18 + 16 * i), style=FONT)
        title.text = words
    y = 16 * len(titles) + 14
    for i, outcome in enumerate(legend):
        lx = 12 + 250 * i
        swatch = ET.SubElement(
            svg,
            "rect",
            x=str(lx),
            y=str(y),
            width="14",
            height="14",
            rx="3",
            fill=COLOURS[outcome],
            stroke="#222",
        )
        swatch.set("stroke-width", "2.4" if kernel and outcome == "P" else "1")
        swatch.set("class", "legend")
        words = WORDS[outcome] + (" (the kernel)" if kernel and outcome == "P" else "")
        ET.SubElement(svg, "text", x=str(lx + 20), y=str(y + 12), style=FONT).text = words
    return finish_svg(svg, width, height)


def _order(columns: list[list[Any]], neighbours: dict[Any, list[Any]]) -> None:
    """Order each column by the mean position of its neighbours in the column before
    (then after), a few sweeps each way: the barycentre heuristic."""
    for sweep in range(8):
        forward = sweep % 2 == 0
        indices = range(1, len(columns)) if forward else range(len(columns) - 2, -1, -1)
        for c in indices:
            other = columns[c - 1] if forward else columns[c + 1]
            rank = {n: i for i, n in enumerate(other)}
            current = {n: i for i, n in enumerate(columns[c])}

            def centre(
                node: Any, rank: dict[Any, int] = rank, current: dict[Any, int] = current
            ) -> float:
                near = [rank[m] for m in neighbours[node] if m in rank]
                return sum(near) / len(near) if near else float(current[node])

            columns[c].sort(key=centre)
