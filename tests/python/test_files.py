"""The one atomic file write (nimkit._files): a file is replaced whole or not at all,
and no temporary file is left behind."""

from __future__ import annotations

import os

import pytest

from nimkit import _files


def test_a_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    with _files.replaced(path) as out:
        out.write("new")
        # Until the body completes the old file stands.
        assert path.read_text() == "old"
    assert path.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_error_mid_write_leaves_the_old_file_and_no_temporary_file(tmp_path, error):
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")

    def write() -> None:
        with _files.replaced_binary(path) as out:
            out.write(b"half")
            raise error("stopped")

    with pytest.raises(error):
        write()
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_an_error_mid_write_of_a_new_file_leaves_nothing(tmp_path):
    path = tmp_path / "new.csv"
    seen = []

    def write() -> None:
        with _files.replaced_path(path) as partial:
            seen.append(partial)
            partial.write_text("half")
            raise RuntimeError("stopped")

    with pytest.raises(RuntimeError):
        write()
    assert seen[0].parent == tmp_path
    assert seen[0].name.endswith(_files.SUFFIX)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_removes_the_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def refuse(source, target):
        raise OSError("disk gone")

    monkeypatch.setattr(_files.os, "replace", refuse)

    def write() -> None:
        with _files.replaced(path) as out:
            out.write("new")

    with pytest.raises(OSError, match="disk gone"):
        write()
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_the_file_is_synced_and_so_is_its_directory(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def fsync(descriptor):
        synced.append(os.path.realpath(f"/proc/self/fd/{descriptor}"))
        real_fsync(descriptor)

    monkeypatch.setattr(_files.os, "fsync", fsync)
    path = tmp_path / "out.txt"
    with _files.replaced(path) as out:
        out.write("new")
    if not hasattr(os, "O_DIRECTORY") or not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc to name the synced descriptors")
    assert synced[-1] == os.path.realpath(tmp_path)
    assert synced[0].endswith(_files.SUFFIX)


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="no file modes")
def test_the_file_has_the_mode_the_umask_gives(tmp_path):
    for mask, mode in ((0o022, 0o644), (0o077, 0o600)):
        old = os.umask(mask)
        try:
            with _files.replaced(tmp_path / "out.txt") as out:
                out.write("x")
        finally:
            os.umask(old)
        assert (tmp_path / "out.txt").stat().st_mode & 0o777 == mode
