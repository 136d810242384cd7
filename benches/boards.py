"""Cram values against Beling's ``igsolve``, the fastest published solver.

    RUSTFLAGS="-C target-cpu=native" cargo install igsolve    # once, not in CI
    python benches/boards.py [--boards 4x9,5x7,5x8] [--repeat 3] [--igsolve PATH]

Each board is solved by each program in a fresh process, the two alternating, with
``igsolve``'s defaults; the script prints the best wall time of each, their ratio, the
peak memory of each process, and checks that both give the same value. Without
``igsolve`` it times nimkit alone.

    python benches/boards.py --misere [--boards 5x7,6x6,4x9]
    python benches/boards.py --winning-moves [--boards 4x9,5x7,5x8]
    python benches/boards.py --evict "16 MiB,4 MiB" [--boards 5x9] [--misere]

``igsolve`` plays normal play only: ``--misere`` times nimkit's misère outcome of each
board on one thread (``RAYON_NUM_THREADS=1``) against all of rayon's threads, each a
fresh process, alternating, and checks that both give the same outcome;
``--winning-moves`` does the same for the normal-play winning moves (their count).
``--evict`` times the value of each board in each bound given, with ``evict=True``,
against the value with no bound (fresh processes, alternating; the ratio is the
bounded run's time over the unbounded one's), and checks the values agree; with
``--misere``, the misère outcome in place of the value.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

from _cpu import describe

NIMKIT = "import sys, nimkit as nk; print(nk.Cram(int(sys.argv[1]), int(sys.argv[2])).grundy())"
MISERE = (
    "import sys, nimkit as nk; "
    "print(nk.Cram(int(sys.argv[1]), int(sys.argv[2])).outcome(misere=True).value)"
)
EVICTING = (
    "import sys, nimkit as nk; "
    "print(nk.Cram(int(sys.argv[1]), int(sys.argv[2])).grundy(max_memory=sys.argv[3], evict=True))"
)
MISERE_EVICTING = (
    "import sys, nimkit as nk; game = nk.Cram(int(sys.argv[1]), int(sys.argv[2])); "
    "print(game.outcome(misere=True, max_memory=sys.argv[3], evict=True).value)"
)
WINNING_MOVES = (
    "import sys, nimkit as nk; "
    "print(len(nk.Cram(int(sys.argv[1]), int(sys.argv[2])).winning_moves()))"
)


def run(command: list[str], env: dict[str, str] | None = None) -> tuple[str, float, float]:
    """A fresh process's output, its wall time in seconds and its peak memory in MB."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    out = process.stdout.read() if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{command} failed ({process.returncode})")
    return out, elapsed, usage.ru_maxrss / 1024


def nimkit_value(rows: int, cols: int) -> tuple[int, float, float]:
    out, elapsed, mb = run([sys.executable, "-c", NIMKIT, str(rows), str(cols)])
    return int(out.split()[-1]), elapsed, mb


def on_threads(
    script: str, rows: int, cols: int, threads: str | None, *more: str
) -> tuple[str, float, float]:
    env = dict(os.environ)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = threads
    out, elapsed, mb = run([sys.executable, "-c", script, str(rows), str(cols), *more], env)
    return out.split()[-1], elapsed, mb


def evicting(bounds: str, boards: str, repeat: int, misere: bool) -> None:
    """The value (or misère outcome) of each board with eviction in each bound,
    against no bound."""
    plain, bounded = (MISERE, MISERE_EVICTING) if misere else (NIMKIT, EVICTING)
    header = ("board", 6), ("bound", 9), ("value", 5), ("s", 8), ("MB", 6)
    print(" ".join(f"{name:>{width}}" for name, width in header), f"{'ratio':>6}")
    for board in boards.split(","):
        rows, cols = (int(x) for x in board.split("x"))
        runs: dict[str, list[tuple[str, float, float]]] = {}
        for _ in range(repeat):
            runs.setdefault("none", []).append(on_threads(plain, rows, cols, None))
            for bound in bounds.split(","):
                runs.setdefault(bound, []).append(on_threads(bounded, rows, cols, None, bound))
        best = {bound: min(r, key=lambda r: r[1]) for bound, r in runs.items()}
        value, unbounded, _ = best["none"]
        for bound, (found, t, mb) in best.items():
            if found != value:
                raise SystemExit(f"{board}: {found} in {bound}, {value} with no bound")
            print(f"{board:>6} {bound:>9} {value:>5} {t:>8.2f} {mb:>6.0f} {t / unbounded:>5.2f}x")


