"""Grundy-sequence runs that survive a restart.

``TakeAndBreak(code).grundy_sequence(count, checkpoint="dir/")`` (and ``nimkit grundy
CODE --count N --checkpoint dir/``) computes into ``dir/values.u32`` (little-endian
uint32, heap 0 first, memory-mapped: values past memory go to the disk, see
``TakeAndBreak.keep_values_in``) in steps of about ``every`` seconds and, after
each, flushes the new values to disk and replaces ``dir/checkpoint.json`` (the code,
how many values are good and their SHA-256) atomically: written to a temporary file,
flushed to disk, renamed over the old one. A run killed at any moment leaves the
last checkpoint whole; the values file may hold a partial step past it, which is
ignored and overwritten. A run with the same directory checks the SHA-256 and
resumes from the values; a checkpoint of another code, or damaged, is refused with
a ValueError naming it. Ctrl-C checkpoints the values computed so far before it
stops the run. ``values(dir)`` reads them, memory-mapped.

>>> import tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     first = nk.TakeAndBreak("0.6").grundy_sequence(5000, checkpoint=d, every=0)
...     again = nk.TakeAndBreak("0.6").grundy_sequence(6000, checkpoint=d)  # resumes
...     read(d)["count"], int(values(d).max()), type(again).__name__
(6000, 168, 'memmap')
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ._core import TakeAndBreak

FORMAT = 1
VALUES = "values.u32"
META = "checkpoint.json"
# The first step; steps then double or halve towards `every` seconds.
FIRST_STEP = 1 << 12
MOST_STEP = 1 << 26
# Values hashed at a time (a run past memory is read a piece at a time).
HASHED = 1 << 24


def read(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The checkpoint in ``directory``: ``{"format", "code", "count", "sha256"}``
    (count 0 and no code when there is none). ValueError when it cannot be read."""
    path = Path(directory) / META
    if not path.exists():
        return {"format": FORMAT, "code": None, "count": 0, "sha256": hashlib.sha256().hexdigest()}
    try:
        meta = json.loads(path.read_text())
        if meta["format"] != FORMAT or not isinstance(meta["count"], int):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{path} is not a nimkit checkpoint (damaged?)") from None
    return dict(meta)


def run(
    rule: TakeAndBreak,
    count: int,
    progress: bool,
    directory: str | os.PathLike[str],
    every: float = 180.0,
) -> None:
    """Compute ``rule``'s first ``count`` values, checkpointing in ``directory`` about
    every ``every`` seconds and resuming from what it holds."""
    if not every >= 0:
        raise ValueError(f"every is a number of seconds, at least 0, not {every}")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    digest, known = _resume(rule, folder)
    step = FIRST_STEP
    try:
        while known < count:
            target = min(count, known + step)
            start = time.monotonic()
            rule.compute(target, progress)
            digest = _commit(rule, folder, digest, known, target)
            known = target
            elapsed = time.monotonic() - start
            if elapsed < every / 2:
                step = min(step * 2, MOST_STEP)
            elif elapsed > every * 2:
                step = max(step // 2, FIRST_STEP)
    except KeyboardInterrupt:
        # The rule keeps what it computed: checkpoint that before stopping.
        reached = min(rule.known, count)
        if reached > known:
            _commit(rule, folder, digest, known, reached)
        raise


def values(directory: str | os.PathLike[str], count: int | None = None) -> np.memmap:
    """The first ``count`` values of the checkpoint in ``directory`` (default: all it
    vouches for), memory-mapped read-only as uint32."""
    if count is None:
        count = read(directory)["count"]
    return np.memmap(Path(directory) / VALUES, dtype="<u4", mode="r", shape=(count,))


def _commit(rule: TakeAndBreak, folder: Path, digest: Any, known: int, count: int) -> Any:
    """Vouch for the first ``count`` values in ``folder`` (those past ``known`` are
    new): flushed to disk, then described; the new running SHA-256 (``digest`` is
    left as it was, for a commit cut short)."""
    path = folder / VALUES
    if rule.values_file is None or not path.samefile(rule.values_file):
        raise ValueError(
            f"the values of {rule.code} moved from {path} to {rule.values_file} "
            "(another checkpointed run of the same code in this process?)"
        )
    rule.flush_values(known, count)
    digest = digest.copy()
    _hash(digest, path, known, count)
    meta = {"format": FORMAT, "code": rule.code, "count": count, "sha256": digest.hexdigest()}
    _write_meta(folder, meta)
    return digest


def _hash(digest: Any, path: Path, start: int, stop: int) -> None:
    """Feed the values of heaps ``start .. stop - 1`` in ``path`` to ``digest``."""
    if stop <= start:
        return
    stored = np.memmap(path, dtype="<u4", mode="r", offset=4 * start, shape=(stop - start,))
    for at in range(0, len(stored), HASHED):
        digest.update(stored[at : at + HASHED])


def _resume(rule: TakeAndBreak, folder: Path) -> tuple[Any, int]:
    """Check the checkpoint in ``folder`` and hand its values to ``rule``; the running
    SHA-256 and the count."""
    meta = read(folder)
    count = meta["count"]
    path = folder / VALUES
    digest = hashlib.sha256()
    if count > 0:
        if meta["code"] != rule.code:
            raise ValueError(
                f"the checkpoint in {folder} is of code {meta['code']}, not {rule.code}"
            )
        held = path.stat().st_size // 4 if path.exists() else 0
        if held >= count:
            _hash(digest, path, 0, count)
        if held < count or digest.hexdigest() != meta["sha256"]:
            raise ValueError(f"the checkpoint in {folder} is damaged: its values' SHA-256 differs")
    rule.keep_values_in(path, count)
    return digest, count


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Replace the checkpoint's description atomically."""
    temporary = folder / (META + ".tmp")
    with open(temporary, "w") as f:
        json.dump(meta, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, folder / META)
    if hasattr(os, "O_DIRECTORY"):
        descriptor = os.open(folder, os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
