"""Two builds of nimkit on the same work, by the instructions their native core runs:
the comparison of two commits that wall-clock time on a shared machine cannot make
(on the 2-core development machine, runs of one build differ by half), as valgrind's
callgrind counts instructions, the same whatever else the machine is doing.

    python benches/builds.py OLD NEW [--work batch,rl,boards]

OLD and NEW are folders each holding a ``nimkit`` package with its native module: a
checkout's ``python/`` with the ``_core.abi3.so`` of ``maturin build --release``
copied in, say. Each piece of work runs on one thread under callgrind for both
builds; the script prints the instructions counted in ``_core.abi3.so`` (the
Python around it differs with the package) and new / old.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

WORK = {
    # Every batch kernel family at three widths: P-positions and winning moves.
    "batch": """
import numpy as np
import nimkit as nk
from nimkit import batch
rng = np.random.default_rng(0)
for dtype, top in [(np.uint64, 2**40), (np.uint16, 2**15), (np.uint8, 200)]:
    for m in (3, 4, 8):
        heaps = rng.integers(0, top, size=(100_000, m), dtype=dtype)
        for rules in (nk.Rules(), nk.Rules(misere=True), nk.Rules(max_take=4)):
            batch.is_p_position(heaps, rules)
            if m <= 4:
                batch.winning_move(heaps, rules)
""",
    # Fifty steps of 1024 learning environments on the board 1 3 5 ... 13.
    "rl": """
import numpy as np
from nimkit import rl
env = rl.NimVectorEnv(num_envs=1024, heaps=[1, 3, 5, 7, 9, 11, 13], opponent=None)
env.reset(seed=0)
for _ in range(50):
    env.step(env.action_space.sample())
""",
    # The board engine: a normal-play value and a misère outcome.
    "boards": """
import nimkit as nk
assert nk.Cram(4, 7).grundy() == 3
assert nk.Cram(3, 9).outcome(misere=True) == nk.Outcome.N
""",
}


def instructions(build: Path, work: str) -> int:
    """The instructions callgrind counts in the native module of `build` on `work`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONPATH": str(build), "RAYON_NUM_THREADS": "1"}
        callgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        subprocess.run(
            [*callgrind, sys.executable, "-c", WORK[work]],
            env=env,
            check=True,
            capture_output=True,
        )
        report = subprocess.run(
            ["callgrind_annotate", "--threshold=100", str(out)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    counts = re.findall(r"^\s*([\d,]+) .*_core\.abi3\.so", report, re.MULTILINE)
    return sum(int(c.replace(",", "")) for c in counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--work", default=",".join(WORK))
    args = parser.parse_args()
    print(f"{'work':>8} {'old':>15} {'new':>15} {'new / old':>10}")
    for work in args.work.split(","):
        old, new = instructions(args.old, work), instructions(args.new, work)
        print(f"{work:>8} {old:>15,} {new:>15,} {new / old:>10.4f}")


if __name__ == "__main__":
    main()
