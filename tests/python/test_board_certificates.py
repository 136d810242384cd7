"""Certificates of board values (grundy(certificate=)) and their checker
(nimkit.board_checker): right values, and every forgery caught with the fact named."""

from __future__ import annotations

import ast
import gzip
import itertools
import json
import random
import subprocess
import sys

import networkx as nx
import pytest

import nimkit as nk
from nimkit import _facts
from nimkit import board_checker as checker

from .test_boards import BELING, MISERE_ROWS, brute


def _certified(tmp_path, game, name="c.json"):
    path = tmp_path / name
    value = game.grundy(certificate=path)
    return value, path, json.loads(path.read_bytes()) if name.endswith(".json") else None


def _board(rows, cols, blocked):
    return ["".join("#" if (r, c) in blocked else "." for c in range(cols)) for r in range(rows)]


def test_random_boards_are_certified_with_the_values_of_the_definition(tmp_path):
    # Boards with cells filled at random, in both games, against the value by the
    # definition over whole positions (test_boards.brute), each certificate checked.
    rng = random.Random(7)
    for _ in range(40):
        rows, cols = rng.randint(1, 4), rng.randint(1, 5)
        blocked = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.25}
        cram = nk.Cram(_board(rows, cols, blocked))
        grid = nx.grid_2d_graph(rows, cols)
        grid.remove_nodes_from(blocked)
        value, _, _ = brute(nx.grid_2d_graph(rows, cols).subgraph(grid.nodes), arc=True)
        expected = value(frozenset(grid.nodes))
        assert _certified(tmp_path, cram)[0] == expected
        assert nk.verify(tmp_path / "c.json").value == expected
    for rows, cols in [(2, 7), (3, 5), (4, 4), (3, 6)]:
        graph = nx.grid_2d_graph(rows, cols)
        value, _, _ = brute(graph, arc=False)
        found, path, _ = _certified(tmp_path, nk.NodeKayles(graph))
        assert found == value(frozenset(graph.nodes))
        checked = nk.verify(path)
        assert (checked.value, checked.family) == (found, "node_kayles")


@pytest.mark.parametrize(("rows", "cols"), [(4, 5), (5, 5)])
def test_published_cram_values_are_certified(tmp_path, rows, cols):
    # Beling's table (test_boards.BELING): the certificate proves the published value
    # with facts each checked from the rules.
    value, path, data = _certified(tmp_path, nk.Cram(rows, cols))
    assert value == BELING[min(rows, cols), max(rows, cols)]
    checked = nk.verify(path)
    assert checked.value == value
    assert checked.facts == len(data["facts"]) > 0


def test_node_kayles_on_a_grid_and_arc_kayles_take_certificates(tmp_path):
    # Node Kayles on 3 x n grids: OEIS A316632 (Brown et al., J. Integer Seq. 23, 2020):
    # 3 x 9 is 2, 3 x 12 is 5.
    for n, expected in ((9, 2), (12, 5)):
        value, path, _ = _certified(tmp_path, nk.NodeKayles(nx.grid_2d_graph(3, n)))
        assert value == expected == nk.verify(path).value
    # Arc Kayles on a grid graph is Cram.
    value, path, _ = _certified(tmp_path, nk.ArcKayles(nx.grid_2d_graph(4, 5)))
    assert value == nk.Cram(4, 5).grundy() == nk.verify(path).value


