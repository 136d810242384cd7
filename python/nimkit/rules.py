"""The rules of a take-away game: the ending and the take limit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeAlias

from . import _core
from ._core import SubtractionGame, TakeAndBreak
from .position import Position

#: A take limit: None (no limit), one int >= 1 for every heap, or one int-or-None per heap.
MaxTake: TypeAlias = "SupportsIndex | Sequence[SupportsIndex | None] | None"
#: A subtraction set: the numbers one turn may take, e.g. {1, 3, 4}.
TakeSet: TypeAlias = "AbstractSet[SupportsIndex] | Sequence[SupportsIndex] | SubtractionGame"
#: One subtraction set for every heap, or one set (or None: no limit) per heap.
Take: TypeAlias = "TakeSet | Sequence[TakeSet | None] | None"

#: The most positions a search may label by default: misère play of subtraction sets
#: other than {1..k} has no closed form and is solved by searching the box below the
#: position.
DEFAULT_MAX_POSITIONS: int = _core.DEFAULT_MAX_POSITIONS


class Rules(_core.Rules):
    """Normal or misère play, and what one turn may do to one heap.

    >>> Rules(misere=True, max_take=3)
    Rules(misere=True, max_take=3)
    >>> Rules(take={1, 3, 4})
    Rules(take={1, 3, 4})
    >>> Rules(code="0.77")
    Rules(code='0.77')

    ``max_take`` is None (take any number from one heap), an int >= 1 for every heap,
    or a sequence with one int or None per heap. ``take`` is a subtraction set instead:
    a finite set of positive ints (one turn takes exactly one of them), for every heap,
    or a sequence with one set (or None: no limit) per heap. ``code`` is a
    take-and-break code instead (a str such as ``"0.77"``, Kayles, or a
    ``TakeAndBreak``), for every heap: a move may then split a heap (see
    ``TakeAndBreak``). Give at most one of the three.

    Rules are validated once, here, and held by the native core as they are: no call
    converts them again. They are immutable, hashable and picklable; ``misere``,
    ``has_closed_form`` and ``splits`` come from the core.
    """

    __slots__ = ()

    def __new__(
        cls,
        misere: bool = False,
        max_take: MaxTake = None,
        take: Take = None,
        code: str | TakeAndBreak | None = None,
    ) -> Rules:
        named = (("max_take", max_take), ("take", take), ("code", code))
        given = [name for name, value in named if value is not None]
        if len(given) > 1:
            raise ValueError(f"give either max_take or take or code, not {' and '.join(given)}")
        spec: Any = max_take
        if take is not None:
            spec = _sets(take)
        elif code is not None:
            spec = _code(code)
        return super().__new__(cls, misere, spec)

    @property
    def max_take(self) -> int | tuple[int | None, ...] | None:
        """The take limit: None, one int, or a tuple with one int-or-None per heap.
        None too when the rules use subtraction sets (see ``take``) or a code."""
        return None if self.take is not None or self.code is not None else self.take_rule

    @property
    def code(self) -> str | None:
        """The take-and-break code (e.g. ``"0.77"``), or None."""
        rule = self.take_rule
        return rule.code if isinstance(rule, TakeAndBreak) else None

    @property
    def heap_rule(self) -> TakeAndBreak | None:
        """The ``TakeAndBreak`` of a take-and-break code (its Grundy sequence), or None."""
        rule = self.take_rule
        return rule if isinstance(rule, TakeAndBreak) else None

    @property
    def take(self) -> frozenset[int] | tuple[frozenset[int] | None, ...] | None:
        """The subtraction sets: one frozenset for every heap, a tuple with one
        frozenset (or None: no limit) per heap, or None without sets."""
        rule = self.take_rule
        if isinstance(rule, SubtractionGame):
            return frozenset(rule.take)
        if isinstance(rule, tuple) and any(isinstance(t, SubtractionGame) for t in rule):
            return tuple(None if t is None else _as_set(t) for t in rule)
        return None

    def describe(self) -> str:
        """The rules in words."""
        ending = (
            "misère play (taking the last object loses)"
            if self.misere
            else "normal play (taking the last object wins)"
        )
        return f"{ending}, {self.describe_moves()}"

    def describe_moves(self) -> str:
        """The moves the rules allow, in words (the ending aside).

        >>> Rules(code="0.77").describe_moves()
        'take-and-break code 0.77'
        """
        take, limit = self.take, self.take_rule
        if isinstance(limit, TakeAndBreak):
            rule = f"take-and-break code {limit.code}"
        elif isinstance(take, frozenset):
            rule = f"take {_or_list(take)} per turn"
        elif take is not None:
            each = ", ".join("any" if t is None else _set_repr(t) for t in take)
            rule = f"take sets per heap: {each}"
        elif limit is None:
            rule = "no take limit"
        elif isinstance(limit, int):
            rule = f"take at most {limit} per turn"
        else:
            each = ", ".join("none" if k is None else str(k) for k in limit)
            rule = f"take limits per heap: {each}"
        return rule

    __str__ = describe

    def __repr__(self) -> str:
        args = []
        if self.misere:
            args.append("misere=True")
        take = self.take
        if self.code is not None:
            args.append(f"code={self.code!r}")
        elif isinstance(take, frozenset):
            args.append(f"take={_set_repr(take)}")
        elif take is not None:
            each = ", ".join("None" if t is None else _set_repr(t) for t in take)
            args.append(f"take=({each},)" if len(take) == 1 else f"take=({each})")
        elif self.take_rule is not None:
            args.append(f"max_take={self.take_rule!r}")
        return f"Rules({', '.join(args)})"

    @classmethod
    def _of(cls, native: _core.Rules) -> Rules:
        """These rules as a ``Rules`` (from the core's, e.g. a game's)."""
        if isinstance(native, Rules):
            return native
        rules: Rules = _core.Rules.__new__(cls, native.misere, native.take_rule)
        return rules

    def _repr_html_(self) -> str:
        return f"<code>{self!r}</code>: {self.describe()}"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"{self!r}: {self.describe()}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Rules, (self.misere, self.max_take, self.take, self.code)


def _sets(take: Take) -> Any:
    """``take`` as the core takes it: a SubtractionGame, or a tuple of them (or None)."""
    if isinstance(take, SubtractionGame | AbstractSet):
        return _game(take)
    if isinstance(take, str | bytes | Mapping) or not isinstance(take, Iterable):
        raise TypeError(
            "take must be a set of positive ints such as {1, 3, 4}, or one set (or None) "
            f"per heap, not {type(take).__name__}"
        )
    items = list(take)
    if not items:
        raise ValueError(
            "take is empty: give the numbers one turn may take, such as {1, 3, 4}, or "
            "one set (or None) per heap"
        )
    if items and all(isinstance(t, SupportsIndex) and not isinstance(t, bool) for t in items):
        return _game(items)  # a list of ints is one set
    per_heap = []
    for heap, t in enumerate(items):
        if t is not None and not isinstance(t, SubtractionGame | AbstractSet | Sequence):
            raise TypeError(
                f"take for heap {heap} must be a set of positive ints or None, "
                f"not {type(t).__name__}"
            )
        per_heap.append(None if t is None else _game(t))
    return tuple(per_heap)


def _code(code: str | TakeAndBreak) -> TakeAndBreak:
    if isinstance(code, TakeAndBreak):
        return code
    if not isinstance(code, str):
        raise TypeError(
            f"code must be a take-and-break code such as '0.77', not {type(code).__name__}"
        )
    # Every TakeAndBreak of one code shares its values (the core keeps one per code).
    return TakeAndBreak(code)


def _game(take: Any) -> SubtractionGame:
    return take if isinstance(take, SubtractionGame) else SubtractionGame(take)


def _as_set(game: SubtractionGame) -> frozenset[int]:
    return frozenset(game.take)


def _set_repr(take: frozenset[int]) -> str:
    return "{" + ", ".join(map(str, sorted(take))) + "}"


def _or_list(take: frozenset[int]) -> str:
    elements = [str(s) for s in sorted(take)]
    return elements[0] if len(elements) == 1 else f"{', '.join(elements[:-1])} or {elements[-1]}"


def with_ending(rules: Rules | None, misere: bool | None) -> Rules:
    """``rules`` (plain Nim if None) with the ending ``misere`` asks for, if it asks.

    >>> with_ending(Rules(max_take=3), misere=True)
    Rules(misere=True, max_take=3)
    """
    rules = rules_or_default(rules)
    if misere is None or bool(misere) == rules.misere:
        return rules
    return Rules._of(_core.Rules(bool(misere), rules.take_rule))


@dataclass(frozen=True)
class Variant:
    """A named starting position with its rules (``nimkit.presets`` holds the
    classic ones).

    >>> Variant("mine", "two heaps", Position([2, 3]), Rules(max_take=2)).rules
    Rules(max_take=2)
    """

    name: str
    description: str
    position: Position
    rules: Rules

    def __str__(self) -> str:
        return f"{self.name}: {self.description}"


def position_and_rules(
    position: Any, rules: Rules | None, misere: bool | None
) -> tuple[Any, Rules]:
    """What a call given a position (or a preset, which brings its rules) and rules
    plays: the position and the rules with the ending ``misere`` asks for.

    >>> from nimkit import presets
    >>> position_and_rules(presets.MARIENBAD, None, None)
    (Position([1, 3, 5, 7]), Rules(misere=True))
    """
    if isinstance(position, Variant):
        if rules is not None:
            raise TypeError(f"the preset {position.name} brings its rules: give no rules with it")
        position, rules = position.position, position.rules
    return position, with_ending(rules, misere)


def rules_or_default(rules: Rules | None) -> Rules:
    """The rules given, or plain Nim in normal play."""
    if rules is None:
        return NORMAL
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a nimkit.Rules, not {type(rules).__name__}")
    return rules


NORMAL = Rules()
