"""Octal codes with the same Grundy sequence up to a shift, and the trivial ones."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import SupportsIndex

from . import _core


@dataclass(frozen=True)
class OctalClass:
    """Octal codes whose Grundy sequences are equal up to a shift.

    ``members`` maps each code (canonical form, as ``TakeAndBreak.code`` writes it) to
    its offset: the heap before its first nonzero value. Two members ``a`` and ``b``
    agree on ``G_a(offset_a + n) == G_b(offset_b + n)`` for every ``n``. A trivial
    class (a period proven within the heaps looked at) gives the representative's
    least ``preperiod``, its ``period`` and its ``values`` over both.
    """

    representative: str
    members: dict[str, int]
    preperiod: int | None = None
    period: int | None = None
    values: tuple[int, ...] = ()

    @property
    def trivial(self) -> bool:
        """Whether the class's period is proven within the heaps looked at."""
        return self.period is not None

    @property
    def pattern(self) -> str | None:
        """The representative's values as Czajka writes them, one character each
        (0-9, then A-Z), the period in parentheses: ``0(01)``; None unless trivial."""
        if self.preperiod is None:
            return None
        digits = "".join(_digit(v) for v in self.values)
        return f"{digits[: self.preperiod]}({digits[self.preperiod :]})"

    def __str__(self) -> str:
        shown = ", ".join(self.members)
        if self.pattern is None:
            return f"{self.representative}: {shown}"
        return f"{self.representative} = {self.pattern}: {shown}"


def _digit(value: int) -> str:
    """Czajka's one character per value: 0-9, then A-Z."""
    return "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value] if value < 36 else f"[{value}]"


def octal_equivalences(digits: SupportsIndex = 3, heaps: SupportsIndex = 1000) -> list[OctalClass]:
    """Every octal code ``0.d1..dk`` and ``4.d1..dk`` with ``k <= digits`` (1 to 4), in
    classes of equal Grundy sequences up to a shift, simplest representative first.

    This is Czajka's classification (GameLookup.md and TrivialGames.md of
    ``tczajka/octal-games``), by his rules: each code is rewritten to a normal form
    by changes that provably keep every value (heaps of 1 that cannot be taken are no
    heaps; moves that add an option value already there); codes whose normal forms
    agree, or prove the same period with the same values within ``heaps`` heaps, are
    one class. Nothing else is merged, so two classes may yet have equal sequences;
    for ``digits=3`` the first 10**5 values of every pair differ (checked in the
    tests). Representatives are the shortest name (``.17``, ``4``, ``4.3``: the digit
    before the point counts when it is 4), ``0.`` before ``4.``, then the smallest.

    >>> classes = octal_equivalences(2)
    >>> len(classes), sum(c.trivial for c in classes)
    (40, 28)
    >>> lookup = {code: c for c in classes for code in c.members}
    >>> print(lookup["0.41"])
    0.17 = 011021301132234153223110312011442(6411021301132234457223110312011443): 0.17, 0.41, 0.43
    >>> lookup["0.41"].members["0.41"], lookup["0.41"].members["0.17"]
    (1, 0)
    """
    for name, value, low, high in (("digits", digits, 1, 4), ("heaps", heaps, 64, 65536)):
        if not low <= operator.index(value) <= high:
            raise ValueError(f"{name} must be {low} to {high}, not {operator.index(value)}")
    classes = _core.octal_classes(digits, heaps)
    return [
        OctalClass(representative, dict(members))
        if period is None
        else OctalClass(representative, dict(members), period[0], period[1], tuple(period[2]))
        for representative, members, period in classes
    ]
