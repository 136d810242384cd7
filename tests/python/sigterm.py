"""A search in a child process stopped by SIGTERM, as a batch scheduler stops a job."""

from __future__ import annotations

import signal
import subprocess
import sys


def stopped_by_sigterm(script: str, *args: str) -> None:
    """Run ``script`` (with ``args``) in a child Python, send it SIGTERM once it prints
    ``searching``, and check that it ended by the signal printing nothing more. The
    child is never left behind, whatever fails."""
    child = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "searching\n"
        child.send_signal(signal.SIGTERM)
        out, _ = child.communicate(timeout=300)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGTERM
    assert out == ""
