"""nimkit: an exact solver for Nim and its take-away relatives.

>>> import nimkit as nk
>>> nk.Position([1, 3, 5, 7]).outcome(nk.Rules(misere=True))
Outcome.P
"""

from . import batch
from ._core import IllegalMoveError
from .analysis import Analysis, analyse
from .position import Move, Outcome, Position
from .rules import Rules
from .tables import count_p_positions, p_positions

__all__ = [
    "Analysis",
    "IllegalMoveError",
    "Move",
    "Outcome",
    "Position",
    "Rules",
    "analyse",
    "batch",
    "count_p_positions",
    "p_positions",
]
