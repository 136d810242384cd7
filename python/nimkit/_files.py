"""Files replaced atomically: the one way nimkit writes a file that must never be
seen half written (results, checkpoints, tables).

The new content goes to a temporary file of this run's own in the same directory
(``<name>.<random>.partial``), which is flushed to disk (fsync), renamed over the
target (``os.replace``, atomic on POSIX and Windows), and then the directory itself
is flushed, so that the rename survives a power cut. On any error, Ctrl-C
(KeyboardInterrupt) included, the temporary file is removed and the old file, if
any, stays as it was. The new file gets the mode ``open()`` would give it (the
umask's), not ``mkstemp``'s private 0600.

>>> import pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d) / "out.txt"
...     with replaced(path) as out:
...         _ = out.write("done")
...     path.read_text(), sorted(p.name for p in pathlib.Path(d).iterdir())
('done', ['out.txt'])
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, TextIO

#: What a temporary file's name ends with.
SUFFIX = ".partial"


@contextmanager
def replaced_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path next to ``path`` (an empty file already there) for the body
    to write; once the body completes, the file is synced to disk and renamed over
    ``path``, and the directory synced. On any error the temporary file is removed
    and ``path`` is left as it was."""
    target = Path(path)
    handle, name = tempfile.mkstemp(prefix=target.name + ".", suffix=SUFFIX, dir=target.parent)
    partial = Path(name)
    try:
        try:
            # mkstemp's file is private (0600): give it the mode an open() gives.
            if hasattr(os, "fchmod"):
                os.fchmod(handle, 0o666 & ~_umask())
        finally:
            os.close(handle)
        yield partial
        _sync_file(partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    sync_directory(target.parent)


@contextmanager
def replaced(path: str | os.PathLike[str], newline: str | None = None) -> Iterator[TextIO]:
    """An open text file whose content replaces ``path`` atomically once the body
    completes (see ``replaced_path``)."""
    with replaced_path(path) as partial, open(partial, "w", newline=newline) as file:
        yield file


@contextmanager
def replaced_binary(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """An open binary file whose content replaces ``path`` atomically once the body
    completes (see ``replaced_path``)."""
    with replaced_path(path) as partial, open(partial, "wb") as file:
        yield file


def write_json(data: Any, path: str | os.PathLike[str]) -> None:
    """Write ``data`` as compact JSON in place of ``path`` (compressed with gzip if
    its name ends in ``.gz``)."""
    text = json.dumps(data, separators=(",", ":")).encode()
    if os.fspath(path).endswith(".gz"):
        text = gzip.compress(text, mtime=0)
    with replaced_binary(path) as file:
        file.write(text)


def _sync_file(path: Path) -> None:
    """Flush ``path``'s content to disk."""
    descriptor = os.open(path, os.O_RDWR)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def sync_directory(directory: str | os.PathLike[str]) -> None:
    """Flush ``directory``'s entries (a rename in it) to disk, where the system
    allows it (not on Windows)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it
    os.umask(mask)
    return mask
