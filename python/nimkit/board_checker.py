"""A checker of board certificates that shares nothing with the search that made them.

``Cram(4, 5).grundy(certificate="c.json")`` writes, with the value, every fact the
search proved on the way: for each component it met, its value, or values it showed
the component has not. ``verify`` checks such a file with code of its own (the
standard library only): its own moves (a domino on two cells side by side, or a cell
with its neighbours), its own components and canonical forms (a shape up to
translation and the square's eight symmetries), its own mex. Every fact is checked
from the facts about the components of its options; the root's value from its
components'. Facts about smaller shapes prove those about larger ones, so nothing is
assumed but the rules and three theorems, each counted in the result:

- a line of cells is a heap of an octal game (Dawson's Kayles for dominoes, Dawson's
  Chess for Node Kayles), valued here by its own mex;
- a full 2 x n rectangle of Cram has value n mod 2 (Winning Ways, ch. 23);
- a Cram shape the half-turn maps onto itself with no cell on or next to its own
  image is a second-player win: each domino is answered by its image.

A shape of at most ``SMALL`` cells is valued here by brute force.

A certificate of a misère outcome (``outcome(misere=True, certificate=...)``) is
checked position by position from the rules alone: each position stated a loss has
every option (found here) stated a win, each stated a win with a move names an
option of its own stated a loss, and the root is among them.

>>> import json, pathlib, tempfile, nimkit as nk
>>> with tempfile.TemporaryDirectory() as d:
...     path = pathlib.Path(d, "cram.json")
...     value = nk.Cram(3, 5).grundy(certificate=path)
...     checked = nk.verify(path)
...     data = json.loads(path.read_text())
...     data["facts"][-1][1] = 5    # the board's own value, forged
...     _ = path.write_text(json.dumps(data))
...     try:
...         nk.verify(path)
...     except nk.CertificateError as e:
...         print(e)
Certificate error: fact 57 (shape xxxxx/xxxxx/xxxxx): its options leave it the value 1, not 5 alone
>>> print(checked)
verified: cram on a 3 x 5 board, every cell in play, has Grundy value 1
58 facts checked, each from the rules; closed forms used: 2 x n 1
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ._facts import CertificateError, judge, load, mex, nat, possible, spread, stated
from .sprouts_checker import FORMAT as SPROUTS
from .sprouts_checker import SproutsVerified
from .sprouts_checker import verify_data as verify_sprouts

#: Shapes of at most this many cells are valued by brute force.
SMALL = 6

#: The most cells of a certificate's board (the most a certificate is made for): a
#: fact has at most twice as many options.
MOST_CELLS = 256

#: The families and what a move takes: two cells side by side, or a cell and its
#: neighbours.
MOVES = {"cram": "domino", "arc_kayles": "domino", "node_kayles": "neighbourhood"}

FORMAT = "nimkit board certificate"
VERSION = 1

Cell = tuple[int, int]
Shape = tuple[Cell, ...]


@dataclass(frozen=True)
class Verified:
    """What a certificate was checked to prove."""

    family: str
    board: tuple[int, int]
    #: The position, its rows joined by ``/``: ``x`` a cell still in play.
    position: str
    #: The Grundy value (None for a misère certificate).
    value: int | None
    #: Facts (misère: positions) checked.
    facts: int
    theorems: dict[str, int] = field(default_factory=dict)
    #: The misère outcome, "N" or "P" (None for a value).
    outcome: str | None = None

    def __str__(self) -> str:
        rows, cols = self.board
        used = ", ".join(f"{name} {n}" for name, n in sorted(self.theorems.items()))
        where = (
            "every cell in play"
            if "-" not in self.position
            else f"the cells in play {self.position}"
        )
        if self.outcome is not None:
            who = "wins" if self.outcome == "N" else "loses"
            return (
                f"verified: {self.family} on a {rows} x {cols} board, {where}, is a "
                f"misère {self.outcome}-position (the player to move {who})\n"
                f"{self.facts} positions checked, each from the rules"
            )
        return (
            f"verified: {self.family} on a {rows} x {cols} board, {where}, has Grundy "
            f"value {self.value}\n{self.facts} facts checked, each from the rules"
            + (f"; closed forms used: {used}" if used else "")
        )


def verify(path: str | os.PathLike[str], processes: int = 1) -> Verified | SproutsVerified:
    """Check the certificate at ``path`` (JSON, or JSON compressed with gzip): what it
    proves, or CertificateError naming the first fact that does not hold. Sprouts'
    certificates are checked by ``nimkit.sprouts_checker``.

    ``processes``: how many processes share the facts out, at most one a core (each
    fact is checked from what the certificate states, none from another's check, so
    the order does not matter; the fact named on failure is the first that fails, as
    with one)."""
    data = load(path)
    if isinstance(data, dict) and data.get("format") == SPROUTS:
        return verify_sprouts(data, processes)
    if isinstance(data, dict) and data.get("ending") == "misere":
        return _verify_misere(data, processes)
    family, board, text, claimed, facts = _fields(data)
    position = _shape(text, "the position", (min(board), max(board)))
    checker = _Checker(MOVES[family], facts)
    for used in spread(checker, processes):
        for name, shapes in used.items():
            checker.used.setdefault(name, set()).update(shapes)
    value = 0
    for part in checker.parts(*_frame(position)):
        found = checker.exact(part)
        if found is None:
            raise CertificateError(f"the position's component {_text(part)} has no proven value")
        value ^= found
    if value != claimed:
        raise CertificateError(f"the position's value is {value}, not {claimed} as claimed")
    theorems = {name: len(shapes) for name, shapes in checker.used.items()}
    return Verified(family, board, text, value, len(checker.items), theorems)


Position = tuple[Shape, ...]


def _verify_misere(data: dict[str, Any], processes: int) -> Verified:
    """Check a misère certificate: every position that loses has only options the
    certificate proves wins, every position that wins with a move names an option
    that is one of its own and proven a loss, and the root is one of them."""
    family, board, text = _header(data)
    claimed = data.get("outcome")
    if claimed not in ("N", "P"):
        raise CertificateError(f"outcome {claimed!r} is not 'N' or 'P'")
    entries = data.get("positions")
    if not isinstance(entries, list):
        raise CertificateError("'positions' is not a list")
    moves = MOVES[family]
    fits = (min(board), max(board))
    checker = _Checker(moves, {})

    def position(shapes: Any, what: str) -> Position:
        if not isinstance(shapes, list):
            raise CertificateError(f"{what} is not a list of shapes")
        found = [_canonical(_shape(s, what, fits)) for s in shapes]
        for shape in found:
            if len(_components(*_frame(shape))) != 1:
                raise CertificateError(f"{what}: {_text(shape)} is not one component")
            if not _moves_in(moves, shape):
                raise CertificateError(f"{what}: {_text(shape)} has no move (leave it out)")
        return tuple(sorted(found))

    proven: dict[Position, tuple[int, str, Position | None]] = {}
    for i, entry in enumerate(entries):
        if not (isinstance(entry, list) and len(entry) == 3 and entry[1] in ("N", "P")):
            raise CertificateError(f"position {i} is not [shapes, 'N' or 'P', option or null]")
        key = position(entry[0], f"position {i}")
        witness = None if entry[2] is None else position(entry[2], f"position {i}'s option")
        if key in proven:
            raise CertificateError(f"position {i}: {_named(key)} is stated twice")
        proven[key] = (i, entry[1], witness)
    spread(_Positions(checker, proven), processes)
    root = _canonical_position(checker, moves, _shape(text, "the position", fits))
    found = proven.get(root)
    if found is None:
        raise CertificateError(f"the position ({_named(root)}) is not among those proven")
    if found[1] != claimed:
        raise CertificateError(f"the position is proven {found[1]}, not {claimed} as claimed")
    return Verified(family, board, text, None, len(proven), {}, claimed)


class _Positions:
    """The positions of a misère proof, each checked against the outcomes stated of its
    options."""

    def __init__(
        self, checker: _Checker, proven: dict[Position, tuple[int, str, Position | None]]
    ) -> None:
        self.checker = checker
        self.proven = proven
        self.items = list(proven)

    def check_item(self, key: Position) -> None:
        proven = self.proven
        i, outcome, witness = proven[key]
        options = _position_options(self.checker, self.checker.moves, key)
        if outcome == "P":
            if not options:
                raise CertificateError(
                    f"position {i} ({_named(key)}) has no move, so the player to move wins "
                    "misère play: it is no loss"
                )
            for option in options:
                if proven.get(option, (0, "P", None))[1] != "N":
                    raise CertificateError(
                        f"position {i} ({_named(key)}) is stated a loss, but its option "
                        f"{_named(option)} is not proven a win"
                    )
        elif options:
            if witness is None or witness not in options:
                raise CertificateError(
                    f"position {i} ({_named(key)}) is stated a win, but names no option of "
                    "its own that loses"
                )
            if proven.get(witness, (0, "N", None))[1] != "P":
                raise CertificateError(
                    f"position {i} ({_named(key)}) is stated a win, but its option "
                    f"{_named(witness)} is not proven a loss"
                )

    def found(self) -> None:
        return None


def _moves_in(moves: str, shape: Shape) -> bool:
    """Whether a shape has a move: two cells side by side, or any cell."""
    if moves != "domino":
        return bool(shape)
    have = set(shape)
    return any((r + 1, c) in have or (r, c + 1) in have for r, c in shape)


def _canonical_position(checker: _Checker, moves: str, cells: Shape) -> Position:
    """A position's components with a move, each canonical, sorted."""
    stride, mask = _frame(cells)
    forms = (checker.form(stride, part) for part in _components(stride, mask))
    return tuple(sorted(f for f in forms if _moves_in(moves, f)))


