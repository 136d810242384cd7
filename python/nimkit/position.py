"""Positions and moves (native classes) and their pictures."""

from __future__ import annotations

from collections.abc import Sequence

from . import _core

#: ``Position.moves`` refuses to build a list longer than this.
MAX_LISTED_MOVES: int = _core.MAX_LISTED_MOVES


#: ``Move``: one move, validated once, at construction (a native class).
Move = _core.Move
#: ``Position``: heap sizes, validated once, at construction (a native class).
Position = _core.Position
Sequence.register(Position)


def svg(self: Position) -> str:
    """``Position.svg()``: the heaps as a picture, SVG text (what a notebook shows).

    >>> Position([1, 2]).svg()[:4]
    '<svg'
    """
    from . import svg

    return svg.position(self)


# The class is native; its pictures are drawn here, as every other picture is.
Position.svg = svg  # type: ignore[method-assign]
Position._repr_svg_ = svg  # type: ignore[method-assign]
