"""Games on graphs and boards: Node Kayles, Arc Kayles and Cram.

A move deletes vertices of a graph: a vertex and its neighbours (Node Kayles), the two
ends of an edge (Arc Kayles), the two cells of a domino (Cram, Arc Kayles on the
grid of a board's empty cells). The native core splits each position into connected
components and searches each component once (a board's shapes up to the square's
symmetries); misère play, which has no XOR rule, searches whole positions.
"""

from __future__ import annotations

import math
import operator
import os
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from . import _core, board_certificate, board_checkpoint, cluster
from ._progress import Counter, counter
from .games import ImpartialGame, _with_bar
from .outcome import Outcome
from .rules import DEFAULT_MAX_POSITIONS

if TYPE_CHECKING:
    import networkx as nx

#: A graph as the classes take it: a networkx Graph, an adjacency mapping or edge pairs.
GraphLike = Any


def _graph_parts(graph: GraphLike) -> tuple[list[Hashable], list[tuple[int, int]]]:
    """The vertex names and the edges (as vertex numbers) of any ``GraphLike``."""
    if getattr(graph, "is_directed", None) is not None:
        if graph.is_directed():
            raise TypeError("these games are played on undirected graphs; pass G.to_undirected()")
        names = list(graph.nodes)
        pairs: Iterable[tuple[Hashable, Hashable]] = graph.edges()
    elif isinstance(graph, Mapping):
        names = list(graph)
        pairs = [(u, v) for u, neighbours in graph.items() for v in neighbours]
    elif isinstance(graph, Iterable) and not isinstance(graph, (str, bytes)):
        names, pairs = [], list(graph)
        for pair in pairs:
            if not isinstance(pair, Sequence) or len(pair) != 2:
                raise TypeError(f"an edge is a pair (u, v), not {pair!r}")
    else:
        raise TypeError(
            "a graph is a networkx Graph, an adjacency mapping or a list of edges (u, v), "
            f"not {type(graph).__name__}"
        )
    index = {name: i for i, name in enumerate(names)}
    edges = []
    for u, v in pairs:
        for end in (u, v):
            if end not in index:
                index[end] = len(names)
                names.append(end)
        if u == v:
            raise ValueError(f"the edge ({u!r}, {v!r}) is a loop; these games have none")
        edges.append((index[u], index[v]))
    return names, edges


def _as_grid(names: list[Hashable], edges: list[tuple[int, int]]) -> tuple[int, int] | None:
    """(rows, columns) when the vertices are cells ``(r, c)`` joined exactly side by
    side (networkx's ``grid_2d_graph`` and its induced subgraphs), else None."""
    if not names or not all(
        isinstance(n, tuple) and len(n) == 2 and all(type(x) is int and x >= 0 for x in n)
        for n in names
    ):
        return None
    cells: list[tuple[int, int]] = names  # type: ignore[assignment]
    rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    if rows * cols > 1 << 14:
        return None
    present = set(cells)
    side = {
        frozenset(((r, c), (r + dr, c + dc)))
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in present
    }
    given = {frozenset((cells[u], cells[v])) for u, v in edges}
    return (rows, cols) if given == side else None


#: What ``max_memory=`` takes: bytes, or a string such as ``"2 GB"`` or ``"512 MiB"``.
Memory = int | str | None

_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


def memory_bytes(max_memory: Memory) -> int | None:
    """The bytes ``max_memory`` names (None: no bound).

    >>> memory_bytes("2 GB"), memory_bytes("512MiB"), memory_bytes(4096), memory_bytes(None)
    (2000000000, 536870912, 4096, None)
    """
    if max_memory is None:
        return None
    if isinstance(max_memory, str):
        found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", max_memory)
        unit = found and _UNITS.get(found[2].lower())
        if not found or unit is None:
            raise ValueError(
                f"max_memory {max_memory!r} is not a size: give bytes, or one such as '2 GB' "
                "or '512 MiB'"
            )
        number = float(found[1]) * unit
        # A size past any machine's memory is no bound (digits past a float's range).
        size = 2**64 if math.isinf(number) else int(number)
    elif isinstance(max_memory, int) and not isinstance(max_memory, bool):
        size = max_memory
    else:
        raise TypeError(f"max_memory is bytes or a size such as '2 GB', not {max_memory!r}")
    if size < 1:
        raise ValueError(f"max_memory must be at least 1 byte, not {max_memory!r}")
    return min(size, 2**64 - 1)


