"""Green Hackenbush (Ferguson, Part I, ch. 7): a graph rooted on the ground; a move
chops an edge, and whatever is no longer joined to the ground falls.

Values of any finite graph (loops, multiple edges, cycles) come from the native core
in linear time: the fusion principle turns each cycle into loops, the colon principle
values the tree left. The winning moves are the edges to chop.

>>> import networkx as nx
>>> G = nx.MultiGraph([(0, 1), (1, 2), (2, 0), (1, 3)])
>>> GreenHackenbush(G, ground=0).grundy()
0
>>> tree = GreenHackenbush(nx.Graph([("g", "a"), ("a", "b"), ("a", "c")]), ground="g")
>>> tree.grundy(), tree.winning_edges()
(1, [('g', 'a')])
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, NamedTuple

import numpy as np

from . import _core
from .games import ImpartialGame


class _Names(NamedTuple):
    """What the native graph keeps for Python: every edge's name and ends (as given),
    and the ground nodes."""

    edges: list[tuple[Any, ...]]
    ends: list[tuple[Any, Any]]
    ground: tuple[Any, ...]


class GreenHackenbush(ImpartialGame):
    """Green Hackenbush on ``graph``: a networkx ``Graph`` or ``MultiGraph`` (loops and
    multiple edges allowed) or an iterable of ``(u, v)`` edges; ``ground`` is a node on
    the ground, or an iterable of them. Edges not joined to the ground fall at once.

    Edges are named as networkx names them: ``(u, v)`` in a Graph or an edge list,
    ``(u, v, key)`` in a MultiGraph.
    """

    __slots__ = ()
    family = "hackenbush"

    def __init__(self, graph: Any, ground: Hashable | Iterable[Hashable] = 0) -> None:
        names, ends = _edges(graph)
        nodes = _nodes(graph, ends)
        if isinstance(ground, Hashable) and ground in nodes:
            grounded: tuple[Any, ...] = (ground,)
        elif isinstance(ground, Iterable) and not isinstance(ground, str):
            grounded = tuple(ground)
        else:
            grounded = (ground,)
        missing = [g for g in grounded if g not in nodes]
        if missing and ends:
            raise ValueError(f"the ground names {missing[0]!r}, which is not a node of the graph")
        # No edges: the empty game, whatever the ground is (its value is 0).
        nodes = {**nodes, **dict.fromkeys(missing)}
        if not grounded:
            raise ValueError("give at least one ground node: nothing stands without one")
        number = {n: i for i, n in enumerate(nodes)}
        pairs = np.array([(number[u], number[v]) for u, v in ends], dtype=np.uint64)
        native = _core.native_game(
            "hackenbush",
            (
                len(nodes),
                pairs.reshape(-1, 2),
                [number[g] for g in grounded],
                _Names(names, ends, grounded),
            ),
        )
        object.__setattr__(self, "_native", native)

    @property
    def _names(self) -> _Names:
        names: _Names = _core.hackenbush_names(self._native)
        return names

    @property
    def edges(self) -> list[tuple[Any, ...]]:
        """The edges still standing (joined to the ground)."""
        names = self._names.edges
        return [names[e] for e in self._native.numbers()]

    @property
    def ground(self) -> tuple[Any, ...]:
        return self._names.ground

    def winning_edges(self) -> list[tuple[Any, ...]]:
        """The edges whose chop wins (normal play); none from a P-position."""
        names = self._names.edges
        return [names[e] for e in _core.hackenbush_winning_chops(self._native)]

    def to_networkx(self) -> Any:
        """The standing edges as a networkx MultiGraph (the ``graph`` extra), each edge
        with its name as the ``name`` attribute."""
        import networkx as nx

        names = self._names
        graph = nx.MultiGraph()
        graph.add_nodes_from(names.ground)
        for e in self._native.numbers():
            u, v = names.ends[e]
            graph.add_edge(u, v, name=names.edges[e])
        return graph

    def __repr__(self) -> str:
        edges = self.edges
        shown = repr(edges) if len(edges) <= 6 else f"<{len(edges)} edges>"
        return f"GreenHackenbush({shown}, ground={list(self.ground)!r})"

    def __str__(self) -> str:
        edges = self.edges
        shown = ", ".join("-".join(map(str, e[:2])) for e in edges[:8])
        more = f", ... ({len(edges)} edges)" if len(edges) > 8 else ""
        return f"[{shown}{more}]"

    def describe(self) -> str:
        return f"Green Hackenbush on {len(self.edges)} edges grounded at {list(self.ground)}"

    def _why_value(self) -> str:
        text = (
            "Fusion principle: the nodes of every cycle fuse into one, its edges becoming "
            "loops (each a stalk of one edge); colon principle: a branch counts as a stalk "
            f"of its value, one more than the value above its bridge. Value: {self.grundy()}."
        )
        chops = self.winning_edges()
        if chops:
            text += " The edges to chop: " + ", ".join(map(str, chops[:12])) + "."
        return text

    def svg(self) -> str:
        """The position's picture as SVG text (what a notebook shows)."""
        from . import svg

        return svg.hackenbush(self)


def _edges(graph: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, Any]]]:
    """The edges' names and ends, of a networkx graph or an edge list."""
    if hasattr(graph, "is_directed"):
        if graph.is_directed():
            raise TypeError("Hackenbush is played on an undirected graph (a networkx Graph)")
        if graph.is_multigraph():
            names = [tuple(e) for e in graph.edges(keys=True)]
        else:
            names = [tuple(e) for e in graph.edges()]
    elif isinstance(graph, Iterable):
        names = [tuple(e) for e in graph]
        if any(len(e) != 2 for e in names):
            raise ValueError("an edge list holds pairs (u, v)")
    else:
        raise TypeError(
            f"graph must be a networkx Graph or MultiGraph or a list of edges, not "
            f"{type(graph).__name__}"
        )
    return names, [(e[0], e[1]) for e in names]


def _nodes(graph: Any, ends: list[tuple[Any, Any]]) -> dict[Any, None]:
    """Every node, in the graph's order (isolated ground nodes included)."""
    nodes: dict[Any, None] = dict.fromkeys(graph.nodes) if hasattr(graph, "nodes") else {}
    for u, v in ends:
        nodes.setdefault(u)
        nodes.setdefault(v)
    return nodes
