"""Optional dependencies, imported only when used, with an error naming the extra."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise ImportError saying which extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"this needs {module.split('.')[0]}: pip install 'nimkit[{extra}]'"
        ) from None
