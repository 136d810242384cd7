"""The classical impartial games on heaps beyond Nim, each on the game protocol of
``nimkit.games``: ``Wythoff``, ``MooreNim``, ``StaircaseNim``. Answers come from the
theorems, in the native core, for positions of any size below 2**64; what no theorem
gives (Wythoff's and Moore's Nim's Grundy values, misère Staircase Nim) from a table
or a search bounded by ``max_positions``. Coin-turning games are in
``nimkit.coins``, Green Hackenbush in ``nimkit.hackenbush``.

>>> Wythoff(3, 5).outcome(), Wythoff(10**18, 2 * 10**18).winning_moves()
(Outcome.P, [Wythoff(1000000000000000000, 618033988749894848)])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, SupportsIndex

import numpy.typing as npt

from . import _core
from .games import ImpartialGame


class Wythoff(ImpartialGame):
    """Wythoff's game: two heaps; a move takes any number from one heap, or the same
    number from both (a queen moving towards the corner of a board).

    The P-positions are the pairs ``(⌊kφ⌋, ⌊kφ²⌋)`` (Wythoff, 1907), found in exact
    integer arithmetic, so outcomes and winning moves of heaps of any size below
    2**64 come at once; misère play differs only at the smallest ones. Grundy values
    have no closed form: they come from a table (``wythoff_grundy_table``) of about
    ``a * b`` positions, bounded by ``max_positions``.

    >>> Wythoff(30, 40).grundy(), Wythoff(4, 7).outcome(misere=True)
    (56, Outcome.P)
    """

    __slots__ = ()
    family = "wythoff"

    def __init__(self, a: SupportsIndex, b: SupportsIndex) -> None:
        object.__setattr__(self, "_native", _core.native_game("wythoff", (a, b)))

    @property
    def heaps(self) -> tuple[int, int]:
        a, b = self._native.numbers()
        return a, b

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return self.heaps, {}

    def __str__(self) -> str:
        return f"({self.heaps[0]}, {self.heaps[1]})"

    def describe(self) -> str:
        return f"Wythoff's game at heaps {self.heaps[0]} and {self.heaps[1]}"

    def _why_value(self) -> str:
        a, b = sorted(self.heaps)
        low, high = _core.wythoff_pair(b - a)
        verdict = "it is that pair" if (low, high) == (a, b) else "it is not that pair"
        lines = [
            "Wythoff's theorem: the P-positions are the pairs (⌊kφ⌋, ⌊kφ²⌋), φ the golden "
            f"ratio, one for each difference k of the heaps; here k = {b - a}, whose pair "
            f"is ({low}, {high}): {verdict}."
        ]
        if (a + 1) * (b + 1) <= 10**6:
            lines.append(f"Its Grundy value (from the table) is {self.grundy()}.")
        return "\n".join(lines)

    def _why_misere(self) -> str:
        return (
            "Misère play: the P-positions are those of normal play except the smallest, "
            "(0, 1) and (2, 2) instead of (0, 0) and (1, 2)."
        )

    def svg(self) -> str:
        """The position's picture as SVG text (what a notebook shows)."""
        from . import svg

        return svg.wythoff(self)


class StaircaseNim(ImpartialGame):
    """Staircase Nim: coins on the steps of a staircase, ``coins[0]`` on the floor; a
    move brings any positive number of coins from a step down to the next. It plays
    as Nim on the odd steps (moves from an even step can be undone), so its value is
    the XOR of the odd steps' coins; Poker Nim (Nim in which coins taken may later be
    put back) reduces to Nim the same way. Misère play is searched.

    >>> s = StaircaseNim([0, 3, 1, 4])
    >>> s.grundy(), [m.coins for m in s.winning_moves()]
    (7, [(0, 4, 0, 4), (0, 3, 2, 3)])
    """

    __slots__ = ()
    family = "staircase"

    def __init__(self, coins: Iterable[SupportsIndex]) -> None:
        object.__setattr__(self, "_native", _core.native_game("staircase", (coins,)))

    @property
    def coins(self) -> tuple[int, ...]:
        return tuple(self._native.numbers())

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (list(self.coins),), {}

    def __str__(self) -> str:
        return " ".join(map(str, self.coins))

    def describe(self) -> str:
        return f"Staircase Nim with coins {self} on steps 0 (the floor) and up"

    def svg(self) -> str:
        """The position's picture as SVG text (what a notebook shows)."""
        from . import svg

        return svg.staircase(self)

    def _why_value(self) -> str:
        odd = self.coins[1::2]
        return (
            "Staircase Nim is Nim on the odd steps (a move from an even step can be "
            f"undone): the value is {' xor '.join(map(str, odd)) or '0'} = {self.grundy()}."
        )


