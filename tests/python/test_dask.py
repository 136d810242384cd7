"""nimkit.dask on a real distributed cluster of worker processes on 127.0.0.1."""

from __future__ import annotations

import numpy as np
import pytest

import nimkit as nk
from nimkit import batch

from .reference import classification

da = pytest.importorskip("dask.array", reason="the dask extra is not installed")
distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
import nimkit.dask as nkd  # noqa: E402

# Under pytest -n auto, one worker runs this module: one local cluster serves every test.
pytestmark = pytest.mark.xdist_group("dask_cluster")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


RULES = [nk.Rules(), nk.Rules(misere=True), nk.Rules(max_take=(3, None, 5, 2))]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_batch_functions_on_the_cluster(client, rules):
    heaps = np.random.default_rng(1).integers(0, 60, size=(6, 1000, 4), dtype=np.int32)
    lazy = da.from_array(heaps, chunks=(2, 300, 2))  # the heap axis is split on purpose
    assert isinstance(nkd.nim_sum(lazy, rules), da.Array)
    np.testing.assert_array_equal(nkd.nim_sum(lazy, rules).compute(), batch.nim_sum(heaps, rules))
    np.testing.assert_array_equal(
        nkd.is_p_position(lazy, rules).compute(), batch.is_p_position(heaps, rules)
    )
    np.testing.assert_array_equal(
        nkd.count_winning_moves(lazy, rules).compute(), batch.count_winning_moves(heaps, rules)
    )
    heap, take = nkd.winning_move(lazy, rules)
    want_heap, want_take = batch.winning_move(heaps, rules)
    np.testing.assert_array_equal(heap.compute(), want_heap)
    np.testing.assert_array_equal(take.compute(), want_take)


@pytest.mark.parametrize("what", ["p", "nim-sum", "winning-move"])
def test_classify_a_file_on_the_cluster(client, tmp_path, what):
    heaps = np.random.default_rng(2).integers(0, 1000, size=(50_000, 3), dtype=np.uint16)
    source, target = tmp_path / "in.npy", tmp_path / "out.npy"
    np.save(source, heaps)
    rules = nk.Rules(misere=True, max_take=9)
    nkd.classify_npy(source, target, rules, what, chunk=7_000)  # 8 blocks, the last short
    out = np.load(target)
    np.testing.assert_array_equal(out, classification(heaps, rules, what))
    assert not list(tmp_path.glob("*.partial"))


def test_relative_paths_reach_workers_in_other_directories(client, tmp_path, monkeypatch):
    # Workers run in their own directories: a name relative to ours must still work.
    monkeypatch.chdir(tmp_path)
    np.save("positions.npy", np.array([[1, 2, 3], [1, 1, 1]], dtype=np.uint8))
    nkd.classify_npy("positions.npy", "p.npy", nk.Rules(), what="p", chunk=1)
    np.testing.assert_array_equal(np.load("p.npy"), [True, False])


def test_classify_errors(client, tmp_path):
    source = tmp_path / "in.npy"
    np.save(source, np.ones((10, 3), dtype=np.int8) * -1)
    with pytest.raises(ValueError, match="negative heap"):
        nkd.classify_npy(source, tmp_path / "out.npy")
    assert not list(tmp_path.glob("out.npy*"))
    with pytest.raises(ValueError, match="what must be one of"):
        nkd.classify_npy(source, tmp_path / "out.npy", what="everything")
    np.save(source, np.ones(10, dtype=np.int8))
    with pytest.raises(ValueError, match="holds a 1-D array"):
        nkd.classify_npy(source, tmp_path / "out.npy")
