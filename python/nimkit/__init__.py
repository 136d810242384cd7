"""nimkit: an exact solver for Nim and its take-away relatives.

>>> import nimkit as nk
>>> nk.Position([1, 3, 5, 7]).outcome(nk.Rules(misere=True))
Outcome.P
"""

from . import batch, presets
from ._core import IllegalMoveError
from .analysis import Analysis, analyse
from .game import (
    ComputerPlayer,
    FalliblePlayer,
    Game,
    Mistake,
    PerfectPlayer,
    RandomPlayer,
    Simulation,
    simulate,
)
from .position import Move, Outcome, Position
from .rules import Rules
from .tables import count_p_positions, p_positions

__all__ = [
    "Analysis",
    "ComputerPlayer",
    "FalliblePlayer",
    "Game",
    "IllegalMoveError",
    "Mistake",
    "Move",
    "Outcome",
    "PerfectPlayer",
    "Position",
    "RandomPlayer",
    "Rules",
    "Simulation",
    "analyse",
    "batch",
    "count_p_positions",
    "p_positions",
    "presets",
    "simulate",
]
