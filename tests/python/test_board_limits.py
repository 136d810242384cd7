"""The long searches of games on graphs and boards: a memory bound (``max_memory=``)
and runs that survive a restart (``checkpoint=``), from Python and the command line.
Every value is checked against the same game searched in one go in a fresh process
state (a new game object has tables of its own)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile

import networkx as nx
import numpy as np
import pytest

import nimkit as nk
from nimkit import board_checkpoint
from nimkit.boards import memory_bytes
from nimkit.cli import main

from .sigterm import stopped_by_sigterm


def test_memory_sizes_are_read_as_people_write_them():
    assert memory_bytes("1.5 GB") == 1_500_000_000
    assert memory_bytes("64KiB") == 65536
    assert memory_bytes(" 12 ") == 12
    assert memory_bytes(2**80) == 2**64 - 1
    for bad, error in [
        ("2 XB", ValueError),
        ("", ValueError),
        (0, ValueError),
        (True, TypeError),
        (2.5, TypeError),
    ]:
        with pytest.raises(error, match="max_memory"):
            memory_bytes(bad)  # type: ignore[arg-type]


def test_a_search_past_max_memory_stops_and_keeps_what_it_learned():
    wanted = nk.Cram(5, 6).grundy()
    game = nk.Cram(5, 6)
    with pytest.raises(MemoryError, match=r"more than max_memory = 100000 \(its table has"):
        game.grundy(max_memory="100 KB")
    learned = {name: len(v) for name, _, _, v in nk._core.vertex_tables(game._native)}
    assert learned["board"] > 1000
    assert game.grundy(max_memory="64 MiB") == wanted
    # Misère play and winning moves are bounded too.
    with pytest.raises(MemoryError, match="max_memory"):
        nk.Cram(4, 5).outcome(misere=True, max_memory=20_000)
    with pytest.raises(MemoryError, match="max_memory"):
        nk.NodeKayles(nx.petersen_graph()).winning_moves(misere=True, max_memory=500)
    assert nk.Cram(4, 5).outcome(misere=True, max_memory="64 MiB") == nk.Cram(4, 5).outcome(
        misere=True
    )
    with pytest.raises(MemoryError, match="max_memory"):
        nk.cram_table(3, 12, max_memory=50_000)
    assert nk.cram_table(3, 8, max_memory="16 MiB") == nk.cram_table(3, 8)


def test_eviction_makes_room_past_max_memory(tmp_path, capsys):
    # Cram 5 x 7 (1: Beling's table) needs 1-4 MiB of table (one thread to three):
    # in 512 KiB the search stops unless it evicts, and evicting it goes on with room
    # to spare (it stops near a quarter of that). The 3 x 13 row (3 x 13 is 2:
    # Beling's igsolve, as test_boards.py cites) needs 1-2 MiB: it evicts in 1 MiB on
    # two threads or more.
    with pytest.raises(MemoryError, match="max_memory"):
        nk.Cram(5, 7).grundy(max_memory="512 KiB")
    assert nk.Cram(5, 7).grundy(max_memory="512 KiB", evict=True) == 1
    row = [1, 1, 0, 1, 1, 4, 1, 3, 1, 2, 0, 1, 2]
    assert nk.cram_table(3, 13, max_memory="1 MiB", evict=True) == row
    saved = tmp_path / "row"
    assert nk.cram_table(3, 13, max_memory="1 MiB", evict=True, checkpoint=saved) == row
    assert nk.Cram(5, 7).grundy(max_memory="512 KiB", evict=True, checkpoint=tmp_path) == 1
    assert main(["cram-table", "3", "13", "--max-memory", "1 MiB", "--evict"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == "3 x 13: 2"
    # The command line's outcome and winning move come from values too, so they evict.
    assert main(["cram", "5", "7", "--max-memory", "512 KiB", "--evict"]) == 0
    out = capsys.readouterr().out
    for line in ("value: 1", "outcome (normal play): N", "winning move: domino on"):
        assert line in out
    with pytest.raises(SystemExit):
        main(["cram", "5", "7", "--evict"])
    assert "--evict makes room past --max-memory" in capsys.readouterr().err
    # A bound too small for the search's own stack: the bound's error, evicting or
    # not, also in steps (a checkpoint), on a graph (not a board: its labels are
    # strings) as on a board. (Node Kayles on this graph, 4, evicts in 1 MiB; its
    # stack alone needs more than 16 KiB, Cram 5 x 7's 12 KiB on one thread and more
    # on several: 2026-11-27.)
    graph = nx.relabel_nodes(nx.grid_2d_graph(5, 9), str)
    with pytest.raises(MemoryError, match="max_memory"):
        nk.NodeKayles(graph).grundy(max_memory="8 KiB", evict=True)
    with pytest.raises(MemoryError, match="max_memory"):
        nk.NodeKayles(graph).grundy(
            max_memory="8 KiB", evict=True, checkpoint=tmp_path / "steps", every=0.05
        )
    with pytest.raises(MemoryError, match="max_memory"):
        nk.Cram(5, 7).grundy(max_memory="8 KiB", evict=True)
    with pytest.raises(ValueError, match="give max_memory too"):
        nk.Cram(5, 7).grundy(evict=True)
    with pytest.raises(TypeError, match="evict is True or False"):
        nk.cram_table(3, 5, max_memory="1 MiB", evict="yes")  # type: ignore[arg-type]


def test_outcomes_and_misere_searches_evict(tmp_path, capsys):
    # Misère Cram 4 x 6 is P (the guide's table, test_boards.py) and needs 0.5-1 MiB
    # of table: in 256 KiB its search stops unless it evicts, and evicting it drops
    # the outcomes of the smallest positions as it goes and finds the same outcome.
    with pytest.raises(MemoryError, match="max_memory"):
        nk.Cram(4, 6).outcome(misere=True, max_memory="256 KiB")
    assert nk.Cram(4, 6).outcome(misere=True, max_memory="256 KiB", evict=True) is nk.Outcome.P
    # Only the stack left: the bound's error, evicting or not.
    with pytest.raises(MemoryError, match="max_memory"):
        nk.Cram(4, 6).outcome(misere=True, max_memory=512, evict=True)
    # Normal play: Cram 5 x 7 (value 1, Beling's table) is N.
    with pytest.raises(MemoryError, match="max_memory"):
        nk.Cram(5, 7).outcome(max_memory="512 KiB")
    assert nk.Cram(5, 7).outcome(max_memory="512 KiB", evict=True) is nk.Outcome.N
    # Winning moves in an eighth (a quarter) of the room they need are those found
    # without a bound (misère Cram 3 x 9 needs 2-4 MiB, normal-play 5 x 6 64-128 KiB).
    for game, misere, bound in [(nk.Cram(3, 9), True, "512 KiB"), (nk.Cram(5, 6), False, "32 KiB")]:
        with pytest.raises(MemoryError, match="max_memory"):
            game.winning_moves(misere, max_memory=bound)
        found = game.winning_moves(misere, max_memory=bound, evict=True)
        assert {m.cells for m in found} == {m.cells for m in game.winning_moves(misere)}
    assert main(["cram", "4", "6", "--misere", "--max-memory", "256 KiB", "--evict"]) == 0
    assert "outcome (misère play): P" in capsys.readouterr().out
    # The misère question is answered where the normal-play value does not fit (a
    # random graph whose value, evicting, needs 3.75 KiB, the command's misère
    # questions 2.25 KiB; 2026-11-28, one thread to three, paths valued without
    # search): the value's line says so, and the outcome is the one found with no bound.
    graph = nx.gnp_random_graph(20, 0.3, seed=8)
    nx.write_edgelist(graph, tmp_path / "g.txt", data=False)
    read = nx.read_edgelist(tmp_path / "g.txt")  # as the command reads it: no isolated vertex
    wanted = nk.NodeKayles(read).outcome(misere=True).value
    command = ["node-kayles", str(tmp_path / "g.txt"), "--misere", "--max-memory", "3.25 KiB"]
    assert main([*command, "--evict"]) == 0
    out = capsys.readouterr().out
    assert "value: past --max-memory" in out
    assert f"outcome (misère play): {wanted}" in out
    # No move at all needs no table: a win in misère play, a loss in normal play.
    assert nk.Cram(1, 1).outcome(misere=True, max_memory=1) is nk.Outcome.N
    assert nk.Cram(1, 1).outcome(max_memory=1) is nk.Outcome.P
    with pytest.raises(TypeError, match="evict is True or False"):
        nk.Cram(4, 6).outcome(misere=True, max_memory="1 MiB", evict=1)  # type: ignore[arg-type]


def test_a_run_in_many_steps_gives_the_value_of_one(tmp_path):
    for game, make in [
        ("cram 5 x 6", lambda: nk.Cram(5, 6)),
        ("node kayles 4 x 6", lambda: nk.NodeKayles(nx.grid_2d_graph(4, 6))),
        ("arc kayles", lambda: nk.ArcKayles(nx.gnm_random_graph(14, 22, seed=3))),
    ]:
        wanted = make().grundy()
        directory = tmp_path / game.replace(" ", "_")
        # Steps of 20 ms, a save after each (a step learns at least one value).
        assert make().grundy(checkpoint=directory, every=0.02) == wanted, game
        saved = board_checkpoint.read(directory)
        assert sum(saved["entries"].values()) > 0
        # A new game starts from the saved table and needs no search.
        again = make()
        assert board_checkpoint.load(again, directory) == sum(saved["entries"].values())
        assert nk._core.vertex_value(again._native, None, 0.0) == wanted, game


def test_a_checkpoint_serves_every_position_of_its_game(tmp_path):
    nk.Cram(4, 7).grundy(checkpoint=tmp_path)
    shaped = ["..#....", ".......", "....#..", "......."]
    assert nk.Cram(shaped).grundy(checkpoint=tmp_path) == nk.Cram(shaped).grundy()


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="file modes are POSIX's")
def test_a_checkpoint_has_the_mode_the_umask_gives(tmp_path):
    for mask, mode in ((0o022, 0o644), (0o077, 0o600)):
        old = os.umask(mask)
        try:
            nk.Cram(3, 5).grundy(checkpoint=tmp_path)
        finally:
            os.umask(old)
        assert (tmp_path / board_checkpoint.FILE).stat().st_mode & 0o777 == mode
        assert os.listdir(tmp_path) == [board_checkpoint.FILE]


def test_a_memory_error_saves_and_the_run_goes_on_from_it(tmp_path):
    wanted = nk.Cram(5, 6).grundy()
    with pytest.raises(MemoryError):
        nk.Cram(5, 6).grundy(checkpoint=tmp_path, max_memory="100 KB")
    assert board_checkpoint.read(tmp_path)["entries"]["board"] > 1000
    assert nk.Cram(5, 6).grundy(checkpoint=tmp_path) == wanted


def test_a_row_table_saves_its_board_and_goes_on_from_it(tmp_path):
    # Stopped past max_memory in the middle of the row, cram_table saved what it
    # learned, and the next call finishes the row from it: the values of the plain
    # table (3 x 1 to 3 x 13 published: test_boards.py).
    wanted = nk.cram_table(3, 14)
    assert wanted[:13] == [1, 1, 0, 1, 1, 4, 1, 3, 1, 2, 0, 1, 2]
    with pytest.raises(MemoryError):
        nk.cram_table(3, 14, checkpoint=tmp_path, max_memory="1 MB")
    stopped = board_checkpoint.read(tmp_path)
    assert stopped["game"]["board"] == [3, 14]
    assert stopped["entries"]["board"] > 1000
    assert nk.cram_table(3, 14, checkpoint=tmp_path, every=0.05) == wanted
    assert board_checkpoint.read(tmp_path)["entries"]["board"] > stopped["entries"]["board"]
    # The board's checkpoint serves its positions too, and another row's is refused.
    assert nk.Cram(3, 14).grundy(checkpoint=tmp_path) == wanted[-1]
    with pytest.raises(ValueError, match="another game"):
        nk.cram_table(3, 13, checkpoint=tmp_path)


def test_other_games_and_damaged_checkpoints_are_refused(tmp_path):
    nk.Cram(3, 7).grundy(checkpoint=tmp_path)
    with pytest.raises(
        ValueError, match=r"another game \(cram on a 3 x 7 board\), not of cram on a 3 x 8"
    ):
        nk.Cram(3, 8).grundy(checkpoint=tmp_path)
    with pytest.raises(ValueError, match="another game"):
        nk.NodeKayles(nx.grid_2d_graph(3, 7)).grundy(checkpoint=tmp_path)
    table = tmp_path / "table.npz"
    table.write_bytes(table.read_bytes()[:-40])
    with pytest.raises(ValueError, match="damaged"):
        nk.Cram(3, 7).grundy(checkpoint=tmp_path)
    # Arrays that disagree with each other are refused by the core.
    game = nk.Cram(3, 7)
    with zipfile.ZipFile(table, "w") as broken:
        broken.writestr("meta.npy", b"")
    with pytest.raises(ValueError, match="damaged"):
        board_checkpoint.read(tmp_path)
    with pytest.raises(ValueError, match="does not fit this game"):
        nk._core.vertex_restore(
            game._native,
            "board",
            np.ones(3, np.uint16),
            np.ones(2, np.uint64),
            np.zeros(3, np.uint32),
        )
    with pytest.raises(ValueError, match="a key of 2 words where this board's have 1"):
        nk._core.vertex_restore(
            game._native,
            "board",
            np.full(1, 2, np.uint16),
            np.ones(2, np.uint64),
            np.zeros(1, np.uint32),
        )
    with pytest.raises(ValueError, match="every must be"):
        nk.Cram(3, 7).grundy(checkpoint=tmp_path / "new", every=-1)


def test_checkpoint_arguments_and_files_that_are_not_checkpoints(tmp_path):
    # An empty file, or one whose description is not the checkpoint's, is damaged.
    for meta in ("", json.dumps([1]), json.dumps({"format": 1, "game": {}, "entries": 3})):
        damaged = tmp_path / f"damaged{len(meta)}"
        damaged.mkdir()
        if meta:
            np.savez(damaged / "table.npz", meta=np.array(meta))
        else:
            (damaged / "table.npz").write_bytes(b"")
        with pytest.raises(ValueError, match="damaged"):
            nk.cram_table(2, 4, checkpoint=damaged)
    # The directory asked for, and the time between saves, are checked first.
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(NotADirectoryError, match="not a directory"):
        nk.cram_table(2, 4, checkpoint=afile)
    with pytest.raises(ValueError, match="must name a directory"):
        nk.cram_table(2, 4, checkpoint="")
    with pytest.raises(ValueError, match="every must be"):
        nk.cram_table(2, 4, checkpoint=tmp_path / "new", every=True)
    with pytest.raises(TypeError, match="rows must be a whole number"):
        nk.cram_table(2.0, 4, checkpoint=tmp_path / "new")  # type: ignore[arg-type]
    # A board too large is refused before a list of its cells is made.
    with pytest.raises(ValueError, match="cells"):
        nk.cram_table(5000, 5000, checkpoint=tmp_path / "new")
    # every=inf: a save at the end only; each save replaces the table, leaving no other file.
    assert nk.cram_table(2, 6, checkpoint=tmp_path / "inf", every=float("inf")) == [1, 0] * 3
    assert nk.cram_table(2, 6, checkpoint=tmp_path / "inf", every=0) == [1, 0] * 3
    assert os.listdir(tmp_path / "inf") == ["table.npz"]


def test_a_killed_run_resumes_from_its_last_save(tmp_path):
    # Killed whenever it is, the run leaves a whole checkpoint (or none yet), and the
    # next run ends with the value. A fast machine may finish first: still a resume.
    script = (
        "import sys, nimkit as nk\n"
        "print(nk.Cram(5, 7).grundy(checkpoint=sys.argv[1], every=0.05), flush=True)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    table = tmp_path / "table.npz"
    try:
        deadline = time.monotonic() + 120
        while not table.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        child.kill()
        child.communicate()
    if table.exists():
        assert board_checkpoint.read(tmp_path)["game"]["board"] == [5, 7]
    assert nk.Cram(5, 7).grundy(checkpoint=tmp_path) == nk.cram_table(5, 7)[-1]


SIGTERM_SCRIPT = """
import signal, sys, time, nimkit as nk
from nimkit import board_checkpoint
if sys.argv[2] == "ignored":  # as in a background job of a script (cmd &)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
heard = []
def searching(entries):
    if not heard:
        heard.append(entries)
        print("searching", flush=True)
        time.sleep(600)  # the SIGTERM comes in here, in Python code the search called
