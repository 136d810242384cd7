"""What the certificate checkers share, and nothing of any search: reading a file,
and the values that facts about a position's options leave it.

A fact states a part's value, or values it has not. It holds when the options of the
part, each valued from the facts about its own parts, leave the part exactly that:
a value g that no option has, with an option for each of 0 .. g - 1. An option of
unknown value with one part of unknown value but with values it lacks may still be
any of the values it does not lack; the rest may be anything.
"""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import zlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, TypeVar

#: The most bytes of JSON read (a larger file is refused before it fills memory).
MOST_BYTES = 1 << 28

K = TypeVar("K", bound=Hashable)


class CertificateError(ValueError):
    """A certificate that does not prove what it claims: the fact or field named."""

    def __str__(self) -> str:
        return f"Certificate error: {self.args[0]}"


def load(path: str | os.PathLike[str]) -> Any:
    """The JSON (perhaps compressed with gzip) at ``path``."""
    try:
        with open(path, "rb") as f:
            raw = f.read(2)
            f.seek(0)
            with gzip.open(f) if raw == b"\x1f\x8b" else f as stream:
                text = stream.read(MOST_BYTES + 1)
        if len(text) > MOST_BYTES:
            raise CertificateError(
                f"{os.fspath(path)!r} holds more than {MOST_BYTES} bytes of JSON, more "
                "than a certificate this checker reads"
            )
        return json.loads(text)
    except (OSError, EOFError, ValueError, RecursionError, zlib.error) as e:
        # ValueError: bad JSON, bad UTF-8, numbers of too many digits; RecursionError:
        # nesting too deep; zlib.error: a damaged stream.
        raise CertificateError(f"{os.fspath(path)!r} cannot be read as one: {e}") from None


class Checks(Protocol):
    """A checker whose items hold or fail each on its own, whatever order they are
    checked in (each is checked from what the certificate states, never from another
    check's result): so they may be shared out among processes."""

    @property
    def items(self) -> Sequence[Any]:
        """The items, in the order their failures are reported."""

    def check_item(self, item: Any) -> None:
        """CertificateError unless the item holds."""

    def found(self) -> Any:
        """What the checks of the items it was given found besides (None: nothing)."""


def spread(checker: Checks, processes: int) -> list[Any]:
    """Check every item of ``checker``, in ``processes`` processes (each sent the
    checker and every ``processes``-th item; no more processes than cores, each holds
    a copy): CertificateError with the first item that fails, else what each
    process's checker ``found``."""
    if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
        raise ValueError(f"processes={processes!r}: give a number of processes, 1 or more")
    processes = min(processes, len(checker.items), _cores())
    if processes <= 1:
        return [_shared(checker, 0, 1)[1]]
    # Spawned, not forked: forking a process that runs threads (the native searches'
    # pool) may deadlock the child. Pool.__exit__ terminates the children, so Ctrl-C
    # in the parent stops them too.
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes, initializer=_receive, initargs=(checker,)) as pool:
        shares = pool.starmap(_share, [(k, processes) for k in range(processes)], chunksize=1)
    failed = [failure for failure, _ in shares if failure is not None]
    if failed:
        raise CertificateError(min(failed)[1])
    return [found for _, found in shares]


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


_RECEIVED: list[Checks] = []


def _receive(checker: Checks) -> None:
    _RECEIVED.append(checker)


def _share(share: int, shares: int) -> tuple[tuple[int, str] | None, Any]:
    return _shared(_RECEIVED[0], share, shares)


def _shared(checker: Checks, share: int, shares: int) -> tuple[tuple[int, str] | None, Any]:
    """Check items ``share``, ``share + shares``, ...: the first that fails (its place
    and message) or None, and what the checker found."""
    items = checker.items
    for i in range(share, len(items), shares):
        try:
            checker.check_item(items[i])
        except CertificateError as e:
            if shares == 1:
                raise
            return (i, e.args[0]), None
    return None, checker.found()


def nat(n: Any) -> bool:
    """Whether ``n`` is a Grundy value a certificate may state."""
    return isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**32