class MooreNim(ImpartialGame):
    """Moore's Nim_k: heaps; a move takes any positive number from each of at most
    ``k`` heaps (``k = 1`` is Nim).

    Moore's theorem (1910): a position is P exactly when the heaps' binary digits add
    up to a multiple of ``k + 1`` in every place; in misère play, positions of 0s and
    1s only are P when their 1s are one more than a multiple of ``k + 1``. Outcomes
    and every winning move come from it for heaps of any size; the Grundy values have
    no known closed form and are searched (``max_positions``).

    >>> m = MooreNim([3, 5, 6, 9], k=2)
    >>> m.outcome(), m.winning_moves()  # digits per place: 1, 2, 2, 3 -> 0, 3, 3, 3
    (Outcome.N, [MooreNim([3, 5, 6, 7], k=2)])
    >>> MooreNim([3, 2, 1], k=2).grundy()
    6
    """

    __slots__ = ()
    family = "moore"

    def __init__(self, heaps: Iterable[SupportsIndex], k: SupportsIndex) -> None:
        object.__setattr__(self, "_native", _core.native_game("moore", (heaps, k)))

    @property
    def heaps(self) -> tuple[int, ...]:
        return tuple(self._native.numbers())

    @property
    def k(self) -> int:
        return _core.moore_k(self._native)

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (list(self.heaps),), {"k": self.k}

    def __str__(self) -> str:
        return " ".join(map(str, self.heaps))

    def describe(self) -> str:
        return f"Moore's Nim_{self.k} (a move takes from 1 to {self.k} heaps) at heaps {self}"

    def _why_value(self) -> str:
        k, heaps = self.k, self.heaps
        width = max(heaps, default=0).bit_length()
        sums = [sum(h >> bit & 1 for h in heaps) for bit in reversed(range(width))]
        verdict = "all are" if all(s % (k + 1) == 0 for s in sums) else "not all are"
        return (
            f"Moore's theorem: P exactly when the binary digits add up to a multiple of "
            f"k + 1 = {k + 1} in every place; here, highest place first, {sums}: "
            f"{verdict}. (Grundy values of Moore's Nim have no closed form: searched.)"
        )

    def svg(self) -> str:
        """The position's picture as SVG text (what a notebook shows)."""
        from . import svg
        from .position import Position

        return svg.position(Position(self.heaps))

    def _why_misere(self) -> str:
        return (
            "Moore's theorem in misère play: with a heap above 1 the P-positions are those of "
            f"normal play; with 0s and 1s only, those whose 1s are 1 more than a multiple "
            f"of k + 1 = {self.k + 1}."
        )


def wythoff_grundy_table(n: int, progress: bool = False) -> npt.NDArray[Any]:
    """The Grundy values of Wythoff's game for both heaps below ``n``: an ``n`` by
    ``n`` array in the narrowest unsigned dtype that holds them, row by row, each
    value the mex of those before it in its row, column and diagonal (kept as bit
    sets, so a value costs a scan of words, not of cells). ``progress`` shows a bar
    of the rows (the ``progress`` extra); Ctrl-C stops it.

    >>> wythoff_grundy_table(4)
    array([[0, 1, 2, 3],
           [1, 2, 0, 4],
           [2, 0, 1, 5],
           [3, 4, 5, 6]], dtype=uint8)
    """
    table: npt.NDArray[Any] = _core.wythoff_grundy_table(n, progress)
    return table
