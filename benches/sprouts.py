"""The n-spot games of Sprouts: nimkit's outcome against SPOTS (Čížek, Balko and Schmid
2025, ``cizektom/spots``), the fastest published solver, on one thread.

    python benches/sprouts.py [--spots 12] [--spots-python PATH] [--misere 6]

Each n-spot game is solved in a fresh process, by ``nk.Sprouts(n).outcome()`` (normal
play) and, given the Python of an environment where SPOTS is installed, by its
sequential depth-first proof-number search (``spots._cpp.DfpnSolver_Sprouts``, its
command line's defaults: a table of 100,000 entries, no heuristics, seed 0; it keeps
nothing between processes). The script prints each wall time of the solving alone (not
the start of Python), their ratio, and checks both outcomes against the published
one: the first player wins iff n mod 6 is 3, 4 or 5 (Applegate, Jacobson and Sleator
1991; Lemoine and Viennot, to 44 spots). ``--misere N`` adds nimkit's misère outcome
to N spots, checked against OEIS A164950 (SPOTS plays normal play only, and no other
published misère solver runs here, so that column has no ratio). SPOTS builds offline
from its snapshot with ``pip install cmake ninja pybind11==2.13.1`` and then
``CMAKE_ARGS="-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS -Dpybind11_DIR=$(python -m
pybind11 --cmakedir)" pip install --no-build-isolation PATH_TO_SPOTS``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from _cpu import describe

# Whether the first player wins the n-spot game in misère play, n = 1..20 (OEIS
# A164950, from Lemoine and Viennot, arXiv 0908.4407).
MISERE_WINS = [1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0]

_NIMKIT = """
import sys, time
import nimkit as nk
n, misere = int(sys.argv[1]), sys.argv[2] == "misere"
started = time.perf_counter()
outcome = nk.Sprouts(n).outcome(misere=misere)
print(outcome.name, time.perf_counter() - started)
"""

_SPOTS = """
import sys, time
import spots._cpp as spots
solver = spots.DfpnSolver_Sprouts(False, False, 100_000, 0)
started = time.perf_counter()
outcome = solver.solve("0*" + sys.argv[1], 0)
print("N" if outcome.is_win() else "P", time.perf_counter() - started)
"""


def _run(python: str, script: str, *args: str) -> tuple[str, float]:
    out = subprocess.run(
        [python, "-c", script, *args], capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0], float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", type=int, default=12, help="the most spots (default 12)")
    parser.add_argument("--spots-python", help="a Python where SPOTS is installed")
    parser.add_argument(
        "--misere", type=int, default=0, metavar="N", help="nimkit's misère outcome to N spots"
    )
    args = parser.parse_args()
    print(f"# {describe()}")
    header = "spots  outcome  nimkit s   SPOTS s   nimkit/SPOTS"
    print(header + "  misère  nimkit s" * (args.misere > 0))
    for n in range(1, max(args.spots, args.misere) + 1):
        line = f"{n:5}  " + " " * 41
        if n <= args.spots:
            line = f"{n:5}  {_normal(n, args.spots_python)}"
        if n <= args.misere:
            misere, time_misere = _run(sys.executable, _NIMKIT, str(n), "misere")
            assert misere == "NP"[1 - MISERE_WINS[n - 1]], (n, misere)
            line += f"  {misere:6}  {time_misere:8.3f}"
        print(line, flush=True)


def _normal(n: int, spots_python: str | None) -> str:
    """The normal-play columns of n spots: nimkit's outcome and time, SPOTS's."""
    published = "N" if n % 6 in (3, 4, 5) else "P"
    outcome, ours = _run(sys.executable, _NIMKIT, str(n), "normal")
    assert outcome == published, (n, outcome, published)
    line = f"{outcome:7}  {ours:8.3f}"
    if not spots_python:
        return line + f"  {'-':>8}  {'-':>12}"
    theirs_outcome, theirs = _run(spots_python, _SPOTS, str(n))
    assert theirs_outcome == published, (n, theirs_outcome, published)
    return line + f"  {theirs:8.3f}  {ours / max(theirs, 1e-6):12.2f}"


if __name__ == "__main__":
    main()
