"""The rules of a take-away game: the ending and the take limit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsIndex, TypeAlias

from . import _core

#: A take limit: None (no limit), one int >= 1 for every heap, or one int-or-None per heap.
MaxTake: TypeAlias = "SupportsIndex | Sequence[SupportsIndex | None] | None"


class Rules:
    """Normal or misère play, and how many objects one turn may take.

    >>> Rules(misere=True, max_take=3)
    Rules(misere=True, max_take=3)

    ``max_take`` is None (take any number from one heap), an int >= 1 for every heap,
    or a sequence with one int or None per heap. Rules are immutable and hashable.
    """

    __slots__ = ("_max_take", "_misere")
    _misere: bool
    _max_take: int | tuple[int | None, ...] | None

    def __init__(self, misere: bool = False, max_take: MaxTake = None) -> None:
        object.__setattr__(self, "_max_take", _core.check_rules(misere, max_take))
        object.__setattr__(self, "_misere", misere)

    @property
    def misere(self) -> bool:
        """True when taking the last object loses."""
        return self._misere

    @property
    def max_take(self) -> int | tuple[int | None, ...] | None:
        """The take limit: None, one int, or a tuple with one int-or-None per heap."""
        return self._max_take

    def _args(self) -> tuple[bool, Any]:
        """The rules as the native core takes them."""
        return self._misere, self._max_take

    def describe(self) -> str:
        """The rules in words."""
        ending = (
            "misère play (taking the last object loses)"
            if self._misere
            else "normal play (taking the last object wins)"
        )
        if self._max_take is None:
            limit = "no take limit"
        elif isinstance(self._max_take, int):
            limit = f"take at most {self._max_take} per turn"
        else:
            each = ", ".join("none" if k is None else str(k) for k in self._max_take)
            limit = f"take limits per heap: {each}"
        return f"{ending}, {limit}"

    __str__ = describe

    def __repr__(self) -> str:
        args = []
        if self._misere:
            args.append("misere=True")
        if self._max_take is not None:
            args.append(f"max_take={self._max_take!r}")
        return f"Rules({', '.join(args)})"

    def _repr_html_(self) -> str:
        return f"<code>{self!r}</code>: {self.describe()}"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"{self!r}: {self.describe()}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self._args() == other._args()

    def __hash__(self) -> int:
        return hash(("Rules", *self._args()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Rules are immutable")

    def __reduce__(self) -> tuple[type[Rules], tuple[bool, Any]]:
        return Rules, self._args()


def rules_or_default(rules: Rules | None) -> Rules:
    """The rules given, or plain Nim in normal play."""
    if rules is None:
        return NORMAL
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a nimkit.Rules, not {type(rules).__name__}")
    return rules


NORMAL = Rules()
