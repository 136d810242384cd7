"""``python -m nimkit`` is the ``nimkit`` command."""

from .cli import main

raise SystemExit(main())
