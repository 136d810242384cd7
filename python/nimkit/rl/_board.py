"""What the environments share: the board a game is played on, the start it draws,
and the observation encodings. The game itself (moves, labels, opponents) is the
core's (``nimkit._core.Board`` and ``Envs``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .. import _core
from ..rules import Rules, with_ending

#: The observation encodings (see ``Encoder``).
Observation = Literal["heaps", "binary", "openspiel"]


@dataclass(frozen=True)
class RandomBoards:
    """Random starting boards: ``heaps`` heaps in all, of which a number drawn
    uniformly in ``count`` (low, high) are nonempty, each of a size drawn uniformly in
    ``sizes`` (low, high), placed at random; the rest are empty.

    >>> RandomBoards(heaps=5, count=(2, 5), sizes=(1, 9)).bounds
    [9, 9, 9, 9, 9]
    """

    heaps: int
    count: tuple[int, int]
    sizes: tuple[int, int]

    def __post_init__(self) -> None:
        _count("heaps", self.heaps, 1)
        for name, bounds in (("count", self.count), ("sizes", self.sizes)):
            if not isinstance(bounds, Sequence) or len(bounds) != 2:
                raise ValueError(f"{name} must be a pair (low, high), not {bounds!r}")
            low, high = (_count(f"{name}'s bound", b, 0) for b in bounds)
            if low > high:
                raise ValueError(f"{name} must have low <= high, not {bounds!r}")
        if self.count[1] > self.heaps:
            raise ValueError(f"count {self.count} asks for more than {self.heaps} heaps")

    @property
    def bounds(self) -> list[int]:
        """The largest size of each heap."""
        return [self.sizes[1]] * self.heaps


Heaps = Sequence[int] | RandomBoards


def start_of(heaps: Heaps) -> tuple[Any, list[int]]:
    """The core's form of a start, and the bound of each heap."""
    if isinstance(heaps, RandomBoards):
        return (heaps.heaps, tuple(heaps.count), tuple(heaps.sizes)), heaps.bounds
    if isinstance(heaps, (str, bytes)) or not isinstance(heaps, Sequence):
        raise TypeError(
            f"heaps must be a sequence of ints or RandomBoards, not {type(heaps).__name__}"
        )
    sizes = []
    for i, n in enumerate(heaps):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"heap {i} must be an int, not {type(n).__name__}")
        sizes.append(_count(f"heap {i}", n, 0))
    return sizes, sizes


