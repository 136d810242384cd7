"""Nim and the games on graphs and boards for machine learning: environments stepped
in the core, exact labels, datasets and move-quality metrics.

- ``NimEnv`` (gymnasium ``Env``), ``NimVectorEnv`` (gymnasium ``VectorEnv``, stepped
  in Rust) and ``NimAEC`` (PettingZoo ``AECEnv``) need the ``rl`` extra
  (``pip install 'nimkit[rl]'``: gymnasium and pettingzoo); so do ``GameEnv``,
  ``GameVectorEnv`` and ``GameAEC``, the same for Node Kayles, Arc Kayles and Cram.
- ``dataset``, ``labels`` and ``move_accuracy`` need numpy alone.

Actions are OpenSpiel's ids for ``nim``: ``(take - 1) * num_heaps + heap``, with
OpenSpiel's ``num_distinct_actions`` = ``num_heaps * largest_heap + 1`` of them (the
last names no move). Normal play is the default here; OpenSpiel's ``nim`` defaults
to misère play (``is_misere=True``).

>>> X, y = dataset([1, 3, 5, 7])
>>> X.shape, y.shape, int(y.any(axis=1).sum())  # 384 positions, 336 of them N
((384, 4), (384, 29), 336)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..boards import _Deleting
from ..games import Heaps
from ..rules import DEFAULT_MAX_POSITIONS, Rules
from ._board import RandomBoards, board, ending

if TYPE_CHECKING:
    from ._aec import GameAEC, NimAEC
    from ._gym import GameEnv, GameVectorEnv, NimEnv, NimVectorEnv

__all__ = [
    "ENV_ID",
    "GameAEC",
    "GameEnv",
    "GameVectorEnv",
    "MoveAccuracy",
    "NimAEC",
    "NimEnv",
    "NimVectorEnv",
    "RandomBoards",
    "action",
    "dataset",
    "labels",
    "move_accuracy",
    "move_of",
]

#: The most positions ``dataset`` and ``move_accuracy`` enumerate by default.
MAX_DATASET_POSITIONS = 10**8
#: The most bytes the positions and labels of a dataset of heaps under a code take.
MAX_DATASET_BYTES = 1 << 32

_LAZY = {
    "NimEnv": "._gym",
    "NimVectorEnv": "._gym",
    "NimAEC": "._aec",
    "GameEnv": "._gym",
    "GameVectorEnv": "._gym",
    "GameAEC": "._aec",
}

#: gymnasium's id for ``NimEnv``: ``gymnasium.make("nimkit/Nim-v0", heaps=[...])``.
ENV_ID = "nimkit/Nim-v0"


def _register() -> None:
    """Register ``ENV_ID`` with gymnasium when it is installed."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point="nimkit.rl._gym:NimEnv")


_register()


