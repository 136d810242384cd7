"""``nimkit classify``: classify every position of a file, in chunks, into a file."""

from __future__ import annotations

import itertools
import re
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Literal, TextIO

import numpy as np

from . import batch
from ._files import replaced, replaced_path
from .rules import DEFAULT_MAX_POSITIONS, Rules

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
        # Absolute: dask workers may run in another directory.
        self.path, self.mode = str(Path(path).absolute()), mode
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

    @contextmanager
    def raw(self) -> Iterator[BinaryIO]:
        """The file opened for writing its data bytes in order, after the header."""
        with open(self.path, "r+b") as stream:
            stream.seek(self.offset)
            yield stream

    def __setitem__(self, index: Any, value: np.ndarray[Any, Any]) -> None:
        rows = self._map()
        rows[index] = value
        rows.flush()


#: How ``-`` is written for standard input and output.
STDIO = Path("-")

#: How many lines of text are parsed at once.
_TEXT_ROWS = 1 << 16

#: The largest heap a file may hold.
_MAX_HEAP = 2**64 - 1


def npy_positions(path: Path) -> NpyRows:
    """The positions of a ``.npy`` file, one per row, never read whole. Its header is
    read and checked here (numpy's own loader would open a zip archive or a pickle
    instead, and fail on a short file deep inside): anything but a 2-D integer array
    whose data is all there is a ValueError naming the file and what is wrong."""
    _check_npy(path)
    heaps = NpyRows(path)
    if heaps.ndim != 2:
        raise ValueError(f"{path} holds a {heaps.ndim}-D array; expected positions x heaps")
    return heaps


def _check_npy(path: Path) -> None:
    fmt = np.lib.format
    with open(path, "rb") as stream:
        start = stream.read(6)
        if start[:4] == b"PK\x03\x04":
            raise ValueError(
                f"{path} is a zip archive (an .npz?), not a .npy file: save one array "
                "with numpy.save"
            )
        if start != fmt.MAGIC_PREFIX:
            what = "empty" if not start else "not a .npy file (no numpy header)"
            raise ValueError(f"{path} is {what}")
        stream.seek(0)
        try:
            version = fmt.read_magic(stream)
            if version == (1, 0):
                shape, _, dtype = fmt.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, _, dtype = fmt.read_array_header_2_0(stream)
            else:
                raise ValueError(f"format version {version[0]}.{version[1]} is not read here")
        except (ValueError, EOFError, SyntaxError) as err:
            raise ValueError(f"{path} has a damaged .npy header: {err}") from None
        offset = stream.tell()
    if dtype.hasobject or dtype.kind not in "iu":
        raise ValueError(
            f"{path} holds {dtype} values; heap sizes are integers (any integer dtype)"
        )
    expected = offset + int(np.prod(shape, dtype=object)) * dtype.itemsize
    size = path.stat().st_size
    if size < expected:
        raise ValueError(f"{path} is truncated: {size} bytes, where its header promises {expected}")


def text_positions(lines: Iterable[str], name: str, rows: int) -> Iterator[np.ndarray[Any, Any]]:
    """The positions of a text/CSV stream with one position per line, at most ``rows``
    lines at a time (memory follows ``rows``, not the file): heaps separated by commas
    or spaces, short lines padded with empty heaps, blank lines and ``#`` comments
    skipped."""
    lines = iter(lines)
    first = 1
    # Lines held as Python strings weigh ~15x the array they give: read fewer at once.
    rows = min(rows, _TEXT_ROWS)
    while block := _read(lines, rows, name, first):
        yield _parse_lines(block, name, first)
        first += len(block)


def _read(lines: Iterator[str], rows: int, name: str, first: int) -> list[str]:
    """The next ``rows`` lines; a ValueError naming the file if they are not text."""
    try:
        return list(itertools.islice(lines, rows))
    except UnicodeDecodeError:
        raise ValueError(
            f"{name} is not text (near line {first}): give a .npy file, or text with one "
            "position per line"
        ) from None


def _parse_lines(lines: list[str], name: str, first: int) -> np.ndarray[Any, Any]:
    """numpy's reader for the usual rectangular block; else line by line, which
    pads ragged rows and names the first bad line."""
    delimiter = "," if any("," in line for line in lines) else None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # a block of comments only
            block = np.loadtxt(lines, dtype=np.uint64, comments="#", delimiter=delimiter, ndmin=2)
        return block if len(block) else np.zeros((0, 0), np.uint64)
    except ValueError:
        pass
    rows = []
    for number, line in enumerate(lines, first):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            row = [int(token) for token in _SEPARATORS.split(text) if token]
        except ValueError:
            raise ValueError(f"{name}, line {number}: not whole numbers: {text!r}") from None
        for heap, size in enumerate(row):
            if not 0 <= size <= _MAX_HEAP:
                bound = "must not be negative" if size < 0 else "is over 2**64 - 1"
                raise ValueError(f"{name}, line {number}: heap {heap} {bound}, got {size}")
        rows.append(row)
    return batch.pad(rows)


