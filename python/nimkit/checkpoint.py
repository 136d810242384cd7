"""Grundy-sequence runs that survive a restart.

``TakeAndBreak(code).grundy_sequence(count, checkpoint="dir/")`` (and ``nimkit grundy
CODE --count N --checkpoint dir/``) computes in steps of about ``every`` seconds and,
after each, appends the new values to ``dir/values.u32`` (little-endian uint32, heap
0 first: ``np.memmap(path, "<u4", "r")`` reads it) and then replaces
``dir/checkpoint.json`` (the code, how many values are good and their SHA-256)
atomically: written to a temporary file, flushed to disk, renamed over the old one.
A run killed at any moment leaves the last checkpoint whole; the values file may
hold a partial step past it, which is ignored and overwritten. A run with the same
directory checks the SHA-256 and resumes from the values (``TakeAndBreak.resume``);
a checkpoint of another code, or damaged, is refused with a ValueError naming it.
Ctrl-C checkpoints the values computed so far before it stops the run.

>>> import tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     first = nk.TakeAndBreak("0.6").grundy_sequence(5000, checkpoint=d, every=0)
...     again = nk.TakeAndBreak("0.6").grundy_sequence(6000, checkpoint=d)  # resumes
...     read(d)["count"]
6000
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
            values = rule.grundy_sequence(target, progress)
            digest = _commit(rule, folder, digest, known, values)
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
            _commit(rule, folder, digest, known, rule.grundy_sequence(reached))
        raise


def _commit(rule: TakeAndBreak, folder: Path, digest: Any, known: int, values: np.ndarray) -> Any:
    """Append ``values[known:]`` to the checkpoint in ``folder`` and describe it; the
    new running SHA-256 (``digest`` is left as it was, for a commit cut short)."""
    new = np.ascontiguousarray(values[known:], dtype="<u4")
    _append(folder / VALUES, known, new)
    digest = digest.copy()
    digest.update(new.tobytes())
    meta = {"format": FORMAT, "code": rule.code, "count": len(values), "sha256": digest.hexdigest()}
    _write_meta(folder, meta)
    return digest


def _resume(rule: TakeAndBreak, folder: Path) -> tuple[Any, int]:
    """Check the checkpoint in ``folder`` and hand its values to ``rule``; the running
    SHA-256 and the count."""
    meta = read(folder)
    count = meta["count"]
    if count == 0:
        return hashlib.sha256(), 0
    if meta["code"] != rule.code:
        raise ValueError(f"the checkpoint in {folder} is of code {meta['code']}, not {rule.code}")
    values = np.fromfile(folder / VALUES, dtype="<u4", count=count)
    digest = hashlib.sha256(values.tobytes())
    if len(values) < count or digest.hexdigest() != meta["sha256"]:
        raise ValueError(f"the checkpoint in {folder} is damaged: its values' SHA-256 differs")
    rule.resume(values.astype(np.uint32, copy=False))
    return digest, count


def _append(path: Path, known: int, new: np.ndarray) -> None:
    """Write ``new`` after the first ``known`` values of ``path`` (dropping whatever
    a killed run left past them), flushed to disk."""
    with open(path, "r+b" if path.exists() else "wb") as f:
        f.seek(known * 4)
        f.write(new.tobytes())
        f.truncate()
        f.flush()
        os.fsync(f.fileno())


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
