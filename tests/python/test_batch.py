"""nimkit.batch against a straightforward per-position reference, over every integer
dtype and layout, and its bad-input cases."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import nimkit as nk
from nimkit import batch

DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64]
RULES = [
    nk.Rules(),
    nk.Rules(misere=True),
    nk.Rules(max_take=4),
    nk.Rules(misere=True, max_take=1),
    nk.Rules(misere=True, max_take=(3, None, 6)),
    nk.Rules(max_take=200),
]


def reference(heaps: np.ndarray, rules: nk.Rules):
    """nim-sum, P, first winning move and move count of every position, one by one."""
    flat = heaps.reshape(-1, heaps.shape[-1])
    sums, ps, moves_heap, moves_take, counts = [], [], [], [], []
    for row in flat:
        analysis = nk.analyse([int(v) for v in row], rules)
        sums.append(analysis.nim_sum)
        ps.append(analysis.outcome is nk.Outcome.P)
        first = analysis.winning_moves[0] if analysis.winning_moves else None
        moves_heap.append(first.heap if first else -1)
        moves_take.append(first.take if first else 0)
        counts.append(len(analysis.winning_moves))
    shape = heaps.shape[:-1]
    return (
        np.array(sums, dtype=np.uint64).reshape(shape),
        np.array(ps, dtype=bool).reshape(shape),
        np.array(moves_heap, dtype=np.int64).reshape(shape),
        np.array(moves_take, dtype=np.uint64).reshape(shape),
        np.array(counts, dtype=np.int64).reshape(shape),
    )


def random_heaps(dtype, shape, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    top = np.iinfo(dtype).max
    big = rng.integers(0, top, size=shape, dtype=dtype, endpoint=True)
    small = rng.integers(0, 4, size=shape).astype(dtype)
    return np.where(rng.random(shape) < 0.5, small, big)


def layouts(dtype):
    """The same kind of data as C, Fortran, strided, reversed, broadcast, 3-D and 1-D arrays."""
    base = random_heaps(dtype, (60, 3))
    yield "C", base
    yield "Fortran", np.asfortranarray(base)
    yield "strided", random_heaps(dtype, (120, 7), seed=1)[::2, 1::2]
    yield "reversed", base[::-1, ::-1]
    yield "3-D", random_heaps(dtype, (4, 5, 3), seed=2)
    # Strides of 0: every row is the same memory.
    yield "broadcast rows", np.broadcast_to(base[5], (6, 3))
    yield "broadcast heaps", np.broadcast_to(base[:, :1], (60, 3))
    yield "one position", base[7]
    # The heap counts with kernels of their own (1, 2, 4, 8) and one past them.
    for m in (1, 2, 4, 8, 9):
        yield f"{m} heaps", random_heaps(dtype, (40, m), seed=m)
    if np.iinfo(dtype).max >= 2**40:
        # Below 2**52, wide heaps' remainders go to the vector unit (batch/wide.rs);
        # below 2**32, as 32-bit values (batch/narrow.rs).
        yield "below 2**40", (random_heaps(dtype, (60, 4), seed=3) >> 24).astype(dtype)
        yield "below 2**32", (random_heaps(dtype, (60, 4), seed=4) >> 32).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_every_dtype_and_layout_matches_the_reference(dtype, rules):
    for name, heaps in layouts(dtype):
        if isinstance(rules.max_take, tuple) and heaps.shape[-1] != len(rules.max_take):
            continue  # one limit per heap: only for three heaps
        expected = reference(heaps, rules)
        got = (
            batch.nim_sum(heaps, rules),
            batch.is_p_position(heaps, rules),
            *batch.winning_move(heaps, rules),
            batch.count_winning_moves(heaps, rules),
        )
        for want, have in zip(expected, got, strict=True):
            assert np.shape(have) == want.shape, name
            assert np.asarray(have).dtype == want.dtype, name
            np.testing.assert_array_equal(have, want, err_msg=f"{name} {rules!r}")


def test_single_position_gives_numpy_scalars():
    assert batch.nim_sum(np.array([1, 2, 3], dtype=np.uint8)) == 0
    assert batch.is_p_position(np.array([1, 3, 5, 7]), nk.Rules(misere=True))
    heap, take = batch.winning_move(np.array([3, 4, 5]))
    assert (heap, take) == (0, 2)
    assert np.ndim(heap) == 0


def test_lists_are_accepted():
    np.testing.assert_array_equal(batch.nim_sum([[1, 2], [3, 3]]), [3, 0])


def test_memmap_is_read_in_place(tmp_path):
    path = tmp_path / "heaps.npy"
    heaps = random_heaps(np.uint16, (500, 4))
    np.save(path, heaps)
    mapped = np.load(path, mmap_mode="r")
    assert isinstance(mapped, np.memmap)
    np.testing.assert_array_equal(batch.nim_sum(mapped), batch.nim_sum(heaps))
    np.testing.assert_array_equal(
        batch.is_p_position(mapped, nk.Rules(max_take=5)),
        batch.is_p_position(heaps, nk.Rules(max_take=5)),
    )


def test_out_arrays_are_filled_and_returned():
    heaps = random_heaps(np.uint32, (100, 3))
    out = np.empty(100, dtype=bool)
    assert batch.is_p_position(heaps, out=out) is out
    np.testing.assert_array_equal(out, batch.is_p_position(heaps))
    sums = np.empty(100, dtype=np.uint64)[::-1]  # a strided, reversed view
    assert batch.nim_sum(heaps, out=sums) is sums
    np.testing.assert_array_equal(sums, np.bitwise_xor.reduce(heaps, axis=1))
    pair = (np.empty(100, dtype=np.int64), np.empty(100, dtype=np.uint64))
    heap, take = batch.winning_move(heaps, out=pair)
    assert heap is pair[0]
    assert take is pair[1]
    counts = np.empty(100, dtype=np.int64)
    assert batch.count_winning_moves(heaps, out=counts) is counts


def test_results_do_not_depend_on_chunking():
    heaps = random_heaps(np.uint8, (100_003, 3))
    expected = np.bitwise_xor.reduce(heaps, axis=1) == 0
    np.testing.assert_array_equal(batch.is_p_position(heaps), expected)
    np.testing.assert_array_equal(batch.is_p_position(heaps[1:]), expected[1:])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int64])
@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_take_limits_across_blocks_match_numpy(dtype, misere):
    """Many blocks of remainders taken as bytes (batch/narrow.rs) and of rows folded 32
    at a time (batch/byte_rows.rs), with ragged ends, against numpy's `%`."""
    for m in (3, 4, 8):
        heaps = random_heaps(dtype, (20_011, m), seed=m) % dtype(min(np.iinfo(dtype).max, 2**31))
        for limit in (4, 200):
            grundy = heaps % dtype(limit + 1)
            x = np.bitwise_xor.reduce(grundy, axis=1)
            big = (grundy > 1).any(axis=1)
            expected = np.where(big | (not misere), x == 0, x == 1)
            rules = nk.Rules(max_take=limit, misere=misere)
            np.testing.assert_array_equal(batch.is_p_position(heaps, rules), expected)
            np.testing.assert_array_equal(batch.nim_sum(heaps[1:], rules), x[1:])


