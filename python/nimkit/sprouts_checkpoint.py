"""Searches of Sprouts positions in normal play that survive a restart.

``nk.Sprouts(21).outcome(checkpoint="dir/")`` (and ``grundy``, and ``nimkit sprouts
21 --checkpoint dir/``) searches in steps of about ``every`` seconds and, after each,
saves what the searches learned — the values of the lands they proved, and the proof
and disproof numbers of the couples (a land beside a heap) of the search under way —
to ``dir/sprouts-search.json``, replaced atomically. It saves too on Ctrl-C, on
SIGTERM (the process then ends as the signal asks), past ``max_memory`` and at the
end, as the boards' checkpoints do (``nimkit.board_checkpoint``). A later run of any
Sprouts position with the same directory starts from the save: a land is valued the
same whatever position it came from, and a search stopped half way goes on from its
numbers, not from the start.

The save is believed only as far as it is checked: it carries the SHA-256 of its
contents (damage of any kind is a ValueError, never an answer), each land is read
back from its text through the notation's own checks, and a value no land could have
(one at least its lives: a move takes a life, and needs two) is refused with the land
named, as is a land saved twice with two values. The checksum tells damage; it is no
signature against one who writes it again. One directory serves one run at a time:
two runs saving in one directory at once each replace the other's save.
Misère play searches whole positions and is not saved in one process (its answers
are, on a cluster: ``client=``).

>>> import tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     first = nk.Sprouts(6).grundy(checkpoint=d)
...     saved = read(d)
...     again = nk.Sprouts(6).grundy(checkpoint=d)  # from the values saved
...     first, again, saved["values"] > 0
(0, 0, True)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core
from ._files import write_json
from ._progress import Counter
from .board_checkpoint import Saving
from .games import _with_bar

if TYPE_CHECKING:
    from .games import ImpartialGame

FORMAT = 1
FILE = "sprouts-search.json"
#: What a save is of: any Sprouts position's searches in normal play share it.
GAME = {"family": "sprouts", "play": "normal"}


def _digest(values: list[Any], couples: list[Any]) -> str:
    body = json.dumps([GAME, values, couples], separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _parsed(directory: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The save's content, checked against its SHA-256 (None if there is none)."""
    path = Path(directory) / FILE
    damaged = ValueError(f"{path} is not a nimkit Sprouts checkpoint (damaged?)")
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (ValueError, OSError, RecursionError):
        raise damaged from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise damaged
    if data.get("game") != GAME:
        raise ValueError(f"{path} is a checkpoint of another game ({data.get('game')!r})")
    values, couples = data.get("values"), data.get("couples")
    if not isinstance(values, list) or not isinstance(couples, list):
        raise damaged
    if data.get("sha256") != _digest(values, couples):
        raise ValueError(f"{path} is damaged: its contents do not match their SHA-256")
    return data


def read(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The save's description: ``{"format", "game", "values", "couples"}``, the last
    two the number of each held. ValueError if there is none or it is damaged."""
    data = _parsed(directory)
    if data is None:
        raise ValueError(f"{Path(directory) / FILE}: no checkpoint there")
    return {
        "format": data["format"],
        "game": data["game"],
        "values": len(data["values"]),
        "couples": len(data["couples"]),
    }


def save(game: ImpartialGame, directory: str | os.PathLike[str]) -> None:
    """Save what the normal-play searches of ``game``'s family learned in
    ``directory``, atomically."""
    values, couples = _core.sprouts_saved(game._native)
    data = {
        "format": FORMAT,
        "game": GAME,
        "sha256": _digest(values, couples),
        "values": values,
        "couples": couples,
    }
    write_json(data, Path(directory) / FILE)


def load(game: ImpartialGame, directory: str | os.PathLike[str]) -> int:
    """Enter in ``game``'s family what ``directory`` holds (nothing if no save); the
    entries read. ValueError for a damaged save, naming the first bad entry."""
    data = _parsed(directory)
    if data is None:
        return 0
    path = Path(directory) / FILE
    values = _entries(data["values"], "value", 2, path)
    couples = _entries(data["couples"], "couple", 4, path)
    try:
        _core.sprouts_restore(game._native, values, couples)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    return len(values) + len(couples)


#: The most of an entry an error message repeats.
_SHOWN = 80


def _entries(rows: list[Any], kind: str, width: int, path: Path) -> list[tuple[Any, ...]]:
    """The entries of one kind as the core reads them: a land's text (the notation is
    ASCII) and ``width - 1`` numbers of 32 bits each; ValueError naming the first
    that is not."""
    read = []
    for i, row in enumerate(rows):
        if not (
            isinstance(row, list)
            and len(row) == width
            and isinstance(row[0], str)
            and row[0].isascii()
            and all(type(n) is int and 0 <= n < 1 << 32 for n in row[1:])
        ):
            shown = repr(row)
            shown = shown if len(shown) <= _SHOWN else shown[:_SHOWN] + "..."
            raise ValueError(
                f"{path}: {kind} {i} is not a land's text and {width - 1} whole "
                f"number{'s' if width > 2 else ''} below 2**32: {shown}"
            )
        read.append(tuple(row))
    return read


def run(
    game: ImpartialGame,
    directory: str | os.PathLike[str],
    every: float,
    max_memory: int | None,
    progress: bool,
    evict: bool = False,
    target: int | None = None,
) -> int | bool:
    """The normal-play value of ``game`` (or whether it is ``target``), searched in
    steps of ``every`` seconds with a save after each (and on Ctrl-C, SIGTERM and
    MemoryError), from what ``directory`` holds."""
    saving = _Saving(game, directory, every, max_memory, evict)
    with saving:
        return _with_bar(progress, lambda bar: saving.answer(target, bar))


class _Saving(Saving):
    """The boards' saving searches (timing, signals, the last save), over what a
    Sprouts family learns."""

    def read(self) -> None:
        load(self.game, self.directory)

    def write(self) -> None:
        save(self.game, self.directory)

    def answer(self, target: int | None, bar: Counter | None) -> int | bool:
        while True:
            left = max(0.0, self.every - (time.monotonic() - self.saved))
            seconds = None if math.isinf(left) else left
            found = _core.sprouts_step(
                self.game._native, target, self.max_memory, seconds, bar, self.evict
            )
            if found is not None:
                return found
            self.save()
