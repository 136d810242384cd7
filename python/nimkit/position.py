"""Positions, moves and outcomes. Every answer comes from the native core."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from . import _core

#: ``Position.moves`` refuses to build a list longer than this.
MAX_LISTED_MOVES: int = _core.MAX_LISTED_MOVES


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


#: ``Move``: one move, validated once, at construction (a native class).
Move = _core.Move
#: ``Position``: heap sizes, validated once, at construction (a native class).
Position = _core.Position
Sequence.register(Position)