def test_empty_inputs():
    assert batch.nim_sum(np.zeros((0, 3), dtype=np.uint8)).shape == (0,)
    no_heaps = np.zeros((4, 0), dtype=np.uint8)
    np.testing.assert_array_equal(batch.nim_sum(no_heaps), [0, 0, 0, 0])
    np.testing.assert_array_equal(batch.is_p_position(no_heaps), [True] * 4)
    np.testing.assert_array_equal(batch.is_p_position(no_heaps, nk.Rules(misere=True)), [False] * 4)
    heap, take = batch.winning_move(no_heaps)
    np.testing.assert_array_equal(heap, [-1] * 4)
    np.testing.assert_array_equal(take, [0] * 4)


@pytest.mark.parametrize(
    ("heaps", "error", "message"),
    [
        (np.zeros((2, 3), dtype=float), TypeError, "array of integers .* not float64"),
        (np.zeros((2, 3), dtype=bool), TypeError, "not bool"),
        (np.zeros((2, 3), dtype=complex), TypeError, "not complex128"),
        (np.zeros((2, 3), dtype=object), TypeError, "not object"),
        (np.zeros((2, 3), dtype=">u4"), TypeError, "non-native byte order"),
        (np.array(5, dtype=np.uint8), ValueError, "at least one dimension"),
        ("123", TypeError, "not <U3"),
    ],
)
def test_bad_arrays(heaps, error, message):
    for function in (batch.nim_sum, batch.is_p_position, batch.winning_move):
        with pytest.raises(error, match=message):
            function(heaps)


