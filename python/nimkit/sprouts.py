"""Sprouts (Conway and Paterson, 1967): a move draws a curve joining two spots, or a
spot to itself, crossing no curve, and puts a new spot on it; a spot takes at most
three curve ends. The native core holds a position as its lands (independent parts,
valued once each under a canonical code), searches normal play by proof numbers over
lands beside heaps (as SPOTS does), and misère play over whole positions.

Positions are written in the notation of Applegate, Jacobson and Sleator (1991) and
Lemoine and Viennot (2010), which SPOTS reads too: spots by the lives they have lost
(``0``, ``1``, ``2``), a spot of one life met in two places as a letter, boundaries
between ``.``, regions between ``|``, lands between ``+``, ``0*7`` for seven spots
alone (the guide's Sprouts page).
"""

from __future__ import annotations

import os
from typing import Any, SupportsIndex

from . import _core, cluster, sprouts_checker, sprouts_checkpoint
from ._files import write_json
from .boards import Memory, _evicting
from .games import ImpartialGame, _with_bar
from .outcome import Outcome
from .rules import DEFAULT_MAX_POSITIONS


class Sprouts(ImpartialGame):
    """A Sprouts position: ``Sprouts(7)`` is the game of seven spots, ``Sprouts(text)``
    a position in the string notation. Positions are kept simplified and in a
    canonical form, so ``str()`` writes one string for every way of drawing a
    position, and it reads back as the same game.

    >>> g = Sprouts(5)
    >>> g.grundy(), g.outcome(), g.outcome(misere=True)
    (1, Outcome.N, Outcome.N)
    >>> str(Sprouts("0*18|1a1a"))     # two regions with no spot in common: two lands
    '0*18+1a1a'
    >>> [str(o) for o in Sprouts(1).options()]    # the one move: a loop
    ['AB|AB']
    >>> [str(m) for m in Sprouts(5).winning_moves()]
    ['0*2.AB|0*2.AB']
    """

    __slots__ = ()
    family = "sprouts"

    def __init__(self, position: SupportsIndex | str) -> None:
        if isinstance(position, str):
            native = _core.native_game("sprouts", (None, position))
        else:
            native = _core.native_game("sprouts", (position, None))
        object.__setattr__(self, "_native", native)

    def _arguments(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (str(self),), {}

    def __str__(self) -> str:
        return self._native.text()

    def describe(self) -> str:
        return f"Sprouts at {self}"

    def svg(self) -> str:
        """The position's lands, regions, boundaries and spots (``nimkit.svg.sprouts``)."""
        from . import svg

        return svg.sprouts(self)

    def grundy(
        self,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
        *,
        max_memory: Memory = None,
        evict: bool = False,
        client: Any = None,
        checkpoint: str | os.PathLike[str] | None = None,
        every: float = 600.0,
        certificate: str | os.PathLike[str] | None = None,
    ) -> int:
        """The Grundy value in normal play: the XOR of its lands' values, each searched
        once. ``max_memory`` bounds the table of values (MemoryError past it, or with
        ``evict`` the smallest lands' values dropped and the search going on).
        ``checkpoint``: a directory where the search saves what it learned every
        ``every`` seconds, on Ctrl-C, SIGTERM and at the end, and which a later run
        (of any position) goes on from (see ``nimkit.sprouts_checkpoint``).
        ``client``: a ``distributed.Client`` whose cluster answers the search's
        questions, the answers then kept in ``checkpoint`` (see ``nimkit.cluster``).
        ``certificate``: a file where the value is written with every fact that
        proves it, for ``nimkit.verify`` to check (see ``nimkit.sprouts_checker``).

        >>> Sprouts(3).grundy(), Sprouts("1a1a").grundy()
        (1, 2)
        """
        memory = _evicting(max_memory, evict)
        if certificate is not None:
            if client is not None or checkpoint is not None or evict:
                raise ValueError(
                    "a certificate keeps every fact a search in one process proves: it "
                    "takes no client, no checkpoint and no evict"
                )
            return _certify(self, certificate, memory, progress)
        if client is not None:
            return cluster.solve(
                self,
                client,
                False,
                checkpoint=checkpoint,
                every=every,
                progress=progress,
                max_memory=memory,
                evict=evict,
            )
        if checkpoint is not None:
            value = sprouts_checkpoint.run(self, checkpoint, every, memory, progress, evict)
            return int(value)
        value = _with_bar(
            progress, lambda bar: self._native.grundy(max_positions, bar, memory, evict)
        )
        return int(value)

    def outcome(
        self,
        misere: bool = False,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        progress: bool = False,
        *,
        max_memory: Memory = None,
        evict: bool = False,
        client: Any = None,
        depth: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        every: float = 600.0,
    ) -> Outcome:
        """P or N in normal play (the search asks only whether the value is 0) or in
        misère play (a search over whole positions: misère play has no sum rule).
        ``checkpoint``, ``every``: normal play saved as ``grundy`` saves it.
        ``client``: searched on a Dask cluster, as ``grundy`` is, misère play over
        the top ``depth`` moves (2 if None), the answers kept in ``checkpoint``.

        >>> Sprouts(4).outcome(misere=True)
        Outcome.P
        """
        memory = _evicting(max_memory, evict)
        if client is not None:
            return cluster.outcome(
                self,
                client,
                misere,
                depth=depth,
                checkpoint=checkpoint,
                every=every,
                progress=progress,
                max_memory=memory,
                evict=evict,
            )
        if checkpoint is not None:
            if misere:
                raise ValueError(
                    "misère play searches whole positions and is saved on a cluster "
                    "only (client=); normal play saves a search in one process"
                )
            zero = sprouts_checkpoint.run(self, checkpoint, every, memory, progress, evict, 0)
            return Outcome.P if zero else Outcome.N
        return _with_bar(
            progress,
            lambda bar: self._native.outcome(misere, max_positions, bar, memory, evict),
        )


def _certify(
    game: Sprouts, path: str | os.PathLike[str], max_memory: int | None, progress: bool
) -> int:
    """Search the value of ``game`` with its certificate, write it to ``path`` and
    return the value. The file is JSON: ``format``, ``version``, ``family``,
    ``position``, ``value``, and ``facts``: ``[land, value or null, [values it has
    not]]``, lands of fewest lives first; a name ending in ``.gz`` is compressed."""
    found = _with_bar(progress, lambda bar: _core.sprouts_certificate(str(game), max_memory, bar))
    if found is None:
        raise ValueError(f"a certificate is made for values below 64: {game!r} met one past")
    value, facts = found
    data = {
        "format": sprouts_checker.FORMAT,
        "version": sprouts_checker.VERSION,
        "family": "sprouts",
        "position": str(game),
        "value": value,
        "facts": [[land, v, [n for n in range(64) if nots >> n & 1]] for land, v, nots in facts],
    }
    write_json(data, path)
    return value


__all__ = ["Sprouts"]
