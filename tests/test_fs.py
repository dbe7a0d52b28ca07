"""isz.fs: atomic writes leave no temp file; a killed writer's temp files are removed."""

from __future__ import annotations

import pytest

from isz.fs import remove_stale_temps, write_atomic


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path):
    target = tmp_path / "last.pt"
    target.write_text("old")
    write_atomic(target, lambda f: f.write("new"))
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last.pt"]


def test_write_atomic_error_keeps_old_file_and_removes_temp(tmp_path):
    target = tmp_path / "last.pt"
    target.write_text("old")

    def fail(f):
        f.write("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        write_atomic(target, fail)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last.pt"]


def test_remove_stale_temps_removes_only_write_atomic_leftovers(tmp_path):
    # what write_atomic leaves behind when kill -9 lands between mkstemp and the rename
    stale = [tmp_path / ".last.pt.ab12cd.tmp", tmp_path / ".buffer-3.npz.x9.tmp"]
    keep = [tmp_path / "last.pt", tmp_path / "notes.tmp", tmp_path / ".hidden"]
    for p in stale + keep:
        p.write_text("x")
    assert sorted(remove_stale_temps(tmp_path)) == sorted(stale)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in keep)
