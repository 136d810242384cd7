"""Nimber arithmetic: the field of the nimbers below 2**64, where addition is XOR and
multiplication is Conway's nim product (Winning Ways ch. 14). The values of
two-dimensional coin-turning games are nim products of their one-dimensional ones
(the Tartan theorem).

>>> nim_multiply(2**32, 2**32) == 3 * 2**31
True
>>> nim_multiply(nim_inverse(7), 7)
1
>>> nim_multiply(np.array([2, 3, 4], dtype=np.uint64), 3)
array([ 1,  2, 12], dtype=uint64)
"""

from __future__ import annotations

from typing import Any, SupportsIndex, overload

import numpy as np
import numpy.typing as npt

from . import _core

Nimbers = npt.NDArray[np.uint64]


def _is_scalar(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _array(x: Any, name: str) -> Nimbers:
    """``x`` as uint64, refusing what is not whole numbers in 0..2**64 - 1."""
    array = np.asarray(x)
    if array.dtype == object:  # Python ints past int64
        odd = next((v for v in array.flat if not _is_scalar(v)), None)
        if odd is not None or array.size == 0:
            # converting would truncate 1.5 to 1 or read "3" as 3
            raise TypeError(f"{name} must hold whole numbers, not {type(odd).__name__}")
        try:
            array = np.array(x, dtype=np.uint64)
        except OverflowError:
            raise OverflowError(f"{name} holds a number over 2**64 - 1 or negative") from None
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"{name} must hold whole numbers, not {array.dtype}")
    if np.issubdtype(array.dtype, np.signedinteger) and array.size and array.min() < 0:
        raise ValueError(f"{name} must not hold negative numbers, got {array.min()}")
    return array.astype(np.uint64, copy=False)


@overload
def nim_multiply(a: SupportsIndex, b: SupportsIndex) -> int: ...
@overload
def nim_multiply(a: npt.ArrayLike, b: npt.ArrayLike) -> Nimbers: ...
def nim_multiply(a: Any, b: Any) -> int | Nimbers:
    """The nim product of two nimbers below 2**64: ints give an int, arrays (or an
    array and an int) a uint64 array of their broadcast shape, computed on every
    core (Ctrl-C stops it)."""
    if _is_scalar(a) and _is_scalar(b):
        return _core.nim_multiply_int(a, b)
    x, y = _array(a, "a"), _array(b, "b")
    if x.ndim == 0:  # the product commutes: the array first, the number once
        x, y = y, x
    if y.ndim == 0:
        return _core.nim_multiply_array(_flat(x), y.reshape(1)).reshape(x.shape)
    x, y = np.broadcast_arrays(x, y)
    return _core.nim_multiply_array(_flat(x), _flat(y)).reshape(x.shape)


def _flat(x: Nimbers) -> Nimbers:
    return np.ascontiguousarray(x).reshape(-1)


@overload
def nim_inverse(a: SupportsIndex) -> int: ...
@overload
def nim_inverse(a: npt.ArrayLike) -> Nimbers: ...
def nim_inverse(a: Any) -> int | Nimbers:
    """The inverse in the field: ``nim_multiply(a, nim_inverse(a)) == 1``.
    ZeroDivisionError for 0 (in an array, naming the first zero's flat index)."""
    if _is_scalar(a):
        return _core.nim_inverse_int(a)
    x = _array(a, "a")
    return _core.nim_inverse_array(_flat(x)).reshape(x.shape)
