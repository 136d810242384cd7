"""Everything the closed forms say about one position, in one object."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, SupportsIndex

from . import _core
from ._text import MAX_LISTED, WHY, becomes, digital_sum_table
from .outcome import Outcome
from .position import Move, Position
from .rules import DEFAULT_MAX_POSITIONS, Rules, position_and_rules

if TYPE_CHECKING:
    from .rules import Variant

#: What decided an outcome: the nim-sum of Grundy values (Bouton's misère rule for Nim
#: and take limits), an exact search, or the misère quotient of a code.
Method = Literal["closed form", "search", "misère quotient"]


@dataclass(frozen=True)
class Analysis:
    """A position under some rules: Grundy values, nim-sum, outcome, every winning move,
    and what decided them (``method``).

    ``str(analysis)`` is the report that ``nimkit analyse`` prints; ``to_dict()`` is its
    ``--json`` form.
    """

    position: Position
    rules: Rules
    grundy: tuple[int, ...]
    nim_sum: int
    outcome: Outcome
    winning_moves: tuple[Move, ...]
    method: Method = "closed form"
    #: False where a heap has too many options (more than 2**24) to list every
    #: winning move: ``winning_moves`` then holds the first one only.
    every_winning_move: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The facts as plain JSON-ready data."""
        return {
            "position": list(self.position),
            "rules": {
                "misere": self.rules.misere,
                "max_take": self.rules.max_take,
                "take": _jsonable(self.rules.take),
                "code": self.rules.code,
            },
            "grundy": list(self.grundy),
            "nim_sum": self.nim_sum,
            "outcome": self.outcome.value,
            "method": self.method,
            "every_winning_move": self.every_winning_move,
            "player_to_move": "wins" if self.outcome.player_to_move_wins else "loses",
            "winning_moves": [
                {
                    "heap": move.heap,
                    "take": move.take,
                    "into": None if move.into is None else list(move.into),
                    # What replaces the heap (not the whole position: a report must
                    # not grow as heaps times winning moves).
                    "becomes": _becomes(self.position[move.heap], move),
                }
                for move in self.winning_moves
            ],
        }

    def __str__(self) -> str:
        return analysis_text(self)

    def svg(self) -> str:
        """The analysis as a picture: SVG text, the heaps with the winning moves marked
        (what a notebook shows).

        >>> analyse([3, 4, 5]).svg()[:4]
        '<svg'
        """
        from . import svg

        return svg.analysis(self)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def analysis_text(analysis: Analysis) -> str:
    """The report ``nimkit analyse`` prints. The digital-sum table and the nim-sum
    appear where they decide the outcome (not in misère play of rules with no
    closed form)."""
    position, rules = analysis.position, analysis.rules
    lines = [
        f"Position: {position}   (heaps numbered from 0)",
        f"Rules:    {rules.describe()}",
        "",
    ]
    if analysis.method == "closed form":
        lines += [
            *digital_sum_table(position.heaps, analysis.grundy, analysis.nim_sum),
            "",
            f"Nim-sum:  {analysis.nim_sum}",
        ]
    lines.append(f"Outcome:  {analysis.outcome.value}, {analysis.outcome.describe()}")
    if analysis.method != "closed form":
        lines.append(f"Why:      {WHY[analysis.method]}")
    elif rules.misere:
        lines.append(f"Why:      {_misere_rule(analysis.grundy)}")
    moves = analysis.winning_moves
    if not analysis.every_winning_move:
        lines.append("Winning moves: too many options to list every one; one of them:")
        lines += [f"  {move}  ({becomes(position, move)})" for move in moves]
    elif moves:
        lines.append("Winning moves:")
        for move in moves[:MAX_LISTED]:
            left = position.after(move, rules)
            lines.append(f"  {move}  ({becomes(position, move)}), leaving {left}")
        if len(moves) > MAX_LISTED:
            lines.append(f"  ... and {len(moves) - MAX_LISTED} more (--json lists every one)")
    else:
        lines.append("Winning moves: none")
    return "\n".join(lines)


def _misere_rule(grundy: tuple[int, ...]) -> str:
    """Which half of the misère rule decides this position."""
    if any(g > 1 for g in grundy):
        return (
            "some Grundy value exceeds 1, so misère play goes as normal play: "
            "the player to move loses exactly when the nim-sum is 0"
        )
    return (
        "every Grundy value is 0 or 1, so in misère play the player to move "
        "loses exactly when the nim-sum is 1"
    )


def _becomes(size: int, move: Move) -> list[int]:
    """The heaps that replace one heap of ``size`` after ``move``."""
    if move.into is not None:
        return list(move.into)
    return [size - move.take]


def analyse(
    position: Position | Iterable[SupportsIndex] | Variant,
    rules: Rules | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    *,
    misere: bool | None = None,
) -> Analysis:
    """Analyse ``position`` under ``rules`` (default: plain Nim, normal play). Rules
    with no closed form are solved by searching the box below the position, up to
    ``max_positions`` positions, or by the misère quotient. Where a heap of a
    take-and-break code has more than 2**24 options, only the first winning move is
    listed (``every_winning_move`` is False).

    A preset (``nimkit.presets.MARIENBAD``) brings its position and rules;
    ``misere=True`` (or False) sets the ending of the rules.

    >>> analyse(Position([3, 4, 5])).winning_moves
    (Move(heap=0, take=2),)
    >>> analyse([1, 3, 5, 7], misere=True).outcome
    Outcome.P
    """
    given, rules = position_and_rules(position, rules, misere)
    position = given if isinstance(given, Position) else Position(given)
    grundy, nim_sum, is_p, winning, every, method = _core.analyse(position, rules, max_positions)
    return Analysis(
        position=position,
        rules=rules,
        grundy=tuple(grundy),
        nim_sum=nim_sum,
        outcome=Outcome.P if is_p else Outcome.N,
        winning_moves=tuple(winning),
        method=method,
        every_winning_move=every,
    )


#: The American spelling.
analyze = analyse


def _jsonable(take: frozenset[int] | tuple[frozenset[int] | None, ...] | None) -> Any:
    """Subtraction sets as sorted lists (JSON has no sets)."""
    if isinstance(take, frozenset):
        return sorted(take)
    if take is None:
        return None
    return [None if t is None else sorted(t) for t in take]
