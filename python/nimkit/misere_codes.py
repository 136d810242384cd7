"""The misère quotients of every octal code with few digits, as a table.

Each code's quotient (``TakeAndBreak.misere_quotient``) is computed up to
``max_heap``, stopping early once the heap-to-element map is proven periodic, with
candidates of at most ``max_elements`` elements (a code whose quotient outgrows them
is reported as too large, with the quotient of the heaps before). Written to a CSV
file, the table is rewritten whole after each code, so a run stopped at any point
(Ctrl-C, a killed process) resumes from the codes already in it.
"""

from __future__ import annotations

import csv
import operator
import os
import pathlib
import re
from collections.abc import Iterator
from dataclasses import astuple, dataclass, fields
from typing import SupportsIndex, TextIO

from . import _core
from ._extras import require
from ._files import replaced

__all__ = ["MisereTableRow", "misere_table", "octal_codes", "write_csv"]


@dataclass(frozen=True)
class MisereTableRow:
    """One code's misère quotient, as far as it was computed.

    ``order`` and ``p_portion`` (its size) are those of the quotient of heaps up to
    ``max_heap``; ``last_change`` is the heap at which it last grew (0: never).
    ``preperiod`` and ``period`` are set when the heap-to-element map is proven
    periodic: then the quotient holds for heaps of any size, and ``stable`` is True.
    ``too_large_at`` is the heap whose candidates outgrew ``max_elements`` (then the
    quotient is the one of the heaps before it)."""

    code: str
    order: int
    p_portion: int
    max_heap: int
    last_change: int
    preperiod: int | None
    period: int | None
    too_large_at: int | None

    @property
    def stable(self) -> bool:
        return self.period is not None

    @property
    def status(self) -> str:
        """``stable from heap H``, ``not stable by heap N``, or ``too large at heap H``."""
        if self.too_large_at is not None:
            return f"too large at heap {self.too_large_at}"
        if self.stable:
            return f"stable from heap {self.last_change}"
        return f"not stable by heap {self.max_heap}"


def octal_codes(digits: SupportsIndex = 2) -> list[str]:
    """Every octal code ``0.d1..dk`` with ``1 <= k <= digits`` and ``dk`` not 0, in
    order of their digits.

    >>> codes = octal_codes(2)
    >>> len(codes), codes[:3], codes[-1]
    (63, ['0.01', '0.02', '0.03'], '0.77')
    """
    k = int(digits)
    if not 1 <= k <= 4:
        raise ValueError(f"digits must be 1 to 4, not {k}")
    found = []
    for number in range(1, 8**k):
        text = format(number, "o").rjust(k, "0").rstrip("0")
        found.append("0." + text)
    return sorted(set(found), key=lambda c: c[2:].ljust(k, "0"))


def misere_table(
    digits: SupportsIndex = 2,
    max_heap: SupportsIndex = 300,
    max_elements: SupportsIndex = 4096,
    path: str | os.PathLike[str] | None = None,
    progress: bool = False,
) -> list[MisereTableRow]:
    """The misère quotient of every octal code with up to ``digits`` digits after the
    point (``octal_codes``): one row each, in code order.

    ``path``: a CSV file the table is written to as it grows (rewritten whole, by an
    atomic rename, after each code); codes already in it are not computed again, so
    a stopped run resumes. Rows computed with another ``max_heap`` or
    ``max_elements`` are refused. ``progress``: a tqdm bar over the codes.

    >>> rows = misere_table(digits=1, max_heap=60)
    >>> for r in rows[1:4]:
    ...     print(r.code, r.order, r.p_portion, r.status)
    0.2 2 1 stable from heap 2
    0.3 2 1 stable from heap 1
    0.4 176 28 too large at heap 31
    """
    # operator.index refuses 2.5 rather than running with 2.
    heap, limit = operator.index(max_heap), operator.index(max_elements)
    for name, value in (("max_heap", heap), ("max_elements", limit)):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, not {value}")
    if path is not None and pathlib.Path(path).is_dir():
        raise ValueError(f"path {str(path)!r} is a directory: give the table's file")
    codes = octal_codes(digits)
    done = _read(pathlib.Path(path), heap, limit) if path is not None else {}
    rows = []
    for code in _progress(codes, progress):
        row = done.get(code)
        if row is None:
            row = _row(code, heap, limit)
            done[code] = row
            if path is not None:
                _write(pathlib.Path(path), [done[c] for c in codes if c in done], heap, limit)
        rows.append(row)
    return rows


def _row(code: str, max_heap: int, max_elements: int) -> MisereTableRow:
    rule = _core.TakeAndBreak(code)
    too_large_at = None
    try:
        q = rule.misere_quotient(max_heap=max_heap, max_elements=max_elements)
    except ValueError as err:
        # The rule keeps the heaps it solved: their quotient is read off at once.
        match = re.search(r"extended to heap (\d+)", str(err))
        if match is None:
            raise
        too_large_at = int(match.group(1))
        q = rule.misere_quotient(max_heap=too_large_at - 1, max_elements=max_elements)
    period = q.period
    return MisereTableRow(
        code=code,
        order=q.order,
        p_portion=len(q.p_portion),
        max_heap=q.max_heap,
        last_change=q.changes[-1] if q.changes else 0,
        preperiod=None if period is None else period[0],
        period=None if period is None else period[1],
        too_large_at=too_large_at,
    )


_COLUMNS = [f.name for f in fields(MisereTableRow)] + ["status"]
_HEADER = "# misère quotients to heap {} with candidates of at most {} elements"


def write_csv(rows: list[MisereTableRow], out: TextIO, max_heap: int, max_elements: int) -> None:
    """The table as ``misere_table`` writes it: a comment line with its bounds, then
    CSV with a header row (the fields of ``MisereTableRow``, then ``status``)."""
    out.write(_HEADER.format(max_heap, max_elements) + "\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_COLUMNS)
    for row in rows:
        values = ["" if v is None else v for v in astuple(row)]
        writer.writerow([*values, row.status])


def _write(path: pathlib.Path, rows: list[MisereTableRow], max_heap: int, limit: int) -> None:
    with replaced(path, newline="") as out:
        write_csv(rows, out, max_heap, limit)


def _read(path: pathlib.Path, max_heap: int, limit: int) -> dict[str, MisereTableRow]:
    if not path.exists():
        return {}
    with open(path, newline="") as source:
        header = source.readline().strip()
        if header != _HEADER.format(max_heap, limit):
            raise ValueError(
                f"{path} holds another table ({header!r}); this one is "
                f"{_HEADER.format(max_heap, limit)[2:]!r}"
            )
        rows = {}
        for record in csv.DictReader(source):
            rows[record["code"]] = MisereTableRow(
                code=record["code"],
                order=int(record["order"]),
                p_portion=int(record["p_portion"]),
                max_heap=int(record["max_heap"]),
                last_change=int(record["last_change"]),
                preperiod=_optional(record["preperiod"]),
                period=_optional(record["period"]),
                too_large_at=_optional(record["too_large_at"]),
            )
    return rows


def _optional(text: str) -> int | None:
    return int(text) if text else None


def _progress(codes: list[str], progress: bool) -> Iterator[str]:
    if not progress:
        yield from codes
        return
    tqdm = require("tqdm.auto", "progress").tqdm
    yield from tqdm(codes, desc="codes", unit=" codes")