def _evicting(max_memory: Memory, evict: bool) -> int | None:
    """The bytes of ``max_memory``, checked to go with ``evict``."""
    if not isinstance(evict, bool):
        raise TypeError(f"evict is True or False, not {evict!r}")
    memory = memory_bytes(max_memory)
    if evict and memory is None:
        raise ValueError("evict=True makes room past max_memory: give max_memory too")
    return memory


class _Deleting(ImpartialGame):
    """What the games on graphs and boards share: searches whose memory is bounded
    (``max_memory``), and runs of normal play that survive a restart (``checkpoint``).

    ``max_memory`` bounds the table the search fills (which the game keeps for later
    questions) and its stack: MemoryError past it, naming the bound, what was learned
    kept. ``max_positions`` is taken for the protocol's sake; these searches are not
    bounded by it.
    """

    __slots__ = ()

    def grundy(
        self,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
        *,
        max_memory: Memory = None,
        checkpoint: str | os.PathLike[str] | None = None,
        every: float = 600.0,
        evict: bool = False,
        certificate: str | os.PathLike[str] | None = None,
        client: Any = None,
    ) -> int:
        """The Grundy value in normal play. ``checkpoint``: a directory where the
        search saves what it learned every ``every`` seconds, on Ctrl-C, past
        ``max_memory`` and at the end, and which a later run (of any position of the
        same game) starts from (see ``nimkit.board_checkpoint``). ``evict``: when the
        table reaches ``max_memory``, the values of the smallest components (the
        cheapest to find again) are dropped and the search goes on (on several
        threads, from the round in hand); MemoryError only if the search cannot go
        on within the bound (its own stack does not fit, or, on several threads,
        five rounds in a row keep nothing new). ``certificate``: a file where the
        value is written with what proves it, for ``nimkit.verify`` to check (games
        on boards; see ``nimkit.board_certificate``). ``client``: a
        ``distributed.Client`` whose cluster answers the search's questions (see
        ``nimkit.cluster``; ``checkpoint`` then keeps their answers).

        >>> Cram(4, 5).grundy(max_memory="64 MiB")
        2
        >>> Cram(5, 7).grundy(max_memory="512 KiB", evict=True)   # MemoryError without
        1
        """
        memory = _evicting(max_memory, evict)
        if client is not None:
            if certificate is not None:
                raise ValueError(
                    "a certificate is written by a search in one process, not on a cluster"
                )
            return cluster.solve(
                self,
                client,
                False,
                checkpoint=checkpoint,
                every=every,
                progress=progress,
                max_memory=memory,
                evict=evict,
            )
        if certificate is not None:
            if checkpoint is not None or evict:
                raise ValueError(
                    "a certificate keeps every fact the search proves: it takes no "
                    "checkpoint and no evict"
                )
            return board_certificate.write(self, certificate, memory, progress)
        if checkpoint is not None:
            return board_checkpoint.run(self, checkpoint, every, memory, progress, evict)
        value = _with_bar(
            progress, lambda bar: _core.vertex_value(self._native, memory, None, bar, None, evict)
        )
        assert value is not None, "a search with no time bound ends with the value"
        return value

    def outcome(
        self,
        misere: bool = False,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
        *,
        max_memory: Memory = None,
        evict: bool = False,
        client: Any = None,
        depth: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        certificate: str | os.PathLike[str] | None = None,
    ) -> Outcome:
        """P or N in normal or misère play, the search bounded by ``max_memory``.
        ``evict``: past the bound, room is made as ``grundy`` makes it in normal
        play; in misère play the outcomes of the positions of the fewest vertices are
        dropped and the search goes on where it is (MemoryError only if the search's
        own stack does not fit). ``client``, ``checkpoint``: searched on a Dask
        cluster, as ``grundy`` is, misère play over the top ``depth`` moves (2 if
        None; ``nimkit.cluster``). ``certificate``: a file where the misère outcome
        is written with the positions that prove it, for ``nimkit.verify`` to check
        (games on boards; see ``nimkit.board_certificate``; a normal-play outcome
        follows from ``grundy(certificate=)``).

        >>> Cram(4, 6).outcome(misere=True, max_memory="256 KiB", evict=True)
        Outcome.P
        """
        memory = _evicting(max_memory, evict)
        if certificate is not None:
            if not misere:
                raise ValueError(
                    "a normal-play outcome is proven by the value: grundy(certificate=)"
                )
            if client is not None or evict:
                raise ValueError(
                    "a certificate is written by a search in one process that keeps every "
                    "position it proves: no client, no evict"
                )
            return board_certificate.write_misere(self, certificate, memory, progress)
        if client is not None:
            return cluster.outcome(
                self,
                client,
                misere,
                depth=depth,
                checkpoint=checkpoint,
                progress=progress,
                max_memory=memory,
                evict=evict,
            )
        if checkpoint is not None:
            raise ValueError(
                "outcome keeps a checkpoint on a cluster only (client=); "
                "grundy(checkpoint=) saves a search in one process"
            )
        return _with_bar(
            progress,
            lambda bar: self._native.outcome(misere, max_positions, bar, memory, evict),
        )

    def winning_moves(
        self,
        misere: bool = False,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
        *,
        max_memory: Memory = None,
        evict: bool = False,
    ) -> list[ImpartialGame]:
        """The options that win, the search bounded by ``max_memory`` (past which
        room is made with ``evict``, as ``outcome`` makes it)."""
        memory = _evicting(max_memory, evict)
        found = _with_bar(
            progress,
            lambda bar: self._native.winning_moves(misere, max_positions, bar, memory, evict),
        )
        return [ImpartialGame._of(n) for n in found]

    def value_table(self, *, cache: str | os.PathLike[str] | None = None) -> ValueTable:
        """The Grundy value and misère outcome of every position of the game's graph
        (every subset of its vertices: at most 26), computed by the core in one
        retrograde pass on every core; what the learning environments look positions
        up in (``nimkit.rl.jax``), and a dataset on its own.

        ``cache``: a directory where the table is kept, computed the first time and
        read back after (checked: see ``nimkit.value_table_cache``).

        >>> table = Cram(2, 3).value_table()
        >>> int(table.grundy[table.start]), bool(table.misere_wins[table.start])
        (1, False)
        >>> table.needs.size   # the board's 7 dominoes
        7
        """
        from . import value_table_cache

        start = sum(1 << v for v in self._native.numbers())
        kept = None if cache is None else value_table_cache.load(self, cache)
        if kept is None:
            needs, deletes, grundy, wins = _core.vertex_every_position(self._native)
            kept = {"needs": needs, "deletes": deletes, "grundy": grundy, "misere_wins": wins}
            kept["misere_wins"] = wins.astype(bool)
            if cache is not None:
                value_table_cache.save(self, kept, cache)
        return ValueTable(
            kept["needs"], kept["deletes"], kept["grundy"], kept["misere_wins"], start
        )


