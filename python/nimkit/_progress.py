"""Progress bars for long native work, which reports how far it has got."""

from __future__ import annotations

from typing import Any

from ._extras import require


class Counter:
    """A tqdm bar (``tqdm.auto``: a widget in notebooks, text in terminals) that the
    native core moves to an absolute count (``total`` None: a count with no end
    known); ``close()`` when done."""

    def __init__(self, total: int | None, desc: str) -> None:
        tqdm = require("tqdm.auto", "progress").tqdm
        unit = " values" if total is not None else " found"
        self._bar: Any = tqdm(total=total, desc=desc, unit_scale=True, unit=unit)

    def __call__(self, done: int) -> None:
        total = self._bar.total
        self._bar.update(max(0, (done if total is None else min(done, total)) - self._bar.n))

    def close(self) -> None:
        self._bar.close()


def counter(total: int | None, desc: str) -> Counter:
    return Counter(total, desc)