def test_every_changed_fact_is_caught_by_name(tmp_path):
    _, path, data = _certified(tmp_path, nk.Cram(3, 5))
    facts = data["facts"]
    assert len(facts) > 20
    # Every third fact, the refuted ones and the largest (each forgery is a check).
    chosen = [i for i, f in enumerate(facts) if i % 3 == 0 or f[1] is None] + [len(facts) - 1]
    assert any(facts[i][1] is None for i in chosen)
    for i in chosen:
        shape, value, nots = facts[i]
        forged = json.loads(json.dumps(data))
        if value is not None:
            forged["facts"][i][1] = value + 1
        else:
            # A value it was shown not to have, claimed instead.
            forged["facts"][i][1] = nots[0]
        path.write_text(json.dumps(forged))
        with pytest.raises(nk.CertificateError, match=rf"fact {i} \(shape {shape}\)"):
            nk.verify(path)
        if value is not None:
            # The value it has, claimed not to be its value.
            forged["facts"][i][1] = value
            forged["facts"][i][2] = sorted({*nots, value})
            path.write_text(json.dumps(forged))
            with pytest.raises(nk.CertificateError, match=rf"fact {i} "):
                nk.verify(path)


def test_missing_facts_and_a_wrong_root_are_caught(tmp_path):
    _, path, data = _certified(tmp_path, nk.Cram(4, 5))
    # The largest fact is the board itself: without it the root has no proven value.
    largest = data["facts"][-1]
    assert largest[0] == "xxxxx/xxxxx/xxxxx/xxxxx"
    forged = dict(data, facts=data["facts"][:-1])
    path.write_text(json.dumps(forged))
    with pytest.raises(nk.CertificateError, match=r"component xxxxx/.* has no proven value"):
        nk.verify(path)
    # Without the facts a fact needs, its options leave it more values.
    forged = dict(data, facts=[data["facts"][-1]])
    path.write_text(json.dumps(forged))
    with pytest.raises(nk.CertificateError, match=r"fact 0 \(shape xxxxx/.*leave it any of"):
        nk.verify(path)
    forged = dict(data, value=data["value"] ^ 1)
    path.write_text(json.dumps(forged))
    with pytest.raises(nk.CertificateError, match="the position's value is 2, not 3"):
        nk.verify(path)


def failures_on(path, counts):
    """What ``verify`` says of a forged certificate on each number of processes."""
    found = []
    for processes in counts:
        with pytest.raises(nk.CertificateError) as failed:
            nk.verify(path, processes=processes)
        found.append(str(failed.value))
    return found