def _count(name: str, n: object, low: int) -> int:
    """``n`` as an int of at least ``low`` that fits 64 bits, or an error naming it."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    if n < low:
        raise ValueError(f"{name} is {'negative' if low == 0 else f'below {low}'} ({n})")
    if n >= 2**64:
        raise ValueError(f"{name} is past 2**64 - 1 ({n})")
    return int(n)


def ending(misere: object) -> bool | None:
    """``misere`` as a bool (None: the rules' own ending), or a TypeError."""
    if misere is None or isinstance(misere, (bool, np.bool_)):
        return None if misere is None else bool(misere)
    raise TypeError(f"misere must be True, False or None, not {misere!r}")


def board(heaps: Heaps, rules: Rules | None, misere: bool | None, max_positions: int) -> Any:
    """The core's board for these heaps and rules."""
    _, bounds = start_of(heaps)
    return _core.Board(bounds, with_ending(rules, misere), max_positions)


class Encoder:
    """Turns the heaps of many games into observations.

    - ``"heaps"``: the heap sizes (int64, one per heap).
    - ``"binary"``: the binary digits of each heap, least significant first (int8,
      heaps x digits).
    - ``"openspiel"``: OpenSpiel's ``nim`` observation tensor (float32): the player to
      move one-hot, whether the game is over, the number of heaps one-hot, then each
      heap one-hot over 0..largest.

    ``history`` > 1 (at most 4096) stacks the last ``history`` observations of a
    game, oldest first (zeros before its start).
    """

    def __init__(self, kind: str, bounds: list[int], history: int = 1) -> None:
        if kind not in ("heaps", "binary", "openspiel"):
            raise ValueError(f"observation must be 'heaps', 'binary' or 'openspiel', not {kind!r}")
        if isinstance(history, bool) or not isinstance(history, int) or not 1 <= history <= 4096:
            raise ValueError(f"history must be an int in [1, 4096], not {history!r}")
        self.kind, self.bounds, self.history = kind, bounds, history
        self.m, self.top = len(bounds), max(max(bounds), 1)
        self.digits = self.top.bit_length()

    @property
    def shape(self) -> tuple[int, ...]:
        """One game's observation shape."""
        one = {
            "heaps": (self.m,),
            "binary": (self.m, self.digits),
            "openspiel": (3 + self.m + self.m * (self.top + 1),),
        }[self.kind]
        return (self.history, *one) if self.history > 1 else one

    def space(self) -> Any:
        """One game's gymnasium observation space."""
        spaces = _gym().spaces
        if self.kind == "heaps":
            one_high: Any = np.array(self.bounds, dtype=np.int64)
            high = np.broadcast_to(one_high, self.shape).copy()
            return spaces.Box(0, high, self.shape, np.int64)
        dtype = np.int8 if self.kind == "binary" else np.float32
        return spaces.Box(0, 1, self.shape, dtype)

    def encode(
        self,
        heaps: npt.NDArray[np.int64],
        moves: npt.NDArray[Any] | None,
        over: npt.NDArray[np.bool_] | None,
    ) -> npt.NDArray[Any]:
        """Observations of games with these heaps (one row a game), moves made so far
        and whether each is over (needed by "openspiel" alone); without history."""
        if self.kind == "heaps":
            return heaps
        if self.kind == "binary":
            shifts = np.arange(self.digits, dtype=np.int64)
            return ((heaps[..., None] >> shifts) & 1).astype(np.int8)
        n = len(heaps)
        out = np.zeros((n, 3 + self.m + self.m * (self.top + 1)), dtype=np.float32)
        rows = np.arange(n)
        if moves is None:
            raise ValueError("the openspiel observation needs the moves made")
        out[rows, moves.astype(np.int64) % 2] = 1
        out[:, 2] = over if over is not None else ~heaps.any(axis=1)
        out[:, 2 + self.m] = 1
        offsets = 3 + self.m + np.arange(self.m) * (self.top + 1)
        out[rows[:, None], offsets + heaps] = 1
        return out

    def render(self, row: npt.NDArray[np.int64]) -> str:
        """One position as text: its heap sizes."""
        return " ".join(str(n) for n in row.tolist())


class VertexEncoder:
    """Turns the positions of many games on a graph or board (masks of the vertices
    left) into observations: int8, 1 for each vertex left, shaped as the board
    (``rows x cols`` for Cram: 1 for each empty cell) or one per vertex of a graph.
    ``history`` as ``Encoder``'s.
    """

    kind = "vertices"

    def __init__(
        self, vertices: int, board: tuple[int, ...], names: tuple[Any, ...], history: int = 1
    ) -> None:
        if isinstance(history, bool) or not isinstance(history, int) or not 1 <= history <= 4096:
            raise ValueError(f"history must be an int in [1, 4096], not {history!r}")
        self.vertices, self.board, self.names, self.history = vertices, board, names, history

    @property
    def shape(self) -> tuple[int, ...]:
        """One game's observation shape."""
        return (self.history, *self.board) if self.history > 1 else self.board

    def space(self) -> Any:
        """One game's gymnasium observation space."""
        return _gym().spaces.Box(0, 1, self.shape, np.int8)

    def encode(
        self,
        masks: npt.NDArray[np.int64],
        moves: npt.NDArray[Any] | None,
        over: npt.NDArray[np.bool_] | None,
    ) -> npt.NDArray[Any]:
        """Observations of games at these positions (one mask a row); without history."""
        # A mask's four bytes, least significant first, unpacked bit by bit.
        quads = np.ascontiguousarray(masks[:, 0], dtype="<u4").view(np.uint8).reshape(-1, 4)
        bits = np.unpackbits(quads, axis=1, bitorder="little")[:, : self.vertices]
        return bits.view(np.int8).reshape(len(masks), *self.board)

    def render(self, row: npt.NDArray[np.int64]) -> str:
        """One position as text: a board's rows (``.`` empty, ``#`` filled), or the
        vertices of a graph left."""
        bits = self.encode(row[None], np.zeros(1, np.uint32), None)[0]
        if len(self.board) == 2:
            return "\n".join("".join(".#"[1 - b] for b in line) for line in bits.tolist())
        left = [str(self.names[v]) for v in np.flatnonzero(bits)]
        return "vertices left: " + (" ".join(left) if left else "none")


class History:
    """The last ``depth`` observations of each of many games."""

    def __init__(self, depth: int, count: int, shape: tuple[int, ...], dtype: Any) -> None:
        self.frames = np.zeros((count, depth, *shape), dtype=dtype)

    def start(self, which: npt.NDArray[np.bool_], obs: npt.NDArray[Any]) -> None:
        """Games ``which`` begin again at ``obs``."""
        self.frames[which] = 0
        self.frames[which, -1] = obs[which]

    def push(self, obs: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Every game moves on to ``obs``; returns a copy of the stacks."""
        self.frames[:, :-1] = self.frames[:, 1:]
        self.frames[:, -1] = obs
        return self.frames.copy()


def _gym() -> Any:
    from .._extras import require

    return require("gymnasium", "rl")
