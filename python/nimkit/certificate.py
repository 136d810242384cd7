"""Certificates of periods: what proves that a code's Grundy sequence is periodic,
in a form anyone can check again with another computation."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import TakeAndBreak

#: Up to this many values, ``verify_certificate`` recomputes them by the definition;
#: past it (the definition costs O(n) per value), by the sparse-space method, from
#: nothing and without looking for a period.
NAIVE_CHECK_LIMIT = 20_000

#: Values hashed per step (so that hashing a long sequence needs little memory).
_CHUNK = 1 << 22


@dataclass(frozen=True)
class PeriodCertificate:
    """What proves that the Grundy sequence of ``code`` is periodic: ``G(n + period)
    == G(n)`` for every ``n >= preperiod``.

    The octal periodicity theorem (Guy and Smith) proves it from the first
    ``values_checked`` values (``2 * (max(preperiod, 1) + period) + max_take``; 3 for
    2 when moves leave three heaps): if they repeat with the period from
    ``preperiod`` on, so does the whole sequence. ``digest`` is the SHA-256 of those
    values as little-endian uint32, so that a second computation can be compared
    with this one. ``nimkit.verify_certificate`` checks all of it again.
    """

    code: str
    preperiod: int
    period: int
    max_take: int
    values_checked: int
    digest: str

    def to_dict(self) -> dict[str, Any]:
        """The certificate as JSON-ready data."""
        return asdict(self)

    def __str__(self) -> str:
        return "\n".join(
            [
                f"code            {self.code}",
                f"preperiod       {self.preperiod}",
                f"period          {self.period}",
                f"largest take    {self.max_take}",
                f"values checked  {self.values_checked} (heaps 0..{self.values_checked - 1})",
                f"sha256          {self.digest}",
                "theorem         octal periodicity (Guy and Smith): G(n + period) = G(n) "
                "for every n from the preperiod up to the values checked proves it for "
                "every n",
            ]
        )


def digest(values: npt.NDArray[Any]) -> str:
    """SHA-256 of values as little-endian uint32, whatever their dtype."""
    h = hashlib.sha256()
    feed(h, values)
    return h.hexdigest()


def feed(h: Any, values: npt.NDArray[Any]) -> None:
    """Feed ``values`` to the SHA-256 ``h`` as little-endian uint32, a piece at a
    time (a run past memory is read a piece at a time)."""
    for start in range(0, len(values), _CHUNK):
        h.update(values[start : start + _CHUNK].astype("<u4").tobytes())


def certificate(
    rule: TakeAndBreak, max_heap: int | None = None, progress: bool = False
) -> PeriodCertificate:
    """The certificate of ``rule``'s period, computing values up to ``max_heap``;
    ValueError when no period is proven by then (see ``TakeAndBreak.period``)."""
    found = rule.period(max_heap, progress)
    if found is None:
        reach = rule.naive_limit if max_heap is None else max_heap
        raise ValueError(
            f"no period of {rule.code} is proven by the values of heaps up to {reach}"
            + ("" if rule.values_to_prove(0, 1) else " (codes with ! prove no period)")
        )
    preperiod, period = found
    checked = rule.values_to_prove(preperiod, period)
    assert checked is not None  # a proven period has a proof
    values = rule.grundy_sequence(checked)
    return PeriodCertificate(rule.code, preperiod, period, rule.max_take, checked, digest(values))


def verify_certificate(
    certificate: PeriodCertificate, method: str | None = None, progress: bool = False
) -> bool:
    """Check a certificate again, independently of the computation that made it: the
    values are computed from nothing (by the definition up to ``NAIVE_CHECK_LIMIT``
    values, else by the sparse-space method; or as ``method`` says: ``"naive"`` or
    ``"auto"``) in a new rule that never looks for a period, their digest is
    compared, and the periodicity theorem's condition is checked from its statement.
    True when everything holds; ValueError naming what fails otherwise.

    >>> import nimkit as nk
    >>> nk.verify_certificate(nk.TakeAndBreak("0.77").certificate())
    True
    """
    rule = TakeAndBreak(certificate.code)
    needed = rule.values_to_prove(certificate.preperiod, certificate.period)
    if needed is None:
        raise ValueError(f"the periodicity theorem proves nothing for {rule.code}")
    if rule.max_take != certificate.max_take:
        raise ValueError(
            f"the largest take of {rule.code} is {rule.max_take}, not {certificate.max_take}"
        )
    if certificate.values_checked < needed:
        raise ValueError(
            f"the theorem needs {needed} values for this period, the certificate "
            f"checked {certificate.values_checked}"
        )
    if method is None:
        method = "naive" if certificate.values_checked <= NAIVE_CHECK_LIMIT else "auto"
    values = rule.recompute(certificate.values_checked, method, progress)
    if digest(values) != certificate.digest:
        raise ValueError("the values computed again differ from the certified ones")
    window = np.ascontiguousarray(values, dtype=np.uint32)
    if not rule.proves(window, certificate.preperiod, certificate.period):
        raise ValueError(
            f"the values do not repeat with period {certificate.period} from "
            f"{certificate.preperiod} on (or a smaller preperiod holds)"
        )
    return True
