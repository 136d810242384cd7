"""Game graphs: every position reachable from a start, as a networkx DiGraph (the
``graph`` extra), and a picture of it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any, SupportsIndex

from ._extras import require
from ._svg import finish_svg
from .position import Move, Outcome, Position
from .rules import Rules, rules_or_default


def game_graph(
    position: Position | Iterable[SupportsIndex],
    rules: Rules | None = None,
    symmetric: bool = True,
    max_nodes: int = 100_000,
) -> Any:
    """A networkx DiGraph of every position reachable from ``position``, an edge per
    move. Nodes are Positions carrying ``outcome`` ("P" or "N", equal to
    ``Outcome.P`` and ``Outcome.N``), ``nim_sum`` and ``objects``; edges carry the
    move: ``move`` (in words), ``heap`` (numbered in the node's own order), ``take``
    and, for a split, ``into`` (the sizes left, space-separated). Attributes are plain
    strings and integers, so ``nx.write_graphml`` and friends can save the graph.
    With ``symmetric``, heap order is ignored (positions are sorted), which needs
    rules that treat every heap alike. Raises ValueError naming the size if it would
    pass ``max_nodes``.

    >>> import networkx as nx
    >>> graph = game_graph([1, 2])
    >>> graph.nodes[Position([1, 2])]["outcome"], graph.number_of_edges()
    ('N', 7)
    >>> graph.edges[Position([1, 2]), Position([1, 1])]["move"]
    'take 1 from heap 1'
    """
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
        node = key(current)
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
            if not graph.has_edge(node, child):
                graph.add_edge(node, child, **_edge(move, current, node))
    for node in graph.nodes:
        graph.nodes[node].update(
            outcome=reached[node].outcome(rules).value,
            nim_sum=node.nim_sum(rules),
            objects=sum(node),
        )
    return graph


def _edge(move: Move, reached: Position, node: Position) -> dict[str, Any]:
    """A move's edge attributes, its heap numbered as in ``node`` (``reached`` sorted,
    or the same)."""
    heap = node.heaps.index(reached[move.heap]) if node is not reached else move.heap
    moved = Move(heap, move.take, move.into)
    attributes: dict[str, Any] = {"move": str(moved), "heap": heap, "take": move.take}
    if move.into is not None:
        attributes["into"] = " ".join(map(str, move.into))
    return attributes


def draw_game_graph(
    position: Position | Iterable[SupportsIndex],
    rules: Rules | None = None,
    symmetric: bool = True,
    max_nodes: int = 400,
) -> GraphPicture:
    """An SVG picture of the game graph: positions in columns by objects left (the
    start on the left, the end on the right), P-positions highlighted, the rules in
    the title. (In normal play the P-positions are the graph's kernel; in misère play
    they are not: a position with no move is N there.)"""
    rules = rules_or_default(rules)
    graph = game_graph(position, rules, symmetric, max_nodes)
    columns: dict[int, list[Position]] = {}
    for node in sorted(graph.nodes, key=lambda p: tuple(p)):
        columns.setdefault(graph.nodes[node]["objects"], []).append(node)
    most = max(columns)
    step_x, step_y, width_node = 96, 28, 80
    tallest = max(len(c) for c in columns.values())
    kernel = "" if rules.misere else ", the kernel"
    titles = [
        f"{rules.describe()}",
        f"objects left: more on the left; P-positions (the player to move loses{kernel}) "
        "in amber",
    ]
    top = 16 * len(titles) + 14
    width = max((most + 1) * step_x + 16, 8 + 7 * max(map(len, titles)))
    height = tallest * step_y + top + 10
    place = {
        node: (8 + (most - objects) * step_x, top + i * step_y)
        for objects, nodes in columns.items()
        for i, node in enumerate(nodes)
    }
    svg = ET.Element("svg", xmlns="http://www.w3.org/2000/svg")
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
        p = graph.nodes[node]["outcome"] == Outcome.P
        box = ET.SubElement(
            svg,
            "rect",
            x=str(x),
            y=str(y),
            width=str(width_node),
            height="18",
            rx="4",
            fill="#f2b33d" if p else "#e8eefb",
            stroke="#222",
        )
        box.set("class", "p-position" if p else "n-position")
        label = ET.SubElement(
            svg, "text", x=str(x + 4), y=str(y + 13), style="font-family:sans-serif;font-size:11px"
        )
        label.text = " ".join(map(str, node)) or "()"
    for i, text in enumerate(titles):
        title = ET.SubElement(
            svg, "text", x="8", y=str(16 + 16 * i), style="font-family:sans-serif;font-size:12px"
        )
        title.text = text
    return GraphPicture(finish_svg(svg, width, height), graph)


class GraphPicture:
    """An SVG game graph that shows itself in notebooks; ``graph`` is the DiGraph."""

    def __init__(self, svg: str, graph: Any) -> None:
        self.svg, self.graph = svg, graph

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg
