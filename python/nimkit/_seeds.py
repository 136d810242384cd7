"""Seeds: what every random choice of nimkit (players, random boards) is seeded with.

>>> seed_value(7), seed_value(np.random.SeedSequence(7)) == seed_value(np.random.SeedSequence(7))
(7, True)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

#: A seed: a whole number, None (fresh entropy), or a numpy Generator or SeedSequence
#: to draw one from, as numpy and scikit-learn accept.
Seed = int | np.integer[Any] | np.random.Generator | np.random.SeedSequence | None


def seed_value(seed: Seed) -> int:
    """A 64-bit seed from any ``Seed``."""
    if seed is None:
        return random.SystemRandom().getrandbits(64)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**64, dtype=np.uint64))
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0])
    if isinstance(seed, (bool, float)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(
            "a seed is a whole number, None, or a numpy Generator or SeedSequence, "
            f"not {type(seed).__name__}"
        )
    return int(seed)
