"""Child processes for the tests that send Ctrl-C: each restores Python's own SIGINT
handler first, because a child inherits "ignored" from a pytest that was started
with SIGINT ignored (a background job of a non-interactive shell is)."""

from __future__ import annotations

import sys

#: The first line of a child's script.
RESTORE_SIGINT = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)"


def nimkit_command(*args: str) -> tuple[str, list[str]]:
    """The program and arguments that run ``nimkit ARGS`` with SIGINT restored."""
    script = f"{RESTORE_SIGINT}\nimport sys\nfrom nimkit.cli import main\nsys.exit(main())"
    return sys.executable, ["-c", script, *args]
