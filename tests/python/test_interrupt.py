"""Ctrl-C stops long native work: a subprocess running each long computation gets
SIGINT and raises KeyboardInterrupt within half a second, not when the work is done.

The child restores Python's SIGINT handler itself (``children.RESTORE_SIGINT``), so
these tests pass however pytest was started, and the time is measured from the
signal to the child's own report of the KeyboardInterrupt (not to its exit, which
includes the interpreter's teardown). Native loops poll on elapsed time, so the
answer comes as fast on a loaded machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from .children import RESTORE_SIGINT

LONG = [
    # The box search with remoteness: about 2 * 10**9 moves, just under the limit.
    "nk.solve([190, 190, 190])",
    # The outcome-only box search: 10**9 positions.
    "nk.solve([1000, 1000, 1000], max_positions=2 * 10**9, remoteness=False)",
    # Misère play of a code: the search over multisets of heaps (larger positions are
    # answered by the misère quotient at once).
    "nk.Position([20, 20, 20]).outcome(nk.Rules(code='0.77', misere=True), max_positions=10**9)",
    # Misère values of single heaps: the ranked search over every multiset below
    # heap 99 (minutes).
    "nk.TakeAndBreak('0.77').misere_grundy_sequence(100, max_positions=10**9)",
    # Remoteness: about 2 * 10**9 moves weighed, just under the limit.
    "nk.Position([65_000]).remoteness()",
    # Self-play on all cores: many games; one game of about 2**40 moves; a million
    # games of about 2 * 10**9 moves each.
    "nk.simulate([10**6] * 4, None, nk.RandomPlayer(1), nk.RandomPlayer(2), n_games=10**8)",
    "nk.simulate([2**40], nk.Rules(max_take=1), nk.RandomPlayer(1), nk.RandomPlayer(2), 1)",
    "nk.simulate([10**9, 10**9], nk.Rules(max_take=1), nk.RandomPlayer(1), nk.RandomPlayer(2),"
    " n_games=10**6)",
    # A quotient whose candidates grow past 4000 elements (0.35 to heap 60: about two
    # minutes of products, their reductions and checks).
    "nk.TakeAndBreak('0.35').misere_quotient(max_heap=60)",
    # Sprouts in both endings: minutes and more.
    "nk.Sprouts(9).grundy()",
    "nk.Sprouts(10).outcome(misere=True)",
    # The table of every position of a 26-cell board (2**26 positions, about two
    # seconds each), ten times over.
    "[nk.Cram(2, 13).value_table() for _ in range(10)]",
    # A long Grundy sequence by the sparse-space method.
    "nk.TakeAndBreak('0.376').grundy_sequence(10**8)",
    # A dense code on two cores (a second thread fills blocks while the first
    # computes), and the same run checkpointed (a computation a step).
    "nk.TakeAndBreak('0.6').grundy_sequence(2**28)",
    "nk.TakeAndBreak('0.6').grundy_sequence(2**28, checkpoint=tmp, every=0)",
    # Codes that leave three heaps: each value costs about n**2 / 12 options.
    "nk.TakeAndBreak('0.f7').period(max_heap=10**7)",
    "nk.TakeAndBreak('8.0').period(max_heap=20000)",
    "nk.TakeAndBreak('0.8').grundy_sequence(20000)",
    # A proven period filling four billion values, in the first call of a fresh
    # process (numpy's C API is imported before any signal can be pending).
    "nk.TakeAndBreak('0.77').grundy_sequence(2**32)",
    # A game defined in Python whose states never end: the exploration calls Python
    # for every state (the signal may land in the user's function or in the core).
    "nk.Impartial(0, lambda n: [n + 1, n + 2]).grundy(max_positions=10**12)",
    # Misère play of a sum of different games: the search over the product.
    # (10**8 tuples and 5 * 10**8 moves: a larger product is refused at once, with
    # MemoryError or as past the moves max_positions allows, which would race the signal).
    "(nk.Heaps([10**4], nk.Rules(max_take=3)) + nk.Heaps([10**4], nk.Rules(take={1, 2})))"
    ".outcome(misere=True, max_positions=10**9)",
    # Wythoff's Grundy values for heaps below 20000 (a minute or more).
    "nk.wythoff_grundy_table(20000)",
    # Mogul's single-coin values to coin 330 by their mex (bit sets of 2**31 values:
    # 40 s and 1.9 GB).
    "nk.CoinTurning('mogul', [0] * 2000 + [1]).grundy(max_positions=2**31)",
    # Nimber inverses of 10**7 nimbers on every core (seconds). The array is small
    # enough to be made well before the signal even with a core busy (numpy fills
    # it without polling: 320 MB took 1.3 s there, and the signal landed in it).
    "nk.nim_inverse(np.full(10**7, 2**64 - 1, dtype=np.uint64))",
    # Cram: the value search over the shapes of a board of 63 cells (hours; 8 x 8 is
    # settled at once by its symmetry), and the misère search over whole positions of
    # 6 x 6 (about a minute).
    "nk.Cram(7, 9).grundy()",
    # The same, saving its table in steps (and once more on Ctrl-C).
    "nk.Cram(7, 9).grundy(checkpoint=tmp, every=0.2)",
    "nk.Cram(6, 6).outcome(misere=True)",
]

#: How soon the child must report the KeyboardInterrupt after the signal.
ANSWER = 0.5


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess")
@pytest.mark.parametrize("code", LONG)
def test_ctrl_c_interrupts_long_native_work(code):
    script = "\n".join(
        [
            RESTORE_SIGINT,
            "import nimkit as nk",
            "import numpy as np",
            "import atexit, shutil, tempfile",
            "tmp = tempfile.mkdtemp(prefix='nimkit-interrupt-')",
            "atexit.register(shutil.rmtree, tmp, True)",
            "print('ready', flush=True)",
            "try:",
            f"    {code}",
            "except KeyboardInterrupt:",
            "    print('interrupted', flush=True)",
            "    raise",
            "print('finished', flush=True)",
        ]
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        assert child.poll() is None, f"{code} ended before Ctrl-C"
        child.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        answer = child.stdout.readline().strip()
        waited = time.perf_counter() - sent
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert answer == "interrupted", (code, answer, out, err)
    assert waited < ANSWER, f"{code} took {waited:.2f} s to answer Ctrl-C"
    assert err.strip().splitlines()[-1] == "KeyboardInterrupt"


def reporting(call: str) -> list[str]:
    """A child's lines that run `call` and print how it ended."""
    return [
        "try:",
        f"    {call}",
        "except KeyboardInterrupt:",
        "    print('interrupted')",
        "except MemoryError:",
        "    print('out of room')",
        "else:",
        "    print('finished')",
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="Python's SIGINT handler in a subprocess")
def test_ctrl_c_in_a_progress_callback_stops_the_search():
    # Ctrl-C raises KeyboardInterrupt in whatever Python code runs when it comes: in a
    # progress bar's update, which the search calls, it must still stop the search
    # (a display error does not). The callback raises it as Ctrl-C would there.
    script = "\n".join(
        [
            RESTORE_SIGINT,
            "import nimkit as nk",
            "def bar(n):",
            "    raise KeyboardInterrupt",
            *reporting("nk._core.vertex_value(nk.Cram(5, 9)._native, progress=bar)"),
        ]
    )
    command = [sys.executable, "-c", script]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.stdout.strip() == "interrupted", run.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGALRM")
