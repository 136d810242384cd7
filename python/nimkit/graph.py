"""Game graphs: every position reachable from a start, as a networkx DiGraph (the
``graph`` extra), and a picture of it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any, SupportsIndex

from ._extras import require
from .position import Outcome, Position
from .rules import Rules, rules_or_default


def game_graph(
    position: Position | Iterable[SupportsIndex],
    rules: Rules | None = None,
    symmetric: bool = True,
    max_nodes: int = 100_000,
) -> Any:
    """A networkx DiGraph of every position reachable from ``position``, an edge per
    move. Nodes are Positions carrying ``outcome`` (the kernel is the set of
    P-positions), ``nim_sum``, ``grundy`` and ``objects``. With ``symmetric``, heap
    order is ignored (positions are sorted), which needs rules that treat every heap
    alike. Raises ValueError naming the size if it would pass ``max_nodes``."""
    nx = require("networkx", "graph")
    rules = rules_or_default(rules)
    start = position if isinstance(position, Position) else Position(position)
    if symmetric and (isinstance(rules.max_take, tuple) or isinstance(rules.take, tuple)):
        raise ValueError("symmetric=True needs the same take rule on every heap")
    key = (lambda p: Position(sorted(p))) if symmetric else (lambda p: p)
    graph = nx.DiGraph()
    # Each node as the game reaches it (heaps in play order), so that every outcome
    # comes from the one search the core keeps for the start.
    reached = {key(start): start}
    graph.add_node(key(start))
    frontier = [start]
    while frontier:
        current = frontier.pop()
        for move in current.moves(rules):
            after = current.after(move, rules)
            child = key(after)
            if child not in graph:
                if graph.number_of_nodes() >= max_nodes:
                    raise ValueError(
                        f"the game graph of {start} has more than {max_nodes} positions; "
                        "raise max_nodes or start smaller"
                    )
                graph.add_node(child)
                reached[child] = after
                frontier.append(after)
            graph.add_edge(key(current), child)
    for node in graph.nodes:
        graph.nodes[node].update(
            outcome=reached[node].outcome(rules),
            nim_sum=node.nim_sum(rules),
            grundy=node.grundy(rules),
            objects=sum(node),
        )
    return graph


def draw_game_graph(
    position: Position | Iterable[SupportsIndex],
    rules: Rules | None = None,
    symmetric: bool = True,
    max_nodes: int = 400,
) -> GraphPicture:
    """An SVG picture of the game graph: positions in columns by objects left (the
    start on the left, the end on the right), P-positions (the kernel) highlighted."""
    graph = game_graph(position, rules, symmetric, max_nodes)
    columns: dict[int, list[Position]] = {}
    for node in sorted(graph.nodes, key=lambda p: tuple(p)):
        columns.setdefault(graph.nodes[node]["objects"], []).append(node)
    most = max(columns)
    step_x, step_y, width_node = 96, 28, 80
    tallest = max(len(c) for c in columns.values())
    width, height = (most + 1) * step_x + 16, tallest * step_y + 40
    place = {
        node: (8 + (most - objects) * step_x, 30 + i * step_y)
        for objects, nodes in columns.items()
        for i, node in enumerate(nodes)
    }
    svg = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        width=str(width),
        height=str(height),
        viewBox=f"0 0 {width} {height}",
    )
    for a, b in graph.edges:
        (x1, y1), (x2, y2) = place[a], place[b]
        ET.SubElement(
            svg,
            "line",
            x1=str(x1 + width_node),
            y1=str(y1 + 9),
            x2=str(x2),
            y2=str(y2 + 9),
            stroke="#bbb",
        )
    for node, (x, y) in place.items():
        kernel = graph.nodes[node]["outcome"] is Outcome.P
        box = ET.SubElement(
            svg,
            "rect",
            x=str(x),
            y=str(y),
            width=str(width_node),
            height="18",
            rx="4",
            fill="#f2b33d" if kernel else "#e8eefb",
            stroke="#222",
        )
        box.set("class", "kernel" if kernel else "position")
        label = ET.SubElement(
            svg, "text", x=str(x + 4), y=str(y + 13), style="font-family:sans-serif;font-size:11px"
        )
        label.text = " ".join(map(str, node)) or "()"
    title = ET.SubElement(svg, "text", x="8", y="16", style="font-family:sans-serif;font-size:12px")
    title.text = "objects left: more on the left; P-positions (the kernel) in amber"
    return GraphPicture(ET.tostring(svg, encoding="unicode"), graph)


class GraphPicture:
    """An SVG game graph that shows itself in notebooks; ``graph`` is the DiGraph."""

    def __init__(self, svg: str, graph: Any) -> None:
        self.svg, self.graph = svg, graph

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg
