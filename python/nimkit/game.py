"""Deprecated: the old name of ``nimkit.playing``, kept so that code written for it
still runs. Importing it warns (DeprecationWarning) and gives the same objects.

>>> import warnings, nimkit.playing
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", DeprecationWarning)
...     from nimkit.game import Game
>>> Game is nimkit.playing.Game
True
"""

import warnings

from .playing import *  # noqa: F403 - the old module's names, every one

warnings.warn(
    "nimkit.game is renamed nimkit.playing; import from there (or from nimkit)",
    DeprecationWarning,
    stacklevel=2,
)
