"""Why a position is won or lost, written out as a patient teacher would."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, SupportsIndex

from ._text import WHY, becomes, digital_sum_table
from .analysis import Analysis, analyse
from .outcome import Outcome
from .position import Position
from .rules import Rules

if TYPE_CHECKING:
    from .rules import Variant

#: How many moves the explanation writes out one by one: the answers to moves from a
#: P-position, the winning moves from an N-position.
MAX_REPLIES = 12


@dataclass(frozen=True)
class Explanation:
    """Plain text (``str``), markdown (``to_markdown``) and HTML (``to_html``); shows
    itself in notebooks."""

    analysis: Analysis
    #: ("p", text) paragraphs and ("pre", text) tables, in order.
    blocks: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return "\n\n".join(text for _, text in self.blocks)

    def to_markdown(self) -> str:
        return "\n\n".join(
            f"```\n{text}\n```" if kind == "pre" else text for kind, text in self.blocks
        )

    def to_html(self) -> str:
        return "".join(
            f"<pre>{html.escape(text)}</pre>" if kind == "pre" else f"<p>{html.escape(text)}</p>"
            for kind, text in self.blocks
        )

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        return self.to_html()


def explain(
    position: Position | Iterable[SupportsIndex] | Analysis | Variant,
    rules: Rules | None = None,
    *,
    misere: bool | None = None,
) -> Explanation:
    """Explain the outcome of ``position`` under ``rules`` and every winning move;
    or explain an ``Analysis`` already made.

    >>> print(explain([1, 2, 3]).blocks[-1][1][:52])
    The player to move loses against perfect play: every
    """
    if isinstance(position, Analysis):
        if rules is not None or misere is not None:
            raise TypeError("an Analysis carries its rules: give no rules with it")
        analysis = position
    else:
        analysis = analyse(position, rules, misere=misere)
    position, rules = analysis.position, analysis.rules
    blocks: list[tuple[str, str]] = [("p", f"The position is {position}, under {rules}.")]
    if analysis.method != "closed form":
        # The nim-sum decides nothing here: say what did.
        why = WHY[analysis.method]
        blocks.append(("p", f"{why[:1].upper()}{why[1:]}."))
    else:
        if rules.code is not None:
            blocks.append(("p", _code(analysis)))
        elif rules.take is not None:
            blocks.append(("p", _sequences(analysis)))
        elif rules.max_take is not None:
            blocks.append(("p", _remainders(analysis)))
        blocks.append(
            (
                "p",
                "Write each heap's Grundy value in binary and add the columns without "
                "carrying (exclusive or): the result is the nim-sum.",
            )
        )
        table = digital_sum_table(position.heaps, analysis.grundy, analysis.nim_sum)
        blocks.append(("pre", "\n".join(table)))
        blocks.append(("p", _columns(analysis)))
        if rules.misere:
            blocks.append(("p", _misere(analysis)))
    if analysis.outcome is Outcome.N:
        blocks.append(("p", _winning(analysis)))
    else:
        blocks.append(("p", _losing(analysis)))
    return Explanation(analysis, tuple(blocks))


def _remainders(analysis: Analysis) -> str:
    rules = analysis.rules
    if isinstance(rules.max_take, int):
        k = rules.max_take
        intro = (
            f"With at most {k} taken per turn, only each heap's remainder modulo {k + 1} "
            f"matters: whatever one player takes, the other can take the rest of {k + 1}, "
            f"so a heap of n plays like a Nim heap of n mod {k + 1}."
        )
    else:
        intro = (
            "With a take limit k on a heap, only its remainder modulo k + 1 matters: "
            "whatever one player takes, the other can take the rest of k + 1."
        )
    pairs = ", ".join(
        f"{n} -> {g}" for n, g in zip(analysis.position, analysis.grundy, strict=True)
    )
    return f"{intro} Here the heaps become: {pairs}."


def _sequences(analysis: Analysis) -> str:
    pairs = ", ".join(
        f"{n} -> {g}" for n, g in zip(analysis.position, analysis.grundy, strict=True)
    )
    return (
        "With a subtraction set, a heap's Grundy value is the smallest value that no "
        "move from it reaches; the values repeat with a period (SubtractionGame(...)."
        f"period() gives it), and a heap plays like a Nim heap of its value. Here the "
        f"heaps become: {pairs}."
    )


def _code(analysis: Analysis) -> str:
    pairs = ", ".join(
        f"{n} -> {g}" for n, g in zip(analysis.position, analysis.grundy, strict=True)
    )
    return (
        f"Under the take-and-break code {analysis.rules.code}, a heap's Grundy value is "
        "the smallest value that no move from it reaches, where a move that splits a "
        "heap into several reaches the exclusive or of their values (TakeAndBreak(...)."
        f"grundy(n) gives it); a heap plays like a Nim heap of its value. Here the heaps "
        f"become: {pairs}."
    )


def _columns(analysis: Analysis) -> str:
    s = analysis.nim_sum
    if s == 0:
        return "Every column holds an even number of 1s: the nim-sum is 0."
    top = s.bit_length() - 1
    return (
        f"The leftmost column with an odd number of 1s is the {2**top}s column, "
        f"and the nim-sum is {s}."
    )


def _misere(analysis: Analysis) -> str:
    if any(g > 1 for g in analysis.grundy):
        return (
            "In misère play (taking the last object loses) the same strategy holds while "
            "some heap's Grundy value exceeds 1. The difference comes at the very end: "
            "when your move would leave only Grundy values 0 and 1, leave an odd number "
            "of 1s, not an even one, so that your opponent takes the last object."
        )
    if all(n <= 1 for n in analysis.position):
        return (
            "Every Grundy value is 0 or 1: this is the endgame of misère play. From here "
            "the players can only reduce the heaps of value 1 one at a time, so the player "
            "to move loses exactly when an odd number of them is left (nim-sum 1)."
        )
    # Take limits: a heap of n is worth n mod (k + 1), and may still be large.
    return (
        "Every Grundy value is 0 or 1, though heaps may be large. Any move but one that "
        "takes a heap of value 1 to 0 is answered by taking the rest of the limit plus "
        "one from the same heap, which gives its value back, so such moves change "
        "nothing; what counts are the heaps of value 1, and as at the end of misère Nim "
        "the player to move loses exactly when an odd number of them is left (nim-sum 1)."
    )


def _winning(analysis: Analysis) -> str:
    position, rules = analysis.position, analysis.rules
    by_nim_sum = analysis.method == "closed form"
    goal = (
        "to nim-sum 0, every column even"
        if by_nim_sum and not rules.misere
        else "to a position the player to move loses"
    )
    parts = []
    for move in analysis.winning_moves[:MAX_REPLIES]:
        left = position.after(move, rules)
        if not by_nim_sum:
            parts.append(f"{move} ({becomes(position, move)}), leaving {left}")
            continue
        before = analysis.grundy[move.heap]
        if move.into is None:
            after = left.grundy(rules)[move.heap]
            parts.append(
                f"{move}: heap {move.heap} goes from {position[move.heap]} to "
                f"{left[move.heap]} (Grundy value {before} -> {after}), leaving {left}"
            )
        else:
            values = left.grundy(rules)[move.heap : move.heap + len(move.into)]
            total = 0
            for g in values:
                total ^= g
            parts.append(
                f"{move}: heap {move.heap} of {position[move.heap]} (Grundy value {before}) "
                f"becomes heaps of {_and(move.into)}, whose Grundy values {_and(values)} "
                f"have nim-sum {total}, leaving {left}"
            )
    total = len(analysis.winning_moves)
    count = "the winning move is" if total == 1 else "the winning moves are"
    if not analysis.every_winning_move:
        count = "a heap has too many options to list every winning move; one of them is"
    more = f" (and {total - MAX_REPLIES} more like them)" if total > MAX_REPLIES else ""
    return f"The player to move wins by moving {goal}; {count}: " + "; ".join(parts) + more + "."


def _and(numbers: Iterable[int]) -> str:
    """``1 and 7``; ``1, 2 and 7``."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _losing(analysis: Analysis) -> str:
    position, rules = analysis.position, analysis.rules
    count = position.count_moves(rules)
    if not count:
        return (
            "No move is left: the player to move cannot move and has lost "
            "(in normal play, the opponent made the last move)."
        )
    replies = []
    for move in position.moves(rules, limit=MAX_REPLIES):
        left = position.after(move, rules)
        answers = analyse(left, rules).winning_moves
        if answers:
            replies.append(f"{move} is answered by {answers[0]}")
        else:
            # Misère play: the move takes the last object, which loses.
            replies.append(f"{move} takes the last object, which loses in misère play")
    more = f" (and so on for the other {count - MAX_REPLIES})" if count > MAX_REPLIES else ""
    if analysis.method != "closed form":
        return (
            "The player to move loses against perfect play: every move leaves a position "
            "the opponent wins. For instance: " + "; ".join(replies) + more + "."
        )
    return (
        "The player to move loses against perfect play: every move unbalances the "
        "position, and the opponent restores it. For instance: " + "; ".join(replies) + more + "."
    )
