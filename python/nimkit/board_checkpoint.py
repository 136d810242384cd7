"""Searches of games on graphs and boards that survive a restart.

``Cram(6, 7).grundy(checkpoint="dir/")`` (and ``nimkit cram 6 7 --checkpoint dir/``)
searches in steps of about ``every`` seconds and, after each, saves what the search
learned — the values of the components it met, the valuable part of its work — to
``dir/table.npz``, replaced atomically (written to a temporary file, flushed to
disk, renamed over the old one), so that a run killed at any moment leaves the last
save whole. It saves too on Ctrl-C, on SIGTERM (a batch scheduler's stop; the
process then ends as the signal asks), past ``max_memory`` and at the end. A later run
with the same directory, of any position of the same game (the same graph or
board, the same family), starts from the saved table; a checkpoint of another game
is refused with a ValueError naming it, as is a damaged one: the save carries the
SHA-256 of its tables bound to its game, checked before a value is believed, and the
core refuses a value no component could have (more than its moves). The checksum
tells damage; it is no signature against one who writes it again. ``cram_table(3, 20,
checkpoint="dir/")`` saves the board of its row, 3 x 20, the same way (each width
done is then read back at once). Misère play searches whole positions and is not
saved.

>>> import tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     first = nk.Cram(4, 5).grundy(checkpoint=d)
...     saved = read(d)
...     again = nk.Cram(4, 5).grundy(checkpoint=d)  # from the table: no search
...     first, again, saved["game"]["board"], saved["entries"]["board"] > 0
(2, 2, [4, 5], True)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import threading
import time
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._files import replaced_binary
from ._progress import Counter, counter

if TYPE_CHECKING:
    from .games import ImpartialGame

# Format 1 had no checksum: such a save cannot be told from a damaged one.
FORMAT = 2
FILE = "table.npz"


def fingerprint(game: ImpartialGame) -> dict[str, Any]:
    """What tells one game's table from another's: the family, the graph (its edges'
    SHA-256) and the board, if it is one."""
    native = game._native
    edges = sorted(_core.vertex_edges(native))
    digest = hashlib.sha256(np.asarray(edges, dtype="<u8").tobytes()).hexdigest()
    try:
        board: list[int] | None = list(_core.board_size(native))
    except TypeError:
        board = None
    names = _core.vertex_names(native)
    vertices = len(names) if names is not None else int(np.prod(board or [0]))
    return {
        "family": game.family,
        "vertices": vertices,
        "edges": len(edges),
        "edges_sha256": digest,
        "board": board,
    }


def read(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The checkpoint's description: ``{"format", "game", "entries", "sha256"}``
    (``entries`` by table). ValueError if there is none or it cannot be read."""
    path = Path(directory) / FILE
    damaged = ValueError(f"{path} is not a nimkit board checkpoint (damaged?)")
    try:
        with np.load(path, allow_pickle=False) as saved:
            meta = json.loads(str(saved["meta"]))
    except FileNotFoundError:
        raise ValueError(f"{path}: no checkpoint there") from None
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile):
        raise damaged from None
    if not isinstance(meta, dict):
        raise damaged
    if meta.get("format") == 1:
        raise ValueError(
            f"{path} was saved by an earlier nimkit without a checksum, so damage to it "
            "could not be told: delete it to start the search again"
        )
    entries = meta.get("entries")
    if (
        not isinstance(entries, dict)
        or meta.get("format") != FORMAT
        or not isinstance(meta.get("game"), dict)
        or not isinstance(meta.get("sha256"), str)
        or not all(type(n) is int and n >= 0 for n in entries.values())
    ):
        raise damaged
    return dict(meta)


def _digest(game: dict[str, Any], tables: dict[str, tuple[Any, Any, Any]]) -> str:
    """The SHA-256 of a save: its game's description, then each table (by name) with
    its keys' lengths, words and values, little-endian."""
    sha = hashlib.sha256(json.dumps(game, sort_keys=True).encode())
    for name in sorted(tables):
        sha.update(name.encode() + b"\0")
        for array, dtype in zip(tables[name], ("<u2", "<u8", "<u4"), strict=True):
            sha.update(len(array).to_bytes(8, "little"))
            sha.update(np.ascontiguousarray(array, dtype=dtype).tobytes())
    return sha.hexdigest()


def save(game: ImpartialGame, directory: str | os.PathLike[str]) -> None:
    """Save what the searches of ``game`` learned in ``directory``, atomically: written
    to a file of this run's own, flushed to disk, then renamed over the old one."""
    path = Path(directory) / FILE
    arrays: dict[str, Any] = {}
    entries = {}
    tables = {}
    for name, lengths, words, values in _core.vertex_tables(game._native):
        arrays[f"{name}.lengths"], arrays[f"{name}.words"] = lengths, words
        arrays[f"{name}.values"] = values
        entries[name] = len(values)
        tables[name] = (lengths, words, values)
    described = fingerprint(game)
    meta = {
        "format": FORMAT,
        "game": described,
        "entries": entries,
        "sha256": _digest(described, tables),
    }
    arrays["meta"] = np.array(json.dumps(meta))
    with replaced_binary(path) as file:
        np.savez(file, **arrays)


