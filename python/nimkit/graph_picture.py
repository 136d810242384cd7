"""Pictures of game graphs: ``draw_game_graph`` lays out the graph that
``nimkit.game_graph`` finds (with ``_layered``) and draws it as SVG."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, SupportsIndex

from . import svg as draw
from ._layered import MAX_NODES
from .games import ImpartialGame
from .graph import game_graph
from .position import Position
from .rules import Rules, rules_or_default


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
    if max_nodes > MAX_NODES:
        raise ValueError(f"a picture holds at most {MAX_NODES} positions, not {max_nodes}")
    if isinstance(position, ImpartialGame):
        if rules is not None:
            raise TypeError("a game has its own rules: draw_game_graph(game)")
        try:
            graph = game_graph(position, max_nodes=max_nodes)
        except ValueError:
            raise ValueError(
                f"the game graph of {position} has more than {max_nodes} positions: start "
                "smaller, or draw nimkit.game_graph(game) with networkx"
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