def _position_options(checker: _Checker, moves: str, key: Position) -> set[Position]:
    """The positions one move leaves, each as ``_canonical_position`` keys them."""
    options = set()
    for k, shape in enumerate(key):
        if shape in key[:k]:
            continue  # a copy's options are the first copy's
        rest = key[:k] + key[k + 1 :]
        stride, mask = _frame(shape)
        for option in _options(moves, stride, mask):
            forms = (checker.form(stride, part) for part in _components(stride, option))
            moving = [f for f in forms if _moves_in(moves, f)]
            options.add(tuple(sorted([*rest, *moving])))
    return options


def _named(key: Position) -> str:
    return " + ".join(_text(shape) for shape in key) or "no component with a move"


def _fields(data: Any) -> tuple[str, tuple[int, int], str, int, dict[Shape, Any]]:
    family, board, position = _header(data)
    fits = (min(board), max(board))
    claimed: Any = data.get("value")
    if not nat(claimed):
        raise CertificateError(f"value {claimed!r} is not a Grundy value")
    entries = data.get("facts")
    if not isinstance(entries, list):
        raise CertificateError("'facts' is not a list")
    facts: dict[Shape, Any] = {}
    for i, entry in enumerate(entries):
        written, value, nots = stated(i, entry, "shape")
        shape = _canonical(_shape(written, f"fact {i}", fits))
        if shape in facts:
            raise CertificateError(f"fact {i}: shape {_text(shape)} is stated twice")
        facts[shape] = (i, value, nots, written)
    return family, board, position, int(claimed), facts