def test_negative_heaps_name_the_first_bad_position():
    heaps = np.array([[1, 2, 3], [4, 5, 6], [7, -8, 9], [-1, 0, 0]], dtype=np.int32)
    with pytest.raises(ValueError, match="position 2 has a negative heap: heap 1 is -8"):
        batch.is_p_position(heaps)
    cube = heaps.reshape(2, 2, 3)
    with pytest.raises(ValueError, match=r"position \[1, 0\] has a negative heap"):
        batch.nim_sum(cube)


def test_bad_outputs_and_rules():
    heaps = np.ones((5, 3), dtype=np.uint8)
    with pytest.raises(TypeError, match="out must be a numpy array of dtype bool, got int64"):
        batch.is_p_position(heaps, out=np.empty(5, dtype=np.int64))
    with pytest.raises(
        ValueError, match=r"out has shape \[4\], but the positions have shape \[5\]"
    ):
        batch.nim_sum(heaps, out=np.empty(4, dtype=np.uint64))
    frozen = np.empty(5, dtype=np.uint64)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="out cannot be written"):
        batch.nim_sum(heaps, out=frozen)
    shared = np.lib.stride_tricks.as_strided(
        np.empty(1, dtype=np.uint64), shape=(5,), strides=(0,), writeable=True
    )
    with pytest.raises(ValueError, match="out has elements that share memory"):
        batch.nim_sum(heaps, out=shared)
    empty = np.empty((2, 0, 3), dtype=np.uint8)
    assert batch.nim_sum(empty).shape == (2, 0)
    assert batch.winning_move(empty)[0].shape == (2, 0)
    with pytest.raises(ValueError, match=r"out has shape \[0\], but the positions have shape"):
        batch.nim_sum(empty, out=np.empty(0, dtype=np.uint64))
    with pytest.raises(ValueError, match="2 per-heap take limits given for 3 heaps"):
        batch.nim_sum(heaps, nk.Rules(max_take=(1, 2)))


def test_pad_makes_ragged_rows_rectangular():
    padded = batch.pad([[1, 2, 3], [4], []])
    np.testing.assert_array_equal(padded, [[1, 2, 3], [4, 0, 0], [0, 0, 0]])
    assert padded.dtype == np.uint64
    assert batch.pad([[1], [2, 3]], dtype=np.uint8).dtype == np.uint8
    rows = [[3, 4, 5], [1, 2], [7]]
    for rules in [nk.Rules(), nk.Rules(misere=True)]:
        expected = [nk.Position(r).outcome(rules) is nk.Outcome.P for r in rows]
        np.testing.assert_array_equal(batch.is_p_position(batch.pad(rows), rules), expected)
    with pytest.raises(ValueError, match="row 1: heap 0 must not be negative"):
        batch.pad([[1], [-1]])
    with pytest.raises(TypeError, match="row 0: heap 1 must be an integer, not float"):
        batch.pad([[1, 2.5]])
    with pytest.raises(OverflowError, match="row 0: heap 300 does not fit in uint8"):
        batch.pad([[300]], dtype=np.uint8)
    with pytest.raises(TypeError, match="integer dtype"):
        batch.pad([[1]], dtype=float)


# --- P-position tables and counts --------------------------------------------------


@pytest.mark.parametrize("rules", [*RULES, nk.Rules(max_take=(2, 5, None))], ids=repr)
@pytest.mark.parametrize("bounds", [(5, 7, 3), (0, 9, 9), (12, 1, 6)])
def test_tables_match_filtering_the_box(bounds, rules):
    box = np.array(list(itertools.product(*(range(b + 1) for b in bounds))), dtype=np.uint64)
    expected = box[batch.is_p_position(box, rules)]
    table = nk.p_positions(bounds, rules)
    assert table.dtype == np.uint64
    np.testing.assert_array_equal(table, expected)
    assert nk.count_p_positions(bounds, rules) == len(expected)


