"""Misère quotients: nimkit against Siegel's MisereSolver, side by side.

    git clone https://github.com/aaron-siegel/cgsuite /tmp/cgsuite
    python benches/miseresolver.py --cgsuite /tmp/cgsuite [--repeat 3]

Builds MisereSolver from CGSuite's sources with ``javac`` (its Java files in
``lib/core/src/main/scala/org/cgsuite/core/misere/solver``, beside the small
stand-ins in ``benches/peer/misere`` for the Scala classes it names: a heap's options
for an octal code, and ``MisereBench.java``, which times it), then times both
programs on the same codes and heap bounds in this run: the 33 codes of
``tests/data/miseresolver_quotients.txt`` (Kayles ``0.77`` to heap 200, ``0.54``,
``0.75`` among them) and ``0.57`` to heap 60. Each time is the best of ``--repeat``
runs from scratch: nimkit's each in a fresh interpreter (after a first run of the
same code on a rule let go, not timed), MisereSolver's all in one JVM (the same
code runs there ``--repeat`` times: compiled and warm, its best case). The orders
and P-portions must agree. The ratio is MisereSolver's time over nimkit's.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
STAND_INS = ROOT / "benches" / "peer" / "misere"
DATA = ROOT / "tests" / "data" / "miseresolver_quotients.txt"
SOLVER = pathlib.Path("lib/core/src/main/scala/org/cgsuite/core/misere/solver")
# The solver's own files; CommandLineInterface needs the rest of CGSuite.
SOLVER_FILES = [
    "MisereSolver",
    "Pretension",
    "BipartiteMonoid",
    "CommutativeMonoid",
    "DirectSumMonoid",
    "ExplicitFiniteMonoid",
    "Relation",
    "Word",
    "MsvLoader",
]
EXTRA = [("0.57", 60)]


def cases() -> list[tuple[str, int]]:
    """The codes and heap bounds of the test data (lines `code to heap: ...`)."""
    found = []
    for line in DATA.read_text().splitlines():
        if line[:1].isdigit():
            code, _, heap = line.split(":")[0].split()
            found.append((code, int(heap)))
    return found + EXTRA


def build(cgsuite: pathlib.Path, folder: pathlib.Path) -> pathlib.Path:
    """MisereSolver and the stand-ins compiled into `folder`/classes."""
    src = folder / "src"
    shutil.copytree(STAND_INS, src)
    target = src / "org/cgsuite/core/misere/solver"
    for name in SOLVER_FILES:
        shutil.copy(cgsuite / SOLVER / f"{name}.java", target)
    classes = folder / "classes"
    sources = [str(p) for p in src.rglob("*.java")]
    subprocess.run(["javac", "-nowarn", "-d", str(classes), *sources], check=True)
    return classes


def peer_times(
    classes: pathlib.Path, todo: list[tuple[str, int]], repeat: int
) -> dict[tuple[str, int], tuple[int, int, float]]:
    """MisereSolver's order, P-portion size and best time for each case."""
    args = [f"{code}:{heap}" for code, heap in todo]
    out = subprocess.run(
        ["java", "-cp", str(classes), "MisereBench", "--repeat", str(repeat), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result = {}
    for line in out.splitlines():
        code, heap, order, p, seconds = line.split()
        result[code, int(heap)] = (int(order), int(p), float(seconds))
    return result


# One timed run in a fresh interpreter, from scratch. nimkit shares a code's rule,
# with what it computed, while any rule of that code is alive, so the same code
# warms it up first (as MisereSolver's JVM is warm with the same code) on a rule
# let go before the timed one, unless a preset holds the code's rule (Kayles,
# Dawson's Kayles): then the timed run is the first.
ONE_RUN = """
import sys, time
import nimkit as nk
from nimkit.presets import VARIANTS
code, heap = sys.argv[1], int(sys.argv[2])
if code not in {v.rules.code for v in VARIANTS.values()}:
    q = nk.TakeAndBreak(code).misere_quotient(max_heap=heap)
    del q
start = time.perf_counter()
q = nk.TakeAndBreak(code).misere_quotient(max_heap=heap)
print(q.order, len(q.p_portion), time.perf_counter() - start)
"""


def nimkit_time(code: str, heap: int, repeat: int) -> tuple[int, int, float]:
    """nimkit's order, P-portion size and best time, each run from scratch."""
    best = float("inf")
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", ONE_RUN, code, str(heap)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        best = min(best, float(out[2]))
    return int(out[0]), int(out[1]), best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cgsuite", type=pathlib.Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    todo = cases()
    with tempfile.TemporaryDirectory() as folder:
        classes = build(args.cgsuite, pathlib.Path(folder))
        peer = peer_times(classes, todo, args.repeat)
    print(
        f"{'code':>6} {'to heap':>7} {'order':>5} {'|P|':>4} "
        f"{'MisereSolver ms':>15} {'nimkit ms':>10} {'ratio':>7}"
    )
    slowest = float("inf")
    for code, heap in todo:
        order, p, ours = nimkit_time(code, heap, args.repeat)
        peer_order, peer_p, theirs = peer[code, heap]
        assert (order, p) == (peer_order, peer_p), (code, order, p, peer_order, peer_p)
        ratio = theirs / ours
        slowest = min(slowest, ratio)
        print(
            f"{code:>6} {heap:>7} {order:>5} {p:>4} {theirs * 1e3:>15.3f} "
            f"{ours * 1e3:>10.3f} {ratio:>7.1f}"
        )
    print(f"smallest ratio: {slowest:.1f}")


if __name__ == "__main__":
    main()
