"""The ``nimkit`` command, run as a real process."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

NIMKIT = shutil.which("nimkit")


def run(*args: str, module: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "nimkit"] if module or NIMKIT is None else [NIMKIT]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=60)


def test_console_script_is_installed():
    assert NIMKIT is not None


def test_marienbad():
    result = run("analyse", "1", "3", "5", "7", "--misere")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Position: 1 3 5 7" in out
    assert "misère play" in out
    assert "Nim-sum:  0" in out
    assert "the player to move loses against perfect play" in out
    assert "Winning moves: none" in out
    prose = " ".join(out.split())  # the explanation is wrapped to the terminal
    assert "loses against perfect play: every move unbalances the position" in prose
    for row in ["0     1       1  001", "3     7       7  111", "nim-sum             0  000"]:
        assert row in out


def test_conventions():
    # American spelling, a brief report, --version.
    brief = run("analyze", "3", "4", "5", "--brief")
    assert brief.returncode == 0, brief.stderr
    assert "Winning moves:\n  take 2 from heap 0" in brief.stdout
    assert "Write each heap's Grundy value" not in brief.stdout
    assert "Write each heap's Grundy value" in run("analyse", "3", "4", "5").stdout
    version = run("--version")
    assert version.returncode == 0
    assert version.stdout.startswith("nimkit ")
    assert version.stdout.split()[1][0].isdigit()


def test_variants_are_named_as_people_write_them():
    from nimkit.presets import MARIENBAD, variant

    assert variant("Marienbad") is MARIENBAD
    assert variant("Dawson's Kayles").rules.code == "0.07"
    assert variant(" grundys_game ").rules.code == "4!.0"
    with pytest.raises(ValueError, match="no variant 'chess'"):
        variant("chess")


def test_module_form_is_the_same_command():
    assert run("analyse", "3", "4", "5", module=True).stdout == run("analyse", "3", "4", "5").stdout


def test_every_winning_move_is_printed():
    out = run("analyse", "1", "2", "7").stdout  # nim-sum 4: only heap 2 can fix it
    assert "take 4 from heap 2  (7 -> 3), leaving 1 2 3" in out
    out = run("analyse", "4", "4", "4").stdout  # nim-sum 4: every heap can
    assert sum(line.startswith("  take 4 from heap") for line in out.splitlines()) == 3


def test_reports_of_many_winning_moves_stay_small():
    # 301 heaps of 4: nim-sum 4, and every heap has a winning move.
    result = run("analyse", *["4"] * 301)
    assert result.returncode == 0, result.stderr
    assert sum(line.startswith("  take 4 from heap") for line in result.stdout.splitlines()) == 20
    assert "... and 281 more (--json lists every one)" in result.stdout
    assert "(and 289 more like them)" in " ".join(result.stdout.split())
    facts = json.loads(run("analyse", *["4"] * 301, "--json").stdout)
    assert len(facts["winning_moves"]) == 301
    assert facts["winning_moves"][300] == {"heap": 300, "take": 4, "into": None, "becomes": [0]}


def test_json_and_take_limits():
    result = run("analyse", "13", "--misere", "--max-take", "3", "--json")
    facts = json.loads(result.stdout)
    assert facts == {
        "position": [13],
        "rules": {"misere": True, "max_take": 3, "take": None, "code": None},
        "grundy": [1],
        "nim_sum": 1,
        "outcome": "P",
        "method": "closed form",
        "every_winning_move": True,
        "player_to_move": "loses",
        "winning_moves": [],
    }
    facts = json.loads(run("analyse", "5", "9", "4", "--max-take", "3,5,none", "--json").stdout)
    assert facts["rules"]["max_take"] == [3, 5, None]
    assert facts["grundy"] == [1, 3, 4]
    # Heap 1 (limit 5) moves its remainder UP from 3 to 5 by taking 4.
    assert facts["winning_moves"] == [
        {"heap": 1, "take": 4, "into": None, "becomes": [5]},
        {"heap": 2, "take": 2, "into": None, "becomes": [2]},
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyse", "1", "-2"], "heap 1 must not be negative, got -2"),
        (["analyse", "1", "x"], "a heap size is a whole number, not 'x'"),
        (["analyse", "1.5"], "a heap size is a whole number, not '1.5'"),
        (["analyse", str(2**64)], "over the largest allowed, 2**64 - 1"),
        (["analyse", "1", "--max-take", "0"], "take limit must be at least 1, got 0"),
        (["analyse", "1", "2", "--max-take", "1,2,3"], "3 per-heap take limits given for 2 heaps"),
        (["analyse", "1", "--max-take", "many"], "a take limit is a whole number or 'none'"),
        (["analyse", "1", "--max-take", "-1"], "--max-take must not be negative, got -1"),
        (["analyse", "1", "--take", "-1"], "--take: element 0 must not be negative, got -1"),
        (["analyse", "1", "--code", "0.x"], "bad take-and-break code"),
        (
            ["analyse", "9", "9", "9", "--take", "1,2/1,3/none", "--misere", "--max-positions=10"],
            "over --max-positions = 10 (raise --max-positions to allow it)",
        ),
        (["analyse", "1", "--max-positions", "-1"], "argument --max-positions: a limit is from 0"),
        (["analyse", "3", "--max-take", "2", "--take", "1,2"], "give one of --max-take, --take"),
        (["grundy", "0.77", "--count", str(2**64)], "argument --count: a count is from 0 to 2**32"),
        (["grundy", "0.77", "--count", "-1"], "argument --count: a count is from 0 to 2**32"),
        (["period", "0.77", "--max-heap", str(2**63)], "argument --max-heap: a heap is from 0"),
        (["grundy", "!0.7", "--count", "3"], "just before the point"),
        (["analyse", "1", "--code", "0." + "7" * 5000 + "z"], "0.7777777777"),
        (["analyse", "100000", "--code", "4!.0"], '"4!.0").grundy_sequence(100001)'),
        (["analyse", "9", "--code", "0.6", "--max-take", "3"], "not --max-take and --code"),
        (["classify", "p.npy", "--chunk", "0"], "argument --chunk: a chunk is from 1"),
        (["analyse", "1", "--json", "--brief"], "not allowed with argument"),
        (["play", "--variant", "tic-tac-toe"], "no variant 'tic-tac-toe'; choose from"),
        (["analyse"], "give the heaps (e.g. nimkit analyse 3 4 5), or --sum"),
        (["analyse", "--sum", "nim:2,x"], "argument --sum: a heap size is a whole number"),
        (["analyse", "--sum", "foo:2"], "the rule of a part is nim, code=CODE, take=SET"),
        (["analyse", "--sum", "nim"], "a part of a sum is RULE:HEAPS"),
        # an OverflowError from a part was a 47-line traceback (issue 45)
        (["analyse", "--sum", f"nim:{2**64}"], "over the largest allowed, 2**64 - 1"),
        (["analyse", "--sum", "code=0.9z:3"], "'z' is not a hexadecimal digit"),
        (["analyse", "3", "--sum", "nim:3"], "give the heaps of each part in --sum"),
        (["analyse", "--code", "0.77", "--sum", "nim:3"], "give each part's rule in --sum"),
        (["analyse", "1", "--bogus"], "unrecognized arguments: --bogus"),
        (["solve"], "invalid choice: 'solve'"),
    ],
)
def test_bad_arguments_get_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    # Named by the command, as argparse names its own errors; flags, not parameters.
    assert result.stderr.startswith(f"nimkit {args[0]}: error: ") or "invalid choice" in message
    assert "max_heap=" not in result.stderr.replace("period(max_heap=", "")
    assert len(result.stderr) < 600


def test_outcome_only_and_reports_of_huge_heaps():
    # A heap of 10**9 has 10**9 options: the report lists one winning move, not all.
    args = ["analyse", "12", "400", "1000000000", "--misere", "--code", "0.77"]
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert "Outcome:  N" in result.stdout
    assert "too many options to list every one; one of them:" in result.stdout
    assert run(*args, "--outcome").stdout == "N\n"
    assert run("analyse", "1", "2", "3", "--outcome").stdout == "P\n"
    facts = json.loads(run(*args, "--json").stdout)
    assert facts["every_winning_move"] is False
    assert len(facts["winning_moves"]) == 1


def test_sums_of_heaps_under_different_rules():
    # Kayles heaps 5 and 3 have values 4 and 3 (Winning Ways' table: 0 1 2 3 1 4), so
    # the Kayles part is worth 7, the Nim part 2 xor 7 = 5, the sum 2.
    result = run("analyse", "--sum", "code=0.77:5,3", "nim:2,7")
    assert result.returncode == 0, result.stderr
    out = " ".join(result.stdout.split())
    assert "heaps 5 3, take-and-break code 0.77: value 7" in out
    assert "Nim heaps 2 7: value 5" in out
    assert "7 xor 5 = 2" in out
    assert "Winning moves: (5 1) + (2 7); (5 3) + (0 7); (5 3) + (2 5)." in out
    # Each winning move leaves value 0: 5 1 is worth 4 xor 1 = 5 under Kayles.
    import nimkit as nk

    for after in [([5, 1], [2, 7]), ([5, 3], [0, 7]), ([5, 3], [2, 5])]:
        kayles, nim = after
        game = nk.Heaps(kayles, nk.Rules(code="0.77")) + nk.Heaps(nim)
        assert game.grundy() == 0
    assert run("analyse", "--sum", "code=0.77:5,3", "nim:2,7", "--outcome").stdout == "N\n"
    misere = run("analyse", "--sum", "code=0.77:5,3", "nim:2,7", "--misere", "--outcome")
    assert misere.stdout == "P\n"
    facts = json.loads(run("analyse", "--sum", "take=1,3,4:10", "max-take=3:6", "--json").stdout)
    # take {1,3,4}: period 0 1 0 1 2 3 2, so G(10) = G(3) = 1; max-take 3: 6 mod 4 = 2.
    # Winning: 10 -> 6 (G 2 = 2) or 6 -> 5 (5 mod 4 = 1).
    assert facts == {
        "game": "(10) + (6)",
        "misere": False,
        "outcome": "N",
        "value": 3,
        "winning_moves": ["(6) + (6)", "(10) + (5)"],
    }


def test_grundy_output_follows_classify(tmp_path):
    # `-o -` is standard output; a name not ending in .npy gets text.
    assert run("grundy", "0.77", "--count", "5", "-o", "-").stdout == "0\n1\n2\n3\n1\n"
    text = tmp_path / "values.txt"
    assert run("grundy", "0.77", "--count", "5", "-o", str(text)).returncode == 0
    assert text.read_text() == "0\n1\n2\n3\n1\n"
    assert not (tmp_path / "-").exists()


def test_analyse_never_ends_in_a_traceback():
    # A lost misère position whose only move takes the last object.
    lost = run("analyse", "1", "--misere")
    assert lost.returncode == 0, lost.stderr
    assert "takes the last object, which loses in misère play" in lost.stdout
    # 2**41 moves: explained by the first few and a count, not a list of every move.
    huge = run("analyse", "1099511627776", "1099511627776")
    assert huge.returncode == 0, huge.stderr
    assert "and so on for the other 2199023255540" in " ".join(huge.stdout.split())
