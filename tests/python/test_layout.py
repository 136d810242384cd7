"""The layout the guide's development chapter promises: a native family is its core
file plus one registration line in each layer (docs/guide/development.md, "Layout")."""

from __future__ import annotations

import re
from pathlib import Path

import nimkit as nk
from nimkit.games import ImpartialGame

ROOT = Path(__file__).parents[2]


def native_families() -> list[str]:
    """The families `_core.native_game` makes, read from their one line each."""
    text = (ROOT / "src/python/families.rs").read_text()
    return re.findall(r'^\s*"(\w+)" => \|', text, re.MULTILINE)


def test_every_native_family_is_its_file_and_one_line_per_layer():
    families = native_families()
    assert {"wythoff", "moore", "staircase", "coins", "corners", "hackenbush"} <= set(families)
    games_mod = (ROOT / "src/games/mod.rs").read_text()
    bindings = (ROOT / "src/python/mod.rs").read_text()
    stubs = (ROOT / "python/nimkit/_core.pyi").read_text()
    errors = (ROOT / "src/base/error.rs").read_text()
    classes = {cls.family: cls for cls in ImpartialGame._classes.values()}
    for family in families:
        assert (ROOT / f"src/games/{family}.rs").is_file(), family
        assert games_mod.count(f"pub mod {family};") == 1, family
        # No constructor of its own in the module's registration or the stubs.
        assert f"{family}_game" not in bindings, family
        assert f"def {family}_game" not in stubs, family
        # Its errors live in its file.
        assert f"{family.capitalize()}Error {{" not in errors, family
        assert f"{family.capitalize()}Error(" not in errors, family
        assert family in classes, f"no Python class says family = {family!r}"
        name = classes[family].__name__
        if family not in {"heaps", "sum", "defined"}:  # the protocol's own classes
            assert getattr(nk, name) is classes[family], name
            assert name in nk.__all__, name


def test_the_check_reads_the_families_it_is_given():
    # The families' lines are what the check reads: one line each, no more.
    assert len(native_families()) == len(set(native_families())) >= 9
