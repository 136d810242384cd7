"""Every impartial game: one protocol, sums of different games, games you define, and
games on directed graphs (loopy ones too, with draws).

Every game answers the same questions, from the native core: ``options()``,
``grundy()`` (Smith's value: an int, or ``Infinite`` for a position where play can go
on forever), ``outcome(misere=False)`` (P, N, or D for a draw), ``winning_moves()``,
and ``explain()``. Games are immutable and hashable, add up with ``+`` into a
``Sum``, draw themselves in notebooks, and can be played (``nimkit.Game``).

>>> import nimkit as nk
>>> s = nk.Heaps([5, 3], nk.Rules(code="0.77")) + nk.Heaps([2, 7])
>>> s.grundy(), s.outcome()
(2, Outcome.N)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, SupportsIndex, TypeVar

import numpy as np

from . import _core
from .outcome import Outcome
from .position import Position
from .rules import DEFAULT_MAX_POSITIONS, Rules, rules_or_default


@dataclass(frozen=True)
class Infinite:
    """Smith's value ∞(K) of a position in a loopy game: no finite value, and K the
    finite values among its options. The player to move wins (N) when 0 is in K (a
    move reaches a P-position); otherwise neither player can force a win (D).

    >>> Infinite((0, 2)), str(Infinite((1,)))
    (Infinite(k=(0, 2)), '∞(1)')
    """

    k: tuple[int, ...]

    def __str__(self) -> str:
        return f"∞({', '.join(map(str, self.k))})"

    @property
    def outcome(self) -> Outcome:
        return Outcome.N if 0 in self.k else Outcome.D


#: Smith's value: a Grundy value, or ∞(K).
Value = int | Infinite


class ImpartialGame:
    """An impartial game at one position. Subclasses are the families: ``Heaps``,
    ``Impartial`` (a game you define), ``DigraphGame``, ``Sum``; each wraps the
    native core's game.

    The ending belongs to the question: ``outcome(misere=True)``. Searches (misère
    play of a sum, a game you define, a loopy graph) are bounded by
    ``max_positions`` and refuse with ValueError past it.
    """

    __slots__ = ("_native",)
    _native: _core.NativeGame

    #: The native family each subclass stands for, and the class of each family.
    family: ClassVar[str] = ""
    _classes: ClassVar[dict[str, type[ImpartialGame]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.family:
            ImpartialGame._classes[cls.family] = cls

    @classmethod
    def _of(cls, native: _core.NativeGame) -> ImpartialGame:
        """The game of a native handle, as its family's class."""
        game = object.__new__(ImpartialGame._classes[native.family])
        object.__setattr__(game, "_native", native)
        return game

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments (positional, keywords) that make this game again with its
        class: each family says them once, for its repr and for pickling."""
        raise TypeError(f"{type(self).__name__} cannot be made again from arguments (pickled)")

    def __repr__(self) -> str:
        args, keywords = self._arguments()
        shown = [*map(repr, args), *(f"{k}={v!r}" for k, v in keywords.items())]
        return f"{type(self).__name__}({', '.join(shown)})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        args, keywords = self._arguments()
        return _rebuild, (type(self), args, keywords)

    def options(self) -> list[ImpartialGame]:
        """Every option: the games one move reaches, as games of the same family."""
        return [ImpartialGame._of(n) for n in self._native.options()]

    def grundy(self, max_positions: int = DEFAULT_MAX_POSITIONS, progress: bool = False) -> Value:
        """The value in normal play: the Grundy value (the mex of the options'), or for
        a position where play can go on forever Smith's ∞(K) (``Infinite``).
        ``progress``: a bar of the positions a search finds (the ``progress`` extra)."""
        value: Value = _with_bar(progress, lambda bar: self._native.grundy(max_positions, bar))
        return value

    def outcome(
        self,
        misere: bool = False,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
    ) -> Outcome:
        """P (the player to move loses), N (wins) or D (a draw: play goes on forever),
        in normal play (the last mover wins) or misère play (the last mover loses)."""
        return _with_bar(progress, lambda bar: self._native.outcome(misere, max_positions, bar))

    def winning_moves(
        self,
        misere: bool = False,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
    ) -> list[ImpartialGame]:
        """The options that win (P-positions); from a draw, where no move wins, the
        options that keep the draw (D-positions). None from a P-position."""
        found = _with_bar(
            progress, lambda bar: self._native.winning_moves(misere, max_positions, bar)
        )
        return [ImpartialGame._of(n) for n in found]

    def remoteness(
        self,
        misere: bool = False,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
    ) -> int | None:
        """How many moves the game lasts when the winner wins as fast as it can and the
        loser loses as slowly (None for a draw), from a search of every position it
        reaches. In a loopy game a winner must lower it: a move to any P-position keeps
        the win, but may come back.

        >>> import networkx as nx
        >>> loop = nx.DiGraph([(0, 1), (1, 0), (1, 2)])  # 1 wins by 1 -> 2, or 1 -> 0
        >>> [DigraphGame(loop, v).remoteness() for v in (0, 1, 2)]
        [2, 1, 0]
        """
        return _with_bar(progress, lambda bar: self._native.remoteness(misere, max_positions, bar))

    def is_loopy(self, max_positions: int = DEFAULT_MAX_POSITIONS, progress: bool = False) -> bool:
        """Whether play can come back to a position it left (a cycle in the game graph:
        heaps never, a sum when a part is)."""
        return _with_bar(progress, lambda bar: self._native.is_loopy(max_positions, bar))

    def explain(self, misere: bool = False) -> str:
        """Why the outcome is what it is, in words."""
        outcome = self.outcome(misere)
        lines = [f"{self}: {outcome.value}, {outcome.describe()}."]
        lines.append(self._why_misere() if misere else self._why_value())
        moves = self.winning_moves(misere)
        if moves and outcome is Outcome.N:
            lines.append("Winning moves: " + "; ".join(map(str, moves[:12])) + ".")
        elif moves:
            lines.append("No move wins; these keep the draw: " + "; ".join(map(str, moves[:12])))
        return "\n".join(lines)

    def describe(self) -> str:
        """The game in words (``str`` gives the position alone)."""
        return str(self)

    def _label(self) -> str:
        """The position, short, for a node of a picture."""
        return str(self)

    def _why_misere(self) -> str:
        return (
            "Misère play has no XOR rule: the outcome comes from a search of every "
            "position the game reaches."
        )

    def to_dict(
        self, misere: bool = False, max_positions: int = DEFAULT_MAX_POSITIONS
    ) -> dict[str, Any]:
        """The facts as plain data (what ``nimkit analyse --sum --json`` prints): the
        game in words, the ending asked, the outcome, the value (normal play; ∞(K) as
        text) and the winning moves in words.

        >>> Heaps([1, 2]).to_dict()["winning_moves"]
        ['1 1']
        """
        value = self.grundy(max_positions)
        return {
            "game": str(self),
            "misere": misere,
            "outcome": self.outcome(misere, max_positions).value,
            "value": value if isinstance(value, int) else str(value),
            "winning_moves": [str(g) for g in self.winning_moves(misere, max_positions)],
        }

    def _why_value(self) -> str:
        value = self.grundy()
        if isinstance(value, Infinite):
            return (
                f"Its value is {value} (Smith): no finite value fits, because play can go "
                "on forever; the finite values among its options are the set shown."
            )
        return f"Its Grundy value is {value}, the smallest value no option has."

    def __add__(self, other: object) -> Sum:
        if not isinstance(other, ImpartialGame):
            return NotImplemented
        return Sum(self, other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImpartialGame):
            return NotImplemented
        return self._native == other._native

    def __hash__(self) -> int:
        return hash(self._native)

    def svg(self) -> str:
        """The game's picture as SVG text: a family's own drawing, else its game graph
        (the ``graph`` extra; ValueError past 100 positions).

        >>> Heaps([1, 2]).svg()[:4]
        '<svg'
        """
        from .graph_picture import draw_game_graph

        return draw_game_graph(self).svg

    def _repr_svg_(self) -> str | None:
        """``svg()`` for notebooks, or nothing when there is no picture to show."""
        try:
            return self.svg()
        except (ValueError, ImportError):
            return None

    def _repr_html_(self) -> str:
        """The value and outcome, above the picture (``_repr_svg_``) when there is one."""
        value, outcome = self.grundy(), self.outcome()
        summary = (
            f"<code>{html.escape(repr(self))}</code>: value {html.escape(str(value))}, "
            f"outcome {outcome.value} ({html.escape(outcome.describe())})"
        )
        picture = self._repr_svg_()
        return summary if picture is None else f"<div>{summary}</div>{picture}"


class Heaps(ImpartialGame):
    """Heaps under heap rules (``Position`` and ``Rules``) as a game. The rules give
    the moves; the ending is the question's (``outcome(misere=True)``), so misère
    rules are refused.

    >>> Heaps([1, 3, 5, 7]).grundy(), Heaps([1, 3, 5, 7]).outcome(misere=True)
    (0, Outcome.P)
    """

    __slots__ = ()
    family = "heaps"

    def __init__(
        self, heaps: Position | Iterable[SupportsIndex], rules: Rules | None = None
    ) -> None:
        native = _core.native_game("heaps", (heaps, rules_or_default(rules)))
        object.__setattr__(self, "_native", native)

    @property
    def heaps(self) -> tuple[int, ...]:
        return tuple(self._native.heaps())

    @property
    def position(self) -> Position:
        return Position(self._native.heaps())

    @property
    def rules(self) -> Rules:
        return Rules._of(self._native.rules())

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        rules = self.rules
        heaps = list(self.heaps)
        return ((heaps,) if rules == Rules() else (heaps, rules)), {}

    def __str__(self) -> str:
        return " ".join(map(str, self.heaps)) or "(no heaps)"

    def describe(self) -> str:
        """The heaps and their rule in words.

        >>> Heaps([5, 3], Rules(code="0.77")).describe()
        'heaps 5 3, take-and-break code 0.77'
        """
        rules = self.rules
        return (
            f"Nim heaps {self}" if rules == Rules() else f"heaps {self}, {rules.describe_moves()}"
        )

    def _why_misere(self) -> str:
        r = self.rules
        misere = Rules(True, r.max_take, r.take, r.code)
        # What decided the outcome, as nimkit.analyse names it (its ``method``).
        method = _core.analyse(self.position, misere, DEFAULT_MAX_POSITIONS)[5]
        how = {
            "closed form": "the closed form of these rules",
            "misère quotient": "the misère quotient of the code",
        }.get(method, "a search of every position the heaps reach")
        return f"In misère play the outcome of heaps comes from {how}."

    def svg(self) -> str:
        """The heaps as a picture: SVG text."""
        from . import svg

        return svg.position(self.position)


T = TypeVar("T")


def _rebuild(
    cls: type[ImpartialGame], args: tuple[Any, ...], keywords: dict[str, Any]
) -> ImpartialGame:
    """A game made again from its class and arguments (what pickling stores)."""
    return cls(*args, **keywords)


def _with_bar(progress: bool, ask: Callable[[Any], T]) -> T:
    """``ask(bar)``, with a bar counting the positions a search finds when
    ``progress`` (else None), closed after."""
    if not progress:
        return ask(None)
    from ._progress import counter

    bar = counter(None, "positions")
    try:
        return ask(bar)
    finally:
        bar.close()


class Impartial(ImpartialGame):
    """A game you define: a start ``state`` and ``options``, a function from a state
    to an iterable of states (hashable values: ints, tuples, frozensets, ...). Or give
    an object with an ``options()`` method and no function: the state is the object.

    The core explores the states iteratively (no recursion), calls ``options`` once
    per state, and keeps what it found; ``max_positions`` bounds each search and
    Ctrl-C stops it. A game whose states come back (a cycle) is a loopy game: its
    value may be ``Infinite`` and its outcome a draw, never a hang. An exception
    raised in ``options`` reaches you unchanged, with a note naming the state.

    >>> subtraction = Impartial(10, lambda n: [n - t for t in (1, 3, 4) if t <= n])
    >>> subtraction.grundy(), [g.state for g in subtraction.winning_moves()]
    (1, [9, 7])
    """

    __slots__ = ()
    family = "defined"

    def __init__(
        self, state: Hashable, options: Callable[[Any], Iterable[Hashable]] | None = None
    ) -> None:
        if options is None and not callable(getattr(state, "options", None)):
            raise TypeError(
                "give options, a function from a state to its options, or a state with "
                f"an options() method ({type(state).__name__} has none)"
            )
        if options is not None and not callable(options):
            raise TypeError(f"options must be callable, not {type(options).__name__}")
        try:
            hash(state)
        except TypeError:
            raise TypeError(
                f"a state must be hashable (an int, a tuple, a frozenset, ...), not "
                f"{type(state).__name__}: {state!r}"
            ) from None
        object.__setattr__(self, "_native", _core.native_game("defined", (state, options)))

    @property
    def state(self) -> Any:
        return self._native.state()

    def __repr__(self) -> str:
        return f"Impartial({self.state!r})"

    def __str__(self) -> str:
        return repr(self.state)

    def describe(self) -> str:
        return f"the game you defined, at state {self.state!r}"


class DigraphGame(ImpartialGame):
    """A token on a node of a directed graph (Ferguson, Part I, ch. 3): a move slides
    it along an edge; the player who cannot move loses (normal play). ``graph`` is a
    networkx ``DiGraph``, a mapping from each node to its successors, or an integer
    array of ``(from, to)`` edges of shape ``(edges, 2)`` over nodes ``0..n-1``.

    The graph may have cycles: every node gets Smith's generalised Sprague-Grundy
    value (an int, or ``Infinite`` where play can go on forever) by retrograde
    labelling with counters, one pass per value level, O((largest finite value + 2)
    · edges), computed once for the whole graph; outcomes are P, N or D.

    >>> graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["e"], "e": []}
    >>> DigraphGame(graph, "a").grundy(), DigraphGame(graph, "a").outcome()
    (Infinite(k=()), Outcome.D)
    >>> DigraphGame(graph, "c").grundy(), DigraphGame(graph, "d").grundy()
    (Infinite(k=(1,)), 1)
    """

    __slots__ = ()
    family = "digraph"

    def __init__(self, graph: Any, node: Hashable) -> None:
        digraph, index = _digraph(graph)
        if node not in index:
            raise ValueError(f"{node!r} is not a node of the graph")
        object.__setattr__(self, "_native", digraph.game(index[node]))

    @property
    def node(self) -> Any:
        return self._native.node()

    def __repr__(self) -> str:
        return f"DigraphGame(<{len(self._native.digraph())} nodes>, {self.node!r})"

    def __str__(self) -> str:
        return f"the token on node {self.node!r}"

    def _label(self) -> str:
        return repr(self.node)

    def describe(self) -> str:
        return f"a token on node {self.node!r} of a graph of {len(self._native.digraph())} nodes"


def _digraph(graph: Any) -> tuple[_core.Digraph, dict[Any, int]]:
    """The native graph of a networkx DiGraph, a mapping or an edge array, and the
    number of each node."""
    if isinstance(graph, np.ndarray):
        edges = np.asarray(graph)
        if edges.ndim != 2 or edges.shape[1] != 2 or edges.dtype.kind not in "iu":
            raise ValueError("an edge array is of integers, of shape (edges, 2)")
        if len(edges) and edges.min() < 0:
            raise ValueError("nodes of an edge array are numbered from 0")
        count = int(edges.max()) + 1 if len(edges) else 0
        # Every number up to the largest is a node: refuse a range far past the edges
        # (a graph of one edge to node 10**9 would be a billion nodes).
        if count > max(1 << 20, 16 * len(edges)):
            raise ValueError(
                f"the edge array names node {count - 1} but has {len(edges)} "
                f"edge{'s' * (len(edges) != 1)}: its "
                "nodes are 0..n-1, every one a node of the graph; number them densely "
                "(np.unique(edges, return_inverse=True)) or give a mapping"
            )
        names = list(range(count))
        native = _core.Digraph(names, np.ascontiguousarray(edges, dtype=np.uint64))
        return native, {n: n for n in names}
    if hasattr(graph, "is_directed"):  # networkx
        if not graph.is_directed():
            raise TypeError(
                "the graph must be directed (a networkx DiGraph): a move follows an edge"
            )
        successors: Mapping[Any, Iterable[Any]] = graph.succ
    elif isinstance(graph, Mapping):
        successors = graph
    else:
        raise TypeError(
            "graph must be a networkx DiGraph, a mapping from each node to its successors, "
            f"or an edge array, not {type(graph).__name__}"
        )
    index: dict[Any, int] = {}
    for node in successors:
        index.setdefault(node, len(index))
    pairs = []
    for node, after in successors.items():
        if isinstance(after, (str, bytes)) or not isinstance(after, Iterable):
            raise TypeError(
                f"the successors of node {node!r} must be an iterable of nodes, "
                f"not {type(after).__name__}"
            )
        for other in after:
            index.setdefault(other, len(index))
            pairs.append((index[node], index[other]))
    array = np.array(pairs, dtype=np.uint64).reshape(-1, 2)
    return _core.Digraph(list(index), array), index


class Sum(ImpartialGame):
    """The sum of games (``g1 + g2`` too): a move is a move in one part. In normal play
    its value is the XOR of the parts' values (Sprague-Grundy); with one loopy part
    ∞(K) and the others XOR-ing to a, it is ∞(K xor a) (Smith); with two or more,
    a draw. Misère play has no XOR rule: heaps under one rule merge into one heap
    position (their misère quotient answers), anything else is searched over the
    tuples of the parts' positions. Parts that are sums are taken apart.

    >>> s = Sum(Heaps([2, 7]), Impartial(6, lambda n: [n - t for t in (1, 3, 4) if t <= n]))
    >>> s.grundy(), s.outcome(), s.outcome(misere=True)
    (7, Outcome.N, Outcome.N)
    """

    __slots__ = ()
    family = "sum"

    def __init__(self, *parts: ImpartialGame) -> None:
        for part in parts:
            if not isinstance(part, ImpartialGame):
                raise TypeError(f"a sum adds games, not {type(part).__name__}")
        native = _core.native_game("sum", ([p._native for p in parts],))
        object.__setattr__(self, "_native", native)

    @property
    def parts(self) -> tuple[ImpartialGame, ...]:
        return tuple(ImpartialGame._of(n) for n in self._native.parts())

    def _why_value(self) -> str:
        values = [part.grundy() for part in self.parts]
        if any(isinstance(v, Infinite) for v in values):
            return (
                "The parts' values are "
                + ", ".join(map(str, values))
                + " (Smith): a part where play can go on forever makes the sum loopy too."
            )
        words = " xor ".join(map(str, values))
        total = 0
        for v in values:
            assert isinstance(v, int)
            total ^= v
        parts = "\n".join(
            f"  {part.describe()}: value {value}"
            for part, value in zip(self.parts, values, strict=True)
        )
        return (
            f"The parts:\n{parts}\nEach part plays like a Nim heap of its value; the "
            f"sum's value is their nim-sum (exclusive or): {words} = {total}. The "
            "player to move loses exactly when it is 0."
        )

    def _why_misere(self) -> str:
        parts = self.parts
        heaps = [p for p in parts if isinstance(p, Heaps)]
        if len(heaps) == len(parts) and len({p.rules for p in heaps}) == 1:
            merged = Heaps([h for p in heaps for h in p.heaps], heaps[0].rules)
            return (
                "Misère play has no XOR rule. The parts are heaps under one rule, so "
                "they play as one position of all their heaps. " + merged._why_misere()
            )
        return (
            "Misère play has no XOR rule: the outcome comes from a search of every "
            "tuple of the parts' positions the sum reaches."
        )

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return self.parts, {}

    def __str__(self) -> str:
        return " + ".join(f"({part})" for part in self.parts)

    def describe(self) -> str:
        """The parts in words.

        >>> (Heaps([2]) + Heaps([5, 3], Rules(code="0.77"))).describe()
        'the sum of Nim heaps 2 and heaps 5 3, take-and-break code 0.77'
        """
        *most, last = [part.describe() for part in self.parts] or ["nothing"]
        return "the sum of " + (f"{'; '.join(most)} and {last}" if most else last)


def kernel(graph: Any) -> set[Any]:
    """The kernel of an acyclic game graph: the nodes where the player to move loses
    (Sprague-Grundy value 0). Every other node has a move into it, and no move leads
    from one of its nodes to another (Ferguson, Part I, 3.2). ValueError for a graph
    with cycles, whose P-positions need not form a kernel: ask ``DigraphGame``.

    >>> kernel({0: [1, 2], 1: [2], 2: []})
    {2}
    """
    native, index = _digraph(graph)
    if native.has_cycle():
        raise ValueError(
            "the graph has a cycle: a kernel need not exist; DigraphGame(graph, node)."
            "outcome() gives P, N or D for every node"
        )
    names = list(index)
    return {names[i] for i in native.kernel()}