with board_checkpoint.Saving(nk.Cram(6, 7), sys.argv[1], float("inf"), None) as saving:
    saving.value(searching)
print("not stopped", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX's")
@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_sigterm_saves_the_search_and_ends_the_process(tmp_path, sigint):
    # Cram 6 x 7 takes minutes: the signal comes while the search's first report (at
    # 4096 values) sleeps, and every=inf saves only at the end. With SIGINT ignored the
    # handler's KeyboardInterrupt must still stop the search (it was once lost there).
    stopped_by_sigterm(SIGTERM_SCRIPT, str(tmp_path), sigint)
    entries = board_checkpoint.read(tmp_path)["entries"]["board"]
    assert entries >= 4096
    assert board_checkpoint.load(nk.Cram(6, 7), tmp_path) == entries


#: Sends itself SIGTERM as the last save begins (the only one: every=inf).
SIGTERM_IN_SAVE_SCRIPT = """
import os, signal, sys, nimkit as nk
from nimkit import board_checkpoint
save = board_checkpoint.save
def saving(game, directory):
    os.kill(os.getpid(), signal.SIGTERM)
    save(game, directory)
board_checkpoint.save = saving
print(nk.Cram(4, 5).grundy(checkpoint=sys.argv[1], every=float("inf")))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX's")
def test_sigterm_during_the_last_save_waits_for_it(tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", SIGTERM_IN_SAVE_SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == -signal.SIGTERM, run.stderr
    assert board_checkpoint.read(tmp_path)["game"]["board"] == [4, 5]
    assert board_checkpoint.load(nk.Cram(4, 5), tmp_path) > 0


def test_a_checkpointed_search_leaves_the_sigterm_handler_as_it_was(tmp_path):
    # A test runner's worker may have a handler of its own: set, then put back.
    runner = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        nk.Cram(3, 5).grundy(checkpoint=tmp_path / "default")
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        nk.cram_table(3, 5, checkpoint=tmp_path / "ignored")
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, runner)


def test_the_command_line_takes_the_bounds(tmp_path, capsys):
    assert (
        main(
            [
                "cram",
                "4",
                "5",
                "--checkpoint",
                str(tmp_path),
                "--every",
                "0",
                "--max-memory",
                "64 MiB",
            ]
        )
        == 0
    )
    assert "value: 2" in capsys.readouterr().out
    assert board_checkpoint.read(tmp_path)["game"]["board"] == [4, 5]
    with pytest.raises(SystemExit) as stopped:
        main(["cram", "5", "7", "--max-memory", "100KB"])
    assert stopped.value.code == 2
    assert "more than --max-memory = 100000" in capsys.readouterr().err


def test_the_command_line_gives_a_row_with_a_checkpoint(tmp_path, capsys):
    # 3 x 1 to 3 x 8: Schneider, "Das Spiel Juvavum" (master's thesis, Salzburg 2009).
    published = [1, 1, 0, 1, 1, 4, 1, 3]
    row = ["cram-table", "3", "8", "--checkpoint", str(tmp_path), "--every", "0"]
    for _ in range(2):  # the second run starts from the save
        assert main(row) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[:-1] == [f"3 x {n}: {v}" for n, v in enumerate(published, 1)]
        assert lines[-1].startswith("time: ")
    assert board_checkpoint.read(tmp_path)["game"]["board"] == [3, 8]
    for every in ("-1", "nan", "soon"):
        with pytest.raises(SystemExit) as stopped:
            main([*row[:3], "--every", every])
        assert stopped.value.code == 2
        assert "argument --every: a number of seconds, at least 0" in capsys.readouterr().err


#: Runs in a fresh process with rayon's threads set: the value of each game, a
#: search bounded below what it needs, one in steps of 20 ms, and one that evicts
#: in a bound it fails in without eviction on 1 to 3 threads.
THREADS_SCRIPT = """
import json, sys, networkx as nx, nimkit as nk
games = {
    "cram 5 x 7": (lambda: nk.Cram(5, 7), "512 KiB"),
    "cram shaped": (
        lambda: nk.Cram(["....#..", ".......", "..#....", ".......", "......."]),
        "128 KiB",
    ),
    "node kayles 5 x 9": (lambda: nk.NodeKayles(nx.grid_2d_graph(5, 9)), "512 KiB"),
}
found = {}
for name, (make, room) in games.items():
    try:
        make().grundy(max_memory="100 KB")
        bounded = "no error"
    except MemoryError as error:
        bounded = "max_memory" in str(error)
    stepped = make().grundy(checkpoint=sys.argv[1] + "/" + name.replace(" ", "_"), every=0.02)
    try:
        make().grundy(max_memory=room)
        evicted = "no error without evict"
    except MemoryError:
        evicted = make().grundy(max_memory=room, evict=True)
    found[name] = [make().grundy(), bounded, stepped, evicted]
print(json.dumps(found))
"""


def _run_with_threads(threads: str, script: str, *args: str) -> object:
    """What `script` prints (JSON), run in a fresh process with rayon's threads set."""
    env = {**os.environ, "RAYON_NUM_THREADS": threads}
    run = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(run.stdout)


# Three threads on two cores are a research-scale case (minutes under load).
@pytest.mark.parametrize("threads", ["1", "2", pytest.param("3", marks=pytest.mark.research)])
def test_boards_past_32_cells_are_searched_by_several_threads_alike(tmp_path, threads):
    # Components of 32 cells or more are searched by every thread rayon has: the
    # same values, memory bound, runs in steps and eviction as one thread. Cram 5 x 7
    # is 1 (Uiterwijk; Beling's table); the others are what one thread finds (its
    # search is checked against brute force and published values in test_boards.py).
    assert _run_with_threads(threads, THREADS_SCRIPT, str(tmp_path)) == {
        "cram 5 x 7": [1, True, 1, 1],
        "cram shaped": [0, True, 0, 0],
        "node kayles 5 x 9": [4, True, 4, 4],
    }


#: Runs in a fresh process with rayon's threads set: misère outcomes of positions of
#: 32 cells or more (the threads take the options), and a search bounded below what
#: it needs.
MISERE_THREADS_SCRIPT = """
import json, networkx as nx, nimkit as nk
plain = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 8))
games = {
    "cram 3 x 11": nk.Cram(3, 11),
    "cram 4 x 8": nk.Cram(4, 8),
    "arc kayles 4 x 8, integer labels": nk.ArcKayles(plain),
    "node kayles 3 x 16": nk.NodeKayles(nx.grid_2d_graph(3, 16)),
    "node kayles 5 x 8": nk.NodeKayles(nx.grid_2d_graph(5, 8)),
    "cram, 32 cells and no move": nk.Cram(["#." * 4, ".#" * 4] * 4),
}
found = {name: game.outcome(misere=True).value for name, game in games.items()}
try:
    nk.Cram(4, 9).outcome(misere=True, max_memory="100 KB")
    found["bounded"] = "no error"
except MemoryError as error:
    found["bounded"] = "max_memory" in str(error)
print(json.dumps(found))
"""


# Three threads on two cores are a research-scale case (minutes under load).
@pytest.mark.parametrize("threads", ["1", "2", pytest.param("3", marks=pytest.mark.research)])
def test_misere_searches_past_32_cells_are_alike_on_several_threads(threads):
    # The outcomes are the guide's (test_boards.py); Cram is Arc Kayles on the grid.
    assert _run_with_threads(threads, MISERE_THREADS_SCRIPT) == {
        "cram 3 x 11": "P",
        "cram 4 x 8": "N",
        "arc kayles 4 x 8, integer labels": "N",
        "node kayles 3 x 16": "P",
        "node kayles 5 x 8": "N",
        "cram, 32 cells and no move": "N",
        "bounded": True,
    }


#: Runs in a fresh process with rayon's threads set: normal-play outcomes and
#: winning moves of positions with a part of 32 cells or more (the threads ask that
#: part's options whether they have the one value that makes the sum 0); the value,
#: and the winning moves again as the options of value 0 (but where those values
#: take seconds).
OUTCOME_THREADS_SCRIPT = """
import json, networkx as nx, nimkit as nk
games = {
    "cram 3 x 11": nk.Cram(3, 11),
    "cram 3 x 12": nk.Cram(3, 12),
    "cram 4 x 7 beside 4 x 3": nk.Cram([".......#..."] * 4),
    "cram 5 x 7 beside 5 x 2": nk.Cram([".......#.."] * 5),
    "node kayles 5 x 7": nk.NodeKayles(nx.grid_2d_graph(5, 7)),
}
found = {}
for name, game in games.items():
    moves = game.winning_moves()
    valued = moves and name != "cram 3 x 12"
    lost = [o for o in game.options() if o.grundy() == 0] if valued else moves
    found[name] = [game.outcome().value, game.grundy(), len(moves), set(moves) == set(lost)]
print(json.dumps(found))
"""


# Three threads on two cores are a research-scale case (minutes under load).
@pytest.mark.parametrize("threads", ["1", "2", pytest.param("3", marks=pytest.mark.research)])
def test_outcomes_past_32_cells_are_alike_on_several_threads(threads):
    # Cram 3 x 11 is 0 and 3 x 12 is 1 (Lemoine and Viennot; test_boards.py), 5 x 7
    # is 1 (Uiterwijk) and 2 x 5 is 1, so the fourth board is lost; the counts of
    # winning moves are one thread's, the same as the options of value 0.
    assert _run_with_threads(threads, OUTCOME_THREADS_SCRIPT) == {
        "cram 3 x 11": ["P", 0, 0, True],
        "cram 3 x 12": ["N", 1, 25, True],
        "cram 4 x 7 beside 4 x 3": ["N", 2, 18, True],
        "cram 5 x 7 beside 5 x 2": ["P", 0, 0, True],
        "node kayles 5 x 7": ["N", 2, 7, True],
    }


def test_ctrl_c_on_the_command_line_says_where_the_search_is_saved(monkeypatch, capsys):
    from nimkit.cli import _boards as _cli_boards

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(_cli_boards, "run", interrupted)
    assert main(["cram", "6", "7"]) == 128 + signal.SIGINT
    assert capsys.readouterr().err == "nimkit cram: interrupted\n"
    assert main(["cram", "6", "7", "--checkpoint", "run"]) == 128 + signal.SIGINT
    assert capsys.readouterr().err == (
        "nimkit cram: interrupted\n"
        "What the search learned is saved in run: the same command goes on from there.\n"
    )


def _rewrite(directory, change, *, checksum):
    """Rewrite a board checkpoint's saved values with ``change`` (an array in, an
    array out), its SHA-256 recomputed when ``checksum`` (as a forger would)."""
    path = directory / board_checkpoint.FILE
    with np.load(path, allow_pickle=False) as saved:
        arrays = {name: saved[name] for name in saved.files}
    meta = json.loads(str(arrays["meta"]))
    for name in meta["entries"]:
        arrays[f"{name}.values"] = change(arrays[f"{name}.values"]).astype(np.uint32)
    if checksum:
        tables = {
            name: tuple(arrays[f"{name}.{part}"] for part in ("lengths", "words", "values"))
            for name in meta["entries"]
        }
        meta["sha256"] = board_checkpoint._digest(meta["game"], tables)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


@pytest.mark.parametrize("forged", [5, 2**31, 0xFFFFFFFF])
def test_a_checkpoint_whose_values_were_changed_is_refused(tmp_path, forged):
    # Once, every value of Cram 5 x 6's save set to 5 made its value 5 (it is 2).
    assert nk.Cram(5, 6).grundy(checkpoint=tmp_path) == 2
    _rewrite(tmp_path, lambda values: np.full_like(values, forged), checksum=False)
    with pytest.raises(ValueError, match="damaged: its tables do not match their SHA-256"):
        nk.Cram(5, 6).grundy(checkpoint=tmp_path)
    # With the checksum made again (a forger's work, not damage), the core still
    # refuses a value more than the component's moves.
    if forged > 2 * 30:
        _rewrite(tmp_path, lambda values: np.full_like(values, forged), checksum=True)
        with pytest.raises(ValueError, match=f"saved with the value {forged} "):
            nk.Cram(5, 6).grundy(checkpoint=tmp_path)


def test_a_checkpoint_of_a_graph_refuses_values_past_its_moves(tmp_path):
    # A graph that is no board keeps its table under canonical keys: checked too.
    graph = nx.petersen_graph()
    wanted = nk.NodeKayles(graph).grundy()
    assert nk.NodeKayles(graph).grundy(checkpoint=tmp_path) == wanted
    _rewrite(tmp_path, lambda values: values + 11, checksum=True)
    with pytest.raises(ValueError, match="saved with the value"):
        nk.NodeKayles(graph).grundy(checkpoint=tmp_path)


def test_a_checkpoint_without_a_checksum_is_refused(tmp_path):
    nk.Cram(3, 5).grundy(checkpoint=tmp_path)
    path = tmp_path / board_checkpoint.FILE
    with np.load(path, allow_pickle=False) as saved:
        arrays = {name: saved[name] for name in saved.files}
    meta = json.loads(str(arrays["meta"]))
    meta["format"] = 1
    del meta["sha256"]
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="without a checksum"):
        nk.Cram(3, 5).grundy(checkpoint=tmp_path)


def test_a_memory_bound_no_search_holds_is_refused():
    # Only the games on graphs and boards bound their tables: a bound asked of any
    # other game is refused rather than ignored; in a sum with a board it holds.
    heaps = nk.Heaps([3, 5])._native
    for memory, evict in [(1 << 20, False), (1 << 20, True)]:
        with pytest.raises(ValueError, match="no search of a heaps game holds to a memory bound"):
            heaps.outcome(False, 10**6, None, memory, evict)
    with pytest.raises(ValueError, match="no search of a heaps game"):
        heaps.grundy(10**6, None, 1 << 20, False)
    assert heaps.grundy(10**6, None, None, False) == 3 ^ 5
    board_sum = (nk.Cram(2, 3) + nk.Heaps([2]))._native
    assert board_sum.grundy(10**6, None, 1 << 20, False) == 1 ^ 2
