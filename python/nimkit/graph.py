"""Game graphs: every position reachable from a start, as a networkx DiGraph (the
``graph`` extra), and a picture of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, SupportsIndex

from ._extras import require
from .position import Move, Position
from .rules import Rules, rules_or_default

if TYPE_CHECKING:
    from .games import ImpartialGame


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
    position: Position | Iterable[SupportsIndex] | ImpartialGame,
    rules: Rules | None = None,
    symmetric: bool = True,
    max_nodes: int = 100,
) -> GraphPicture:
    """An SVG picture of the game graph of heaps (``position`` and ``rules``) or of
    any game (an ``ImpartialGame``: a sum, a game you define, a directed graph).
    Positions stand in columns by their distance from the start (on the left), every
    move is an arrow, a move back (in a loopy game) a dashed arc; P, N and D positions
    in colours with a legend, and in normal play of a game that ends the P-positions
    framed as its kernel. Up to ``max_nodes`` positions (at most 100, past which no
    picture stays readable); ValueError beyond.

    >>> picture = draw_game_graph([1, 2])
    >>> picture.graph.number_of_nodes(), "kernel" in picture.svg
    (5, True)
    """
    from . import svg as draw
    from ._layered import MAX_NODES
    from .games import ImpartialGame, graph_of

    if max_nodes > MAX_NODES:
        raise ValueError(f"a picture holds at most {MAX_NODES} positions, not {max_nodes}")
    if isinstance(position, ImpartialGame):
        if rules is not None:
            raise TypeError("a game has its own rules: draw_game_graph(game)")
        try:
            graph = graph_of(position, max_positions=max_nodes)
        except ValueError:
            raise ValueError(
                f"the game graph of {position} has more than {max_nodes} positions: start "
                "smaller, or draw nimkit.graph_of(game) with networkx"
            ) from None
        nodes = list(graph.nodes)
        labels = {n: graph.nodes[n]["label"] for n in nodes}
        titles = [f"The game graph of {position}"]
        kernel = all(graph.nodes[n]["outcome"] != "D" for n in nodes)
    else:
        rules = rules_or_default(rules)
        graph = game_graph(position, rules, symmetric, max_nodes)
        nodes = list(graph.nodes)
        labels = {n: " ".join(map(str, n)) or "()" for n in nodes}
        titles = [rules.describe()]
        # In misère play a position with no move is N: the P-positions are no kernel.
        kernel = not rules.misere
    outcomes = {n: str(graph.nodes[n]["outcome"]) for n in nodes}
    picture = draw.game_graph(nodes, list(graph.edges), labels, outcomes, titles, kernel)
    return GraphPicture(picture, graph)


class GraphPicture:
    """An SVG game graph that shows itself in notebooks; ``graph`` is the DiGraph."""

    def __init__(self, svg: str, graph: Any) -> None:
        self.svg, self.graph = svg, graph

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg
