"""Notebook display of misère quotients (``MisereQuotient._repr_html_``), and the
genus of a heap.

>>> from nimkit import TakeAndBreak
>>> q = TakeAndBreak("0.75").misere_quotient()
>>> q.order, q.is_stable
(8, True)
>>> "<table" in q._repr_html_()
True
"""

from __future__ import annotations

import html as _html
from typing import Any, NamedTuple


def html(q: Any) -> str:
    """An HTML summary: order, stability, the presentation (generators with their
    heaps, relations), the P-portion as words, and the multiplication table when it
    is small enough to read. Colours follow the page (light or dark)."""
    esc = _html.escape
    stable = f"stable, period {q.period}" if q.is_stable else "not proven stable"
    gens = ", ".join(f"{esc(name)} (heap {heap})" for name, heap in q.generators)
    p_words = ", ".join(esc(q.word(x)) for x in q.p_portion)
    rows = [
        f"<b>Misère quotient of {esc(q.code)}</b>: order {q.order}, "
        f"heaps 0..{q.max_heap} ({stable})",
        f"<br>generators: {gens or 'none'}",
        f"<br>relations: {esc('; '.join(q.relations)) or 'none'}",
        f"<br>P-portion: {{{p_words}}}",
    ]
    if q.order <= 64:
        table = q.table
        p = set(q.p_portion)

        def cell(x: int) -> str:
            word = esc(q.word(x))
            return f"<b>{word}</b>" if x in p else word

        head = "".join(f"<th>{cell(b)}</th>" for b in range(q.order))
        body = "".join(
            f"<tr><th>{cell(a)}</th>"
            + "".join(f"<td>{cell(int(x))}</td>" for x in table[a])
            + "</tr>"
            for a in range(q.order)
        )
        rows.append(
            "<table><caption>products (P-elements in bold)</caption>"
            f"<tr><th>·</th>{head}</tr>{body}</table>"
        )
    return "<div>" + "".join(rows) + "</div>"


class Genus(NamedTuple):
    """Conway's genus ``base^(sup)`` of a game: its normal-play Grundy value and the
    misère Grundy values of the game plus 0, 1, 2, ... copies of ``*2`` (the last
    two repeat forever). ``str`` gives Conway's notation, e.g. ``0^120``."""

    base: int
    sup: tuple[int, ...]

    def __str__(self) -> str:
        if all(d < 10 for d in self.sup):
            return f"{self.base}^{''.join(map(str, self.sup))}"
        return f"{self.base}^({','.join(map(str, self.sup))})"