def test_facts_shared_among_processes_are_checked_alike(tmp_path):
    # Each fact is checked from what the certificate states, so processes may share
    # them out: the same report, the same closed forms, and the same first failure.
    _, path, data = _certified(tmp_path, nk.Cram(4, 5))
    alone = str(nk.verify(path))
    assert "closed forms used: 2 x n 2, half-turn 10" in alone
    assert str(nk.verify(path, processes=2)) == str(nk.verify(path, processes=3)) == alone
    forged = json.loads(json.dumps(data))
    for i in (len(forged["facts"]) // 3, len(forged["facts"]) // 2):
        if forged["facts"][i][1] is not None:
            forged["facts"][i][1] += 1
        else:
            forged["facts"][i][1] = forged["facts"][i][2][0]
    path.write_text(json.dumps(forged))
    failures = failures_on(path, (1, 2, 3))
    assert failures[0] == failures[1] == failures[2]
    assert "(shape " in failures[0]
    for bad in (0, -1, True, 1.5, "2"):
        with pytest.raises(ValueError, match="give a number of processes"):
            nk.verify(path, processes=bad)  # type: ignore[arg-type]


def test_what_is_verified_names_the_position(tmp_path):
    # A certificate of a board with cells filled says which: the value is the
    # position's, not the empty board's.
    value, path, _ = _certified(tmp_path, nk.Cram(["...", "...", ".#.", "...", "..."]))
    checked = nk.verify(path)
    assert checked.value == value
    assert checked.board == (3, 5)
    assert checked.position == "xxxxx/xx-xx/xxxxx"
    assert "the cells in play xxxxx/xx-xx/xxxxx, has Grundy value" in str(checked)


def test_a_fact_against_a_closed_form_is_caught(tmp_path):
    # The 4 x 4 board is mapped onto itself by the half-turn: value 0 by a theorem
    # the checker states itself; a fact saying otherwise is refused.
    _, path, data = _certified(tmp_path, nk.Cram(4, 4))
    assert data["facts"] == []
    assert nk.verify(path).theorems == {"half-turn": 1}
    forged = dict(data, facts=[["xxxx/xxxx/xxxx/xxxx", 1, []]])
    path.write_text(json.dumps(forged))
    with pytest.raises(nk.CertificateError, match="contradicts its known value 0"):
        nk.verify(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("format"), "not a nimkit board certificate"),
        (lambda d: d.update(version=9), "version 9"),
        (lambda d: d.update(family="go"), "family 'go'"),
        (lambda d: d.update(board=[3]), r"board \[3\]"),
        (lambda d: d.update(board=[100, 100]), "100 x 100 cells is not read"),
        (lambda d: d.update(position="x" * 6), "is not the board's 3 rows of 5"),
        (lambda d: d["facts"].append(["x/x/x/x/x/x", 0, []]), "does not fit on the board"),
        (lambda d: d.update(position="xxxxx/xxxxx/xxxx?"), "the position: .* is not a shape"),
        (lambda d: d.update(position="x"), "the position 'x' is not the board's 3 rows of 5"),
        (lambda d: d.update(family=["cram"]), r"family \['cram'\]"),
        (lambda d: d["facts"].append(["-", 0, []]), "'-' has no cell"),
        (lambda d: d["facts"].append(["/", 0, []]), "'/' has no cell"),
        (lambda d: d.update(value=-1), "value -1"),
        (lambda d: d.update(facts={}), "'facts' is not a list"),
        (lambda d: d["facts"].append([1, 2]), "is not \\[shape"),
        (lambda d: d["facts"].append(["xx", True, []]), "value True"),
        (lambda d: d["facts"].append(["xx", None, []]), "states nothing"),
        (lambda d: d["facts"].append(["xx", None, ["a"]]), "not a list of values"),
        (lambda d: d["facts"].append(list(d["facts"][-1])), "is stated twice"),
    ],
)
def test_malformed_certificates_are_refused_clearly(tmp_path, change, message):
    _, path, data = _certified(tmp_path, nk.Cram(3, 5))
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(nk.CertificateError, match=message):
        nk.verify(path)


def test_unreadable_files_are_refused(tmp_path):
    bad = (
        b"",
        b"\x1f\x8b garbage",
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x07" + bytes(64),  # a damaged stream
        b"\xff\xfe",
        b"[1, 2",
        b"[" * 100_000,  # nested past the parser's recursion
        b'{"value": ' + b"9" * 5000 + b"}",  # more digits than int() takes
    )
    for content in bad:
        (tmp_path / "bad").write_bytes(content)
        with pytest.raises(nk.CertificateError, match="cannot be read as one"):
            nk.verify(tmp_path / "bad")
    with pytest.raises(nk.CertificateError, match="cannot be read"):
        nk.verify(tmp_path / "missing.json")


def test_a_file_past_the_bound_is_refused_before_it_is_read_whole(tmp_path, monkeypatch):
    _, path, _ = _certified(tmp_path, nk.Cram(3, 5), "c.json.gz")
    monkeypatch.setattr(_facts, "MOST_BYTES", 100)
    with pytest.raises(nk.CertificateError, match="more than 100 bytes of JSON"):
        nk.verify(path)


def test_a_compressed_certificate_and_the_same_facts_in_any_orientation(tmp_path):
    value, path, _ = _certified(tmp_path, nk.Cram(3, 7), "c.json.gz")
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert nk.verify(path).value == value == data["value"]
    # The board laid out the other way round (7 x 3) is proven by the same facts.
    upright, _, data_upright = _certified(tmp_path, nk.Cram(7, 3))
    assert upright == value
    assert data_upright["board"] == [3, 7]


