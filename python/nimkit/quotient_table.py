"""Deprecated: the old name of ``nimkit.misere_codes``, kept so that code written for it
still runs. Importing it warns (DeprecationWarning) and gives the same objects.

>>> import warnings, nimkit.misere_codes
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", DeprecationWarning)
...     from nimkit.quotient_table import misere_table
>>> misere_table is nimkit.misere_codes.misere_table
True
"""

import warnings

from .misere_codes import *  # noqa: F403 - the old module's names, every one

warnings.warn(
    "nimkit.quotient_table is renamed nimkit.misere_codes; import from there (or from nimkit)",
    DeprecationWarning,
    stacklevel=2,
)
