"""Positions, moves and outcomes. Every answer comes from the native core."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, SupportsIndex, overload

from . import _core
from .rules import DEFAULT_MAX_POSITIONS, Rules, rules_or_default

#: ``Position.moves`` refuses to build a list longer than this.
MAX_LISTED_MOVES = 10_000_000


class Outcome(enum.Enum):
    """Who wins with perfect play: P (the previous player) or N (the next player)."""

    P = "P"
    N = "N"

    @property
    def player_to_move_wins(self) -> bool:
        return self is Outcome.N

    def describe(self) -> str:
        """The outcome in words."""
        verb = "wins" if self is Outcome.N else "loses"
        return f"the player to move {verb} against perfect play"

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


class Move:
    """Take ``take`` objects from heap number ``heap`` (counted from 0); with ``into``,
    split what is left into two or three heaps.

    >>> Move(heap=3, take=2)
    Move(heap=3, take=2)
    >>> Move(heap=0, take=1, into=(3, 4))   # Kayles: knock out one pin of 8, leave 3 and 4
    Move(heap=0, take=1, into=(3, 4))

    A split replaces the heap in place: heap ``heap`` becomes ``into[0]``, the other
    parts follow it, and later heaps shift right. A move that splits may take nothing
    (Grundy's game); any other move takes at least 1.
    """

    __slots__ = ("_heap", "_into", "_take")
    _heap: int
    _take: int
    _into: tuple[int, ...] | None

    def __init__(
        self,
        heap: SupportsIndex,
        take: SupportsIndex,
        into: Iterable[SupportsIndex] | None = None,
    ) -> None:
        checked_heap, checked_take, checked_into = _core.check_move_args(heap, take, into)
        object.__setattr__(self, "_heap", checked_heap)
        object.__setattr__(self, "_take", checked_take)
        object.__setattr__(self, "_into", None if checked_into is None else tuple(checked_into))

    @property
    def heap(self) -> int:
        """The heap's index, from 0."""
        return self._heap

    @property
    def take(self) -> int:
        """How many objects the move takes."""
        return self._take

    @property
    def into(self) -> tuple[int, ...] | None:
        """The sizes of the heaps a split leaves, or None for a move that leaves one
        heap (or none)."""
        return self._into

    def _key(self) -> tuple[int, int, tuple[int, ...]]:
        return self._heap, self._take, self._into or ()

    def _wire(self) -> tuple[int, int, tuple[int, ...] | None]:
        return self._heap, self._take, self._into

    def __repr__(self) -> str:
        into = "" if self._into is None else f", into={self._into!r}"
        return f"Move(heap={self._heap}, take={self._take}{into})"

    def _repr_html_(self) -> str:
        return f"<code>{self}</code>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def __str__(self) -> str:
        if self._into is None:
            return f"take {self._take} from heap {self._heap}"
        parts = " + ".join(map(str, self._into))
        if self._take == 0:
            return f"split heap {self._heap} into {parts}"
        return f"take {self._take} from heap {self._heap} and split the rest into {parts}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: Move) -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(("Move", *self._key()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> tuple[type[Move], tuple[Any, ...]]:
        if self._into is None:
            return Move, (self._heap, self._take)
        return Move, (self._heap, self._take, self._into)


def _trusted_move(heap: int, take: int, into: Sequence[int] | None) -> Move:
    """A move from values the core has already validated."""
    move = object.__new__(Move)
    object.__setattr__(move, "_heap", heap)
    object.__setattr__(move, "_take", take)
    object.__setattr__(move, "_into", None if into is None else tuple(into))
    return move


def _moves(wires: Iterable[tuple[int, int, Sequence[int] | None]]) -> list[Move]:
    return [_trusted_move(*wire) for wire in wires]


class Position(Sequence[int]):
    """The sizes of the heaps: an immutable, hashable sequence of ints in 0..2**64 - 1.

    >>> Position([1, 3, 5, 7])
    Position([1, 3, 5, 7])

    Methods that depend on the rules take a ``Rules`` (default: plain Nim, normal play).
    """

    __slots__ = ("_heaps",)
    _heaps: tuple[int, ...]

    def __init__(self, heaps: Iterable[SupportsIndex] = ()) -> None:
        object.__setattr__(self, "_heaps", _core.check_heaps(heaps))

    @property
    def heaps(self) -> tuple[int, ...]:
        """The heap sizes as a tuple."""
        return self._heaps

    def grundy(self, rules: Rules | None = None) -> tuple[int, ...]:
        """Each heap's (normal-play) Grundy value: its size, its size mod (limit + 1),
        or its value in the subtraction set's periodic Grundy sequence."""
        return tuple(_core.grundy_values(self._heaps, rules_or_default(rules))[0])

    def nim_sum(self, rules: Rules | None = None) -> int:
        """XOR of the Grundy values."""
        return _core.grundy_values(self._heaps, rules_or_default(rules))[1]

    def outcome(
        self, rules: Rules | None = None, max_positions: int = DEFAULT_MAX_POSITIONS
    ) -> Outcome:
        """Outcome.P if the player to move loses against perfect play, else Outcome.N.

        Rules with no closed form (misère play of subtraction sets other than {1..k}
        and of take-and-break codes) are solved by searching every position this one
        can reach (the box below it, or the multisets of heaps splits lead to);
        ValueError says so when that is more than ``max_positions``."""
        is_p = _core.is_p(self._heaps, rules_or_default(rules), max_positions)
        return Outcome.P if is_p else Outcome.N

    def winning_moves(
        self, rules: Rules | None = None, max_positions: int = DEFAULT_MAX_POSITIONS
    ) -> list[Move]:
        """Every move to a P-position, in heap order, then smallest take first (at
        most one per heap, except with subtraction sets). ``max_positions`` as for
        ``outcome``."""
        return _moves(self._analyse(rules, max_positions)[3])

    def remoteness(
        self, rules: Rules | None = None, max_positions: int = DEFAULT_MAX_POSITIONS
    ) -> int:
        """How many moves the game lasts from here when the winner hurries and the
        loser delays, by exhaustive search of every position this one can reach (the
        box below it, or the multisets of heaps that splits lead to); ValueError when
        they are more than ``max_positions``."""
        return _core.remoteness(self._heaps, rules_or_default(rules), max_positions)

    def moves(self, rules: Rules | None = None) -> list[Move]:
        """Every legal move, heap by heap, smallest take first.

        Raises ValueError when there are more than ``MAX_LISTED_MOVES``.
        """
        return _moves(_core.legal_moves(self._heaps, rules_or_default(rules), MAX_LISTED_MOVES))

    def is_legal(self, move: Move, rules: Rules | None = None) -> bool:
        """Whether ``move`` may be played here under ``rules``."""
        return self.illegal_reason(move, rules) is None

    def illegal_reason(self, move: Move, rules: Rules | None = None) -> str | None:
        """Why ``move`` may not be played here, or None if it may."""
        return _core.illegal_reason(self._heaps, move._wire(), rules_or_default(rules))

    def after(self, move: Move, rules: Rules | None = None) -> Position:
        """The position after ``move``; raises IllegalMoveError if it is not legal.

        Without ``rules`` only the heap sizes limit the move; pass the rules to
        enforce a take limit too.
        """
        if not isinstance(move, Move):
            raise TypeError(f"move must be a nimkit.Move, not {type(move).__name__}")
        heaps = _core.after(self._heaps, move._wire(), rules_or_default(rules))
        return Position._trusted(heaps)

    @property
    def is_empty(self) -> bool:
        """True when no object is left (with a subtraction set, moves may run out
        before: see ``moves``)."""
        return not any(self._heaps)

    def _analyse(
        self, rules: Rules | None, max_positions: int
    ) -> tuple[list[int], int, bool, list[tuple[int, int, list[int] | None]]]:
        return _core.analyse(self._heaps, rules_or_default(rules), max_positions)

    @classmethod
    def _trusted(cls, heaps: tuple[int, ...]) -> Position:
        """A position from heaps the core has already validated."""
        position = object.__new__(cls)
        object.__setattr__(position, "_heaps", heaps)
        return position

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Position: ...
    def __getitem__(self, index: int | slice) -> int | Position:
        if isinstance(index, slice):
            return Position._trusted(self._heaps[index])
        return self._heaps[index]

    def __len__(self) -> int:
        return len(self._heaps)

    def __iter__(self) -> Iterator[int]:
        return iter(self._heaps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._heaps == other._heaps

    def __hash__(self) -> int:
        return hash(("Position", self._heaps))

    def __repr__(self) -> str:
        return f"Position({list(self._heaps)!r})"

    def _repr_svg_(self) -> str:
        from ._svg import position_svg

        return position_svg(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    def __str__(self) -> str:
        return " ".join(map(str, self._heaps)) if self._heaps else "(no heaps)"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[type[Position], tuple[tuple[int, ...]]]:
        return Position, (self._heaps,)
