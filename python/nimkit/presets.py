"""Classic variants of Nim, and a random board builder."""

from __future__ import annotations

import random

from ._seeds import Seed, seed_value
from .position import Position
from .rules import Rules, Variant

__all__ = [
    "CLASSIC",
    "DAWSONS_KAYLES",
    "FRUIT_GAME",
    "GRUNDYS_GAME",
    "KAYLES",
    "MARIENBAD",
    "THIRTEEN_LIGHTS",
    "VARIANTS",
    "Variant",
    "random_board",
    "variant",
]


MARIENBAD = Variant(
    "marienbad",
    "rows of 1, 3, 5 and 7, whoever takes the last object loses (the film's game)",
    Position([1, 3, 5, 7]),
    Rules(misere=True),
)
THIRTEEN_LIGHTS = Variant(
    "thirteen-lights",
    "one row of 13 lights, take 1 to 3, whoever takes the last loses: start or pass?",
    Position([13]),
    Rules(misere=True, max_take=3),
)
FRUIT_GAME = Variant(
    "fruit-game",
    "three piles of 7, take any number from one pile, whoever takes the last wins",
    Position([7, 7, 7]),
    Rules(),
)
CLASSIC = Variant(
    "classic",
    "heaps of 3, 4 and 5, whoever takes the last object wins",
    Position([3, 4, 5]),
    Rules(),
)

KAYLES = Variant(
    "kayles",
    "a row of 10 pins; knock down one pin or two adjacent ones, which may split the row "
    "(code 0.77); whoever knocks down the last pin wins",
    Position([10]),
    Rules(code="0.77"),
)
DAWSONS_KAYLES = Variant(
    "dawsons-kayles",
    "a row of 10 pins; knock down two adjacent pins, which may split the row "
    "(code 0.07); whoever moves last wins",
    Position([10]),
    Rules(code="0.07"),
)
GRUNDYS_GAME = Variant(
    "grundys-game",
    "a heap of 10; split one heap into two heaps of different sizes (code 4!.0); "
    "whoever moves last wins",
    Position([10]),
    Rules(code="4!.0"),
)

#: Every named variant, by name.
VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        MARIENBAD,
        THIRTEEN_LIGHTS,
        FRUIT_GAME,
        CLASSIC,
        KAYLES,
        DAWSONS_KAYLES,
        GRUNDYS_GAME,
    )
}


def variant(name: str) -> Variant:
    """The variant called ``name``, spelt as in ``VARIANTS`` or as people write it:
    any case, spaces or underscores for hyphens, with or without apostrophes.

    >>> variant("Dawson's Kayles").rules
    Rules(code='0.07')
    """
    key = name.strip().lower().replace("'", "").replace("_", "-").replace(" ", "-")
    if key not in VARIANTS:
        raise ValueError(f"no variant {name!r}; choose from {', '.join(VARIANTS)}")
    return VARIANTS[key]


def random_board(
    heaps: tuple[int, int] = (3, 5),
    sizes: tuple[int, int] = (1, 9),
    rules: Rules | None = None,
    seed: Seed = None,
) -> Variant:
    """A random board: between ``heaps[0]`` and ``heaps[1]`` heaps, each of a size
    between ``sizes[0]`` and ``sizes[1]`` (inclusive), reproducible with ``seed``."""
    low, high = heaps
    if not 0 <= low <= high:
        raise ValueError(f"heaps must be a range (low, high) with 0 <= low <= high, got {heaps}")
    if not 0 <= sizes[0] <= sizes[1]:
        raise ValueError(f"sizes must be a range (low, high) with 0 <= low <= high, got {sizes}")
    rng = random.Random(None if seed is None else seed_value(seed))
    position = Position(rng.randint(*sizes) for _ in range(rng.randint(low, high)))
    return Variant("random", f"random board, seed {seed}", position, rules or Rules())