def load(game: ImpartialGame, directory: str | os.PathLike[str]) -> int:
    """Enter in ``game``'s tables what ``directory`` holds (nothing if it holds no
    checkpoint); the entries read. ValueError for another game's or a damaged one."""
    path = Path(directory) / FILE
    if not path.exists():
        return 0
    meta = read(directory)
    wanted = fingerprint(game)
    if meta["game"] != wanted:
        raise ValueError(
            f"{path} is a checkpoint of another game ({_describe(meta['game'])}), "
            f"not of {_describe(wanted)}"
        )
    try:
        with np.load(path, allow_pickle=False) as saved:
            tables = {
                name: tuple(saved[f"{name}.{part}"] for part in ("lengths", "words", "values"))
                for name in meta["entries"]
            }
    except (KeyError, OSError, EOFError, ValueError, zipfile.BadZipFile):
        raise ValueError(f"{path} is not a nimkit board checkpoint (damaged?)") from None
    if _digest(meta["game"], tables) != meta["sha256"] or any(
        len(t[2]) != meta["entries"][name] for name, t in tables.items()
    ):
        raise ValueError(f"{path} is damaged: its tables do not match their SHA-256")
    try:
        for name, (lengths, words, values) in tables.items():
            _core.vertex_restore(game._native, name, lengths, words, values)
    except TypeError:
        raise ValueError(f"{path} is not a nimkit board checkpoint (damaged?)") from None
    return sum(int(n) for n in meta["entries"].values())


def run(
    game: ImpartialGame,
    directory: str | os.PathLike[str],
    every: float,
    max_memory: int | None,
    progress: bool,
    evict: bool = False,
) -> int:
    """The value of ``game``, searched in steps of ``every`` seconds with a save after
    each (and on Ctrl-C and MemoryError), from what ``directory`` holds."""
    bar = counter(None, "components valued") if progress else None
    try:
        with Saving(game, directory, every, max_memory, evict) as saving:
            return saving.value(bar)
    finally:
        if bar is not None:
            bar.close()


class Saving:
    """Searches of ``game`` from what ``directory`` holds (loaded here), which save
    what they learned there every ``every`` seconds of search (counted across
    searches), and once more as the ``with`` block ends, whatever ends it (Ctrl-C,
    MemoryError or the end). A SIGTERM in the block (where nothing else handles it)
    stops the search, and the process ends by it once the save is made. ``evict``:
    past ``max_memory`` the searches make room and go on (``Cram.grundy``)."""

    def __init__(
        self,
        game: ImpartialGame,
        directory: str | os.PathLike[str],
        every: float,
        max_memory: int | None,
        evict: bool = False,
    ) -> None:
        if isinstance(every, bool) or not isinstance(every, (int, float)) or not every >= 0:
            raise ValueError(f"every must be a number of seconds, at least 0, not {every!r}")
        if str(directory) == "":
            raise ValueError("checkpoint must name a directory, not ''")
        try:
            Path(directory).mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise NotADirectoryError(f"checkpoint {str(directory)!r} is not a directory") from None
        if not os.access(directory, os.W_OK | os.X_OK):
            raise PermissionError(f"cannot write a checkpoint in {str(directory)!r}")
        self.game, self.directory, self.every, self.max_memory = game, directory, every, max_memory
        self.evict = evict
        self.read()
        self.saved = time.monotonic()
        self.terminated = self.closing = False
        self.handled: Any = None

    def __enter__(self) -> Saving:
        # Only the main thread may set a handler, and one the program set is its own.
        main = threading.current_thread() is threading.main_thread()
        if main and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            self.handled = signal.signal(signal.SIGTERM, self._terminate)
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing = True  # a SIGTERM now waits for this save
        try:
            self.save()
        finally:
            if self.handled is not None:
                signal.signal(signal.SIGTERM, self.handled)
            if self.terminated:
                signal.raise_signal(signal.SIGTERM)

    def _terminate(self, signum: int, frame: object) -> None:
        """Stops the search as Ctrl-C does (the save waits for it); a SIGTERM during
        the last save, or a second one, does not break into it."""
        if not self.terminated:
            self.terminated = True
            if not self.closing:
                raise KeyboardInterrupt

    def value(self, bar: Counter | None = None, cells: list[int] | None = None) -> int:
        """The value of the game (or of the vertices ``cells`` of its graph)."""
        while True:
            left = max(0.0, self.every - (time.monotonic() - self.saved))
            seconds = None if math.isinf(left) else left  # every=inf: no saves on the way
            value = _core.vertex_value(
                self.game._native, self.max_memory, seconds, bar, cells, self.evict
            )
            if value is not None:
                return value
            self.save()

    def save(self) -> None:
        self.write()
        self.saved = time.monotonic()

    def read(self) -> None:
        """Enter what the directory holds in the game's tables."""
        load(self.game, self.directory)

    def write(self) -> None:
        """Save what the game's searches learned in the directory."""
        save(self.game, self.directory)


def _describe(game: dict[str, Any]) -> str:
    board = game.get("board")
    where = (
        f"a {board[0]} x {board[1]} board"
        if isinstance(board, list) and len(board) == 2
        else f"a graph of {game.get('vertices')} vertices and {game.get('edges')} edges"
    )
    return f"{game.get('family')} on {where}"
