"""The games that split on a Dask cluster against the same search in one process.

    python benches/cluster.py [--games cram:5x7,cram:4x9,sprouts:6] [--workers 1,2]
                              [--depths 1,2] [--misere] [--repeat 1]

For each game: the time of the one-process search on one thread and on every core
(each in a fresh process, ``RAYON_NUM_THREADS`` set), then on a ``LocalCluster`` of
1, 2, ... worker processes of one thread each (a fresh cluster for each run, so no
worker starts with what an earlier run learned; the cluster's start is not timed),
in misère play for each depth of the top; and each time's ratio to the one-process
search on one thread. The answers are checked equal.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from _cpu import describe
from distributed import Client, LocalCluster

import nimkit as nk

ONE_PROCESS = """
import sys, time
import nimkit as nk
sys.path.insert(0, {here!r})
from cluster import game
g = game({spec!r})
started = time.perf_counter()
answer = g.outcome(misere=True) if {misere!r} else g.grundy()
print(time.perf_counter() - started, answer)
"""


def game(spec: str) -> nk.ImpartialGame:
    family, size = spec.split(":")
    if family == "sprouts":
        return nk.Sprouts(int(size))
    rows, cols = map(int, size.split("x"))
    if family == "cram":
        return nk.Cram(rows, cols)
    raise SystemExit(f"unknown family {family!r}: cram or sprouts")


def _one_process(spec: str, misere: bool, threads: int) -> tuple[float, str]:
    code = ONE_PROCESS.format(here=os.path.dirname(__file__), spec=spec, misere=misere)
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    seconds, answer = out.stdout.decode().split()
    return float(seconds), answer


def _on_cluster(spec: str, misere: bool, workers: int, depth: int | None) -> tuple[float, str]:
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"RAYON_NUM_THREADS": "1"},
        ) as cluster,
        Client(cluster) as client,
    ):
        g = game(spec)
        started = time.perf_counter()
        if misere:
            answer: object = g.outcome(misere=True, client=client, depth=depth)
        else:
            answer = g.grundy(client=client)
        return time.perf_counter() - started, str(answer)


def _best(repeat: int, run, *args):  # type: ignore[no-untyped-def]
    return min(run(*args) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="cram:5x7,cram:4x9,sprouts:6")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--depths", default="1,2", help="misère play's tops")
    parser.add_argument("--misere", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print(f"# {describe()}")
    ending = "misère" if args.misere else "normal"
    cores = os.cpu_count() or 1
    print(f"# {ending} play; one process on 1 and {cores} threads, then the cluster")
    print("game         how                                seconds  ratio to 1 thread")
    for spec in args.games.split(","):
        base, answer = _best(args.repeat, _one_process, spec, args.misere, 1)
        print(f"{spec:12} {'one process, 1 thread':34} {base:8.2f}  1.00   ({answer})")
        every, found = _best(args.repeat, _one_process, spec, args.misere, cores)
        assert found == answer, (spec, found, answer)
        print(f"{spec:12} {f'one process, {cores} threads':34} {every:8.2f}  {base / every:.2f}")
        depths = [int(d) for d in args.depths.split(",")] if args.misere else [None]
        for depth in depths:
            for workers in map(int, args.workers.split(",")):
                seconds, found = _best(args.repeat, _on_cluster, spec, args.misere, workers, depth)
                assert found == answer, (spec, depth, workers, found, answer)
                how = f"cluster, {workers} worker{'s' * (workers > 1)}"
                how += "" if depth is None else f", depth {depth}"
                print(f"{spec:12} {how:34} {seconds:8.2f}  {base / seconds:.2f}")


if __name__ == "__main__":
    main()
