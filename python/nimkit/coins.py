"""Coin-turning games (Ferguson, Part I, ch. 5): a row of coins, and Turning Corners
on a board. A move turns over a set of coins the rule allows, the rightmost (on a
board, the corner farthest from the origin) going from heads to tails.

A position is the sum of its single heads, so its value is the XOR of their values
(the theorem of coin-turning games); the native core gives each coin's value from
its closed form, or from the mex of the moves from that coin alone.

>>> CoinTurning("mock_turtles", [1, 0, 1, 1]).grundy()  # 1 xor 4 xor 7
2
>>> TurningCorners([[0, 1], [1, 1]]).grundy()
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, SupportsIndex

from . import _core
from .games import ImpartialGame
from .rules import DEFAULT_MAX_POSITIONS

#: The one-dimensional rules, as Ferguson names them, and what a move turns.
RULES = {
    "turning_turtles": "one or two coins",
    "twins": "exactly two coins",
    "mock_turtles": "one, two or three coins",
    "ruler": "any run of consecutive coins",
    "moebius": "one to five coins",
    "mogul": "one to seven coins",
}


class CoinTurning(ImpartialGame):
    """A row of coins, ``1`` (or True) for heads, under one of the ``RULES``: a move
    turns over the coins the rule allows, the rightmost going from heads to tails.
    Coins are numbered from 0 on the left; a single head on coin ``x`` is worth
    ``x + 1`` in Turning Turtles (Nim), ``x`` in Twins, the ``x``-th odious number in
    Mock Turtles, the largest power of 2 dividing ``x + 1`` in Ruler, and the mex of
    its moves in Moebius and Mogul.

    >>> row = CoinTurning("ruler", [0, 1, 1])
    >>> row.grundy(), row.coin_values(), row.winning_turns()
    (3, [1, 2, 1], [(1, 0), (2, 1)])
    """

    __slots__ = ()
    family = "coins"

    def __init__(self, rule: str, coins: Iterable[SupportsIndex]) -> None:
        if not isinstance(rule, str):
            raise TypeError(f"rule must be one of {', '.join(RULES)}, not {rule!r}")
        object.__setattr__(self, "_native", _core.native_game("coins", (rule, coins)))

    @property
    def rule(self) -> str:
        return _core.coin_rule(self._native)

    @property
    def coins(self) -> tuple[int, ...]:
        return tuple(self._native.numbers())

    def coin_values(self, max_positions: int = DEFAULT_MAX_POSITIONS) -> list[int]:
        """The value of a single head on each coin of the row. Moebius' and Mogul's
        come from the XORs of up to 4 (6) earlier coins' values, kept as bit sets of
        at most ``max_positions`` values (they grow fast: Moebius passes 10**7 near
        coin 740, Mogul near coin 100)."""
        return _core.coin_values(self.rule, len(self.coins), max_positions)

    def winning_turns(self) -> list[tuple[int, ...]]:
        """The coins each winning move turns over (normal play), rightmost first."""
        moves = self.winning_moves()
        return [_turned(self.coins, m.coins) for m in moves if isinstance(m, CoinTurning)]

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.rule, list(self.coins)), {}

    def __str__(self) -> str:
        return "".join("H" if c else "T" for c in self.coins)

    def describe(self) -> str:
        return f"{self.rule.replace('_', ' ').title()} on {self} (H heads, T tails)"

    def _why_value(self) -> str:
        values = self.coin_values()
        heads = [x for x, c in enumerate(self.coins) if c]
        terms = " xor ".join(f"{values[x]}" for x in heads) or "0"
        return (
            "A coin-turning position is the sum of its single heads (turning a coin twice "
            f"undoes it), so its value is the XOR of theirs: coins {heads} are worth "
            f"{terms} = {self.grundy()}. A move turns {RULES[self.rule]}, the rightmost "
            "from heads to tails."
        )

    def svg(self) -> str:
        """The position's picture as SVG text (what a notebook shows)."""
        turns = self.winning_turns()
        marked = {(0, c) for c in turns[0]} if turns else set()
        from . import svg

        return svg.coins([self.coins], marked, "a winning move turns the ringed coins")


class TurningCorners(ImpartialGame):
    """Turning Corners: coins on a board (rows of ``1`` for heads, ``0`` for tails); a
    move turns over the four corners of a rectangle, the one farthest from row 0 and
    column 0 going from heads to tails. It is Twins times Twins, so by the Tartan
    theorem the coin at row ``x``, column ``y`` is worth the nim product ``x ⊗ y``.

    >>> board = TurningCorners([[0, 0, 0], [0, 1, 0], [0, 0, 1]])
    >>> board.grundy(), board.winning_rectangles()
    (2, [(1, 1, 2, 2)])
    """

    __slots__ = ()
    family = "corners"

    def __init__(self, rows: Iterable[Iterable[SupportsIndex]]) -> None:
        object.__setattr__(self, "_native", _core.native_game("corners", (list(rows),)))

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        cols, *cells = self._native.numbers()
        return tuple(tuple(cells[i : i + cols]) for i in range(0, len(cells), cols or 1))

    def winning_rectangles(self) -> list[tuple[int, int, int, int]]:
        """Each winning move as ``(a, b, x, y)``: the corners ``(a, b)`` to ``(x, y)``,
        the coin at row ``x``, column ``y`` going to tails (normal play), in the order
        of ``winning_moves``."""
        return _core.corners_winning_rectangles(self._native)

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return ([list(r) for r in self.rows],), {}

    def __str__(self) -> str:
        return "/".join("".join("H" if c else "T" for c in row) for row in self.rows)

    def describe(self) -> str:
        return f"Turning Corners on a {len(self.rows)}-row board {self}"

    def _why_value(self) -> str:
        heads = [(x, y) for x, row in enumerate(self.rows) for y, c in enumerate(row) if c]
        terms = " xor ".join(f"{x}⊗{y}" for x, y in heads) or "0"
        return (
            "Tartan theorem: Turning Corners is Twins times Twins, so the coin at (x, y) is "
            f"worth the nim product x⊗y, and the board the XOR: {terms} = {self.grundy()}."
        )

    def svg(self) -> str:
        """The position's picture as SVG text (what a notebook shows)."""
        moves = self.winning_rectangles()
        marked: set[tuple[int, int]] = set()
        if moves:
            a, b, x, y = moves[0]
            marked = {(a, b), (a, y), (x, b), (x, y)}
        from . import svg

        return svg.coins(self.rows, marked, "a winning move turns the ringed corners")


def _turned(before: Sequence[int], after: Sequence[int]) -> tuple[int, ...]:
    """The coins that differ, rightmost first."""
    return tuple(x for x in reversed(range(len(before))) if before[x] != after[x])
