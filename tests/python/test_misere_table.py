"""The table of misère quotients of every octal code with up to two digits
(``nk.misere_table``, ``nimkit misere-table``): each row against the exact misère
search on small positions, a sample against MisereSolver's quotients (the test data),
even order, and a run killed part way resuming to the same table."""

from __future__ import annotations

import collections
import io
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nimkit as nk
from nimkit import misere_codes as table_module

from .test_cli import run
from .test_misere_quotients import miseresolver_quotients

# Under pytest -n auto, one worker runs this module: the table is computed once
# (for the session: the worker may run other modules' tests between these).
pytestmark = pytest.mark.xdist_group("misere_table")


@pytest.fixture(scope="session")
def table() -> list[nk.MisereTableRow]:
    return nk.misere_table(digits=2, max_heap=300)


def test_every_code_with_two_digits_has_a_row(table):
    assert [r.code for r in table] == table_module.octal_codes(2)
    assert len(table) == 63
    # Impartial quotients have even order (Plambeck and Siegel, JCTA 115, 2008).
    assert all(r.order % 2 == 0 for r in table)
    # The counts and the codes not stable by heap 300 that the README gives.
    statuses = collections.Counter(r.status.rsplit(" ", 1)[0] for r in table)
    assert statuses == {"stable from heap": 31, "not stable by heap": 3, "too large at heap": 29}
    unsettled = [(r.code, r.order) for r in table if not r.stable and r.too_large_at is None]
    assert unsettled == [("0.44", 40), ("0.46", 40), ("0.56", 66)]
    kayles = next(r for r in table if r.code == "0.77")
    assert (kayles.order, kayles.p_portion, kayles.preperiod, kayles.period) == (40, 9, 71, 12)
    assert kayles.status == "stable from heap 27"


def test_rows_give_the_exact_outcomes_of_small_positions(table):
    # Every position of three heaps up to 7 (heaps every row covers: a row stops at
    # heap 12 or later unless its period is proven), by each code's quotient as the
    # table computed it, against the exact misère search of the whole box.
    for row in table:
        heap = row.max_heap
        q = nk.TakeAndBreak(row.code).misere_quotient(max_heap=heap, max_elements=4096)
        assert (q.order, len(q.p_portion), q.period) == (
            row.order,
            row.p_portion,
            None if row.period is None else (row.preperiod, row.period),
        ), row
        assert heap >= 7 or q.is_stable, row
        solution = nk.solve([7, 7, 7], nk.Rules(code=row.code, misere=True), remoteness=False)
        for a in range(8):
            for b in range(a, 8):
                for c in range(b, 8):
                    expected = solution.outcome_of((a, b, c))
                    assert q.outcome([a, b, c]) == expected, (row.code, a, b, c)


def test_a_sample_equals_miseresolver():
    # The two-digit codes of the test data that MisereSolver took to heap 60 (their
    # order and P-portion; the full presentations are checked in
    # test_misere_quotients.py).
    data = {
        code: (order, presentation)
        for code, heap, order, presentation, _ in miseresolver_quotients()
        if heap == 60 and len(code) <= 4
    }
    rows = {r.code: r for r in nk.misere_table(digits=2, max_heap=60) if r.code in data}
    assert sorted(rows) == ["0.15", "0.52", "0.53", "0.54", "0.56", "0.72", "0.75"]
    for code, (order, presentation) in data.items():
        p = re.search(r"P = \{(.*)\}", presentation)
        assert p is not None
        assert (rows[code].order, rows[code].p_portion) == (order, len(p.group(1).split(","))), code


def test_a_table_file_resumes_and_refuses_other_bounds(tmp_path, monkeypatch):
    path = tmp_path / "table.csv"
    whole = nk.misere_table(digits=1, max_heap=60, path=path)
    text = path.read_text()
    lines = text.splitlines()
    assert lines[0] == "# misère quotients to heap 60 with candidates of at most 4096 elements"
    assert lines[1].split(",")[:3] == ["code", "order", "p_portion"]
    assert len(lines) == 2 + 7
    # A table of three rows (as a run stopped after three codes leaves it) goes on
    # from the fourth code.
    path.write_text("\n".join(lines[:5]) + "\n")
    computed = []
    real_row = table_module._row
    monkeypatch.setattr(
        table_module, "_row", lambda code, *a: computed.append(code) or real_row(code, *a)
    )
    assert nk.misere_table(digits=1, max_heap=60, path=path) == whole
    assert computed == ["0.4", "0.5", "0.6", "0.7"]
    assert path.read_text() == text
    with pytest.raises(ValueError, match="holds another table"):
        nk.misere_table(digits=1, max_heap=61, path=path)


def test_cli_prints_the_table_as_csv():
    result = run("misere-table", "--digits", "1", "--max-heap", "60")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[2] == "0.1,2,1,6,1,2,1,,stable from heap 1"
    assert lines[5] == "0.4,176,28,30,28,,,31,too large at heap 31"
    assert len(lines) == 9


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_killed_run_resumes_to_the_same_table(tmp_path, table):
    # The CLI killed once its file holds some rows (any time: each row is written by
    # an atomic rename), then run again to the end, gives the table of one run.
    path = tmp_path / "table.csv"
    command = [sys.executable, "-m", "nimkit", "misere-table", "--digits", "2", "-o", str(path)]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            if path.exists() and len(path.read_text().splitlines()) >= 2 + 10:
                break
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    assert path.exists()
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    stable = sum(r.stable for r in table)
    assert result.stdout.strip() == f"63 codes, {stable} stable: {path}"
    uninterrupted = io.StringIO()
    table_module.write_csv(table, uninterrupted, 300, 4096)
    assert path.read_text() == uninterrupted.getvalue()
    assert not Path(str(path) + ".partial").exists()
