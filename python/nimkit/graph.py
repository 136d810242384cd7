"""Game graphs: every position reachable from a start, as a networkx DiGraph (the
``graph`` extra). Their picture is ``nimkit.draw_game_graph`` (``graph_picture``)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, SupportsIndex

from ._extras import require
from .position import Move, Position
from .rules import Rules, rules_or_default

if TYPE_CHECKING:
    from .games import ImpartialGame


def game_graph(
    position: Position | Iterable[SupportsIndex] | ImpartialGame,
    rules: Rules | None = None,
    symmetric: bool = True,
    max_nodes: int = 100_000,
) -> Any:
    """A networkx DiGraph of every position reachable from ``position`` (the ``graph``
    extra), an edge per move, walked by the core's explorer.

    Of a game (an ``ImpartialGame``: a sum, a game you define, a directed graph, a
    classical game): the nodes are games, carrying ``value`` (the Grundy value, or
    ∞(K) as text), ``outcome`` ("P", "N" or "D") and ``label`` (the position in
    words); ``rules`` and ``symmetric`` do not apply.

    Of heaps under ``rules``: the nodes are Positions carrying ``outcome`` ("P" or "N", equal to
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
    from .games import Heaps, ImpartialGame
    from .rules import with_ending

    if isinstance(position, ImpartialGame):
        if rules is not None:
            raise TypeError("a game has its own rules: game_graph(game)")
        return _graph_of_game(nx, position, max_nodes)
    rules = rules_or_default(rules)
    start = position if isinstance(position, Position) else Position(position)
    if symmetric and (isinstance(rules.max_take, tuple) or isinstance(rules.take, tuple)):
        raise ValueError("symmetric=True needs the same take rule on every heap")
    # The core's explorer walks the positions in play order (the moves are the same
    # in either ending); with symmetric, the orders of one multiset are one node.
    limit = max_nodes * (math.factorial(len(start)) if symmetric else 1)
    try:
        edges, natives = Heaps(start, with_ending(rules, False))._native.explore(
            max(max_nodes, min(limit, _MOST_EXPLORED))
        )
    except ValueError:
        raise _too_large(start, max_nodes) from None
    reached = [Position(native.heaps()) for native in natives]
    nodes = [Position(sorted(p)) for p in reached] if symmetric else reached
    if len(set(nodes)) > max_nodes:
        raise _too_large(start, max_nodes)
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    for a, b in edges:
        if not graph.has_edge(nodes[a], nodes[b]):
            move = _move_between(reached[a], reached[b])
            graph.add_edge(nodes[a], nodes[b], **_edge(move, reached[a], nodes[a]))
    first: dict[Position, Position] = {}
    for node, played in zip(nodes, reached, strict=True):
        first.setdefault(node, played)
    for node in graph.nodes:
        graph.nodes[node].update(
            outcome=first[node].outcome(rules).value,
            nim_sum=node.nim_sum(rules),
            objects=sum(node),
        )
    return graph


def _graph_of_game(nx: Any, game: ImpartialGame, max_positions: int) -> Any:
    """The state graph of any game, its nodes the games with their value, outcome and
    label."""
    from .games import ImpartialGame

    edges, natives = game._native.explore(max_positions)
    nodes = [ImpartialGame._of(n) for n in natives]
    graph = nx.DiGraph()
    for node in nodes:
        value = node.grundy(max_positions)
        graph.add_node(
            node,
            value=value if isinstance(value, int) else str(value),
            outcome=node.outcome(max_positions=max_positions).value,
            label=node._label(),
        )
    graph.add_edges_from((nodes[a], nodes[b]) for a, b in edges)
    return graph


#: The most ordered positions explored for a symmetric graph (its nodes are fewer).
_MOST_EXPLORED = 1 << 22


def _too_large(start: Position, max_nodes: int) -> ValueError:
    return ValueError(
        f"the game graph of {start} has more than {max_nodes} positions; "
        "raise max_nodes or start smaller"
    )


def _move_between(before: Position, after: Position) -> Move:
    """The move that turns ``before`` into ``after``, both in play order as the core's
    explorer gives them: the first heap that differs, what it lost, and for a split
    the parts that stand in its place."""
    # after is at least as long: a split puts its parts in place of the heap.
    heap = next(i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b)
    extra = len(after) - len(before)
    if extra == 0:
        return Move(heap, before[heap] - after[heap])
    parts = tuple(after[heap : heap + extra + 1])
    return Move(heap, before[heap] - sum(parts), parts)


def _edge(move: Move, reached: Position, node: Position) -> dict[str, Any]:
    """A move's edge attributes, its heap numbered as in ``node`` (``reached`` sorted,
    or the same)."""
    heap = node.heaps.index(reached[move.heap]) if node is not reached else move.heap
    moved = Move(heap, move.take, move.into)
    attributes: dict[str, Any] = {"move": str(moved), "heap": heap, "take": move.take}
    if move.into is not None:
        attributes["into"] = " ".join(map(str, move.into))
    return attributes
