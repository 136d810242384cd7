"""``nimkit classify``: classify every position of a file, in chunks, into a file."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, TextIO

import numpy as np

from . import batch
from .rules import Rules

#: What ``--what`` may ask for, and the dtype of one result.
RESULT_DTYPES: dict[str, np.dtype[Any]] = {
    "p": np.dtype(bool),
    "nim-sum": np.dtype(np.uint64),
    "winning-move": np.dtype([("heap", np.int64), ("take", np.uint64)]),
}

_SEPARATORS = re.compile(r"[,\s]+")


class NpyRows:
    """The rows of a .npy file, mapped afresh on every access and unmapped after, so
    that only the rows in hand count against memory (a single long-lived map would
    keep every page it ever touched). Only the path travels when pickled, so dask
    workers open the file themselves."""

    def __init__(self, path: Path, mode: str = "r") -> None:
        header = np.load(path, mmap_mode="r")
        self.path, self.mode = str(path), mode
        self.dtype: np.dtype[Any] = header.dtype
        self.shape: tuple[int, ...] = tuple(header.shape)
        self.offset: int = header.offset
        self.fortran: bool = header.ndim > 1 and not header.flags.c_contiguous
        self.ndim = len(self.shape)

    def _map(self) -> np.memmap[Any, Any]:
        mode: Literal["r", "r+"] = "r+" if self.mode == "r+" else "r"
        order: Literal["C", "F"] = "F" if self.fortran else "C"
        return np.memmap(
            self.path,
            dtype=self.dtype,
            mode=mode,
            offset=self.offset,
            shape=self.shape,
            order=order,
        )

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, index: Any) -> np.ndarray[Any, Any]:
        return np.array(self._map()[index])

    def __setitem__(self, index: Any, value: np.ndarray[Any, Any]) -> None:
        rows = self._map()
        rows[index] = value
        rows.flush()


def load_positions(path: Path) -> NpyRows | np.ndarray[Any, Any]:
    """The positions of a file, one per row: a ``.npy`` file as ``NpyRows`` (never
    read whole), or a text/CSV file with one position per line (short lines padded
    with empty heaps; blank lines and ``#`` comments skipped) as an array."""
    if path.suffix == ".npy":
        heaps = NpyRows(path)
        if heaps.ndim != 2:
            raise ValueError(f"{path} holds a {heaps.ndim}-D array; expected positions x heaps")
        return heaps
    rows = []
    with path.open() as lines:
        for number, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                rows.append([int(token) for token in _SEPARATORS.split(text) if token])
            except ValueError:
                raise ValueError(f"{path}, line {number}: not whole numbers: {text!r}") from None
    try:
        return batch.pad(rows)
    except (ValueError, TypeError, OverflowError) as err:
        raise type(err)(f"{path}: {err}") from None


def classify_chunk(
    heaps: np.ndarray[Any, Any], rules: Rules, what: str, out: np.ndarray[Any, Any]
) -> None:
    """Fill ``out`` (one result per position of ``heaps``)."""
    if what == "p":
        batch.is_p_position(heaps, rules, out=out)
    elif what == "nim-sum":
        batch.nim_sum(heaps, rules, out=out)
    elif rules.splits:
        raise ValueError(
            "--what winning-move writes a heap and a take, with no room for the heaps a "
            "split leaves; use nimkit.batch.winning_move from Python for these rules"
        )
    else:
        batch.winning_move(heaps, rules, out=(out["heap"], out["take"]))


@contextmanager
def _renamed_when_complete(path: Path) -> Iterator[Path]:
    """A temporary name next to ``path``, renamed to it only once the body completes,
    so an interrupted run never leaves a file that looks finished (and the old one
    stays until then)."""
    partial = path.with_name(path.name + ".partial")
    try:
        yield partial
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


@contextmanager
def npy_output(path: Path, dtype: np.dtype[Any], count: int) -> Iterator[NpyRows]:
    """An output .npy of ``count`` results, written under a temporary name."""
    with _renamed_when_complete(path) as partial:
        del_header = np.lib.format.open_memmap(partial, mode="w+", dtype=dtype, shape=(count,))
        del del_header
        yield NpyRows(partial, "r+")


@contextmanager
def text_output(path: Path) -> Iterator[TextIO]:
    """An output text file, written under a temporary name."""
    with _renamed_when_complete(path) as partial, partial.open("w") as stream:
        yield stream


def _write_text(results: np.ndarray[Any, Any], stream: TextIO) -> None:
    if results.dtype.names:
        rows = np.column_stack([results["heap"], results["take"]])
        np.savetxt(stream, rows, fmt="%d")
    else:
        np.savetxt(stream, results, fmt="%d")


def _progress(total: int, enabled: bool | None) -> Any:
    """A tqdm bar over ``total`` positions, or None. ``enabled=None`` shows one when
    tqdm is installed and the input spans several chunks."""
    if enabled is False:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if enabled:
            raise ImportError(
                "the progress bar needs tqdm: pip install 'nimkit[progress]'"
            ) from None
        return None
    return tqdm(total=total, unit="pos", unit_scale=True, desc="classify", file=sys.stderr)


def classify_file(
    source: Path,
    target: Path | None,
    rules: Rules,
    what: str,
    chunk: int = 1 << 22,
    progress: bool | None = None,
) -> int:
    """Classify every position of ``source`` into ``target`` (``.npy``: binary; other
    names: text, one result per line; None: text on stdout), ``chunk`` positions at a
    time; a file is written under a temporary name and renamed once complete.
    Returns the count."""
    heaps = load_positions(source)
    count, dtype = len(heaps), RESULT_DTYPES[what]
    bar = _progress(count, progress if progress is not None else (None if count > chunk else False))

    def chunks() -> Iterator[tuple[int, np.ndarray[Any, Any]]]:
        for start in range(0, count, chunk):
            stop = min(start + chunk, count)
            results = np.empty(stop - start, dtype=dtype)
            classify_chunk(heaps[start:stop], rules, what, results)
            yield start, results
            if bar is not None:
                bar.update(stop - start)

    try:
        if target is not None and target.suffix == ".npy":
            with npy_output(target, dtype, count) as out:
                for start, results in chunks():
                    out[start : start + len(results)] = results
        elif target is None:
            for _, results in chunks():
                _write_text(results, sys.stdout)
        else:
            with text_output(target) as stream:
                for _, results in chunks():
                    _write_text(results, stream)
        return count
    finally:
        if bar is not None:
            bar.close()
