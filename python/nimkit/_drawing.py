"""What every SVG picture of nimkit shares: its font and its light background, put
under the picture by ``finish_svg`` (``nimkit.svg`` and the game-graph layout
``_layered`` both draw with these)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

BACKGROUND = "#fff"
FONT = "font-family:sans-serif;font-size:12px"


def finish_svg(svg: ET.Element, width: float, height: float) -> str:
    """Size the picture and put it on its own light background, so that its dark
    ink reads the same in a dark notebook theme or on a dark page.

    >>> import xml.etree.ElementTree as ET
    >>> finish_svg(ET.Element("svg"), 20, 10)
    '<svg width="20" height="10" viewBox="0 0 20 10"><rect ... class="background" /></svg>'
    """
    svg.set("width", str(int(width)))
    svg.set("height", str(int(height)))
    svg.set("viewBox", f"0 0 {int(width)} {int(height)}")
    background = ET.Element("rect", width="100%", height="100%", fill=BACKGROUND, rx="4")
    background.set("class", "background")
    svg.insert(0, background)
    return ET.tostring(svg, encoding="unicode")
