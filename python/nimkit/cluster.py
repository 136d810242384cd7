"""Searches of the games that split — Cram, Node Kayles, Arc Kayles, Sprouts — on a
Dask cluster (the ``dask`` extra).

``nk.Cram(5, 8).grundy(client=client)`` has the core lay out the search's top
(``_core.Top``) as questions, each a task that a worker answers with the core's own
search on its own threads; the client enters the answers as they come, asks what
the answers leave open, and cancels what they make moot:

- normal play: each part of the position is valued by aspiration, as one search
  values it: in round v each of its options is asked "is your value v?" (the pruned
  search's question, much cheaper than a value); the first yes ends the round (the
  rest are cancelled), and when every option has said no the part's value is v;
- misère play, where the sum rule fails: the positions of the first ``depth`` moves
  are laid out (one of each), those at the bottom are asked whether they win, and
  the positions above are settled as soon as the answers decide them (one option
  that loses makes a win), the questions under a settled position cancelled.

Every worker keeps one copy of the game (scattered to it once), so what its searches
learn serves its next questions; a worker lays out the same top from it and names a
question as the client does. A worker that dies loses no answer: Dask asks its
question again elsewhere. With ``checkpoint=DIR`` the answers are saved (every
``every`` seconds, on Ctrl-C and at the end) to ``DIR/cluster-normal.json`` or
``cluster-misere.json``, keyed by what they are about (canonical forms), with a
SHA-256 bound to the game; a client that restarts with the same directory asks only
what they do not answer.

>>> import nimkit as nk
>>> from distributed import Client, LocalCluster
>>> with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
...     with Client(cluster) as client:
...         nk.Cram(4, 5).grundy(client=client), nk.Cram(3, 5).outcome(misere=True, client=client)
(2, Outcome.P)
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core
from ._files import replaced
from .outcome import Outcome

if TYPE_CHECKING:
    from .games import ImpartialGame

#: The depth of the misère top unless asked: each level multiplies the positions.
DEPTH = 2

FORMAT = 1

#: The tops a worker keeps, by the run that laid them out (a run's tasks reuse it):
#: the last only, so that an earlier run's game and tables are not held past it.
_KEPT = 1
_tops: OrderedDict[str, Any] = OrderedDict()
_tops_lock = threading.Lock()

Question = int | tuple[int, int, int]


def _top(root: ImpartialGame, run: str, depth: int | None) -> _core.Top:
    """This worker's copy of the run's top, laid out from its copy of the game (so
    the questions share the family, and what its searches learn)."""
    with _tops_lock:
        top = _tops.get(run)
        if top is None:
            top = _core.Top(root._native, depth)
            _tops[run] = top
            while len(_tops) > _KEPT:
                _tops.popitem(last=False)
        return top


def _answer(
    root: ImpartialGame,
    run: str,
    depth: int | None,
    question: Question,
    memory: int | None,
    evict: bool,
) -> bool:
    """A task: the answer to one question of the run's top."""
    return bool(_top(root, run, depth).ask(question, memory, evict))


def solve(
    game: ImpartialGame,
    client: Any,
    misere: bool,
    *,
    depth: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    every: float = 60.0,
    progress: bool = False,
    max_memory: int | None = None,
    evict: bool = False,
) -> int:
    """The value of ``game`` in normal play, or in misère play 1 if it wins and 0 if
    it loses, searched on ``client``'s cluster (what the games' ``client=`` asks).
    ``depth``: the moves of the misère top (``DEPTH`` if None). ``max_memory`` and
    ``evict`` bound each worker's search as they bound one here."""
    if not callable(getattr(client, "submit", None)):
        raise TypeError(f"client is a distributed.Client, not {client!r}")
    if misere:
        depth = DEPTH if depth is None else depth
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise TypeError(f"depth is a number of moves, not {depth!r}")
    elif depth is not None:
        raise ValueError(
            "depth lays out the top of a misère search; in normal play the options of "
            "the position are asked"
        )
    top = _core.Top(game._native, depth)
    saved = _Saved(checkpoint, game, misere) if checkpoint is not None else None
    known = saved.load() if saved is not None else {}
    try:
        return _drive(client, game, top, depth, known, saved, every, progress, max_memory, evict)
    finally:
        if saved is not None:
            saved.save(known)


def outcome(game: ImpartialGame, client: Any, misere: bool, **how: Any) -> Outcome:
    """The outcome of ``game`` searched on ``client``'s cluster (``solve``): in normal
    play from its value."""
    answer = solve(game, client, misere, **how)
    return Outcome.N if answer else Outcome.P


