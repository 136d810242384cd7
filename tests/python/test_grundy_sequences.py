"""Grundy sequences at scale from Python: narrow arrays, proven periods with their
exact boundary, the sparse space, certificates checked again (and tampered ones
refused), the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import nimkit as nk
from nimkit.cli import main


def test_values_come_in_the_narrowest_dtype():
    kayles = nk.TakeAndBreak("0.77")
    values = kayles.grundy_sequence(200)
    assert values.dtype == np.uint8
    # CGSuite's fixtures: heaps 1..20 of Kayles.
    assert values[1:21].tolist() == [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1]
    # Every TakeAndBreak of a code shares its values, whatever the spelling.
    assert nk.TakeAndBreak(".77").period() == (71, 12)
    # Past the period, values follow from it: the same as the definition gives.
    assert (values == nk.TakeAndBreak("0.77").recompute(200, "naive")).all()
    # Values over 255 (nim: G(n) = n) need uint16.
    nim = nk.TakeAndBreak("0." + "3" * 60)
    assert nim.grundy_sequence(300).dtype == np.uint8  # n mod 61
    big = nk.TakeAndBreak("4.0")  # split into two, each part keeps going: G grows
    values = big.grundy_sequence(2000)
    assert values.dtype == np.min_scalar_type(int(values.max()))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # Czajka, github.com/tczajka/octal-games SolvedGames.md ("prefix", "period");
        # .156 Kenyon 1967, .356 and .644 Austin 1976.
        ("0.45", (498, 20)),
        ("0.156", (3479, 349)),
        ("0.356", (7315, 142)),
        ("0.644", (3256, 442)),
        # Winning Ways: Kayles, Dawson's Kayles, Dawson's chess.
        ("0.77", (71, 12)),
        ("0.07", (53, 34)),
        ("0.137", (52, 34)),
    ],
)
def test_published_periods_and_their_exact_boundary(code, expected):
    preperiod, period = expected
    rule = nk.TakeAndBreak(code)
    needed = rule.values_to_prove(preperiod, period)
    assert needed == 2 * (max(preperiod, 1) + period) + rule.max_take
    assert rule.period(max_heap=needed - 1) == expected
    # The theorem's condition, checked apart from the search: one value fewer than it
    # needs proves nothing (tests/integration/take_and_break.rs tests the search at the boundary).
    values = np.ascontiguousarray(rule.recompute(needed, "naive"), dtype=np.uint32)
    assert rule.proves(values, preperiod, period)
    assert not rule.proves(values[:-1], preperiod, period)
    if preperiod > 0:
        assert not rule.proves(values, preperiod - 1, period)


def test_grundys_game_has_no_proof():
    grundy = nk.TakeAndBreak("4!.0")
    assert grundy.period(max_heap=2**20) is None
    assert grundy.values_to_prove(10, 3) is None
    with pytest.raises(ValueError, match="codes with ! prove no period"):
        grundy.certificate()
    # Its values are still computed as far as asked (CGSuite's fixtures, heaps 1..20).
    assert grundy.grundy_sequence(21)[1:].tolist() == [
        0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
    ]  # fmt: skip


def test_sparse_space_of_published_games():
    # Czajka's table: .16 has rare mask 1e, 53 rare heaps counting heap 0, the last
    # at 13935; .354 has mask 3f.
    rule = nk.TakeAndBreak("0.16")
    mask, heap_parity, rare = rule.sparse_space(30_000)
    assert (mask, heap_parity, len(rare) + 1, int(rare[-1])) == (0x1E, False, 53, 13935)
    values = rule.grundy_sequence(30_000)
    odd = np.array([bin(int(v) & mask).count("1") % 2 for v in values])
    assert np.flatnonzero(odd[1:] == 0).tolist() == (rare - 1).tolist()
    assert nk.TakeAndBreak("0.3").sparse_space() is None  # no split: the definition


def test_sparse_space_of_a_fresh_rule_computes_what_it_shows():
    # Asked first, it computes 65536 values (not an empty answer for want of values).
    mask, heap_parity, rare = nk.TakeAndBreak("0.16").sparse_space()
    assert (mask, heap_parity, len(rare)) == (0x1E, False, 52)
    with pytest.raises(ValueError, match="count is"):
        nk.TakeAndBreak("0.16").sparse_space(2**40)


def test_sparse_values_equal_the_definition():
    rng = np.random.default_rng(12)
    for _ in range(12):
        digits = "".join(str(d) for d in rng.integers(0, 8, size=rng.integers(1, 5)))
        code = ("4" if rng.random() < 0.3 else "") + ("!" if rng.random() < 0.3 else "")
        try:
            rule = nk.TakeAndBreak(f"{code}.{digits}")
        except ValueError:
            continue
        assert (rule.recompute(1500, "auto") == rule.recompute(1500, "naive")).all(), rule


def test_certificates_are_checked_again_and_tampering_is_caught():
    cert = nk.TakeAndBreak("0.156").certificate(max_heap=10_000)
    assert (cert.preperiod, cert.period, cert.values_checked) == (3479, 349, 7659)
    assert nk.verify_certificate(cert)
    assert nk.verify_certificate(cert, method="naive")
    assert json.loads(json.dumps(cert.to_dict()))["digest"] == cert.digest
    assert "3479" in str(cert)
    from dataclasses import replace

    for bad, message in [
        (replace(cert, digest="0" * 64), "differ"),
        (replace(cert, period=350), "needs|differ"),
        (replace(cert, preperiod=3478), "smaller preperiod|do not repeat|differ"),
        (replace(cert, values_checked=cert.values_checked - 1), "needs 7659"),
        (replace(cert, max_take=4), "largest take"),
    ]:
        with pytest.raises(ValueError, match=message):
            nk.verify_certificate(bad)
    with pytest.raises(ValueError, match=r"no period of 0\.16 is proven"):
        nk.TakeAndBreak("0.16").certificate(max_heap=1000)
    with pytest.raises(ValueError, match="method"):
        nk.TakeAndBreak("0.16").recompute(10, "fast")


@pytest.mark.parametrize(
    ("preperiod", "period"), [(2**63, 12), (0, 2**63), (0, 2**64 - 1), (2**62, 2**62)]
)
def test_certificates_past_what_can_be_counted_are_value_errors(preperiod, period):
    from dataclasses import replace

    kayles = nk.TakeAndBreak("0.77")
    with pytest.raises(ValueError, match="needs more values than can be counted"):
        kayles.values_to_prove(preperiod, period)
    cert = replace(kayles.certificate(), preperiod=preperiod, period=period)
    with pytest.raises(ValueError, match="needs more values than can be counted"):
        nk.verify_certificate(cert)
    values = np.zeros(100, dtype=np.uint32)
    assert not kayles.proves(values, preperiod, period)


def test_cli_grundy_and_period(tmp_path, capsys):
    assert main(["grundy", "0.77", "--count", "5"]) == 0
    assert capsys.readouterr().out.split() == ["0", "1", "2", "3", "1"]
    out = tmp_path / "values.npy"
    assert main(["grundy", "0.07", "--count", "1000", "-o", str(out)]) == 0
    assert (np.load(out) == nk.TakeAndBreak("0.07").grundy_sequence(1000)).all()
    assert main(["period", "0.45", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["preperiod"], printed["period"], printed["verified"]) == (498, 20, True)
    assert main(["period", "0.77"]) == 0
    assert "period          12" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["period", "0.16", "--max-heap", "100"])
    assert "no period of 0.16" in capsys.readouterr().err
