"""Regenerate the pictures the README shows: python docs/make_figures.py"""

from pathlib import Path

import nimkit as nk

HERE = Path(__file__).parent

if __name__ == "__main__":
    analysis = nk.analyse([3, 4, 5, 6], nk.Rules())
    (HERE / "analysis.svg").write_text(analysis._repr_svg_() + "\n")
    (HERE / "game-graph.svg").write_text(nk.draw_game_graph([1, 2, 3])._repr_svg_() + "\n")
