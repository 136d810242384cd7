"""Certificates of the values of games on boards, for a second program to check.

``Cram(4, 5).grundy(certificate="c.json")`` (and ``nimkit cram 4 5 --certificate
c.json``) searches the value on one thread and writes, with it, every fact the
search proved on the way: each component it met (a shape of cells) with its value,
or with values it showed the shape has not. ``nimkit.verify`` (``nimkit verify
c.json``) checks the file with code that shares nothing with the search. Node Kayles
and Arc Kayles on a grid graph take certificates too. The search for a certificate
leaves out what a checker would have to take on trust (the end-game databases, the
reductions of Cram's shapes), keeps every fact in memory (no eviction: give
``max_memory`` to bound it) and makes no checkpoint; it is slower than a plain
``grundy()``. A name ending in ``.gz`` is written compressed.

The file is JSON: ``format``, ``version``, ``family``, ``board`` (rows, columns, the
longer side second), ``position`` and each fact's shape as rows of ``x`` (a cell)
and ``-`` joined by ``/``, ``value``, and ``facts``: ``[shape, value or null,
[values it has not]]``, smallest shapes first.

``outcome(misere=True, certificate=...)`` (``--misere --certificate``) writes what
proves a misère outcome instead: ``ending`` ``"misere"``, ``outcome`` (``"N"`` or
``"P"``), ``board`` as the game has it, and ``positions``: ``[shapes, "N" or "P",
shapes of an option that loses, or null]``, the root first, each position as the
shapes of its components with a move. A position that wins names an option that
loses (none when no move is left: the player who cannot move wins misère play); one
that loses is followed into every option.

>>> import json, os, tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "c.json")
...     value = nk.Cram(3, 4).grundy(certificate=path)
...     data = json.load(open(path))
>>> value, data["family"], data["board"], data["position"], data["value"]
(1, 'cram', [3, 4], 'xxxx/xxxx/xxxx', 1)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from . import _core
from ._files import write_json
from .board_checker import FORMAT, VERSION
from .games import _with_bar
from .outcome import Outcome

if TYPE_CHECKING:
    from .games import ImpartialGame


def write(
    game: ImpartialGame,
    path: str | os.PathLike[str],
    max_memory: int | None,
    progress: bool,
) -> int:
    """Search the value of ``game`` with its certificate, write it to ``path`` and
    return the value."""
    _board(game)
    found = _with_bar(progress, lambda bar: _core.vertex_certificate(game._native, max_memory, bar))
    if found is None:
        raise ValueError(
            f"a certificate is made for games on boards of at most 64 columns and 256 "
            f"cells, whose values stay below 64: {game!r} is not one"
        )
    value, rows, cols, position, facts = found
    data = {
        **_header(game, rows, cols, position),
        "value": value,
        "facts": [
            [_rows(cells, None, cols), v, [n for n in range(64) if nots >> n & 1]]
            for cells, v, nots in facts
        ],
    }
    write_json(data, path)
    return value


def write_misere(
    game: ImpartialGame,
    path: str | os.PathLike[str],
    max_memory: int | None,
    progress: bool,
) -> Outcome:
    """Search the misère outcome of ``game`` with the positions that prove it, write
    them to ``path`` and return the outcome."""
    rows, cols = _board(game)
    wins, steps = _with_bar(
        progress, lambda bar: _core.vertex_misere_certificate(game._native, max_memory, bar)
    )

    def shapes(parts: list[list[int]]) -> list[str]:
        return [_corner(part, cols) for part in parts]

    position = game._native.numbers()
    data = {
        **_header(game, rows, cols, position),
        "ending": "misere",
        "outcome": "N" if wins else "P",
        "positions": [
            [shapes(parts), "N" if won else "P", None if witness is None else shapes(witness)]
            for parts, won, witness in steps
        ],
    }
    write_json(data, path)
    return Outcome.N if wins else Outcome.P


def _board(game: ImpartialGame) -> tuple[int, int]:
    """The rows and columns of the board ``game`` is played on (ValueError if none)."""
    try:
        rows, cols = _core.board_size(game._native)
    except TypeError:
        raise ValueError(
            f"a certificate is made for games on boards: {game!r} is on a graph that is no "
            "board (Node Kayles and Arc Kayles take one on networkx.grid_2d_graph(rows, "
            "cols), vertices (row, column) from (0, 0))"
        ) from None
    return rows, cols


def _header(game: ImpartialGame, rows: int, cols: int, position: list[int]) -> dict[str, Any]:
    """What every certificate states first: its format, the game and the position."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "family": game.family,
        "board": [rows, cols],
        "position": _rows(position, rows, cols),
    }


def _corner(cells: list[int], cols: int) -> str:
    """A component's cells (``r * cols + c``) as a shape moved to the corner."""
    top = min(v // cols for v in cells)
    left = min(v % cols for v in cells)
    moved = [(v // cols - top) * cols + (v % cols - left) for v in cells]
    return _rows(moved, None, cols)


def _rows(cells: list[int], rows: int | None, cols: int) -> str:
    """Cells ``r * cols + c`` as rows of ``x`` and ``-`` (``rows`` of them, or as
    many as the cells take, each as wide as the widest)."""
    have = {(v // cols, v % cols) for v in cells}
    height = rows if rows is not None else max((r for r, _ in have), default=0) + 1
    width = cols if rows is not None else max((c for _, c in have), default=0) + 1
    return "/".join(
        "".join("x" if (r, c) in have else "-" for c in range(width)) for r in range(height)
    )
