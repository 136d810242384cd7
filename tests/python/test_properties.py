"""Property tests of the batch functions: random dtypes, shapes, strides, memmaps and
per-heap limits, against the scalar API position by position."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import nimkit as nk
from nimkit import batch

DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64]
LAYOUTS = ["C", "Fortran", "reversed", "strided", "memmap", "3-D"]


@st.composite
def heap_arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    m = draw(st.integers(0, 6))
    n = draw(st.integers(0, 24))
    top = int(np.iinfo(dtype).max)
    small = draw(st.booleans())
    elements = st.integers(0, min(top, 40) if small else top)
    array = draw(hnp.arrays(dtype, (2 * n, m), elements=elements))
    layout = draw(st.sampled_from(LAYOUTS))
    limits = st.one_of(st.none(), st.integers(1, 2**64 - 1), st.integers(1, 9))
    per_heap = st.lists(limits, min_size=m, max_size=m).map(tuple)
    max_take = draw(st.one_of(st.none(), st.integers(1, 12), per_heap))
    return array, layout, nk.Rules(misere=draw(st.booleans()), max_take=max_take)


def shaped(array: np.ndarray, layout: str, folder: Path) -> np.ndarray:
    if layout == "Fortran":
        return np.asfortranarray(array)
    if layout == "reversed":
        return array[::-1, ::-1]
    if layout == "strided":
        return array[::2]
    if layout == "memmap":
        np.save(folder / "heaps.npy", array)
        return np.load(folder / "heaps.npy", mmap_mode="r")
    if layout == "3-D" and len(array) % 2 == 0:
        return array.reshape(2, len(array) // 2, array.shape[1])
    return array


@settings(max_examples=150, deadline=None)
@given(heap_arrays())
def test_batch_functions_agree_with_the_scalar_api(case):
    array, layout, rules = case
    with tempfile.TemporaryDirectory() as folder:
        heaps = shaped(array, layout, Path(folder))
        lead = heaps.shape[:-1]
        rows = heaps.reshape(int(np.prod(lead)), heaps.shape[-1])
        analyses = [nk.analyse([int(v) for v in row], rules) for row in rows]
        np.testing.assert_array_equal(
            batch.nim_sum(heaps, rules),
            np.array([a.nim_sum for a in analyses], np.uint64).reshape(lead),
        )
        expected_p = [a.outcome is nk.Outcome.P for a in analyses]
        np.testing.assert_array_equal(
            batch.is_p_position(heaps, rules), np.array(expected_p, bool).reshape(lead)
        )
        np.testing.assert_array_equal(
            batch.count_winning_moves(heaps, rules),
            np.array([len(a.winning_moves) for a in analyses], np.int64).reshape(lead),
        )
        heap, take = batch.winning_move(heaps, rules)
        firsts = [a.winning_moves[0] if a.winning_moves else None for a in analyses]
        np.testing.assert_array_equal(
            heap, np.array([m.heap if m else -1 for m in firsts], np.int64).reshape(lead)
        )
        np.testing.assert_array_equal(
            take, np.array([m.take if m else 0 for m in firsts], np.uint64).reshape(lead)
        )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 2**64 - 1), max_size=6),
    st.booleans(),
    st.one_of(st.none(), st.integers(1, 2**64 - 1)),
)
def test_winning_moves_lead_to_p_positions(heaps, misere, max_take):
    rules = nk.Rules(misere=misere, max_take=max_take)
    position = nk.Position(heaps)
    analysis = nk.analyse(position, rules)
    for move in analysis.winning_moves:
        assert position.after(move, rules).outcome(rules) is nk.Outcome.P
    if analysis.outcome is nk.Outcome.P:
        assert analysis.winning_moves == ()
