"""The state of ``Game`` when it plays any impartial game: a move is an option.

Every answer (outcomes, winning moves) comes from the game itself, that is from the
native core; this module keeps the history and picks the computer's moves from
those answers.
"""

from __future__ import annotations

import itertools
import random

from . import _core
from .games import ImpartialGame
from .position import Outcome

#: From a lost position the perfect player compares the options' winning replies,
#: one search each; past this many options it plays the first.
_COMPARED_OPTIONS = 64


class Played:
    """Positions from ``start``, one per move, with the ending asked (``misere``) and
    the bound of each search (``max_positions``)."""

    def __init__(self, start: ImpartialGame, first: int, misere: bool, max_positions: int) -> None:
        if first not in (0, 1):
            raise ValueError(f"first must be 0 or 1, not {first!r}")
        self.misere, self.max_positions = misere, max_positions
        self._first = first
        self._positions = [start]
        self._options: list[ImpartialGame] | None = None

    def position(self) -> ImpartialGame:
        return self._positions[-1]

    def start(self) -> ImpartialGame:
        return self._positions[0]

    def history(self) -> list[ImpartialGame]:
        return self._positions[1:]

    def has_history(self) -> bool:
        return len(self._positions) > 1

    def first(self) -> int:
        return self._first

    def to_move(self) -> int:
        return (self._first + len(self._positions) - 1) % 2

    def options(self) -> list[ImpartialGame]:
        if self._options is None:
            self._options = self.position().options()
        return self._options

    def push(self, option: ImpartialGame) -> None:
        if option not in self.options():
            raise _core.IllegalMoveError(
                f"{option} is not an option of {self.position()}; the options are "
                + (", ".join(map(str, self.options())) or "none")
            )
        self._positions.append(option)
        self._options = None

    def pop(self) -> ImpartialGame | None:
        if len(self._positions) == 1:
            return None
        self._options = None
        return self._positions.pop()

    def is_over(self) -> bool:
        return not self.options()

    def winner(self) -> int | None:
        if not self.is_over():
            return None
        last_mover = 1 - self.to_move()
        return 1 - last_mover if self.misere else last_mover

    def outcome(self) -> Outcome:
        return self.position().outcome(self.misere, self.max_positions)

    def predicted_winner(self) -> int | None:
        outcome = self.outcome()
        if outcome is Outcome.D:
            return None
        return self.to_move() if outcome is Outcome.N else 1 - self.to_move()

    def review(self) -> list[tuple[int, int, ImpartialGame, ImpartialGame, list[ImpartialGame]]]:
        """Every move from a won position to one that is not lost for the opponent."""
        found = []
        for ply, (before, played) in enumerate(itertools.pairwise(self._positions)):
            if before.outcome(self.misere, self.max_positions) is not Outcome.N:
                continue
            better = self._winning(before)
            if played not in better:
                found.append((ply, (self._first + ply) % 2, played, before, better))
        return found

    def _winning(self, position: ImpartialGame) -> list[ImpartialGame]:
        return position.winning_moves(self.misere, self.max_positions)

    def _loopy(self) -> bool:
        return self.position().is_loopy(self.max_positions)

    def _remoteness(self, won: ImpartialGame) -> int:
        remote = won.remoteness(self.misere, self.max_positions)
        assert remote is not None, "a P-position is no draw"
        return remote

    def copy(self) -> Played:
        twin = Played(self._positions[0], self._first, self.misere, self.max_positions)
        twin._positions = list(self._positions)
        return twin

    def choose(self, style: str, error_rate: float, rng: random.Random) -> ImpartialGame | None:
        """The computer's move in ``style`` (perfect, fastest, random, fallible)."""
        options = self.options()
        if not options:
            return None
        if style == "random" or (style == "fallible" and rng.random() < error_rate):
            return rng.choice(options)
        good = self._winning(self.position())
        if len(good) > 1 and self.outcome() is Outcome.N and self._loopy():
            # Only moves that lower the remoteness make progress; others may come back.
            return min(good, key=self._remoteness)
        if good:  # winning, or from a draw the moves that keep it
            return good[0]
        if len(options) > _COMPARED_OPTIONS:
            return options[0]
        # Lost: leave the opponent the fewest winning replies.
        return min(options, key=lambda option: len(self._winning(option)))
