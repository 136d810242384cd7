"""nimkit: an exact solver for Nim and its take-away relatives.

>>> import nimkit as nk
>>> nk.Position([1, 3, 5, 7]).outcome(nk.Rules(misere=True))
Outcome.P
"""

from . import batch, plots, presets, widgets
from ._core import IllegalMoveError, MisereQuotient, SubtractionGame, TakeAndBreak
from ._core import __version__ as __version__
from ._facts import CertificateError
from .analysis import Analysis, analyse, analyze
from .board_checker import Verified, verify
from .boards import ArcKayles, Cram, NodeKayles, cram_table
from .certificate import PeriodCertificate, verify_certificate
from .classical import MooreNim, StaircaseNim, Wythoff, wythoff_grundy_table
from .coins import CoinTurning, TurningCorners
from .explain import Explanation, explain
from .frames import p_position_table, to_frame
from .games import (
    DigraphGame,
    Heaps,
    Impartial,
    ImpartialGame,
    Infinite,
    Sum,
    kernel,
)
from .graph import game_graph
from .graph_picture import draw_game_graph
from .hackenbush import GreenHackenbush
from .misere import Genus
from .misere_codes import MisereTableRow, misere_table
from .nimbers import nim_inverse, nim_multiply
from .octal import OctalClass, octal_equivalences
from .outcome import Outcome
from .playing import (
    ComputerPlayer,
    FalliblePlayer,
    Game,
    Mistake,
    PerfectPlayer,
    RandomPlayer,
    Simulation,
    simulate,
)
from .position import Move, Position
from .rules import Rules
from .solve import Solution, solve
from .sprouts import Sprouts
from .sprouts_table import SproutsRow, sprouts_table
from .tables import count_p_positions, p_positions

__all__ = [
    "Analysis",
    "ArcKayles",
    "CertificateError",
    "CoinTurning",
    "ComputerPlayer",
    "Cram",
    "DigraphGame",
    "Explanation",
    "FalliblePlayer",
    "Game",
    "Genus",
    "GreenHackenbush",
    "Heaps",
    "IllegalMoveError",
    "Impartial",
    "ImpartialGame",
    "Infinite",
    "MisereQuotient",
    "MisereTableRow",
    "Mistake",
    "MooreNim",
    "Move",
    "NodeKayles",
    "OctalClass",
    "Outcome",
    "PerfectPlayer",
    "PeriodCertificate",
    "Position",
    "RandomPlayer",
    "Rules",
    "Simulation",
    "Solution",
    "Sprouts",
    "SproutsRow",
    "StaircaseNim",
    "SubtractionGame",
    "Sum",
    "TakeAndBreak",
    "TurningCorners",
    "Verified",
    "Wythoff",
    "analyse",
    "analyze",
    "batch",
    "count_p_positions",
    "cram_table",
    "draw_game_graph",
    "explain",
    "game_graph",
    "kernel",
    "misere_table",
    "nim_inverse",
    "nim_multiply",
    "octal_equivalences",
    "p_position_table",
    "p_positions",
    "plots",
    "presets",
    "simulate",
    "solve",
    "sprouts_table",
    "to_frame",
    "verify",
    "verify_certificate",
    "widgets",
    "wythoff_grundy_table",
]