def one_against_all(script: str, what: str, boards: str, repeat: int) -> None:
    """`script`'s answer on each board, one thread against all of rayon's."""
    header = ("board", 6), (what, 7), ("1 thread s", 11), ("MB", 6), ("all s", 8), ("MB", 6)
    print(" ".join(f"{name:>{width}}" for name, width in header), f"{'ratio':>6}")
    for board in boards.split(","):
        rows, cols = (int(x) for x in board.split("x"))
        one, every = [], []
        for _ in range(repeat):
            one.append(on_threads(script, rows, cols, "1"))
            every.append(on_threads(script, rows, cols, None))
        (answer, t1, mb1), (other, t, mb) = (min(r, key=lambda r: r[1]) for r in (one, every))
        if answer != other:
            raise SystemExit(f"{board}: one thread says {answer}, all threads {other}")
        times = f"{t1:>11.2f} {mb1:>6.0f} {t:>8.2f} {mb:>6.0f}"
        print(f"{board:>6} {answer:>7} {times} {t1 / t:>5.2f}x", flush=True)


def igsolve_value(path: str, rows: int, cols: int) -> tuple[int, float, float]:
    # The crates.io release takes --rows and --cols; the repository's head, positions.
    usage = subprocess.run([path, "cram", "--help"], capture_output=True, text=True).stdout
    released = "--rows" in usage
    size = ["--rows", str(rows), "--cols", str(cols)] if released else [str(rows), str(cols)]
    out, elapsed, mb = run([path, "cram", *size])
    found = re.search(r"Nimber of initial position: (\d+)", out)
    if found is None:
        raise RuntimeError(f"igsolve printed no value:\n{out}")
    return int(found.group(1)), elapsed, mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="4x9,5x7,3x14,5x8")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--igsolve", default=shutil.which("igsolve"))
    parser.add_argument("--misere", action="store_true", help="one thread against all, misère")
    parser.add_argument(
        "--winning-moves", action="store_true", help="one thread against all, winning moves"
    )
    parser.add_argument("--evict", metavar="BOUNDS", help="eviction in these bounds, e.g. '4 MiB'")
    args = parser.parse_args()
    print(describe())
    if args.evict:
        evicting(args.evict, args.boards, args.repeat, args.misere)
        return
    if args.misere:
        one_against_all(MISERE, "outcome", args.boards, args.repeat)
        return
    if args.winning_moves:
        one_against_all(WINNING_MOVES, "moves", args.boards, args.repeat)
        return
    header = ("board", 6), ("value", 5), ("nimkit s", 9), ("MB", 6), ("igsolve s", 10), ("MB", 6)
    print(" ".join(f"{name:>{width}}" for name, width in header), f"{'ratio':>6}")
    for board in args.boards.split(","):
        rows, cols = (int(x) for x in board.split("x"))
        ours, theirs = [], []
        for _ in range(args.repeat):
            ours.append(nimkit_value(rows, cols))
            if args.igsolve:
                theirs.append(igsolve_value(args.igsolve, rows, cols))
        value, t, mb = min(ours, key=lambda r: r[1])
        line = f"{board:>6} {value:>5} {t:>9.2f} {mb:>6.0f}"
        if theirs:
            peer, pt, pmb = min(theirs, key=lambda r: r[1])
            if peer != value:
                raise SystemExit(f"{board}: nimkit says {value}, igsolve {peer}")
            line += f" {pt:>10.2f} {pmb:>6.0f} {pt / t:>5.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