def __getattr__(name: str) -> Any:
    """The environments, imported when first asked for (they need the ``rl`` extra)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def action(heap: int, take: int, num_heaps: int) -> int:
    """The action id of taking ``take`` from heap ``heap`` (OpenSpiel's numbering).

    >>> action(heap=2, take=3, num_heaps=4)
    10
    """
    if not 0 <= heap < num_heaps or take < 1:
        raise ValueError(f"no action takes {take} from heap {heap} of {num_heaps}")
    return (take - 1) * num_heaps + heap


def move_of(action: int, num_heaps: int) -> tuple[int, int]:
    """The ``(heap, take)`` that action id ``action`` names.

    >>> move_of(10, num_heaps=4)
    (2, 3)
    """
    if action < 0 or num_heaps < 1:
        raise ValueError(f"no action {action} in a game of {num_heaps} heaps")
    return action % num_heaps, action // num_heaps + 1


def _rows(positions: npt.ArrayLike, width: int) -> npt.NDArray[np.uint64]:
    """Positions as a C-contiguous uint64 array of ``width`` columns."""
    array = np.asarray(positions)
    if array.dtype == object or array.dtype.kind not in "iub":
        raise TypeError(
            f"positions must be an integer array (rows of equal length), not dtype {array.dtype}"
        )
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2 or array.shape[1] != width:
        raise ValueError(f"positions must be rows of {width} heaps, not shape {array.shape}")
    if array.dtype.kind == "i" and (array < 0).any():
        raise ValueError("positions hold a negative heap")
    return np.ascontiguousarray(array, dtype=np.uint64)


def labels(
    positions: npt.ArrayLike,
    heaps: Sequence[int],
    *,
    rules: Rules | None = None,
    misere: bool | None = None,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> dict[str, npt.NDArray[Any]]:
    """The exact labels of ``positions`` (rows) on the board of ``heaps`` (each heap's
    largest size): ``action_mask`` and ``winning_mask`` (int8, one per action) and
    ``is_p`` (bool: the player to move loses against perfect play).

    >>> labels([[1, 0, 2]], heaps=[1, 1, 2])["winning_mask"].nonzero()[1].tolist()
    [2]
    """
    core = board(heaps, rules, misere, max_positions)
    legal, winning, p = core.labels(_rows(positions, len(core.bounds)))
    return {"action_mask": legal.view(np.int8), "winning_mask": winning.view(np.int8), "is_p": p}


def dataset(
    heaps: Sequence[int] | _Deleting | Heaps,
    *,
    labels: str = "winning_mask",
    rules: Rules | None = None,
    misere: bool | None = None,
    sample: int | None = None,
    balance: bool = False,
    max_nonempty: int | None = None,
    max_heap: int | None = None,
    noise: float = 0.0,
    seed: int | None = None,
    max_positions: int = MAX_DATASET_POSITIONS,
    cache: str | os.PathLike[str] | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]]:
    """Positions of a board and their exact labels, ``(X, y)``.

    ``X`` holds every position reachable from ``heaps`` (int64, one row each, the
    last heap changing fastest), or a random ``sample`` of them. ``labels``:
    ``"winning_mask"`` (int8, one per action: legal and winning), ``"action_mask"``
    (int8, legal) or ``"is_p"`` (int8, 1 where the player to move loses).

    A curriculum keeps positions with at most ``max_nonempty`` nonempty heaps and no
    heap over ``max_heap``. ``balance`` samples as many P- as N-positions (the
    smaller class sets the count). ``noise`` flips each label with that
    probability (for masks, each legal action's entry), the same way for the same
    ``seed``.

    >>> X, y = dataset([1, 2], labels="is_p")
    >>> X.tolist(), y.tolist()
    ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]], [1, 0, 0, 0, 1, 0])

    A game on a graph or board (``nk.NodeKayles``, ``nk.ArcKayles``, ``nk.Cram``, at
    most 26 vertices) gives every subset of the vertices it has left, one column a
    vertex (1: left; for Cram, cell ``(r, c)`` is column ``r * cols + c``), labelled
    from its ``value_table()``; its actions are those of ``nimkit.rl.jax`` (the
    vertex, or the edge in ``ValueTable.needs`` order), and ``rules``,
    ``max_nonempty`` and ``max_heap`` do not apply; ``cache``: a directory where the
    value table is kept (``value_table(cache=...)``).

    >>> import nimkit as nk
    >>> X, y = dataset(nk.Cram(2, 2))   # 16 sets of empty cells, 4 dominoes
    >>> X.shape, y.shape, y[-1].tolist()   # the full board: no domino wins
    ((16, 4), (16, 4), [0, 0, 0, 0])

    Heaps (``nk.Heaps``) take their own rules. Under a code that splits heaps, ``X``
    holds every position reachable from the start once, as the heaps of
    ``GameEnv``'s places (largest first, the empty places last), with ``GameEnv``'s
    actions; misère play needs the code's misère quotient.

    >>> X, y = dataset(nk.Heaps([4], nk.Rules(code="0.77")), labels="is_p", misere=True)
    >>> X[:, :2].tolist()   # the positions reachable from a row of 4 pins
    [[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [4, 0]]
    >>> y.tolist()   # misère Kayles: the player to move loses 1 and 4
    [0, 1, 0, 0, 0, 0, 1]
    """
    misere = ending(misere)
    if labels not in ("winning_mask", "action_mask", "is_p"):
        raise ValueError(f"labels must be 'winning_mask', 'action_mask' or 'is_p', not {labels!r}")
    if not 0.0 <= noise <= 1.0:
        raise ValueError(f"noise must be a probability in [0, 1], not {noise!r}")
    if isinstance(heaps, _Deleting):
        if rules is not None or max_nonempty is not None or max_heap is not None:
            raise ValueError("rules, max_nonempty and max_heap are for heaps, not for boards")
        rng = np.random.default_rng(seed)

        def pick(p: npt.NDArray[np.bool_]) -> Any:
            return _pick(p, sample, balance, rng) if balance or sample is not None else slice(None)

        X, legal, winning, p = _every_board_position(
            heaps, bool(misere), max_positions, pick, cache
        )
        return _labelled(X, legal, winning, p, labels, noise, rng)
    if cache is not None:
        raise ValueError("cache keeps the value tables of games on graphs and boards, not heaps")
    if isinstance(heaps, Heaps):
        if rules is not None:
            raise ValueError("nk.Heaps holds its rules: give rules only with a list of heaps")
        rules, heaps = heaps.rules, [int(h) for h in heaps.heaps]
        if rules.splits:
            return _code_dataset(
                heaps, rules, bool(misere), labels, sample, balance, max_nonempty, max_heap,
                noise, seed, max_positions,
            )  # fmt: skip
    core = board(heaps, rules, misere, DEFAULT_MAX_POSITIONS)
    X = core.reachable(list(core.bounds), max_positions)
    keep = np.ones(len(X), bool)
    if max_nonempty is not None:
        keep &= np.count_nonzero(X, axis=1) <= max_nonempty
    if max_heap is not None:
        keep &= (max_heap >= X).all(axis=1)
    X = X[keep] if not keep.all() else X
    rng = np.random.default_rng(seed)
    if balance or sample is not None:
        p = core.labels(X)[2]
        X = X[_pick(p, sample, balance, rng)]
    legal, winning, p = core.labels(X)
    return _labelled(X, legal, winning, p, labels, noise, rng)


def _code_dataset(
    heaps: list[int],
    rules: Rules,
    misere: bool,
    labels: str,
    sample: int | None,
    balance: bool,
    max_nonempty: int | None,
    max_heap: int | None,
    noise: float,
    seed: int | None,
    max_positions: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]]:
    """``dataset`` of heaps under a code that splits them: every position the core
    reaches from the start, labelled by the tables ``GameEnv`` steps on."""
    from .. import _core
    from ..games import Heaps
    from ._heap_tables import MAX_QUOTIENT, heap_tables

    tables = heap_tables(Heaps(heaps, rules), misere, MAX_QUOTIENT)
    q = tables.quotient
    quotient = None if q is None else (q.table.ravel().tolist(), q.elements.tolist(), q.p.tolist())
    start = tables.start.tolist()
    # No game is played (0 of them): the core holds the tables for the walk and labels.
    core = _core.Envs.of_code(
        0, start, tables.values.tolist(), tables.moves, quotient, None, False
    )
    # The rows and the labels in memory bound the walk too.
    most = max(1, MAX_DATASET_BYTES // (8 * tables.slots + 2 * tables.num_actions + 1))
    try:
        X = core.code_positions(start, min(max_positions, most))
    except ValueError as error:
        if most >= max_positions or "positions are reachable" not in str(error):
            raise
        raise ValueError(
            f"more than {most} positions are reachable from the start: their rows and "
            f"labels would take more than {MAX_DATASET_BYTES} bytes (give fewer or "
            "smaller heaps, or a sample of a smaller game)"
        ) from None
    keep = np.ones(len(X), bool)
    if max_nonempty is not None:
        keep &= np.count_nonzero(X, axis=1) <= max_nonempty
    if max_heap is not None:
        keep &= (max_heap >= X).all(axis=1)
    X = np.ascontiguousarray(X[keep]) if not keep.all() else X
    rng = np.random.default_rng(seed)
    if balance or sample is not None:
        X = np.ascontiguousarray(X[_pick(core.label_rows(X)[2], sample, balance, rng)])
    legal, winning, p = core.label_rows(X)
    return _labelled(X, legal, winning, p, labels, noise, rng)


def _labelled(
    X: npt.NDArray[Any],
    legal: npt.NDArray[np.bool_],
    winning: npt.NDArray[np.bool_],
    p: npt.NDArray[np.bool_],
    labels: str,
    noise: float,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any]]:
    """``(X, y)``: the labels asked for, each flipped with probability ``noise``."""
    y: npt.NDArray[Any] = {"winning_mask": winning, "action_mask": legal, "is_p": p}[labels].view(
        np.int8
    )
    if noise > 0:
        flip = rng.random(y.shape) < noise
        if labels == "winning_mask":
            flip &= legal
        y = y ^ flip.view(np.int8)
    return X.astype(np.int64), np.ascontiguousarray(y)


_Masks = npt.NDArray[np.bool_]


def _every_board_position(
    game: _Deleting,
    misere: bool,
    max_positions: int,
    pick: Callable[[_Masks], Any],
    cache: str | os.PathLike[str] | None,
) -> tuple[npt.NDArray[np.int8], _Masks, _Masks, _Masks]:
    """Every subset of the vertices ``game`` has left (those ``pick`` keeps of them,
    from whether each is a P-position), as rows of vertex bits, with the legal and
    winning moves and whether the player to move loses, looked up in the game's value
    table (a slice of rows at a time, to bound the memory)."""
    left = sorted(game._native.numbers())
    count = 1 << len(left)
    if count > max_positions:
        raise ValueError(
            f"the game's {len(left)} vertices make {count} sets, more than "
            f"max_positions = {max_positions}"
        )
    table = game.value_table(cache=cache)
    index = np.arange(count, dtype=np.uint32)
    masks = np.zeros(count, np.uint32)
    for i, v in enumerate(left):
        masks |= ((index >> np.uint32(i)) & np.uint32(1)) << np.uint32(v)
    loses = table.misere_wins == 0 if misere else table.grundy == 0
    masks = masks[pick(loses[masks])]
    count = len(masks)
    legal = np.empty((count, table.needs.size), bool)
    winning = np.empty_like(legal)
    for start in range(0, count, 1 << 14):
        m = masks[start : start + (1 << 14), None]
        legal[start : start + len(m)] = (m & table.needs) == table.needs
        winning[start : start + len(m)] = legal[start : start + len(m)] & loses[m & ~table.deletes]
    vertices = np.arange(table.vertices, dtype=np.uint32)
    X = ((masks[:, None] >> vertices) & 1).astype(np.int8)
    return X, legal, winning, loses[masks]


def _pick(
    p: npt.NDArray[np.bool_], sample: int | None, balance: bool, rng: np.random.Generator
) -> npt.NDArray[np.intp]:
    """Indices of a sample (in increasing order): ``sample`` of them or all, as many
    P as N under ``balance``."""
    if sample is not None and (
        isinstance(sample, bool) or not isinstance(sample, (int, np.integer)) or sample < 0
    ):
        raise ValueError(f"sample must be a count >= 0, not {sample!r}")
    if not balance:
        count = len(p) if sample is None else min(sample, len(p))
        return np.sort(rng.choice(len(p), size=count, replace=False))
    ps, ns = np.flatnonzero(p), np.flatnonzero(~p)
    half = min(len(ps), len(ns))
    if sample is not None:
        half = min(half, sample // 2)
    chosen = np.concatenate(
        [rng.choice(ps, size=half, replace=False), rng.choice(ns, size=half, replace=False)]
    )
    return np.sort(chosen)


@dataclass(frozen=True)
class MoveAccuracy:
    """How a policy's moves compare with the exact winning moves.

    ``accuracy``: the share of positions with a winning move where one of the
    policy's ``k`` best legal actions wins; ``random``: the same share for ``k``
    distinct legal actions drawn at random (exact: ``1 - C(L - W, k) / C(L, k)`` per
    position, averaged); ``positions``: how many positions were judged; ``by_nonempty``:
    the accuracy and the random share by count of nonempty heaps."""

    accuracy: float
    random: float
    positions: int
    k: int
    by_nonempty: dict[int, tuple[float, float, int]]


def move_accuracy(
    policy: Callable[[npt.NDArray[np.int64]], npt.ArrayLike],
    heaps: Sequence[int],
    *,
    k: int = 1,
    positions: npt.ArrayLike | None = None,
    rules: Rules | None = None,
    misere: bool | None = None,
    max_positions: int = MAX_DATASET_POSITIONS,
) -> MoveAccuracy:
    """Top-``k`` accuracy of ``policy`` against the exact winning moves, over every
    position reachable from ``heaps`` (or the rows of ``positions``) that has one.

    ``policy`` takes positions (int64, one row each) and returns a score per action
    (shape positions x actions: higher is better; illegal actions are ignored) or, for
    ``k=1``, one action id per position.

    >>> first_legal = lambda X: labels(X, [1, 3, 5, 7])["action_mask"]
    >>> result = move_accuracy(first_legal, [1, 3, 5, 7])
    >>> result.positions, round(result.random, 3)
    (336, 0.188)
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an int >= 1, not {k!r}")
    core = board(heaps, rules, misere, DEFAULT_MAX_POSITIONS)
    if positions is None:
        X = core.reachable(list(core.bounds), max_positions)
    else:
        X = _rows(positions, len(core.bounds))
    X = X[~core.labels(X)[2]]  # positions with a winning move
    out = np.asarray(policy(X.astype(np.int64)))
    if out.ndim == 1 and out.shape == (len(X),):
        if k != 1:
            raise ValueError("a policy that returns one action a position gives top-1 only")
        if out.dtype.kind not in "iu":
            raise TypeError(f"actions must be ints, not dtype {out.dtype}")
        actions = np.where(out < 2**63, out, -1).astype(np.int64)
        hit = core.judge(X, actions)[1]
        chance = core.rank(X, np.zeros((len(X), core.actions)), 1)[3]
    elif out.shape == (len(X), core.actions):
        # Scores compared as float64, so that near ties are not rounded together;
        # a k past the number of actions ranks them all.
        scores = np.ascontiguousarray(out, dtype=np.float64)
        _, _, hit, chance = core.rank(X, scores, min(k, core.actions))
    else:
        raise ValueError(
            f"the policy returned shape {out.shape}; expected ({len(X)}, {core.actions}) "
            f"scores or ({len(X)},) actions"
        )
    nonempty = np.count_nonzero(X, axis=1)
    by = {
        int(c): (float(hit[sel].mean()), float(chance[sel].mean()), int(sel.sum()))
        for c in np.unique(nonempty)
        for sel in [nonempty == c]
    }
    total = len(X)
    return MoveAccuracy(
        accuracy=float(hit.mean()) if total else float("nan"),
        random=float(chance.mean()) if total else float("nan"),
        positions=total,
        k=k,
        by_nonempty=by,
    )
