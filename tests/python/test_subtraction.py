"""nimkit.SubtractionGame against a straightforward Python mex, and its bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimkit as nk


def mex_sequence(take, count):
    values = []
    for n in range(count):
        options = {values[n - s] for s in take if s <= n}
        values.append(next(g for g in range(len(take) + 1) if g not in options))
    return values


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, 30), min_size=1, max_size=6))
def test_sequences_match_the_definition(take):
    game = nk.SubtractionGame(take)
    pre, period = game.period()
    count = pre + 10 * period + 200
    expected = mex_sequence(sorted(take), count)
    np.testing.assert_array_equal(game.grundy_sequence(count), expected)
    assert game.grundy_sequence(count).dtype == np.uint16
    for n in [0, 1, count - 1]:
        assert game.grundy(n) == expected[n]
    # Far beyond any sequence computed: the period answers in O(1).
    big = 2**64 - 1
    assert game.grundy(big) == expected[pre + (big - pre) % period]


def test_classic_sets():
    game = nk.SubtractionGame({1, 3, 4})
    assert game.take == (1, 3, 4)
    assert game.period() == (0, 7)
    assert repr(game) == "SubtractionGame({1, 3, 4})"
    assert game.nim_sum([2, 3]) == 0 ^ 1
    assert game.is_p_position([2, 2])
    take_three = nk.SubtractionGame(range(1, 4))
    assert take_three.period() == (0, 4)
    assert all(take_three.grundy(n) == n % 4 for n in range(100))
    assert nk.SubtractionGame([3, 1, 1]).take == (1, 3)  # duplicates folded


@pytest.mark.parametrize(
    ("take", "error", "message"),
    [
        (set(), ValueError, "at least one element"),
        ({0, 2}, ValueError, "0 is not a move"),
        ([-1, 2], ValueError, "element 0 must not be negative"),
        ({1.5}, TypeError, "must be an integer, not float"),
        (5, TypeError, "collection of positive integers"),
        ("134", TypeError, "collection of positive integers"),
        ({1, 2**21}, ValueError, "too large"),
        (range(1, 5001), ValueError, "5000 elements is too large"),
    ],
)
def test_bad_sets(take, error, message):
    with pytest.raises(error, match=message):
        nk.SubtractionGame(take)


def test_search_limit():
    with pytest.raises(ValueError, match="no period found within the first"):
        nk.SubtractionGame({3, 7, 11, 13}, max_length=5)