@dataclass(frozen=True)
class ValueTable:
    """Every position of a small game on a graph or board (``value_table()``), as
    arrays: position ``s`` holds vertex ``v`` when bit ``v`` of ``s`` is set (for Cram,
    cell ``(r, c)`` is vertex ``r * cols + c``).

    ``needs[a]`` and ``deletes[a]`` are the vertices move ``a`` needs and deletes (the
    moves in action order: vertex ``a`` for Node Kayles, edge ``a`` of
    ``vertex_edges`` for Arc Kayles and Cram), ``grundy[s]`` the normal-play value,
    ``misere_wins[s]`` whether the player to move wins misère play, ``start`` the
    position the game is at.
    """

    needs: npt.NDArray[np.uint32]
    deletes: npt.NDArray[np.uint32]
    grundy: npt.NDArray[np.uint8]
    misere_wins: npt.NDArray[np.bool_]
    start: int

    @property
    def vertices(self) -> int:
        """How many vertices the graph has (``len(grundy) == 2**vertices``)."""
        return int(self.grundy.size).bit_length() - 1

    def legal(self, position: int) -> npt.NDArray[np.bool_]:
        """Which moves ``position`` allows."""
        legal: npt.NDArray[np.bool_] = (np.uint32(position) & self.needs) == self.needs
        return legal

    def after(self, position: int) -> npt.NDArray[np.uint32]:
        """The position each move leaves (where it is legal)."""
        return np.uint32(position) & ~self.deletes


