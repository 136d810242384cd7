"""Nimber arithmetic against Conway's definition (small nimbers), the field laws
(64-bit nimbers), published values, and the array forms against the int forms."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nimkit as nk

nimbers = st.integers(0, 2**64 - 1)


@cache
def defined_product(a: int, b: int) -> int:
    """Conway (On Numbers and Games, ch. 6): a ⊗ b is the mex of
    a' ⊗ b ⊕ a ⊗ b' ⊕ a' ⊗ b' over a' < a and b' < b."""
    seen = {
        defined_product(x, b) ^ defined_product(a, y) ^ defined_product(x, y)
        for x in range(a)
        for y in range(b)
    }
    return next(m for m in range(len(seen) + 1) if m not in seen)


def test_products_of_small_nimbers_meet_the_definition():
    for a in range(32):
        for b in range(32):
            assert nk.nim_multiply(a, b) == defined_product(a, b), (a, b)


def test_published_values():
    # The example and Conway's: a Fermat 2-power squares to 3/2 of itself.
    assert nk.nim_multiply(2**32, 2**32) == 3 * 2**31
    squares = [nk.nim_multiply(2 ** (2**k), 2 ** (2**k)) for k in range(6)]
    assert squares == [3, 6, 24, 384, 3 * 2**15, 3 * 2**31]
    # CGSuite's test fixtures (GameTest, NimProduct): 8 ⊗ n for n = 1..16.
    eights = [nk.nim_multiply(8, n) for n in range(1, 17)]
    assert eights == [8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128]
    # The second example.
    assert nk.nim_multiply(21508, 42689) == 35202


@given(nimbers, nimbers, nimbers)
def test_field_laws(a, b, c):
    mul = nk.nim_multiply
    assert mul(a, b) == mul(b, a)
    assert mul(mul(a, b), c) == mul(a, mul(b, c))
    assert mul(a, b ^ c) == mul(a, b) ^ mul(a, c)
    if a:
        assert mul(a, nk.nim_inverse(a)) == 1


@given(st.lists(nimbers, min_size=1, max_size=50), nimbers)
def test_arrays_agree_with_ints(values, b):
    a = np.array(values, dtype=np.uint64)
    assert nk.nim_multiply(a, b).tolist() == [nk.nim_multiply(v, b) for v in values]
    assert nk.nim_multiply(b, a).tolist() == [nk.nim_multiply(v, b) for v in values]
    assert nk.nim_multiply(a, a[::-1]).tolist() == [
        nk.nim_multiply(v, w) for v, w in zip(values, values[::-1], strict=True)
    ]
    nonzero = a[a != 0]
    assert nk.nim_inverse(nonzero).tolist() == [nk.nim_inverse(int(v)) for v in nonzero]


def test_array_shapes_broadcast():
    grid = nk.nim_multiply(np.arange(4, dtype=np.uint64)[:, None], np.arange(4)[None, :])
    assert grid.dtype == np.uint64
    assert grid.tolist() == [[defined_product(a, b) for b in range(4)] for a in range(4)]
    assert nk.nim_inverse(np.array([[1, 2], [3, 4]])).tolist() == [[1, 3], [2, 15]]
    assert nk.nim_multiply([2**64 - 1], [1]).tolist() == [2**64 - 1]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: nk.nim_multiply(-1, 2), ValueError, "must not be negative"),
        (lambda: nk.nim_multiply(2**64, 1), OverflowError, r"2\*\*64 - 1"),
        (lambda: nk.nim_multiply(1.5, 2), TypeError, "whole numbers, not float64"),
        (lambda: nk.nim_multiply([True], 2), TypeError, "not bool"),
        (lambda: nk.nim_multiply([-3], 2), ValueError, "negative numbers, got -3"),
        (lambda: nk.nim_multiply([2**64], 2), OverflowError, "over 2\\*\\*64 - 1"),
        (lambda: nk.nim_multiply([1, 2], [1, 2, 3]), ValueError, "broadcast"),
        (lambda: nk.nim_inverse(0), ZeroDivisionError, "0 has no inverse: every"),
        (lambda: nk.nim_inverse([5, 0]), ZeroDivisionError, r"\(element 1\)"),
    ],
)
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
