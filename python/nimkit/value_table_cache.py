"""Value tables kept on disk: ``value_table(cache=DIR)`` of Node Kayles, Arc Kayles and
Cram saves the table the first time and reads it back after, one file a graph
(``value-table-<key>.npz``, the key from the graph's family, vertices and edges; every
position the graph has left shares it).

A file is believed only when it is whole and its own: it carries a SHA-256 of its
game's description and of every array, which must match; its moves must be the
graph's (asked of the core); its arrays must have the shapes, types and bounds the
graph gives them (no value above the number of moves), and its members no more bytes
than those shapes need, checked before anything is read. A damaged or foreign file
is an error naming it, never an answer; delete it to compute the table again. A
table edited by hand with its checksum made anew is caught where the check of a
sample of positions (the game's own start among them) against the mex of their
options and the misère rule falls; nothing short of computing the table again would
catch every such edit, and that is what the cache spares.

>>> import tempfile, nimkit as nk
>>> cache = tempfile.mkdtemp()
>>> first = nk.Cram(3, 3).value_table(cache=cache)
>>> again = nk.Cram(["#..", "...", "..."]).value_table(cache=cache)   # read back
>>> bool((first.grundy == again.grundy).all()), again.start == first.start - 1
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._files import replaced_binary
from .board_checkpoint import fingerprint

if TYPE_CHECKING:
    from .games import ImpartialGame

FORMAT = 1
#: The arrays of a table and the type each is saved as.
ARRAYS = {"needs": "<u4", "deletes": "<u4", "grundy": "u1", "misere_wins": "?"}
#: How many positions a read checks against the mex of their options.
SAMPLE = 4096

Arrays = dict[str, npt.NDArray[Any]]


def path_of(game: ImpartialGame, directory: str | os.PathLike[str]) -> Path:
    """Where ``game``'s table is kept in ``directory``."""
    key = hashlib.sha256(json.dumps(fingerprint(game), sort_keys=True).encode())
    return Path(directory) / f"value-table-{key.hexdigest()[:24]}.npz"


def _digest(game: dict[str, Any], arrays: Arrays) -> str:
    sha = hashlib.sha256(json.dumps(game, sort_keys=True).encode())
    for name, dtype in ARRAYS.items():
        array = np.ascontiguousarray(arrays[name], dtype=dtype)
        sha.update(name.encode() + b"\0" + len(array).to_bytes(8, "little"))
        sha.update(array.tobytes())
    return sha.hexdigest()


def _directory(directory: str | os.PathLike[str]) -> Path:
    """``directory`` as a path, refusing what cannot be one."""
    if not isinstance(directory, (str, os.PathLike)) or str(directory) == "":
        raise ValueError(f"cache must be a directory's path, not {directory!r}")
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise ValueError(f"cache must be a directory: {path} is not one")
    return path


def save(game: ImpartialGame, arrays: Arrays, directory: str | os.PathLike[str]) -> None:
    """Keep ``arrays`` (``needs``, ``deletes``, ``grundy``, ``misere_wins``) as
    ``game``'s table, replacing the file whole (never half written). A directory that
    cannot be written is a warning: the table is still the caller's."""
    described = fingerprint(game)
    meta = {"format": FORMAT, "game": described, "sha256": _digest(described, arrays)}
    saved: dict[str, Any] = {n: np.ascontiguousarray(arrays[n], dtype=t) for n, t in ARRAYS.items()}
    saved["meta"] = np.array(json.dumps(meta))
    try:
        _directory(directory).mkdir(parents=True, exist_ok=True)
        with replaced_binary(path_of(game, directory)) as file:
            np.savez(file, **saved)
    except OSError as error:
        warnings.warn(
            f"the value table was not kept in {directory}: {error.strerror or error}",
            stacklevel=3,
        )


def load(game: ImpartialGame, directory: str | os.PathLike[str]) -> Arrays | None:
    """``game``'s table as saved in ``directory``; None if none is there, ValueError
    if the file there is damaged or another game's (OSError if it cannot be read)."""
    path = _directory(directory) / path_of(game, directory).name
    if not path.exists():
        return None
    damaged = ValueError(
        f"{path} is not this game's value table (damaged or edited?): delete it to "
        "compute the table again"
    )
    if not path.is_file():  # a pipe or a device would be read without end
        raise damaged
    needs, deletes = _core.vertex_moves(game._native)
    vertices = fingerprint(game)["vertices"]
    try:
        with zipfile.ZipFile(path) as archive:
            sizes = {info.filename: info.file_size for info in archive.infolist()}
        most = {"needs": 4 * len(needs), "deletes": 4 * len(needs), "meta": 1 << 16}
        most |= {"grundy": 1 << vertices, "misere_wins": 1 << vertices}
        if any(sizes.get(f"{name}.npy", 0) > bound + 4096 for name, bound in most.items()):
            raise damaged
        with np.load(path, allow_pickle=False) as saved:
            meta = json.loads(str(saved["meta"]))
            arrays = {name: saved[name] for name in ARRAYS}
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile):
        raise damaged from None
    described = fingerprint(game)
    if (
        not isinstance(meta, dict)
        or meta.get("format") != FORMAT
        or meta.get("game") != described
        or any(arrays[name].dtype != np.dtype(t) for name, t in ARRAYS.items())
        or not np.array_equal(arrays["needs"], needs)
        or not np.array_equal(arrays["deletes"], deletes)
        or meta.get("sha256") != _digest(described, arrays)
        or not _plausible(arrays, vertices, _start(game))
    ):
        raise damaged
    return arrays


def _start(game: ImpartialGame) -> int:
    return sum(1 << v for v in game._native.numbers())


def _plausible(arrays: Arrays, vertices: int, start: int) -> bool:
    """Whether the values have the graph's shapes and bounds, and a sample of
    positions (the empty one and ``start`` among them) has the value and misère
    outcome of its options."""
    needs, deletes = arrays["needs"], arrays["deletes"]
    grundy, wins = arrays["grundy"], arrays["misere_wins"]
    count = 1 << vertices
    if (
        grundy.shape != (count,)
        or wins.shape != (count,)
        or (grundy.size and int(grundy.max()) > len(needs))
    ):
        return False
    rng = np.random.default_rng(len(needs))
    sample = np.append(rng.integers(0, count, size=min(SAMPLE, count)), [0, start])
    below = np.arange(len(needs) + 1)
    # A few rows at a time: a graph may have hundreds of moves.
    for s in np.array_split(np.unique(sample).astype(np.uint32), 1 + len(sample) // 256):
        legal = (s[:, None] & needs) == needs
        options = s[:, None] & ~deletes
        values = np.where(legal, grundy[options], 255).astype(np.int64)
        present = (values[:, :, None] == below).any(axis=1)
        mex = np.argmin(present, axis=1)  # the first value no option has
        no_move = ~legal.any(axis=1)
        misere = np.where(no_move, True, (legal & ~wins[options]).any(axis=1))
        if not ((mex == grundy[s]).all() and (misere == wins[s]).all()):
            return False
    return True
