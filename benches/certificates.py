"""What a certificate of a board's value costs: the search that records it against the
plain search of the same value, the file's size, and the independent checker's time.

    python benches/certificates.py [--boards cram:4x7,cram:5x6,node:3x14] [--repeat 3]
    python benches/certificates.py --boards sprouts:3,sprouts:4,sprouts:5 --repeat 1
    python benches/certificates.py --misere [--boards cram:3x8,cram:4x6,node:3x10]
    python benches/certificates.py --boards node:3x21 --repeat 1 --processes 2

For each board: the best time of ``grundy()`` (a fresh game each time, all threads),
of ``grundy(certificate=...)`` (one thread, no end-game databases nor reductions)
and their ratio; the facts and the compressed file's bytes; the best time of
``nimkit.verify`` (pure Python) and its facts per second. The values of the three
are checked equal. With ``--misere`` the same of misère outcomes
(``outcome(misere=True, certificate=...)``), the facts being the proof's positions.
With ``--processes N`` the checker also runs on N processes (``verify(path,
processes=N)``), its time and its speed-up over one process printed after.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import networkx as nx
from _cpu import describe

import nimkit as nk

DEFAULT = "cram:4x7,cram:5x6,node:3x14"


def _game(spec: str) -> nk.ImpartialGame:
    family, size = spec.split(":")
    if family == "sprouts":
        return nk.Sprouts(int(size))
    rows, cols = map(int, size.split("x"))
    if family == "cram":
        return nk.Cram(rows, cols)
    if family == "node":
        return nk.NodeKayles(nx.grid_2d_graph(rows, cols))
    raise SystemExit(f"unknown family {family!r}: cram, node or sprouts")


def _best(repeat: int, run):  # type: ignore[no-untyped-def]
    best, found = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        found = run()
        best = min(best, time.perf_counter() - started)
    return best, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--misere", action="store_true", help="misère outcomes")
    parser.add_argument("--processes", type=int, default=1, help="also verify on N processes")
    args = parser.parse_args()
    if args.misere:
        _misere(args)
        return
    print(f"# {describe()}")
    print(
        "board       plain s  certified s  ratio   facts   bytes (gz)  verify s  facts/s"
        + _shared_head(args)
    )
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.json.gz")
        for spec in args.boards.split(","):
            plain, value = _best(args.repeat, lambda spec=spec: _game(spec).grundy())
            certified, proved = _best(
                args.repeat, lambda spec=spec: _game(spec).grundy(certificate=path)
            )
            checking, checked = _best(args.repeat, lambda: nk.verify(path))
            assert value == proved == checked.value, (spec, value, proved, checked)
            print(
                f"{spec:<11} {plain:7.3f}  {certified:11.3f}  {certified / plain:5.1f}"
                f"  {checked.facts:6}  {os.path.getsize(path):10}  {checking:8.2f}"
                f"  {checked.facts / checking:7.0f}" + _shared(args, path, checking, checked)
            )


def _misere(args: argparse.Namespace) -> None:
    boards = args.boards if args.boards != DEFAULT else "cram:3x8,cram:4x6,cram:4x7,node:3x10"
    print(f"# {describe()}")
    print(
        "board       plain s  certified s  ratio  outcome  positions  bytes (gz)  verify s"
        + _shared_head(args)
    )
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.json.gz")
        for spec in boards.split(","):
            plain, outcome = _best(args.repeat, lambda s=spec: _game(s).outcome(misere=True))
            certified, proved = _best(
                args.repeat,
                lambda s=spec: _game(s).outcome(misere=True, certificate=path),
            )
            checking, checked = _best(args.repeat, lambda: nk.verify(path))
            assert outcome.value == proved.value == checked.outcome, (spec, outcome, checked)
            print(
                f"{spec:<11} {plain:7.3f}  {certified:11.3f}  {certified / plain:5.1f}"
                f"  {checked.outcome:>7}  {checked.facts:9}  {os.path.getsize(path):10}"
                f"  {checking:8.2f}" + _shared(args, path, checking, checked)
            )


def _shared_head(args: argparse.Namespace) -> str:
    return f"  on {args.processes} s  speed-up" if args.processes > 1 else ""


def _shared(args: argparse.Namespace, path: str, alone: float, checked: object) -> str:
    """The checker's best time on ``--processes`` processes and its speed-up, the
    same result checked."""
    if args.processes == 1:
        return ""
    shared, again = _best(args.repeat, lambda: nk.verify(path, processes=args.processes))
    assert str(again) == str(checked), (again, checked)
    return f"  {shared:7.2f}  {alone / shared:8.2f}"


if __name__ == "__main__":
    main()
