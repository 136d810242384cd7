"""mkdocs hooks for the documentation site's build."""

from __future__ import annotations

import warnings

# The API reference inspects the installed package (force_inspection), and griffe
# then imports every submodule it finds, the deprecated old module names
# (nimkit.game, nimkit.quotient, nimkit.quotient_table) included; griffe has no way
# to leave a submodule out. None of them is rendered, so their import warnings, which
# mkdocs prints with a traceback, say nothing about the site: silence just those.
warnings.filterwarnings(
    "ignore", r"nimkit\.\w+ is renamed nimkit\.\w+", DeprecationWarning
)