class _OnGraph(_Deleting):
    """What Node Kayles and Arc Kayles share: a graph with named vertices, a position
    being the vertices left."""

    __slots__ = ()

    def __init__(self, graph: GraphLike, vertices: Iterable[Hashable] | None = None) -> None:
        names, edges = _graph_parts(graph)
        grid = _as_grid(names, edges)
        if grid is not None:
            # The cells of a board: searched with its shapes keyed up to symmetry.
            present, (rows, cols) = set(names), grid
            names = [(r, c) for r in range(rows) for c in range(cols)]
            if vertices is None:
                vertices = [name for name in names if name in present]
        index = {name: i for i, name in enumerate(names)}
        if vertices is None:
            left = list(range(len(names)))
        else:
            left = []
            for name in vertices:
                if name not in index:
                    raise ValueError(f"{name!r} is not a vertex of the graph")
                left.append(index[name])
        args = (len(names), edges, grid, left, tuple(names))
        native = _core.native_game(self.family, args)
        object.__setattr__(self, "_native", native)

    def _names(self) -> tuple[Hashable, ...]:
        names = _core.vertex_names(self._native)
        assert names is not None, "a graph's game keeps its vertices' names"
        return names

    @property
    def vertices(self) -> frozenset[Hashable]:
        """The vertices left (their names)."""
        names = self._names()
        return frozenset(names[v] for v in self._native.numbers())

    @property
    def graph(self) -> nx.Graph:
        """The graph of the vertices left, with their names (needs networkx)."""
        import networkx as nx

        names, left = self._names(), set(self._native.numbers())
        graph = nx.Graph()
        graph.add_nodes_from(names[v] for v in sorted(left))
        graph.add_edges_from(
            (names[u], names[v]) for u, v in _core.vertex_edges(self._native) if {u, v} <= left
        )
        return graph

    def removed(self, option: _OnGraph) -> frozenset[Hashable]:
        """The vertices the move to ``option`` deletes."""
        return self.vertices - option.vertices

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        names = self._names()
        adjacency: dict[Hashable, list[Hashable]] = {name: [] for name in names}
        for u, v in _core.vertex_edges(self._native):
            adjacency[names[u]].append(names[v])
        keywords = {} if len(self.vertices) == len(names) else {"vertices": self._left()}
        return (adjacency,), keywords

    def _left(self) -> list[Hashable]:
        names = self._names()
        return [names[v] for v in self._native.numbers()]

    def __repr__(self) -> str:
        names = self._names()
        edges = len(_core.vertex_edges(self._native))
        left = len(self._native.numbers())
        return (
            f"{type(self).__name__}(<graph of {len(names)} vertices and {edges} edges>, "
            f"{left} left)"
        )

    def __str__(self) -> str:
        left = self._left()
        shown = ", ".join(map(repr, left[:12])) + (", ..." if len(left) > 12 else "")
        return "{" + shown + "}"

    def svg(self) -> str:
        """The graph with the vertices left, the winning moves marked (normal play)."""
        from . import svg

        return svg.vertex_game(self)