def classify_chunk(
    heaps: np.ndarray[Any, Any],
    rules: Rules,
    what: str,
    out: np.ndarray[Any, Any],
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> None:
    """Fill ``out`` (one result per position of ``heaps``)."""
    if what == "p":
        batch.is_p_position(heaps, rules, out=out, max_positions=max_positions)
    elif what == "nim-sum":
        batch.nim_sum(heaps, rules, out=out)
    elif rules.splits:
        raise ValueError(
            "--what winning-move writes a heap and a take, with no room for the heaps a "
            "split leaves; use nimkit.batch.winning_move from Python for these rules"
        )
    else:
        outs = (out["heap"], out["take"])
        batch.winning_move(heaps, rules, out=outs, max_positions=max_positions)


@contextmanager
def npy_output(path: Path, dtype: np.dtype[Any], count: int) -> Iterator[NpyRows]:
    """An output .npy of ``count`` results, written under a temporary name."""
    with replaced_path(path) as partial:
        del_header = np.lib.format.open_memmap(partial, mode="w+", dtype=dtype, shape=(count,))
        del del_header
        yield NpyRows(partial, "r+")


@contextmanager
def text_output(path: Path) -> Iterator[TextIO]:
    """An output text file, written under a temporary name."""
    with replaced(path) as stream:
        yield stream


def _write_text(results: np.ndarray[Any, Any], stream: TextIO) -> None:
    """One result per line (a winning move: heap and take); ~10x faster than
    ``np.savetxt``, which formats row by row."""
    if results.dtype.names:
        pairs = zip(results["heap"].tolist(), results["take"].tolist(), strict=True)
        stream.write("".join(f"{heap} {take}\n" for heap, take in pairs))
    else:
        values = results.astype(np.uint8) if results.dtype == bool else results
        stream.write("\n".join(map(str, values.tolist())) + "\n" if len(values) else "")


def _progress(total: int | None, enabled: bool | None) -> Any:
    """A tqdm bar over ``total`` positions (None: not known ahead), or None.
    ``enabled=None`` shows one when tqdm is installed."""
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


@contextmanager
def _blocks(
    source: Path, chunk: int
) -> Iterator[tuple[int | None, Iterator[np.ndarray[Any, Any]]]]:
    """The positions of ``source`` (``-``: standard input, as text) ``chunk`` at a
    time, and their count when known ahead (a .npy file)."""
    if source.suffix == ".npy":
        heaps = npy_positions(source)
        count = len(heaps)
        yield count, (heaps[start : start + chunk] for start in range(0, count, chunk))
    elif source == STDIO:
        yield None, text_positions(sys.stdin, "standard input", chunk)
    else:
        with source.open() as stream:
            yield None, text_positions(stream, str(source), chunk)


def _npy_of_unknown_length(
    path: Path, dtype: np.dtype[Any], results: Iterable[np.ndarray[Any, Any]]
) -> None:
    """Results whose count is known only at the end (text input) go to a temporary
    file first, then behind the .npy header."""
    with tempfile.TemporaryFile(dir=path.parent) as spool:
        count = 0
        for block in results:
            spool.write(block.tobytes())
            count += len(block)
        spool.seek(0)
        with npy_output(path, dtype, count) as out, out.raw() as target:
            shutil.copyfileobj(spool, target)


def classify_file(
    source: Path,
    target: Path | None,
    rules: Rules,
    what: str,
    chunk: int = 1 << 22,
    progress: bool | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> int:
    """Classify every position of ``source`` (``.npy``; other names: text, one
    position per line; ``-``: text on standard input) into ``target`` (``.npy``:
    binary; other names: text, one result per line; None or ``-``: text on standard
    output), ``chunk`` positions at a time. A file is written under a temporary name
    and renamed once complete. Returns the count."""
    dtype = RESULT_DTYPES[what]
    count = 0
    with _blocks(source, chunk) as (total, blocks):
        # A bar by default only when the input spans several chunks (text: guessed
        # from the file's size).
        if total is not None:
            many = total > chunk
        else:
            many = source != STDIO and source.stat().st_size > 16 * chunk
        bar = _progress(total, progress if progress is not None else (None if many else False))

        def results() -> Iterator[np.ndarray[Any, Any]]:
            nonlocal count
            for heaps in blocks:
                block = np.empty(len(heaps), dtype=dtype)
                classify_chunk(heaps, rules, what, block, max_positions)
                yield block
                count += len(block)
                if bar is not None:
                    bar.update(len(block))

        try:
            if target is None or target == STDIO:
                for block in results():
                    _write_text(block, sys.stdout)
            elif target.suffix != ".npy":
                with text_output(target) as stream:
                    for block in results():
                        _write_text(block, stream)
            elif total is None:
                _npy_of_unknown_length(target, dtype, results())
            else:
                with npy_output(target, dtype, total) as out:
                    start = 0
                    for block in results():
                        out[start : start + len(block)] = block
                        start += len(block)
        finally:
            if bar is not None:
                bar.close()
    return count
