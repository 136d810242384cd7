"""nimkit.cluster: the games that split searched on a real Dask cluster of worker
processes on 127.0.0.1, against the same searches in one process."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time

import pytest

import nimkit as nk
from nimkit import cluster

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
nx = pytest.importorskip("networkx", reason="the graph extra is not installed")

# Under pytest -n auto, one worker runs the modules with clusters: one at a time.
pytestmark = pytest.mark.xdist_group("dask_cluster")


def _cluster(workers: int = 2) -> distributed.LocalCluster:
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    )


@pytest.fixture(scope="module")
def client():
    with _cluster() as local, distributed.Client(local) as client:
        yield client


def _boards() -> list[nk.Cram]:
    rng = random.Random(7)
    boards = [nk.Cram(r, c) for r, c in [(1, 9), (2, 5), (3, 4), (3, 6), (4, 5), (5, 5)]]
    for _ in range(6):
        rows = ["".join(rng.choice("....#") for _ in range(5)) for _ in range(4)]
        boards.append(nk.Cram(rows))
    return boards


def _graphs() -> list[nk.ImpartialGame]:
    games: list[nk.ImpartialGame] = [nk.NodeKayles(nx.petersen_graph())]
    for seed in range(4):
        graph = nx.gnp_random_graph(11, 0.25, seed=seed)
        games += [nk.NodeKayles(graph), nk.ArcKayles(graph)]
    return games


GAMES = [
    *_boards(),
    *_graphs(),
    *(nk.Sprouts(n) for n in range(1, 5)),
    nk.Sprouts("0*2+1a1a"),
]


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_the_cluster_answers_as_one_process_does(client, game):
    assert game.grundy(client=client) == game.grundy()
    assert game.outcome(client=client) == game.outcome()
    for depth in (1, 2):
        on_cluster = game.outcome(misere=True, client=client, depth=depth)
        assert on_cluster == game.outcome(misere=True), depth


def test_deeper_tops_and_the_row_of_cram(client):
    assert nk.Cram(4, 6).outcome(misere=True, client=client, depth=3) == nk.Outcome.P
    assert nk.Cram(3, 5).outcome(misere=True, client=client, depth=3) == nk.Outcome.P
    assert nk.cram_table(3, 7, client=client) == nk.cram_table(3, 7)


def test_a_worker_killed_in_the_middle_loses_no_answer():
    game = nk.Cram(4, 6)  # a misère loss: every option is asked
    expected = game.outcome(misere=True)
    with _cluster() as local, distributed.Client(local) as client:
        pids = client.run(os.getpid)
        done: list[object] = []
        search = threading.Thread(
            target=lambda: done.append(game.outcome(misere=True, client=client, depth=1))
        )
        search.start()
        try:
            # Kill a worker while it holds one of the search's tasks.
            killed = None
            while search.is_alive() and killed is None:
                for worker, keys in client.processing().items():
                    if any(str(k).startswith("nimkit-part-") for k in keys):
                        killed = pids[worker]
                        os.kill(killed, signal.SIGKILL)
                        break
                time.sleep(0.01)
        finally:
            search.join()
        assert done == [expected]
        # The nanny started another worker in its place; the dead one is gone.
        assert killed is None or killed not in client.run(os.getpid).values()


def _stop_after(answers: int):
    """A progress bar that stops the search (as Ctrl-C would) after ``answers``."""

    class Bar:
        def __call__(self, done: int) -> None:
            if done >= answers:
                raise KeyboardInterrupt

        def close(self) -> None:
            pass

    return lambda total, desc: Bar()


def _counting(counts: list[int]):
    class Bar:
        def __call__(self, done: int) -> None:
            counts.append(done)

        def close(self) -> None:
            pass

    return lambda total, desc: Bar()


@pytest.mark.parametrize("misere", [False, True])
def test_a_restart_goes_on_from_the_checkpoint(client, tmp_path, monkeypatch, misere):
    game = nk.Cram(4, 7)
    name = f"cluster-{'misere' if misere else 'normal'}.json"

    def ask() -> object:
        if misere:
            return game.outcome(misere=True, client=client, checkpoint=tmp_path, progress=True)
        return game.grundy(client=client, checkpoint=tmp_path, progress=True)

    monkeypatch.setattr("nimkit._progress.counter", _stop_after(5))
    with pytest.raises(KeyboardInterrupt):
        ask()
    first = json.loads((tmp_path / name).read_text())["answers"]
    assert len(first) >= 5
    counts: list[int] = []
    monkeypatch.setattr("nimkit._progress.counter", _counting(counts))
    assert ask() == (game.outcome(misere=True) if misere else game.grundy())
    both = json.loads((tmp_path / name).read_text())["answers"]
    assert first.items() <= both.items()
    # Every answer the cluster gave is new: nothing saved was asked again.
    assert (counts[-1] if counts else 0) == len(both) - len(first)
    # Done: asked again, the answers come from the file alone.
    counts.clear()
    assert ask() == (game.outcome(misere=True) if misere else game.grundy())
    assert counts == []


def test_damaged_and_foreign_checkpoints_are_refused(client, tmp_path):
    game = nk.NodeKayles(nx.petersen_graph())
    game.grundy(client=client, checkpoint=tmp_path)
    path = tmp_path / "cluster-normal.json"
    saved = json.loads(path.read_text())
    key = next(iter(saved["answers"]))
    forged = dict(saved, answers=dict(saved["answers"], **{key: 7}))
    path.write_text(json.dumps(forged))
    with pytest.raises(ValueError, match="checksum does not match"):
        game.grundy(client=client, checkpoint=tmp_path)
    path.write_text(json.dumps(saved))
    other = nk.NodeKayles(nx.path_graph(10))
    with pytest.raises(ValueError, match="belongs to another game"):
        other.grundy(client=client, checkpoint=tmp_path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="does not read as JSON"):
        game.grundy(client=client, checkpoint=tmp_path)
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError):
        game.grundy(client=client, checkpoint=tmp_path / "file")


def test_cram_parts_are_kept_for_every_board(client, tmp_path):
    # Cram's parts are keyed by their shape: one record serves every board.
    nk.Cram(3, 6).grundy(client=client, checkpoint=tmp_path)
    assert nk.Cram(3, 7).grundy(client=client, checkpoint=tmp_path) == nk.Cram(3, 7).grundy()


def test_what_the_cluster_cannot_do_is_refused(client, tmp_path):
    cram = nk.Cram(3, 4)
    for depth in (0, 5):
        with pytest.raises(ValueError, match="1 to 4 moves deep"):
            cram.outcome(misere=True, client=client, depth=depth)
    with pytest.raises(TypeError, match="depth"):
        cram.outcome(misere=True, client=client, depth=True)
    with pytest.raises(ValueError, match="in normal play the options"):
        cram.outcome(client=client, depth=2)
    with pytest.raises(ValueError, match="certificate"):
        cram.grundy(client=client, certificate=tmp_path / "c.json")
    with pytest.raises(TypeError, match=r"distributed\.Client"):
        cram.grundy(client="tcp://127.0.0.1:8786")
    with pytest.raises(ValueError, match="on a cluster only"):
        cram.outcome(checkpoint=tmp_path)
    with pytest.raises(ValueError, match="on a cluster only"):
        nk.Sprouts(3).outcome(misere=True, checkpoint=tmp_path)


def test_the_command_line_searches_on_a_scheduler(client, capsys, tmp_path):
    from nimkit.cli import main

    address = client.scheduler.address
    assert main(["cram", "4", "5", "--scheduler", address, "--checkpoint", str(tmp_path)]) == 0
    shown = capsys.readouterr().out
    assert "value: 2\n" in shown
    assert "outcome (normal play): N" in shown
    assert (tmp_path / "cluster-normal.json").exists()
    assert main(["sprouts", "4", "--misere", "--scheduler", address, "--depth", "1"]) == 0
    assert "outcome (misère play): P" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["cram", "4", "5", "--depth", "3", "--scheduler", address])
    assert "give --scheduler and --misere too" in capsys.readouterr().err


def test_the_top_is_laid_out_in_the_core():
    # Cram 2 x 3 in normal play: round 0 asks each of its options (one of each
    # shape: 2 x 2 squares, L shapes, 1 x 3 strips) whether its value is 0.
    top = nk._core.Top(nk.Cram(2, 3)._native)
    asked = top.open()
    assert {v for (_, _, v), _, _ in asked} == {0}
    assert len({key for _, key, _ in asked}) == len(asked) >= 2
    assert top.answer() is None
    for question, _, _ in asked:
        top.tell(question, False)
    assert top.answer() == 0  # what these answers say: no option has the value 0
    with pytest.raises(ValueError, match="no option"):
        top.tell((3, 0, 0), True)
    with pytest.raises(TypeError, match="misère question"):
        nk._core.Top(nk.Cram(2, 3)._native, 1).tell((0, 0, 0), True)
    with pytest.raises(ValueError, match="does not split"):
        nk._core.Top(nk.Heaps([1, 2])._native)
    assert cluster.DEPTH == 2