class NodeKayles(_OnGraph):
    """Node Kayles: a move picks a vertex and deletes it with its neighbours; whoever
    cannot move loses (in misère play, wins). On a path it is Dawson's Chess, ``0.137``.

    The graph is a networkx Graph, an adjacency mapping or a list of edges; a position
    is the set of vertices left (``vertices``, all by default).

    >>> g = NodeKayles([(0, 1), (1, 2), (2, 3), (3, 4)])   # a path of 5: Dawson's Chess
    >>> g.grundy(), g.outcome(misere=True)
    (3, Outcome.N)
    >>> [sorted(g.removed(m)) for m in g.winning_moves()]
    [[1, 2, 3]]
    """

    __slots__ = ()
    family = "node_kayles"

    def describe(self) -> str:
        return f"Node Kayles on the vertices {self}"


class ArcKayles(_OnGraph):
    """Arc Kayles: a move picks an edge and deletes both its ends; whoever cannot move
    loses (in misère play, wins). On a path it is Dawson's Kayles, ``0.07``.

    >>> g = ArcKayles({"a": ["b", "c"], "b": ["c"], "c": [], "d": ["c"]})
    >>> g.grundy(), sorted(sorted(g.removed(m)) for m in g.winning_moves())
    (2, [['a', 'c'], ['b', 'c']])
    """

    __slots__ = ()
    family = "arc_kayles"

    def describe(self) -> str:
        return f"Arc Kayles on the vertices {self}"


class Cram(_Deleting):
    """Cram: players place dominoes, either way, on the empty cells of a board; whoever
    cannot move loses (in misère play, wins). It is Arc Kayles on the grid of the
    empty cells.

    ``Cram(rows, cols)`` is an empty rectangle; ``Cram(["....", "..#."])`` a shaped
    board, ``.`` empty and ``#`` filled.

    >>> Cram(3, 3).grundy(), Cram(2, 5).grundy(), Cram(4, 4).outcome()
    (0, 1, Outcome.P)
    >>> g = Cram(["....", ".#.."])
    >>> [sorted(g.removed(m)) for m in g.winning_moves()][:2]
    [[(0, 0), (0, 1)], [(0, 0), (1, 0)]]
    """

    __slots__ = ()
    family = "cram"

    def __init__(self, rows: SupportsIndex | Iterable[str], cols: SupportsIndex | None = None):
        if isinstance(rows, (str, bytes)):
            raise TypeError("a shaped board is a list of rows, e.g. ['..#', '...']")
        empty: list[int] | None
        if cols is not None:
            if isinstance(rows, Iterable):
                raise TypeError("Cram(rows, cols) takes two whole numbers")
            r, c = _size(rows, "rows"), _size(cols, "cols")
            empty = None  # every cell
        elif isinstance(rows, Iterable):
            r, c, empty = _shaped(list(rows))
        else:
            raise TypeError("Cram(rows, cols) or Cram(['..#', '...'])")
        object.__setattr__(self, "_native", _core.native_game("cram", (r, c, empty)))

    @property
    def shape(self) -> tuple[int, int]:
        """The board's rows and columns."""
        return _core.board_size(self._native)

    @property
    def cells(self) -> frozenset[tuple[int, int]]:
        """The empty cells left, as (row, column)."""
        _, cols = self.shape
        return frozenset(divmod(v, cols) for v in self._native.numbers())

    def removed(self, option: Cram) -> frozenset[tuple[int, int]]:
        """The cells of the domino that the move to ``option`` places."""
        return self.cells - option.cells

    def rows(self) -> list[str]:
        """The board as text, ``.`` empty, ``#`` filled."""
        rows, cols = self.shape
        cells = self.cells
        return ["".join("." if (r, c) in cells else "#" for c in range(cols)) for r in range(rows)]

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        rows, cols = self.shape
        if len(self.cells) == rows * cols:
            return (rows, cols), {}
        return (self.rows(),), {}

    def __str__(self) -> str:
        return "/".join(self.rows())

    def describe(self) -> str:
        rows, cols = self.shape
        if len(self.cells) == rows * cols:
            return f"Cram on an empty {rows} x {cols} board"
        return f"Cram on the board {self}"

    def svg(self) -> str:
        """The board, the winning dominoes marked (normal play)."""
        from . import svg

        return svg.cram(self)