def _header(data: Any) -> tuple[str, tuple[int, int], str]:
    """The family, the board and the position every certificate states."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CertificateError(f"not a {FORMAT} (no 'format' field saying so)")
    if data.get("version") != VERSION:
        raise CertificateError(f"version {data.get('version')!r}, where {VERSION} is read")
    family = data.get("family")
    if not isinstance(family, str) or family not in MOVES:
        raise CertificateError(f"family {family!r} is none of {sorted(MOVES)}")
    board = data.get("board")
    if not (isinstance(board, list) and len(board) == 2 and all(nat(n) for n in board)):
        raise CertificateError(f"board {board!r} is not [rows, cols]")
    if not 0 < board[0] * board[1] <= MOST_CELLS:
        raise CertificateError(f"a board of {board[0]} x {board[1]} cells is not read")
    position: Any = data.get("position")
    rows = position.split("/") if isinstance(position, str) else []
    if len(rows) != board[0] or any(len(row) != board[1] for row in rows):
        raise CertificateError(
            f"the position {position!r} is not the board's {board[0]} rows of {board[1]}"
        )
    return family, (board[0], board[1]), position


def _shape(text: Any, what: str, fits: tuple[int, int]) -> Shape:
    """The cells of a shape written as rows (``x`` a cell, ``-`` none, ``/`` between
    rows), within a board of ``fits`` (either way round)."""
    if not isinstance(text, str) or not text or set(text) - set("x-/"):
        raise CertificateError(f"{what}: {text!r} is not a shape (rows of x and -, /)")
    rows = text.split("/")
    if "x" not in text and what != "the position":
        raise CertificateError(f"{what}: {text!r} has no cell")
    size = sorted((len(rows), max(map(len, rows))))
    if size[0] > fits[0] or size[1] > fits[1]:
        raise CertificateError(f"{what}: {text!r} does not fit on the board")
    return tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x")


def _text(cells: Shape) -> str:
    if not cells:
        return "(no cell)"
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    have = set(cells)
    return "/".join(
        "".join("x" if (r, c) in have else "-" for c in range(cols)) for r in range(rows)
    )


def _canonical(cells: Shape | list[Cell]) -> Shape:
    """The least of a shape's images under the square's symmetries, moved to the
    corner, as sorted cells."""
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    pts = [(r - top, c - left) for r, c in cells]
    h = max(r for r, _ in pts)
    w = max(c for _, c in pts)
    return min(
        tuple(sorted(image))
        for image in (
            pts,
            [(r, w - c) for r, c in pts],
            [(h - r, c) for r, c in pts],
            [(h - r, w - c) for r, c in pts],
            [(c, r) for r, c in pts],
            [(c, h - r) for r, c in pts],
            [(w - c, r) for r, c in pts],
            [(w - c, h - r) for r, c in pts],
        )
    )


def _frame(cells: Shape) -> tuple[int, int]:
    """A shape as a bitmask, cell (r, c) at bit ``r * stride + c``: rows one column
    wider than the shape, so that a shift by one never joins two rows."""
    stride = max((c for _, c in cells), default=0) + 2
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * stride + c)
    return stride, mask


def _components(stride: int, mask: int) -> list[int]:
    """The connected components of a shape's bitmask, cells joined side by side."""
    parts = []
    rest = mask
    while rest:
        part = rest & -rest
        while True:
            grown = (part | part << 1 | part >> 1 | part << stride | part >> stride) & rest
            if grown == part:
                break
            part = grown
        rest ^= part
        parts.append(part)
    return parts


