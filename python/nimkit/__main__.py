"""``python -m nimkit`` is the ``nimkit`` command."""

from .cli import main

if __name__ == "__main__":  # not when a documentation tool imports every module
    raise SystemExit(main())
