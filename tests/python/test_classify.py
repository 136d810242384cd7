"""``nimkit classify``: files in, files out, in chunks."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import nimkit as nk
from nimkit._classify import classify_file

from .reference import classification


def run(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "nimkit", "classify", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


@pytest.fixture
def positions(tmp_path):
    heaps = np.random.default_rng(3).integers(0, 40, size=(1000, 4), dtype=np.uint16)
    path = tmp_path / "positions.npy"
    np.save(path, heaps)
    return path, heaps


@pytest.mark.parametrize("what", ["p", "nim-sum", "winning-move"])
def test_npy_to_npy(positions, tmp_path, what):
    path, heaps = positions
    target = tmp_path / "out.npy"
    result = run(str(path), "-o", str(target), "--misere", "--max-take", "5", "--what", what)
    assert result.returncode == 0, result.stderr
    out = np.load(target)
    rules = nk.Rules(misere=True, max_take=5)
    np.testing.assert_array_equal(out, classification(heaps, rules, what))
    assert not list(tmp_path.glob("*.partial"))


def test_chunks_and_progress_bar(positions, tmp_path, capsys):
    path, heaps = positions
    target = tmp_path / "out.npy"
    count = classify_file(path, target, nk.Rules(), "nim-sum", chunk=64, progress=True)
    assert count == len(heaps)
    np.testing.assert_array_equal(np.load(target), np.bitwise_xor.reduce(heaps, axis=1))
    assert "classify" in capsys.readouterr().err


def test_a_failed_run_leaves_no_output(positions, tmp_path):
    path, _ = positions
    target = tmp_path / "out.npy"
    with pytest.raises(ValueError, match="2 per-heap take limits given for 4 heaps"):
        classify_file(path, target, nk.Rules(max_take=(1, 2)), "p", chunk=64)
    assert not target.exists()
    assert not list(tmp_path.glob("*.partial"))


def test_text_output_is_written_in_chunks_and_renamed_when_complete(
    positions, tmp_path, monkeypatch
):
    path, heaps = positions
    target = tmp_path / "out.txt"
    classify_file(path, target, nk.Rules(), "nim-sum", chunk=64)
    expected = np.bitwise_xor.reduce(heaps, axis=1)
    np.testing.assert_array_equal(np.loadtxt(target, dtype=np.uint64), expected)
    # A run stopped after some chunks (Ctrl-C here) leaves the old output as it was.
    from nimkit import _classify

    calls = []
    real = _classify.classify_chunk

    def stop_at_the_third(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(*args)

    monkeypatch.setattr(_classify, "classify_chunk", stop_at_the_third)
    before = target.read_text()
    with pytest.raises(KeyboardInterrupt):
        classify_file(path, target, nk.Rules(), "p", chunk=64)
    assert target.read_text() == before
    assert not list(tmp_path.glob("*.partial"))


def test_text_input_with_ragged_rows_and_text_output(tmp_path):
    source = tmp_path / "positions.csv"
    source.write_text("1 3 5 7\n3,4,5\n\n# a comment\n2 2  # trailing comment\n")
    result = run(str(source), "--misere")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "0", "1"]
    result = run(str(source), "--what", "winning-move")
    assert result.stdout.splitlines() == ["-1 0", "0 2", "-1 0"]
    target = tmp_path / "out.txt"
    assert run(str(source), "--what", "nim-sum", "-o", str(target)).returncode == 0
    assert target.read_text().split() == ["0", "2", "0"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1 2\n1 x\n", "line 2: not whole numbers: '1 x'"),
        ("1 2\n1 -2\n", "line 2: heap 1 must not be negative, got -2"),
        ("1, 18446744073709551616\n", "line 1: heap 1 is over 2**64 - 1"),
    ],
)
def test_bad_text_files(tmp_path, content, message):
    source = tmp_path / "bad.txt"
    source.write_text(content)
    result = run(str(source))
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1


def test_standard_input_and_output(tmp_path):
    command = [sys.executable, "-m", "nimkit", "classify", "-", "-o", "-", "--what", "nim-sum"]
    result = subprocess.run(
        command, input="1 2\n# c\n3\n", capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "3"]


def test_text_is_read_in_chunks_into_any_output(tmp_path):
    # Blocks of 7 lines: a block of comments only, ragged blocks, rectangular ones
    # (numpy's reader) and line numbers counted across blocks.
    rng = np.random.default_rng(5)
    heaps = rng.integers(0, 50, size=(100, 3))
    lines = [" ".join(map(str, row)) for row in heaps]
    lines[3] = lines[3] + " 0"  # a ragged row: the extra heap is empty
    lines = ["# header", *["# more"] * 7, *lines]
    source = tmp_path / "positions.txt"
    source.write_text("\n".join(lines) + "\n")
    rules = nk.Rules(max_take=4)
    for what in ["p", "nim-sum", "winning-move"]:
        for target in [tmp_path / "out.npy", tmp_path / "out.txt"]:
            count = classify_file(source, target, rules, what, chunk=7)
            assert count == 100
            want = classification(heaps, rules, what)
            if target.suffix == ".npy":
                np.testing.assert_array_equal(np.load(target), want)
            elif what == "winning-move":
                got = np.loadtxt(target, dtype=np.int64)
                np.testing.assert_array_equal(got[:, 0], want["heap"])
                np.testing.assert_array_equal(got[:, 1], want["take"])
            else:
                np.testing.assert_array_equal(np.loadtxt(target, dtype=np.uint64), want)
    assert not list(tmp_path.glob("*.partial"))
    source.write_text("\n".join([*lines, "1 x"]) + "\n")
    with pytest.raises(ValueError, match="line 109: not whole numbers: '1 x'"):
        classify_file(source, tmp_path / "bad.npy", rules, "p", chunk=7)
    assert not (tmp_path / "bad.npy").exists()


def test_a_closed_pipe_ends_quietly(tmp_path):
    # About 1.2 MB of output, far more than a pipe holds (64 KiB on Linux): the
    # writer is still writing when `head` goes away, whatever the timing.
    path = tmp_path / "many.npy"
    np.save(path, np.random.default_rng(4).integers(0, 40, size=(200_000, 4), dtype=np.uint8))
    command = f"{sys.executable} -m nimkit classify {path} --chunk 1000 --no-progress | head -n 2"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.count("\n") == 2
    assert result.stderr == ""
    assert result.returncode == 141  # as if killed by SIGPIPE, like other Unix tools


def _damaged_files(tmp_path):
    """Every shape of bad input file we could think of, and what the error must say."""
    good = tmp_path / "good.npy"
    np.save(good, np.arange(12, dtype=np.uint16).reshape(6, 2))
    data = good.read_bytes()
    files = {
        "zip.npy": (b"PK\x03\x04" + b"\0" * 40, "is a zip archive"),
        "empty.npy": (b"", "is empty"),
        "text.npy": (b"1 2 3\n4 5 6\n", "not a .npy file"),
        "short-magic.npy": (data[:4], "not a .npy file"),
        "short-header.npy": (data[:20], "damaged .npy header"),
        "broken-header.npy": (data[:10] + b"{'descr': <junk" + data[25:], "damaged .npy header"),
        "truncated.npy": (data[:-5], "is truncated"),
        "version9.npy": (data[:6] + b"\x09\x00" + data[8:], "damaged .npy header"),
        "binary.txt": (bytes(range(128, 256)) * 4, "is not text"),
    }
    for name, (content, _) in files.items():
        (tmp_path / name).write_bytes(content)
    arrays = {
        "floats.npy": (np.zeros((3, 2)), "float64 values"),
        "objects.npy": (np.array([[1, None]], dtype=object), "object values"),
        "strings.npy": (np.array([["1", "2"]]), "<U1 values"),
        "flat.npy": (np.arange(5), "1-D array"),
        "cube.npy": (np.zeros((2, 2, 2), dtype=np.uint8), "3-D array"),
    }
    for name, (array, _) in arrays.items():
        np.save(tmp_path / name, array, allow_pickle=True)
    npz = tmp_path / "archive.npz"
    np.savez(npz, heaps=np.arange(4).reshape(2, 2))
    expected = {name: message for name, (_, message) in {**files, **arrays}.items()}
    expected["archive.npz"] = "is not text"
    expected["."] = "Is a directory"
    expected["missing.npy"] = "No such file"
    return expected


def test_no_input_file_gives_a_traceback(tmp_path):
    for name, message in _damaged_files(tmp_path).items():
        result = run(str(tmp_path / name))
        assert result.returncode == 2, (name, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (name, result.stderr)
        assert lines[0].startswith("nimkit classify: error:"), (name, lines[0])
        assert message in lines[0], (name, lines[0])


def test_fortran_order_and_signed_input_are_read_right(tmp_path):
    heaps = np.asfortranarray(np.random.default_rng(5).integers(0, 30, size=(50, 3)))
    path = tmp_path / "fortran.npy"
    np.save(path, heaps)
    target = tmp_path / "out.npy"
    result = run(str(path), "-o", str(target), "--what", "nim-sum")
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(np.load(target), np.bitwise_xor.reduce(heaps, axis=1))


def test_bad_npy_files(tmp_path):
    missing = run(str(tmp_path / "missing.npy"))
    assert missing.returncode == 2
    assert "No such file" in missing.stderr
    flat = tmp_path / "flat.npy"
    np.save(flat, np.arange(5))
    result = run(str(flat))
    assert result.returncode == 2
    assert "holds a 1-D array; expected positions x heaps" in result.stderr
    floats = tmp_path / "floats.npy"
    np.save(floats, np.zeros((3, 2)))
    result = run(str(floats))
    assert result.returncode == 2
    assert "holds float64 values" in result.stderr
