"""Interoperation with OpenSpiel's ``nim`` game (the ``openspiel`` extra).

OpenSpiel numbers the action "take t from pile p" (both from 1 in its text, the pile
from 0 here) as ``(t - 1) * piles + p``. Its nim has no take limit, so only plain
Nim in normal or misère play converts.

Marienbad (1 3 5 7, misère) is lost for the first player: a random first player
against the perfect bot loses.

>>> game = pyspiel.load_game("nim", {"pile_sizes": "1;3;5;7", "is_misere": True})
>>> bots = [pyspiel.make_uniform_random_bot(0, 42), PerfectBot(game)]
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(bots[state.current_player()].step(state))
>>> state.returns()
[-1.0, 1.0]
"""

from __future__ import annotations

from typing import Any

from .playing import Game, PerfectPlayer
from .position import Move, Position
from .rules import Rules

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised only without the extra
    raise ImportError("nimkit.openspiel needs OpenSpiel: pip install 'nimkit[openspiel]'") from None

__all__ = ["PerfectBot", "from_action", "position_of", "rules_of", "to_action"]


def to_action(move: Move, piles: int) -> int:
    """The OpenSpiel nim action id of ``move`` in a game of ``piles`` piles."""
    if not 0 <= move.heap < piles:
        raise ValueError(f"{move} names no pile of a {piles}-pile game")
    return (move.take - 1) * piles + move.heap


def from_action(action: int, piles: int) -> Move:
    """The move that OpenSpiel nim action id ``action`` stands for."""
    if action < 0 or piles < 1:
        raise ValueError(f"no nim action {action} in a {piles}-pile game")
    return Move(heap=action % piles, take=action // piles + 1)


def position_of(state: Any) -> Position:
    """The piles of an OpenSpiel nim state, e.g. ``(0): 1 3 5 7``."""
    _, _, piles = str(state).partition(": ")
    return Position(int(n) for n in piles.split())


def rules_of(game: Any) -> Rules:
    """The rules of an OpenSpiel nim game (normal or misère, no take limit)."""
    return Rules(misere=bool(game.get_parameters().get("is_misere", False)))


class PerfectBot(pyspiel.Bot):  # type: ignore[misc]
    """A ``pyspiel.Bot`` that plays nim perfectly through nimkit's engine: a winning
    move when there is one, else the move that leaves the fewest winning replies."""

    def __init__(self, game: Any) -> None:
        pyspiel.Bot.__init__(self)
        self._rules = rules_of(game)
        self._player = PerfectPlayer()

    def step(self, state: Any) -> int:
        position = position_of(state)
        move = self._player.choose(Game(position, self._rules))
        if move is None:
            raise ValueError("the game is over: there is no move to make")
        return to_action(move, len(position))

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass
