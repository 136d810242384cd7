"""The octal frontier: statistics of unsolved games' Grundy sequences against Czajka's
published table and against a brute-force recomputation."""

from __future__ import annotations

import numpy as np
import pytest

import nimkit as nk
from nimkit.cli import main

# Czajka, "Solving octal games", UnsolvedGames.md (github.com/tczajka/octal-games):
# game, n, largest idx, largest, rare mask, num rare, last rare.
PUBLISHED = [
    ("0.6", 2**21, 1274955, 319, 0x1EE, 1584, 20627),
    ("4!.0", 2**21, 763622, 231, 0xFE, 1274, 82860),
    ("0.04", 2**17, 109363, 1024, 0x7B8, 18860, 131003),
    ("0.06", 2**17, 127083, 1045, 0x5A0, 52923, 131070),
]


@pytest.mark.parametrize(("code", "n", "at", "largest", "mask", "rare", "last"), PUBLISHED)
def test_statistics_equal_the_published_table(code, n, at, largest, mask, rare, last):
    stats = nk.TakeAndBreak(code).statistics(n)
    assert stats == {
        "count": n,
        "largest": largest,
        "largest_at": at,
        "mask": mask,
        "heap_parity": False,
        "rare": rare,
        "last_rare": last,
    }


def brute_statistics(code: str, count: int) -> dict[str, object]:
    """Values by the definition; every mask and use of heap parity tried."""
    values = nk.TakeAndBreak(code).recompute(count, "naive").astype(np.int64)
    shift = heap_shift(code, np.arange(count))
    best = None
    for parity in (False, True):
        if parity and shift is None:
            continue
        for mask in range(2 ** int(values.max()).bit_length()):
            ones = np.array([bin(int(v) & mask).count("1") for v in values])
            rare = np.flatnonzero((ones + (shift if parity else 0)) % 2 == 0)
            key = (len(rare), mask * 2 + parity)
            if best is None or key < best[0]:
                best = (key, mask, parity, rare)
    _, mask, parity, rare = best
    return {
        "count": count,
        "largest": int(values.max()),
        "largest_at": int(values.argmax()),
        "mask": mask,
        "heap_parity": parity,
        "rare": len(rare),
        "last_rare": int(rare[-1]) if len(rare) else None,
    }


def heap_shift(code: str, heaps: np.ndarray) -> np.ndarray | None:
    """Each heap's parity in its class when every split of an octal code `0.d1d2...`
    takes the same parity `p`: (n + p) mod 2; None when the takes have both."""
    takes = [t for t, d in enumerate(code.split(".")[1], start=1) if int(d) & 4]
    if len({t % 2 for t in takes}) != 1:
        return None
    return (heaps + takes[0]) % 2


@pytest.mark.parametrize("code", ["0.6", "0.16", "0.54", "0.165", "0.07"])
def test_statistics_equal_a_brute_force_recomputation(code):
    assert nk.TakeAndBreak(code).statistics(3000) == brute_statistics(code, 3000)


def test_statistics_of_a_code_without_sparse_space():
    # 0.3F may leave three heaps: the definition alone, no mask.
    values = nk.TakeAndBreak("0.3F").recompute(100, "naive")
    stats = nk.TakeAndBreak("0.3F").statistics(100)
    assert (stats["largest"], stats["largest_at"]) == (values.max(), values.argmax()) == (50, 98)
    assert stats["mask"] is None
    assert stats["rare"] is None


def test_cli_prints_the_published_rows(capsys):
    assert main(["grundy", "0.04", "0.06", "--count", "2**17", "--statistics"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:] == [
        "| 0.04 | 2**17 | 109363 | 1024 | 7b8 | 18860 | 131003 |",
        "| 0.06 | 2**17 | 127083 | 1045 | 5a0 | 52923 | 131070 |",
    ]


def test_cli_refuses_two_codes_without_statistics():
    with pytest.raises(SystemExit, match="one code at a time"):
        main(["grundy", "0.6", "0.7", "--count", "10"])
