"""The table of the n-spot Sprouts games, in normal or misère play, with a checkpoint
that a long run resumes from.

The core searches every n with one family, so what it learned for n spots is not
searched again for n + 1. A checkpoint is one JSON file in the directory given
(``sprouts-normal.json`` or ``sprouts-misere.json``), rewritten atomically after each
n: the rows found, and a SHA-256 of them bound to the ending. A file that was
damaged or edited is refused with an error naming it, never believed.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, SupportsIndex

from . import _core
from ._files import replaced
from ._progress import counter
from .boards import Memory, _evicting
from .outcome import Outcome

#: What a checkpoint's ``format`` says.
FORMAT = "nimkit sprouts table 1"


@dataclass(frozen=True)
class SproutsRow:
    """The game of ``spots`` spots alone: its ``outcome`` in the ending asked for and,
    in normal play, its Grundy value (``grundy``; None in misère play)."""

    spots: int
    outcome: Outcome
    grundy: int | None


def sprouts_table(
    max_spots: SupportsIndex,
    misere: bool = False,
    progress: bool = False,
    *,
    checkpoint: str | os.PathLike[str] | None = None,
    max_memory: Memory = None,
    evict: bool = False,
) -> list[SproutsRow]:
    """The n-spot games for n = 1 to ``max_spots``: outcomes and normal-play values,
    or misère outcomes (a progress bar over n; Ctrl-C stops it).

    ``checkpoint``: a directory where each n's answer is saved as it is found; a
    later call with the same directory and ending starts after the last n saved
    (what was learned within an n that did not finish is searched again).
    ``max_memory`` and ``evict`` bound the searches' tables as ``Sprouts.grundy``'s
    do.

    >>> [row.grundy for row in sprouts_table(5)]
    [0, 0, 1, 1, 1]
    >>> "".join(row.outcome.name for row in sprouts_table(5, misere=True))
    'NPPPN'
    """
    last = _spots(max_spots)
    if not isinstance(misere, bool):
        raise TypeError(f"misere must be True or False, not {misere!r}")
    memory = _evicting(max_memory, evict)
    path = None if checkpoint is None else _path(checkpoint, misere)
    rows = [] if path is None else _load(path, misere)
    found = {row.spots: row for row in rows}

    bar = counter(last, "Sprouts, n spots") if progress else None

    def row(n: int, answer: Any) -> None:
        found[n] = _row(n, answer)
        if path is not None:
            _save(path, misere, [found[k] for k in sorted(found)])
        if bar is not None:
            bar(n)

    try:
        if bar is not None:
            bar(min(len(found), last))
        if len(found) < last:
            _core.sprouts_table(len(found) + 1, last, misere, row, memory, evict)
    finally:
        if bar is not None:
            bar.close()
    return [found[n] for n in range(1, last + 1)]


def _spots(n: SupportsIndex) -> int:
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise TypeError(f"max_spots must be an int, not {type(n).__name__}")
    count = int(n.__index__())
    if count < 1:
        raise ValueError(f"max_spots must be at least 1, not {count}")
    return count


def _row(n: int, answer: Any) -> SproutsRow:
    if isinstance(answer, Outcome):
        return SproutsRow(n, answer, None)
    return SproutsRow(n, Outcome.N if answer else Outcome.P, int(answer))


def _path(directory: str | os.PathLike[str], misere: bool) -> Path:
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"the checkpoint {folder} is a file, not a directory")
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"sprouts-{'misere' if misere else 'normal'}.json"


def _digest(misere: bool, rows: list[list[Any]]) -> str:
    described = {"format": FORMAT, "misere": misere, "rows": rows}
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def _entries(misere: bool, rows: list[SproutsRow]) -> list[list[Any]]:
    if misere:
        return [[r.spots, r.outcome.name] for r in rows]
    return [[r.spots, r.grundy] for r in rows]


def _save(path: Path, misere: bool, rows: list[SproutsRow]) -> None:
    entries = _entries(misere, rows)
    saved = {
        "format": FORMAT,
        "misere": misere,
        "rows": entries,
        "sha256": _digest(misere, entries),
    }
    with replaced(path) as out:
        json.dump(saved, out)


def _load(path: Path, misere: bool) -> list[SproutsRow]:
    """The rows a checkpoint holds (none if it has no file yet)."""
    if not path.exists():
        return []

    def damaged(why: str) -> ValueError:
        return ValueError(f"the Sprouts table checkpoint {path} is damaged or not one: {why}")

    try:
        saved = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise damaged(f"it does not read as JSON ({error})") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise damaged(f"its format is not {FORMAT!r}")
    entries = saved.get("rows")
    if saved.get("misere") is not misere or not isinstance(entries, list):
        raise damaged("it is not a table of this ending")
    if saved.get("sha256") != _digest(misere, entries):
        raise damaged("its checksum does not match its rows")
    rows = []
    for n, entry in enumerate(entries, start=1):
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] == n):
            raise damaged(f"row {n} is not [{n}, answer]")
        answer = entry[1]
        if misere and answer in ("P", "N"):
            rows.append(SproutsRow(n, Outcome[answer], None))
        # A game of n spots lasts fewer than 3n moves, so its value is less than 3n.
        elif not misere and type(answer) is int and 0 <= answer < 3 * n:
            rows.append(_row(n, answer))
        else:
            raise damaged(f"row {n}'s answer {answer!r} is not one a game of {n} spots has")
    return rows


__all__ = ["SproutsRow", "sprouts_table"]
