"""Outcomes: who wins with perfect play (P, N, or D for a draw)."""

from __future__ import annotations

import enum


class Outcome(str, enum.Enum):
    """Who wins with perfect play: P (the previous player), N (the next player), or D,
    a draw: in a loopy game (one where positions can come back) neither player may
    be able to force a win, and with perfect play the game never ends. Games that end
    (every heap game) are P or N.

    An outcome equals its letter, and is neither true nor false (ask
    ``player_to_move_wins``):

    >>> Outcome.P == "P", Outcome("N") is Outcome.N, str(Outcome.D)
    (True, True, 'D')
    """

    P = "P"
    N = "N"
    D = "D"

    def __bool__(self) -> bool:
        raise TypeError(
            "an Outcome is neither true nor false: compare it with Outcome.P or "
            "Outcome.N, or ask outcome.player_to_move_wins"
        )

    def __str__(self) -> str:
        return self.value

    @property
    def player_to_move_wins(self) -> bool:
        return self is Outcome.N

    def describe(self) -> str:
        """The outcome in words."""
        if self is Outcome.D:
            return "a draw: neither player can force a win, and play goes on forever"
        verb = "wins" if self is Outcome.N else "loses"
        return f"the player to move {verb} against perfect play"

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"