def test_a_programs_own_signal_handler_raises_what_it_raises():
    # A handler of the program's that raises stops the search with its own exception
    # (here SystemExit(7)), not a KeyboardInterrupt in its place. Cram 6 x 7 takes
    # minutes: the alarm comes first.
    script = "\n".join(
        [
            "import signal, sys, nimkit as nk",
            "signal.signal(signal.SIGALRM, lambda signum, frame: sys.exit(7))",
            "signal.setitimer(signal.ITIMER_REAL, 0.5)",
            "nk.Cram(6, 7).grundy()",
        ]
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=300)
    assert run.returncode == 7, run.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess")
def test_ctrl_c_stops_a_search_that_evicts_on_two_threads():
    # Cram 5 x 8 in 300 KiB reaches the bound many times a second on both threads:
    # Ctrl-C, sent once the search has entered its first values, is not lost to a
    # thread's reaching the bound at the same moment (it was, most times).
    script = "\n".join(
        [
            RESTORE_SIGINT,
            "import nimkit as nk",
            "heard = []",
            "def bar(n):",
            "    if not heard:",
            "        heard.append(n)",
            "        print('ready', flush=True)",
            "game = nk.Cram(5, 8)._native",
            *reporting("nk._core.vertex_value(game, 300 * 1024, progress=bar, evict=True)"),
        ]
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "RAYON_NUM_THREADS": "2"},
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=300)
    finally:
        child.kill()
        child.wait()
    assert out.strip() == "interrupted"
