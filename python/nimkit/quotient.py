"""Deprecated: the old name of ``nimkit.misere``, kept so that code written for it
still runs. Importing it warns (DeprecationWarning) and gives the same objects.

>>> import warnings, nimkit.misere
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", DeprecationWarning)
...     from nimkit.quotient import Genus
>>> Genus is nimkit.misere.Genus
True
"""

import warnings

from .misere import *  # noqa: F403 - the old module's names, every one

warnings.warn(
    "nimkit.quotient is renamed nimkit.misere; import from there (or from nimkit)",
    DeprecationWarning,
    stacklevel=2,
)
