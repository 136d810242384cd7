"""Value tables kept on disk: ``value_table(cache=DIR)`` of Node Kayles, Arc Kayles and
Cram saves the table the first time and reads it back after, one file a graph
(``value-table-<key>.npz``, the key from the graph's family, vertices and edges; every
position the graph has left shares it).

A file is believed only when it is whole and its own: it carries a SHA-256 of its
game's description and of every array, which must match, and its arrays must have
the shapes, types and bounds the graph gives them (no value above the number of
moves). A sample of positions is checked against the mex of their options in the
table and the misère rule, so that a table edited with its checksum made anew is
refused too, for all but the most careful forgery. A damaged or foreign file is an
error naming it, never an answer; delete it to compute the table again.

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
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

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


def save(game: ImpartialGame, arrays: Arrays, directory: str | os.PathLike[str]) -> None:
    """Keep ``arrays`` (``needs``, ``deletes``, ``grundy``, ``misere_wins``) as
    ``game``'s table, replacing the file whole (never half written)."""
    described = fingerprint(game)
    meta = {"format": FORMAT, "game": described, "sha256": _digest(described, arrays)}
    Path(directory).mkdir(parents=True, exist_ok=True)
    saved: dict[str, Any] = {n: np.ascontiguousarray(arrays[n], dtype=t) for n, t in ARRAYS.items()}
    saved["meta"] = np.array(json.dumps(meta))
    with replaced_binary(path_of(game, directory)) as file:
        np.savez(file, **saved)


def load(game: ImpartialGame, directory: str | os.PathLike[str]) -> Arrays | None:
    """``game``'s table as saved in ``directory``; None if none is there, ValueError
    if the file there is damaged or another game's."""
    path = path_of(game, directory)
    damaged = ValueError(
        f"{path} is not this game's value table (damaged or edited?): delete it to "
        "compute the table again"
    )
    try:
        with np.load(path, allow_pickle=False) as saved:
            meta = json.loads(str(saved["meta"]))
            arrays = {name: saved[name] for name in ARRAYS}
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile):
        raise damaged from None
    described = fingerprint(game)
    if (
        not isinstance(meta, dict)
        or meta.get("format") != FORMAT
        or meta.get("game") != described
        or any(arrays[name].dtype != np.dtype(t) for name, t in ARRAYS.items())
        or meta.get("sha256") != _digest(described, arrays)
        or not _plausible(arrays, described["vertices"])
    ):
        raise damaged
    return arrays


def _plausible(arrays: Arrays, vertices: int) -> bool:
    """Whether the arrays have the graph's shapes and bounds, and a sample of positions
    (the empty one among them) has the value and misère outcome of its options."""
    needs, deletes = arrays["needs"], arrays["deletes"]
    grundy, wins = arrays["grundy"], arrays["misere_wins"]
    count = 1 << vertices
    if (
        grundy.shape != (count,)
        or wins.shape != (count,)
        or needs.shape != deletes.shape
        or needs.ndim != 1
        or (needs & ~deletes).any()
        or (count > 1 and (deletes >> vertices).any())
        or (grundy.size and int(grundy.max()) > len(needs))
    ):
        return False
    rng = np.random.default_rng(len(needs))
    s = np.unique(np.append(rng.integers(0, count, size=min(SAMPLE, count)), 0)).astype(np.uint32)
    legal = (s[:, None] & needs) == needs
    options = s[:, None] & ~deletes
    values = np.where(legal, grundy[options], 255).astype(np.int64)
    below = np.arange(len(needs) + 1)
    present = (values[:, :, None] == below).any(axis=1)
    mex = np.argmin(present, axis=1)  # the first value no option has
    no_move = ~legal.any(axis=1)
    misere = np.where(no_move, True, (legal & ~wins[options]).any(axis=1))
    return bool((mex == grundy[s]).all() and (misere == wins[s]).all())