def _drive(
    client: Any,
    game: ImpartialGame,
    top: _core.Top,
    depth: int | None,
    known: dict[bytes, int],
    saved: _Saved | None,
    every: float,
    progress: bool,
    memory: int | None,
    evict: bool,
) -> int:
    """Ask the top's open questions on the cluster until it has its answer, entering
    answers known (saved) at once and cancelling questions made moot."""
    from distributed import wait

    root = None
    run = uuid.uuid4().hex
    flying: dict[bytes, tuple[Any, list[Question]]] = {}
    bar = None
    if progress:
        from ._progress import counter

        bar = counter(None, "answers")
    answered, last = 0, time.monotonic()
    try:
        while (answer := top.answer()) is None:
            open_ = top.open()
            ready = [(q, key) for q, key, _ in open_ if key in known]
            for q, key in ready:
                top.tell(q, bool(known[key]))
            if ready:
                continue
            if root is None:
                root = client.scatter(game, broadcast=True, hash=False)
            for q, key, rank in open_:
                if key in flying:
                    if q not in flying[key][1]:
                        flying[key][1].append(q)
                    continue
                future = client.submit(
                    _answer, root, run, depth, q, memory, evict,
                    key=f"nimkit-{run}-{key.hex()}", priority=-rank, pure=False,
                )  # fmt: skip
                flying[key] = (future, [q])
            done, _ = wait([f for f, _ in flying.values()], return_when="FIRST_COMPLETED")
            for key in [k for k, (f, _) in flying.items() if f in done]:
                future, questions = flying.pop(key)
                known[key] = int(future.result())
                for q in questions:
                    top.tell(q, bool(known[key]))
                answered += 1
            if bar is not None:
                bar(answered)
            moot = [k for k, (_, qs) in flying.items() if all(top.stale(q) for q in qs)]
            if moot:
                client.cancel([flying.pop(k)[0] for k in moot])
            if saved is not None and time.monotonic() - last >= every:
                saved.save(known)
                last = time.monotonic()
        return int(answer)
    finally:
        if flying:
            client.cancel([f for f, _ in flying.values()])
        if bar is not None:
            bar.close()


class _Saved:
    """The answers a cluster search found, kept in a directory across restarts."""

    def __init__(
        self, directory: str | os.PathLike[str], game: ImpartialGame, misere: bool
    ) -> None:
        folder = Path(directory)
        if folder.exists() and not folder.is_dir():
            raise NotADirectoryError(f"the checkpoint {folder} is a file, not a directory")
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"cluster-{'misere' if misere else 'normal'}.json"
        self.game = _fingerprint(game)

    def _digest(self, answers: dict[str, int]) -> str:
        described = {"format": FORMAT, "game": self.game, "answers": answers}
        return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()

    def save(self, known: dict[bytes, int]) -> None:
        answers = {key.hex(): answer for key, answer in known.items()}
        saved = {
            "format": FORMAT,
            "game": self.game,
            "answers": answers,
            "sha256": self._digest(answers),
        }
        with replaced(self.path) as out:
            json.dump(saved, out)

    def load(self) -> dict[bytes, int]:
        """The answers saved (none if there is no file yet)."""
        if not self.path.exists():
            return {}

        def damaged(why: str) -> ValueError:
            return ValueError(f"the cluster checkpoint {self.path} is damaged or not one: {why}")

        try:
            saved = json.loads(self.path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise damaged(f"it does not read as JSON ({error})") from None
        if not isinstance(saved, dict) or saved.get("format") != FORMAT:
            raise damaged(f"its format is not {FORMAT!r}")
        if saved.get("game") != self.game:
            raise ValueError(
                f"the cluster checkpoint {self.path} belongs to another game "
                f"({saved.get('game')!r}, not {self.game!r})"
            )
        answers = saved.get("answers")
        if not isinstance(answers, dict) or saved.get("sha256") != self._digest(answers):
            raise damaged("its checksum does not match its answers")
        known = {}
        for key, answer in answers.items():
            if answer not in (0, 1) or type(answer) is not int:
                raise damaged(f"the answer {answer!r} to {key} is not 1 (yes) or 0 (no)")
            try:
                known[bytes.fromhex(key)] = answer
            except ValueError:
                raise damaged(f"the key {key!r} is not hexadecimal") from None
        return known


def _fingerprint(game: ImpartialGame) -> dict[str, Any]:
    """What tells one game's parts from another's: a graph's family and edges; Cram's
    parts are keyed by their shape, Sprouts' lands by their canonical code, the same
    on every board and in every game."""
    if game.family in ("cram", "sprouts"):
        return {"family": game.family}
    from .board_checkpoint import fingerprint

    return fingerprint(game)


__all__ = ["DEPTH", "outcome", "solve"]
