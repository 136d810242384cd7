"""Sprouts searches that survive a restart (``checkpoint=`` in one process): what a
search learned saved on the way and read back, damage refused, SIGTERM and the
command line. Values are checked against the published outcomes of the n-spot games:
normal play a first-player win iff n mod 6 is 3, 4 or 5, the value then 1
(Applegate, Jacobson and Sleator 1991; Lemoine and Viennot, arXiv 1008.2320)."""

from __future__ import annotations

import json
import sys

import pytest

import nimkit as nk
from nimkit import Outcome, sprouts_checkpoint
from nimkit.cli import main

from .sigterm import stopped_by_sigterm


def _saves(monkeypatch, stop_at=None):
    """The entries of each save a search makes, as it makes them; with ``stop_at``,
    a Ctrl-C just after that save (the search then saves once more and stops)."""
    seen: list[dict[str, int]] = []
    real = sprouts_checkpoint.save

    def spy(game, directory):
        real(game, directory)
        seen.append(sprouts_checkpoint.read(directory))
        if len(seen) == stop_at:
            raise KeyboardInterrupt

    monkeypatch.setattr(sprouts_checkpoint, "save", spy)
    return seen


def test_a_search_in_many_steps_saves_its_numbers_and_gives_the_value(tmp_path, monkeypatch):
    seen = _saves(monkeypatch)
    # every=0: a save after each step, however short.
    assert nk.Sprouts(7).grundy(checkpoint=tmp_path, every=0) == 0
    assert len(seen) > 2
    # On the way the saves hold the numbers of the search under way; once it ends,
    # only the values it proved.
    assert all(s["couples"] > 0 for s in seen[:-1])
    assert seen[-1]["couples"] == 0
    assert seen[-1]["values"] > 0


def test_a_search_stopped_half_way_goes_on_from_its_save(tmp_path, monkeypatch):
    seen = _saves(monkeypatch, stop_at=3)
    with pytest.raises(KeyboardInterrupt):
        nk.Sprouts(8).outcome(checkpoint=tmp_path, every=0)
    assert len(seen) == 4  # the last save, as the Ctrl-C ends the run
    stopped = sprouts_checkpoint.read(tmp_path)
    assert stopped["couples"] > 0
    game = nk.Sprouts(8)
    assert sprouts_checkpoint.load(game, tmp_path) == stopped["values"] + stopped["couples"]
    assert nk.Sprouts(8).outcome(checkpoint=tmp_path) == Outcome.P


def test_a_save_serves_every_sprouts_position(tmp_path):
    assert nk.Sprouts(6).grundy(checkpoint=tmp_path) == 0
    assert nk.Sprouts(5).grundy(checkpoint=tmp_path) == 1
    assert nk.Sprouts("0*2+1a1a").grundy(checkpoint=tmp_path) == nk.Sprouts("0*2+1a1a").grundy()
    saved = sprouts_checkpoint.read(tmp_path)
    assert saved["game"] == {"family": "sprouts", "play": "normal"}
    assert saved["values"] > 0


def _rewrite(directory, change, *, checksum):
    """Rewrite a save's values with ``change`` (the list in, the list out), its
    SHA-256 recomputed when ``checksum`` (as a forger would)."""
    path = directory / sprouts_checkpoint.FILE
    data = json.loads(path.read_text())
    data["values"] = change(data["values"])
    if checksum:
        data["sha256"] = sprouts_checkpoint._digest(data["values"], data["couples"])
    path.write_text(json.dumps(data))


