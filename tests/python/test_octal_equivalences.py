"""nimkit.octal_equivalences against Czajka's published tables and a brute-force
comparison of the first 10**5 values of every code with up to three digits."""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import nimkit as nk

CZAJKA = Path(__file__).parents[1] / "data" / "czajka"
COMPARED = 10**5


def name(code: str) -> str:
    """Czajka's spelling of a canonical code: `.17`, `4`, `4.3`."""
    before, after = code.split(".")
    if before == "0":
        return "." + after
    return before if after == "0" else code


# Under pytest -n auto, one worker runs this module: the classes are computed once
# (for the session: the worker may run other modules' tests between these).
pytestmark = pytest.mark.xdist_group("octal_equivalences")


@pytest.fixture(scope="session")
def classes() -> list[nk.OctalClass]:
    return nk.octal_equivalences(3)


@pytest.fixture(scope="session")
def lookup(classes: list[nk.OctalClass]) -> dict[str, nk.OctalClass]:
    return {name(code): c for c in classes for code in c.members}


def published_lookup() -> dict[str, str]:
    """GameLookup.md: each code's representative (`-`: the code itself)."""
    table: dict[str, str] = {}
    for line in (CZAJKA / "GameLookup.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        match = re.fullmatch(r"(4?)\.([0-7]*)x", cells[0])
        if not match:
            continue
        for digit, representative in zip("1234567", cells[1:], strict=True):
            game = f"{match[1] or ''}.{match[2]}{digit}"
            table[game] = game if representative == "-" else representative
    return table


def test_every_code_has_czajkas_representative(lookup: dict[str, nk.OctalClass]) -> None:
    published = published_lookup()
    assert len(published) == 7 * (2 + 16 + 128)
    assert len(lookup) == 1023  # and 4.0, "4", which his tables name but do not list
    differ = {
        game: (name(lookup[game].representative), representative)
        for game, representative in published.items()
        if name(lookup[game].representative) != representative
    }
    assert differ == {}


def test_trivial_classes_are_czajkas(classes: list[nk.OctalClass]) -> None:
    rows = {}
    for line in (CZAJKA / "TrivialGames.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) == 4 and cells[1].isdigit():
            rows[cells[0]] = (int(cells[1]), int(cells[2]), cells[3])
    assert len(rows) == 82
    ours = {name(c.representative): c.pattern for c in classes if c.trivial}
    assert ours == {game: nimbers for game, (_, _, nimbers) in rows.items()}
    for c in classes:
        if c.trivial:
            assert (c.preperiod, c.period) == rows[name(c.representative)][:2]


def reduced_digest(code: str, compared: int = COMPARED) -> tuple[int, str]:
    """The code's offset (the heap before its first nonzero value) and a digest of
    the ``compared`` values from there, computed from its own rule."""
    values = nk.TakeAndBreak(code).grundy_sequence(compared + 16)
    offset = int(np.flatnonzero(values)[0]) - 1
    return offset, hashlib.sha256(
        values[offset : offset + compared].astype("<u4").tobytes()
    ).hexdigest()


@pytest.mark.parametrize(
    "compared",
    # 10**4 values show the method in the README's test command; Czajka's 10**5 are
    # the record, run by `pytest -m research` (minutes: every code's 10**5 values).
    [10**4, pytest.param(COMPARED, marks=pytest.mark.research)],
)
def test_brute_force_first_values(classes: list[nk.OctalClass], compared: int) -> None:
    """Members of a class have the same first values from their offsets on; members
    of different classes do not (Czajka's check, `verify_game_map`, on 10**5)."""
    codes = [code for c in classes for code in c.members]
    with ThreadPoolExecutor(2) as pool:
        digests = pool.map(lambda code: reduced_digest(code, compared), codes)
        computed = dict(zip(codes, digests, strict=True))
    seen: dict[str, str] = {}
    for c in classes:
        digests = {computed[code][1] for code in c.members}
        assert len(digests) == 1, c.representative
        assert {code: computed[code][0] for code in c.members} == c.members
        (digest,) = digests
        assert digest not in seen, (seen.get(digest), c.representative)
        seen[digest] = c.representative


def test_known_pairs(lookup: dict[str, nk.OctalClass]) -> None:
    # Czajka's README: Winning Ways maps .27 to .06 (should be .26); Flammenkamp maps
    # .161 to .36, but they differ first at heap 519; .314 is not .31.
    assert lookup[".27"].representative == "0.26"
    assert lookup[".161"] is not lookup[".36"]
    assert lookup[".314"] is not lookup[".31"]
    a, b = (
        nk.TakeAndBreak("0.161").grundy_sequence(600),
        nk.TakeAndBreak("0.36").grundy_sequence(600),
    )
    assert int(np.flatnonzero(a != b)[0]) == 519


def test_offsets_shift_the_values(lookup: dict[str, nk.OctalClass]) -> None:
    kayles_like = lookup[".41"]
    assert kayles_like.members == {"0.17": 0, "0.41": 1, "0.43": 1, "0.411": 1, "0.431": 1}
    g17, g41 = (
        nk.TakeAndBreak("0.17").grundy_sequence(300),
        nk.TakeAndBreak("0.41").grundy_sequence(301),
    )
    assert (g41[1:] == g17).all()


@pytest.mark.parametrize(("digits", "heaps"), [(0, 1000), (5, 1000), (3, 10), (3, 2**17)])
def test_out_of_range(digits: int, heaps: int) -> None:
    # Each bad argument is named alone (issue 45: digits=0 named a heaps=1000 too).
    bad = "digits must be 1 to 4" if not 1 <= digits <= 4 else "heaps must be 64 to 65536"
    with pytest.raises(ValueError, match=bad):
        nk.octal_equivalences(digits, heaps)


def test_command_prints_the_table() -> None:
    from tests.python.test_cli import run

    result = run("octal-classes", "--digits", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "| game | preperiod | period | values | members (offset) |"
    assert len(lines) == 2 + 40
    assert "| 0.02 | 1 | 4 | 0(0011) | 0.02 (2), 0.03 (1), 0.13 (0) |" in lines
    assert "| 0.6 |  |  |  | 0.6 (1), 0.37 (0), 0.61 (1), 0.62 (1), 0.63 (1) |" in lines