def _size(value: SupportsIndex, name: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number, not bool")
    try:
        size = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be a whole number, not {value!r}") from None
    if size < 1:
        raise ValueError(f"{name} must be at least 1, not {size}")
    return size


def _shaped(lines: list[str]) -> tuple[int, int, list[int]]:
    if not lines:
        raise ValueError("a board has at least one row")
    cols = len(lines[0])
    empty = []
    for r, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"a row is a string of '.' and '#', not {line!r}")
        if len(line) != cols:
            raise ValueError(f"row {r} has {len(line)} cells, row 0 has {cols}")
        for c, cell in enumerate(line):
            if cell not in ".#":
                raise ValueError(f"row {r} has {cell!r}: a cell is '.' (empty) or '#' (filled)")
            if cell == ".":
                empty.append(r * cols + c)
    return len(lines), cols, empty


def cram_table(
    rows: SupportsIndex,
    max_cols: SupportsIndex,
    progress: bool = False,
    *,
    max_memory: Memory = None,
    checkpoint: str | os.PathLike[str] | None = None,
    every: float = 600.0,
    evict: bool = False,
    client: Any = None,
) -> list[int]:
    """The Grundy values of the ``rows`` x n Cram rectangles for n = 1 to ``max_cols``,
    searched on one board so that every shape is met once for the whole row (a
    progress bar over the widths; Ctrl-C stops it; MemoryError past ``max_memory``).

    ``checkpoint``: a directory where the search saves what it learned every
    ``every`` seconds, on Ctrl-C, past ``max_memory`` and at the end; a later call
    with the same directory (and the same ``rows`` and ``max_cols``: the checkpoint
    is that board's, see ``nimkit.board_checkpoint``) starts from it, the widths
    done before read back from the table at once. ``evict``: past ``max_memory`` the
    search makes room and goes on, as ``Cram.grundy`` does. ``client``: each
    rectangle searched on a Dask cluster (``nimkit.cluster``), the answers kept in
    ``checkpoint``, one record for every width (what Cram's are about is keyed by
    its shape alone).

    >>> cram_table(2, 6)
    [1, 0, 1, 0, 1, 0]
    """
    r, c = _size(rows, "rows"), _size(max_cols, "max_cols")
    memory = _evicting(max_memory, evict)
    bar = counter(c, f"Cram {r} x n") if progress else None
    try:
        if client is not None:
            values = []
            for n in range(1, c + 1):
                found = cluster.solve(
                    Cram(r, n), client, False,
                    checkpoint=checkpoint, every=every, max_memory=memory, evict=evict,
                )  # fmt: skip
                values.append(found)
                if bar is not None:
                    bar(n)
            return values
        if checkpoint is None:
            return _core.cram_table(r, c, bar, memory, evict)
        return _saved_row(r, c, checkpoint, every, memory, evict, bar)
    finally:
        if bar is not None:
            bar.close()


def _saved_row(
    rows: int,
    cols: int,
    directory: str | os.PathLike[str],
    every: float,
    max_memory: int | None,
    evict: bool,
    bar: Counter | None,
) -> list[int]:
    """``cram_table`` with a checkpoint: each width's rectangle valued on the board
    ``rows`` x ``cols`` (cell (i, j) its vertex i * cols + j)."""
    values = []
    with board_checkpoint.Saving(Cram(rows, cols), directory, every, max_memory, evict) as saving:
        for n in range(1, cols + 1):
            cells = [i * cols + j for i in range(rows) for j in range(n)]
            values.append(saving.value(cells=cells))
            if bar is not None:
                bar(n)
    return values
