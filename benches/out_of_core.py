"""Peak memory of `nimkit classify` on a .npy file larger than its chunks.

    python benches/out_of_core.py [--gigabytes 2] [--chunk 4194304]

Writes a file of random uint8 positions (4 heaps), classifies it in a child process
(`python -m nimkit classify`), and prints the child's peak resident memory next to
the sizes of the input and of one chunk, with the throughput.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

WRITE = """
import sys, numpy as np
path, count = sys.argv[1], int(sys.argv[2])
data = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint8, shape=(count, 4))
rng = np.random.default_rng(0)
for start in range(0, count, 1 << 24):
    stop = min(start + (1 << 24), count)
    data[start:stop] = rng.integers(0, 256, size=(stop - start, 4), dtype=np.uint8)
data.flush()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gigabytes", type=float, default=2.0)
    parser.add_argument("--chunk", type=int, default=1 << 22, help="positions per chunk")
    args = parser.parse_args()
    heaps = 4
    count = int(args.gigabytes * 2**30) // heaps
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "in.npy", Path(folder) / "out.npy"
        # Written by a child, so that this process stays small: a forked child
        # starts with its parent's resident memory on the books.
        subprocess.run([sys.executable, "-c", WRITE, str(source), str(count)], check=True)
        command = [sys.executable, "-m", "nimkit", "classify", str(source), "-o", str(target)]
        command += ["--chunk", str(args.chunk), "--no-progress"]
        began = time.perf_counter()
        child = subprocess.Popen(command)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - began
        assert status == 0, "nimkit classify failed"
        peak = usage.ru_maxrss * 1024
        assert np.load(target, mmap_mode="r").shape == (count,)
    mib = 2**20
    print(f"input:        {count * heaps / mib:,.0f} MiB ({count:,} positions x {heaps} heaps)")
    print(f"chunk:        {args.chunk * heaps / mib:,.0f} MiB in, {args.chunk / mib:,.0f} MiB out")
    print(f"peak memory:  {peak / mib:,.0f} MiB (the whole child process)")
    print(f"time:         {elapsed:.1f} s, {count / elapsed / 1e6:,.0f} M positions/s")


if __name__ == "__main__":
    main()