def _options(moves: str, stride: int, mask: int) -> list[int]:
    """The shapes a move leaves, as bitmasks."""
    out = []
    rest = mask
    while rest:
        bit = rest & -rest
        rest ^= bit
        if moves == "domino":
            for other in (bit << 1, bit << stride):
                if mask & other:
                    out.append(mask ^ bit ^ other)
        else:
            out.append(mask & ~(bit | bit << 1 | bit >> 1 | bit << stride | bit >> stride))
    return out


class _Checker:
    """The facts, checked one by one, and the values of shapes known without them."""

    def __init__(self, moves: str, facts: dict[Shape, Any]) -> None:
        self.moves = moves
        self.facts = facts
        # Smaller shapes first: a fact's options are smaller.
        self.items = sorted(facts, key=lambda s: (len(s), s))
        # The shapes each theorem valued.
        self.used: dict[str, set[Shape]] = {}
        self._forms: dict[tuple[int, int], Shape] = {}
        self._closed_forms: dict[Shape, int | None] = {}
        self._small: dict[Shape, int] = {}
        self._lines: list[int] = [0]

    def form(self, stride: int, mask: int) -> Shape:
        """The canonical shape of a bitmask's cells."""
        # Moved to the corner first, so that copies of a shape met in different places
        # are one look-up.
        row = (1 << (stride - 1)) - 1
        columns, rest = 0, mask
        while rest:
            columns |= rest & row
            rest >>= stride
        low = mask & -mask
        mask >>= (low.bit_length() - 1) // stride * stride + (columns & -columns).bit_length() - 1
        found = self._forms.get((stride, mask))
        if found is None:
            cells = []
            rest = mask
            while rest:
                bit = rest & -rest
                rest ^= bit
                cells.append(divmod(bit.bit_length() - 1, stride))
            found = self._forms[stride, mask] = _canonical(cells)
        return found

    def parts(self, stride: int, mask: int) -> set[Shape]:
        """The canonical components of a bitmask, pairs of copies left out (G + G =
        0)."""
        odd: set[Shape] = set()
        for part in _components(stride, mask):
            odd ^= {self.form(stride, part)}
        return odd

    def exact(self, shape: Shape) -> int | None:
        """The value of a canonical shape, if proven: by a theorem, by brute force, or
        by a fact."""
        known = self._closed_forms.get(shape, -1)
        if known == -1:
            known = self._closed_forms[shape] = self._closed(shape)
        if known is not None:
            return known
        fact = self.facts.get(shape)
        return None if fact is None else fact[1]

    def _closed(self, shape: Shape) -> int | None:
        if len(shape) <= SMALL:
            return self._brute(shape)
        rows = shape[-1][0] + 1
        cols = max(c for _, c in shape) + 1
        if rows == 1 and cols == len(shape):
            self._count("line", shape)
            return self._line(cols)
        if self.moves != "domino":
            return None
        if rows == 2 and cols * 2 == len(shape):
            self._count("2 x n", shape)
            return cols % 2
        have = set(shape)
        mirrored = all((rows - 1 - r, cols - 1 - c) in have for r, c in shape)
        if mirrored and not any(
            abs(rows - 1 - 2 * r) + abs(cols - 1 - 2 * c) <= 1 for r, c in shape
        ):
            self._count("half-turn", shape)
            return 0
        return None

    def _count(self, name: str, shape: Shape) -> None:
        self.used.setdefault(name, set()).add(shape)

    def _line(self, n: int) -> int:
        while len(self._lines) <= n:
            k = len(self._lines)
            if self.moves == "domino":
                ends = [(i, k - i - 2) for i in range(k - 1)]
            else:
                ends = [(max(i - 1, 0), max(k - i - 2, 0)) for i in range(k)]
            self._lines.append(mex({self._lines[a] ^ self._lines[b] for a, b in ends}))
        return self._lines[n]

    def _brute(self, shape: Shape) -> int:
        found = self._small.get(shape)
        if found is None:
            seen = set()
            stride, mask = _frame(shape)
            for option in _options(self.moves, stride, mask):
                value = 0
                for part in _components(stride, option):
                    value ^= self._brute(self.form(stride, part))
                seen.add(value)
            found = self._small[shape] = mex(seen)
        return found

    def check_item(self, shape: Shape) -> None:
        at, value, nots, text = self.facts[shape]
        known = self._closed(shape)
        if known is not None:
            if value not in (None, known) or known in nots:
                raise CertificateError(
                    f"fact {at} (shape {text}) contradicts its known value {known}"
                )
            return
        judge(f"fact {at} (shape {text})", value, nots, self._possible(shape))

    def _possible(self, shape: Shape) -> set[int]:
        """The values the facts about its options leave a shape."""
        stride, mask = _frame(shape)
        options = []
        for option in _options(self.moves, stride, mask):
            known, unknown = 0, []
            for part in self.parts(stride, option):
                v = self.exact(part)
                if v is None:
                    unknown.append(part)
                else:
                    known ^= v
            options.append((known, unknown))
        return possible(options, self._nots)

    def _nots(self, shape: Shape) -> frozenset[int] | None:
        fact = self.facts.get(shape)
        return None if fact is None else fact[2]

    def found(self) -> dict[str, set[Shape]]:
        return self.used
