"""Grundy-sequence runs that survive a restart (nimkit.checkpoint): a killed run
resumes and gives the same values and SHA-256 as an uninterrupted one."""

from __future__ import annotations

import hashlib
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import nimkit as nk
from nimkit.checkpoint import read
from nimkit.cli import main

from .children import RESTORE_SIGINT


def sha256(values: np.ndarray) -> str:
    return hashlib.sha256(values.astype("<u4").tobytes()).hexdigest()


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path):
    first = nk.TakeAndBreak("0.6").grundy_sequence(5000, checkpoint=tmp_path, every=0)
    assert read(tmp_path)["count"] == 5000
    resumed = nk.TakeAndBreak("0.6").grundy_sequence(9000, checkpoint=tmp_path, every=0)
    fresh = nk.TakeAndBreak("0.6").recompute(9000, "naive")
    assert np.array_equal(resumed, fresh)
    assert np.array_equal(first, fresh[:5000])
    assert read(tmp_path) == {"format": 1, "code": "0.6", "count": 9000, "sha256": sha256(fresh)}
    stored = np.memmap(tmp_path / "values.u32", dtype="<u4", mode="r")
    assert np.array_equal(stored, fresh)


def test_a_partial_step_past_the_checkpoint_is_ignored(tmp_path):
    nk.TakeAndBreak("0.16").grundy_sequence(3000, checkpoint=tmp_path)
    with open(tmp_path / "values.u32", "ab") as f:
        f.write(b"\xff" * 4000)  # a killed run's half-written step
    resumed = nk.TakeAndBreak("0.16").grundy_sequence(4000, checkpoint=tmp_path)
    assert np.array_equal(resumed, nk.TakeAndBreak("0.16").recompute(4000, "naive"))
    assert (tmp_path / "values.u32").stat().st_size == 4 * 4000


def test_another_codes_checkpoint_is_refused(tmp_path):
    nk.TakeAndBreak("0.6").grundy_sequence(100, checkpoint=tmp_path)
    with pytest.raises(ValueError, match=r"is of code 0\.6, not 0\.7"):
        nk.TakeAndBreak("0.7").grundy_sequence(200, checkpoint=tmp_path)


def test_damaged_checkpoints_are_refused(tmp_path):
    nk.TakeAndBreak("0.6").grundy_sequence(100, checkpoint=tmp_path)
    values = tmp_path / "values.u32"
    data = bytearray(values.read_bytes())
    data[40] ^= 1
    values.write_bytes(bytes(data))
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
        "format": 1,
        "code": "0.6",
        "count": count,
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
    rule = nk.TakeAndBreak("0.6")
    values = rule.grundy_sequence(5000, checkpoint=tmp_path, every=0)
    stored = tmp_path / "values.u32"
    assert rule.values_file == stored.resolve()
    assert isinstance(values, np.memmap)
    assert values.dtype == np.dtype("<u4")
    # The rule goes on computing into the file, past what the checkpoint vouches for
    # (and past 7000 if this process knew more of 0.6 before).
    assert rule.compute(7000) == rule.known >= 7000
    rule.flush_values(0, 7000)
    fresh = rule.recompute(7000, "naive")
    assert np.array_equal(np.fromfile(stored, dtype="<u4")[:7000], fresh)
    assert read(tmp_path)["count"] == 5000


def test_a_period_fills_the_file(tmp_path):
    # 0.17's period is proven within 256 heaps; the file still holds every value asked.
    rule = nk.TakeAndBreak("0.17")
    path = tmp_path / "values.u32"
    rule.keep_values_in(path)
    assert rule.compute(10_000) >= 10_000  # more if this process knew more before
    assert rule.period() == (33, 34)
    rule.flush_values(0, 10_000)
    stored = np.fromfile(path, dtype="<u4")
    assert np.array_equal(stored[:10_000], rule.recompute(10_000, "naive"))


def test_keep_values_in_refuses_what_it_cannot_use(tmp_path):
    rule = nk.TakeAndBreak("0.6")
    short = tmp_path / "short.u32"
    short.write_bytes(np.arange(2, dtype="<u4").tobytes())
    with pytest.raises(OSError, match="holds 2 values, not 10"):
        rule.keep_values_in(short, 10)
    with pytest.raises(OSError, match=str(tmp_path.name)):
        rule.keep_values_in(tmp_path, 0)  # a directory
    other = tmp_path / "other.u32"
    other.write_bytes(nk.TakeAndBreak("0.7").grundy_sequence(50).astype("<u4").tobytes())
    with pytest.raises(ValueError, match="heap 1 differs from the definition"):
        rule.keep_values_in(other, 50)
    assert rule.values_file is None  # still in memory


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_values_past_memory_go_to_the_file(tmp_path):
    # 2**22 values are 16 MiB of uint32: computed into the mapped file, they grow the
    # file-backed pages, not the anonymous memory (what a run past memory would lack).
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
            f"rule.grundy_sequence(2**22, checkpoint={str(tmp_path)!r}, every=3600)",
            "print(anon() - before, rule.known)",
        ]
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    grown, known = map(int, out.stdout.split())
    assert known == 2**22
    assert grown < 4 * 2**20  # a quarter of the values' size
    stored = np.fromfile(tmp_path / "values.u32", dtype="<u4")
    assert np.array_equal(stored, nk.TakeAndBreak("0.16").recompute(2**22, "auto"))
