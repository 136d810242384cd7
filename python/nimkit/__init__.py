"""nimkit: an exact solver for Nim and its take-away relatives.

>>> import nimkit as nk
>>> nk.Position([1, 3, 5, 7]).outcome(nk.Rules(misere=True))
Outcome.P
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from . import batch, plots, presets, widgets
from ._core import IllegalMoveError, MisereQuotient, SubtractionGame, TakeAndBreak
from .analysis import Analysis, analyse
from .certificate import PeriodCertificate, verify_certificate
from .explain import Explanation, explain
from .frames import p_position_table, to_frame
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
from .graph import draw_game_graph, game_graph
from .position import Move, Outcome, Position
from .quotient import Genus
from .rules import Rules
from .solve import Solution, solve
from .tables import count_p_positions, p_positions

try:
    __version__ = _version("nimkit")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "unknown"

__all__ = [
    "Analysis",
    "ComputerPlayer",
    "Explanation",
    "FalliblePlayer",
    "Game",
    "Genus",
    "IllegalMoveError",
    "MisereQuotient",
    "Mistake",
    "Move",
    "Outcome",
    "PerfectPlayer",
    "PeriodCertificate",
    "Position",
    "RandomPlayer",
    "Rules",
    "Simulation",
    "Solution",
    "SubtractionGame",
    "TakeAndBreak",
    "analyse",
    "batch",
    "count_p_positions",
    "draw_game_graph",
    "explain",
    "game_graph",
    "p_position_table",
    "p_positions",
    "plots",
    "presets",
    "simulate",
    "solve",
    "to_frame",
    "verify_certificate",
    "widgets",
]
