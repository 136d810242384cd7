"""Grundy-sequence runs that survive a restart.

``TakeAndBreak(code).grundy_sequence(count, checkpoint="dir/")`` (and ``nimkit grundy
CODE --count N --checkpoint dir/``) computes into ``dir/values.u8`` (little-endian,
heap 0 first, memory-mapped: values past memory go to the disk, see
``TakeAndBreak.keep_values_in``), or ``values.u16`` / ``values.u32`` once the values
need the wider dtype (the narrowest that holds them all), in steps of about
``every`` seconds and, after each, flushes the new values to disk and replaces
``dir/checkpoint.json`` (the code, how many values are good, their dtype and their
SHA-256 as little-endian uint32, whatever the dtype) atomically: written to a
temporary file, flushed to disk, renamed over the old one. A run killed at any moment
leaves the last checkpoint whole; the values file may hold a partial step past it,
which is ignored and overwritten, and a wider file not yet vouched for is ignored
and removed. A run with the same directory checks the SHA-256 and resumes from the
values; a checkpoint of another code, or damaged, is refused with a ValueError naming
it. Ctrl-C checkpoints the values computed so far before it stops the run.
``values(dir)`` reads them, memory-mapped.

>>> import tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     first = nk.TakeAndBreak("0.6").grundy_sequence(5000, checkpoint=d, every=0)
...     again = nk.TakeAndBreak("0.6").grundy_sequence(12000, checkpoint=d)  # resumes
...     read(d)["count"], read(d)["dtype"], int(values(d).max()), type(again).__name__
(12000, 'uint16', 262, 'memmap')
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ._files import replaced
from .certificate import feed

if TYPE_CHECKING:
    from ._core import TakeAndBreak

FORMAT = 2
# Format 1 kept every value as uint32 (values.u32) and had no dtype.
FORMATS = (1, 2)
META = "checkpoint.json"
# The values file of each dtype: its extension names it (``keep_values_in``).
FILES = {"uint8": "values.u8", "uint16": "values.u16", "uint32": "values.u32"}
# The first step; steps then double or halve towards `every` seconds.
FIRST_STEP = 1 << 12
MOST_STEP = 1 << 26


def read(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The checkpoint in ``directory``: ``{"format", "code", "count", "dtype",
    "sha256"}`` (count 0 and no code when there is none). ValueError when it cannot be
    read."""
    path = Path(directory) / META
    if not path.exists():
        empty = hashlib.sha256().hexdigest()
        return {"format": FORMAT, "code": None, "count": 0, "dtype": "uint8", "sha256": empty}
    try:
        meta = dict(json.loads(path.read_text()))
        meta.setdefault("dtype", "uint32")
        if (
            meta["format"] not in FORMATS
            or not isinstance(meta["count"], int)
            or meta["dtype"] not in FILES
        ):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{path} is not a nimkit checkpoint (damaged?)") from None
    return meta


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
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"the checkpoint {str(folder)!r} is a file: give a directory")
    folder.mkdir(parents=True, exist_ok=True)
    digest, known, dtype = _resume(rule, folder)
    step = FIRST_STEP
    try:
        while known < count:
            target = min(count, known + step)
            start = time.monotonic()
            rule.compute(target, progress)
            digest, dtype = _commit(rule, folder, digest, dtype, known, target)
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
            _commit(rule, folder, digest, dtype, known, reached)
        raise


def values(directory: str | os.PathLike[str], count: int | None = None) -> np.memmap:
    """The first ``count`` values of the checkpoint in ``directory`` (default: all it
    vouches for), memory-mapped read-only in the dtype they are kept in."""
    meta = read(directory)
    if count is None:
        count = meta["count"]
    dtype = np.dtype(meta["dtype"]).newbyteorder("<")
    return np.memmap(Path(directory) / FILES[meta["dtype"]], dtype=dtype, mode="r", shape=(count,))


def _commit(
    rule: TakeAndBreak, folder: Path, digest: Any, dtype: str, known: int, count: int
) -> tuple[Any, str]:
    """Vouch for the first ``count`` values in ``folder`` (those past ``known`` are
    new; all of them when they moved to a wider file since the last commit, of
    ``dtype``): flushed to disk, then described, then files of other dtypes removed.
    The new running SHA-256 (``digest`` is left as it was, for a commit cut short) and
    dtype."""
    kept = rule.values_file
    now = next((d for d, name in FILES.items() if kept is not None and kept.name == name), None)
    if kept is None or now is None or not kept.parent.samefile(folder):
        raise ValueError(
            f"the values of {rule.code} moved from {folder} to {kept} "
            "(another checkpointed run of the same code in this process?)"
        )
    rule.flush_values(known if now == dtype else 0, count)
    digest = digest.copy()
    _hash(digest, kept, now, known, count)
    meta = {
        "format": FORMAT,
        "code": rule.code,
        "count": count,
        "dtype": now,
        "sha256": digest.hexdigest(),
    }
    _write_meta(folder, meta)
    _remove_others(folder, now)
    return digest, now


def _hash(digest: Any, path: Path, dtype: str, start: int, stop: int) -> None:
    """Feed the values of heaps ``start .. stop - 1`` in ``path`` (of ``dtype``) to
    ``digest`` as little-endian uint32."""
    if stop <= start:
        return
    kind = np.dtype(dtype).newbyteorder("<")
    offset = kind.itemsize * start
    feed(digest, np.memmap(path, dtype=kind, mode="r", offset=offset, shape=(stop - start,)))


def _resume(rule: TakeAndBreak, folder: Path) -> tuple[Any, int, str]:
    """Check the checkpoint in ``folder`` and hand its values to ``rule``; the running
    SHA-256, the count and the dtype."""
    meta = read(folder)
    count, dtype = meta["count"], meta["dtype"]
    path = folder / FILES[dtype]
    digest = hashlib.sha256()
    if count > 0:
        if meta["code"] != rule.code:
            raise ValueError(
                f"the checkpoint in {folder} is of code {meta['code']}, not {rule.code}"
            )
        held = path.stat().st_size // np.dtype(dtype).itemsize if path.exists() else 0
        if held >= count:
            _hash(digest, path, dtype, 0, count)
        if held < count or digest.hexdigest() != meta["sha256"]:
            raise ValueError(f"the checkpoint in {folder} is damaged: its values' SHA-256 differs")
    # A wider file the last run began and did not vouch for.
    _remove_others(folder, dtype)
    rule.keep_values_in(path, count)
    return digest, count, dtype


def _remove_others(folder: Path, dtype: str) -> None:
    """Remove the values files of ``folder`` other than that of ``dtype``."""
    for other, name in FILES.items():
        if other != dtype:
            (folder / name).unlink(missing_ok=True)


def _write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Replace the checkpoint's description atomically."""
    with replaced(folder / META) as f:
        json.dump(meta, f)
