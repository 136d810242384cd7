"""The octal frontier: nimkit against Czajka's analyzer, side by side, alternating.

    python benches/frontier.py [--peer PATH] [--repeat 1] [--quick] [--moonshot]

Times the Grundy values of dense unsolved games (0.6, Grundy's game 4!.0) to a power
of two, and the proofs of 0.354 and 0.1777, in nimkit (a fresh process each run, on
one core and on two: ``RAYON_NUM_THREADS``) and, with ``--peer``, in Czajka's
analyzer (``old/src`` of tczajka/octal-games; docs/guide/take-and-break.md says how it was built).
The analyzer prints a line at each power of two and when it finds the period: its
time is that of the line, read as it comes, and it is stopped there. Both print
their statistics (largest value and where, mask, rare heaps), checked equal.
``--quick``: the smaller sizes only. ``--moonshot``: 0.6 and Grundy's game to 2**26
values each, nimkit alone (two cores), with their statistics. ``--file``: 0.6 to
2**21 and 2**24 on two cores with the values in memory and in a memory-mapped file
(``checkpoint=``, a temporary directory), alternating.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from _cpu import describe

import nimkit as nk

# (code, peer's name, values as a power of two, or None to the proof of the period)
CASES = [
    ("0.6", "0.6", 21),
    ("4!.0", "grundy", 20),
    ("0.354", "0.354", None),
    ("0.6", "0.6", 24),
    ("4!.0", "grundy", 23),
    ("0.1777", "0.1777", None),
]
QUICK = 3
LINE = re.compile(r"n=2\^(\d+) largest G\[(\d+)\]=(\d+) rare_mask=(\w+) num_rare=(\d+)")


def timed(code: str, log: int | None, folder: str | None = None) -> tuple[float, str]:
    """nimkit's time for the case, in this process, and what it found; with
    ``folder``, checkpointed there (the values in a memory-mapped file)."""
    rule = nk.TakeAndBreak(code)
    start = time.perf_counter()
    if log is None:
        period = rule.period(max_heap=10**9)
        return time.perf_counter() - start, f"period {period}"
    rule.grundy_sequence(2**log, checkpoint=folder, every=60)
    elapsed = time.perf_counter() - start
    s = rule.statistics(2**log)
    return elapsed, f"G[{s['largest_at']}]={s['largest']} mask {s['mask']:x} rare {s['rare']}"


def ours(code: str, log: int | None, cores: int, folder: str | None = None) -> tuple[float, str]:
    """`timed` in a fresh process on `cores` cores (rayon's threads)."""
    call = f"frontier.timed({code!r}, {log!r}, {folder!r})"
    script = f"import frontier; print(*{call}, sep='\\n')"
    env = {**os.environ, "RAYON_NUM_THREADS": str(cores)}
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=here,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return float(out[0]), out[1]


def peer(path: str, name: str, log: int | None) -> tuple[float, str]:
    start = time.perf_counter()
    with subprocess.Popen([path, name], stdout=subprocess.PIPE, text=True) as run:
        assert run.stdout is not None
        try:
            for line in run.stdout:
                found = LINE.match(line)
                if log is None and line.startswith("Found period"):
                    return time.perf_counter() - start, line.strip()
                if found and int(found[1]) == log:
                    _, at, largest, mask, rare = found.groups()
                    return time.perf_counter() - start, f"G[{at}]={largest} mask {mask} rare {rare}"
        finally:
            run.kill()
    raise RuntimeError(f"{path} {name} ended before 2**{log}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", help="Czajka's analyzer, built with maxn = 2**30")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--moonshot", action="store_true")
    parser.add_argument("--file", action="store_true")
    args = parser.parse_args()
    print(f"{describe()}; best of {args.repeat}, alternating\n")
    print(
        "| game | values | nimkit, 1 core | nimkit, 2 cores | peer (1 core) "
        "| speed vs peer, 1 core | 2 cores |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for code, name, log in CASES[: QUICK if args.quick else None]:
        one, two, theirs = [], [], []
        for _ in range(args.repeat):
            one.append(ours(code, log, 1))
            two.append(ours(code, log, 2))
            if args.peer:
                theirs.append(peer(args.peer, name, log))
        best_one, best_two = min(one), min(two)
        assert best_one[1] == best_two[1], (best_one, best_two)
        size = "to the period" if log is None else f"2**{log}"
        if theirs:
            other = min(theirs)
            if log is not None:
                assert best_one[1] == other[1], (best_one, other)
            cells = (
                f"{other[0]:.1f} s | {other[0] / best_one[0]:.2f}x | {other[0] / best_two[0]:.2f}x"
            )
        else:
            cells = "- | - | -"
        print(
            f"| {code} | {size} | {best_one[0]:.1f} s | {best_two[0]:.1f} s | {cells} |"
            f"  <!-- {best_one[1]} -->",
            flush=True,
        )
    if args.file:
        print("\n| game | values | in memory (2 cores) | in a mapped file | file / memory |")
        print("|---|---|---:|---:|---:|")
        for log in (21, 24):
            memory, mapped = [], []
            for _ in range(args.repeat):
                memory.append(ours("0.6", log, 2))
                with tempfile.TemporaryDirectory() as folder:
                    mapped.append(ours("0.6", log, 2, folder))
            a, b = min(memory), min(mapped)
            assert a[1] == b[1], (a, b)
            print(f"| 0.6 | 2**{log} | {a[0]:.1f} s | {b[0]:.1f} s | {b[0] / a[0]:.2f}x |")
    if args.moonshot:
        print(
            "\n| game | values | nimkit (2 cores) | largest at | largest | mask | rare "
            "| last rare |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for code in ("0.6", "4!.0"):
            rule = nk.TakeAndBreak(code)
            start = time.perf_counter()
            rule.grundy_sequence(2**26)
            elapsed = time.perf_counter() - start
            s = rule.statistics(2**26)
            print(
                f"| {code} | 2**26 | {elapsed:.0f} s | {s['largest_at']} | {s['largest']} "
                f"| {s['mask']:x} | {s['rare']} | {s['last_rare']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
