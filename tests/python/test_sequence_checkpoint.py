"""Grundy-sequence runs that survive a restart (nimkit.sequence_checkpoint): a killed run
resumes and gives the same values and SHA-256 as an uninterrupted one."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import nimkit as nk
from nimkit.cli import main
from nimkit.sequence_checkpoint import read, values

from .children import RESTORE_SIGINT


def sha256(values: np.ndarray) -> str:
    return hashlib.sha256(values.astype("<u4").tobytes()).hexdigest()


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path):
    first = nk.TakeAndBreak("0.6").grundy_sequence(5000, checkpoint=tmp_path, every=0)
    assert read(tmp_path)["count"] == 5000
    # 0.6's values pass 255 at heap 10344: the run moves to uint16 on the way.
    resumed = nk.TakeAndBreak("0.6").grundy_sequence(12000, checkpoint=tmp_path, every=0)
    fresh = nk.TakeAndBreak("0.6").recompute(12000, "naive")
    assert np.array_equal(resumed, fresh)
    assert resumed.dtype == np.dtype("<u2")
    assert np.array_equal(first, fresh[:5000])
    assert read(tmp_path) == {
        "format": 2,
        "code": "0.6",
        "count": 12000,
        "dtype": "uint16",
        "sha256": sha256(fresh),
    }
    stored = np.fromfile(tmp_path / "values.u16", dtype="<u2")
    assert np.array_equal(stored, fresh)
    assert np.array_equal(values(tmp_path), fresh)
    assert values(tmp_path, 100).dtype == np.dtype("<u2")
    # The narrower file is gone once the wider one is vouched for.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint.json", "values.u16"]


def write_checkpoint(folder, code, stored, name, meta):
    """A checkpoint written by hand: ``stored`` in ``folder / name``, ``meta`` with the
    code, the count and the SHA-256 of the values added."""
    (folder / name).write_bytes(stored.tobytes())
    meta = {**meta, "code": code, "count": len(stored), "sha256": sha256(stored)}
    (folder / "checkpoint.json").write_text(json.dumps(meta))


def test_a_run_killed_as_it_widened_resumes_from_the_narrower_file(tmp_path):
    fresh = nk.TakeAndBreak("0.6").recompute(12000, "naive")
    meta = {"format": 2, "dtype": "uint8"}
    write_checkpoint(tmp_path, "0.6", fresh[:6000].astype("<u1"), "values.u8", meta)
    # The wider file a killed run had begun, not yet vouched for.
    (tmp_path / "values.u16").write_bytes(b"\xff" * 30000)
    resumed = nk.TakeAndBreak("0.6").grundy_sequence(12000, checkpoint=tmp_path)
    assert np.array_equal(resumed, fresh)
    assert read(tmp_path)["dtype"] == "uint16"
    assert read(tmp_path)["sha256"] == sha256(fresh)
    assert np.array_equal(np.fromfile(tmp_path / "values.u16", dtype="<u2"), fresh)
    assert not (tmp_path / "values.u8").exists()


def test_a_first_format_checkpoint_resumes_in_uint32(tmp_path):
    # Format 1 kept every value as uint32 in values.u32 and had no dtype.
    fresh = nk.TakeAndBreak("0.6").recompute(4000, "naive")
    write_checkpoint(tmp_path, "0.6", fresh[:3000].astype("<u4"), "values.u32", {"format": 1})
    resumed = nk.TakeAndBreak("0.6").grundy_sequence(4000, checkpoint=tmp_path)
    assert np.array_equal(resumed, fresh)
    assert resumed.dtype == np.dtype("<u4")
    meta = read(tmp_path)
    assert (meta["format"], meta["dtype"], meta["sha256"]) == (2, "uint32", sha256(fresh))


def test_a_partial_step_past_the_checkpoint_is_ignored(tmp_path):
    nk.TakeAndBreak("0.16").grundy_sequence(3000, checkpoint=tmp_path)
    # 0.16's values stay below 256: a byte each.
    assert read(tmp_path)["dtype"] == "uint8"
    with open(tmp_path / "values.u8", "ab") as f:
        f.write(b"\xff" * 4000)  # a killed run's half-written step
    resumed = nk.TakeAndBreak("0.16").grundy_sequence(4000, checkpoint=tmp_path)
    assert np.array_equal(resumed, nk.TakeAndBreak("0.16").recompute(4000, "naive"))
    assert (tmp_path / "values.u8").stat().st_size == 4000


def test_another_codes_checkpoint_is_refused(tmp_path):
    nk.TakeAndBreak("0.6").grundy_sequence(100, checkpoint=tmp_path)
    with pytest.raises(ValueError, match=r"is of code 0\.6, not 0\.7"):
        nk.TakeAndBreak("0.7").grundy_sequence(200, checkpoint=tmp_path)


def test_damaged_checkpoints_are_refused(tmp_path):
    nk.TakeAndBreak("0.6").grundy_sequence(100, checkpoint=tmp_path)
    kept = tmp_path / "values.u8"  # unless this process knew 0.6 past heap 10343
    if not kept.exists():
        kept = tmp_path / "values.u16"
    data = bytearray(kept.read_bytes())
    data[40] ^= 1
    kept.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="damaged"):
        nk.TakeAndBreak("0.6").grundy_sequence(200, checkpoint=tmp_path)
    (tmp_path / "checkpoint.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a nimkit checkpoint"):
        nk.TakeAndBreak("0.6").grundy_sequence(200, checkpoint=tmp_path)


def test_resume_refuses_values_of_another_code():
    values = nk.TakeAndBreak("0.7").grundy_sequence(50).astype(np.uint32)
    with pytest.raises(ValueError, match="heap 1 differs from the definition"):
        nk.TakeAndBreak("0.6").resume(values)


def test_every_must_be_seconds(tmp_path):
    with pytest.raises(ValueError, match="every is a number of seconds"):
        nk.TakeAndBreak("0.6").grundy_sequence(10, checkpoint=tmp_path, every=-1)


def test_a_killed_run_resumes_to_the_same_sha256(tmp_path):
    count = 2**20
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nimkit",
            "grundy",
            "0.6",
            "--count",
            str(count),
            "--checkpoint",
            str(tmp_path),
            "--every",
            "0",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        # Killed (SIGKILL: no chance to tidy up) once a few checkpoints are written.
        deadline = time.monotonic() + 300
        while read(tmp_path)["count"] < 2**15 and child.poll() is None:
            assert time.monotonic() < deadline, "no checkpoint was written"
            time.sleep(0.01)
    finally:
        child.kill()
        child.wait()
    assert read(tmp_path)["code"] == "0.6"
    assert main(["grundy", "0.6", "--count", str(count), "--checkpoint", str(tmp_path)]) == 0
    uninterrupted = nk.TakeAndBreak("0.6").grundy_sequence(count)
    assert read(tmp_path) == {
        "format": 2,
        "code": "0.6",
        "count": count,
        "dtype": "uint16",
        "sha256": sha256(uninterrupted),
    }


def test_cli_counts_may_be_powers(capsys):
    assert main(["grundy", "0.77", "--count", "2**3"]) == 0
    assert capsys.readouterr().out.split() == ["0", "1", "2", "3", "1", "4", "3", "2"]
    with pytest.raises(SystemExit):
        main(["grundy", "0.77", "--count", "2**-1"])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess")
def test_ctrl_c_checkpoints_the_step_under_way(tmp_path):
    # `every` is an hour, so the step under way at Ctrl-C is long; what it computed is
    # checkpointed before the KeyboardInterrupt goes on.
    script = "\n".join(
        [
            RESTORE_SIGINT,
            "import sys, nimkit as nk",
            "rule = nk.TakeAndBreak('0.6')",
            "print('ready', flush=True)",
            "try:",
            f"    rule.grundy_sequence(2**28, checkpoint={str(tmp_path)!r}, every=3600)",
            "except KeyboardInterrupt:",
            "    print(rule.known, flush=True)",
        ]
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "ready"
        # Steps of 4096 values, 8192, ... end at 4096 * (2**k - 1). Once 255 * 4096
        # are checkpointed, the step under way is 2**20 values (over a second of work
        # on any machine): half a second later, Ctrl-C lands inside it.
        deadline = time.monotonic() + 300
        while read(tmp_path)["count"] < 255 * 4096:
            assert time.monotonic() < deadline, "no checkpoint"
            assert child.poll() is None, "the run ended"
            time.sleep(0.01)
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    known = int(out.strip())
    meta = read(tmp_path)
    assert meta["count"] == known, err
    assert 255 * 4096 < known < 511 * 4096  # inside the step: its values were kept
    values = nk.TakeAndBreak("0.6").grundy_sequence(known)
    assert meta["sha256"] == sha256(values)


def test_a_checkpointed_run_computes_in_its_file(tmp_path):
    rule = nk.TakeAndBreak("0.16")
    first = rule.grundy_sequence(5000, checkpoint=tmp_path, every=0)
    stored = tmp_path / "values.u8"
    assert rule.values_file == stored.resolve()
    assert isinstance(first, np.memmap)
    assert first.dtype == np.dtype("u1")
    # The rule goes on computing into the file, past what the checkpoint vouches for
    # (and past 7000 if this process knew more of 0.16 before).
    assert rule.compute(7000) == rule.known >= 7000
    rule.flush_values(0, 7000)
    fresh = rule.recompute(7000, "naive")
    assert np.array_equal(np.fromfile(stored, dtype="u1")[:7000], fresh)
    assert read(tmp_path)["count"] == 5000


def test_values_too_wide_for_the_file_move_to_a_wider_one(tmp_path):
    rule = nk.TakeAndBreak("0.6")
    narrow = tmp_path / "values.u8"
    rule.keep_values_in(narrow)
    assert rule.compute(12000) >= 12000
    wide = tmp_path / "values.u16"
    assert rule.values_file == wide.resolve()
    rule.flush_values(0, 12000)
    fresh = rule.recompute(12000, "naive")
    assert np.array_equal(np.fromfile(wide, dtype="<u2")[:12000], fresh)
    # The narrower file was left as it was: the values of the heaps below 10344 (or
    # none, when this process knew 0.6 that far before), the first past 255.
    left = np.fromfile(narrow, dtype="u1")[:10344]
    assert np.array_equal(left, fresh[: len(left)])


def test_a_period_fills_the_file(tmp_path):
    # 0.17's period is proven within 256 heaps; the file still holds every value asked.
    rule = nk.TakeAndBreak("0.17")
    path = tmp_path / "values.u8"
    rule.keep_values_in(path)
    assert rule.compute(10_000) >= 10_000  # more if this process knew more before
    assert rule.period() == (33, 34)
    rule.flush_values(0, 10_000)
    stored = np.fromfile(path, dtype="u1")
    assert np.array_equal(stored[:10_000], rule.recompute(10_000, "naive"))


def test_keep_values_in_refuses_what_it_cannot_use(tmp_path):
    rule = nk.TakeAndBreak("0.6")
    short = tmp_path / "short.u32"
    short.write_bytes(np.arange(2, dtype="<u4").tobytes())
    with pytest.raises(OSError, match="holds 2 values, not 10"):
        rule.keep_values_in(short, 10)
    folder = tmp_path / "folder.u32"
    folder.mkdir()
    with pytest.raises(OSError, match=r"folder\.u32"):
        rule.keep_values_in(folder, 0)
    with pytest.raises(ValueError, match=r"must end in \.u8, \.u16 or \.u32"):
        rule.keep_values_in(tmp_path / "values.bin", 0)
    other = tmp_path / "other.u32"
    other.write_bytes(nk.TakeAndBreak("0.7").grundy_sequence(50).astype("<u4").tobytes())
    with pytest.raises(ValueError, match="heap 1 differs from the definition"):
        rule.keep_values_in(other, 50)
    assert rule.values_file is None  # still in memory


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_values_past_memory_go_to_the_file(tmp_path):
    # 2**24 values of 0.16 are 16 MiB of uint8: computed into the mapped file, they
    # grow the file-backed pages, not the anonymous memory (what a run past memory
    # would lack).
    script = "\n".join(
        [
            "import sys, nimkit as nk",
            "def anon():",
            "    for line in open('/proc/self/status'):",
            "        if line.startswith('RssAnon:'):",
            "            return int(line.split()[1]) * 1024",
            "rule = nk.TakeAndBreak('0.16')",
            "rule.compute(1000)",
            "before = anon()",
            f"rule.grundy_sequence(2**24, checkpoint={str(tmp_path)!r}, every=3600)",
            "print(anon() - before, rule.known)",
        ]
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    grown, known = map(int, out.stdout.split())
    assert known == 2**24
    assert grown < 4 * 2**20  # a quarter of the values' size
    stored = np.fromfile(tmp_path / "values.u8", dtype="u1")
    assert np.array_equal(stored, nk.TakeAndBreak("0.16").recompute(2**24, "auto"))
