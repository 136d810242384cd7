"""Ctrl-C stops long native work: a subprocess running each long computation gets
SIGINT and ends with KeyboardInterrupt within a second, not when the work is done."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

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
    # Self-play on all cores: many games, and one game of about 2**40 moves.
    "nk.simulate([10**6] * 4, None, nk.RandomPlayer(1), nk.RandomPlayer(2), n_games=10**8)",
    "nk.simulate([2**40], nk.Rules(max_take=1), nk.RandomPlayer(1), nk.RandomPlayer(2), 1)",
    # A misère quotient computed far: 0.156 stays at 34 elements with no period
    # proven, and each heap's check grows (about 30 s to heap 600 in release).
    "nk.TakeAndBreak('0.156').misere_quotient(max_heap=1000)",
    # A long Grundy sequence by the sparse-space method.
    "nk.TakeAndBreak('0.376').grundy_sequence(10**8)",
]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess")
@pytest.mark.parametrize("code", LONG)
def test_ctrl_c_interrupts_long_native_work(code):
    script = f"import nimkit as nk\nprint('ready', flush=True)\n{code}\nprint('finished')"
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    try:
        out, err = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail(f"{code} ignored Ctrl-C")
    assert time.perf_counter() - sent < 2
    assert "finished" not in out
    assert err.strip().splitlines()[-1] == "KeyboardInterrupt"