def test_tables_with_one_bound_for_all_heaps():
    np.testing.assert_array_equal(nk.p_positions(3, n_heaps=2), [[0, 0], [1, 1], [2, 2], [3, 3]])
    assert nk.count_p_positions(2**60 - 1, n_heaps=10) == 2 ** (60 * 9)
    assert nk.count_p_positions([], nk.Rules()) == 1
    assert nk.count_p_positions([], nk.Rules(misere=True)) == 0
    assert nk.p_positions([], nk.Rules()).shape == (1, 0)
    # Bounds as a numpy array, and a numpy integer as the single bound.
    np.testing.assert_array_equal(nk.p_positions(np.array([3, 3])), nk.p_positions([3, 3]))
    assert nk.count_p_positions(np.uint64(3), n_heaps=3) == 16


def test_counts_of_huge_boxes_are_exact_and_instant():
    bound = 10**18
    for rules in [
        nk.Rules(),
        nk.Rules(misere=True),
        nk.Rules(max_take=7),
        nk.Rules(misere=True, max_take=(3,) * 10),
    ]:
        count = nk.count_p_positions(bound, rules, n_heaps=10)
        assert 0 < count < (bound + 1) ** 10


def test_table_errors():
    with pytest.raises(TypeError, match="give n_heaps"):
        nk.p_positions(5)
    with pytest.raises(ValueError, match="n_heaps=3 but 2 bounds"):
        nk.count_p_positions([1, 2], n_heaps=3)
    with pytest.raises(ValueError, match="bound 1 must not be negative"):
        nk.count_p_positions([1, -2])
    with pytest.raises(ValueError, match="more than max_rows=10"):
        nk.p_positions(100, n_heaps=2, max_rows=10)


def test_results_do_not_depend_on_the_thread_count():
    script = (
        "import numpy as np, nimkit as nk; from nimkit import batch; "
        "h = np.random.default_rng(5).integers(0, 9, size=(200_000, 5), dtype=np.int16); "
        "r = nk.Rules(misere=True, max_take=(1, 2, None, 4, 8)); "
        "print(batch.is_p_position(h, r).sum(), batch.nim_sum(h, r).sum(), "
        "batch.winning_move(h, r)[1].sum(), batch.count_winning_moves(h, r).sum())"
    )
    outputs = set()
    for threads in ("1", "2", "7"):
        env = {**os.environ, "RAYON_NUM_THREADS": threads}
        result = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_results_do_not_depend_on_the_vector_path():
    """NIMKIT_SIMD forces the batch kernels' paths too: AVX-512 remainders of wide
    heaps, AVX2 copies, portable code. Every path gives the default path's results
    (which the tests above check against the reference), on heaps on both sides of
    2^52, where the AVX-512 remainders hand over to the scalar ones. The learning
    boards' labels likewise."""
    script = """
import hashlib, numpy as np, nimkit as nk
from nimkit import batch, rl
rng = np.random.default_rng(11)
digest = hashlib.sha256()
for dtype in (np.uint8, np.uint16, np.uint32, np.uint64, np.int64):
    top = np.iinfo(dtype).max
    h = rng.integers(0, top, size=(3000, 4), dtype=dtype, endpoint=True)
    h[:1000] %= dtype(50)
    if np.iinfo(dtype).bits == 64:
        h[1000:2000] >>= dtype(10)  # around 2**52
    for rules in (nk.Rules(max_take=4), nk.Rules(misere=True, max_take=1),
                  nk.Rules(max_take=(3, None, 6, 1000)), nk.Rules(max_take=2**40), nk.Rules()):
        for f in (batch.is_p_position, batch.nim_sum, batch.count_winning_moves):
            digest.update(np.ascontiguousarray(f(h, rules)).tobytes())
        for part in batch.winning_move(h, rules):
            digest.update(part.tobytes())
# The learning boards' labels (legal actions by a byte shuffle under AVX2).
for heaps, rules in (([1, 3, 5, 7, 9, 11, 13], nk.Rules()), ([3, 9, 4, 6], nk.Rules(max_take=3)),
                     ([2, 5, 8], nk.Rules(misere=True)), ([20] * 17, nk.Rules())):
    sizes = rng.integers(0, np.array(heaps) + 1, size=(500, len(heaps)))
    for label in rl.labels(sizes, heaps, rules=rules).values():
        digest.update(label.tobytes())
print(digest.hexdigest())
"""
    outputs = {}
    for path in ("default", "avx512", "avx2", "scalar"):
        env = {k: v for k, v in os.environ.items() if k != "NIMKIT_SIMD"}
        if path != "default":
            env["NIMKIT_SIMD"] = path
        result = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        outputs[path] = result.stdout
    assert len(set(outputs.values())) == 1, outputs