def stated(i: int, entry: Any, part: str) -> tuple[Any, int | None, frozenset[int]]:
    """Fact ``i`` of a certificate, ``[part, value or null, [values it has not]]``, its
    form checked: the part (as written: the caller reads it), its value and the values
    it lacks."""
    if not (isinstance(entry, list) and len(entry) == 3):
        raise CertificateError(f"fact {i} is not [{part}, value or null, [values it has not]]")
    written, value, nots = entry
    if value is not None and not nat(value):
        raise CertificateError(f"fact {i}: value {value!r} is not a Grundy value")
    if not (isinstance(nots, list) and all(nat(n) for n in nots)):
        raise CertificateError(f"fact {i}: {nots!r} is not a list of values")
    if value is None and not nots:
        raise CertificateError(f"fact {i} states nothing")
    return written, value, frozenset(nots)


def possible(
    options: Sequence[tuple[int, list[K]]], nots: Callable[[K], frozenset[int] | None]
) -> set[int]:
    """The values the facts leave a part whose options are ``options``: each the XOR of
    its parts of known value and its parts of unknown value; ``nots(part)``: the
    values a part is stated not to have (None: no fact about it)."""
    exact: set[int] = set()
    # The options not known exactly: the values each cannot have (empty: any).
    loose: list[frozenset[int]] = []
    for known, unknown in options:
        lacks = nots(unknown[0]) if len(unknown) == 1 else None
        if not unknown:
            exact.add(known)
        elif lacks is not None:
            loose.append(frozenset(n ^ known for n in lacks))
        else:
            loose.append(frozenset())
    most = matched(exact, loose, len(options))
    return {g for g in range(most + 1) if g not in exact}


def judge(name: str, value: int | None, nots: frozenset[int], left: set[int]) -> None:
    """CertificateError unless what the fact ``name`` states (``value``, ``nots``)
    holds of a part its options leave the values ``left``."""
    if value is not None and left != {value}:
        found = f"the value {min(left)}" if len(left) == 1 else f"any of the values {listed(left)}"
        raise CertificateError(f"{name}: its options leave it {found}, not {value} alone")
    if value is not None and value in nots:
        raise CertificateError(f"{name} has and lacks {value}")
    if nots & left:
        raise CertificateError(
            f"{name}: its options do not rule out {listed(nots & left)}, which it is said "
            "not to have"
        )


def matched(exact: set[int], loose: list[frozenset[int]], count: int) -> int:
    """The largest g <= ``count`` such that 0 .. g - 1 can each be given an option of
    its own: one known to have it (``exact``), or a loose one that may have it (each
    loose option given by the values it cannot have)."""
    # An option known to be k serves k and nothing else: each value without one
    # is matched to a loose option, a free one if any takes it, else by an
    # augmenting path (Kuhn's), searched without recursion.
    holder: list[int | None] = [None] * len(loose)

    def place(k: int) -> bool:
        free = next((i for i, h in enumerate(holder) if h is None and k not in loose[i]), None)
        if free is not None:
            holder[free] = k
            return True
        # Depth-first from k: frame d holds a value and the next option to try;
        # path[d] is the option frame d gave its value, whose old value frame
        # d + 1 places. A free option ends the path: each takes its frame's value.
        seen = [False] * len(loose)
        frames = [[k, 0]]
        path: list[int] = []
        while frames:
            frame = frames[-1]
            value, start = frame
            found = next(
                (i for i in range(start, len(loose)) if not seen[i] and value not in loose[i]),
                None,
            )
            if found is None:
                frames.pop()
                if path:
                    path.pop()
                continue
            seen[found] = True
            frame[1] = found + 1
            path.append(found)
            held = holder[found]
            if held is None:
                for d, option in enumerate(path):
                    holder[option] = frames[d][0]
                return True
            frames.append([held, 0])
        return False

    most = 0
    while most < count and (most in exact or place(most)):
        most += 1
    return most


def mex(values: set[int]) -> int:
    """The least value not in ``values``."""
    v = 0
    while v in values:
        v += 1
    return v


def listed(values: set[int] | frozenset[int]) -> str:
    return "{" + ", ".join(map(str, sorted(values))) + "}"
