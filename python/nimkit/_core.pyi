"""Type stubs for the native core (nimkit._core). Use the nimkit package instead."""

from collections.abc import Iterable
from typing import Any, SupportsIndex, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Game",
    "IllegalMoveError",
    "Player",
    "SubtractionGame",
    "after",
    "analyse",
    "batch_count_winning_moves",
    "batch_is_p_position",
    "batch_nim_sum",
    "batch_winning_move",
    "check_heaps",
    "check_move_args",
    "check_rules",
    "count_p_positions",
    "grundy_values",
    "has_closed_form",
    "illegal_reason",
    "legal_moves",
    "p_positions",
    "simulate",
    "solve_box",
    "solve_outcomes",
]

class IllegalMoveError(ValueError):
    """A move that the position or the rules do not allow (a ValueError)."""

def check_heaps(heaps: Iterable[SupportsIndex]) -> tuple[int, ...]: ...
def check_rules(misere: bool, take_rule: Any) -> Any: ...
def has_closed_form(misere: bool, take_rule: Any) -> bool: ...
def grundy_values(
    heaps: Iterable[SupportsIndex], misere: bool, take_rule: Any
) -> tuple[list[int], int]: ...
def check_move_args(heap: SupportsIndex, take: SupportsIndex) -> tuple[int, int]: ...
def analyse(
    heaps: Iterable[SupportsIndex], misere: bool, take_rule: Any, max_positions: int
) -> tuple[list[int], int, bool, list[tuple[int, int]]]: ...
def after(
    heaps: Iterable[SupportsIndex], heap: int, take: int, misere: bool, take_rule: Any
) -> tuple[int, ...]: ...
def illegal_reason(
    heaps: Iterable[SupportsIndex], heap: int, take: int, misere: bool, take_rule: Any
) -> str | None: ...
def legal_moves(
    heaps: Iterable[SupportsIndex], misere: bool, take_rule: Any, limit: int
) -> list[tuple[int, int]]: ...
def solve_box(
    bounds: Iterable[SupportsIndex],
    misere: bool,
    take_rule: Any,
    max_positions: int,
    remoteness: bool = False,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint32] | None]: ...
def batch_nim_sum(
    heaps: npt.NDArray[Any], misere: bool, take_rule: Any, max_positions: int, out: Any = None
) -> npt.NDArray[np.uint64]: ...
def batch_is_p_position(
    heaps: npt.NDArray[Any], misere: bool, take_rule: Any, max_positions: int, out: Any = None
) -> npt.NDArray[np.bool_]: ...
def batch_count_winning_moves(
    heaps: npt.NDArray[Any], misere: bool, take_rule: Any, max_positions: int, out: Any = None
) -> npt.NDArray[np.int64]: ...
def batch_winning_move(
    heaps: npt.NDArray[Any],
    misere: bool,
    take_rule: Any,
    max_positions: int,
    heap_out: Any = None,
    take_out: Any = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64]]: ...
def p_positions(
    bounds: Iterable[SupportsIndex], misere: bool, take_rule: Any, max_rows: int
) -> npt.NDArray[np.uint64]: ...
def count_p_positions(bounds: Iterable[SupportsIndex], misere: bool, take_rule: Any) -> int: ...

@final
class Game:
    def __new__(
        cls,
        heaps: Iterable[SupportsIndex],
        misere: bool,
        take_rule: Any,
        first: int,
        max_positions: int,
    ) -> Game: ...
    def heaps(self) -> tuple[int, ...]: ...
    def start(self) -> tuple[int, ...]: ...
    def history(self) -> list[tuple[int, int]]: ...
    def first(self) -> int: ...
    def to_move(self) -> int: ...
    def push(self, heap: int, take: int) -> None: ...
    def pop(self) -> tuple[int, int] | None: ...
    def is_over(self) -> bool: ...
    def winner(self) -> int | None: ...
    def is_p(self) -> bool: ...
    def predicted_winner(self) -> int: ...
    def review(
        self,
    ) -> list[tuple[int, int, tuple[int, int], list[int], list[tuple[int, int]]]]: ...
    def copy(self) -> Game: ...

@final
class Player:
    def __new__(cls, style_name: str, error_rate: float, seed: int) -> Player: ...
    def choose(self, game: Game) -> tuple[int, int] | None: ...

def simulate(
    heaps: Iterable[SupportsIndex],
    misere: bool,
    take_rule: Any,
    style_a: tuple[str, float],
    style_b: tuple[str, float],
    games: int,
    seed: int,
    max_positions: int,
) -> tuple[list[int], npt.NDArray[np.uint32], list[int]]: ...

@final
class SubtractionGame:
    """A subtraction game: a move takes s objects from one heap, s in a finite set."""

    def __new__(
        cls, take: Iterable[SupportsIndex], max_length: int = 100_000_000
    ) -> SubtractionGame: ...
    @property
    def take(self) -> tuple[int, ...]: ...
    def period(self) -> tuple[int, int]: ...
    def grundy(self, n: SupportsIndex) -> int: ...
    def grundy_sequence(self, count: int) -> npt.NDArray[np.uint16]: ...
    def nim_sum(self, heaps: Iterable[SupportsIndex]) -> int: ...
    def is_p_position(self, heaps: Iterable[SupportsIndex]) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[tuple[int, ...]]]: ...

def solve_outcomes(
    bounds: Iterable[SupportsIndex], misere: bool, take_rule: Any, max_positions: int
) -> npt.NDArray[np.bool_]: ...