def test_damaged_and_forged_saves_are_refused_with_what_is_wrong(tmp_path):
    nk.Sprouts(6).grundy(checkpoint=tmp_path)
    good = (tmp_path / sprouts_checkpoint.FILE).read_text()

    def again(match):
        with pytest.raises(ValueError, match=match):
            nk.Sprouts(6).grundy(checkpoint=tmp_path)
        (tmp_path / sprouts_checkpoint.FILE).write_text(good)

    def first(entry):
        return lambda values: [entry, *values[1:]]

    _rewrite(tmp_path, lambda values: [[land, v + 1] for land, v in values], checksum=False)
    again("do not match their SHA-256")
    (tmp_path / sprouts_checkpoint.FILE).write_text(good[:-10])
    again("not a nimkit Sprouts checkpoint")
    _rewrite(tmp_path, first(["0*3", 9]), checksum=True)
    again(r"the land 0\*3 saved with the value 9: a land of 9 lives has a value below 9")
    _rewrite(tmp_path, first(["0*3x", 1]), checksum=True)
    again(r'the land "0\*3x" saved: not a Sprouts position')
    _rewrite(tmp_path, first(["", 0]), checksum=True)
    again("not one land with a move")
    for entry in (["0*3", -1], ["0*3"], ["0*3", 2**32], ["0*3", "1"], 5, ["\ud800", 0]):
        _rewrite(tmp_path, first(entry), checksum=True)
        again(r"value 0 is not a land's text and 1 whole number below 2\*\*32")
    _rewrite(tmp_path, first(["0." * 5000 + "0", 0]), checksum=True)
    again(r'the land "(0\.){40}\.\.\." saved: ')
    _rewrite(tmp_path, lambda values: [["0*2", 0], ["0*2", 1], *values], checksum=True)
    again(r"the land 0\*2 has two values, 0 and 1")
    (tmp_path / sprouts_checkpoint.FILE).write_text("[" * 100_000 + "]" * 100_000)
    again("not a nimkit Sprouts checkpoint")
    data = json.loads(good)
    data["couples"] = [["0*3", 1, 0, 7]]
    data["sha256"] = sprouts_checkpoint._digest(data["values"], data["couples"])
    (tmp_path / sprouts_checkpoint.FILE).write_text(json.dumps(data))
    again(r"the couple of the land 0\*3 and \*1 saved with the numbers 0 and 7")
    data["game"] = {"family": "cram"}
    (tmp_path / sprouts_checkpoint.FILE).write_text(json.dumps(data))
    again("a checkpoint of another game")
    # The save as it was is read as it was.
    assert nk.Sprouts(6).grundy(checkpoint=tmp_path) == 0
    with pytest.raises(ValueError, match="no checkpoint there"):
        sprouts_checkpoint.read(tmp_path / "none")


def test_misere_play_is_not_saved_in_one_process(tmp_path):
    with pytest.raises(ValueError, match="saved on a cluster only"):
        nk.Sprouts(5).outcome(misere=True, checkpoint=tmp_path)
    with pytest.raises(ValueError, match="every must be"):
        nk.Sprouts(5).grundy(checkpoint=tmp_path, every=-1)


SIGTERM_SCRIPT = """
import signal, sys, time, nimkit as nk
from nimkit import sprouts_checkpoint
if sys.argv[2] == "ignored":  # as in a background job of a script (cmd &)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
heard = []
def searching(values):
    if not heard:
        heard.append(values)
        print("searching", flush=True)
        time.sleep(600)  # the SIGTERM comes in here, in Python code the search called
game = nk.Sprouts(12)
with sprouts_checkpoint._Saving(game, sys.argv[1], float("inf"), None) as saving:
    saving.answer(0, searching)
print("not stopped", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX's")
@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_sigterm_saves_the_search_and_ends_the_process(tmp_path, sigint):
    # 12 spots takes half a minute: the signal comes while the search's first report
    # (its first land valued) sleeps, and every=inf saves only at the end.
    stopped_by_sigterm(SIGTERM_SCRIPT, str(tmp_path), sigint)
    saved = sprouts_checkpoint.read(tmp_path)
    assert saved["values"] >= 1
    assert sprouts_checkpoint.load(nk.Sprouts(12), tmp_path) == saved["values"] + saved["couples"]


def test_the_command_line_saves_normal_play(tmp_path, capsys):
    assert main(["sprouts", "7", "--checkpoint", str(tmp_path), "--every", "0"]) == 0
    out = capsys.readouterr().out
    assert "value: 0\n" in out
    assert "outcome (normal play): P" in out
    assert sprouts_checkpoint.read(tmp_path)["values"] > 0
    with pytest.raises(SystemExit) as refused:
        main(["sprouts", "7", "--checkpoint", str(tmp_path), "--misere"])
    assert refused.value.code == 2
    assert "--checkpoint saves the normal-play search: no --misere" in capsys.readouterr().err


def test_a_number_too_large_for_the_core_names_the_bound_it_passed():
    with pytest.raises(
        OverflowError, match=r"is 4294967296, over the largest allowed, 2\*\*32 - 1"
    ):
        nk._core.sprouts_step(nk.Sprouts(3)._native, 2**32)
    with pytest.raises(OverflowError, match=r"over the largest allowed, 2\*\*64 - 1"):
        nk._core.sprouts_step(nk.Sprouts(3)._native, None, 2**64)