def test_what_takes_no_certificate_is_refused(tmp_path):
    path = tmp_path / "c.json"
    with pytest.raises(ValueError, match="games on boards"):
        nk.NodeKayles(nx.petersen_graph()).grundy(certificate=path)
    with pytest.raises(ValueError, match="no checkpoint and no evict"):
        nk.Cram(3, 4).grundy(certificate=path, checkpoint=tmp_path)
    with pytest.raises(ValueError, match="no checkpoint and no evict"):
        nk.Cram(3, 4).grundy(certificate=path, max_memory="1 MiB", evict=True)
    assert not path.exists()


def test_a_memory_bound_stops_a_certificate_search(tmp_path):
    with pytest.raises(MemoryError):
        nk.Cram(5, 6).grundy(certificate=tmp_path / "c.json", max_memory="64 KiB")
    assert not (tmp_path / "c.json").exists()


def test_the_command_line_writes_and_verifies(tmp_path):
    path = tmp_path / "c.json"
    run = [sys.executable, "-m", "nimkit"]
    made = subprocess.run(
        [*run, "cram", "3", "5", "--certificate", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "value: 1" in made.stdout
    assert "nimkit verify" in made.stdout
    checked = subprocess.run([*run, "verify", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0
    assert checked.stdout.startswith(
        "verified: cram on a 3 x 5 board, every cell in play, has Grundy value 1"
    )
    data = json.loads(path.read_text())
    data["facts"][-1][1] += 1
    path.write_text(json.dumps(data))
    failed = subprocess.run([*run, "verify", str(path)], capture_output=True, text=True)
    assert failed.returncode == 1
    assert f"fact {len(data['facts']) - 1} (shape" in failed.stderr
    shared = subprocess.run(
        [*run, "verify", "--processes", "2", str(path)], capture_output=True, text=True
    )
    assert (shared.returncode, shared.stderr) == (1, failed.stderr)


def test_the_checkers_share_nothing_with_the_search():
    # The checkers import the standard library and one another only: no module of the
    # search, no numpy.
    from nimkit import _facts, sprouts_checker

    checkers = {"_facts", "board_checker", "sprouts_checker"}
    standard = {"__future__", "collections.abc", "dataclasses", "gzip", "itertools", "json"}
    standard |= {"multiprocessing", "os", "re", "typing", "zlib"}
    for module in (checker, sprouts_checker, _facts):
        with open(module.__file__) as source:
            tree = ast.parse(source.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert {alias.name for alias in node.names} <= standard
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    assert node.level == 1, node.module
                    assert node.module in checkers, node.module
                else:
                    assert node.module in standard, node.module


def test_the_matching_equals_a_brute_force():
    # How many values 0 .. g - 1 the options can take one each, against every
    # assignment of values to options (random small instances).
    rng = random.Random(3)
    for _ in range(300):
        count = rng.randint(0, 6)
        kinds = [rng.random() < 0.4 for _ in range(count)]
        exact = [rng.randint(0, 4) for _ in range(count)]
        loose = [frozenset(rng.sample(range(6), rng.randint(0, 4))) for _ in range(count)]
        exact_set = {v for v, is_exact in zip(exact, kinds, strict=True) if is_exact}
        loose_list = [s for s, is_exact in zip(loose, kinds, strict=True) if not is_exact]
        allowed = [
            [v] if is_exact else [x for x in range(count + 1) if x not in s] + [99]
            for v, s, is_exact in zip(exact, loose, kinds, strict=True)
        ]
        best = 0
        for values in itertools.product(*allowed) if count else [()]:
            g = 0
            while g in values:
                g += 1
            best = max(best, min(g, count))
        assert _facts.matched(exact_set, loose_list, count) == best, (allowed,)


def _misere(tmp_path, game, name="m.json"):
    path = tmp_path / name
    outcome = game.outcome(misere=True, certificate=path)
    return outcome, path, json.loads(path.read_bytes()) if name.endswith(".json") else None


def test_misere_outcomes_are_certified_as_the_definition_gives_them(tmp_path):
    # Random boards in Cram and grids in Node Kayles and Arc Kayles, against the misère
    # outcome by the definition over whole positions (test_boards.brute).
    rng = random.Random(11)
    games = []
    for _ in range(30):
        rows, cols = rng.randint(1, 4), rng.randint(1, 5)
        blocked = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.25}
        grid = nx.grid_2d_graph(rows, cols)
        grid.remove_nodes_from(blocked)
        games.append((nk.Cram(_board(rows, cols, blocked)), grid, True))
    for rows, cols in [(2, 6), (3, 4), (3, 5)]:
        grid = nx.grid_2d_graph(rows, cols)
        games += [(nk.NodeKayles(grid), grid, False), (nk.ArcKayles(grid), grid, True)]
    for game, grid, arc in games:
        _, misere_wins, _ = brute(grid, arc=arc)
        expected = "N" if misere_wins(frozenset(grid.nodes)) else "P"
        outcome, path, _ = _misere(tmp_path, game)
        assert outcome.value == expected, game
        checked = nk.verify(path)
        assert (checked.outcome, checked.value, checked.family) == (expected, None, game.family)


def test_a_misere_certificate_reads_as_it_is_documented(tmp_path):
    outcome, path, data = _misere(tmp_path, nk.Cram(3, 4))
    assert (outcome, data["ending"], data["outcome"], data["board"]) == (
        nk.Outcome.P,
        "misere",
        "P",
        [3, 4],
    )
    root = data["positions"][0]
    assert (root[0], root[1], root[2]) == (["xxxx/xxxx/xxxx"], "P", None)
    assert str(nk.verify(path)) == (
        "verified: cram on a 3 x 4 board, every cell in play, is a misère P-position "
        f"(the player to move loses)\n{len(data['positions'])} positions checked, each "
        "from the rules"
    )


def test_every_misere_position_changed_or_removed_is_caught(tmp_path):
    for game in (nk.Cram(3, 4), nk.Cram(2, 5)):
        _, path, data = _misere(tmp_path, game)
        for i in range(len(data["positions"])):
            forged = json.loads(json.dumps(data))
            entry = forged["positions"][i]
            entry[1] = "N" if entry[1] == "P" else "P"
            path.write_text(json.dumps(forged))
            with pytest.raises(nk.CertificateError, match="position"):
                nk.verify(path)
            forged = json.loads(json.dumps(data))
            del forged["positions"][i]
            path.write_text(json.dumps(forged))
            with pytest.raises(nk.CertificateError, match=r"not proven|not among"):
                nk.verify(path)


def test_misere_positions_shared_among_processes_are_checked_alike(tmp_path):
    _, path, data = _misere(tmp_path, nk.Cram(3, 5))
    assert str(nk.verify(path, processes=2)) == str(nk.verify(path))
    # A loss late in the list stated a win: the same position named either way.
    late = max(i for i, e in enumerate(data["positions"]) if e[1] == "P")
    data["positions"][late][1] = "N"
    path.write_text(json.dumps(data))
    failures = failures_on(path, (1, 2))
    assert failures[0] == failures[1]
    assert "position" in failures[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(outcome="N"), "proven P, not N as claimed"),
        (lambda d: d.update(outcome="X"), "is not 'N' or 'P'"),
        (lambda d: d.update(positions={}), "'positions' is not a list"),
        (lambda d: d["positions"].append(d["positions"][0]), "stated twice"),
        (lambda d: d["positions"][0].append(1), "is not \\[shapes"),
        (lambda d: d["positions"][0][0].append("x"), "has no move"),
        (lambda d: d["positions"][0][0].append("xx-x/---x"), "is not one component"),
        (lambda d: d["positions"][0].__setitem__(0, "xx"), "not a list of shapes"),
    ],
)
def test_malformed_misere_certificates_are_refused_clearly(tmp_path, change, message):
    _, path, data = _misere(tmp_path, nk.Cram(3, 4))
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(nk.CertificateError, match=message):
        nk.verify(path)


def test_a_win_must_name_a_losing_option_of_its_own(tmp_path):
    _, path, data = _misere(tmp_path, nk.Cram(4, 4))
    wins = [e for e in data["positions"] if e[1] == "N" and e[2] is not None]
    losses = [e[0] for e in data["positions"] if e[1] == "P"]
    # A loss of the certificate that is not an option of this win.
    other = next(shapes for shapes in losses if shapes != wins[0][2])
    wins[0][2] = other
    path.write_text(json.dumps(data))
    with pytest.raises(nk.CertificateError, match="names no option of its own"):
        nk.verify(path)


def test_what_takes_no_misere_certificate_is_refused(tmp_path):
    with pytest.raises(ValueError, match="grundy\\(certificate=\\)"):
        nk.Cram(3, 4).outcome(certificate=tmp_path / "c.json")
    with pytest.raises(ValueError, match="no evict"):
        nk.Cram(3, 4).outcome(
            misere=True, certificate=tmp_path / "c.json", max_memory="1 MiB", evict=True
        )
    with pytest.raises(ValueError, match="no board"):
        nk.NodeKayles(nx.petersen_graph()).outcome(misere=True, certificate=tmp_path / "c.json")


def test_the_command_line_proves_a_misere_outcome(tmp_path):
    path = tmp_path / "m.json.gz"
    done = subprocess.run(
        [sys.executable, "-m", "nimkit", "cram", "4", "5", "--misere", "--certificate", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "outcome (misère play): P" in done.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "nimkit", "verify", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "is a misère P-position" in checked.stdout


#: Node Kayles on 3 x n grids past OEIS A316632: the guide's values (test_boards checks
#: them without certificates). 3 x 28 and 3 x 31 take none: their searches for one held
#: more than 8 GB (the guide).
NODE_KAYLES_3N = {
    n: v for n, v in zip(range(17, 32), [2, 2, 1, 1, 5, 0, 1, 1, 3, 0, 2, 5, 1, 0, 2], strict=True)
}
#: Those whose certificate takes more than a minute to check: by hand (``-m record``).
NODE_KAYLES_3N_RECORD = {21, 27, 29, 30}


@pytest.mark.research
@pytest.mark.parametrize(
    "cols",
    [
        pytest.param(n, marks=[pytest.mark.record] if n in NODE_KAYLES_3N_RECORD else [])
        for n in NODE_KAYLES_3N
        if n not in (28, 31)
    ],
)
def test_node_kayles_records_on_3_by_n_grids_are_certified(tmp_path, cols):
    value, path, _ = _certified(tmp_path, nk.NodeKayles(nx.grid_2d_graph(3, cols)), "c.json.gz")
    assert value == NODE_KAYLES_3N[cols]
    checked = nk.verify(path, processes=2)
    assert (checked.value, checked.board, checked.position) == (
        value,
        (3, cols),
        "/".join(["x" * cols] * 3),
    )


#: The misère outcomes at the ends of the guide's Node Kayles rows (test_boards checks
#: them without certificates), and smaller boards of the rows.
MISERE_NODE_KAYLES = {
    (3, 16): "P",
    (4, 10): "N",
    (5, 8): "N",
    (6, 6): "P",
    (3, 20): "N",
    (4, 13): "N",
    (5, 11): "N",
    (6, 9): "P",
    (7, 8): "N",
}


@pytest.mark.research
@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        pytest.param(*shape, marks=[pytest.mark.record] if i >= 4 else [])
        for i, shape in enumerate(MISERE_NODE_KAYLES)
    ],
)
def test_misere_node_kayles_records_are_certified(tmp_path, rows, cols):
    expected = MISERE_NODE_KAYLES[rows, cols]
    assert expected == MISERE_ROWS["node"][rows][cols - rows]
    outcome, path, _ = _misere(tmp_path, nk.NodeKayles(nx.grid_2d_graph(rows, cols)), "m.json.gz")
    assert outcome.value == expected
    assert nk.verify(path, processes=2).outcome == expected
